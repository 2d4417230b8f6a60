"""What several `skyjo serve` processes on one PostgreSQL share beyond the rooms
themselves (docs/deploy.md, "Several processes"): the front page's list and the
health count over every process, the per-address hourly limits counted once for
the cluster, a room changing hands refused with 1013 ("try again"), a worker of
`--workers 2` killed and started again, an internal address too long for
PostgreSQL's application_name refused."""

from __future__ import annotations

import contextlib
import os
import random
import select
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from liveserver import Server
from postgres import Postgres
from saved import history, reconnect, two_players, updates
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, Engine
from test_cluster import TWO_HUMANS_A_BOT, _holder, _server_workers
from webclient import Conn, play_game
from websockets.exceptions import ConnectionClosed

from skyjo.web.cluster import room_key

#: The players answer at once: a connection's message rate is no limit here.
FAST = {"SKYJO_RATE": "1000"}
LISTED = {
    "seats": [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}],
    "listed": True,
    "lobby": False,
}


@pytest.fixture
def pg(postgres: Postgres) -> str:
    return postgres.database()


def _listed(server: Server) -> list[dict]:
    answer = httpx2.get(f"{server.base}/api/rooms", timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["rooms"]


def _health(server: Server) -> int:
    return int(httpx2.get(f"{server.base}/api/health", timeout=10).json()["rooms"])


def test_every_process_lists_every_listed_open_room(pg: str) -> None:
    """A listed room made at A and one made at B: each process lists both, newest
    first, with their seats as their owner has them (a seat taken through the other
    process included); an unlisted room is listed by neither; `/api/health` counts
    the rooms of both processes at either."""
    a, b = Server(pg, **FAST), Server(pg, **FAST)
    try:
        first = a.post("/api/rooms", {**LISTED, "title": "At A"})["code"]
        b.post(f"/api/rooms/{first}/join", {"name": "Bea"})  # relayed to A, its owner
        second = b.post("/api/rooms", {**LISTED, "title": "At B"})["code"]
        hidden = a.post("/api/rooms", {**LISTED, "listed": False})["code"]
        for server in (a, b):
            rooms = _listed(server)
            assert [room["code"] for room in rooms] == [second, first]  # newest first
            for room in rooms:  # the same facts as the owner's own (relayed) answer
                own = httpx2.get(f"{server.base}/api/rooms/{room['code']}", timeout=10).json()
                assert {**room, "seats": None} == {**own, "seats": None}
                for listed, held in zip(room["seats"], own["seats"], strict=True):
                    assert {**listed, "connected": None} == {**held, "connected": None}
            at_a = next(room for room in rooms if room["code"] == first)
            assert at_a["title"] == "At A" and at_a["free_seats"] == []
            assert [seat["name"] for seat in at_a["seats"]][:2] == ["Ana", "Bea"]
            assert hidden not in {room["code"] for room in rooms}
            assert _health(server) == 3  # A holds two rooms, B one
    finally:
        a.kill()
        b.kill()


def _take_lock(engine_url: str, code: str) -> tuple[Engine, Connection]:
    """Hold room `code`'s advisory lock from a connection that is no member of the
    cluster (as a process that holds it and whose address nobody can read), once
    PostgreSQL has let its killed owner's lock go."""
    engine = create_engine(engine_url)
    connection = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    deadline = time.monotonic() + 20
    while not connection.execute(
        text("SELECT pg_try_advisory_lock(:key)"), {"key": room_key(code)}
    ).scalar():
        assert time.monotonic() < deadline, "the killed owner's lock was never let go"
        time.sleep(0.05)  # polling a condition: PostgreSQL ends the dead owner's session
    return engine, connection


def test_a_room_changing_hands_closes_the_websocket_with_1013(pg: str) -> None:
    """A room whose lock is held where nobody can reach (the race of a room changing
    hands, forced): its WebSocket is answered `room_moving` and closed with 1013, try
    again, and its facts 503; once the lock is free the same connection is served."""
    a = Server(pg, **FAST)
    code = a.post("/api/rooms", LISTED)["code"]
    a.kill()
    engine, connection = _take_lock(pg, code)
    b = Server(pg, **FAST)
    try:
        conn = b.conn(code)
        refused = conn.ws.receive_json()  # at once, before any hello
        assert refused["type"] == "error" and refused["kind"] == "room_moving", refused
        with pytest.raises(ConnectionClosed) as closed:
            conn.ws.receive_json()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        Conn.open.remove(conn)
        facts = httpx2.get(f"{b.base}/api/rooms/{code}", timeout=30)
        assert facts.status_code == 503 and facts.json()["error"]["kind"] == "room_moving"
        connection.invalidate()  # its session ends, the lock is free: B takes the room
        again = b.conn(code)
        assert again.hello()["type"] == "state"
    finally:
        Conn.close_all()
        with contextlib.suppress(Exception):
            connection.close()
        engine.dispose()
        b.kill()


@contextlib.contextmanager
def _servers(pg: str, count: int, **env: str) -> Iterator[list[Server]]:
    servers: list[Server] = []
    try:
        for _ in range(count):
            servers.append(Server(pg, **{**FAST, **env}))
        yield servers
    finally:
        for server in servers:
            server.kill()


def _create(server: Server) -> httpx2.Response:
    """A listed room of four humans (three free seats)."""
    humans = {**LISTED, "seats": [{"name": name} for name in ("Ana", "Ben", "Cy", "Di")]}
    return httpx2.post(f"{server.base}/api/rooms", json=humans, timeout=10)


def test_the_hourly_limits_are_counted_once_for_the_cluster(pg: str) -> None:
    """Three rooms an hour from one address, over two processes: two made at A and
    one at B spend the allowance, and the fourth is refused at either (each process
    alone would allow three), with the limit and the wait of the one bucket; the
    seats an hour likewise (a join at A, one at B, the third refused)."""
    with _servers(pg, 2, SKYJO_ROOMS_PER_HOUR="3", SKYJO_JOINS_PER_HOUR="2") as (a, b):
        assert [_create(s).status_code for s in (a, a, b)] == [201, 201, 201]
        for server in (b, a):
            refused = _create(server)
            assert refused.status_code == 429, refused.text
            error = refused.json()["error"]
            assert error["kind"] == "rooms_rate" and error["params"]["limit"] == 3
            # a token every 1,200 s, the last spent a moment ago
            assert 1100 <= error["params"]["retry_after"] <= 1200
            assert refused.headers["retry-after"] == str(error["params"]["retry_after"])
        code = _listed(a)[0]["code"]
        assert httpx2.post(f"{a.base}/api/rooms/{code}/join", json={}, timeout=10).is_success
        assert httpx2.post(f"{b.base}/api/rooms/{code}/join", json={}, timeout=10).is_success
        third = httpx2.post(f"{b.base}/api/rooms/{code}/join", json={}, timeout=10)
        assert third.status_code == 429 and third.json()["error"]["kind"] == "joins_rate"


def test_an_internal_address_too_long_for_postgresql_is_refused(pg: str) -> None:
    """PostgreSQL keeps 63 bytes of a connection's application_name ("skyjo " and the
    process's address): an address that does not fit is refused, naming it and the
    limit, instead of being cut (the others would relay to a wrong address); one
    that just fits is read back whole by the other processes."""
    from skyjo.web.cluster import Ownership

    long = "h" * 52 + ".test:65535"  # 63 bytes: 6 over
    with pytest.raises(ValueError) as refused:  # `skyjo serve`: the bad-input exit
        Ownership(pg, long)
    said = str(refused.value)
    assert repr(long) in said and "has 63 bytes" in said and "keeps 57 ASCII bytes" in said
    assert "SKYJO_INTERNAL_HOST" in said
    fits = "h" * 46 + ".test:65535"  # 57 bytes: "skyjo " and it are 63
    holder, other = Ownership(pg, fits), Ownership(pg, "127.0.0.1:1")
    try:
        assert holder.take(["ABCDEF"]) == ["ABCDEF"]
        assert other.owner("ABCDEF") == fits
    finally:
        holder.close()
        other.close()


def _listening(port: int, pids: list[int]) -> int:
    """Which of `pids` listens on TCP `port` (Linux /proc: the socket's inode)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":  # LISTEN
                inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) in inodes:
                    return pid
    raise AssertionError(f"none of {pids} listens on port {port}")


def _kill_and_wait(pid: int) -> None:
    """SIGKILL `pid` (not a child of ours) and return once it has exited, its files
    closed. A connection the kernel hands to a dying worker's own SO_REUSEPORT socket
    before that socket closes is reset (docs/deploy.md, "Several processes"): the
    port answers once the worker is gone, which is what the test asks."""
    process = os.pidfd_open(pid)
    try:
        signal.pidfd_send_signal(process, signal.SIGKILL)  # the process itself, by its fd
        readable, _, _ = select.select([process], [], [], 30)
        assert readable, f"worker {pid} still alive 30 s after SIGKILL"
    finally:
        os.close(process)


def test_a_killed_worker_is_started_again_and_its_rooms_go_on(pg: str) -> None:
    """`--workers 2`: the worker holding a room is killed with SIGKILL (not the
    supervisor) in the middle of a game. The port keeps answering, the supervisor
    starts a new worker, the room is taken (by the other worker or the new one) and
    the game goes on through the port, each step told before the kill in the
    database once, in order."""
    server = Server(pg, workers=2, **FAST)
    try:
        workers = _server_workers(server, 2)
        code, host, guest, ana, ben = two_players(TWO_HUMANS_A_BOT, server)
        rng = random.Random(11)
        play_game(ana, {0: ana, 1: ben}, rng, until=lambda w: w.number >= 12)
        ben.until_number(ana.number)
        told = updates(ana)
        owner = _holder(pg, code)
        assert owner is not None
        victim = _listening(int(owner.rsplit(":", 1)[1]), workers)
        _kill_and_wait(victim)
        assert httpx2.get(f"{server.base}/api/health", timeout=10).status_code == 200
        for conn in (ana, ben):  # each was served by the killed worker, or relayed to it
            with pytest.raises(ConnectionClosed):
                while True:
                    conn.receive()
            Conn.open.remove(conn)
        ana, ben = (
            reconnect(server.conn, code, host["token"]),
            reconnect(server.conn, code, guest["token"]),
        )
        assert min(ana.number, ben.number) >= len(told)
        again = _server_workers(server, 2)  # the supervisor started a new one
        assert victim not in again and len(set(again) & set(workers)) == 1
        assert server.process.poll() is None
        before = ana.number
        play_game(ana, {0: ana, 1: ben}, rng, until=lambda w: w.number >= before + 10)
        ben.until_number(ana.number)
        assert _holder(pg, code) not in (None, owner)
        kept = history(pg, code)
        assert kept[: len(told)] == [action for _, action in told]  # each once, in order
        since = [action for _, action in updates(ana)]  # told since the reconnection
        assert since and kept[ana.number - len(since) : ana.number] == since
    finally:
        Conn.close_all()
        server.kill()
