"""A position of a played game to play on from (`skyjo.practice`): what everyone saw
stays, what nobody saw is dealt afresh, and the game goes on from there."""

from __future__ import annotations

import random

import pytest

from skyjo.engine import DRAW, Phase, legal_actions, step
from skyjo.match import Match, Seat
from skyjo.observation import observe
from skyjo.practice import PracticeError, position
from skyjo.record import write_record
from skyjo.replayer import steps
from skyjo.rules import Rules


def _record(seed: int = 5) -> dict:
    seats = [Seat("Ana", "greedy"), Seat("Ben", "expected")]
    match = Match(seats, Rules(target_score=60), seed=seed)
    match.advance()
    return match.record()


def _public(obs: object) -> dict:
    shown = obs.to_dict()  # type: ignore[attr-defined]
    return {k: v for k, v in shown.items() if k not in ("draw_pile_known",)}


@pytest.mark.parametrize("seed", [5, 6])
def test_every_turn_plays_on_from_what_its_player_saw(seed: int) -> None:
    record = _record(seed)
    states = [done.state for done in steps(record)]
    turns = [n for n, s in enumerate(states) if s.phase in (Phase.TURNS, Phase.FINAL_TURNS)]
    held = [n for n in turns if states[n].held is not None]
    assert held and len(turns) > 50
    differ = 0
    for n in turns[:: max(1, len(turns) // 40)] + held[:5]:
        state, seat = position(record, n, random.Random(n))
        original = states[n]
        assert seat == original.player
        for viewer in range(original.num_players):  # everyone saw the same table
            assert _public(observe(state, viewer)) == _public(observe(original, viewer))
        differ += state.cells != original.cells or state.draw_pile != original.draw_pile
        assert state.game.key != original.game.key
        again = step(state, legal_actions(state)[0])  # and the game goes on
        assert again.phase in (Phase.TURNS, Phase.FINAL_TURNS, Phase.ROUND_OVER, Phase.GAME_OVER)
        write_record(again, record["players"])  # a record of it, for the room to keep
    assert differ > 0


def test_a_drawn_card_in_hand_stays_in_hand() -> None:
    record = _record()
    states = [done.state for done in steps(record)]
    n = next(i for i, s in enumerate(states) if s.held is not None and s.source == DRAW)
    state, _ = position(record, n, random.Random(1))
    assert state.held == states[n].held and state.source == DRAW


def test_a_step_that_is_no_turn_is_refused() -> None:
    record = _record()
    with pytest.raises(PracticeError, match="not a turn"):
        position(record, 1, random.Random(1))  # an opening reveal
    with pytest.raises(PracticeError, match="no step 99999"):
        position(record, 99_999, random.Random(1))
    with pytest.raises(PracticeError, match="from 0"):
        position(record, -1, random.Random(1))
