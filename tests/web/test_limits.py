"""Per-client limits (docs/web-protocol.md, "Limits"): rooms created, game records
uploaded and WebSocket messages, per client address, the real client's behind a
trusted proxy; small limits set through Settings, so that a test sends a few
requests, not thousands. (Scoresheets: tests/web/test_scorepad_owners.py.)"""

from __future__ import annotations

import asyncio
import json
import re

import httpx2
import pytest
from i18n_js import render
from liveserver import Server
from postgres import Postgres
from sqlalchemy import select, update
from starlette.testclient import TestClient
from webapp import JSON, make_settings, serving
from webclient import Conn, create_room
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from skyjo.engine import REVEAL
from skyjo.web.app import STATIC, create_app
from skyjo.web.limits import BUCKETS, FORGET_EVERY, RateLimit, SharedLimits
from skyjo.web.validation import ProtocolError

I18N = STATIC / "i18n.js"
ROOM = {"seats": [{"name": "Ana"}, {"bot": "random"}]}


def _refusal(response: httpx2.Response, kind: str, limit: int) -> dict:
    """`response` is a 429 of limit `kind`: its error, checked."""
    assert response.status_code == 429, response.text
    error = response.json()["error"]
    assert (error["code"], error["kind"]) == ("rate_limited", kind)
    assert error["params"]["limit"] == limit
    wait = error["params"]["retry_after"]
    assert isinstance(wait, int) and 1 <= wait <= 3600
    assert response.headers["Retry-After"] == str(wait)
    assert f"at most {limit} an hour; try again in {wait} s" in error["message"]
    return error


def test_rooms_and_uploads_per_address_answer_429_with_the_limit_and_when_to_retry() -> None:
    with serving(rooms_per_hour=3, replays_per_hour=2) as client:
        for _ in range(3):
            assert client.post("/api/rooms", json=ROOM).status_code == 201
        errors = [_refusal(client.post("/api/rooms", json=ROOM), "rooms_rate", 3)]
        assert len(client.app.state.lobby.rooms) == 3  # type: ignore[attr-defined]
        bad = client.post("/api/rooms", json={"seats": []})  # refused for itself first
        assert bad.status_code == 400
        for _ in range(2):
            assert (
                client.post("/api/replays", content=b"{}", headers=JSON).status_code == 400
            )  # counted
        errors.append(
            _refusal(client.post("/api/replays", content=b"{}", headers=JSON), "replays_rate", 2)
        )
        # one room more every 20 minutes (less the time the three rooms took to make)
        assert 1100 <= errors[0]["params"]["retry_after"] <= 1200
    english = render(I18N, "errorText", "en", errors)
    spanish = render(I18N, "errorText", "es", errors)
    for error, en, es in zip(errors, english, spanish, strict=True):
        assert en == error["message"]
        assert es != en and str(error["params"]["limit"]) in es and "{" not in es


def test_a_limit_refills_evenly_and_forgets_the_oldest_addresses() -> None:
    limit = RateLimit(2, 60.0, max_keys=2)  # 2 a minute: one more every 30 s
    assert limit.take("a", now=0) is None and limit.take("a", now=0) is None
    refusal = limit.take("a", now=0)
    assert refusal is not None and (refusal.limit, refusal.retry_after) == (2, 30.0)
    assert limit.take("a", now=15).retry_after == pytest.approx(15.0)  # type: ignore[union-attr]
    assert limit.take("a", now=30.5) is None  # half a token was left from 15 s on
    assert limit.take("b", now=31) is None and limit.take("c", now=31) is None
    assert limit.take("a", now=31) is None  # forgotten (the oldest of three): a full allowance
    assert RateLimit(0, 60.0).take("a") is None  # 0: no limit


@pytest.mark.parametrize(
    ("trusted", "peer", "forwarded", "key"),
    [
        ("10.0.0.1", "10.0.0.1", "203.0.113.7", "203.0.113.7"),  # the proxy is trusted
        ("10.0.0.1", "198.51.100.2", "203.0.113.7", "198.51.100.2"),  # a client forging it
        ("", "10.0.0.1", "203.0.113.7", "10.0.0.1"),  # no proxy trusted
        ("10.0.0.0/8", "10.0.0.1", "203.0.113.7, 10.0.0.9", "203.0.113.7"),  # two proxies
    ],
)
def test_the_key_is_the_real_client_behind_a_trusted_proxy_and_the_peer_otherwise(
    trusted: str, peer: str, forwarded: str, key: str
) -> None:
    app = create_app(make_settings(rooms_per_hour=1, trusted_proxies=trusted))
    with TestClient(app, client=(peer, 4000)) as client:
        headers = {"X-Forwarded-For": forwarded}
        assert client.post("/api/rooms", json=ROOM, headers=headers).status_code == 201
        assert client.post("/api/rooms", json=ROOM, headers=headers).status_code == 429
        limit = app.state.limits.by_kind["rooms_rate"]
        assert list(limit._buckets) == [key]
        other = {"X-Forwarded-For": "192.0.2.55"}
        again = client.post("/api/rooms", json=ROOM, headers=other).status_code
        assert again == (201 if key != peer else 429)  # another client, if it is told apart


