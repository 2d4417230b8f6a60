"""The greedy playout policy: how a simulated player chooses, on a kernel table.

A playout (`skyjo.kernel.playouts`) plays a sampled world to the end of its
round with a policy for every player: this one is cheap and greedy, and holds
no rule. `choose(t, b, prm, floats, ints)` is the action of the
player to act at table b of `t`: DRAW or TAKE_DISCARD at the start of a turn,
SWAP + k or FLIP + k with a card in hand.

The policy never peeks: it reads only what its player could see (its own
face-up cards, the card it holds, the top of the discard pile, the other
grids' face-up cards, how many cards each has face down), and prices every
face-down card at a constant value. So the simulated players play as
sensible humans would, not as cheats. For the player to act:

- price each exchange of a card `h` at position k by what it saves now
  (the card there, or the expected value for a face-down one, less `h`), plus
  the whole column when it completes three of a kind, plus a bonus for making
  a pair in a column whose third card is face down (and less one for breaking
  such a pair);
- take the discard when its best exchange saves at least `take_threshold`,
  else draw, then exchange where it saves most, or discard and flip when no
  exchange saves more than `flip_value`;
- before a move that would end the round, estimate its own score and the
  lowest of the others' (face-up cards plus the expected value of their
  face-down ones, less what a last turn usually saves): a move that would
  likely be doubled is charged the doubling; a safe one earns `end_bonus`.
- on a last turn (someone else ended the round) only the points count.

After `patience` turns per player (the table's TURNS slot counts the turns
played since the playout began) the players no longer avoid ending the round,
so that every playout ends.

The knobs (`Policy`) become a float array (`params`). Every card value is a
small integer, so the float arithmetic is exact where it matters and the same
on every machine. `skyjo.bots.playout_policy.PolicyBot` plays the policy as a
bot (a baseline: it loses to the `expected` bot).
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

import numpy as np
from numba import njit

from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.kernel.table import (
    CLEARED,
    DISCARD_LEN,
    DISCARD_PILE,
    ENDER,
    HELD,
    HIDDEN,
    NO_CARD,
    NONE,
    PENALTY,
    PLAYER,
    PLAYERS,
    POSITIVE,
    SOURCE,
    TURNS,
)
from skyjo.rules import COLUMN_PARTNERS, COLUMNS, DECK, GRID_SIZE

#: The mean of the 150 cards: what a face-down card is worth before any is seen.
MEAN_CARD = sum(DECK) / len(DECK)
#: Turns per player after which the players stop avoiding the end of the round
#: (players who all refuse to end it could play forever).
PATIENCE = 30


@dataclass(frozen=True, slots=True)
class Policy:
    """The greedy policy's knobs, in card points (tuned by 2-player self-play
    on round scores)."""

    hidden_value: float = 4.5  #: what a face-down card is taken to be worth
    take_threshold: float = 3.5  #: take the discard when it saves at least this much
    flip_value: float = 1.5  #: what discarding the drawn card and flipping is worth
    pair_bonus: float = 3.0  #: for a pair in a column whose third card is face down
    end_margin: float = 3.0  #: end the round only this much below the others' estimate
    end_bonus: float = 0.0  #: for ending the round safely
    last_turn_gain: float = 5.0  #: what a last turn is expected to save the others


DEFAULT_POLICY = Policy()

#: The indices of `params`: the knobs of `Policy` in order, then the patience.
(_HIDDEN_VALUE, _TAKE_THRESHOLD, _FLIP_VALUE, _PAIR_BONUS, _END_MARGIN, _END_BONUS,
 _LAST_TURN_GAIN, _PATIENCE) = range(8)  # fmt: skip
#: Work arrays: floats (prices of the 12 positions, then the matches' extras),
#: ints (the matches' values, then their positions); 3 matches a column at most.
_MATCHES = 3 * GRID_SIZE
FLOATS = GRID_SIZE + _MATCHES
INTS = 2 * _MATCHES

#: The two other positions of each position's column (`rules.COLUMN_PARTNERS`).
_PARTNERS = np.array(COLUMN_PARTNERS, dtype=np.int64)
#: The positions of each column, top to bottom (`rules.COLUMNS`).
_COLUMNS = np.array(COLUMNS, dtype=np.int64)


def params(policy: Policy = DEFAULT_POLICY, patience: int = PATIENCE) -> np.ndarray:
    """The policy's knobs and `patience` as the float array `choose` takes."""
    return np.array((*astuple(policy), patience), dtype=np.float64)


def scratch() -> tuple[np.ndarray, np.ndarray]:
    """The work arrays `choose` takes (floats, ints): any content, reused freely."""
    return np.zeros(FLOATS), np.zeros(INTS, dtype=np.int64)


