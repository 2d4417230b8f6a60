"""The playout policy of `skyjo.bots.rollout`, compiled with Numba.

`play_out(table)` plays a `Table` to the end of its round exactly as
`Table.play_out_reference` does, move for move, but faster (33 against 185
microseconds a playout, measured on mid-round tables of 2 to 5 players):
the table is copied into small integer arrays and a compiled kernel plays the
turns. The kernel has no random numbers of its own. When a player must draw
from an empty draw pile it stops before that turn, and Python reshuffles the
discard pile with the table's own `random.Random` (RULES.md 2.7), as the
reference does; the turn is then played again from its start, which is
deterministic. So a seeded search makes the same moves with either
implementation, and tests check that they agree.

Every card value is a small integer, so the policy's float arithmetic (in the
same order as the reference) gives the same numbers in both.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.rules import CARD_VALUES, COLS, GRID_SIZE

if TYPE_CHECKING:
    from skyjo.bots.rollout import Table

#: `held` when no card is held.
NO_CARD = -100
#: What the kernel returns: the round is over, or the draw pile must be reshuffled.
OVER = 0
RESHUFFLE = 1
#: A status to start playing from (neither of the above).
PLAY = 2
#: Slots of the integer state array.
N, PLAYER, ENDER, HELD, SOURCE, TURNS, PENALTY, NDRAW, NDISC = range(9)
NSLOTS = 9
#: `ender_penalty` codes (RULES.md 2.10).
PENALTIES = {"none": 0, "positive": 1, "always": 2}
#: The capacity of the pile arrays: more than every card of the deck (150).
PILE = 160
#: A `placing` array (see `play_move`) holds card c's action at c - LOWEST_CARD.
LOWEST_CARD = min(CARD_VALUES)
PLACING_SIZE = max(CARD_VALUES) - LOWEST_CARD + 1

_ROWS = GRID_SIZE // COLS
_OTHERS = np.array(
    [((k + COLS) % GRID_SIZE, (k + 2 * COLS) % GRID_SIZE) for k in range(GRID_SIZE)],
    dtype=np.int64,
)
_COLUMN_OF = np.array(
    [sum(1 << (k % COLS + COLS * r) for r in range(_ROWS)) for k in range(GRID_SIZE)],
    dtype=np.int64,
)


class Packed:
    """A table as one integer array, the kernel's (see `Table.pack`): the state
    slots (`N`...`NDISC`), then the raw scores, the face-down and cleared
    masks (a seat each), the 12 cards of each seat, the draw pile and the
    discard pile (tops last). `copy` it before playing a move."""

    __slots__ = ("buf", "params")

    def __init__(self, t: Table, patience: int, give_up: int) -> None:
        n = t.n
        buf = self.buf = np.zeros(_size(n), dtype=np.int64)
        held = NO_CARD if t.held is None else t.held
        buf[:NSLOTS] = (n, t.player, t.ender, held, t.source, t.turns, PENALTIES[t.penalty], 0, 0)
        vals, hid, clr, draw, disc, st, _ = _views(buf)
        vals[:] = t.vals
        hid[:], clr[:] = t.hid, t.clr
        draw[: len(t.draw)] = t.draw
        disc[: len(t.disc)] = t.disc
        st[NDRAW], st[NDISC] = len(t.draw), len(t.disc)
        pol = t.policy
        self.params = np.array(
            (
                pol.hidden_value,
                pol.take_threshold,
                pol.flip_value,
                pol.pair_bonus,
                pol.end_margin,
                pol.end_bonus,
                pol.last_turn_gain,
                patience,
                give_up,
            )
        )

    def copy(self) -> Packed:
        """An independent copy (the parameters are shared: they never change)."""
        other = Packed.__new__(Packed)
        other.buf = self.buf.copy()
        other.params = self.params
        return other

    def reshuffle(self, rng: random.Random) -> None:
        """The draw pile is empty: all the discard pile but its top card, shuffled
        by `rng` as `Table.draw_card` does, becomes the draw pile (RULES.md 2.7)."""
        _, _, _, draw, disc, st, _ = _views(self.buf)
        size = int(st[NDISC])
        pile = disc[: size - 1].tolist()
        rng.shuffle(pile)
        draw[: len(pile)] = pile
        disc[0] = disc[size - 1]
        st[NDRAW], st[NDISC] = len(pile), 1

    def finish(self, status: int, rng: random.Random) -> list[int]:
        """Play on to the end of the round from a kernel's `status` (or from PLAY);
        the raw scores."""
        if status == PLAY:
            status = _kernel(self.buf, self.params)
        while status == RESHUFFLE:
            self.reshuffle(rng)
            status = _kernel(self.buf, self.params)
        n = int(self.buf[N])
        return self.buf[NSLOTS : NSLOTS + n].tolist()

    @property
    def ender(self) -> int:
        return int(self.buf[ENDER])

    @property
    def turns(self) -> int:
        return int(self.buf[TURNS])


def play_out(t: Table, patience: int, give_up: int) -> list[int]:
    """Play table `t` to the end of its round with its policy (updating `t` as
    the reference does), the players no longer avoiding its end after
    `patience` turns each, and stopping after `give_up`; every seat's raw
    round score."""
    packed = Packed(t, patience, give_up)
    raw = packed.finish(PLAY, t.rng)
    vals, hid, clr, draw, disc, st, _ = _views(packed.buf)
    t.vals, t.hid, t.clr = vals.tolist(), hid.tolist(), clr.tolist()
    t.draw = draw[: st[NDRAW]].tolist()
    t.disc = disc[: st[NDISC]].tolist()
    t.player, t.ender, t.turns = int(st[PLAYER]), int(st[ENDER]), int(st[TURNS])
    t.held, t.source = None, -1
    return raw


def play_move(
    world: Packed, move: tuple[int, int], placing: np.ndarray, rng: random.Random
) -> tuple[list[int], Packed]:
    """Play one move at a copy of `world`, then the rest of the round as
    `Table.play_out` would: the raw scores, and the copy (for its `ender` and
    `turns`). Reshuffles draw from `rng`.

    `move` is (DRAW, 0): draw, then put the card where `placing[card - LOWEST_CARD]` says
    (a SWAP or FLIP action), or where the policy would when that is -1; or
    (TAKE_DISCARD, action): take the discard and make that SWAP action; or
    (action, 0): place the held card by that SWAP or FLIP action."""
    t = world.copy()
    action, arg = move
    if action == DRAW and t.buf[NDRAW] == 0:
        t.reshuffle(rng)
    return t.finish(_move_kernel(t.buf, t.params, action, arg, placing), rng), t


def no_placing() -> np.ndarray:
    """A `placing` array that leaves every drawn card to the policy."""
    return np.full(PLACING_SIZE, -1, dtype=np.int64)


def _size(n: int) -> int:
    """The length of a `Packed` array for n players."""
    return NSLOTS + 3 * n + GRID_SIZE * n + 2 * PILE


@njit(cache=True)
def _views(buf):  # type: ignore[no-untyped-def]
    """The parts of a `Packed` array: cards (n x 12), face-down and cleared masks,
    draw pile, discard pile, state slots, raw scores."""
    n = buf[N]
    raw = buf[NSLOTS : NSLOTS + n]
    hid = buf[NSLOTS + n : NSLOTS + 2 * n]
    clr = buf[NSLOTS + 2 * n : NSLOTS + 3 * n]
    at = NSLOTS + 3 * n
    vals = buf[at : at + GRID_SIZE * n].reshape((n, GRID_SIZE))
    at += GRID_SIZE * n
    return vals, hid, clr, buf[at : at + PILE], buf[at + PILE : at + 2 * PILE], buf[:NSLOTS], raw


@njit(cache=True)
def _scratch():  # type: ignore[no-untyped-def]
    """Work arrays for `_analyse`: prices, then the matches' values, positions, extras."""
    return (
        np.zeros(GRID_SIZE),
        np.zeros(3 * GRID_SIZE, dtype=np.int64),
        np.zeros(3 * GRID_SIZE, dtype=np.int64),
        np.zeros(3 * GRID_SIZE),
    )


