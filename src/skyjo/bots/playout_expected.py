"""The `expected` playout policy: the new `expected` bot's one-turn choice, on a
kernel table, for the search's playouts.

`choose(t, b, prm, floats, ints)` (compiled, the signature of
`skyjo.bots.playout_policy.choose`) is the action of the player to act at
table b, chosen by `skyjo.bots.valuation.decide` as the `expected` bot
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
for the card to place (`decide_cheap`, a copy of `valuation.decide`: a
discard-and-flip keeps the grid's look-ahead as it is now). The full
look-ahead costs about 180 µs a turn at 4 players, this one about 35, none
at all about 25; as a bot against `expected_v1` (2 players, 400 games) this
policy won 68.1%, the full `expected` about 71%, `expected:lookahead=0` 61%. After `patience` turns
per player in a playout (the TURNS slot) the players play "hurried" (no drawn
card placed where it makes the grid worse), so that every playout ends.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from skyjo.bots import valuation as va
from skyjo.bots.valuation import (  # what decide_cheap, a copy of va.decide, calls
    _COLUMN_CELLS,
    _INF,
    _NO_POTENTIAL,
    CLEARS,
    DENIAL,
    DOWN_BIAS,
    END_OTHERS,
    ENDING,
    EXACT_DRAW,
    HURRY,
    LOOKAHEAD,
    LOWEST,
    P1,
    PAIRS,
    SEE_RATE,
    SINGLES,
    SPREAD,
    TEMPO,
    TURNS_RATE,
    VALUES,
    VAR,
    _column,
    _columns,
    _exact,
    _load,
    _phi,
    column_gains,
    pool_vector,
)
from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.kernel import (
    ALWAYS,
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
    POSITIVE,
    RESHUFFLES,
    SOURCE,
    TURNS,
)
from skyjo.rules import CARD_COUNTS, COLS, GRID_SIZE, MAX_PLAYERS, ROWS

#: The 150 cards' counts per value, at index v - valuation.LOWEST.
_DECK = np.array([CARD_COUNTS[v + va.LOWEST] for v in range(va.VALUES)], dtype=np.int64)
#: Turns per player in a playout after which the players play hurried.
PATIENCE = 30

#: The layout of `prm`: the valuation's options, the same hurried, the patience.
_HURRIED = va.NPARAMS
_PATIENCE = 2 * va.NPARAMS
NPRM = _PATIENCE + 1
#: Work arrays: floats: decide's `out`; ints: the two pools, then the table's
#: grids (8 x 12 at most), face-down and cleared masks, as int64.
FLOATS = 3
_DOWN, _DRAWN = 0, va.VALUES
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
) -> np.ndarray:
    """The policy's options as the float array `choose` takes (the `expected`
    bot's defaults, but the exact draw expectation, off)."""
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
    me = t.slots[b, PLAYER]
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
    held = t.slots[b, HELD]
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
        t.slots[b, ENDER],
        t.slots[b, PENALTY],
        ints[_DOWN : _DOWN + va.VALUES],
        ints[_DRAWN : _DRAWN + va.VALUES],
        top,
        held,
        t.slots[b, SOURCE] == DRAW,
        options,
        floats,
    )