# --- the policy -------------------------------------------------------------------


@njit(cache=True)
def choose(t, b, prm, floats, ints):  # type: ignore[no-untyped-def]
    """The action of the player to act at table b (in the turns of a round): DRAW
    or TAKE_DISCARD when it holds no card, else where it puts the card it holds
    (SWAP + k, or FLIP + k for a drawn card)."""
    p = t.slots[b, PLAYER]
    held = t.slots[b, HELD]
    if held == NO_CARD:
        top = t.piles[b, DISCARD_PILE, t.slots[b, DISCARD_LEN] - 1]
        _, gain, _ = place_card(t, b, prm, floats, ints, p, top, False)
        return TAKE_DISCARD if gain >= prm[_TAKE_THRESHOLD] else DRAW
    k, _, flip = place_card(t, b, prm, floats, ints, p, held, t.slots[b, SOURCE] == DRAW)
    return (FLIP if flip else SWAP) + k


@njit(cache=True)
def place_card(t, b, prm, floats, ints, p, card, drawn):  # type: ignore[no-untyped-def]
    """Where seat p would put `card`: the position, what that saves, and whether
    it is a discard-and-flip (only when `drawn`)."""
    h = t.seats[b, HIDDEN, p]
    if not (t.slots[b, ENDER] < 0 and h != 0 and (h & (h - 1)) == 0):
        best, best_k, flip_k, flip_gain, count = _analyse(t, b, prm, floats, ints, p)
        k, gain = _best(floats, ints, best, best_k, count, card)
        if drawn and h != 0 and gain < flip_gain:
            return flip_k, flip_gain, True
        return k, gain, False
    return _near_end(t, b, prm, p, card, drawn)


@njit(cache=True)
def _best(floats, ints, best, best_k, count, card):  # type: ignore[no-untyped-def]
    """Where `card` saves most in an analysed grid (`_analyse`), and how much."""
    gain = best - card
    k = best_k
    for i in range(count):
        if ints[i] == card:
            at = ints[_MATCHES + i]
            g = floats[at] - card + floats[GRID_SIZE + i]
            if g > gain:
                gain, k = g, at
    return k, gain


@njit(cache=True)
def _match(floats, ints, count, value, k, extra):  # type: ignore[no-untyped-def]
    """Note that a card of `value` at position k earns `extra`; the new count."""
    ints[count] = value
    ints[_MATCHES + count] = k
    floats[GRID_SIZE + count] = extra
    return count + 1


@njit(cache=True)
def _analyse(t, b, prm, floats, ints, p):  # type: ignore[no-untyped-def]
    """Seat p's grid as the policy prices it, when no move of p can end the
    round: into floats[:12] the price of each position (its card, or the
    expected value of a face-down card, less a pair bonus for breaking a
    pair), and the matches (a card value, a position, the extra it earns
    there: completing a column, or making a pair); returns the best-priced
    position's price and position, the position to flip and what flipping it
    is worth, and the number of matches."""
    for k in range(GRID_SIZE):
        floats[k] = 0.0
    ev = prm[_HIDDEN_VALUE]
    pair = 0.0 if t.slots[b, ENDER] >= 0 else prm[_PAIR_BONUS]
    count = 0
    best = -1e9
    best_k = -1
    flip_k = -1
    flip_gain = prm[_FLIP_VALUE]
    h, cl = t.seats[b, HIDDEN, p], t.seats[b, CLEARED, p]
    for col in range(_COLUMNS.shape[0]):
        a, b_, c = _COLUMNS[col, 0], _COLUMNS[col, 1], _COLUMNS[col, 2]
        if (cl >> a) & 1:
            continue
        ha, hb, hc = (h >> a) & 1, (h >> b_) & 1, (h >> c) & 1
        down = ha + hb + hc
        if down == 3:
            floats[a] = ev
            if ev > best:
                best, best_k = ev, a
            if flip_k < 0:
                flip_k = a
            continue
        va, vb, vc = t.cells[b, p, a], t.cells[b, p, b_], t.cells[b, p, c]
        if down == 0:
            floats[a], floats[b_], floats[c] = va, vb, vc
            if va > best:
                best, best_k = va, a
            if vb > best:
                best, best_k = vb, b_
            if vc > best:
                best, best_k = vc, c
            if va == vb:
                count = _match(floats, ints, count, va, c, 3 * va)
            elif va == vc:
                count = _match(floats, ints, count, va, b_, 3 * va)
            elif vb == vc:
                count = _match(floats, ints, count, vb, a, 3 * vb)
            continue
        if down == 2:
            if not ha:
                k1, v1 = a, va
            elif not hb:
                k1, v1 = b_, vb
            else:
                k1, v1 = c, vc
            d = b_ if k1 == a else a
            floats[k1] = v1
            floats[d] = ev
            if v1 > best:
                best, best_k = v1, k1
            if ev > best:
                best, best_k = ev, d
            count = _match(floats, ints, count, v1, d, pair)
            if flip_k < 0:
                flip_k = d
            continue
        # one card face down: d, two face up: k1, k2
        if ha:
            d, k1, v1, k2, v2 = a, b_, vb, c, vc
        elif hb:
            d, k1, v1, k2, v2 = b_, a, va, c, vc
        else:
            d, k1, v1, k2, v2 = c, a, va, b_, vb
        floats[d] = ev
        if ev > best:
            best, best_k = ev, d
        if v1 == v2:
            floats[k1] = v1 - pair
            floats[k2] = v1 - pair
            if v1 - pair > best:
                best, best_k = v1 - pair, k1
            count = _match(floats, ints, count, v1, d, 3 * v1)
            flip_k = d
            flip_gain = prm[_FLIP_VALUE] + 0.1
        else:
            floats[k1], floats[k2] = v1, v2
            if v1 > best:
                best, best_k = v1, k1
            if v2 > best:
                best, best_k = v2, k2
            count = _match(floats, ints, count, v1, k2, pair)
            count = _match(floats, ints, count, v2, k1, pair)
            if flip_k < 0:
                flip_k = d
    return best, best_k, flip_k, flip_gain, count