@njit(cache=True)
def _kernel(buf, prm):  # type: ignore[no-untyped-def]
    """Place a held card as the policy would, then play turns until the round is
    over (OVER, with the raw scores filled) or a player must draw from an empty
    draw pile (RESHUFFLE, before that turn)."""
    vals, hid, clr, draw, disc, st, raw = _views(buf)
    scratch = _scratch()
    if st[HELD] != NO_CARD:
        drawn = st[SOURCE] == DRAW
        k, _, flip = _choose(vals, hid, clr, st, prm, st[PLAYER], st[HELD], drawn, scratch)
        if _place(vals, hid, clr, disc, st, k, flip):
            _raw_scores(vals, clr, st[N], raw)
            return OVER
    return _turns(vals, hid, clr, draw, disc, st, prm, raw, scratch)


@njit(cache=True)
def _move_kernel(buf, prm, action, arg, placing):  # type: ignore[no-untyped-def]
    """Play one move (see `play_move`), then turns as `_kernel` does."""
    vals, hid, clr, draw, disc, st, raw = _views(buf)
    scratch = _scratch()
    if action == DRAW:
        card = _draw(draw, st)
        placed = placing[card - LOWEST_CARD]
        if placed < 0:
            k, _, flip = _choose(vals, hid, clr, st, prm, st[PLAYER], card, True, scratch)
        else:
            flip = placed >= FLIP
            k = placed - FLIP if flip else placed - SWAP
    elif action == TAKE_DISCARD:
        st[NDISC] -= 1
        st[HELD], st[SOURCE] = disc[st[NDISC]], TAKE_DISCARD
        flip, k = False, arg - SWAP
    else:
        flip = action >= FLIP
        k = action - FLIP if flip else action - SWAP
    if _place(vals, hid, clr, disc, st, k, flip):
        _raw_scores(vals, clr, st[N], raw)
        return OVER
    return _turns(vals, hid, clr, draw, disc, st, prm, raw, scratch)


