"""A round end survives a restart: the humans it waited for are saved with it
(docs/web-protocol.md, "ready"), so a room loaded again waits for them, not only
for whoever has reconnected yet, for `absent_after` at most (or its turn timer).

A restart here is the room dropped from memory without a word saved (its driver
stopped, its connections closed) and loaded from the database again, as a
restarted server does; tests/web/test_crash_moments.py kills the real server."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from starlette.testclient import TestClient
from webapp import serving
from webclient import Conn, create_room, join_room, play_game

from skyjo.web.rooms import Room
from skyjo.web.storage import RoomRecord

#: A target no round reaches, however badly the random players play.
LONG = {"target_score": 1000}


def _lobby(client: TestClient) -> Any:
    return client.app.state.lobby  # type: ignore[attr-defined]


def _saved(client: TestClient, code: str) -> RoomRecord:
    """The room's row as the database holds it now (read by the database's thread)."""
    lobby = _lobby(client)
    return client.portal.call(lobby._run_db, lobby.store.load, code)  # type: ignore[union-attr]


def _restart(
    client: TestClient, code: str, change: Callable[[RoomRecord], None] = lambda record: None
) -> Room:
    """Drop the room from memory without saving anything, `change` its saved
    record (an older version's, say), and load it again as a restarted server does."""
    lobby = _lobby(client)

    async def again() -> Room:
        await lobby.rooms.pop(code).close()
        record = await lobby._run_db(lobby.store.load, code)
        change(record)
        return await lobby._resume(record)

    room = client.portal.call(again)  # type: ignore[union-attr]
    Conn.close_all()  # the old connections, closed by the server
    return room


def _at_round_end(conn: Conn) -> bool:
    return conn.obs is not None and conn.obs["phase"] == "round_over"


@dataclass
class Table:
    """A room at its first round end: Ana (seat 0) and Ben (1) connected, a bot (2)."""

    code: str
    tokens: list[str]  #: Ana's, Ben's
    step: int  #: the round end's
    ana: Conn
    ben: Conn


def _round_end(client: TestClient, **room: Any) -> Table:
    """Ana, Ben and a bot played to the first round end."""
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}], **room)
    guest = join_room(client, host["code"])
    ana, ben = Conn(client, host["code"]), Conn(client, host["code"])
    ana.hello(host["token"])
    ben.hello(guest["token"])
    play_game(ana, {0: ana, 1: ben}, random.Random(5), until=_at_round_end)
    ben.until_number(ana.number)
    return Table(host["code"], [host["token"], guest["token"]], ana.number, ana, ben)


def _say_ready(ana: Conn) -> None:
    """Ana (seat 0) says "next round" and hears it, Ben still awaited."""
    ana.ready()
    told = ana.until(lambda m: m["type"] == "ready")
    assert told == {"type": "ready", "ready": [0], "waiting": [1]}


def test_the_wait_is_saved_and_each_ready_before_anyone_hears_of_it(client: TestClient) -> None:
    table = _round_end(client, rules=LONG)
    saved = _saved(client, table.code).options["round_end"]
    assert saved == {"step": table.step, "waiting": [0, 1], "ready": []}
    _say_ready(table.ana)  # told: then it is saved already
    saved = _saved(client, table.code).options["round_end"]
    assert saved == {"step": table.step, "waiting": [1], "ready": [0]}
    table.ben.ready()
    table.ben.until(lambda m: m["type"] == "update")
    assert "round_end" not in _saved(client, table.code).options  # dealt: no wait is left


def test_a_human_who_leaves_is_no_longer_awaited_once_saved(client: TestClient) -> None:
    table = _round_end(client, rules=LONG)
    table.ben.close()
    assert table.ana.until(lambda m: m["type"] == "ready")["waiting"] == [0]
    deadline = time.monotonic() + 10
    while _saved(client, table.code).options["round_end"]["waiting"] != [0]:
        assert time.monotonic() < deadline, "the wait without Ben was never saved"
        time.sleep(0.01)  # polling a condition: the driver saves the changed wait
    assert _restart(client, table.code).waiting() == [0]


