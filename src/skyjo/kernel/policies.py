"""The bots `random`, `greedy`, `basic` and `expected` as compiled policies
over kernel tables.

Each policy makes, for the player to act at table b of a `skyjo.kernel`
table, exactly the decision its Python bot (`skyjo.bots.random_bot`,
`greedy`, `basic`, `expected`) makes from that player's observation, with
the same draws of its random generator: it reads only what the player may
see (the face-up cards, the card in hand and where it came from, the
discard pile; `expected` also counts the unseen cards and, after a
reshuffle, the known draw pile, RULES.md 2.7), and every random choice is a
`random.Random.choice` over the same list in the same order (increasing
positions or action ids), drawn from the seat's Mersenne Twister
(`skyjo.kernel.twister`, `random.Random`'s generator compiled). No rule is
written here: the legal actions the policies choose among are those of the
engine (RULES.md 2.3 reveals, 2.5 a turn), read off the kernel's masks.

Random numbers (`below`): with an empty `mt` (shape (0, ...)), the *fast*
mode of the benchmark, every draw comes from one cheap xorshift64* state per
table (`fast[b]`) instead: the same policies, not the Python bots' games.

Positions are bit masks of a grid (bit k: position k = row * 4 + col,
RULES.md 5); `KTH[mask, i]` is the i-th set position of `mask`, increasing,
and `COUNT[mask]` its number of set bits, so that a choice among positions
is one table look-up.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skyjo.engine import DRAW, FLIP, NEXT_ROUND, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.kernel import playout_expected, twister
from skyjo.kernel import valuation as va
from skyjo.kernel.table import (
    CLEARED,
    DISCARD_LEN,
    DISCARD_PILE,
    ENDER,
    HELD,
    HIDDEN,
    NO_CARD,
    PENALTY,
    PHASE,
    PLAYERS,
    SOURCE,
    TURNS,
)
from skyjo.rules import COLS, GRID_SIZE

#: Policy codes: which compiled policy plays a seat (`POLICIES` by bot name).
RANDOM, GREEDY, BASIC, EXPECTED = 0, 1, 2, 3
POLICIES = {"random": RANDOM, "greedy": GREEDY, "basic": BASIC, "expected": EXPECTED}

_ALL = (1 << GRID_SIZE) - 1
_REVEAL_PHASE, _ROUND_OVER = int(Phase.REVEAL), int(Phase.ROUND_OVER)
#: `greedy`'s threshold (`GreedyBot.low`) and its guess of a face-down card.
GREEDY_LOW = 3
_FACE_DOWN_GUESS = 5
#: `basic`'s thresholds (`BasicBot.take_at_most`, `keep_below`).
BASIC_TAKE_AT_MOST = 5
BASIC_KEEP_BELOW = 5
#: `expected`'s options by default as `valuation.decide` takes them, and
#: hurried (after `patience` of its turns in a round): rows 0 and 1.
EXPECTED_PARAMS = np.stack([va.DEFAULT_OPTIONS.params(), va.DEFAULT_OPTIONS.params(hurried=True)])
EXPECTED_PATIENCE = va.DEFAULT_OPTIONS.patience


def _tables() -> tuple[np.ndarray, np.ndarray]:
    count = np.zeros(1 << GRID_SIZE, np.int64)
    kth = np.zeros((1 << GRID_SIZE, GRID_SIZE), np.int64)
    for mask in range(1 << GRID_SIZE):
        ks = [k for k in range(GRID_SIZE) if mask >> k & 1]
        count[mask] = len(ks)
        kth[mask, : len(ks)] = ks
    return count, kth


COUNT, KTH = _tables()
#: The positions of a grid's column c in a 12-bit mask, and the spread of a
#: 4-bit set of columns over the three rows.
_COLUMN = np.array([(1 | 1 << COLS | 1 << 2 * COLS) << c for c in range(COLS)], np.int64)


# --- random numbers -------------------------------------------------------------


@njit(cache=True, inline="always")
def below(mt, fast, b, p, n):  # type: ignore[no-untyped-def]
    """A random integer in [0, n) for seat p of table b: `random.Random`'s
    `_randbelow(n)` on the seat's Mersenne Twister `mt[b, p]`, or, when `mt`
    is empty (the fast mode), Lemire's multiply-shift on an xorshift64* step
    of `fast[b]`."""
    if mt.shape[0] == 0:
        x = fast[b]
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        fast[b] = x
        r = (x * np.uint64(2685821657736338717)) >> np.uint64(32)
        return np.int64((r * np.uint64(n)) >> np.uint64(32))
    return twister.below(mt[b, p], n)


@njit(cache=True, inline="always")
def pick(mt, fast, b, p, mask):  # type: ignore[no-untyped-def]
    """`random.Random.choice` of the positions of `mask`, in increasing order."""
    return KTH[mask, below(mt, fast, b, p, COUNT[mask])]


# --- reading one's own grid -----------------------------------------------------


@njit(cache=True, inline="always")
def face_up(t, b, p):  # type: ignore[no-untyped-def]
    """Seat p's face-up positions (cleared ones excluded)."""
    return _ALL & ~(t.seats[b, HIDDEN, p] | t.seats[b, CLEARED, p])


