"""Seats: hot-seat (several humans on the host's device), friends naming
themselves when they join, the host removing a seat's player and a returning
human taking the seat back, and the host's turn timer."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient
from webapp import serving
from webclient import Conn, create_room, join_room, play_game

from skyjo.engine import DRAW, REVEAL


def test_hot_seats_give_the_host_a_token_for_each(client: TestClient) -> None:
    seats = [{"name": "Ana"}, {"name": "Ben", "hot_seat": True}, {"bot": "greedy"},
             {"name": "Cleo", "hot_seat": True}]  # fmt: skip
    room = create_room(client, seats, rules={"target_score": 30})
    held = {entry["seat"]: entry["token"] for entry in room["seats"]}
    assert sorted(held) == [0, 1, 3] and held[0] == room["token"]
    info = client.get(f"/api/rooms/{room['code']}").json()
    assert info["free_seats"] == [] and [s["claimed"] for s in info["seats"]] == [1, 1, 0, 1]
    assert client.post(f"/api/rooms/{room['code']}/join").json()["error"]["code"] == "room_full"
    players = {seat: Conn(client, room["code"]) for seat in held}
    for seat, conn in players.items():
        state = conn.hello(held[seat])
        assert state["you"] == seat and state["host"] is (seat == 0)
    play_game(players[0], players, random.Random(2))
    assert players[3].over


@pytest.mark.parametrize(
    "seat",
    [{"bot": "greedy", "hot_seat": True}, {"name": "Ben", "hot_seat": "yes"}],
)
def test_a_hot_seat_is_a_human_seat(client: TestClient, seat: dict) -> None:
    response = client.post("/api/rooms", json={"seats": [{"name": "Ana"}, seat]})
    assert response.status_code == 400 and "hot_seat" in response.json()["error"]["message"]
    response = client.post(
        "/api/rooms", json={"seats": [{"name": "Ana", "hot_seat": True}, {"name": "Ben"}]}
    )
    assert "the host's own seat" in response.json()["error"]["message"]


def test_a_friend_chooses_a_name_when_joining(client: TestClient) -> None:
    room = create_room(client, [{"name": "Ana"}, {"bot": None}, {"bot": None}])
    code = room["code"]
    joined = client.post(f"/api/rooms/{code}/join", json={"name": "  Dana  "}).json()
    assert joined["seat"] == 1
    assert client.get(f"/api/rooms/{code}").json()["seats"][1]["name"] == "Dana"
    for name, words in [("Ana", "taken"), ("x" * 41, "at most 40"), ("a\x07b", "control")]:
        response = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_name"
        assert words in response.json()["error"]["message"]
    assert client.get(f"/api/rooms/{code}").json()["free_seats"] == [2]  # nothing was taken
    eli = Conn(client, code)
    eli.send({"type": "hello", "join": True, "name": "Eli"})
    assert eli.until(lambda m: m["type"] == "joined")["seat"] == 2
    assert eli.until(lambda m: m["type"] == "state")["seats"][2]["name"] == "Eli"
    late = Conn(client, code)
    late.send({"type": "hello", "token": None, "name": "Fay"})
    assert late.error()["code"] == "bad_field"


def test_the_host_removes_a_player_and_a_returning_human_takes_the_seat(
    client: TestClient,
) -> None:
    room = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
    code = room["code"]
    guest = join_room(client, code)
    ana, ben = Conn(client, code), Conn(client, code)
    ana.hello(room["token"])
    ben.hello(guest["token"])
    ben.send({"type": "remove", "seat": 0})
    assert ben.error()["code"] == "not_host"
    ana.send({"type": "remove", "seat": 0})
    assert ana.error()["message"] == "that is the host's own seat"
    ana.send({"type": "remove", "seat": 5})
    assert ana.error()["code"] == "bad_seat"
    ana.send({"type": "remove", "seat": 1})
    seats = ana.until(lambda m: m["type"] == "seats" and not m["seats"][1]["claimed"])
    assert seats["seats"][1]["connected"] is False
    removed = ben.error()
    assert removed["code"] == "removed"
    again = Conn(client, code)
    assert again.hello(guest["token"])["code"] == "bad_token"  # the token is revoked
    ana.send({"type": "seat", "seat": 1, "bot": "greedy"})  # a bot plays it meanwhile
    ana.until(lambda m: m["type"] == "seats" and m["seats"][1]["bot"] == "greedy")
    assert client.get(f"/api/rooms/{code}").json()["free_seats"] == []
    ana.send({"type": "seat", "seat": 1, "bot": None})  # back to a human: free to join
    ana.until(lambda m: m["type"] == "seats" and m["seats"][1]["human"])
    back = client.post(f"/api/rooms/{code}/join", json={"name": "Ben", "seat": 1}).json()
    assert back["seat"] == 1
    ben2 = Conn(client, code)
    assert ben2.hello(back["token"])["you"] == 1
    ana.send({"type": "remove", "seat": 1})
    ana.until(lambda m: m["type"] == "seats" and not m["seats"][1]["claimed"])
    taken = client.post(f"/api/rooms/{code}/join", json={"seat": 0})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "bad_seat"


def test_the_turn_timer_plays_a_slow_human_s_move(monkeypatch: pytest.MonkeyPatch) -> None:
    with serving() as client:
        for bad in (0, 4, 601, "10", True):
            response = client.post(
                "/api/rooms", json={"seats": [{"name": "A"}, {"name": "B"}], "turn_seconds": bad}
            )
            assert response.status_code == 400, bad
            assert "turn_seconds" in response.json()["error"]["message"]
        # a test may not wait 5 s
        monkeypatch.setattr("skyjo.web.room_config.MIN_TURN_SECONDS", 0.2)
        seats = [{"name": "Ana"}, {"bot": "greedy"}]
        response = client.post("/api/rooms", json={"seats": seats, "turn_seconds": 1.0})
        assert response.status_code == 201
        room = response.json()
        ana = Conn(client, room["code"])
        state = ana.hello(room["token"])
        assert state["turn_seconds"] == 1.0 and 0 < state["timer_left"] <= 1.0
        update = ana.until(lambda m: m["type"] == "update")  # Ana waits: the timer plays
        assert update["seat"] == 0 and update["timed_out"] is True and update["action"] < DRAW
        assert 0 < update["timer_left"] <= 1.0  # a new move, a new full time
        ana.move(next(a for a in ana.obs["legal_actions"] if a >= REVEAL))
        mine = ana.until(lambda m: m["type"] == "update")
        assert "timed_out" not in mine and mine["seat"] == 0
        bots = ana.until(lambda m: m["type"] == "update")  # the bot's reveal
        assert bots["seat"] == 1 and bots.get("timer_left") is None