def test_a_restarted_room_waits_for_the_same_humans_minus_the_ready(client: TestClient) -> None:
    table = _round_end(client, rules=LONG)
    _say_ready(table.ana)
    room = _restart(client, table.code)
    ana = Conn(client, table.code)
    state = ana.hello(table.tokens[0])  # before Ben is back: nothing dealt, Ben awaited
    assert state["number"] == table.step and state["observation"]["phase"] == "round_over"
    assert (state["ready"], state["waiting"]) == ([0], [1])
    seconds, seat, kind = room._due()  # type: ignore[misc]
    assert (seat, kind) == (1, "lapse") and seconds > 3000  # Ben's absent_after (3600 s)
    ben = Conn(client, table.code)
    assert ben.hello(table.tokens[1])["waiting"] == [1]
    ben.ready()
    for conn in (ana, ben):
        dealt = conn.until(lambda m: m["type"] == "update")
        assert dealt["number"] == table.step + 1 and dealt["observation"]["phase"] == "reveal"


def test_a_human_who_does_not_come_back_is_awaited_for_absent_after() -> None:
    with serving(absent_after=1.5) as client:
        table = _round_end(client, rules=LONG)
        restarted = time.monotonic()
        _restart(client, table.code)
        watcher = Conn(client, table.code)
        state = watcher.hello()
        assert state["number"] == table.step and state["waiting"] == [0, 1]
        told = watcher.until(lambda m: m["type"] == "ready")
        assert told == {"type": "ready", "ready": [], "waiting": []}
        dealt = watcher.until(lambda m: m["type"] == "update")
        assert dealt["number"] == table.step + 1 and time.monotonic() - restarted >= 1.5


def test_a_turn_timer_deals_at_its_time_after_a_restart(client: TestClient) -> None:
    table = _round_end(client, rules=LONG, turn_seconds=5)
    _say_ready(table.ana)
    lobby = _lobby(client)

    async def quick_timer() -> None:  # the test's short timer (5 s at least through the API)
        room = lobby.rooms[table.code]
        room.turn_seconds = 0.5
        room._wake.set()

    restarted = time.monotonic()
    _restart(client, table.code)
    client.portal.call(quick_timer)  # type: ignore[union-attr]
    watcher = Conn(client, table.code)
    assert watcher.hello()["waiting"] == [1]  # Ben, whose absent_after is an hour
    dealt = watcher.until(lambda m: m["type"] == "update")
    assert dealt["number"] == table.step + 1 and time.monotonic() - restarted >= 0.5


def _unknown(record: RoomRecord) -> None:
    record.options.pop("round_end", None)  # a room an older version saved


def _stale(record: RoomRecord) -> None:
    record.options["round_end"]["step"] -= 1  # left by an older version from another step


@pytest.mark.parametrize("change", [_unknown, _stale])
def test_an_unknown_wait_awaits_every_human_seat_held(
    client: TestClient, change: Callable[[RoomRecord], None]
) -> None:
    table = _round_end(client, rules=LONG)
    _say_ready(table.ana)
    room = _restart(client, table.code, change)
    assert room.waiting() == [0, 1]
    assert room.record().options["round_end"] == {"step": table.step, "waiting": [0, 1],
                                                  "ready": []}  # fmt: skip
    ana, ben = Conn(client, table.code), Conn(client, table.code)
    assert ana.hello(table.tokens[0])["waiting"] == [0, 1]
    ben.hello(table.tokens[1])
    ana.ready()
    ben.ready()
    assert ana.until(lambda m: m["type"] == "update")["number"] == table.step + 1


@pytest.mark.parametrize("how", ["leaves", "removed"])
def test_an_awaited_human_who_leaves_or_is_removed_is_no_longer_awaited(
    client: TestClient, how: str
) -> None:
    table = _round_end(client, rules=LONG)
    _say_ready(table.ana)
    _restart(client, table.code)
    ana = Conn(client, table.code)
    assert ana.hello(table.tokens[0])["waiting"] == [1]
    if how == "leaves":  # Ben is back, then gone: awaited as any connected human, no more
        ben = Conn(client, table.code)
        ben.hello(table.tokens[1])
        ben.close()
    else:
        ana.send({"type": "remove", "seat": 1})
    assert ana.until(lambda m: m["type"] == "ready")["waiting"] == []
    assert ana.until(lambda m: m["type"] == "update")["number"] == table.step + 1
