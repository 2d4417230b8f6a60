"""The real server for tests: `skyjo serve` in a subprocess on a free localhost port,
and a websockets client with the TestClient's interface (for `webclient.Conn`)."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
from webclient import Conn
from websockets.sync.client import ClientConnection, connect


class Socket:
    """A websockets client connection with the TestClient's send_json/receive_json."""

    def __init__(self, url: str) -> None:
        self._opened = connect(url, open_timeout=10)
        self.connection: ClientConnection = self._opened.__enter__()

    def send_json(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def receive_json(self) -> dict[str, Any]:
        return json.loads(self.connection.recv(timeout=30))

    def close(self) -> None:
        self._opened.__exit__(None, None, None)


class Server:
    """`skyjo serve` on a free localhost port with the database `url`."""

    def __init__(
        self,
        url: str,
        port: int | None = None,
        workers: int = 1,
        open_files: int | None = None,
        **env: str,
    ) -> None:
        """Start it, on `port` (else a free one: a server started again after `kill` takes
        its predecessor's), with `workers` processes (`--workers`), under a limit of
        `open_files` (RLIMIT_NOFILE, soft and hard; None: this process's); `env` adds
        environment variables (SKYJO_BOT_DELAY="0" by default). `banner` is its
        start-up line."""
        self.url = url
        if port is None:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
        self.port = port
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "SKYJO_BOT_DELAY": "0", "SKYJO_ABSENT_AFTER": "3600", **env}
        command = [sys.executable, "-m", "skyjo", "serve", "--port", str(self.port), "--db", url]
        if workers != 1:
            command += ["--workers", str(workers)]
        limited = None if open_files is None else _open_files_limit(open_files)
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, text=True, preexec_fn=limited
        )
        assert self.process.stdout is not None
        self.banner = banner = self.process.stdout.readline()
        assert f"http://127.0.0.1:{self.port}" in banner, banner
        self._wait_until_up()

    def _wait_until_up(self, seconds: float = 30.0) -> None:
        """Wait until the server answers (it binds the port after printing its address)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the server stopped"
            try:
                if httpx2.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx2.TransportError:
                time.sleep(0.05)  # polling a condition: the port is not open yet
        raise AssertionError("the server did not come up")

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = httpx2.post(f"{self.base}{path}", json=body or {}, timeout=10)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def conn(self, code: str) -> Conn:
        return Conn(None, code, Socket(f"ws://127.0.0.1:{self.port}/ws/{code}"))

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind. The server's own processes (the bots'
        workers) must then end by themselves: none outlives it."""
        children = _children(self.process.pid)
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        if self.process.stdout:
            self.process.stdout.close()
        deadline = time.monotonic() + 20
        while (left := [pid for pid in children if _alive(pid)]) and time.monotonic() < deadline:
            time.sleep(0.1)  # polling a condition: the workers notice their server is gone
        assert not left, f"processes {left} outlived the killed server"


def _open_files_limit(count: int) -> Callable[[], None]:
    """What the child runs before `skyjo serve`: a limit of `count` open files."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))

    return limit


def _children(pid: int) -> list[int]:
    """The processes `pid` started (Linux /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
