"""A round end waits for every connected human to say "next round" (docs/web-protocol.md):
no bot deals the next round while a human has not seen the last one's end."""

from __future__ import annotations

import random

from starlette.testclient import TestClient
from webclient import Conn, create_room, join_room, play_game

from skyjo.engine import NEXT_ROUND, REVEAL

#: A target no round reaches, however badly the random players play (12 cards of 12, doubled).
LONG = {"target_score": 1000}


def _room(client: TestClient, code: str):  # the server's room, for checking
    return client.app.state.lobby.rooms[code]  # type: ignore[attr-defined]


def _at_round_end(conn: Conn) -> bool:
    return conn.obs is not None and conn.obs["phase"] == "round_over"


def _round_summary(conn: Conn) -> dict:
    return [m for m in conn.messages if m["type"] == "update" and "round" in m][-1]["round"]


def test_a_bot_ender_waits_for_the_human_to_say_next_round(client: TestClient) -> None:
    seats = [{"name": "Ana"}, {"bot": "greedy"}]
    host = create_room(client, seats, rules=LONG)
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    room = _room(client, host["code"])
    rng = random.Random(3)
    for _ in range(12):  # rounds until the bot ends one (greedy usually does)
        play_game(ana, {0: ana}, rng, until=_at_round_end)
        assert ana.waiting == [0]
        if _round_summary(ana)["ender"] == 1:
            break
        ana.ready()
        ana.until_number(ana.number + 1)
    else:
        raise AssertionError("the bot never ended a round")
    assert room.match.to_move == 1  # the bot is the one to deal ...
    assert room._due() is None  # ... and the room has nothing to do until Ana says so
    ana.send({"type": "resync"})
    state = ana.until(lambda m: m["type"] == "state")
    assert state["observation"]["phase"] == "round_over" and state["waiting"] == [0]
    assert state["ready"] == []
    ana.ready()
    told = ana.until(lambda m: m["type"] == "ready")
    assert told == {"type": "ready", "ready": [0], "waiting": []}
    dealt = ana.until(lambda m: m["type"] == "update")
    assert dealt["observation"]["phase"] == "reveal" and dealt["seat"] == 1
    cleared = ana.until(lambda m: m["type"] == "ready")
    assert cleared == {"type": "ready", "ready": [], "waiting": []}


def test_two_humans_each_say_next_round_and_the_ender_s_move_counts(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}], rules=LONG)
    guest = join_room(client, host["code"])
    ana, ben = Conn(client, host["code"]), Conn(client, host["code"])
    ana.hello(host["token"])
    ben.hello(guest["token"])
    play_game(ana, {0: ana, 1: ben}, random.Random(5), until=_at_round_end)
    ben.until_number(ana.number)
    assert ana.waiting == [0, 1]
    ender = _room(client, host["code"]).match.to_move
    first, second = (ana, ben) if ender == 0 else (ben, ana)
    first.move(NEXT_ROUND)  # the ender's own "next round": ready, the other still awaited
    told = [c.until(lambda m: m["type"] == "ready" and m["ready"]) for c in (first, second)]
    assert told[0] == told[1] == {"type": "ready", "ready": [ender], "waiting": [1 - ender]}
    number = ana.number
    second.ready()
    for conn in (ana, ben):
        update = conn.until(lambda m: m["type"] == "update")
        assert update["number"] == number + 1 and update["observation"]["phase"] == "reveal"


def test_a_human_who_leaves_is_not_awaited(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}], rules=LONG)
    guest = join_room(client, host["code"])
    ana, ben = Conn(client, host["code"]), Conn(client, host["code"])
    ana.hello(host["token"])
    ben.hello(guest["token"])
    play_game(ana, {0: ana, 1: ben}, random.Random(7), until=_at_round_end)
    ana.ready()
    assert ana.until(lambda m: m["type"] == "ready")["waiting"] == [1]
    ben.close()  # Ben walks away without a word: the round end waits for Ana alone
    update = ana.until(lambda m: m["type"] == "update")
    assert update["observation"]["phase"] == "reveal"


def test_ready_is_refused_outside_a_round_end_and_from_spectators(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "random"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.ready()
    refused = ana.error()
    assert (refused["code"], refused["kind"]) == ("not_round_end", "not_round_end")
    watcher = Conn(client, host["code"])
    watcher.hello()
    watcher.ready()
    assert watcher.error()["code"] == "spectator"
    ana.move(REVEAL)  # nothing changed: the room still plays
    assert ana.until(lambda m: m["type"] == "update")["number"] == 1


def test_with_a_turn_timer_an_idle_human_does_not_hold_the_round_end(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}], turn_seconds=5, rules=LONG)
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    play_game(ana, {0: ana}, random.Random(11), until=_at_round_end)
    room = _room(client, host["code"])
    room.turn_seconds = 0.05  # the test's own short timer (5 s at least through the API)
    room._wake.set()
    update = ana.until(lambda m: m["type"] == "update")
    assert update["observation"]["phase"] == "reveal"
