"""The WebSockets a server keeps open (docs/web-protocol.md, "Close codes"; docs/deploy.md,
"Open files"): a crowd of idle sockets from one address, past its cap or the server's,
is refused with the documented close code while everyone else is still answered; a
socket that never says `hello` is closed by the server; and unknown room codes are
limited per address, found ones not (`codes_rate`)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from liveserver import Server
from postgres import Postgres
from starlette.testclient import TestClient
from webapp import make_settings, serving
from webclient import create_room
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from skyjo.web.app import create_app
from skyjo.web.limits import SharedLimits
from skyjo.web.protocol import ProtocolError
from skyjo.web.settings import Settings
from skyjo.web.sockets import SERVER_FULL, TOO_MANY_FROM_ADDRESS, socket_caps

ROOM = {"seats": [{"name": "Ana"}, {"bot": "random"}]}
#: The open-file limit the live servers run under: 128 files kept, 128 sockets at most.
OPEN_FILES = 256
#: The crowd of one address: more sockets than the server has files.
CROWD = 300


@pytest.fixture(scope="module")
def crowded() -> Iterator[Server]:
    """A server under `OPEN_FILES`, 20 sockets per address, ungreeted ones kept long."""
    live = Server(
        "sqlite://",
        open_files=OPEN_FILES,
        SKYJO_SOCKETS_PER_ADDRESS="20",
        SKYJO_HELLO_WITHIN="600",
        SKYJO_BOT_PROCESSES="0",
    )
    yield live
    live.kill()


async def _open_crowd(url: str, count: int, **options: Any) -> list[ClientConnection]:
    """`count` sockets to `url`, opened one after another, none saying anything."""
    return [await connect(url, open_timeout=20, **options) for _ in range(count)]


async def _closed_by_server(crowd: list[ClientConnection], expected: int) -> dict[int, int]:
    """Wait until `expected` of `crowd` are closed by the server (at most 30 s): how
    many with each close code."""
    waits = {asyncio.ensure_future(ws.wait_closed()): ws for ws in crowd}
    deadline = time.monotonic() + 30
    closed: dict[int, int] = {}
    pending = set(waits)
    while sum(closed.values()) < expected and pending:
        left = deadline - time.monotonic()
        assert left > 0, f"only {closed} closed of {expected}"
        done, pending = await asyncio.wait(pending, timeout=left, return_when="FIRST_COMPLETED")
        for finished in done:
            code = waits[finished].close_code
            assert code is not None
            closed[code] = closed.get(code, 0) + 1
    for waiting in pending:
        waiting.cancel()
    return closed


async def _still_open(crowd: list[ClientConnection]) -> list[ClientConnection]:
    """The sockets of `crowd` the server still holds: open, and answering a ping."""
    held = [ws for ws in crowd if ws.state is State.OPEN]
    for ws in held:
        await asyncio.wait_for(await ws.ping(), 10)
    return held


async def _greeted_elsewhere(port: int, code: str) -> dict[str, Any]:
    """A spectator of room `code` from another address (127.0.0.2): its first message."""
    url = f"ws://127.0.0.1:{port}/ws/{code}"
    async with connect(url, local_addr=("127.0.0.2", 0), open_timeout=10) as ws:
        await ws.send('{"type": "hello", "token": null}')
        return json.loads(await asyncio.wait_for(ws.recv(), 10))


def _answers_everyone_else(server: Server) -> None:
    """While the crowd is held: the health, a page, a new room and its WebSocket (from
    another address) all answer."""
    assert httpx2.get(f"{server.base}/api/health", timeout=10).json()["ok"] is True
    assert httpx2.get(f"{server.base}/", timeout=10).status_code == 200
    room = server.post("/api/rooms", ROOM)
    state = asyncio.run(_greeted_elsewhere(server.port, room["code"]))
    assert state["type"] == "state", state


def test_the_start_up_line_names_the_file_limit_and_the_caps(crowded: Server) -> None:
    assert f"open files {OPEN_FILES}: at most 128 WebSockets, 20 per address" in crowded.banner


def test_a_crowd_from_one_address_past_its_cap_is_refused_and_the_rest_still_answered(
    crowded: Server,
) -> None:
    code = crowded.post("/api/rooms", ROOM)["code"]
    url = f"ws://127.0.0.1:{crowded.port}/ws/{code}"

    async def crowd() -> None:
        sockets = await _open_crowd(url, CROWD)
        try:
            closed = await _closed_by_server(sockets, CROWD - 20)
            assert closed == {TOO_MANY_FROM_ADDRESS: CROWD - 20}
            refused = next(ws for ws in sockets if ws.close_code is not None)
            assert refused.close_reason == "too many connections from your address: 20"
            assert len(await _still_open(sockets)) == 20
            await asyncio.to_thread(_answers_everyone_else, crowded)
            # the count goes back down however a socket ends: closed, or cut off
            held = [ws for ws in sockets if ws.state is State.OPEN]
            for ws in held[:5]:
                await ws.close()
            for ws in held[5:10]:
                ws.transport.abort()
            await _reopen(url, 10)
        finally:
            for ws in sockets:
                ws.transport.abort()

    asyncio.run(crowd())


async def _reopen(url: str, count: int) -> None:
    """Open `count` more sockets once the server has counted the ended ones off (its
    refusals, 4429, meanwhile: a condition polled, at most 30 s)."""
    deadline = time.monotonic() + 30
    opened: list[ClientConnection] = []
    try:
        while len(opened) < count:
            assert time.monotonic() < deadline, f"only {len(opened)} opened again"
            ws = await connect(url, open_timeout=10)
            try:
                await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                opened.append(ws)  # held: no close came
                continue
            except ConnectionClosed:
                pass
            assert ws.close_code == TOO_MANY_FROM_ADDRESS
    finally:
        for ws in opened:
            await ws.close()


def test_past_the_server_s_total_the_crowd_is_told_to_come_back_later() -> None:
    """No cap per address: the total, under the file limit, still keeps files for the
    HTTP requests, the database and the log."""
    server = Server(
        "sqlite://",
        open_files=OPEN_FILES,
        SKYJO_SOCKETS_PER_ADDRESS="0",
        SKYJO_HELLO_WITHIN="600",
        SKYJO_BOT_PROCESSES="0",
    )
    try:
        assert "at most 128 WebSockets, no cap per address" in server.banner
        code = server.post("/api/rooms", ROOM)["code"]

        async def crowd() -> None:
            sockets = await _open_crowd(f"ws://127.0.0.1:{server.port}/ws/{code}", CROWD)
            try:
                closed = await _closed_by_server(sockets, CROWD - 128)
                assert closed == {SERVER_FULL: CROWD - 128}
                assert len(await _still_open(sockets)) == 128
                health = httpx2.get(f"{server.base}/api/health", timeout=10)
                assert health.status_code == 200
                assert server.post("/api/rooms", ROOM)["code"]
                assert httpx2.get(f"{server.base}/r/{code}", timeout=10).status_code == 200
            finally:
                for ws in sockets:
                    ws.transport.abort()

        asyncio.run(crowd())
    finally:
        server.kill()


def test_a_socket_that_never_says_hello_is_closed_by_the_server() -> None:
    """The greeted socket, opened first, outlives the silent one (4408)."""
    server = Server("sqlite://", SKYJO_HELLO_WITHIN="1", SKYJO_BOT_PROCESSES="0")
    try:
        code = server.post("/api/rooms", ROOM)["code"]
        greeted = server.conn(code)
        assert greeted.hello()["type"] == "state"

        async def silent() -> tuple[int | None, str | None]:
            url = f"ws://127.0.0.1:{server.port}/ws/{code}"
            async with connect(url, open_timeout=10) as ws:
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 30)
                return ws.close_code, ws.close_reason

        assert asyncio.run(silent()) == (4408, "no hello within 1 s")
        greeted.send({"type": "resync"})
        assert greeted.receive()["type"] == "state"
        greeted.close()
    finally:
        server.kill()


def test_behind_a_trusted_proxy_the_cap_is_the_forwarded_client_s() -> None:
    """The address is the one the limits key on (`limits.client_address`, after the
    proxy middleware): each client behind the proxy has its own cap."""
    app = create_app(make_settings(sockets_per_address=1, trusted_proxies="127.0.0.1"))
    with TestClient(app, client=("127.0.0.1", 4000)) as client:
        code = client.post("/api/rooms", json={"seats": [{"name": "Ana"}, {}]}).json()["code"]
        ana, other = {"X-Forwarded-For": "203.0.113.1"}, {"X-Forwarded-For": "203.0.113.2"}
        hello = {"type": "hello", "token": None}
        # a room's socket stays open until it ends (one of no room would end at once)
        with client.websocket_connect(f"/ws/{code}", headers=ana) as first:
            with client.websocket_connect(f"/ws/{code}", headers=ana) as second:
                refused = second.receive()
                assert (refused["type"], refused["code"]) == ("websocket.close", 4429)
            with client.websocket_connect(f"/ws/{code}", headers=other) as third:
                third.send_json(hello)
                assert third.receive_json()["type"] == "state"  # past the gate
            first.send_json(hello)
            assert first.receive_json()["type"] == "state"
        # the session ends once the server's side has: the count is given back
        with client.websocket_connect(f"/ws/{code}", headers=ana) as again:
            again.send_json(hello)
            assert again.receive_json()["type"] == "state"


def test_a_cluster_counts_unknown_codes_once_and_each_process_refuses_found_ones(
    postgres: Postgres,
) -> None:
    """`SharedLimits`: two processes spend from one bucket; the one that refused the
    address refuses its lookups until the wait is over, counting nothing."""
    url = postgres.database()
    one, two = (SharedLimits(url, 0, 0, 0, codes=2) for _ in range(2))
    try:

        async def scenario() -> None:
            await one.check("codes_rate", "10.0.0.7")
            await two.check("codes_rate", "10.0.0.7")
            two.check_waiting("codes_rate", "10.0.0.7")  # nobody refused it yet
            with pytest.raises(ProtocolError) as refused:
                await one.check("codes_rate", "10.0.0.7")  # the third, in either process
            assert refused.value.kind == "codes_rate"
            with pytest.raises(ProtocolError):
                one.check_waiting("codes_rate", "10.0.0.7")
            two.check_waiting("codes_rate", "10.0.0.7")  # it learns at its own refusal
            one.check_waiting("codes_rate", "10.0.0.8")  # another address

        asyncio.run(scenario())
    finally:
        one.close()
        two.close()


def test_the_caps_stay_below_the_file_limit() -> None:
    settings = Settings(sockets_per_address=64, max_sockets=4096)
    assert socket_caps(settings, False, 1024).total == 768
    assert socket_caps(settings, True, 1024).total == 384  # two files a relayed socket
    assert socket_caps(settings, False, 256).total == 128
    assert socket_caps(settings, False, 64).total == 32
    assert socket_caps(settings, False, 1 << 20).total == 4096
    assert socket_caps(settings, False, None).total == 4096
    assert socket_caps(settings, False, 70).per_address == 35  # never above the total


# --- unknown room codes ------------------------------------------------------------


def _codes_refusal(response: httpx2.Response) -> dict[str, Any]:
    assert response.status_code == 429, response.text
    error = response.json()["error"]
    assert (error["code"], error["kind"]) == ("rate_limited", "codes_rate")
    assert error["params"]["limit"] == 3
    assert response.headers["Retry-After"] == str(error["params"]["retry_after"])
    assert "too many unknown room codes tried from your address: at most 3" in error["message"]
    return error


def test_unknown_codes_are_limited_per_address_and_found_ones_are_not_counted() -> None:
    with serving(codes_per_hour=3) as client:
        code = create_room(client, [{"name": "Ana"}, {"bot": "random"}])["code"]
        for _ in range(10):  # hits are free
            assert client.get(f"/api/rooms/{code}").status_code == 200
        assert client.get("/api/rooms/NOROOM").status_code == 404
        assert client.post("/api/rooms/NOROOM/join", json={}).status_code == 404
        with client.websocket_connect("/ws/NOROOM") as ws:
            assert ws.receive_json()["code"] == "no_room"
        _codes_refusal(client.get("/api/rooms/NOROOM2"))  # the fourth
        # meanwhile every lookup of the address is refused, a hit too: a guess learns nothing
        _codes_refusal(client.get(f"/api/rooms/{code}"))
        _codes_refusal(client.post(f"/api/rooms/{code}/join", json={}))
        with client.websocket_connect(f"/ws/{code}") as ws:
            refused = ws.receive_json()
            assert (refused["code"], refused["kind"]) == ("rate_limited", "codes_rate")
            assert ws.receive()["code"] == TOO_MANY_FROM_ADDRESS
        for path in ("record", "replay", "review", "qr.svg"):  # every route of a code
            _codes_refusal(client.get(f"/api/rooms/{code}/{path}"))
        _codes_refusal(client.post(f"/api/rooms/{code}/practice", json={"step": 0}))
        # another address is not concerned
        other = TestClient(client.app, client=("192.0.2.9", 4000))
        assert other.get(f"/api/rooms/{code}").status_code == 200
        assert other.get(f"/api/rooms/{code}/record").status_code == 409  # not over: found
        assert other.get("/api/rooms/NOROOM/replay").status_code == 404
        assert other.get("/api/rooms/NOROOM/record").status_code == 404
        assert other.post("/api/rooms/NOROOM/review").status_code == 404
        _codes_refusal(other.get("/api/rooms/NOROOM/review"))  # its fourth


def test_the_deploy_docs_give_the_caps_the_server_sets() -> None:
    """docs/deploy.md's numbers for a service's file limits are `socket_caps`'s."""
    docs = (Path(__file__).parents[2] / "docs" / "deploy.md").read_text(encoding="utf-8")
    settings = Settings()
    at_8192, clustered = socket_caps(settings, False, 8192), socket_caps(settings, True, 8192)
    assert "LimitNOFILE=8192" in docs
    assert f"open files 8192: at most {at_8192.total} WebSockets, 64 per address" in docs
    assert f"the caps are {at_8192.total} WebSockets in all" in docs
    assert f"on PostgreSQL, {clustered.total:,} per process" in docs
    assert f"1,024, gives {socket_caps(settings, False, 1024).total} WebSockets" in docs
