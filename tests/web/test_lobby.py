"""A room with friends' seats opens in a lobby (docs/web-protocol.md): friends join,
nobody moves and no bot plays for anyone until the host starts the game; seats
still empty then go to bots or are dropped."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from webapp import serving
from webclient import Conn, create_room, join_room, play_game

from skyjo.engine import REVEAL
from skyjo.web.app import qr_svg

FRIENDS = [{"name": "Ana"}, {"name": None}, {"name": None}]


def _room(client: TestClient, code: str):  # the server's room, for checking
    return client.app.state.lobby.rooms[code]  # type: ignore[attr-defined]


def test_a_friends_room_waits_in_its_lobby_and_starts_when_the_host_says(
    client: TestClient,
) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}], None)
    info = client.get(f"/api/rooms/{host['code']}").json()
    assert info["lobby"] is True and info["free_seats"] == [1]
    ana = Conn(client, host["code"])
    state = ana.hello(host["token"])
    assert state["room"]["lobby"] is True and state["seats"][0]["host"] is True
    ana.move(REVEAL)
    refused = ana.error()
    assert (refused["code"], refused["kind"]) == ("in_lobby", "in_lobby")
    assert _room(client, host["code"])._due() is None  # the greedy bot waits too
    guest = join_room(client, host["code"])
    ben = Conn(client, host["code"])
    assert ben.hello(guest["token"])["room"]["lobby"] is True
    ben.send({"type": "start"})
    assert ben.error()["kind"] == "not_host_start"
    ana.send({"type": "start"})
    for conn in (ana, ben):
        started = conn.until(lambda m: m["type"] == "state" and not m["room"]["lobby"])
        assert started["number"] == 0 and started["observation"]["phase"] == "reveal"
    ana.send({"type": "start"})
    assert ana.error()["kind"] == "already_started"
    play_game(ana, {0: ana, 1: ben}, random.Random(2), until=lambda w: w.number >= 6)
    assert ana.number >= 6


def test_starting_with_empty_seats_needs_a_choice_bots_or_dropped(client: TestClient) -> None:
    host = create_room(client, FRIENDS + [{"name": None}], None)
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    guest = join_room(client, host["code"])  # takes seat 1; seats 2 and 3 stay empty
    ben = Conn(client, host["code"])
    ben.hello(guest["token"])
    ana.send({"type": "start"})
    refused = ana.error()
    assert refused["code"] == "empty_seats" and refused["params"]["count"] == 2
    assert refused["params"]["names"] == "seat 3, seat 4"
    ana.send({"type": "start", "empty": "external:command=sh"})
    assert ana.error()["code"] == "bad_bot"
    ana.send({"type": "start", "empty": "basic"})
    started = ana.until(lambda m: m["type"] == "state" and not m["room"]["lobby"])
    assert [s["bot"] for s in started["seats"]] == [None, None, "basic", "basic"]


def test_the_host_drops_seats_and_the_others_move_up(client: TestClient) -> None:
    host = create_room(client, FRIENDS + [{"name": "Dev"}], None)
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    guests = [join_room(client, host["code"]) for _ in range(3)]
    cleo, dev = Conn(client, host["code"]), Conn(client, host["code"])
    cleo.hello(guests[1]["token"])
    dev.hello(guests[2]["token"])
    ana.send({"type": "drop", "seat": 0})
    assert ana.error()["kind"] == "host_own_seat"
    dev.send({"type": "drop", "seat": 1})
    assert dev.error()["kind"] == "not_host_drop"
    # the joiners gave no name: "Player 2" and "Player 3"; the fourth took the host's "Dev"
    ana.send({"type": "drop", "seat": 1})  # Player 2 (who joined but is not here) leaves
    state = dev.until(lambda m: m["type"] == "state")
    assert [s["name"] for s in state["seats"]] == ["Ana", "Player 3", "Dev"]
    assert state["you"] == 2
    ana.send({"type": "drop", "seat": 1})  # Player 3 is sent away
    assert cleo.error()["code"] == "removed"
    state = dev.until(lambda m: m["type"] == "state")
    assert [s["name"] for s in state["seats"]] == ["Ana", "Dev"] and state["you"] == 1
    ana.send({"type": "drop", "seat": 1})
    assert ana.error()["code"] == "too_few_seats"
    stale = Conn(client, host["code"])  # Player 2's token held a dropped seat: it holds none now
    assert stale.hello(guests[0]["token"])["code"] == "bad_token"
    ana.send({"type": "start"})
    started = dev.until(lambda m: m["type"] == "state" and not m["room"]["lobby"])
    assert started["you"] == 1 and len(started["observation"]["grids"]) == 2
    dev.move(REVEAL)
    assert dev.error()["code"] == "not_your_turn"  # Ana reveals first: the game is on


def test_nobody_is_played_for_before_the_start_and_only_absent_joiners_after() -> None:
    with serving(absent_after=0.0) as client:  # stand-ins play at once for absent players
        host = create_room(client, [{"name": "Ana"}, {"name": None}, {"bot": "random"}], None)
        ana = Conn(client, host["code"])
        ana.hello(host["token"])
        room = _room(client, host["code"])
        assert room._due() is None and room.match.steps == 0
        ana.send({"type": "start", "empty": "greedy"})
        ana.until(lambda m: m["type"] == "state" and not m["room"]["lobby"])
        ana.move(REVEAL)
        ana.until_number(1)
        ana.close()  # Ana joined and left: from now on a stand-in plays her seat
        watcher = Conn(client, host["code"])
        watcher.hello()
        watcher.until(lambda m: m["type"] == "update" and m["number"] >= 8)


def test_a_solo_game_and_an_explicit_lobby_false_start_at_once(client: TestClient) -> None:
    solo = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}], None)
    assert client.get(f"/api/rooms/{solo['code']}").json()["lobby"] is False
    direct = create_room(client, [{"name": "Ana"}, {"name": "Ben"}], lobby=False)
    assert client.get(f"/api/rooms/{direct['code']}").json()["lobby"] is False
    response = client.post("/api/rooms", json={"seats": FRIENDS, "lobby": "yes"})
    assert response.status_code == 400 and response.json()["error"]["kind"] == "lobby_type"


@pytest.mark.parametrize("empty, seats", [("random", 3), ("drop", 2)])
def test_the_lobby_survives_a_restart(tmp_path: Path, empty: str, seats: int) -> None:
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    with serving(database_url=url) as client:
        host = create_room(client, FRIENDS, None)
        join_room(client, host["code"])
    with serving(database_url=url) as client:
        ana = Conn(client, host["code"])
        state = ana.hello(host["token"])
        assert state["room"]["lobby"] is True and state["room"]["free_seats"] == [2]
        ana.send({"type": "start", "empty": empty})
        started = ana.until(lambda m: m["type"] == "state" and not m["room"]["lobby"])
        assert len(started["seats"]) == seats
    with serving(database_url=url) as client:
        assert client.get(f"/api/rooms/{host['code']}").json()["lobby"] is False


def test_the_qr_code_is_an_svg_of_the_room_s_link(client: TestClient) -> None:
    host = create_room(client, FRIENDS, None)
    response = client.get(f"/api/rooms/{host['code']}/qr.svg")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    assert response.content == qr_svg(f"http://testserver/r/{host['code']}")
    assert response.text.startswith("<svg") and "<path" in response.text
    missing = client.get("/api/rooms/ZZZZZZ/qr.svg")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_room"


def test_a_seat_nobody_ever_joined_is_not_played_for_but_one_left_behind_is() -> None:
    with serving(absent_after=0.0) as client:  # stand-ins play at once for absent players
        host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}], lobby=False)
        ana = Conn(client, host["code"])
        ana.hello(host["token"])  # (a stand-in may have turned up a card before she came)
        room = _room(client, host["code"])
        while room.match.to_move == 0:
            ana.move(ana.obs["legal_actions"][0])  # type: ignore[index]
            ana.until_number(ana.number + 1)
        assert room.match.to_move == 1 and room._due() is None  # nobody plays for Ben
        number = ana.number
        guest = join_room(client, host["code"])
        ben = Conn(client, host["code"])
        ben.hello(guest["token"])
        ben.close()  # Ben joined, then left: now a stand-in plays his turns
        assert ana.until(lambda m: m["type"] == "update")["seat"] == 1
        assert ana.number == number + 1


def test_the_host_frees_a_seat_a_stranger_took_in_the_lobby(client: TestClient) -> None:
    """A seat squatted (a stranger joined by a listed room's code) goes back to free:
    the stranger is sent away, their token stops working, a friend takes the seat."""
    host = create_room(client, FRIENDS, None, listed=True)
    code = host["code"]
    ana = Conn(client, code)
    ana.hello(host["token"])
    stranger = client.post(f"/api/rooms/{code}/join", json={"name": "Squatter"}).json()
    eve = Conn(client, code)
    eve.hello(stranger["token"])
    assert client.get(f"/api/rooms/{code}").json()["free_seats"] == [2]
    ana.send({"type": "remove", "seat": stranger["seat"]})
    sent_away = eve.error()
    assert (sent_away["code"], sent_away["kind"]) == ("removed", "seat_freed")
    info = client.get(f"/api/rooms/{code}").json()
    assert info["lobby"] is True and info["free_seats"] == [1, 2]
    assert info["seats"][1]["claimed"] is False
    assert info["seats"][1]["name"] == "Seat 2"  # the stranger's name went with them
    again = Conn(client, code)
    refused = again.hello(stranger["token"])
    assert (refused["code"], refused["kind"]) == ("bad_token", "bad_token")
    friend = client.post(f"/api/rooms/{code}/join", json={"name": "Dana", "seat": 1}).json()
    assert friend["seat"] == 1
    assert client.get(f"/api/rooms/{code}").json()["seats"][1]["name"] == "Dana"
    ana.send({"type": "remove", "seat": 1})  # freed again: a newcomer with no name is
    ana.until(lambda m: m["type"] == "seats" and m["seats"][1]["name"] == "Seat 2")
    assert client.post(f"/api/rooms/{code}/join", json={}).json()["seat"] == 1  # "Player 2"
    assert client.get(f"/api/rooms/{code}").json()["seats"][1]["name"] == "Player 2"