@njit(cache=True)
def decide_cheap(  # type: ignore[no-untyped-def]
    cells, hidden, cleared, me, ender, penalty, down_counts, draw_counts, top, held, drawn,
    params, out,
):  # fmt: skip
    """`valuation.decide` (the same code, copied), but cheaper with a
    look-ahead: the look-ahead is computed exactly only for the card to
    place (the card in hand, or the discard's top at the start of a turn);
    a discard-and-flip's outcomes keep the grid's look-ahead as it is now
    (the flipped column's change to it is left out). With the look-ahead's
    weight 0 it chooses as `valuation.decide`."""
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

    # --- the other players: static value, one-turn gain per card, face-down count ---
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
    for p in range(n):
        if p == me:
            continue
        downs[p] = _load(cells[p], hidden[p], cleared[p], ovals, oups, ogone)
        _columns(ovals, oups, ogone, dp, 0.0, clears, _NO_POTENTIAL, ocolv, ogains)
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
    others = n - 1
    mean_gain = 0.0
    min_down = 1000
    for p in range(n):
        if p != me:
            mean_gain += gain[p] / others
            if downs[p] < min_down:
                min_down = downs[p]

    # --- denial: what a card left on the discard pile gives the next player ---
    den = np.zeros(VALUES)
    if params[DENIAL] != 0.0 and nxt != ender:
        for i in range(VALUES):
            extra = next_gain[i] - gain[nxt]
            if extra > 0.0:
                den[i] = params[DENIAL] * extra / others
    den_down = 0.0  # a face-down card exchanged: its value unknown
    for i in range(VALUES):
        den_down += dp[P1 + i] * den[i]

    # --- my grid ---
    vals = np.zeros((COLS, ROWS), np.int64)
    ups = np.zeros((COLS, ROWS), np.int64)
    gone = np.zeros(COLS, np.int64)
    my_down = _load(cells[me], hidden[me], cleared[me], vals, ups, gone)
    # The potential of equal cards in a column over the turns left
    pot = np.zeros((2, VALUES))
    if not final and (params[PAIRS] != 0.0 or params[SINGLES] != 0.0):
        left_turns = params[TURNS_RATE] * min(my_down, min_down)
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
    colv = np.zeros(COLS)
    gains = np.zeros((COLS, VALUES))
    _columns(vals, ups, gone, dp, bias, clears, pot, colv, gains)
    total_now = colv.sum()
    # the best gain per value over the columns, and the second best, for the
    # look-ahead of a grid with one column changed
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
    look_now = 0.0
    for i in range(VALUES):
        look_now += wp[P1 + i] * best1[i]
    tempo = 0.0
    if not final and params[TEMPO] != 0.0 and my_down <= min_down:
        tempo = params[TEMPO] * (mean_gain - look_now)
        if tempo < 0.0:
            tempo = 0.0

    # --- ending the round, and the last turn after another ended ---
    mean_final = np.zeros(n)
    sd_final = np.zeros(n)
    end_bonus = 0.0
    ender_raw = 0
    double_gain = 0.0
    if not final:
        for p in range(n):
            if p != me:
                mean_final[p] = static[p] - gain[p]
                sd_final[p] = math.sqrt(downs[p] * dp[VAR] + params[SPREAD] ** 2)
        end_bonus = params[END_OTHERS] * max(lam, 1.0) * mean_gain
    else:
        _load(cells[ender], hidden[ender], cleared[ender], ovals, oups, ogone)
        ender_raw = _exact(ovals, ogone)
        doubles = penalty == ALWAYS or (penalty == POSITIVE and ender_raw > 0)
        if doubles:
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
            double_gain = ender_raw * not_doubled / others

    # --- every placement: value v face up at position k ---
    want = -1  # the value whose placements get the exact look-ahead
    if held != NO_CARD:
        want = held - LOWEST
    elif top != NO_CARD:
        want = top - LOWEST
    after = np.zeros((COLS * ROWS, VALUES))
    clear_at = np.zeros((COLS * ROWS, VALUES), np.int64)
    new_gains = np.zeros(VALUES)
    for col in range(COLS):
        if gone[col]:
            continue
        for row in range(ROWS):
            k = _COLUMN_CELLS[col, row]
            d_after = my_down - (1 - ups[col, row])
            for i in range(VALUES):
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
                    value = total
                    if double_gain != 0.0:
                        spread = d_after * dp[VAR]
                        if spread > 0.0:
                            chance = _phi((ender_raw + 0.5 - total) / math.sqrt(spread))
                        else:
                            chance = 1.0 if total <= ender_raw + 1e-9 else 0.0
                        value = total - chance * double_gain
                elif d_after == 0:  # the last face-down card: this ends the round
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
                            for p in range(n):
                                if p != me:
                                    z = (raw + 0.5 - mean_final[p]) / sd_final[p]
                                    alone *= 1.0 - _phi(z)
                            value = raw * (2.0 - alone)
                        value -= end_bonus
                else:
                    value = total + tempo * d_after
                    if lam != 0.0 and i != want:
                        value -= lam * look_now  # a flip's outcome: the look-ahead as now
                    elif lam != 0.0:
                        if cleared_now:
                            for j in range(VALUES):
                                new_gains[j] = -_INF
                        else:
                            column_gains(a, b, c, ua, ub, uc, dp, bias, clears, pot, new_gains)
                        look = 0.0
                        for j in range(VALUES):
                            p = wp[P1 + j]
                            if p == 0.0:
                                continue
                            best = best2[j] if best1col[j] == col else best1[j]
                            if new_gains[j] > best:
                                best = new_gains[j]
                            look += p * best
                        value -= lam * look
                after[k, i] = value

    if final:
        now = total_now
        if double_gain != 0.0:
            spread = my_down * dp[VAR]
            if spread > 0.0:
                now -= _phi((ender_raw + 0.5 - total_now) / math.sqrt(spread)) * double_gain
            elif total_now <= ender_raw + 1e-9:
                now -= double_gain
    else:
        now = total_now - lam * look_now + tempo * my_down

    # the value of discarding a drawn card of value i and turning up k:
    # flip_base[k] + (1 - flip_keep[k]) * den[i]
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
            flip_base[k] = value
            flip_keep[k] = keep

    if held != NO_CARD:
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
                value = after[k, h]
                grid_only = value
                if clear_at[k, h]:
                    value += den[h]
                elif ups[col, row]:
                    value += den[vals[col, row] - LOWEST]
                else:
                    value += den_down
                if value < fallback_value - 1e-9:
                    fallback_action, fallback_value = SWAP + k, value
                if params[HURRY] != 0.0 and drawn and grid_only >= now - 1e-9:
                    continue  # a round gone on too long: turn up cards rather than stall
                if value < best_value - 1e-9:
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

    # --- the start of a turn: take the discard, or draw ---
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
                value = after[k, t]
                if clear_at[k, t]:
                    value += den[t]
                elif ups[col, row]:
                    value += den[vals[col, row] - LOWEST]
                else:
                    value += den_down
                if value < take:
                    take = value
    out[0] = take
    out[2] = now
    if params[EXACT_DRAW] != 0.0:
        draw = 0.0
        for i in range(VALUES):
            p = wp[P1 + i]
            if p == 0.0:
                continue
            best = _INF
            v = i + LOWEST
            for col in range(COLS):
                if gone[col]:
                    continue
                for row in range(ROWS):
                    k = _COLUMN_CELLS[col, row]
                    if ups[col, row] and vals[col, row] == v:
                        continue
                    value = after[k, i]
                    if clear_at[k, i]:
                        value += den[i]
                    elif ups[col, row]:
                        value += den[vals[col, row] - LOWEST]
                    else:
                        value += den_down
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
