"""The observation array (skyjo.env.encoding): exactly what the seat may see."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from skyjo.engine import DRAW, FLIP, SWAP, Phase, State, legal_actions, new_game, step
from skyjo.env.encoding import Encoder, Layout, encode_observation
from skyjo.observation import FACE_DOWN, observe
from skyjo.rules import GRID_SIZE, Rules

DOCS = Path(__file__).resolve().parents[2] / "docs" / "env.md"


def stalling(state: State, rng: random.Random) -> int:
    """Exchange with a face-up card when there is one (so that rounds last and
    the draw pile runs out), else any legal action."""
    legal = legal_actions(state)
    up = [a for a in legal if SWAP <= a < FLIP and not state.hidden[state.player] >> a - SWAP & 1]
    return rng.choice(up) if state.held is not None and up else rng.choice(legal)


#: The rules of the games `states` plays by default: rounds enough for every case.
TARGET_150 = Rules(target_score=150)


def states(players: int, games: int, seed: int, rules: Rules = TARGET_150) -> list[State]:
    """Every state of a few games: the first round's 600 actions stall (a
    reshuffle or more), then random legal actions."""
    rng = random.Random(seed)
    found = []
    for game in range(games):
        state = new_game(players, seed=seed + game, rules=rules)
        while state.phase != Phase.GAME_OVER:
            found.append(state)
            stall = len(found) % 2000 < 600 and state.round == 0
            state = step(state, stalling(state, rng) if stall else rng.choice(legal_actions(state)))
        found.append(state)
    return found


@pytest.mark.parametrize(("players", "slots"), [(2, 0), (4, 0), (3, 8), (8, 0)])
def test_the_fast_encoder_equals_the_one_built_from_the_observation(
    players: int, slots: int
) -> None:
    """The reference reads only `observe(state, seat)`, which never holds a
    face-down card: equal arrays mean the fast path shows no more."""
    layout = Layout(players, slots)
    encoder = Encoder(layout, Rules(target_score=150))
    played = states(players, 3, seed=players)
    assert any(s.reshuffles[-1] for s in played), "no reshuffle: pick other seeds"
    for state in played[::2]:
        for seat in range(players):
            fast = encoder.encode(state, seat)
            assert fast.dtype == np.int16 and fast.shape == (layout.size,)
            np.testing.assert_array_equal(fast, encode_observation(observe(state, seat), layout))


def test_face_down_cards_never_show() -> None:
    """Deal the face-down cards and the draw pile's cards otherwise (a card
    drawn by another seat included): the seat sees the same array."""
    played = [s for s in states(3, 1, seed=5) if s.held is not None and s.source == DRAW]
    state = next(s for s in played if s.player != 0)
    down = [i for i in range(len(state.cells)) if state.hidden_bits >> i & 1]
    cells = list(state.cells)
    for i, j in zip(down, down[1:] + down[:1], strict=True):
        cells[j] = state.cells[i]
    pile = list(state.draw_pile)
    pile[state.draw_top], held = state.held, pile[state.draw_top]
    other = state._replace(cells=tuple(cells), draw_pile=tuple(pile), held=held)
    assert sorted(cells) == sorted(state.cells) and cells != list(state.cells)
    layout = Layout(3)
    np.testing.assert_array_equal(
        Encoder(layout, state.rules).encode(state, 0), Encoder(layout, state.rules).encode(other, 0)
    )
    # and the drawer sees its own card
    mine = Encoder(layout, state.rules).encode(state, state.player)
    assert mine[layout.start("held_value")] == state.held
    assert mine[layout.start("held_known")] == 1


def test_the_viewer_comes_first_and_grids_hold_what_the_observation_shows() -> None:
    state = states(3, 1, seed=4)[40]
    layout = Layout(3)
    for seat in range(3):
        array = Encoder(layout, state.rules).encode(state, seat)
        view = observe(state, seat)
        for slot in range(3):
            shown = (seat + slot) % 3
            values = array[layout.grid(slot, 0)]
            down = array[layout.grid(slot, 1)]
            for k in range(GRID_SIZE):
                assert down[k] == (view.status[shown][k] == FACE_DOWN)
                assert values[k] == (view.cards[shown][k] if down[k] == 0 else 0) or (
                    array[layout.grid(slot, 2)][k] == 1 and values[k] == 0
                )
        assert list(array[layout.offsets["totals"]]) == [
            state.totals[(seat + j) % 3] for j in range(3)
        ]


def test_padding_slots_are_absent() -> None:
    layout = Layout(2, 8)
    array = Encoder(layout, Rules()).encode(new_game(2, seed=1), 0)
    assert list(array[layout.offsets["present"]]) == [1, 1, 0, 0, 0, 0, 0, 0]
    assert not array[layout.grid(2).start : layout.start("present")].any()


def test_every_field_is_documented() -> None:
    text = DOCS.read_text()
    for name, _, _ in Layout(4).fields():
        assert f"`{name}`" in text, name
