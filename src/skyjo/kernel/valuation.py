"""The expected score of a Skyjo grid and the one-turn choice built on it, as
compiled array code (Numba), for the `expected` bot and for playouts.

Everything here works on small integer arrays, the layout of
`skyjo.kernel`'s tables, so that a playout over kernel tables can call it as
the `expected` bot does from an observation:

- a grid is `cells` (12 card values, row by row: index = row * 4 + col,
  RULES.md 5), `hidden` (a bitmask of its face-down positions: bit k is the
  card at k) and `cleared` (a bitmask of its cleared positions). A face-down
  cell's value is never read: it may hold anything (a kernel table holds the
  true card there, an observation nothing);
- a pool is the count of each card value among the cards a player cannot
  see (`counts[v - LOWEST]`, 15 values), turned by `pool_vector` into the
  chances it needs (`P1`: one unseen card has value v; `P2`: two have; `P3`:
  three have; drawn without replacement) and its mean and variance.

`column_value` is a column's expected score at the end of the round: a pair
with a face-down third card clears with the chance that card has its value,
one face-up card with two face-down ones with the chance that both have it
(about that chance squared), three face-down cards with the chance of three
equal. `grid_value` sums the columns and subtracts a one-draw look-ahead:
what the next drawn card is expected to save (for each value, with its
chance, the best improvement of any placement, or nothing). `choose` picks
one turn's action from a whole table (every seat's grid), see its docstring;
`decide` is the same, with the values weighed, and `decide_for` the same
again with the look-ahead exact for one card value's placements only (the
playouts' cheaper choice, `playout_expected`). `Options` are the `expected`
bot's options with their defaults, as the bot and its compiled twin
(`policies`) both read them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.kernel.table import ALWAYS, NO_CARD, POSITIVE
from skyjo.rules import CARD_VALUES, COLS, ROWS

#: The lowest card value: a value v is counted at index v - LOWEST.
LOWEST = min(CARD_VALUES)
#: How many card values there are (-2 to 12).
VALUES = max(CARD_VALUES) - LOWEST + 1
# `NO_CARD` (the kernel's) is `top` when the discard may not be taken and
# `held` when no card is held.

# --- the pool vector: offsets of its parts --------------------------------------
P1 = 0  #: [P1 + i]: the chance that one unseen card has value i + LOWEST
P2 = VALUES  #: [P2 + i]: the chance that two unseen cards both have it
P3 = 2 * VALUES  #: [P3 + i]: the chance that three have it
MU = 3 * VALUES  #: the mean of an unseen card
VAR = MU + 1  #: its variance
TRIPLE = MU + 2  #: the expected score three face-down cards lose by clearing
POOL_SIZE = MU + 3

# --- the options of `choose`: indices of its `params` vector ------------------------
LOOKAHEAD = 0  #: weight of the one-draw look-ahead (0: none)
DOWN_BIAS = 1  #: points added to the mean for the player's own face-down cards
CLEARS = 2  #: 1: count the chance that face-down cards complete a column; 0: not
DENIAL = 3  #: weight of what the card left on the discard pile gives the next player
ENDING = 4  #: 1: price ending the round (ender's penalty, the others' last turn); 0: raw
END_OTHERS = 5  #: weight of the others' gain cut short by ending the round now
SPREAD = 6  #: spread (points) of what another player's last turn changes
EXACT_DRAW = 7  #: 1: drawing is the exact expectation over the draw pool; 0: a shortcut
TEMPO = 8  #: weight of ending sooner when the others gain more per turn than oneself
HURRY = 9  #: 1: no card placed where it leaves the grid no better (a long round)
PAIRS = 10  #: weight of a pair's chance to meet its third card before the round ends
SINGLES = 11  #: weight of one card's chance to meet two more of its value
SEE_RATE = 12  #: cards of a value one expects to be offered per turn, per copy unseen
TURNS_RATE = 13  #: turns left in the round per face-down card of the player nearest to ending
FLIP_BONUS = 14  #: points a discard-and-flip is credited beyond its expected score (0: none)
DOWN_COST = 15  #: points each of the player's own face-down cards costs (0: none)
NPARAMS = 16


@dataclass(frozen=True, slots=True)
class Options:
    """The `expected` bot's options (`skyjo.bots.expected.ExpectedBot`
    describes each), their defaults the bot's: the one copy that the bot and
    its compiled twin (`skyjo.kernel.policies`) read. Each is the option of
    `params` named the same in capitals, but `patience`: the bot's turns in a
    round after which it hurries (HURRY)."""

    #: Paired 2p games (`research/paired.py`, fresh deals) measured 1.25 better by
    #: about two points of win share than 1, 1.5 as good, 1.75 and 2 worse
    #: (docs/research.md).
    lookahead: float = 1.25
    down_bias: float = 0.0
    clears: int = 1
    denial: float = 1.0
    ending: int = 1
    end_others: float = 0.5
    spread: float = 3.0
    exact_draw: int = 1
    tempo: float = 0.0
    pairs: float = 1.5
    singles: float = 0.5
    see_rate: float = 1.5
    turns_rate: float = 0.8
    flip_bonus: float = 0.0
    down_cost: float = 0.0
    patience: int = 40

    def params(self, hurried: bool = False) -> np.ndarray:
        """The options as `decide` takes them, HURRY 1 when `hurried`."""
        params = np.zeros(NPARAMS)
        for name, index in _OPTION_INDEX.items():
            params[index] = getattr(self, name)
        params[HURRY] = hurried
        return params


#: The index in `params` of each option of `Options`.
_OPTION_INDEX = {
    "lookahead": LOOKAHEAD,
    "down_bias": DOWN_BIAS,
    "clears": CLEARS,
    "denial": DENIAL,
    "ending": ENDING,
    "end_others": END_OTHERS,
    "spread": SPREAD,
    "exact_draw": EXACT_DRAW,
    "tempo": TEMPO,
    "pairs": PAIRS,
    "singles": SINGLES,
    "see_rate": SEE_RATE,
    "turns_rate": TURNS_RATE,
    "flip_bonus": FLIP_BONUS,
    "down_cost": DOWN_COST,
}
#: The `expected` bot's options by default.
DEFAULT_OPTIONS = Options()

# --- `want` of `decide_for`: which placements get the exact look-ahead ----------
ALL_VALUES = -1  #: every value's
NO_VALUE = VALUES  #: none

_COLUMN_CELLS = np.array([[col + COLS * row for row in range(ROWS)] for col in range(COLS)])
_INF = 1e18
# `pot` is always a writable float array and `clears` a float (never a module-level
# array, which Numba freezes read-only, nor an int): each of the column functions
# then compiles once, not once per argument type.


@njit(cache=True)
def pool_vector(counts):  # type: ignore[no-untyped-def]
    """The chances and moments of an unseen card drawn from `counts` (see the
    module's description). An empty pool gives zeros."""
    out = np.zeros(POOL_SIZE)
    n = 0
    for i in range(VALUES):
        n += counts[i]
    if n <= 0:
        return out
    mu = 0.0
    for i in range(VALUES):
        c = counts[i]
        out[P1 + i] = c / n
        if n > 1:
            out[P2 + i] = c * (c - 1) / (n * (n - 1))
        if n > 2:
            out[P3 + i] = c * (c - 1) * (c - 2) / (n * (n - 1) * (n - 2))
        mu += (i + LOWEST) * c / n
    var = 0.0
    triple = 0.0
    for i in range(VALUES):
        v = i + LOWEST
        var += out[P1 + i] * (v - mu) ** 2
        triple += 3.0 * v * out[P3 + i]
    out[MU] = mu
    out[VAR] = var
    out[TRIPLE] = triple
    return out


@njit(cache=True)
def column_value(a, b, c, ua, ub, uc, pool, bias, clears):  # type: ignore[no-untyped-def]
    """The expected final score of a column of cards a, b, c (top to bottom),
    each face up when its flag ua, ub, uc is 1 (a face-down card's value is not
    read). A face-down card is worth the pool's mean plus `bias`; with
    `clears`, the chance that the face-down cards complete three equal cards
    (which then score 0, RULES.md 2.6, 2.9) counts."""
    return _column(a, b, c, ua, ub, uc, pool, bias, float(clears), np.zeros((2, VALUES)))


@njit(cache=True)
def _column(a, b, c, ua, ub, uc, pool, bias, clears, pot):  # type: ignore[no-untyped-def]
    """`column_value`, less the potential of equal cards to clear the column
    later: pot[0, i] times what clearing removes for a pair of value
    i + LOWEST (with a third card that differs, or face down), pot[1, i]
    times it for one card of that value over two face-down cards."""
    up = ua + ub + uc
    mu = pool[MU]
    down = mu + bias
    if up == 3:
        if a == b and b == c:
            return 0.0
        value = float(a + b + c)
        if a == b or a == c or b == c:
            x = a if (a == b or a == c) else b
            removed = a + b + c
            if x > 0 and removed > 0:
                value -= pot[0, x - LOWEST] * removed
        return value
    if up == 2:
        if ua == 0:
            x, y = b, c
        elif ub == 0:
            x, y = a, c
        else:
            x, y = a, b
        value = x + y + down
        if x == y:
            value -= clears * 3.0 * x * pool[P1 + x - LOWEST]
            removed = 2 * x + mu
            if x > 0 and removed > 0:
                value -= pot[0, x - LOWEST] * removed
        return value
    if up == 1:
        x = a if ua else (b if ub else c)
        value = x + 2.0 * down - clears * 3.0 * x * pool[P2 + x - LOWEST]
        removed = x + 2 * mu
        if x > 0 and removed > 0:
            value -= pot[1, x - LOWEST] * removed
        return value
    return 3.0 * down - clears * pool[TRIPLE]


@njit(cache=True)
def column_gains(a, b, c, ua, ub, uc, pool, bias, clears, pot, out):  # type: ignore[no-untyped-def]
    """out[i]: the most a card of value i + LOWEST saves when it takes one of
    the column's three places (the column's value before, less after; `pot`
    as `_column` takes it). A column's value depends only on its cards, not
    on their order, so a place like one before it (`_alike`) is not tried
    again."""
    base = _column(a, b, c, ua, ub, uc, pool, bias, clears, pot)
    for i in range(VALUES):
        out[i] = _INF
    _with_each(b, c, ub, uc, pool, bias, clears, pot, out)
    if not _alike(a, ua, b, ub):
        _with_each(a, c, ua, uc, pool, bias, clears, pot, out)
    if not (_alike(a, ua, c, uc) or _alike(b, ub, c, uc)):
        _with_each(a, b, ua, ub, pool, bias, clears, pot, out)
    for i in range(VALUES):
        out[i] = base - out[i]


@njit(cache=True)
def _with_each(x, y, ux, uy, pool, bias, clears, pot, low):  # type: ignore[no-untyped-def]
    """low[i] = the lower of low[i] and `_column`'s value of the column of
    cards x and y (face up when ux, uy are 1) and a face-up card of value
    i + LOWEST: `_column`'s arithmetic, operation for operation (so the same
    floats), with its case (how many cards are face up) settled once for
    every value."""
    mu = pool[MU]
    down = mu + bias
    if ux and uy:
        for i in range(VALUES):
            v = i + LOWEST
            if v == x and x == y:
                value = 0.0
            else:
                value = float(v + x + y)
                pair = x if x == y else (v if (v == x or v == y) else LOWEST - 1)
                removed = v + x + y
                if pair >= LOWEST and pair > 0 and removed > 0:
                    value -= pot[0, pair - LOWEST] * removed
            if value < low[i]:
                low[i] = value
        return
    if ux or uy:
        w = x if ux else y
        for i in range(VALUES):
            v = i + LOWEST
            value = v + w + down
            if v == w:
                value -= clears * 3.0 * v * pool[P1 + v - LOWEST]
                removed = 2 * v + mu
                if v > 0 and removed > 0:
                    value -= pot[0, v - LOWEST] * removed
            if value < low[i]:
                low[i] = value
        return
    for i in range(VALUES):
        v = i + LOWEST
        value = v + 2.0 * down - clears * 3.0 * v * pool[P2 + v - LOWEST]
        removed = v + 2 * mu
        if v > 0 and removed > 0:
            value -= pot[1, v - LOWEST] * removed
        if value < low[i]:
            low[i] = value


@njit(cache=True)
def _alike(x, ux, y, uy):  # type: ignore[no-untyped-def]
    """Whether two places of a column hold alike cards: both face down, or
    both face up with the same value (a face-down card's value is not read)."""
    return ux == uy and (ux == 0 or x == y)


@njit(cache=True)
def _load(cells, hidden, cleared, vals, ups, gone):  # type: ignore[no-untyped-def]
    """A grid by columns: vals[col, row] (0 when face down), ups[col, row] (1
    when face up), gone[col] (1 when cleared). Returns its face-down count."""
    down = 0
    for col in range(COLS):
        k0 = _COLUMN_CELLS[col, 0]
        gone[col] = (cleared >> k0) & 1
        for row in range(ROWS):
            k = _COLUMN_CELLS[col, row]
            up = 1 - ((hidden >> k) & 1)
            ups[col, row] = up
            vals[col, row] = cells[k] if up else 0
            if not up and not gone[col]:
                down += 1
    return down


@njit(cache=True)
def _columns(vals, ups, gone, pool, bias, clears, pot, colv, gains):  # type: ignore[no-untyped-def]
    """Each column's value (colv) and gains (gains[col, i]; -inf when cleared)."""
    for col in range(COLS):
        if gone[col]:
            colv[col] = 0.0
            gains[col, :] = -_INF
            continue
        a, b, c = vals[col, 0], vals[col, 1], vals[col, 2]
        ua, ub, uc = ups[col, 0], ups[col, 1], ups[col, 2]
        colv[col] = _column(a, b, c, ua, ub, uc, pool, bias, clears, pot)
        column_gains(a, b, c, ua, ub, uc, pool, bias, clears, pot, gains[col])


@njit(cache=True)
def _lookahead(gains, draw):  # type: ignore[no-untyped-def]
    """What the next drawn card is expected to save: for each value, with its
    chance in the draw pool, its best gain anywhere in the grid, or 0."""
    total = 0.0
    for i in range(VALUES):
        p = draw[P1 + i]
        if p == 0.0:
            continue
        best = 0.0
        for col in range(COLS):
            if gains[col, i] > best:
                best = gains[col, i]
        total += p * best
    return total


@njit(cache=True)
def grid_value(cells, hidden, cleared, down_pool, draw_pool, lookahead, bias, clears):  # type: ignore[no-untyped-def]
    """A grid's value while the round goes on: the sum of its columns'
    expected scores (`column_value`, face-down cards from `down_pool`, worth
    its mean plus `bias`), less `lookahead` times what the next card drawn
    from `draw_pool` is expected to save (`pool_vector`s both)."""
    vals = np.zeros((COLS, ROWS), np.int64)
    ups = np.zeros((COLS, ROWS), np.int64)
    gone = np.zeros(COLS, np.int64)
    _load(cells, hidden, cleared, vals, ups, gone)
    colv = np.zeros(COLS)
    gains = np.zeros((COLS, VALUES))
    no_potential = np.zeros((2, VALUES))
    _columns(vals, ups, gone, down_pool, bias, float(clears), no_potential, colv, gains)
    value = colv.sum()
    if lookahead != 0.0:
        value -= lookahead * _lookahead(gains, draw_pool)
    return value


@njit(cache=True)
def _phi(z):  # type: ignore[no-untyped-def]
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


@njit(cache=True)
def _exact(vals, gone):  # type: ignore[no-untyped-def]
    """The score of a grid whose cards are all face up."""
    score = 0
    for col in range(COLS):
        if gone[col]:
            continue
        a, b, c = vals[col, 0], vals[col, 1], vals[col, 2]
        if not (a == b and b == c):
            score += a + b + c
    return score


@njit(cache=True)
def choose(  # type: ignore[no-untyped-def]
    cells, hidden, cleared, me, ender, penalty, down_counts, draw_counts, top, held, drawn, params
):
    """One decision of a turn for seat `me`, as an action of the engine's space
    (see `decide`)."""
    out = np.zeros(3)
    return decide(
        cells, hidden, cleared, me, ender, penalty, down_counts, draw_counts, top, held, drawn,
        params, out,
    )  # fmt: skip


@njit(cache=True)
def decide(  # type: ignore[no-untyped-def]
    cells, hidden, cleared, me, ender, penalty, down_counts, draw_counts, top, held, drawn,
    params, out,
):  # fmt: skip
    """One decision of a turn for seat `me`, as an action of the engine's space;
    `out` gets the values weighed (lower is better): with a card in hand, the
    chosen move's; at the start of a turn, taking the discard's (1e18 when it
    is not taken) and drawing's; and out[2] the grid's value now.

    The table: `cells` (players x 12), `hidden` and `cleared` (per seat
    bitmasks), `ender` (-1: nobody yet), `penalty` (the kernel's code of
    RULES.md 2.10: POSITIVE, ALWAYS or NONE). The pools, as counts per
    value: `down_counts` for a face-down card, `draw_counts` for the next card
    drawn. `top`: the discard pile's top card, NO_CARD when it may not be
    taken. `held`: the card in hand (NO_CARD: none, the turn starts), `drawn`:
    1 when it was drawn. `params`: the options (LOOKAHEAD...).

    With a card in hand it returns the best SWAP + k or FLIP + k; else
    TAKE_DISCARD or DRAW. Every placement of a card (value v at position k) is
    valued by the grid it leaves: its expected score less the look-ahead
    (`grid_value`) and less the potential of its equal cards (PAIRS, SINGLES:
    the chance of meeting the missing cards of a column in the turns left,
    times what clearing it removes), plus TEMPO times its face-down cards when the others
    gain more per turn than the player and the player is nearest to ending,
    and DOWN_COST times its face-down cards (before a last turn);
    a grid with no face-down card left ends the round and is priced by its
    score with the ender's penalty, doubled with the chance that another
    player's likely final score (their face-down cards at the mean, less what
    their last turn should save) is as low, less END_OTHERS times what the
    others' turns would still have saved. In the player's last turn after
    someone else ended, a grid is its expected score less the chance of
    doubling the ender times what that takes from the ender. Every move is
    charged DENIAL times what the card it leaves on the discard pile gives
    the next player beyond a draw, divided among the others. An exchange of a
    card for an equal face-up card is never made (it changes nothing), and
    the discard is taken only when it improves the grid and beats the exact
    expectation of drawing: for each value of the draw pool, with its chance,
    the best of every exchange and every discard-and-flip.
    """
    return decide_for(
        cells, hidden, cleared, me, ender, penalty, down_counts, draw_counts, top, held, drawn,
        params, out, np.int64(ALL_VALUES),  # an int64 (not a literal): one compiled decide_for
    )  # fmt: skip


@njit(cache=True)
def decide_for(  # type: ignore[no-untyped-def]
    cells, hidden, cleared, me, ender, penalty, down_counts, draw_counts, top, held, drawn,
    params, out, want,
):  # fmt: skip
    """`decide`, with the one-draw look-ahead computed exactly only for the
    placements of one card value: `want`, its index (v - LOWEST);
    ALL_VALUES (-1): every value's, as `decide`; NO_VALUE: none. A
    placement of another value keeps the grid's look-ahead as it is now (the
    changed column's part in it is left out): cheaper, but it prices a
    discard-and-flip's outcomes and the exact expectation of drawing
    (EXACT_DRAW) less well. Where neither is weighed (with `want` the card in
    hand, not drawn; at the start of a turn, `want` the discard's top, with
    EXACT_DRAW 0) the values and the choice are `decide`'s; with the
    look-ahead's weight 0, everywhere. The steps, inlined here (no calls, no
    reference counts on their arrays): the others (`_others`),
    denial (`_denial`), my grid (`_potential`, `_best_two`, `_tempo`), the
    round's end (`_ending`, `_last_turn`), every placement (`_placements`),
    the discard-and-flips (`_flips`), then the choice (`_place_held`, or
    `_take_or_draw` at the start of a turn).
    """
    n = hidden.shape[0]
    lam = params[LOOKAHEAD]
    bias = params[DOWN_BIAS]
    clears = params[CLEARS]
    dp = pool_vector(down_counts)
    wp = pool_vector(draw_counts)
    if wp[P1 : P1 + VALUES].sum() == 0.0:  # an empty draw pool: use the other
        wp = dp
    final = ender >= 0 and ender != me
    if final:
        lam = 0.0
        bias = 0.0
    vals = np.zeros((COLS, ROWS), np.int64)
    ups = np.zeros((COLS, ROWS), np.int64)
    gone = np.zeros(COLS, np.int64)
    my_down = _load(cells[me], hidden[me], cleared[me], vals, ups, gone)
    # Every other player's value and gain are read only to price ending the
    # round (a placement that turns up my last face-down card), the last turn
    # after another ended, and TEMPO; otherwise only the next player's (denial).
    every_other = final or my_down <= 1 or params[TEMPO] != 0.0
    others_of = _others(cells, hidden, cleared, me, every_other, dp, wp, clears)
    static, gain, downs, next_gain = others_of
    others = n - 1
    mean_gain = 0.0
    min_down = 1000
    for p in range(n):
        if p != me:
            mean_gain += gain[p] / others
            if downs[p] < min_down:
                min_down = downs[p]
    den, den_down = _denial(params, next_gain, gain[(me + 1) % n], (me + 1) % n, ender, others, dp)
    pot = np.zeros((2, VALUES))
    if not final and (params[PAIRS] != 0.0 or params[SINGLES] != 0.0):
        pot = _potential(params, draw_counts, min(my_down, min_down))
    colv = np.zeros(COLS)
    gains = np.zeros((COLS, VALUES))
    _columns(vals, ups, gone, dp, bias, clears, pot, colv, gains)
    total_now = colv.sum()
    # the best gain per value over the columns, and the second best, for the
    # look-ahead of a grid with one column changed
    best1, best1col, best2 = _best_two(gains)
    look_now = 0.0
    for i in range(VALUES):
        look_now += wp[P1 + i] * best1[i]
    tempo = _tempo(params, final, my_down, min_down, mean_gain, look_now)
    mean_final = np.zeros(n)
    sd_final = np.zeros(n)
    end_bonus = 0.0
    ender_raw = 0
    double_gain = 0.0
    if not final:
        end_bonus = _ending(
            params, me, static, gain, downs, dp, lam, mean_gain, mean_final, sd_final
        )
    else:
        ender_raw, double_gain = _last_turn(
            cells, hidden, cleared, me, ender, penalty, static, gain, downs, dp, params
        )
    after, clear_at = _placements(
        vals, ups, gone, my_down, held, top, params, dp, wp, bias, clears, pot, colv, total_now,
        final, ender_raw, double_gain, penalty, me, mean_final, sd_final, end_bonus, tempo, lam,
        want, look_now, best1, best1col, best2,
    )  # fmt: skip
    if final:
        now = _final_value(total_now, my_down, dp, ender_raw, double_gain)
    else:
        now = total_now - lam * look_now + tempo * my_down
    flip_base, flip_keep = _flips(ups, gone, dp, after, clear_at, den, params[FLIP_BONUS])
    if held != NO_CARD:
        return _place_held(
            vals, ups, gone, held, drawn, after, clear_at, den, den_down, flip_base, flip_keep,
            now, params[HURRY], out,
        )  # fmt: skip
    return _take_or_draw(
        vals, ups, gone, top, after, clear_at, den, den_down, flip_base, flip_keep, now,
        look_now, params[EXACT_DRAW], wp, out,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _others(cells, hidden, cleared, me, every_other, dp, wp, clears):  # type: ignore[no-untyped-def]
    """The other players, for `decide_for`: each one's static value (its
    columns' expected scores), the gain its next turn should bring (a drawn
    card, over the draw pool `wp`) and its face-down count; and the next
    player's gain with each card value. Only the next player's values unless
    `every_other`."""
    n = hidden.shape[0]
    ovals = np.zeros((COLS, ROWS), np.int64)
    oups = np.zeros((COLS, ROWS), np.int64)
    ogone = np.zeros(COLS, np.int64)
    ocolv = np.zeros(COLS)
    ogains = np.zeros((COLS, VALUES))
    static = np.zeros(n)
    gain = np.zeros(n)  # what their next turn should save (a drawn card)
    downs = np.zeros(n, np.int64)
    nxt = (me + 1) % n
    next_gain = np.zeros(VALUES)  # the next player's saving with each card
    no_potential = np.zeros((2, VALUES))  # theirs are not weighed
    for p in range(n):
        if p == me:
            continue
        downs[p] = _load(cells[p], hidden[p], cleared[p], ovals, oups, ogone)
        if p != nxt and not every_other:
            continue
        _columns(ovals, oups, ogone, dp, 0.0, clears, no_potential, ocolv, ogains)
        static[p] = ocolv.sum()
        total = 0.0
        for i in range(VALUES):
            best = 0.0
            for col in range(COLS):
                if ogains[col, i] > best:
                    best = ogains[col, i]
            total += wp[P1 + i] * best
            if p == nxt:
                next_gain[i] = best
        gain[p] = total
    return static, gain, downs, next_gain


@njit(cache=True, inline="always")
def _denial(params, next_gain, next_mean, nxt, ender, others, dp):  # type: ignore[no-untyped-def]
    """What a card left on the discard pile gives the next player (`nxt`, whose
    next turn should save `next_mean`) beyond a draw, divided among the
    `others`, per value (DENIAL's weight); and its mean over a face-down card."""
    den = np.zeros(VALUES)
    if params[DENIAL] != 0.0 and nxt != ender:
        for i in range(VALUES):
            extra = next_gain[i] - next_mean
            if extra > 0.0:
                den[i] = params[DENIAL] * extra / others
    den_down = 0.0  # a face-down card exchanged: its value unknown
    for i in range(VALUES):
        den_down += dp[P1 + i] * den[i]
    return den, den_down


@njit(cache=True, inline="always")
def _potential(params, draw_counts, fewest_down):  # type: ignore[no-untyped-def]
    """The potential of equal cards in a column over the turns left (TURNS_RATE
    times `fewest_down`, the face-down cards of the player nearest to ending):
    per value, PAIRS times the chance of meeting a card of it, SINGLES times
    that chance squared."""
    pot = np.zeros((2, VALUES))
    left_turns = params[TURNS_RATE] * fewest_down
    n_draw = 0.0
    for i in range(VALUES):
        n_draw += draw_counts[i]
    if n_draw > 0:
        for i in range(VALUES):
            per_turn = params[SEE_RATE] * draw_counts[i] / n_draw
            if per_turn > 1.0:
                per_turn = 1.0
            chance = 1.0 - (1.0 - per_turn) ** left_turns
            pot[0, i] = params[PAIRS] * chance
            pot[1, i] = params[SINGLES] * chance * chance
    return pot


@njit(cache=True, inline="always")
def _best_two(gains):  # type: ignore[no-untyped-def]
    """Per value: the best gain over the columns (0 at least), its column (-1:
    none), and the second best."""
    best1 = np.zeros(VALUES)
    best1col = np.full(VALUES, -1, np.int64)
    best2 = np.zeros(VALUES)
    for i in range(VALUES):
        for col in range(COLS):
            g = gains[col, i]
            if g > best1[i]:
                best2[i] = best1[i]
                best1[i] = g
                best1col[i] = col
            elif g > best2[i]:
                best2[i] = g
    return best1, best1col, best2


@njit(cache=True, inline="always")
def _tempo(params, final, my_down, min_down, mean_gain, look_now):  # type: ignore[no-untyped-def]
    """What each of my face-down cards costs (before a last turn): TEMPO times
    how much more the others gain a turn than I do, when I am nearest to
    ending, plus DOWN_COST."""
    tempo = 0.0
    if not final and params[TEMPO] != 0.0 and my_down <= min_down:
        tempo = params[TEMPO] * (mean_gain - look_now)
        if tempo < 0.0:
            tempo = 0.0
    if not final:
        tempo += params[DOWN_COST]
    return tempo


@njit(cache=True, inline="always")
def _ending(params, me, static, gain, downs, dp, lam, mean_gain, mean_final, sd_final):  # type: ignore[no-untyped-def]
    """For ending the round now: each other player's likely final score
    (`mean_final`: its static value less its next turn's gain) and its spread
    (`sd_final`); returns what the others' turns would still have saved
    (END_OTHERS' weight)."""
    for p in range(static.shape[0]):
        if p != me:
            mean_final[p] = static[p] - gain[p]
            sd_final[p] = math.sqrt(downs[p] * dp[VAR] + params[SPREAD] ** 2)
    return params[END_OTHERS] * max(lam, 1.0) * mean_gain


@njit(cache=True, inline="always")
def _last_turn(cells, hidden, cleared, me, ender, penalty, static, gain, downs, dp, params):  # type: ignore[no-untyped-def]
    """My last turn after `ender` ended the round: the ender's raw score, and
    what doubling it would take from the ender, shared among the others,
    times the chance that no other player scores as low (0 when the ender's
    score is not doubled, RULES.md 2.10)."""
    n = hidden.shape[0]
    vals = np.zeros((COLS, ROWS), np.int64)
    ups = np.zeros((COLS, ROWS), np.int64)
    gone = np.zeros(COLS, np.int64)
    _load(cells[ender], hidden[ender], cleared[ender], vals, ups, gone)
    ender_raw = _exact(vals, gone)
    double_gain = 0.0
    if penalty == ALWAYS or (penalty == POSITIVE and ender_raw > 0):
        # the seats from the ender to me have played their last turn
        played = np.zeros(n, np.int64)
        seat = (ender + 1) % n
        while seat != me:
            played[seat] = 1
            seat = (seat + 1) % n
        not_doubled = 1.0
        for p in range(n):
            if p == me or p == ender:
                continue
            mean = static[p]
            spread = downs[p] * dp[VAR]
            if not played[p]:
                mean -= gain[p]
                spread += params[SPREAD] ** 2
            if spread > 0.0:
                not_doubled *= 1.0 - _phi((ender_raw + 0.5 - mean) / math.sqrt(spread))
            elif mean <= ender_raw:
                not_doubled = 0.0
        double_gain = ender_raw * not_doubled / (n - 1)
    return ender_raw, double_gain


@njit(cache=True, inline="always")
def _final_value(total, down, dp, ender_raw, double_gain):  # type: ignore[no-untyped-def]
    """A grid's value in my last turn: its expected score `total` (with `down`
    face-down cards) less the chance of doubling the ender times what that
    takes from the ender."""
    if double_gain == 0.0:
        return total
    spread = down * dp[VAR]
    if spread > 0.0:
        chance = _phi((ender_raw + 0.5 - total) / math.sqrt(spread))
    else:
        chance = 1.0 if total <= ender_raw + 1e-9 else 0.0
    return total - chance * double_gain


@njit(cache=True, inline="always")
def _placements(  # type: ignore[no-untyped-def]
    vals, ups, gone, my_down, held, top, params, dp, wp, bias, clears, pot, colv, total_now,
    final, ender_raw, double_gain, penalty, me, mean_final, sd_final, end_bonus, tempo, lam,
    want, look_now, best1, best1col, best2,
):  # fmt: skip
    """Every placement of value i + LOWEST face up at position k that is read
    later: after[k, i], the grid's value it leaves, and clear_at[k, i],
    whether it clears the column. Only the card in hand's or the discard's
    (every value's with EXACT_DRAW) at a face-up position; at a face-down one,
    also every value the face-down pool holds (a flip's). A position with the
    same cards above it in its column copies their values."""
    read_up = np.zeros(VALUES, np.bool_)
    read_down = np.zeros(VALUES, np.bool_)
    for i in range(VALUES):
        read_up[i] = params[EXACT_DRAW] != 0.0
        read_down[i] = read_up[i] or dp[P1 + i] != 0.0
    if held != NO_CARD:
        read_up[held - LOWEST] = read_down[held - LOWEST] = True
    elif top != NO_CARD:
        read_up[top - LOWEST] = read_down[top - LOWEST] = True
    after = np.zeros((COLS * ROWS, VALUES))
    clear_at = np.zeros((COLS * ROWS, VALUES), np.int64)
    new_gains = np.zeros(VALUES)
    for col in range(COLS):
        if gone[col]:
            continue
        for row in range(ROWS):
            k = _COLUMN_CELLS[col, row]
            like = -1  # the first place above with alike cards (`_alike`): the same values
            for above in range(row):
                if _alike(vals[col, above], ups[col, above], vals[col, row], ups[col, row]):
                    like = _COLUMN_CELLS[col, above]
                    break
            if like >= 0:
                after[k, :] = after[like, :]
                clear_at[k, :] = clear_at[like, :]
                continue
            d_after = my_down - (1 - ups[col, row])
            read = read_up if ups[col, row] else read_down
            for i in range(VALUES):
                if not read[i]:
                    continue
                v = i + LOWEST
                a, b, c = vals[col, 0], vals[col, 1], vals[col, 2]
                ua, ub, uc = ups[col, 0], ups[col, 1], ups[col, 2]
                if row == 0:
                    a, ua = v, 1
                elif row == 1:
                    b, ub = v, 1
                else:
                    c, uc = v, 1
                cleared_now = ua + ub + uc == 3 and a == b and b == c
                clear_at[k, i] = cleared_now
                value_col = 0.0
                if not cleared_now:
                    value_col = _column(a, b, c, ua, ub, uc, dp, bias, clears, pot)
                total = total_now - colv[col] + value_col
                if final:
                    value = _final_value(total, d_after, dp, ender_raw, double_gain)
                elif d_after == 0:  # the last face-down card: this ends the round
                    value = _ending_value(
                        gone, colv, col, value_col, cleared_now, params, penalty, me,
                        mean_final, sd_final, end_bonus,
                    )  # fmt: skip
                else:
                    value = total + tempo * d_after
                    if lam != 0.0 and want != ALL_VALUES and i != want:
                        value -= lam * look_now  # not `want`: the look-ahead as now
                    elif lam != 0.0:
                        if cleared_now:
                            for j in range(VALUES):
                                new_gains[j] = -_INF
                        else:
                            column_gains(a, b, c, ua, ub, uc, dp, bias, clears, pot, new_gains)
                        look = _changed_lookahead(wp, new_gains, col, best1, best1col, best2)
                        value -= lam * look
                after[k, i] = value
    return after, clear_at


@njit(cache=True, inline="always")
def _ending_value(  # type: ignore[no-untyped-def]
    gone, colv, col, value_col, cleared_now, params, penalty, me, mean_final, sd_final, end_bonus
):
    """The value of a placement that turns up my last face-down card in column
    `col` (now worth `value_col`, or cleared): the grid's score, all face up,
    with ENDING the ender's penalty (RULES.md 2.10) doubling it with the
    chance that another player's likely final score is as low, less
    `end_bonus`."""
    raw = 0.0
    for other in range(COLS):
        if other != col and not gone[other]:
            raw += colv[other]  # all face up: exact
    if not cleared_now:
        raw += value_col
    value = raw
    if params[ENDING] != 0.0:
        if penalty == ALWAYS or (penalty == POSITIVE and raw > 0.0):
            alone = 1.0
            for p in range(mean_final.shape[0]):
                if p != me:
                    z = (raw + 0.5 - mean_final[p]) / sd_final[p]
                    alone *= 1.0 - _phi(z)
            value = raw * (2.0 - alone)
        value -= end_bonus
    return value


@njit(cache=True, inline="always")
def _changed_lookahead(wp, new_gains, col, best1, best1col, best2):  # type: ignore[no-untyped-def]
    """The one-draw look-ahead of the grid with column `col` changed, its gains
    now `new_gains`: per value, the best of the other columns' (`_best_two`)
    and the changed column's."""
    look = 0.0
    for j in range(VALUES):
        p = wp[P1 + j]
        if p == 0.0:
            continue
        best = best2[j] if best1col[j] == col else best1[j]
        if new_gains[j] > best:
            best = new_gains[j]
        look += p * best
    return look


@njit(cache=True, inline="always")
def _flips(ups, gone, dp, after, clear_at, den, flip_bonus):  # type: ignore[no-untyped-def]
    """The value of discarding a drawn card of value i and turning up the
    face-down card at k: flip_base[k] + (1 - flip_keep[k]) * den[i] (the
    FLIP_BONUS taken off the base; _INF at a face-up position)."""
    flip_base = np.full(COLS * ROWS, _INF)
    flip_keep = np.zeros(COLS * ROWS)
    for col in range(COLS):
        if gone[col]:
            continue
        for row in range(ROWS):
            if ups[col, row]:
                continue
            k = _COLUMN_CELLS[col, row]
            value = 0.0
            keep = 0.0
            for u in range(VALUES):
                p = dp[P1 + u]
                if p == 0.0:
                    continue
                value += p * after[k, u]
                if clear_at[k, u]:
                    value += p * den[u]
                    keep += p
            flip_base[k] = value - flip_bonus
            flip_keep[k] = keep
    return flip_base, flip_keep


@njit(cache=True, inline="always")
def _denied(after, clear_at, den, den_down, vals, ups, col, row, k, i):  # type: ignore[no-untyped-def]
    """Placing value i at k (column `col`, row `row`): the grid's value it
    leaves plus what the card it puts on the discard pile gives the next
    player (none when it clears the column: the column's cards go there too)."""
    value = after[k, i]
    if clear_at[k, i]:
        value += den[i]
    elif ups[col, row]:
        value += den[vals[col, row] - LOWEST]
    else:
        value += den_down
    return value


@njit(cache=True, inline="always")
def _place_held(  # type: ignore[no-untyped-def]
    vals, ups, gone, held, drawn, after, clear_at, den, den_down, flip_base, flip_keep, now,
    hurry, out,
):  # fmt: skip
    """Where the card in hand goes: the best SWAP + k, or FLIP + k for a drawn
    card (never an exchange for an equal face-up card; with HURRY no exchange
    that leaves the grid no better, unless nothing else is left). out[0] gets
    its value, out[2] the grid's now."""
    h = held - LOWEST
    best_action = -1
    best_value = _INF
    fallback_action = -1
    fallback_value = _INF
    for col in range(COLS):
        if gone[col]:
            continue
        for row in range(ROWS):
            k = _COLUMN_CELLS[col, row]
            if ups[col, row] and vals[col, row] == held:
                continue  # an exchange that changes nothing
            grid_only = after[k, h]
            value = _denied(after, clear_at, den, den_down, vals, ups, col, row, k, h)
            if value < fallback_value - 1e-9:
                fallback_action, fallback_value = SWAP + k, value
            # a round gone on too long: no exchange that leaves the grid no
            # better (turn up cards rather than stall), the card drawn or taken
            stalls = hurry != 0.0 and grid_only >= now - 1e-9
            if value < best_value - 1e-9 and not stalls:
                best_action, best_value = SWAP + k, value
            if drawn and not ups[col, row]:
                value = flip_base[k] + (1.0 - flip_keep[k]) * den[h]
                if value < best_value - 1e-9:
                    best_action, best_value = FLIP + k, value
    out[2] = now
    if best_action < 0:
        out[0] = fallback_value
        return fallback_action
    out[0] = best_value
    return best_action


@njit(cache=True, inline="always")
def _take_or_draw(  # type: ignore[no-untyped-def]
    vals, ups, gone, top, after, clear_at, den, den_down, flip_base, flip_keep, now, look_now,
    exact_draw, wp, out,
):  # fmt: skip
    """The start of a turn: TAKE_DISCARD when taking the discard `top` (only to
    improve the grid) beats drawing (out[0] and out[1] their values, out[2]
    the grid's now), else DRAW. Drawing is worth, with EXACT_DRAW, the best
    placement of each value of the draw pool weighed by its chance; without,
    the grid now less one card's expected saving."""
    take = _INF
    if top != NO_CARD:
        t = top - LOWEST
        for col in range(COLS):
            if gone[col]:
                continue
            for row in range(ROWS):
                k = _COLUMN_CELLS[col, row]
                if ups[col, row] and vals[col, row] == top:
                    continue  # an exchange that changes nothing
                if after[k, t] >= now - 1e-9:
                    continue  # the discard is taken only to improve the grid
                value = _denied(after, clear_at, den, den_down, vals, ups, col, row, k, t)
                if value < take:
                    take = value
    out[0] = take
    out[2] = now
    if exact_draw != 0.0:
        draw = 0.0
        for i in range(VALUES):
            p = wp[P1 + i]
            if p == 0.0:
                continue
            best = _INF
            for col in range(COLS):
                if gone[col]:
                    continue
                for row in range(ROWS):
                    k = _COLUMN_CELLS[col, row]
                    if ups[col, row] and vals[col, row] == i + LOWEST:
                        continue
                    value = _denied(after, clear_at, den, den_down, vals, ups, col, row, k, i)
                    if value < best:
                        best = value
                    if not ups[col, row]:
                        value = flip_base[k] + (1.0 - flip_keep[k]) * den[i]
                        if value < best:
                            best = value
            draw += p * best
    else:
        draw = now - look_now  # the shortcut: the grid less one card's expected saving
    out[1] = draw
    return TAKE_DISCARD if take < draw - 1e-9 else DRAW
