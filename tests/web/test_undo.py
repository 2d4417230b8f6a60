"""Undo against bots (`skyjo.web.undo`, the `undo` message): the plain mark, then
rooms over the TestClient: a move and the bots' replies undone, every connection
given a fresh `state`, the record holding only the final line of play, and the
refusals (another person at the table, nothing to undo, the game over)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from webclient import Conn, Message, create_room, finished_room, settle, to_my_turn

from skyjo.engine import DRAW, SWAP, Phase
from skyjo.match import Match, Seat
from skyjo.web.protocol import ProtocolError
from skyjo.web.undo import UndoMark

BOTS = [{"name": "Ana"}, {"bot": "greedy"}, {"bot": "greedy"}]


def _match(*bots: str | None) -> Match:
    return Match([Seat("Ana"), *(Seat(f"S{i}", bot) for i, bot in enumerate(bots))], seed=3)


def _revealed(match: Match) -> Match:
    """`match` past its first reveals (Ana's by hand, the bots' by themselves)."""
    while match.state.phase == Phase.REVEAL:
        seat = match.to_move
        assert seat is not None
        if match.seats[seat].human:
            match.play(seat, match.observation(seat).legal_actions[0])
        else:
            match.play_bot()
    return match


def _refused(mark: UndoMark, match: Match, seat: int | None) -> str:
    with pytest.raises(ProtocolError) as refused:
        mark.check(match, seat)
    return refused.value.kind


def test_the_mark_gives_back_the_checkpoint_of_the_seats_last_move() -> None:
    match, mark = _revealed(_match("greedy")), UndoMark()
    assert _refused(mark, match, 0) == "undo_nothing"
    seat = match.to_move
    assert seat is not None
    before = match.checkpoint()
    mark.note(match, seat, before)
    assert mark.check(match, seat) is before
    mark.clear()
    assert _refused(mark, match, seat) == "undo_nothing"


def test_a_first_reveal_is_no_move_to_undo() -> None:
    match, mark = _match("greedy"), UndoMark()
    mark.note(match, 0, match.checkpoint())  # before a reveal
    assert _refused(mark, match, 0) == "undo_nothing"


def test_the_mark_is_refused_with_another_person_to_a_spectator_and_for_another_match() -> None:
    mark = UndoMark()
    people = _revealed(_match("greedy"))
    people.set_player(1, None)  # the bot's seat handed to a person
    mark.note(people, 0, people.checkpoint())
    assert _refused(mark, people, 0) == "undo_people"
    alone = _match("greedy")
    assert _refused(mark, alone, None) == "spectator_move"
    assert _refused(mark, alone, 0) == "undo_nothing"  # the mark is another match's
    mark.note(alone, 1, alone.checkpoint())
    assert _refused(mark, alone, 0) == "undo_nothing"  # another seat's move


def _room(client: TestClient, code: str) -> Any:
    return client.app.state.lobby.rooms[code]  # type: ignore[attr-defined]


def _undo(conn: Conn) -> Message:
    conn.send({"type": "undo"})
    return conn.until(lambda m: m["type"] in ("state", "error"))


def test_an_undo_takes_back_the_move_and_the_bots_replies(client: TestClient) -> None:
    host = create_room(client, BOTS)
    ana, watcher = Conn(client, host["code"]), Conn(client, host["code"])
    ana.hello(host["token"])
    watcher.hello(None)
    to_my_turn(ana)
    assert _undo(ana)["kind"] == "undo_nothing"  # the reveals are not undone
    ana.move(DRAW)
    ana.until_number(ana.number + 1)
    holding, number = ana.obs, ana.number
    ana.move(SWAP + 0)
    ana.until_number(number + 1)
    settle(ana, [ana])
    assert ana.number > number + 1  # the bots have replied
    state = _undo(ana)
    assert state["type"] == "state"
    assert state["number"] == number and state["observation"] == holding
    assert all(entry["number"] <= number for entry in state["log"])
    seen = watcher.until(lambda m: m["type"] == "state")
    assert seen["number"] == number  # every connection is told
    assert _undo(ana)["kind"] == "undo_nothing"  # one move back, not two
    ana.move(SWAP + 5)  # another line of play, numbered on from the undo
    assert ana.until(lambda m: m["type"] == "update")["number"] == number + 1


def test_undo_is_refused_with_another_person_and_after_the_end(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben", "hot_seat": True}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.move(ana.obs["legal_actions"][0])  # type: ignore[index]
    assert _undo(ana)["kind"] == "undo_people"
    _, done = finished_room(client)
    assert _undo(done)["kind"] == "undo_over"


def test_a_spectator_cannot_undo(client: TestClient) -> None:
    host = create_room(client, BOTS)
    watcher = Conn(client, host["code"])
    watcher.hello(None)
    assert _undo(watcher)["kind"] == "spectator_move"


def test_the_record_holds_only_the_final_line_of_play(client: TestClient) -> None:
    host = create_room(client, BOTS)
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    to_my_turn(ana)
    ana.move(DRAW)
    ana.until_number(ana.number + 1)
    room = _room(client, host["code"])
    holding = room.match.record()
    ana.move(SWAP + 0)
    ana.until_number(ana.number + 1)
    settle(ana, [ana])
    assert room.match.record() != holding
    _undo(ana)
    assert room.match.record() == holding  # the swap and the bots' replies are gone
    restored = Match.from_dict(room.match.to_dict())
    assert restored.state == room.match.state  # the saved match is the game undone
