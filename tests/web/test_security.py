"""What leaves the server: over whole games, no message to any player or
spectator holds a face-down card, the deck's order, the game's secret or a
card drawn by someone else before it is placed.

Every message every connection received is checked against the server's own
state at that message's step (rebuilt from the match's secret and history).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from webclient import Conn, create_room, join_room, play_game

from skyjo.engine import DRAW, State, new_game, step
from skyjo.observation import FACE_DOWN, observe

#: Keys that would carry the server's secrets; none may appear in any message.
SECRET_KEYS = {"secret", "seed", "deck", "decks", "draw_pile", "reshuffles", "record", "key"}


def _states(match: Any) -> list[State]:
    """The server's state after each step of the match (index = update number)."""
    state = new_game(match.num_players, seed=match.secret, rules=match.rules)
    states = [state]
    for action in match.state.history:
        state = step(state, action)
        states.append(state)
    assert states[-1] == match.state
    return states


def _walk(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, value) inside a JSON value."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, f"{path}[{i}]")


def _check_message(message: dict[str, Any], state: State, viewer: int | None) -> None:
    """`message`, sent to `viewer` at `state`, shows nothing hidden from it."""
    for path, _value in _walk(message):
        last = path.rsplit(".", 1)[-1]
        assert last not in SECRET_KEYS, f"{path} leaves the server"
    pile = list(state.draw_pile[state.draw_top :])
    for path, value in _walk(message):
        if isinstance(value, list) and len(value) >= 6 and all(isinstance(v, int) for v in value):
            if path.endswith("draw_pile_known"):
                assert value == sorted(value), "the known draw pile is given sorted, never in order"
                continue
            assert not _is_run_of(value, pile), f"{path} is the draw pile's order"
    for view in _views(message):
        _check_observation(view, state, viewer)
    for event in _events(message):
        if event["kind"] == "drew" and event["player"] != viewer:
            assert "card" not in event, f"{viewer} was told the card {event['player']} drew"


def _is_run_of(values: list[int], pile: list[int]) -> bool:
    n = len(values)
    return any(pile[i : i + n] == values for i in range(len(pile) - n + 1))


