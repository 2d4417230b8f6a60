"""The array kernel (`skyjo.kernel`) plays every game exactly as the engine.

The differential test drives the engine with random legal actions (seeded),
mirrors each action at one table of a batch of kernel tables, feeding the
kernel the engine's decks and reshuffle orders, and checks after every step
that both hold the same table (`kernel.view` against `kernel.engine_view`),
the same legal actions, and at each round's end the same raw and final
scores. The random players draw often and exchange face-up cards often, so
rounds last long enough to empty the draw pile, and they complete columns
when they can, so columns clear during rounds and at the final reveal; the
tests count both and check that they happened. The driver, `play_mirrored`,
is in tests/parity/kernel_mirror.py, the one copy that `bench/kernel.py` (`make
kernel-check`) also runs, on 2,000 games.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernel_mirror import play_mirrored  # tests/parity/kernel_mirror.py

from skyjo import kernel
from skyjo.engine import (
    NEXT_ROUND,
    NUM_ACTIONS,
    Phase,
    new_game,
)
from skyjo.rules import (
    DECK,
    DECK_SIZE,
    ENDER_PENALTIES,
    MAX_PLAYERS,
)
from skyjo.scoring import round_scores

# --- the differential tests ---------------------------------------------------------


@pytest.mark.parametrize("penalty", ENDER_PENALTIES)
@pytest.mark.parametrize("players", range(2, MAX_PLAYERS + 1))
def test_every_player_count_and_variant_plays_as_the_engine(players: int, penalty: str) -> None:
    """A long game at every player count under every variant: the same tables
    at every step, reshuffles and column clears included."""
    counts = play_mirrored(
        players, seed=players * 7 + len(penalty), penalty=penalty, target=100, stall=0.95
    )
    assert counts["reshuffles"] > 0, counts
    assert counts["clears"] > 0, counts
    assert not counts["stalled"], counts


def test_random_games_play_as_the_engine() -> None:
    """Random games (any player count, variant, target and style of play): the
    same tables at every step and the same scores at every round's end; across
    the examples, reshuffles, column clears during rounds and at the final
    reveal, and doubled enders all happen."""
    seen: Counter[str] = Counter()

    @settings(max_examples=150, deadline=None)
    @given(
        players=st.integers(2, MAX_PLAYERS),
        seed=st.integers(0, 2**32),
        penalty=st.sampled_from(ENDER_PENALTIES),
        target=st.integers(1, 150),
        draw=st.floats(0.5, 1.0),
        stall=st.floats(0.0, 0.97),
        seek=st.floats(0.0, 1.0),
    )
    def check(**game: Any) -> None:
        seen.update(play_mirrored(**game))

    check()
    for what in ("reshuffles", "clears", "final_clears", "doubled"):
        assert seen[what] > 0, (what, seen)


# --- the parts ------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    raw=st.lists(st.integers(-17, 140), min_size=2, max_size=MAX_PLAYERS),
    ender=st.integers(0, MAX_PLAYERS - 1),
    penalty=st.sampled_from(ENDER_PENALTIES),
)
def test_round_scores_are_the_scoring_modules(raw: list[int], ender: int, penalty: str) -> None:
    """The ender's penalty in all three variants, as `scoring.round_scores` (RULES.md 2.10)."""
    ender %= len(raw)
    scores = np.zeros(MAX_PLAYERS, np.int16)
    code = kernel.penalty_code(penalty)
    doubled = kernel.round_scores(np.array(raw, np.int16), len(raw), ender, code, scores)
    assert (scores[: len(raw)].tolist(), doubled) == round_scores(raw, ender, penalty)


def _table_with_grids(grids: list[list[int]], ender: int) -> kernel.Tables:
    """A kernel table in the turns of a round whose seats hold `grids` (12
    cards each, every card face up but the first two of seat 1)."""
    t = kernel.new_tables(1, len(grids), players=len(grids))
    rest = Counter(DECK)
    rest.subtract(v for grid in grids for v in grid)
    deck = [v for grid in grids for v in grid] + sorted(rest.elements())
    kernel.deal(t, 0, kernel.as_deck(deck))
    t.hidden[0, :] = 0
    t.hidden[0, 1] = 0b11
    t.phase[0] = Phase.FINAL_TURNS
    t.ender[0] = ender
    return t