@njit(cache=True)
def _turns(vals, hid, clr, draw, disc, st, prm, raw, scratch):  # type: ignore[no-untyped-def]
    """Play whole turns: OVER (with `raw` filled) or RESHUFFLE (see `_kernel`)."""
    while True:
        done = _turn(vals, hid, clr, draw, disc, st, prm, scratch)
        if done < 0:
            return RESHUFFLE
        if not done and st[TURNS] >= prm[8] * st[N]:
            if st[ENDER] < 0:
                st[ENDER] = st[PLAYER]
            done = 1
        if done:
            _raw_scores(vals, clr, st[N], raw)
            return OVER


@njit(cache=True)
def _turn(vals, hid, clr, draw, disc, st, prm, scratch):  # type: ignore[no-untyped-def]
    """One whole turn of the player to act (`Table.play_turn`): 1 when the
    round is over, 0 when not, -1 (nothing done) when the draw pile is empty."""
    p = st[PLAYER]
    h = hid[p]
    top = disc[st[NDISC] - 1]
    near = st[ENDER] < 0 and h != 0 and (h & (h - 1)) == 0  # the move may end the round
    best, best_k, flip_k, flip_gain, count = -1e9, -1, -1, 0.0, 0
    if near:
        k, gain, flip = _near_end(vals, hid, clr, st, prm, p, top, False)
    else:
        best, best_k, flip_k, flip_gain, count = _analyse(vals, hid, clr, st, prm, p, scratch)
        k, gain = _best(scratch, best, best_k, count, top)
    if gain >= prm[1]:  # take the discard
        st[NDISC] -= 1
        st[HELD], st[SOURCE] = top, TAKE_DISCARD
        flip = False
    else:
        if st[NDRAW] == 0:
            return -1
        card = _draw(draw, st)
        if near:
            k, gain, flip = _near_end(vals, hid, clr, st, prm, p, card, True)
        else:
            k, gain = _best(scratch, best, best_k, count, card)
            flip = h != 0 and gain < flip_gain
            if flip:
                k = flip_k
    return 1 if _place(vals, hid, clr, disc, st, k, flip) else 0


@njit(cache=True)
def _draw(draw, st):  # type: ignore[no-untyped-def]
    """Draw the top of the (non-empty) draw pile into the player's hand."""
    st[NDRAW] -= 1
    card = draw[st[NDRAW]]
    st[HELD], st[SOURCE] = card, DRAW
    return card


