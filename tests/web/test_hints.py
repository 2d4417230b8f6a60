"""A hint against bots (`{"type": "hint"}`, `skyjo.web.hints`): the `expected` bot's move
on the asking seat's own observation; refused to a spectator, in a room with another
person, at a round's end and once the game is over."""

from __future__ import annotations

import random

from starlette.testclient import TestClient
from webclient import Conn, create_room, finished_room, join_room, play_game

from skyjo.bots import make_bot
from skyjo.seeds import bot_seed


def _hint(conn: Conn) -> dict:
    conn.send({"type": "hint"})
    return conn.until(lambda m: m["type"] in ("hint", "error"))


def test_a_hint_is_the_expected_bot_s_move_on_the_seat_s_own_view(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    match = client.app.state.lobby.rooms[host["code"]].match  # type: ignore[attr-defined]
    for _ in range(4):  # the two reveals, then two turns of Ana's
        play_game(ana, {0: ana}, random.Random(1), until=lambda w: w.obs["current_player"] == 0)
        answer = _hint(ana)
        assert answer["type"] == "hint" and answer["number"] == ana.number
        adviser = make_bot("expected", bot_seed(match.secret, ~0))
        assert answer["action"] == adviser.choose(match.observation(0))
        assert answer["action"] in ana.obs["legal_actions"]
        assert _hint(ana) == answer  # asked again: the same move, nothing played
        ana.move(answer["action"])  # and it is a move the table takes
        ana.until_number(ana.number + 1)


def test_a_hint_is_refused_to_a_spectator_and_where_another_person_plays(
    client: TestClient,
) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    watcher = Conn(client, host["code"])
    watcher.hello(None)
    assert _hint(watcher)["kind"] == "spectator_hint"
    friends = create_room(client, [{"name": "Ana"}, {"name": None}], lobby=False)
    ben = join_room(client, friends["code"])
    for token in (friends["token"], ben["token"]):
        conn = Conn(client, friends["code"])
        conn.hello(token)
        refused = _hint(conn)
        assert (refused["code"], refused["kind"]) == ("no_hint", "hint_people")


def test_a_hint_is_refused_at_a_round_s_end_and_once_the_game_is_over(
    client: TestClient,
) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    play_game(ana, {0: ana}, random.Random(2), until=lambda w: w.obs["phase"] == "round_over")
    assert _hint(ana)["kind"] == "hint_not_your_turn"
    _, done = finished_room(client)
    refused = _hint(done)
    assert (refused["code"], refused["kind"]) == ("game_over", "game_over")
