"""The encoders agree: the engine's fast one (`skyjo.env.encoding.Encoder`) with
the one built from the observation, and the kernel's (`skyjo.kernel.encoding`)
with the engine's, array for array."""

from __future__ import annotations

import random

import numpy as np
import pytest
from played_states import TARGET_150, stalling, states  # tests/played_states.py

from skyjo import kernel
from skyjo.engine import (
    DRAW,
    NEXT_ROUND,
    NUM_ACTIONS,
    Phase,
    State,
    legal_actions,
    new_game,
    step,
)
from skyjo.env.encoding import Encoder, encode_observation
from skyjo.kernel.encoding import encode_table, offsets, size
from skyjo.kernel.layout import Layout
from skyjo.observation import observe
from skyjo.rules import DECK, Rules


def engine_mask(state: State) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[list(legal_actions(state))] = 1
    return mask


def check(t: kernel.Tables, state: State, layout: Layout, encoder: Encoder) -> None:
    """Every seat's array and mask from table 0 of `t` equal the engine's,
    written over garbage (as `np.empty` may give)."""
    out = np.empty(layout.size, np.int16)
    mask = np.empty(NUM_ACTIONS, np.int8)
    legal = engine_mask(state)
    for seat in range(state.num_players):
        for live in (True, False):
            out.fill(-7)
            mask.fill(-7)
            encode_table(t.cells, t.seats, t.piles, t.slots, 0, seat, live, layout.slots, out, mask)
            np.testing.assert_array_equal(out, encoder.encode(state, seat))
            if live and seat == state.player:
                np.testing.assert_array_equal(mask, legal)
            else:
                assert not mask.any()


@pytest.mark.parametrize("slots", range(2, 9))
def test_offsets_are_the_layouts(slots: int) -> None:
    for players in range(2, slots + 1):
        layout = Layout(players, slots)
        assert offsets(slots) == {name: s.start for name, s in layout.offsets.items()}
        assert size(slots) == layout.size


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


#: (players, table seats, layout slots, rules, seed): the seeds give games with
#: a cleared column and a round's end (random play clears a column in about
#: half of the seeds' three games).
CASES = [
    (2, 2, 2, TARGET_150, 2),
    (3, 3, 3, TARGET_150, 0),
    (4, 4, 4, TARGET_150, 0),
    (8, 8, 8, TARGET_150, 1),
    (3, 8, 8, TARGET_150, 2),  # padded, in tables of 8 seats
    (3, 8, 3, TARGET_150, 3),
    (3, 3, 8, TARGET_150, 5),
    (2, 2, 2, Rules(ender_penalty="always"), 0),
    (4, 4, 4, Rules(ender_penalty="always"), 6),
    (3, 3, 3, Rules(ender_penalty="none"), 0),
    (4, 8, 8, Rules(ender_penalty="none"), 3),
]


@pytest.mark.parametrize(("players", "seats", "slots", "rules", "seed"), CASES)
def test_every_seat_sees_the_engine_encoders_array(
    players: int, seats: int, slots: int, rules: Rules, seed: int
) -> None:
    """Each state loaded into a table (draw pile at [0, len)): the same array
    for every seat, the engine's legal actions for the seat to act only."""
    found = states(players, 3, seed, rules)
    assert any(s.reshuffles[-1] for s in found), "no reshuffle"
    assert any(s.held is not None and s.source == DRAW for s in found), "no card drawn"
    assert any(s.cleared_bits for s in found), "no cleared column"
    assert any(s.phase == Phase.ROUND_OVER for s in found), "no round's end"
    assert found[-1].phase == Phase.GAME_OVER
    layout = Layout(players, slots)
    encoder = Encoder(layout, rules)
    t = kernel.new_tables(1, seats)
    for state in found:
        kernel.load_state(t, 0, state)
        check(t, state, layout, encoder)


@pytest.mark.parametrize(("players", "seats", "slots"), [(2, 2, 2), (4, 4, 4), (3, 8, 8)])
def test_a_dealt_table_played_beside_the_engine(players: int, seats: int, slots: int) -> None:
    """A table dealt by the kernel (the draw pile at [12n + 1, 150)) and
    played with `kernel.step`, the engine's decks and reshuffles fed to it."""
    rng = random.Random(players)
    deck = list(DECK)
    rng.shuffle(deck)
    rules = Rules(target_score=150)
    state = new_game(players, seed=players, rules=rules, deck=deck)
    t = kernel.new_tables(1, seats, players, rules)
    kernel.deal(t, 0, kernel.as_deck(deck))
    layout = Layout(players, slots)
    encoder = Encoder(layout, rules)
    tops, reshuffles = set(), 0
    while True:
        assert kernel.view(t, 0) == kernel.engine_view(state)
        check(t, state, layout, encoder)
        tops.add(int(t.draw_top[0]))
        if state.phase == Phase.GAME_OVER:
            break
        stall = state.round == 0 and not state.reshuffles[-1]  # up to a reshuffle
        action = stalling(state, rng) if stall else rng.choice(legal_actions(state))
        state = step(state, action)
        status = kernel.step(t, 0, action)
        if status == kernel.NEED_RESHUFFLE:
            reshuffles += 1
            kernel.reshuffle(t, 0, kernel.as_deck(state.reshuffles[-1][-1]))
            status = kernel.step(t, 0, DRAW)
        elif status == kernel.NEED_DEAL:
            assert action == NEXT_ROUND
            kernel.deal(t, 0, kernel.as_deck(state.game.decks[-1]))
            status = kernel.OK
        assert status in (kernel.OK, kernel.ROUND_ENDED)
    assert min(tops) <= 1 < 12 * players + 1 < max(tops)  # drawn after a reshuffle; dealt
    assert reshuffles and state.game.round > 0
