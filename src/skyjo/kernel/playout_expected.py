"""The `expected` playout policy: the new `expected` bot's one-turn choice, on a
kernel table, for the search's playouts.

`choose(t, b, prm, floats, ints)` (compiled, the signature of
`playout_greedy.choose`) is the action of the player to act at
table b, chosen by `valuation.decide` as the `expected` bot
chooses from an observation. It never peeks: the pools are counted from what
that player can see on the table:

- the unseen cards are the 150 less every face-up card of every grid
  (cleared columns excluded: their cards lie on the discard pile), the
  discard pile and the card in hand;
- after a reshuffle in the round (the table's RESHUFFLES slot) the draw
  pile's values are known (they were all face up on the discard pile): the
  draw pool is the draw pile's multiset, the face-down pool the rest; before
  one, both are every unseen card (the draw pile itself is never read);
- when the draw pile is empty, the next card drawn comes from the discard
  pile but its top (a draw reshuffles it first).

Its options are the bot's, at a cheaper price: no exact expectation of
drawing (`params(exact_draw=0)`: drawing is priced as the grid less one
card's expected saving), and the one-draw look-ahead computed exactly only
for the card to place (`decide_cheap`: `valuation.decide_for`, in which a
discard-and-flip keeps the grid's look-ahead as it is now). The full
look-ahead costs about 180 µs a turn at 4 players, this one about 35, none
at all about 25; as a bot against `expected_v1` (2 players, 400 games) this
policy won 68.1%, the full `expected` about 71%, `expected:lookahead=0` 61%. After `patience` turns
per player in a playout (the TURNS slot) the players play "hurried" (no card
placed where it leaves the grid no better), so that every playout ends.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skyjo.engine import DRAW
from skyjo.kernel import valuation as va
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
    PLAYER,
    PLAYERS,
    RESHUFFLES,
    SOURCE,
    TURNS,
)
from skyjo.rules import CARD_COUNTS, GRID_SIZE, MAX_PLAYERS

#: The 150 cards' counts per value, at index v - valuation.LOWEST.
_DECK = np.array([CARD_COUNTS[v + va.LOWEST] for v in range(va.VALUES)], dtype=np.int64)
#: Turns per player in a playout after which the players play hurried.
PATIENCE = 30

#: The layout of `prm`: the valuation's options, the same hurried, the patience,
#: whether the look-ahead is exact for every card (`full`).
_HURRIED = va.NPARAMS
_PATIENCE = 2 * va.NPARAMS
_FULL = _PATIENCE + 1
NPRM = _FULL + 1
#: Work arrays: floats: decide's `out`; ints: the two pools, then the table's
#: grids (8 x 12 at most), face-down and cleared masks, as int64.
FLOATS = 3
_DOWN, _DRAWN = 0, va.VALUES
#: Where `pools` counts the face-down pool and the draw pool in `ints` (for
#: other compiled readers of the same pools: `forecast`, `policies`).
DOWN_POOL, DRAW_POOL = _DOWN, _DRAWN
_CELLS = 2 * va.VALUES
_MASKS = _CELLS + MAX_PLAYERS * GRID_SIZE
INTS = _MASKS + 2 * MAX_PLAYERS


def params(
    lookahead: float = 1.0,
    denial: float = 1.0,
    end_others: float = 1.0,
    spread: float = 3.0,
    pairs: float = 1.5,
    singles: float = 0.5,
    see_rate: float = 1.5,
    turns_rate: float = 0.8,
    exact_draw: int = 0,
    patience: int = PATIENCE,
    full: int = 0,
) -> np.ndarray:
    """The policy's options as the float array `choose` takes (the `expected`
    bot's defaults, but the exact draw expectation, off). With `full` 1 the
    look-ahead is exact for every card, as the bot's own (`decide_cheap`);
    with `exact_draw` 1 too, the policy chooses as `valuation.decide` does at
    these options (the bot's own `end_others` is 0.5 and its patience 40)."""
    prm = np.zeros(NPRM)
    prm[va.LOOKAHEAD] = lookahead
    prm[va.CLEARS] = 1.0
    prm[va.DENIAL] = denial
    prm[va.ENDING] = 1.0
    prm[va.END_OTHERS] = end_others
    prm[va.SPREAD] = spread
    prm[va.EXACT_DRAW] = exact_draw
    prm[va.PAIRS] = pairs
    prm[va.SINGLES] = singles
    prm[va.SEE_RATE] = see_rate
    prm[va.TURNS_RATE] = turns_rate
    prm[_HURRIED:_PATIENCE] = prm[: va.NPARAMS]
    prm[_HURRIED + va.HURRY] = 1.0
    prm[_PATIENCE] = patience
    prm[_FULL] = full
    return prm


def scratch() -> tuple[np.ndarray, np.ndarray]:
    """The work arrays `choose` takes (floats, ints): any content, reused freely."""
    return np.zeros(FLOATS), np.zeros(INTS, dtype=np.int64)


@njit(cache=True)
def pools(t, b, ints):  # type: ignore[no-untyped-def]
    """Count into ints[_DOWN:] and ints[_DRAWN:] the pools of the player to act
    at table b (see the module's description), from what it can see."""
    n = t.slots[b, PLAYERS]
    down = ints[_DOWN : _DOWN + va.VALUES]
    drawn = ints[_DRAWN : _DRAWN + va.VALUES]
    for i in range(va.VALUES):
        down[i] = _DECK[i]
        drawn[i] = 0
    for p in range(n):
        gone = t.seats[b, HIDDEN, p] | t.seats[b, CLEARED, p]
        for k in range(GRID_SIZE):
            if not (gone >> k) & 1:
                down[t.cells[b, p, k] - va.LOWEST] -= 1
    size = t.slots[b, DISCARD_LEN]
    for i in range(size):
        down[t.piles[b, DISCARD_PILE, i] - va.LOWEST] -= 1
    held = t.slots[b, HELD]
    if held != NO_CARD:
        down[held - va.LOWEST] -= 1
    top, end = t.slots[b, DRAW_TOP], t.slots[b, DRAW_END]
    if top == end:  # an empty draw pile: a draw reshuffles the discard pile but its top
        for i in range(size - 1):
            drawn[t.piles[b, DISCARD_PILE, i] - va.LOWEST] += 1
    elif t.slots[b, RESHUFFLES] > 0:  # a known draw pile
        for i in range(top, end):
            v = t.piles[b, DRAW_PILE, i] - va.LOWEST
            drawn[v] += 1
            down[v] -= 1
    else:
        for i in range(va.VALUES):
            drawn[i] = down[i]
    empty_down = True
    empty_drawn = True
    for i in range(va.VALUES):
        if down[i] > 0:
            empty_down = False
        if drawn[i] > 0:
            empty_drawn = False
    if empty_drawn:
        for i in range(va.VALUES):
            drawn[i] = down[i]
    elif empty_down:
        for i in range(va.VALUES):
            down[i] = drawn[i]


@njit(cache=True)
def choose(t, b, prm, floats, ints):  # type: ignore[no-untyped-def]
    """The action of the player to act at table b (in the turns of a round):
    DRAW or TAKE_DISCARD when it holds no card, else SWAP + k or FLIP + k,
    as `valuation.decide` chooses on the pools it can count."""
    n = np.int64(t.slots[b, PLAYERS])
    me = np.int64(t.slots[b, PLAYER])  # int64s, as from Python: one compiled decide_cheap
    pools(t, b, ints)
    cells = ints[_CELLS : _CELLS + n * GRID_SIZE].reshape((n, np.int64(GRID_SIZE)))
    hidden = ints[_MASKS : _MASKS + n]
    cleared = ints[_MASKS + MAX_PLAYERS : _MASKS + MAX_PLAYERS + n]
    for p in range(n):
        h = t.seats[b, HIDDEN, p]
        hidden[p] = h
        cleared[p] = t.seats[b, CLEARED, p]
        for k in range(GRID_SIZE):
            cells[p, k] = 0 if (h >> k) & 1 else t.cells[b, p, k]
    held = np.int64(t.slots[b, HELD])
    top = NO_CARD
    if held == NO_CARD:
        top = t.piles[b, DISCARD_PILE, t.slots[b, DISCARD_LEN] - 1]
    if t.slots[b, TURNS] > prm[_PATIENCE] * n:
        options = prm[_HURRIED:_PATIENCE]
    else:
        options = prm[: va.NPARAMS]
    return decide_cheap(
        cells,
        hidden,
        cleared,
        me,
        np.int64(t.slots[b, ENDER]),
        np.int64(t.slots[b, PENALTY]),
        ints[_DOWN : _DOWN + va.VALUES],
        ints[_DRAWN : _DRAWN + va.VALUES],
        top,
        held,
        t.slots[b, SOURCE] == DRAW,
        options,
        floats,
        prm[_FULL] > 0,
    )


@njit(cache=True)
def decide_cheap(  # type: ignore[no-untyped-def]
    cells, hidden, cleared, me, ender, penalty, down_counts, draw_counts, top, held, drawn,
    params, out, full=False,
):  # fmt: skip
    """`valuation.decide`, but cheaper with a look-ahead: the look-ahead is
    computed exactly only for the card to place (the card in hand, or the
    discard's top at the start of a turn; `valuation.decide_for`); a
    discard-and-flip's outcomes keep the grid's look-ahead as it is now (the
    flipped column's change to it is left out). With the look-ahead's weight
    0, or with `full` (exact for every card), it chooses as `valuation.decide`."""
    want = va.NO_VALUE  # the value whose placements get the exact look-ahead
    if full:
        want = va.ALL_VALUES
    elif held != NO_CARD:
        want = held - va.LOWEST
    elif top != NO_CARD:
        want = top - va.LOWEST
    return va.decide_for(
        cells, hidden, cleared, me, ender, penalty, down_counts, draw_counts, top, held, drawn,
        params, out, want,
    )  # fmt: skip
