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
    server = Server(database)
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