def _views(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [message["observation"]] if "observation" in message else []


def _events(message: dict[str, Any]) -> list[dict[str, Any]]:
    events = list(message.get("events", []))
    for entry in message.get("log", []):
        events += entry["events"]
    return events


def _check_observation(view: dict[str, Any], state: State, viewer: int | None) -> None:
    truth = observe(state, 0)  # the statuses are public; the values are the test's to hide
    for seat, grid in enumerate(view["grids"]):
        cells = [cell for row in grid for cell in row]
        for k, cell in enumerate(cells):
            if truth.status[seat][k] == FACE_DOWN:
                assert cell is None, f"seat {seat}'s face-down card at {k} shown to {viewer}"
    if state.held is not None and state.source == DRAW and state.player != viewer:
        assert view["held"] is None, f"{viewer} saw the card {state.player} drew"
    assert view["draw_pile_size"] == len(state.draw_pile) - state.draw_top


def _play_and_check(client: TestClient, seats: int, target: int, seed: int, hot: int = 0) -> State:
    """A whole game of `seats` humans and a spectator; every message checked.
    The `hot` seats after the host's are played on the host's device (hot-seat):
    one connection each, and each must hear only what its own seat may see."""
    requested = [{"name": f"P{i}", "hot_seat": 0 < i <= hot} for i in range(seats)]
    host = create_room(client, requested, rules={"target_score": target})
    tokens = {0: host["token"]}
    for entry in host.get("seats", []):
        tokens[entry["seat"]] = entry["token"]
    assert len(tokens) == 1 + hot
    for _ in range(seats - 1 - hot):
        joined = join_room(client, host["code"])
        tokens[joined["seat"]] = joined["token"]
    players = {seat: Conn(client, host["code"]) for seat in tokens}
    for seat, conn in players.items():
        assert conn.hello(tokens[seat])["you"] == seat
    watcher = Conn(client, host["code"])
    watcher.hello()
    play_game(watcher, players, random.Random(seed))
    for conn in players.values():
        conn.until_number(watcher.number)
    match = client.app.state.lobby.rooms[host["code"]].match  # type: ignore[attr-defined]
    states = _states(match)
    checked = 0
    for viewer, conn in [*players.items(), (None, watcher)]:
        number = 0
        for message in conn.messages:
            number = message.get("number", number)
            _check_message(message, states[number], viewer)
            checked += 1
    assert checked > seats * len(states) / 2
    return match.state


@pytest.mark.parametrize("seats, target, seed", [(2, 40, 1), (4, 30, 2), (8, 30, 3)])
def test_no_message_holds_a_hidden_card_the_deck_or_a_drawn_card(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, seats: int, target: int, seed: int
) -> None:
    monkeypatch.setattr("skyjo.match.fresh_seed", lambda: seed)  # the same deals every run
    final = _play_and_check(client, seats, target, seed)
    assert final.results, "the game was played to its end"
    if seats == 8:
        assert any(final.reshuffles), "an 8-player game of random play reshuffles"


@pytest.mark.parametrize("seats, hot, seed", [(3, 2, 4), (5, 2, 5)])
def test_hot_seats_hear_only_what_their_own_seat_may_see(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, seats: int, hot: int, seed: int
) -> None:
    monkeypatch.setattr("skyjo.match.fresh_seed", lambda: seed)
    final = _play_and_check(client, seats, 30, seed, hot=hot)
    assert final.results


def test_an_unfinished_game_gives_away_neither_record_nor_replay(client: TestClient) -> None:
    """While a game is played its record (seed, decks) stays on the server, at
    every step: the record and replay routes refuse, and say nothing of it."""
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben", "hot_seat": True}],
                       rules={"target_score": 20})  # fmt: skip
    code = host["code"]
    tokens = {entry["seat"]: entry["token"] for entry in host["seats"]}
    players = {seat: Conn(client, code) for seat in tokens}
    for seat, conn in players.items():
        conn.hello(tokens[seat])
    rng = random.Random(6)
    match = client.app.state.lobby.rooms[code].match  # type: ignore[attr-defined]
    while not match.over:
        for path in ("record", "replay"):
            response = client.get(f"/api/rooms/{code}/{path}")
            assert response.status_code == 409 and response.json()["error"]["code"] == "not_over"
            body = response.json()
            assert set(body) == {"error"}
            assert set(body["error"]) == {"code", "message", "kind", "params"}
            assert body["error"]["params"] == {}  # nothing of the game
            assert str(match.secret) not in response.text
        mover = players[players[0].obs["current_player"]]  # type: ignore[index]
        mover.move(rng.choice(mover.obs["legal_actions"]))  # type: ignore[index]
        for conn in players.values():
            conn.until_number(conn.number + 1)
    record = client.get(f"/api/rooms/{code}/record").json()  # over: now it may be seen
    assert record["seed"] == match.secret


def test_the_checks_catch_a_leak() -> None:
    """The checker itself: a message with a face-down value or a drawn card fails."""
    state = new_game(2, seed=5)
    view = observe(state, 0).to_dict()
    leaked = {**view, "grids": [[[state.grids[0][0], *row[1:]] for row in view["grids"][0]]]}
    leaked["grids"] = [leaked["grids"][0], view["grids"][1]]
    with pytest.raises(AssertionError, match="face-down"):
        _check_message({"type": "update", "observation": leaked}, state, 0)
    drawn = step(step(step(step(step(state, 0), 1), 0 + 4), 5), DRAW)
    told = {"type": "update", "events": [{"kind": "drew", "player": drawn.player, "card": 3}]}
    with pytest.raises(AssertionError, match="was told"):
        _check_message(told, drawn, 1 - drawn.player)
    pile = list(drawn.draw_pile[drawn.draw_top : drawn.draw_top + 8])
    with pytest.raises(AssertionError, match="order"):
        _check_message({"type": "x", "cards": pile}, drawn, 0)
    with pytest.raises(AssertionError, match="leaves the server"):
        _check_message({"type": "x", "seed": 5}, drawn, 0)