def test_the_worked_examples_score_as_in_the_rules() -> None:
    """RULES.md 4: 7 5 2 4 / 7 -1 3 1 / 7 0 -2 2 is worth 14 (three 7s clear at
    the final reveal, on top of the discard pile); Cleo ends with 14 while Ana
    has 9 and writes 28; three -2 clear and take their -6 with them."""
    cleo = [7, 5, 2, 4, 7, -1, 3, 1, 7, 0, -2, 2]
    ana = [3, 0, 1, -2, 3, 0, 1, -2, 0, 1, 0, -2]  # 6 + 1 + 2, and three -2 clear
    t = _table_with_grids([cleo, ana], ender=0)
    assert kernel.final_raw(t, 0, 0) == 14
    assert kernel.final_raw(t, 0, 1) == 9
    size = int(t.discard_len[0])
    kernel.end_round(t, 0)
    assert t.raw[0, :2].tolist() == [14, 9]
    assert t.scores[0, :2].tolist() == [28, 9] and t.doubled[0]
    assert t.cleared[0, :2].tolist() == [0b000100010001, 0b100010001000]
    assert t.discard[0, size : t.discard_len[0]].tolist() == [7, 7, 7, -2, -2, -2]
    assert (
        t.phase[0] == Phase.ROUND_OVER and t.player[0] == 0 and t.hidden[0, :2].tolist() == [0, 0]
    )


def test_reshuffle_takes_exactly_the_discard_pile_less_its_top() -> None:
    """A reshuffle needs an empty draw pile and the discard pile's cards (less
    its top) in some order; else ValueError and nothing changed. A permutation
    gives the same pile as its order (RULES.md 2.7)."""
    state = new_game(3, seed=11)
    t = kernel.new_tables(2, 3, players=3)
    for b in range(2):
        kernel.load_state(t, b, state)
    with pytest.raises(ValueError, match="not empty"):
        kernel.reshuffle(t, 0, kernel.as_deck([]))
    below = [5, -2, 7, 7, 0, 12]
    for b in range(2):
        t.draw_top[b] = t.draw_end[b]
        t.discard[b, :7] = [*below, 3]
        t.discard_len[b] = 7
    before = kernel.view(t, 0)
    for wrong in ([5, -2, 7, 0, 0, 12], [5, -2, 7, 7, 0], [5, -2, 7, 7, 0, 12, 3]):
        with pytest.raises(ValueError, match="less its top card"):
            kernel.reshuffle(t, 0, kernel.as_deck(wrong))
        assert kernel.view(t, 0) == before
    perm = np.array([3, 0, 5, 1, 4, 2])
    kernel.reshuffle(t, 0, kernel.as_deck([below[i] for i in perm]))
    kernel.reshuffle_perm(t, 1, perm)
    assert kernel.view(t, 0) == kernel.view(t, 1)
    assert kernel.view(t, 0).draw_pile == (7, 5, 12, -2, 0, 7)
    assert kernel.view(t, 0).discard_pile == (3,)
    assert kernel.draw(t, 0) == 7 and t.reshuffles[0] == 1


def test_the_batch_forms_are_the_single_table_ones() -> None:
    """`deal_batch`, `legal_mask_batch`, `step_batch` and `copy_table` on a batch
    of games of 2 to 8 players give what the single-table functions give."""
    count = MAX_PLAYERS - 1
    states = [new_game(n, seed=n) for n in range(2, MAX_PLAYERS + 1)]
    batch = kernel.new_tables(count, MAX_PLAYERS)
    single = kernel.new_tables(count, MAX_PLAYERS)
    for b, state in enumerate(states):
        kernel.start_game(batch, b, state.num_players, kernel.POSITIVE, 100)
    kernel.deal_batch(batch, np.array([s.decks[-1] for s in states], np.int8))
    for b, state in enumerate(states):
        kernel.copy_table(batch, b, single, b)
        assert kernel.view(single, b) == kernel.engine_view(state)
    rng = random.Random(5)
    masks = np.zeros((count, NUM_ACTIONS), np.bool_)
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    status = np.zeros(count, np.int64)
    for _ in range(600):
        kernel.legal_mask_batch(batch, masks)
        actions = []
        for b in range(count):
            kernel.legal_mask(single, b, mask)
            assert (masks[b] == mask).all()
            legal = np.flatnonzero(mask).tolist()
            actions.append(rng.choice(legal) if legal else NEXT_ROUND)  # over: ILLEGAL
        kernel.step_batch(batch, np.array(actions), status)
        for b, action in enumerate(actions):
            assert status[b] == kernel.step(single, b, action)
            if status[b] == kernel.NEED_RESHUFFLE:
                below = int(batch.discard_len[b]) - 1
                perm = np.array(rng.sample(range(below), k=below))
                kernel.reshuffle_perm(batch, b, perm)
                kernel.reshuffle_perm(single, b, perm)
            elif status[b] == kernel.NEED_DEAL:
                deck = kernel.as_deck(rng.sample(DECK, k=DECK_SIZE))
                kernel.deal(batch, b, deck)
                kernel.deal(single, b, deck)
            assert kernel.view(batch, b) == kernel.view(single, b)