def test_a_live_server_keys_on_the_forwarded_address_only_from_its_trusted_proxy(
    tmp_path: object,
) -> None:
    """`skyjo serve` with the settings of docs/deploy.md: a proxy on 127.0.0.1
    (trusted by default) names each client; with no proxy trusted, everyone
    connecting from 127.0.0.1 shares one allowance whatever they claim."""
    for trusted, shared in (("127.0.0.1", False), ("", True)):
        server = Server(
            "sqlite://",
            SKYJO_ROOMS_PER_HOUR="1",
            SKYJO_TRUSTED_PROXIES=trusted,
            SKYJO_BOT_PROCESSES="0",
        )
        try:
            url = f"{server.base}/api/rooms"
            first = httpx2.post(url, json=ROOM, headers={"X-Forwarded-For": "203.0.113.1"})
            assert first.status_code == 201
            again = httpx2.post(url, json=ROOM, headers={"X-Forwarded-For": "203.0.113.1"})
            _refusal(again, "rooms_rate", 1)
            other = httpx2.post(url, json=ROOM, headers={"X-Forwarded-For": "203.0.113.2"})
            assert other.status_code == (429 if shared else 201), (trusted, other.text)
        finally:
            server.kill()


def test_a_websocket_message_over_the_rate_is_answered_then_a_flood_is_closed() -> None:
    with serving(rate=0.001, burst=3) as client:
        host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
        ana = Conn(client, host["code"])
        ana.hello(host["token"])  # one message of the 3
        ana.send({"type": "resync"})
        ana.send({"type": "resync"})
        assert ana.until(lambda m: m["type"] == "state")  # the two resyncs are answered
        ana.move(REVEAL)  # the 4th message: over the rate, dropped and answered
        error = ana.error()
        assert (error["code"], error["kind"]) == ("rate_limited", "messages_rate")
        assert error["params"]["limit"] == 0.0 and error["params"]["retry_after"] > 0
        assert not [m for m in ana.messages if m["type"] == "update"], "the move was not played"
        assert re.fullmatch(r"too many messages: at most .* a second; .*", error["message"])
        for _ in range(3):  # over the rate again: answered each time, and then a flood
            ana.send({"type": "resync"})
        kinds = [ana.error()["code"] for _ in range(3)]
        assert kinds == ["rate_limited", "rate_limited", "flood"]
        with pytest.raises(Exception):  # noqa: B017 (the socket is closed: 1008)
            ana.receive()
    english, spanish = (render(I18N, "errorText", lang, [error]) for lang in ("en", "es"))
    assert english == [error["message"]] and spanish[0].startswith("Demasiados mensajes")


def test_the_connections_of_one_address_share_its_message_rate() -> None:
    with serving(ip_rate=0.001, ip_burst=3) as client:  # per connection: no limit
        host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
        first, second = Conn(client, host["code"]), Conn(client, host["code"])
        first.hello(host["token"])
        first.send({"type": "resync"})
        first.until(lambda m: m["type"] == "state")
        second.send({"type": "hello", "token": None})  # the address's third message
        second.until(lambda m: m["type"] == "state")
        second.send({"type": "resync"})  # the fourth, from another connection
        error = second.error()
        assert (error["code"], error["kind"]) == ("rate_limited", "messages_rate")


