"""The observation array of a kernel table, compiled.

`encode_table` writes what one seat may see of a table (RULES.md 2): exactly
the array that `skyjo.env.encoding.Encoder` builds from the engine state the
table holds, field by field (`layout`; docs/env.md), and the legal actions
(`table.legal_mask`) when the seat is to act. `tests/parity/test_encoding.py`
checks both on every state of games with reshuffles, cards drawn by others,
cleared columns and round and game ends, for 2 to 8 players, padded layouts
and the variants. Like `Encoder.encode`, it reads the face-down cards only to
subtract them from the counts and never copies one into the array: the array
shows no more than `skyjo.observation.observe`.

It serves a caller that steps one table at a time from Python (a PettingZoo
environment), where each argument costs: it takes the four arrays of
`Tables` and ints (a `Tables` namedtuple costs a microsecond to dispatch),
writes every entry of `out` and `mask` (which may come from `np.empty`) and
allocates nothing (`skyjo.kernel.vector.play_outside` plays a step and
encodes the next observation in the same call). The offsets are `layout`'s:
each field sits at a + m * num_slots (`offsets`).
"""

from __future__ import annotations

from numba import njit

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)
from skyjo.engine import DRAW, NUM_ACTIONS, Phase
from skyjo.kernel.layout import LOWEST, NUM_VALUES, SLOT_SIZE, Layout
from skyjo.kernel.table import (
    CLEARED,
    DISCARD_LEN,
    DISCARD_PILE,
    DRAW_END,
    DRAW_PILE,
    DRAW_TOP,
    ENDER,
    HELD,
    HIDDEN,
    NO_CARD,
    PENALTY,
    PHASE,
    PLAYER,
    PLAYERS,
    RESHUFFLES,
    ROUND,
    SOURCE,
    STARTER,
    TARGET,
    TOTALS,
    Tables,
    legal_mask,
)
from skyjo.rules import ENDER_PENALTIES, GRID_SIZE


def _linear() -> tuple[dict[str, tuple[int, int]], tuple[int, int]]:
    """Each field's start, and the size, as (a, m): a + m * slots, read off
    two layouts (every field's size is a constant or a multiple of the slots)."""
    two, three = Layout(2, 2), Layout(2, 3)
    found = {}
    for name, at in two.offsets.items():
        m = three.offsets[name].start - at.start
        found[name] = (at.start - 2 * m, m)
    m = three.size - two.size
    return found, (two.size - 2 * m, m)


_AT, _SIZE = _linear()


def offsets(num_slots: int) -> dict[str, int]:
    """The start of every field in a layout of `num_slots` seat slots, as
    `encode_table` computes them (the same as `Layout(players, num_slots).offsets`)."""
    return {name: a + m * num_slots for name, (a, m) in _AT.items()}


def size(num_slots: int) -> int:
    """The array's size for `num_slots` seat slots (`Layout.size`)."""
    a, m = _SIZE
    return a + m * num_slots


# Per field (a, m): its start is a + m * num_slots (Numba freezes these ints).
_GRIDS_A, _GRIDS_M = _AT["grids"]
_PRESENT_A, _PRESENT_M = _AT["present"]
_TOTALS_A, _TOTALS_M = _AT["totals"]
_TO_ACT_A, _TO_ACT_M = _AT["to_act"]
_ENDER_A, _ENDER_M = _AT["ender"]
_STARTER_A, _STARTER_M = _AT["starter"]
_VISIBLE_A, _VISIBLE_M = _AT["visible_counts"]
_KNOWN_A, _KNOWN_M = _AT["draw_known_counts"]
_DISCARD_TOP_A, _DISCARD_TOP_M = _AT["discard_top"]
_DISCARD_SIZE_A, _DISCARD_SIZE_M = _AT["discard_size"]
_DRAW_SIZE_A, _DRAW_SIZE_M = _AT["draw_size"]
_RESHUFFLED_A, _RESHUFFLED_M = _AT["reshuffled"]
_HELD_VALUE_A, _HELD_VALUE_M = _AT["held_value"]
_HELD_KNOWN_A, _HELD_KNOWN_M = _AT["held_known"]
_FROM_DRAW_A, _FROM_DRAW_M = _AT["held_from_draw"]
_FROM_DISCARD_A, _FROM_DISCARD_M = _AT["held_from_discard"]
_PHASE_A, _PHASE_M = _AT["phase"]
_ROUND_A, _ROUND_M = _AT["round"]
_TARGET_A, _TARGET_M = _AT["target_score"]
_PENALTY_A, _PENALTY_M = _AT["ender_penalty"]
_PHASES = len(Phase)
_PENALTIES = len(ENDER_PENALTIES)