@njit(cache=True)
def _place(vals, hid, clr, disc, st, k, flip):  # type: ignore[no-untyped-def]
    """`Table.place`: exchange the held card with position k, or discard it and
    flip k; clear a completed column; pass the turn. True when the round is over."""
    p = st[PLAYER]
    held = st[HELD]
    st[HELD], st[SOURCE] = NO_CARD, -1
    st[TURNS] += 1
    h = hid[p] & ~(1 << k)
    hid[p] = h
    if flip:
        disc[st[NDISC]] = held
    else:
        disc[st[NDISC]] = vals[p, k]
        vals[p, k] = held
    st[NDISC] += 1
    a, b = _OTHERS[k, 0], _OTHERS[k, 1]
    v = vals[p, k]
    if not ((h >> a) & 1 or (h >> b) & 1) and vals[p, a] == v and vals[p, b] == v:
        clr[p] |= _COLUMN_OF[k]
        for _ in range(3):
            disc[st[NDISC]] = v
            st[NDISC] += 1
    if st[ENDER] < 0 and h == 0:
        st[ENDER] = p
    following = p + 1 if p + 1 < st[N] else 0
    st[PLAYER] = following
    return following == st[ENDER]


@njit(cache=True)
def _raw_scores(vals, clr, n, raw):  # type: ignore[no-untyped-def]
    """`Table.raw_scores`: every seat's raw round score (RULES.md 2.9)."""
    for p in range(n):
        score = 0
        for c in range(COLS):
            if (clr[p] >> c) & 1:
                continue
            va, vb, vc = vals[p, c], vals[p, c + COLS], vals[p, c + 2 * COLS]
            if not (va == vb and vb == vc):
                score += va + vb + vc
        raw[p] = score


@njit(cache=True)
def _choose(vals, hid, clr, st, prm, p, card, drawn, scratch):  # type: ignore[no-untyped-def]
    """`Table.choose`: where the policy puts `card`, what that saves, and
    whether it is a discard-and-flip."""
    h = hid[p]
    if not (st[ENDER] < 0 and h != 0 and (h & (h - 1)) == 0):
        best, best_k, flip_k, flip_gain, count = _analyse(vals, hid, clr, st, prm, p, scratch)
        k, gain = _best(scratch, best, best_k, count, card)
        if drawn and h != 0 and gain < flip_gain:
            return flip_k, flip_gain, True
        return k, gain, False
    return _near_end(vals, hid, clr, st, prm, p, card, drawn)


@njit(cache=True)
def _best(scratch, best, best_k, count, card):  # type: ignore[no-untyped-def]
    """`rollout._best`: where `card` saves most in an analysed grid, and how much."""
    base, mval, mpos, mextra = scratch
    gain = best - card
    k = best_k
    for i in range(count):
        if mval[i] == card:
            g = base[mpos[i]] - card + mextra[i]
            if g > gain:
                gain, k = g, mpos[i]
    return k, gain


@njit(cache=True)
def _match(scratch, count, value, k, extra):  # type: ignore[no-untyped-def]
    """Note that a card of `value` at position k earns `extra`; the new count."""
    _, mval, mpos, mextra = scratch
    mval[count], mpos[count], mextra[count] = value, k, extra
    return count + 1


