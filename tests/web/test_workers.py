"""The bots' worker processes (skyjo.web.thinking) end with their server, however
it dies: `skyjo serve` with two workers thinking for a room of bots is killed
with SIGKILL, and no process it started is left (`liveserver.Server.kill`)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from liveserver import Server, _alive, _children

from skyjo.web.thinking import WORKER_NICENESS

BOTS = {"seats": [{"bot": "search"}, {"bot": "greedy"}, {"bot": "expected"}], "host_seat": None}


def _workers(server: Server) -> list[int]:
    """The server's bot workers (its spawned Python processes, not the resource tracker)."""
    found = []
    for pid in _children(server.process.pid):
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        if b"spawn_main" in command:
            found.append(pid)
    return found


def _niceness(pid: int) -> int | None:
    """The scheduling niceness of process `pid` (None: it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except FileNotFoundError:
        return None


def _started_workers(server: Server, count: int) -> list[int]:
    """The server's `count` workers, once every one has started: its priority
    lowered below the server's, which `_start_worker` does once it has asked
    for the parent-death signal. (They start in the background, after the
    server answers.)"""
    own = _niceness(server.process.pid)
    assert own is not None and own + WORKER_NICENESS <= 19
    deadline = time.monotonic() + 60
    while True:
        workers = [pid for pid in _workers(server) if _niceness(pid) == own + WORKER_NICENESS]
        if len(workers) == count:
            return workers
        assert time.monotonic() < deadline, f"{len(workers)} of {count} workers started"
        time.sleep(0.05)  # polling a condition: the workers start


def test_bot_workers_die_with_a_server_killed_by_sigkill_even_when_they_cannot_run(
    tmp_path: Path,
) -> None:
    """The workers are stopped (SIGSTOP) first: their Python cannot run, as when
    starved of CPU or held in compiled code, so their watch thread cannot notice
    anything. The kernel's parent-death signal still ends them."""
    server = Server(f"sqlite:///{tmp_path / 'skyjo.db'}", SKYJO_BOT_PROCESSES="2")
    workers = _started_workers(server, 2)
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