@njit(cache=True)
def encode_table(cells, seats, piles, slots, b, seat, live, num_slots, out, mask):  # type: ignore[no-untyped-def]
    """`out` (int16, the layout's size) gets what `seat` may see of table b,
    in a layout of `num_slots` seat slots: `Encoder.encode`'s array. `mask`
    (int8, NUM_ACTIONS) gets the legal actions (1: legal) when `live` and
    `seat` is to act, else zeros. Every entry of both is written."""
    s = num_slots
    n = slots[b, PLAYERS]
    player = slots[b, PLAYER]
    held = slots[b, HELD]
    source = slots[b, SOURCE]
    visible = _VISIBLE_A + _VISIBLE_M * s
    known = _KNOWN_A + _KNOWN_M * s
    for i in range(NUM_VALUES):  # counted up below: the cards face up, discarded, held
        out[visible + i] = 0
        out[known + i] = 0
    # grids, present, totals: the viewer's slot first
    grids = _GRIDS_A + _GRIDS_M * s
    present = _PRESENT_A + _PRESENT_M * s
    totals = _TOTALS_A + _TOTALS_M * s
    for j in range(s):
        at = grids + SLOT_SIZE * j
        if j >= n:  # padding
            for k in range(SLOT_SIZE):
                out[at + k] = 0
            out[present + j] = 0
            out[totals + j] = 0
            continue
        p = seat + j
        if p >= n:
            p -= n
        hidden = seats[b, HIDDEN, p]
        cleared = seats[b, CLEARED, p]
        for k in range(GRID_SIZE):
            down = (hidden >> k) & 1
            gone = (cleared >> k) & 1
            value = cells[b, p, k]
            if down or gone:  # a face-down card is never shown
                out[at + k] = 0
            else:
                out[at + k] = value
                out[visible + value - LOWEST] += 1
            out[at + GRID_SIZE + k] = down
            out[at + 2 * GRID_SIZE + k] = gone
        out[present + j] = 1
        out[totals + j] = seats[b, TOTALS, p]
    # to_act, ender, starter: relative one-hots, zeros for nobody
    to_act = _TO_ACT_A + _TO_ACT_M * s
    ender_at = _ENDER_A + _ENDER_M * s
    starter_at = _STARTER_A + _STARTER_M * s
    for j in range(s):
        out[to_act + j] = 0
        out[ender_at + j] = 0
        out[starter_at + j] = 0
    out[to_act + _relative(player, seat, n)] = 1
    ender = slots[b, ENDER]
    if ender >= 0:
        out[ender_at + _relative(ender, seat, n)] = 1
    starter = slots[b, STARTER]
    if starter >= 0:
        out[starter_at + _relative(starter, seat, n)] = 1
    # visible: besides the grids' face-up cards, the discard pile (cleared
    # columns included) and a held card the viewer has seen; known: after a
    # reshuffle, the draw pile and a card someone else drew from it. So
    # visible is the deck less the face-down cards, the draw pile and a card
    # drawn by someone else, counted over the fewer cards.
    top = slots[b, DRAW_TOP]
    end = slots[b, DRAW_END]
    size = slots[b, DISCARD_LEN]
    for i in range(size):
        out[visible + piles[b, DISCARD_PILE, i] - LOWEST] += 1
    reshuffled = slots[b, RESHUFFLES] > 0
    if reshuffled:
        for i in range(top, end):
            out[known + piles[b, DRAW_PILE, i] - LOWEST] += 1
    held_value = 0
    held_known = 0
    from_draw = 0
    from_discard = 0
    if held != NO_CARD:
        if source == DRAW:
            from_draw = 1
        else:
            from_discard = 1
        if source == DRAW and player != seat:  # not yet placed (RULES.md 2.5)
            if reshuffled:
                out[known + held - LOWEST] += 1
        else:
            held_value = held
            held_known = 1
            out[visible + held - LOWEST] += 1
    out[_DISCARD_TOP_A + _DISCARD_TOP_M * s] = piles[b, DISCARD_PILE, size - 1] if size else 0
    out[_DISCARD_SIZE_A + _DISCARD_SIZE_M * s] = size
    out[_DRAW_SIZE_A + _DRAW_SIZE_M * s] = end - top
    out[_RESHUFFLED_A + _RESHUFFLED_M * s] = reshuffled
    out[_HELD_VALUE_A + _HELD_VALUE_M * s] = held_value
    out[_HELD_KNOWN_A + _HELD_KNOWN_M * s] = held_known
    out[_FROM_DRAW_A + _FROM_DRAW_M * s] = from_draw
    out[_FROM_DISCARD_A + _FROM_DISCARD_M * s] = from_discard
    phase_at = _PHASE_A + _PHASE_M * s
    phase = slots[b, PHASE]
    for i in range(_PHASES):
        out[phase_at + i] = i == phase
    out[_ROUND_A + _ROUND_M * s] = slots[b, ROUND]
    out[_TARGET_A + _TARGET_M * s] = slots[b, TARGET]
    penalty_at = _PENALTY_A + _PENALTY_M * s
    penalty = slots[b, PENALTY]
    for i in range(_PENALTIES):
        out[penalty_at + i] = i == penalty
    if live and seat == player:
        legal_mask(Tables(cells, seats, piles, slots), b, mask)
    else:
        for a in range(NUM_ACTIONS):
            mask[a] = 0


@njit(cache=True, inline="always")
def _relative(p, seat, n):  # type: ignore[no-untyped-def]
    """Seat p's slot for the viewer `seat` at a table of n seats."""
    j = p - seat
    return j + n if j < 0 else j