def test_an_oversized_message_to_a_live_server_is_answered_with_the_limit_then_closed() -> None:
    server = Server("sqlite://", SKYJO_BOT_PROCESSES="0")
    try:
        host = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"bot": "random"}]})
        with connect(f"ws://127.0.0.1:{server.port}/ws/{host['code']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "chat", "text": "x" * 5000}))  # over 4 KB: refused
            assert json.loads(ws.recv(timeout=30))["kind"] == "too_large"
            big = json.dumps({"type": "chat", "text": "x" * 100_000})  # over 64 KB
            ws.send(big)
            error = json.loads(ws.recv(timeout=30))
            assert (error["code"], error["kind"]) == ("too_large", "too_large_closed")
            assert error["params"] == {"max": 4096, "size": len(big)}
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            assert "at most 4096 bytes" in closed.value.rcvd.reason
    finally:
        server.kill()


def test_seats_taken_per_address_answer_429_over_http_and_websocket_alike() -> None:
    """A script cannot take every free seat of every listed room: joins, by HTTP or by
    a WebSocket's `hello` with `join`, share one limit per address."""
    with serving(joins_per_hour=3) as client:
        seats = [{"name": "Ana"}] + [{"name": None}] * 6
        room = create_room(client, seats, lobby=True, listed=True)
        code = room["code"]
        for _ in range(2):
            assert client.post(f"/api/rooms/{code}/join", json={}).status_code == 200
        late = Conn(client, code)
        assert late.hello(join=True)["type"] == "state"  # the third, over the WebSocket
        errors = [_refusal(client.post(f"/api/rooms/{code}/join", json={}), "joins_rate", 3)]
        squatter = Conn(client, code)
        refused = squatter.hello(join=True)
        assert (refused["code"], refused["kind"]) == ("rate_limited", "joins_rate")
        assert refused["params"]["limit"] == 3 and refused["params"]["retry_after"] >= 1
        assert client.get(f"/api/rooms/{code}").json()["free_seats"] == [4, 5, 6]
        # a join the server refuses for itself is not counted: no room, no seat
        assert client.post("/api/rooms/NOROOM/join", json={}).status_code == 404
        assert 1100 <= errors[0]["params"]["retry_after"] <= 1200  # one more every 20 min
    english = render(I18N, "errorText", "en", errors + [refused])
    assert english[0] == errors[0]["message"] and english[1] == refused["message"]
    assert "too many seats taken from your address: at most 3 an hour" in english[0]


def test_a_refused_join_takes_nothing_from_the_allowance() -> None:
    """Only seats taken count against `joins_rate`: a join refused for its name (a
    reserved one, one taken) or for a full room gives its count back, over HTTP and
    over the WebSocket."""
    with serving(joins_per_hour=2) as client:
        room = create_room(client, [{"name": "Ana"}, {"name": None}, {"name": None}], lobby=True)
        code = room["code"]
        join = f"/api/rooms/{code}/join"
        for name in ("Seat 2", "Ana", "Greedy bot", "Seat 3, free"):
            refused = client.post(join, json={"name": name})
            assert refused.status_code in (400, 409), refused.json()
        squatter = Conn(client, code)
        squatter.send({"type": "hello", "join": True, "name": "Ana"})
        assert squatter.until(lambda m: m["type"] == "error")["kind"] == "name_taken"
        assert client.post(join, json={"name": "Ben"}).status_code == 200
        assert client.post(join, json={"name": "Cleo"}).status_code == 200  # the second: full
        full = client.post(join, json={"name": "Dan"})
        assert full.status_code == 429  # the allowance is spent by the two seats taken
        assert full.json()["error"]["kind"] == "joins_rate"


def test_a_cluster_s_shared_limits_give_a_count_back_too(postgres: Postgres) -> None:
    """On PostgreSQL (`SharedLimits`), a refund puts the token back in the one
    bucket every process spends from."""
    limits = SharedLimits(postgres.database(), 0, 0, 0, joins=2)
    try:

        async def scenario() -> list[str]:
            outcomes = []
            for refund in (True, True, False, False, False):
                try:
                    await limits.check("joins_rate", "10.0.0.9")
                    outcomes.append("taken")
                    if refund:
                        await limits.refund("joins_rate", "10.0.0.9")
                except ProtocolError as refused:
                    outcomes.append(refused.kind)
            return outcomes

        assert asyncio.run(scenario()) == ["taken", "taken", "taken", "taken", "joins_rate"]
    finally:
        limits.close()


def test_a_cluster_forgets_the_buckets_unused_for_an_hour(postgres: Postgres) -> None:
    """On PostgreSQL, a spend after `FORGET_EVERY` deletes the buckets that have been
    full again for the window (unused for an hour), and keeps the others."""
    limits = SharedLimits(postgres.database(), 0, 0, 0, joins=2)
    try:
        asyncio.run(limits.check("joins_rate", "10.0.0.1"))
        asyncio.run(limits.check("joins_rate", "10.0.0.2"))
        with limits._engine.begin() as connection:  # 10.0.0.1 last spent 2 hours ago
            old = update(BUCKETS).where(BUCKETS.c.address == "10.0.0.1")
            connection.execute(old.values(at=BUCKETS.c.at - 7200))
        limits._forgotten -= FORGET_EVERY + 1
        asyncio.run(limits.check("joins_rate", "10.0.0.3"))
        with limits._engine.begin() as connection:
            kept = connection.execute(select(BUCKETS.c.address).order_by(BUCKETS.c.address))
            assert [address for (address,) in kept] == ["10.0.0.2", "10.0.0.3"]
    finally:
        limits.close()
