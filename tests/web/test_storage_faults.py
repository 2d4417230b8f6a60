"""A server whose database fails (docs/web-protocol.md, "When the database fails"):
a real full disk (a tmpfs the test mounts and fills) and a real lock another process
holds, on SQLite and on PostgreSQL. Requests answer 503 in the error shape with a
kind of their own and Retry-After, never a bare 500; `/api/health` says the database
takes no write (503) and recovers with it."""

from __future__ import annotations

from typing import Any

import httpx2
from fastapi.testclient import TestClient
from faults import fill, held_lock, small_disk
from liveserver import Server
from webapp import make_settings
from webclient import Conn

from skyjo.web.app import create_app

ROOM = {"seats": [{"name": "Ana"}, {"bot": "greedy"}]}


def health(server: Server) -> httpx2.Response:
    return httpx2.get(f"{server.base}/api/health", timeout=30)


def create(server: Server) -> httpx2.Response:
    return httpx2.post(f"{server.base}/api/rooms", json=ROOM, timeout=30)


def refused(response: httpx2.Response, kind: str) -> dict[str, Any]:
    """The answer is the documented 503 of `kind`; its error."""
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/json"
    assert int(response.headers["retry-after"]) > 0
    error = response.json()["error"]
    assert (error["code"], error["kind"]) == ("unavailable", kind), error
    return error


def test_a_full_disk_is_said_by_the_health_check_and_the_requests() -> None:
    with small_disk() as disk:
        server = Server(f"sqlite:///{disk / 'skyjo.db'}")
        try:
            assert health(server).json()["database"] == "ok"
            filler = fill(disk)
            said = health(server)
            assert said.status_code == 503 and said.json()["database"] == "storage_full"
            assert said.json()["ok"] is False
            refused(create(server), "storage_full")
            filler.unlink()  # the space is back, and so is the server
            assert health(server).json() == {**said.json(), "ok": True, "database": "ok"}
            assert create(server).status_code == 201
        finally:
            server.process.terminate()
            server.process.wait(timeout=30)


def test_a_lock_held_by_another_program_is_said_too(database: str) -> None:
    server = Server(database, SKYJO_DB_WAIT="1")
    try:
        with held_lock(database):
            said = health(server)
            assert said.status_code == 503 and said.json()["database"] == "storage_locked"
            refused(create(server), "storage_locked")
        assert health(server).status_code == 200
        assert create(server).status_code == 201
    finally:
        server.process.terminate()
        server.process.wait(timeout=30)


def test_a_fault_of_the_server_s_own_answers_500_in_the_error_shape() -> None:
    """Not a bare text with a traceback: the one error shape, kind `internal`."""
    app = create_app(make_settings())

    @app.get("/api/broken")
    async def broken() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/broken")
    assert response.status_code == 500
    assert response.json()["error"]["kind"] == "internal"
    assert "a bug" not in response.text and "Traceback" not in response.text


def _room(server: Server, seats: list[dict[str, Any]]) -> tuple[str, list[Conn]]:
    """A room of `seats` (no lobby), each human seat connected with its token."""
    host = server.post("/api/rooms", {"seats": seats, "lobby": False})
    tokens = [host["token"]]
    tokens += [
        server.post(f"/api/rooms/{host['code']}/join")["token"]
        for seat in seats[1:]
        if not seat.get("bot")
    ]
    conns = [server.conn(host["code"]) for _ in tokens]
    for conn, token in zip(conns, tokens, strict=True):
        conn.hello(token)
    return host["code"], conns


def _unavailable(conn: Conn, kind: str) -> None:
    """The next message of `conn` says the room waits for its database (no update first)."""
    message = conn.until(lambda m: m["type"] not in ("seats", "ready"))
    assert message == {"type": "unavailable", "kind": kind, "retry_after": 5}, message


def _back(conn: Conn, number: int) -> None:
    """The room says it is back, then gives the state again, at step `number`."""
    assert conn.receive() == {"type": "available"}
    assert conn.until(lambda m: m["type"] == "state")["number"] == number


def test_a_step_that_cannot_be_saved_is_undone_told_and_played_again_once_saved() -> None:
    """A full disk at a human's step: the step is undone (nobody hears of it), every
    player is told the room is unavailable, moves are refused meanwhile, a newcomer is
    told too; once the disk has room the room says it is back at the step before, the
    move is played, and a restart finds exactly what was told."""
    with small_disk() as disk:
        url = f"sqlite:///{disk / 'skyjo.db'}"
        server = Server(url)
        try:
            code, (ana, ben) = _room(server, [{"name": "Ana"}, {"name": "Ben"}])
            first = ana.obs["legal_actions"][0]  # type: ignore[index]
            filler = fill(disk)
            ana.move(first)
            _unavailable(ana, "storage_full")
            assert ana.error()["kind"] == "storage_full"
            _unavailable(ben, "storage_full")
            ana.move(first)  # refused while the room waits
            assert ana.error()["code"] == "unavailable"
            watcher = server.conn(code)
            assert watcher.hello()["number"] == 0
            _unavailable(watcher, "storage_full")
            filler.unlink()
            for conn in (ana, ben, watcher):
                _back(conn, 0)
            ana.move(first)
            for conn in (ana, ben, watcher):
                assert conn.until(lambda m: m["type"] == "update")["number"] == 1
            assert health(server).json()["database"] == "ok"
            server.kill()
            server = Server(url, port=server.port)
            again = server.conn(code)
            assert again.hello()["number"] == 1
        finally:
            Conn.close_all()
            server.process.terminate()
            server.process.wait(timeout=30)


def test_a_bot_s_step_that_cannot_be_saved_waits_for_the_disk() -> None:
    """The issue's case: the disk fills right after a human's step; the bot's step
    cannot be saved: the player is told at once (not left watching the bot's turn),
    and the bot plays once the disk has room."""
    with small_disk() as disk:
        server = Server(f"sqlite:///{disk / 'skyjo.db'}", SKYJO_BOT_DELAY="3")
        try:
            _, (ana,) = _room(server, [{"name": "Ana"}, {"bot": "greedy"}])
            for _ in range(2):  # the opening's two cards: then the bot's turn
                ana.move(ana.obs["legal_actions"][0])  # type: ignore[index]
                ana.until_number(ana.number + 1)
            filler = fill(disk)
            _unavailable(ana, "storage_full")
            filler.unlink()
            _back(ana, 2)
            update = ana.until(lambda m: m["type"] == "update")
            assert (update["number"], update["seat"]) == (3, 1)
        finally:
            Conn.close_all()
            server.process.terminate()
            server.process.wait(timeout=30)


def test_a_step_waits_out_a_lock_held_by_another_program(database: str) -> None:
    server = Server(database, SKYJO_DB_WAIT="1")
    try:
        _, (ana, ben) = _room(server, [{"name": "Ana"}, {"name": "Ben"}])
        first = ana.obs["legal_actions"][0]  # type: ignore[index]
        with held_lock(database):
            ana.move(first)
            _unavailable(ben, "storage_locked")
        _back(ben, 0)
        ana.until(lambda m: m["type"] == "state")
        ana.move(first)
        assert ben.until(lambda m: m["type"] == "update")["number"] == 1
    finally:
        Conn.close_all()
        server.process.terminate()
        server.process.wait(timeout=30)