@njit(cache=True)
def _analyse(vals, hid, clr, st, prm, p, scratch):  # type: ignore[no-untyped-def]
    """`Table._analyse` for seat p, into `scratch`: the best-priced position and
    its price, the position to flip and its worth, and the number of matches."""
    base = scratch[0]
    base[:] = 0.0
    ev = prm[0]
    pair = 0.0 if st[ENDER] >= 0 else prm[3]
    count = 0
    best = -1e9
    best_k = -1
    flip_k = -1
    flip_gain = prm[2]
    h, cl = hid[p], clr[p]
    for a in range(COLS):
        b, c = a + COLS, a + 2 * COLS
        if (cl >> a) & 1:
            continue
        ha, hb, hc = (h >> a) & 1, (h >> b) & 1, (h >> c) & 1
        down = ha + hb + hc
        if down == 3:
            base[a] = ev
            if ev > best:
                best, best_k = ev, a
            if flip_k < 0:
                flip_k = a
            continue
        va, vb, vc = vals[p, a], vals[p, b], vals[p, c]
        if down == 0:
            base[a], base[b], base[c] = va, vb, vc
            if va > best:
                best, best_k = va, a
            if vb > best:
                best, best_k = vb, b
            if vc > best:
                best, best_k = vc, c
            if va == vb:
                count = _match(scratch, count, va, c, 3 * va)
            elif va == vc:
                count = _match(scratch, count, va, b, 3 * va)
            elif vb == vc:
                count = _match(scratch, count, vb, a, 3 * vb)
            continue
        if down == 2:
            if not ha:
                k1, v1 = a, va
            elif not hb:
                k1, v1 = b, vb
            else:
                k1, v1 = c, vc
            d = b if k1 == a else a
            base[k1] = v1
            base[d] = ev
            if v1 > best:
                best, best_k = v1, k1
            if ev > best:
                best, best_k = ev, d
            count = _match(scratch, count, v1, d, pair)
            if flip_k < 0:
                flip_k = d
            continue
        # one card face down: d, two face up: k1, k2
        if ha:
            d, k1, v1, k2, v2 = a, b, vb, c, vc
        elif hb:
            d, k1, v1, k2, v2 = b, a, va, c, vc
        else:
            d, k1, v1, k2, v2 = c, a, va, b, vb
        base[d] = ev
        if ev > best:
            best, best_k = ev, d
        if v1 == v2:
            base[k1] = v1 - pair
            base[k2] = v1 - pair
            if v1 - pair > best:
                best, best_k = v1 - pair, k1
            count = _match(scratch, count, v1, d, 3 * v1)
            flip_k = d
            flip_gain = prm[2] + 0.1
        else:
            base[k1], base[k2] = v1, v2
            if v1 > best:
                best, best_k = v1, k1
            if v2 > best:
                best, best_k = v2, k2
            count = _match(scratch, count, v1, k2, pair)
            count = _match(scratch, count, v2, k1, pair)
            if flip_k < 0:
                flip_k = d
    return best, best_k, flip_k, flip_gain, count


@njit(cache=True)
def _near_end(vals, hid, clr, st, prm, p, card, drawn):  # type: ignore[no-untyped-def]
    """`Table._choose_near_end`: `_choose` when seat p has one face-down card
    left, so that placing there or flipping it ends the round."""
    ev = prm[0]
    pair = prm[3]
    h = hid[p]
    d = 0
    while not (h >> d) & 1:
        d += 1
    shown = 0
    best = -1e9
    best_k = -1
    for k in range(GRID_SIZE):
        if (clr[p] >> k) & 1 or k == d:
            continue
        v = vals[p, k]
        shown += v
        g = 1.0 * (v - card)
        a, b = _OTHERS[k, 0], _OTHERS[k, 1]
        if a == d or b == d:  # the other one is face up
            other = vals[p, b] if a == d else vals[p, a]
            if other == card:
                g += pair
            elif v == other:
                g -= pair
        elif vals[p, a] == card and vals[p, b] == card:
            g += 3 * card
        if g > best:
            best = g
            best_k = k
    # ending the round: exchange at d, or flip d
    a, b = _OTHERS[d, 0], _OTHERS[d, 1]
    completes = vals[p, a] == card and vals[p, b] == card
    mine = shown - 2 * card if completes else shown + card
    g = ev - card + (3 * card if completes else 0) + _ending(vals, hid, clr, st, prm, p, 1.0 * mine)
    if g > best:
        best = g
        best_k = d
    if drawn:
        g = prm[2] + _ending(vals, hid, clr, st, prm, p, shown + ev)
        if g > best:
            return d, g, True
    return best_k, best, False


@njit(cache=True)
def _ending(vals, hid, clr, st, prm, p, mine):  # type: ignore[no-untyped-def]
    """`Table._ending`: what ending the round with about `mine` points is worth to
    seat p beyond the points the move saves."""
    n = st[N]
    if st[TURNS] > prm[7] * n:  # no more stalling: rounds must end
        return prm[5]
    if st[PENALTY] == 0 or (st[PENALTY] == 1 and mine <= 0):
        return prm[5]
    ev = prm[0]
    lowest = 1e9
    for o in range(n):
        if o == p:
            continue
        h = hid[o]
        down = 0
        for k in range(GRID_SIZE):
            down += (h >> k) & 1
        est = ev * down - prm[6]
        gone = h | clr[o]
        for j in range(GRID_SIZE):
            if not (gone >> j) & 1:
                est += vals[o, j]
        if est < lowest:
            lowest = est
    if mine < lowest - prm[4]:
        return prm[5]
    return -mine
