"""The compiled playout (`skyjo.bots.fastplay`) plays exactly as the reference
one in plain Python (`Table.play_out_reference`), move for move."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skyjo.bots import make_bot
from skyjo.bots.determinize import Sampler
from skyjo.bots.rollout import Policy, Table
from skyjo.engine import Phase, new_game, observe, step
from skyjo.rules import ENDER_PENALTIES, Rules

FIELDS = ("vals", "hid", "clr", "draw", "disc", "player", "ender", "held", "source", "turns")


def mid_round_table(seed: int, players: int, moves: int, penalty: str, policy: Policy) -> Table:
    """A sampled world of a round that `greedy` bots have played `moves` actions into."""
    state = new_game(players, seed=seed, rules=Rules(ender_penalty=penalty))
    bots = [make_bot("greedy", seed=seed + p) for p in range(players)]
    for _ in range(moves):
        nxt = step(state, bots[state.player].choose(observe(state, state.player)))
        if nxt.phase not in (Phase.REVEAL, Phase.TURNS, Phase.FINAL_TURNS):
            break
        state = nxt
    while state.phase == Phase.REVEAL:
        state = step(state, bots[state.player].choose(observe(state, state.player)))
    sampler = Sampler(observe(state, state.player))
    cards = sampler.deal(np.random.Generator(np.random.PCG64(seed)))
    return sampler.table(cards, random.Random(seed), policy)


def assert_same_playout(table: Table, seed: int) -> None:
    reference, fast = table.copy(random.Random(seed)), table.copy(random.Random(seed))
    assert fast.play_out() == reference.play_out_reference()
    for name in FIELDS:
        assert getattr(fast, name) == getattr(reference, name), name


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 8),
    moves=st.integers(0, 120),
    penalty=st.sampled_from(ENDER_PENALTIES),
    short_pile=st.integers(0, 6),
)
def test_the_compiled_playout_plays_as_the_reference(
    seed: int, players: int, moves: int, penalty: str, short_pile: int
) -> None:
    """Same raw scores and the same table afterwards, reshuffles included (a short
    draw pile forces them; what is cut goes under the discard pile)."""
    table = mid_round_table(seed, players, moves, penalty, Policy())
    if short_pile:
        cut = len(table.draw) - short_pile
        table.disc[:0], table.draw = table.draw[:cut], table.draw[cut:]
    assert_same_playout(table, seed)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    knobs=st.tuples(*(st.floats(-4, 8, allow_nan=False) for _ in range(7))),
)
def test_the_compiled_playout_follows_any_policy(seed: int, knobs: tuple[float, ...]) -> None:
    """Any policy, not only the default one, plays the same in both."""
    table = mid_round_table(seed, 2 + seed % 4, seed % 90, "positive", Policy(*knobs))
    assert_same_playout(table, seed)


def test_a_held_card_is_placed_first() -> None:
    """A table whose player holds a drawn card (a search candidate's state)."""
    for seed in range(20):
        table = mid_round_table(seed, 3, 40, "positive", Policy())
        table.draw_card()
        assert table.held is not None
        assert_same_playout(table, seed)
