"""The reference side's one writer of the array (`skyjo.bots.encoding.Writer`)
puts every field where the layout says: its two sources, `encode_observation`
(an `Observation`) and `Encoder` (the engine's state), equal a slow writer
kept here as the oracle, which sets each field at `layout.start(name)` one by
one, on every seat of played states (reshuffled piles, cards drawn from the
deck that another seat holds, cleared columns, 2 and 8 players, padded
slots); and each argument of `write` lands in its own field."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from played_states import states  # tests/played_states.py

from skyjo.bots.encoding import LANE, Writer, encode_observation, grid_block
from skyjo.env.encoding import Encoder
from skyjo.kernel.layout import DTYPE, LOWEST, NUM_VALUES, Layout, variant_values
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation, observe
from skyjo.rules import GRID_SIZE, VARIANTS, Rules


def oracle(obs: Observation, layout: Layout) -> np.ndarray:
    """The array of `obs`, written field by field at the layout's offsets."""
    assert obs.viewer is not None
    out = np.zeros(layout.size, DTYPE)
    at = layout.start
    n = obs.num_players
    visible: Counter[int] = Counter(obs.discard_pile)
    for slot in range(n):
        seat = (obs.viewer + slot) % n
        values, down, gone = (layout.grid(slot, plane).start for plane in range(3))
        for k in range(GRID_SIZE):
            status, value = obs.status[seat][k], obs.cards[seat][k]
            if status == FACE_UP:
                assert value is not None
                out[values + k] = value
                visible[value] += 1
            out[down + k] = status == FACE_DOWN
            out[gone + k] = status == CLEARED
        out[at("present") + slot] = 1
        out[at("totals") + slot] = obs.totals[seat]
    out[at("to_act") + (obs.current_player - obs.viewer) % n] = 1
    for name, seat in (("ender", obs.ender), ("starter", obs.starter)):
        if seat is not None:
            out[at(name) + (seat - obs.viewer) % n] = 1
    if obs.held is not None:
        visible[obs.held] += 1
        out[at("held_value")] = obs.held
        out[at("held_known")] = 1
    out[at("held_from_draw")] = obs.source == "deck"
    out[at("held_from_discard")] = obs.source == "discard"
    for value, count in visible.items():
        out[at("visible_counts") + value - LOWEST] = count
    if obs.draw_pile_known is not None:
        out[at("reshuffled")] = 1
        for value, count in Counter(obs.draw_pile_known).items():
            out[at("draw_known_counts") + value - LOWEST] = count
    if obs.discard_pile:
        out[at("discard_top")] = obs.discard_pile[-1]
    out[at("discard_size")] = len(obs.discard_pile)
    out[at("draw_size")] = obs.draw_pile_size
    out[at("phase") + int(obs.phase)] = 1
    out[at("round")] = obs.round
    for variant in VARIANTS:
        value = getattr(obs.rules, variant.name)
        if variant.choices:
            out[at(variant.name) + variant.code(value)] = 1
        else:
            out[at(variant.name)] = value
    return out


@pytest.mark.parametrize(
    ("players", "slots", "rules", "seed"),
    [
        (2, 0, Rules(target_score=150), 2),
        (8, 0, Rules(target_score=150), 0),
        (3, 8, Rules(target_score=150), 2),  # padded
        (4, 5, Rules(target_score=150, ender_penalty="always"), 6),
    ],
)
def test_both_sources_write_what_the_field_by_field_oracle_writes(
    players: int, slots: int, rules: Rules, seed: int
) -> None:
    layout = Layout(players, slots)
    encoder = Encoder(layout, rules)
    seen: Counter[str] = Counter()
    for state in states(players, 2, seed, rules)[::2]:
        for seat in range(players):
            view = observe(state, seat)
            expected = oracle(view, layout)
            np.testing.assert_array_equal(encode_observation(view, layout), expected)
            np.testing.assert_array_equal(encoder.encode(state, seat), expected)
            seen["reshuffled"] += view.draw_pile_known is not None
            seen["drawn by another"] += view.source == "deck" and view.held is None
            seen["drawn by the viewer"] += view.source == "deck" and view.held is not None
            seen["cleared"] += any(CLEARED in grid for grid in view.status)
            seen["ended"] += view.ender is not None
    assert all(seen[case] for case in seen) and len(seen) == 5, seen


