"""The real server (uvicorn in a subprocess, a SQLite file) killed with SIGKILL
in the middle of a turn and started again: every game resumes where it was,
and the clients reconnect with their tokens and carry on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from liveserver import Server
from webclient import Conn, play_game

from skyjo.engine import DRAW, SWAP
from skyjo.web.storage import SCHEMA_VERSION, Store


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
