"""docs/deploy.md's example, run: two `skyjo serve` processes on one PostgreSQL
database behind Debian's nginx with examples/deploy/nginx-skyjo.conf (its ports
made free ones), no sticky sessions. A room is made, joined and played through
nginx, its requests and WebSockets spread over both processes by nginx's round
robin; every viewer gets every update once, in order; then the room's owner is
killed with SIGKILL and the game goes on through nginx at the other process, no
step lost or doubled."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from liveserver import Server, Socket
from postgres import Postgres
from saved import history, reconnect, two_players, updates
from webclient import Conn, play_game

from skyjo.web.cluster import Ownership

EXAMPLE = Path(__file__).parents[2] / "examples" / "deploy" / "nginx-skyjo.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
ROOM = {
    "seats": [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}],
    "lobby": False,
    "rules": {"target_score": 40},
}
#: The players answer at once, all from one address (nginx's clients here).
FAST = {"SKYJO_RATE": "1000", "SKYJO_JOINS_PER_HOUR": "0", "SKYJO_ROOMS_PER_HOUR": "0"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """nginx in the foreground on a free localhost port, with the example's site
    (its `listen` and upstream ports replaced) in a minimal main configuration of
    its own folder: its pid file, logs and temporary files there."""

    def __init__(self, folder: Path, ports: list[int]) -> None:
        site = EXAMPLE.read_text()
        assert "listen 80;" in site and "127.0.0.1:8001" in site and "127.0.0.1:8002" in site
        self.port = _free_port()
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        for old, new in zip((8001, 8002), ports, strict=True):
            site = site.replace(f"127.0.0.1:{old};", f"127.0.0.1:{new};")
        (folder / "site.conf").write_text(site)
        (folder / "nginx.conf").write_text(
            "user root;\n"  # as root, its workers would be `nobody`, shut out of this folder
            f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\ndaemon off;\n"
            "events { worker_connections 512; }\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {folder}/body;\n"
            f"  proxy_temp_path {folder}/proxy;\n  include {folder}/site.conf;\n}}\n"
        )
        self.folder = folder
        command = [
            NGINX,
            "-p",
            f"{folder}/",
            "-c",
            f"{folder}/nginx.conf",
            "-e",
            f"{folder}/error.log",
        ]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            assert self.process.poll() is None, self.log()
            try:
                if httpx2.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            assert time.monotonic() < deadline, self.log()
            time.sleep(0.05)  # polling a condition: nginx has not opened its port yet

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text() if path.exists() else ""

    def post(self, path: str, body: dict | None = None) -> dict:
        response = httpx2.post(f"{self.base}{path}", json=body or {}, timeout=10)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def conn(self, code: str) -> Conn:
        return Conn(None, code, Socket(f"ws://127.0.0.1:{self.port}/ws/{code}"))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)
        if self.process.stderr:
            self.process.stderr.close()


@pytest.fixture
def pg(postgres: Postgres) -> str:
    return postgres.database()


@pytest.fixture
def two(pg: str) -> Iterator[list[Server]]:
    servers = [Server(pg, **FAST), Server(pg, **FAST)]
    yield servers
    Conn.close_all()
    for server in servers:
        if server.process.poll() is None:
            server.kill()


def _established(port: int) -> int:
    """How many TCP connections to localhost port `port` are established (Linux
    /proc/net/tcp: the local address's port in hex, state 01)."""
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(
        1 for row in rows if row.split()[1].endswith(f":{port:04X}") and row.split()[3] == "01"
    )


def _holds(server: Server, port: int) -> bool:
    """Whether `server`'s process listens on localhost port `port` (Linux /proc: the
    listening socket's inode among the process's open files)."""
    rows = [row.split() for row in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    inodes = {row[9] for row in rows if row[1].endswith(f":{port:04X}") and row[3] == "0A"}
    fds = Path(f"/proc/{server.process.pid}/fd")
    return any(
        os.readlink(fd).removeprefix("socket:[").rstrip("]") in inodes for fd in fds.iterdir()
    )


def _owner(servers: list[Server], code: str) -> Server:
    """The server holding room `code`: its lock connection is named by the process's
    internal address (docs/deploy.md), whose port that process listens on."""
    looking = Ownership(servers[0].url, "test")
    try:
        address = looking.owner(code)
    finally:
        looking.close()
    assert address, "nobody holds the room"
    port = int(address.rsplit(":", 1)[1])
    return next(server for server in servers if _holds(server, port))


def test_two_processes_behind_nginx_play_one_room_and_survive_one_killed(
    pg: str, two: list[Server], tmp_path: Path
) -> None:
    proxy = Nginx(tmp_path, [server.port for server in two])
    try:
        code, host, guest, ana, ben = two_players(ROOM, proxy)
        spectator = proxy.conn(code)
        assert spectator.hello()["you"] is None
        rng = random.Random(11)
        play_game(spectator, {0: ana, 1: ben}, rng, until=lambda w: w.number >= 30)
        for conn in (ana, ben):
            conn.until_number(spectator.number)
        steps = updates(spectator)
        assert [n for n, _ in steps] == list(range(1, len(steps) + 1))
        assert updates(ana) == steps and updates(ben) == steps
        assert history(pg, code) == [action for _, action in steps]
        # nginx spread the WebSockets: each process holds some of them (the owner's
        # own, and those the other relays to it)
        assert all(_established(server.port) for server in two)
        # the owner killed: the game goes on through nginx at the other process
        _owner(two, code).kill()
        told = updates(spectator)
        Conn.close_all()
        ana, ben = (
            reconnect(proxy.conn, code, host["token"]),
            reconnect(proxy.conn, code, guest["token"]),
        )
        assert min(ana.number, ben.number) >= len(told)
        before = ana.number
        play_game(ana, {0: ana, 1: ben}, rng, until=lambda w: w.number >= before + 12)
        kept = history(pg, code)
        assert kept[: len(told)] == [action for _, action in told]  # each once, in order
        assert len(kept) >= before + 12
    finally:
        Conn.close_all()
        proxy.stop()
