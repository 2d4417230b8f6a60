"""The real server (uvicorn in a subprocess, a SQLite file) killed with SIGKILL
in the middle of a turn and started again: every game resumes where it was,
and the clients reconnect with their tokens and carry on."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from webclient import Conn, play_game
from websockets.sync.client import ClientConnection, connect

from skyjo.engine import DRAW, SWAP
from skyjo.web.storage import SCHEMA_VERSION, Store


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

    def __init__(self, url: str) -> None:
        self.url = url
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "SKYJO_BOT_DELAY": "0", "SKYJO_ABSENT_AFTER": "3600"}
        command = [sys.executable, "-m", "skyjo", "serve", "--port", str(self.port), "--db", url]
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        banner = self.process.stdout.readline()
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
        """SIGKILL: no shutdown of any kind."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        if self.process.stdout:
            self.process.stdout.close()


@pytest.fixture
def database(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'skyjo.db'}"
    Conn.close_all()


def test_a_killed_server_resumes_every_game_where_it_was(database: str) -> None:
    server = Server(database)
    try:
        seats = [{"name": "Ana"}, {"name": "Ben"}, {"name": "Bot", "bot": "greedy"}]
        first = server.post("/api/rooms", {"seats": seats})
        guest = server.post(f"/api/rooms/{first['code']}/join")
        second = server.post("/api/rooms", {"seats": [{"name": "Cleo"}, {"bot": "expected"}]})
        ana, ben = server.conn(first["code"]), server.conn(first["code"])
        ana.hello(first["token"])
        ben.hello(guest["token"])
        players = {0: ana, 1: ben}

        def ana_may_draw(watcher: Conn) -> bool:
            return watcher.number > 12 and DRAW in ana.obs["legal_actions"]  # type: ignore[index]

        play_game(ana, players, random.Random(7), until=ana_may_draw)
        ana.move(DRAW)  # half a turn: Ana holds the drawn card when the server dies
        ana.until_number(ana.number + 1)
        ben.until_number(ana.number)
        held, number = ana.obs["held"], ana.number  # type: ignore[index]
        before = {0: ana.obs, 1: ben.obs}
        cleo = server.conn(second["code"])
        cleo.hello(second["token"])
        cleo.move(0)
        cleo.until_number(1)
        server.kill()
        Conn.close_all()
    except BaseException:
        server.kill()
        raise

    server = Server(database)
    try:
        ana, ben = server.conn(first["code"]), server.conn(first["code"])
        state = ana.hello(first["token"])
        assert state["number"] == number and state["you"] == 0
        assert state["observation"]["held"] == held and state["observation"]["source"] == "deck"
        assert state["observation"] == before[0]
        assert ben.hello(guest["token"])["observation"] == before[1]
        ana.move(next(a for a in ana.obs["legal_actions"] if a >= SWAP))  # type: ignore[index]
        ana.until_number(number + 1)
        play_game(ana, {0: ana, 1: ben}, random.Random(8), until=lambda w: w.number > number + 20)
        cleo = server.conn(second["code"])
        assert cleo.hello(second["token"])["number"] == 1
        cleo.move(1)
        assert cleo.until(lambda m: m["type"] == "update")["number"] == 2
    finally:
        Conn.close_all()
        server.kill()
    store = Store(database)
    assert store.version() == SCHEMA_VERSION
    assert {r.code for r in store.active()} >= {first["code"], second["code"]}
    store.close()
