"""The real server (uvicorn in a subprocess) killed with SIGKILL in the middle of
a turn and started again: every game resumes where it was, and the clients
reconnect with their tokens and carry on. Each test runs on a SQLite file and on
a real PostgreSQL server (tests/web/postgres.py)."""

from __future__ import annotations

import random

import pytest
from liveserver import Server
from sqlalchemy import create_engine, text
from webclient import Conn, play_game

from skyjo.engine import DRAW, SWAP
from skyjo.web.storage import SCHEMA_VERSION, RoomRecord, StorageError, Store


def test_a_killed_server_resumes_every_game_where_it_was(database: str) -> None:
    server = Server(database)
    try:
        seats = [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}]
        first = server.post("/api/rooms", {"seats": seats, "lobby": False})
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


def test_a_version_1_database_is_upgraded_and_keeps_its_rooms(database: str) -> None:
    engine = create_engine(database)
    with engine.begin() as db:  # the tables as version 1 wrote them
        db.execute(text("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)"))
        db.execute(text("INSERT INTO schema_version VALUES (1)"))
        db.execute(
            text(
                "CREATE TABLE rooms (code VARCHAR(16) PRIMARY KEY, title VARCHAR(200), "
                "listed BOOLEAN, created_at FLOAT, updated_at FLOAT, finished BOOLEAN, "
                "steps INTEGER, host VARCHAR(64), tokens TEXT, match TEXT)"
            )
        )
        db.execute(
            text(
                "INSERT INTO rooms VALUES ('ABCDEF', 'Old', :no, 1.0, 1.0, :no, 0, 'h', '{}', '{}')"
            ),
            {"no": False},
        )
    engine.dispose()
    store = Store(database)
    assert store.version() == SCHEMA_VERSION == 7
    old = store.load("ABCDEF")
    assert old is not None and old.title == "Old" and old.options == {}
    store.save(RoomRecord("ABCDEG", "New", False, "h", {}, {}, options={"turn_seconds": 30.0}))
    assert store.load("ABCDEG").options == {"turn_seconds": 30.0}  # type: ignore[union-attr]
    assert [r.code for r in store.active()] == ["ABCDEF", "ABCDEG"]
    record = {"format": "skyjo-record/1", "players": ["A", "B"], "rounds": []}
    key = store.save_upload(record)  # version 3: the uploaded records
    assert store.load_upload(key) == record and store.save_upload(record) == key
    review = {"players": [], "decisions": []}
    store.save_review(key, review)  # version 6: the reviews
    assert store.load_review(key) == review and store.load_review("nothing") is None
    store.close()
    store = Store(database)  # a second start changes nothing
    assert store.version() == 7 and store.load_upload(key) == record
    assert store.load_review(key) == review
    store.close()


def test_a_newer_database_is_refused(database: str) -> None:
    Store(database).close()
    engine = create_engine(database)
    with engine.begin() as db:
        db.execute(text("UPDATE schema_version SET version = 99"))
    engine.dispose()
    with pytest.raises(StorageError, match="schema version 99, newer"):
        Store(database)
