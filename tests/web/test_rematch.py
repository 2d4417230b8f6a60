"""Another game takes the whole table along (docs/web-protocol.md, `rematch`): once the
game is over the host asks for it; a new room opens with the same seats (names, bots,
hot seats), rules, title, listing and turn timer, and the same seats' tokens, so every
browser keeps its seat by copying its token; the old room tells every connection, and
keeps the new code for whoever comes later. Asked again, it is the same room."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from webapp import serving
from webclient import Conn, create_room, join_room, play_game

from skyjo.match import Seat
from skyjo.web.rooms import Room

ONE_ROUND = {"target_score": 1, "ender_penalty": "none"}  # over after the first round
TABLE = [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}]


def _room(client: TestClient, code: str) -> Room:  # the server's room, for checking
    return client.app.state.lobby.rooms[code]  # type: ignore[attr-defined,no-any-return]


def finished(client: TestClient, seats: list[dict[str, Any]] = TABLE, **fields: Any) -> dict:
    """A room of `seats` played to its end by its humans, each over its own connection:
    the host's answer (code, token) with `conns`, seat -> connection, and a spectator's
    `watcher`, all still connected."""
    fields.setdefault("rules", ONE_ROUND)
    host = create_room(client, seats, **fields)
    conns = {host["seat"]: Conn(client, host["code"])}
    conns[host["seat"]].hello(host["token"])
    for held in host.get("seats", []):  # hot seats: the host's device holds their tokens
        if held["seat"] not in conns:
            conns[held["seat"]] = Conn(client, host["code"])
            conns[held["seat"]].hello(held["token"])
    tokens = {held["seat"]: held["token"] for held in host.get("seats", [])}
    tokens[host["seat"]] = host["token"]
    for seat, info in enumerate(seats):
        if "bot" not in info and seat not in conns:
            guest = join_room(client, host["code"])
            conns[guest["seat"]] = Conn(client, host["code"])
            conns[guest["seat"]].hello(guest["token"])
            tokens[guest["seat"]] = guest["token"]
    watcher = Conn(client, host["code"])
    watcher.hello()
    play_game(conns[host["seat"]], conns, random.Random(4))
    assert conns[host["seat"]].over
    return {**host, "conns": conns, "watcher": watcher, "tokens": tokens}


def rematch(conn: Conn) -> dict:
    """Ask for another game over `conn`: the `rematch` (or `error`) that answers."""
    conn.send({"type": "rematch"})
    return conn.until(lambda m: m["type"] in ("rematch", "error"))


def test_the_host_s_rematch_takes_the_table_along_and_everyone_hears_of_it(
    client: TestClient,
) -> None:
    game = finished(client, title="Sunday", listed=True, turn_seconds=30)
    ana, ben = game["conns"][0], game["conns"][1]
    told = rematch(ana)
    new = told["code"]
    assert told == {"type": "rematch", "code": new, "by": 0} and new != game["code"]
    for conn in (ben, game["watcher"]):  # every connection, the spectator's too
        assert conn.until(lambda m: m["type"] == "rematch") == told
    info = client.get(f"/api/rooms/{new}").json()
    assert info["title"] == "Sunday" and info["listed"] is True
    assert info["rules"] == {"target_score": 1, "ender_penalty": "none"}
    assert [(s["name"], s["bot"]) for s in info["seats"]] == [
        ("Ana", None),
        ("Ben", None),
        ("Greedy bot", "greedy"),
    ]
    assert info["lobby"] is True and info["over"] is False and info["round"] == 1
    assert info["free_seats"] == [] and info["rematch"] is None  # every seat kept its holder
    # the old room remembers it, for whoever comes later (its info, a new connection's state)
    assert client.get(f"/api/rooms/{game['code']}").json()["rematch"] == {"code": new, "by": 0}
    late = Conn(client, game["code"])
    assert late.hello()["room"]["rematch"] == {"code": new, "by": 0}
    # the same tokens hold the same seats there, the host's rights too: no new secret
    there = {seat: Conn(client, new) for seat in (0, 1)}
    for seat, conn in there.items():
        state = conn.hello(game["tokens"][seat])
        assert (state["you"], state["host"]) == (seat, seat == 0)
        assert state["room"]["lobby"] is True and state["turn_seconds"] == 30.0
        assert state["seats"][0]["host"] is True
    # a fresh deal: nobody has moved, and nobody moves before the host starts
    assert state["number"] == 0 and state["observation"]["phase"] == "reveal"
    assert _room(client, new).match.secret != _room(client, game["code"]).match.secret
    there[0].send({"type": "start"})
    started = there[1].until(lambda m: m["type"] == "state" and not m["room"]["lobby"])
    assert started["you"] == 1 and started["number"] == 0


def test_asked_again_or_twice_at_once_it_is_the_same_room(client: TestClient) -> None:
    game = finished(client)
    ana = game["conns"][0]
    again = Conn(client, game["code"])  # the host's second tab
    again.hello(game["token"])
    rooms = len(client.app.state.lobby.rooms)  # type: ignore[attr-defined]
    ana.send({"type": "rematch"})
    again.send({"type": "rematch"})
    told = [conn.until(lambda m: m["type"] in ("rematch", "error")) for conn in (ana, again)]
    assert [m["type"] for m in told] == ["rematch", "rematch"], told
    codes = {m["code"] for m in told}
    assert len(codes) == 1
    assert len(client.app.state.lobby.rooms) == rooms + 1  # type: ignore[attr-defined]
    assert rematch(ana)["code"] in codes  # and later on, still the same
    assert len(client.app.state.lobby.rooms) == rooms + 1  # type: ignore[attr-defined]


def test_only_the_host_asks_and_only_once_the_game_is_over(client: TestClient) -> None:
    host = create_room(client, TABLE, rules=ONE_ROUND)
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    refused = rematch(ana)
    assert (refused["code"], refused["kind"]) == ("not_over", "game_not_over")
    assert refused["message"] == "the game is not over: another game is started at its end"
    game = finished(client)
    for conn in (game["conns"][1], game["watcher"]):  # a friend, a spectator
        refused = rematch(conn)
        assert (refused["code"], refused["kind"]) == ("not_host", "not_host_rematch")
    assert client.get(f"/api/rooms/{game['code']}").json()["rematch"] is None
    ana = game["conns"][0]
    ana.send({"type": "rematch", "seats": []})
    assert ana.error()["params"] == {"type": "rematch", "field": "'seats'"}


def test_hot_seats_and_bots_keep_their_seats(client: TestClient) -> None:
    seats = [{"name": "Ana"}, {"name": "Ben", "hot_seat": True}, {"bot": "basic"}]
    game = finished(client, seats)
    new = rematch(game["conns"][0])["code"]
    info = client.get(f"/api/rooms/{new}").json()
    assert [(s["name"], s["bot"], s["claimed"]) for s in info["seats"]] == [
        ("Ana", None, True),
        ("Ben", None, True),
        ("Basic bot", "basic", False),
    ]
    assert info["lobby"] is True  # Ben's player is asked too: one click starts it
    ben = Conn(client, new)
    assert ben.hello(game["tokens"][1])["you"] == 1


def test_a_table_of_the_host_and_bots_starts_at_once(client: TestClient) -> None:
    game = finished(client, [{"name": "Ana"}, {"bot": "greedy"}])
    new = rematch(game["conns"][0])["code"]
    ana = Conn(client, new)
    state = ana.hello(game["token"])
    assert state["room"]["lobby"] is False and state["you"] == 0 and state["host"] is True
    assert state["observation"]["phase"] == "reveal" and state["observation"]["legal_actions"]


def test_in_the_new_lobby_the_host_gives_away_or_drops_the_seats_of_who_did_not_come(
    client: TestClient,
) -> None:
    seats = [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cleo"}, {"bot": "greedy"}]
    game = finished(client, seats)
    new = rematch(game["conns"][0])["code"]
    ana = Conn(client, new)
    ana.hello(game["token"])
    held = [(s["claimed"], s["connected"]) for s in ana.state["seats"][1:3]]  # type: ignore[index]
    assert held == [(True, False), (True, False)]  # Ben's and Cleo's: kept for them, empty
    ana.send({"type": "seat", "seat": 1, "bot": "expected"})  # Ben did not come: a bot plays
    ana.until(lambda m: m["type"] == "seats" and m["seats"][1]["bot"] == "expected")
    ana.send({"type": "drop", "seat": 2})  # nor did Cleo: her seat leaves the table
    state = ana.until(lambda m: m["type"] == "state")
    assert [(s["name"], s["bot"]) for s in state["seats"]] == [
        ("Ana", None),
        ("Ben", "expected"),
        ("Greedy bot", "greedy"),
    ]
    cleo = Conn(client, new)
    assert cleo.hello(game["tokens"][2])["code"] == "bad_token"  # her token holds no seat now
    ana.send({"type": "start"})
    assert not ana.until(lambda m: m["type"] == "state")["room"]["lobby"]


def test_a_rematch_counts_as_a_room_made_by_the_host_s_address() -> None:
    with serving(rooms_per_hour=1) as client:
        game = finished(client, [{"name": "Ana"}, {"bot": "random"}])  # the hour's one room
        refused = rematch(game["conns"][0])
        assert (refused["code"], refused["kind"]) == ("rate_limited", "rooms_rate")
        assert refused["params"]["limit"] == 1 and refused["params"]["retry_after"] >= 1
        assert client.get(f"/api/rooms/{game['code']}").json()["rematch"] is None
        assert len(client.app.state.lobby.rooms) == 1  # type: ignore[attr-defined]


def test_the_next_game_s_code_outlives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    with serving(database_url=url) as client:
        game = finished(client)
        new = rematch(game["conns"][0])["code"]
    with serving(database_url=url) as client:
        assert client.get(f"/api/rooms/{game['code']}").json()["rematch"] == {"code": new, "by": 0}
        ben = Conn(client, new)
        assert ben.hello(game["tokens"][1])["you"] == 1
        ana = Conn(client, game["code"])
        ana.hello(game["token"])
        assert rematch(ana) == {"type": "rematch", "code": new, "by": 0}  # asked again


def test_a_table_whose_names_these_rules_refuse_is_told_why(client: TestClient) -> None:
    game = finished(client, [{"name": "Ana"}, {"bot": "random"}])
    room = _room(client, game["code"])
    room.match.seats = (Seat("Ana"), Seat("ANA", "random"))  # as saved under older rules
    refused = rematch(game["conns"][0])
    assert (refused["code"], refused["kind"]) == ("bad_name", "name_repeated")
    assert room.rematch is None