@njit(cache=True)
def _near_end(t, b, prm, p, card, drawn):  # type: ignore[no-untyped-def]
    """`place_card` when seat p has one face-down card left, so that placing
    there or flipping it ends the round."""
    ev = prm[_HIDDEN_VALUE]
    pair = prm[_PAIR_BONUS]
    h = t.seats[b, HIDDEN, p]
    cl = t.seats[b, CLEARED, p]
    d = 0
    while not (h >> d) & 1:
        d += 1
    shown = 0  # p's face-up cards
    best = -1e9
    best_k = -1
    for k in range(GRID_SIZE):
        if (cl >> k) & 1 or k == d:
            continue
        v = t.cells[b, p, k]
        shown += v
        g = 1.0 * (v - card)
        a, b_ = _PARTNERS[k, 0], _PARTNERS[k, 1]
        if a == d or b_ == d:  # the other one is face up
            other = t.cells[b, p, b_] if a == d else t.cells[b, p, a]
            if other == card:
                g += pair
            elif v == other:
                g -= pair
        elif t.cells[b, p, a] == card and t.cells[b, p, b_] == card:
            g += 3 * card
        if g > best:
            best = g
            best_k = k
    # ending the round: exchange at d, or flip d
    a, b_ = _PARTNERS[d, 0], _PARTNERS[d, 1]
    completes = t.cells[b, p, a] == card and t.cells[b, p, b_] == card
    mine = shown - 2 * card if completes else shown + card
    g = ev - card + (3 * card if completes else 0) + _ending(t, b, prm, p, 1.0 * mine)
    if g > best:
        best = g
        best_k = d
    if drawn:
        g = prm[_FLIP_VALUE] + _ending(t, b, prm, p, shown + ev)
        if g > best:
            return d, g, True
    return best_k, best, False


@njit(cache=True)
def _ending(t, b, prm, p, mine):  # type: ignore[no-untyped-def]
    """What ending the round with about `mine` points is worth to seat p beyond
    the points the move saves: minus the expected doubling when p is unlikely
    to be the single lowest, else `end_bonus`."""
    n = t.slots[b, PLAYERS]
    if t.slots[b, TURNS] > prm[_PATIENCE] * n:  # no more stalling: rounds must end
        return prm[_END_BONUS]
    penalty = t.slots[b, PENALTY]
    if penalty == NONE or (penalty == POSITIVE and mine <= 0):
        return prm[_END_BONUS]
    ev = prm[_HIDDEN_VALUE]
    lowest = 1e9
    for o in range(n):
        if o == p:
            continue
        h = t.seats[b, HIDDEN, o]
        down = 0
        for k in range(GRID_SIZE):
            down += (h >> k) & 1
        est = ev * down - prm[_LAST_TURN_GAIN]
        gone = h | t.seats[b, CLEARED, o]
        for j in range(GRID_SIZE):
            if not (gone >> j) & 1:
                est += t.cells[b, o, j]
        if est < lowest:
            lowest = est
    if mine < lowest - prm[_END_MARGIN]:
        return prm[_END_BONUS]
    return -mine