@njit(cache=True, inline="always")
def highest_of(t, b, p, up):  # type: ignore[no-untyped-def]
    """The highest card among the positions `up` and the mask of the positions
    holding it; (-100, 0) when `up` is empty."""
    highest = -100
    where = 0
    for k in range(GRID_SIZE):
        if (up >> k) & 1:
            v = t.cells[b, p, k]
            if v > highest:
                highest, where = v, 1 << k
            elif v == highest:
                where |= 1 << k
    return highest, where


@njit(cache=True, inline="always")
def discard_top(t, b):  # type: ignore[no-untyped-def]
    """The top card of the discard pile (never empty at the start of a turn)."""
    return t.piles[b, DISCARD_PILE, t.slots[b, DISCARD_LEN] - 1]


# --- random -----------------------------------------------------------------------


@njit(cache=True, inline="always")
def random_action(t, b, p, mt, fast):  # type: ignore[no-untyped-def]
    """`RandomBot`: uniform over the legal actions in increasing order
    (`engine.legal_actions`), even when there is one (NEXT_ROUND). One draw
    (`below`) a decision, over the count of the legal actions."""
    phase = t.slots[b, PHASE]
    hidden = t.seats[b, HIDDEN, p]
    swaps = flips = 0
    if phase == _ROUND_OVER:
        n = 1
    elif phase == _REVEAL_PHASE:
        n = COUNT[hidden]
    elif t.slots[b, HELD] == NO_CARD:
        n = 2
    else:
        swaps = _ALL & ~t.seats[b, CLEARED, p]
        flips = hidden if t.slots[b, SOURCE] == DRAW else 0
        n = COUNT[swaps] + COUNT[flips]
    i = below(mt, fast, b, p, n)
    if phase == _ROUND_OVER:
        return NEXT_ROUND
    if phase == _REVEAL_PHASE:
        return REVEAL + KTH[hidden, i]
    if t.slots[b, HELD] == NO_CARD:
        return DRAW + i
    if i < COUNT[swaps]:
        return SWAP + KTH[swaps, i]
    return FLIP + KTH[flips, i - COUNT[swaps]]


# --- greedy -----------------------------------------------------------------------


@njit(cache=True, inline="always")
def greedy_action(t, b, p, mt, fast):  # type: ignore[no-untyped-def]
    """`GreedyBot` (default `low`): see `skyjo.bots.greedy`'s docstring. Each
    helper is called at one place (they are inlined: fewer copies compile
    faster); a random choice is one `pick` among the positions `mask`."""
    phase = t.slots[b, PHASE]
    if phase == _ROUND_OVER:
        return NEXT_ROUND
    hidden = t.seats[b, HIDDEN, p]
    up = face_up(t, b, p)
    if phase == _REVEAL_PHASE:
        used = (up | up >> COLS | up >> 2 * COLS) & ((1 << COLS) - 1)
        fresh = hidden & ~(used | used << COLS | used << 2 * COLS)
        first, mask = REVEAL, fresh if fresh else hidden
    else:
        held = t.slots[b, HELD]
        card = discard_top(t, b) if held == NO_CARD else held
        target = _completing(t, b, p, up, card)
        if target < 0:
            target = _extending(t, b, p, up, card)
        if held == NO_CARD:
            return TAKE_DISCARD if card <= GREEDY_LOW or target >= 0 else DRAW
        if target >= 0:
            return SWAP + target
        highest, where = highest_of(t, b, p, up)  # (-100, 0) when none is face up
        first, mask = SWAP, hidden
        if highest > held:
            mask = where
        elif hidden and t.slots[b, SOURCE] == DRAW and held > GREEDY_LOW:
            first = FLIP
        elif not hidden:
            mask = where
    return first + pick(mt, fast, b, p, mask)


@njit(cache=True, inline="always")
def _completing(t, b, p, up, held):  # type: ignore[no-untyped-def]
    """`greedy._completing`: the position (or -1) of the first column, left to
    right, where `held` joins two face-up equal cards, when the column's
    clear removes more than the card there (a face-down one counts 5)."""
    cleared = t.seats[b, CLEARED, p]
    for c in range(COLS):
        if (cleared >> c) & 1:
            continue
        equal = 0
        other = -1
        for r in range(3):
            k = c + COLS * r
            if (up >> k) & 1 and t.cells[b, p, k] == held:
                equal += 1
            else:
                other = k
        if equal == 2:
            worth = t.cells[b, p, other] if (up >> other) & 1 else _FACE_DOWN_GUESS
            if 2 * held + worth > 0:
                return other
    return -1