def test_each_argument_of_write_lands_in_its_own_field() -> None:
    """Distinct values for every argument, from a viewer other than seat 0:
    each shows at its field's offset (relative seats first the viewer's)."""
    layout = Layout(3, 5)
    rules = Rules(target_score=77, ender_penalty="none")
    grids = [grid_block(range(seat, seat + GRID_SIZE), 1 << seat, 0x800) for seat in range(3)]
    visible = sum(LANE[value] * (value - LOWEST + 1) for value in LANE)
    known = sum(LANE[value] * (value - LOWEST + 20) for value in LANE)
    out = Writer(layout, rules).write(
        1, grids, (-5, 6, 7), 2, 0, 1, visible, known, (3, 4, 9), 41, -2, True, False, 3, 11
    )
    at = layout.start
    for slot, seat in enumerate((1, 2, 0)):
        assert list(out[layout.grid(slot, 0)]) == [
            0 if k == seat or k == 11 else seat + k for k in range(GRID_SIZE)
        ]
        assert list(out[layout.grid(slot, 1)]) == [int(k == seat) for k in range(GRID_SIZE)]
        assert list(out[layout.grid(slot, 2)]) == [int(k == 11) for k in range(GRID_SIZE)]
    assert not out[layout.grid(3).start : at("present")].any()
    assert list(out[layout.offsets["present"]]) == [1, 1, 1, 0, 0]
    assert list(out[layout.offsets["totals"]]) == [6, 7, -5, 0, 0]
    assert list(out[layout.offsets["to_act"]]) == [0, 1, 0, 0, 0]
    assert list(out[layout.offsets["ender"]]) == [0, 0, 1, 0, 0]
    assert list(out[layout.offsets["starter"]]) == [1, 0, 0, 0, 0]
    assert list(out[layout.offsets["visible_counts"]]) == list(range(1, NUM_VALUES + 1))
    assert list(out[layout.offsets["draw_known_counts"]]) == list(range(20, NUM_VALUES + 20))
    scalars = ("discard_top", "discard_size", "draw_size", "reshuffled", "held_value")
    assert [out[at(name)] for name in scalars] == [9, 3, 41, 1, -2]
    flags = ("held_known", "held_from_draw", "held_from_discard", "round")
    assert [out[at(name)] for name in flags] == [1, 1, 0, 11]
    assert list(out[layout.offsets["phase"]]) == [0, 0, 0, 1, 0]
    assert list(out[at(VARIANTS[0].name) :]) == list(variant_values(rules))
    assert out[at("target_score")] == 77


def test_absent_seats_and_counts_write_zeros() -> None:
    """No ender, no starter, no reshuffle, no held card, an empty discard pile."""
    layout = Layout(2)
    grids = [grid_block([5] * GRID_SIZE, 0xFFF, 0)] * 2
    out = Writer(layout, Rules()).write(
        0, grids, (0, 0), 1, None, None, 0, None, (), 120, None, False, False, 0, 0
    )
    for name in ("ender", "starter", "draw_known_counts", "visible_counts"):
        assert not out[layout.offsets[name]].any(), name
    for name in ("reshuffled", "held_known", "held_value", "discard_top", "discard_size"):
        assert out[layout.start(name)] == 0, name
    assert out[layout.start("draw_size")] == 120
    assert not out[layout.grid(0, 0)].any() and out[layout.grid(0, 1)].all()


def test_a_layout_of_another_table_size_is_refused() -> None:
    view = observe(states(3, 1, seed=0)[50], 0)
    with pytest.raises(ValueError, match="a layout of 4 players cannot encode a table of 3"):
        encode_observation(view, Layout(4))
