"""Several `skyjo serve` processes on one PostgreSQL database are one service
(`skyjo.web.cluster`, docs/deploy.md "Several processes"): two servers on two
ports, as on two machines, the players of one room split between them, play
whole rounds, every viewer on either getting every update in order, each move
applied once; the owner killed with SIGKILL, the other takes its rooms within
seconds (bots and timers going on), and no acknowledged move is lost or doubled.
And `skyjo serve --workers N`: N processes on one port, refused on SQLite."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from liveserver import Server, _children
from postgres import Postgres
from saved import history, reconnect, two_players, updates
from webclient import Conn, play_game, settle
from websockets.exceptions import ConnectionClosed

from skyjo.web.cluster import room_key

TWO_HUMANS_A_BOT = {
    "seats": [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}],
    "lobby": False,
    "rules": {"target_score": 60},
}

#: The cluster's members: each process's lock connection, named by its address.
MEMBERS = "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'skyjo %'"
#: The players answer at once: a connection's message rate is no limit here.
FAST = {"SKYJO_RATE": "1000"}


def _holder(database: str, code: str) -> str | None:
    """The address (`host:port`) of the process holding room `code` (None: nobody)."""
    from sqlalchemy import create_engine, text

    key = room_key(code)
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            return connection.execute(
                text(
                    "SELECT a.application_name FROM pg_locks l"
                    " JOIN pg_stat_activity a ON a.pid = l.pid"
                    " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
                    " AND l.classid::bigint = :high AND l.objid::bigint = :low"
                ),
                {"high": (key >> 32) & 0xFFFFFFFF, "low": key & 0xFFFFFFFF},
            ).scalar()
    finally:
        engine.dispose()


@pytest.fixture
def pg(postgres: Postgres) -> str:
    return postgres.database()


def test_two_servers_play_one_room_whose_players_reached_either(pg: str) -> None:
    """Ana plays on server A, Ben and a spectator on server B (relayed to the room's
    owner, A, where it was made): a whole game, each human moving through their own
    server; every viewer sees every step once, in order, the same; the database
    holds exactly those steps."""
    a, b = Server(pg, **FAST), Server(pg, **FAST)
    try:
        host = a.post("/api/rooms", TWO_HUMANS_A_BOT)
        code = host["code"]
        guest = b.post(f"/api/rooms/{code}/join")  # a join relayed to A
        assert guest["seat"] == 1
        assert _holder(pg, code) is not None
        ana, ben, spectator = a.conn(code), b.conn(code), b.conn(code)
        assert ana.hello(host["token"])["you"] == 0
        assert ben.hello(guest["token"])["you"] == 1
        assert spectator.hello()["you"] is None
        info = httpx2.get(f"{b.base}/api/rooms/{code}", timeout=10).json()
        assert info["seats"][1]["connected"]  # the owner knows of Ben, connected through B
        play_game(spectator, {0: ana, 1: ben}, random.Random(7))
        for conn in (ana, ben):
            conn.until_number(spectator.number)
        assert spectator.over
        steps = updates(spectator)
        assert [n for n, _ in steps] == list(range(1, len(steps) + 1))
        assert updates(ana) == steps and updates(ben) == steps
        assert history(pg, code) == [action for _, action in steps]
        moves = {m["seat"] for m in spectator.messages if m["type"] == "update"}
        assert {0, 1, 2} <= moves  # both humans, each through their own server, and the bot
    finally:
        Conn.close_all()
        a.kill()
        b.kill()


def test_the_owner_killed_its_room_goes_on_at_the_other_server(pg: str) -> None:
    """The room's owner (A) is killed with SIGKILL in the middle of the game: the
    connections relayed through B are closed (1012), B takes the room (its lock
    freed by PostgreSQL at once) and the game goes on there: the pages reconnect,
    the bot moves again, the turn timer runs; every step a client was told of is
    there once, in order, and the first steps after are B's."""
    a = Server(pg, **FAST)
    b = Server(pg, **FAST)
    try:
        room = {**TWO_HUMANS_A_BOT, "turn_seconds": 5}
        code, host, guest, ana, ben = two_players(room, a, b)
        rng = random.Random(3)
        play_game(ana, {0: ana, 1: ben}, rng, until=lambda w: w.number >= 20)
        ben.until_number(ana.number)
        told = updates(ben)
        a.kill()  # mid-game: its room is held nowhere now
        killed = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ben.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        Conn.open.remove(ana)
        ana, ben = reconnect(b.conn, code, host["token"]), reconnect(b.conn, code, guest["token"])
        assert time.monotonic() - killed < 10  # within seconds
        assert min(ana.number, ben.number) >= len(told)
        assert _holder(pg, code) is not None
        before = ana.number
        play_game(ana, {0: ana, 1: ben}, rng, until=lambda w: w.number >= before + 12)
        ben.until_number(ana.number)
        after = [m for m in ana.messages if m["type"] == "update"]
        assert 2 in {m["seat"] for m in after}  # the bot plays again, at B
        # the turn timer runs at B: nobody moves, and the awaited move is played
        settle(ana, [ben])
        waited = ana.number
        update = ana.until(lambda m: m["type"] == "update")
        assert update["number"] == waited + 1
        kept = history(pg, code)
        assert kept[: len(told)] == [action for _, action in told]  # each once, in order
        since = [action for _, action in updates(ana)]  # told at B, from its state on
        assert kept[ana.number - len(since) : ana.number] == since
    finally:
        Conn.close_all()
        if a.process.poll() is None:
            a.kill()
        b.kill()


def test_workers_is_refused_on_sqlite_naming_why(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "skyjo", "serve", "--workers", "2"]
    command += ["--db", f"sqlite:///{tmp_path / 'skyjo.db'}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    said = " ".join(done.stderr.split())
    assert "--workers 2 needs PostgreSQL" in said, done.stderr
    assert "one process serves a sqlite database" in said, done.stderr
    assert not (tmp_path / "skyjo.db").exists()  # refused before anything was opened


def test_workers_runs_that_many_processes_on_one_port(pg: str) -> None:
    """`--workers 2` on PostgreSQL: two server processes answer on the one port, and a
    room made through one is played through both."""
    server = Server(pg, workers=2, **FAST)
    try:
        workers = _server_workers(server, 2)
        assert len(set(workers)) == 2
        *_, ana, ben = two_players(TWO_HUMANS_A_BOT, server)
        play_game(ana, {0: ana, 1: ben}, random.Random(5), until=lambda w: w.number >= 15)
        ben.until_number(ana.number)
        assert updates(ana) == updates(ben)
    finally:
        Conn.close_all()
        server.kill()


def _server_workers(server: Server, count: int) -> list[int]:
    """The `count` worker processes of a `--workers` server, once each has joined the
    cluster (its lock connection is open, named by its own address)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(server.url)
    deadline = time.monotonic() + 60
    try:
        while True:
            workers = [
                pid
                for pid in _children(server.process.pid)
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
            ]
            with engine.connect() as connection:
                members = connection.execute(text(MEMBERS)).scalar()
            if len(workers) == count and members == count:
                return workers
            assert time.monotonic() < deadline, (workers, members)
            time.sleep(0.05)  # polling a condition: the workers start
    finally:
        engine.dispose()