@njit(cache=True, inline="always")
def _extending(t, b, p, up, held):  # type: ignore[no-untyped-def]
    """`greedy._extending`: the highest face-up card above `held` (the first
    met, columns left to right, top to bottom) in a column holding a face-up
    `held`; -1 when none."""
    best = -1
    best_value = -100
    for c in range(COLS):
        mine = False
        for r in range(3):
            k = c + COLS * r
            if (up >> k) & 1 and t.cells[b, p, k] == held:
                mine = True
        if not mine:
            continue
        for r in range(3):
            k = c + COLS * r
            v = t.cells[b, p, k]
            if (up >> k) & 1 and v > held and (best < 0 or v > best_value):
                best, best_value = k, v
    return best


# --- basic ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def basic_action(t, b, p, mt, fast):  # type: ignore[no-untyped-def]
    """`BasicBot`: see `skyjo.bots.basic`'s docstring (rules 1 to 3). One call
    of each helper, as `greedy_action`."""
    phase = t.slots[b, PHASE]
    if phase == _ROUND_OVER:
        return NEXT_ROUND
    hidden = t.seats[b, HIDDEN, p]
    first, mask = REVEAL, hidden
    if phase != _REVEAL_PHASE:
        up = face_up(t, b, p)
        highest, where = highest_of(t, b, p, up)  # (-100, 0) when none is face up
        held = t.slots[b, HELD]
        if held == NO_CARD:
            top = discard_top(t, b)
            if (up and top < highest) or top <= BASIC_TAKE_AT_MOST:
                return TAKE_DISCARD
            return DRAW
        first = SWAP
        if up and held < highest:
            mask = where
        elif t.slots[b, SOURCE] == DRAW and held >= BASIC_KEEP_BELOW and hidden:
            first = FLIP
        elif not hidden:
            mask = where
    return first + pick(mt, fast, b, p, mask)


# --- expected ---------------------------------------------------------------------


@njit(cache=True)
def expected_action(t, b, p, mt, fast):  # type: ignore[no-untyped-def]
    """`ExpectedBot` (default options) in a turn (its opening reveal is
    `greedy`'s: `act`): `valuation.decide` on the table as the bot sees it:
    the grids (face-down and cleared cells 0), the pools it counts
    (`playout_expected.pools`, the bot's `pools`), the discard's top, the card
    in hand; hurried once its turns in the round exceed its patience."""
    n = t.slots[b, PLAYERS]
    ints = np.zeros(playout_expected.INTS, np.int64)
    playout_expected.pools(t, b, ints)
    down = np.zeros(va.VALUES, np.int64)
    drawn = np.zeros(va.VALUES, np.int64)
    for i in range(va.VALUES):
        down[i] = ints[playout_expected.DOWN_POOL + i]
        drawn[i] = ints[playout_expected.DRAW_POOL + i]
    cells = np.zeros((n, GRID_SIZE), np.int64)
    hidden = np.zeros(n, np.int64)
    cleared = np.zeros(n, np.int64)
    for q in range(n):
        h, c = t.seats[b, HIDDEN, q], t.seats[b, CLEARED, q]
        hidden[q], cleared[q] = h, c
        for k in range(GRID_SIZE):
            if not ((h | c) >> k) & 1:
                cells[q, k] = t.cells[b, q, k]
    held = np.int64(t.slots[b, HELD])
    top = np.int64(NO_CARD)
    if held == NO_CARD:
        top = np.int64(discard_top(t, b))
    # its own turns in the round, this one included: turn i is seat (starter + i) mod n
    mine = t.slots[b, TURNS] // n + 1
    params = np.zeros(va.NPARAMS)
    row = 1 if mine > EXPECTED_PATIENCE else 0
    for i in range(va.NPARAMS):
        params[i] = EXPECTED_PARAMS[row, i]
    out = np.zeros(3)
    return va.decide(
        cells,
        hidden,
        cleared,
        np.int64(p),
        np.int64(t.slots[b, ENDER]),
        np.int64(t.slots[b, PENALTY]),
        down,
        drawn,
        top,
        held,
        t.slots[b, SOURCE] == DRAW,
        params,
        out,
    )


# --- by code ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def act(code, t, b, p, mt, fast):  # type: ignore[no-untyped-def]
    """The action of policy `code` for seat p, the player to act at table b.
    `expected` reveals as `greedy` does (a random face-down card in a column
    with no face-up card), and goes on to the next round as every policy."""
    if code == EXPECTED:
        phase = t.slots[b, PHASE]
        if phase != _ROUND_OVER and phase != _REVEAL_PHASE:
            return expected_action(t, b, p, mt, fast)
        code = GREEDY
    if code == GREEDY:
        return greedy_action(t, b, p, mt, fast)
    if code == BASIC:
        return basic_action(t, b, p, mt, fast)
    return random_action(t, b, p, mt, fast)
