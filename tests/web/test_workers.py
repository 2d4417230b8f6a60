"""The bots' worker processes (skyjo.web.thinking) end with their server, however
it dies: `skyjo serve` with two workers thinking for a room of bots is killed
with SIGKILL, and no process it started is left (`liveserver.Server.kill`)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from liveserver import Server, _alive, _children

BOTS = {"seats": [{"bot": "search"}, {"bot": "greedy"}, {"bot": "expected"}], "host_seat": None}


def _workers(server: Server) -> list[int]:
    """The server's bot workers (its spawned Python processes, not the resource tracker)."""
    found = []
    for pid in _children(server.process.pid):
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        if b"spawn_main" in command:
            found.append(pid)
    return found


def test_bot_workers_die_with_a_server_killed_by_sigkill_even_when_they_cannot_run(
    tmp_path: Path,
) -> None:
    """The workers are stopped (SIGSTOP) first: their Python cannot run, as when
    starved of CPU or held in compiled code, so their watch thread cannot notice
    anything. The kernel's parent-death signal still ends them."""
    server = Server(f"sqlite:///{tmp_path / 'skyjo.db'}", SKYJO_BOT_PROCESSES="2")
    workers = _workers(server)
    try:
        assert len(workers) == 2, workers
        code = server.post("/api/rooms", BOTS)["code"]
        watcher = server.conn(code)
        watcher.hello()
        watcher.until_number(8)  # the workers have thought for some moves
        watcher.ws.close()
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        server.kill()  # asserts that no process of the server outlives it
    finally:
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
