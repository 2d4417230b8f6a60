"""Decisions by a one-ply expectimax over the learned value (`skyjo.kernel.value`),
compiled: the `best` bot's thinking and the self-play's.

Every option of a decision is played on a scratch table, and where chance
follows (a card drawn from the deck, a face-down card turned up or exchanged
unseen) the option's worth is the mean over the 15 card values, each weighted
by its count among the unseen cards (the pools of `playout_expected.pools`:
the draw pool for a draw, the face-down pool for a face-down card; RULES.md
2.7 after a reshuffle). That belief is exact, as everyone shares it: the
search never looks at a face-down card, nor at the deck's order (a scratch
table's face-down cards and piles are overwritten with the value being
weighed before the kernel plays the move). After the move the turn passes
(`table.hand_on`) and the value of the public state that follows is read for
the deciding seat; a table left due (the round's final turns all played)
is valued as it is, before the final reveal (RULES.md 2.9).

Options alike by the rules' symmetries are valued once: two positions of a
grid whose columns are of one kind (`value.KIND`) and that hold the same
card, or are both face down, give the same state up to the order of rows and
columns. The first of the best (lowest action id) is played.

The start of a turn is valued in one of two ways (`DEPTH`):

- `SHALLOW`: taking the discard is worth its best placement (and its own
  chance), as the card in hand will be; drawing is worth the mean, over the
  draw pool, of the value with the drawn card in hand: the value itself
  judges a drawn card in hand (the network is trained on such states, met
  whatever the card). Not the discard in hand: that state is met only when
  a player chose to take it, and its value learned from those is too
  hopeful for a card nobody would take. About a hundred positions;
- `FULL`: each drawn card is searched one ply further too, over every
  placement (and its own chance): about a thousand positions.

`objective` (per decision): the chance to win the game, less `points` times
the expected round points / 100 (0: the win alone).
"""

from __future__ import annotations

import numpy as np
from numba import njit

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)
from skyjo.engine import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.kernel import table, value
from skyjo.kernel.table import (
    CLEARED,
    DISCARD_LEN,
    DRAW_END,
    DRAW_PILE,
    DRAW_TOP,
    HELD,
    HIDDEN,
    PHASE,
    PLAYER,
    PLAYERS,
    RESHUFFLES,
    SOURCE,
)
from skyjo.kernel.value import (
    COL0,
    DOWN,
    KINDS,
    LOWEST,
    POOL_DOWN,
    POOL_DRAW,
    RECORD,
    SYMBOLS,
    VALUES,
    forward,
    public,
)
from skyjo.rules import COLS, GRID_SIZE, MAX_PLAYERS

SHALLOW, FULL = 0, 1
_REVEAL = int(Phase.REVEAL)
_FINAL = int(Phase.FINAL_TURNS)
#: The most options a decision has: an exchange and a flip at each position.
MAX_OPTIONS = 2 * GRID_SIZE
#: Rows of the scratch `Tables` (`scratch_tables`): a card taken or drawn, a leaf.
MID, LEAF = 0, 1


def make_scratch(seats: int = MAX_PLAYERS):  # type: ignore[no-untyped-def]
    """(tables, record, ints, win, points, values): the work space of
    `decide`: two scratch tables of `seats` seats, a public record, `public`'s
    ints, a position's values per seat slot, and per option (win, points,
    action) of the last decision."""
    return (
        table.new_tables(2, seats),
        np.zeros(RECORD, np.int16),
        value.scratch(),
        np.zeros(MAX_PLAYERS, np.float32),
        np.zeros(MAX_PLAYERS, np.float32),
        np.zeros((MAX_OPTIONS + 2, 3), np.float64),
    )


@njit(cache=True)
def _leaf(net, s, r, me, rec, ints, wk, win, pts):  # type: ignore[no-untyped-def]
    """(win chance, round points) of seat `me` at scratch table r."""
    public(s, r, rec, ints)
    forward(net, rec, wk, win, pts)
    n = s.slots[r, PLAYERS]
    slot = (me - s.slots[r, PLAYER]) % n
    return win[slot], pts[slot]


@njit(cache=True)
def _probs(rec, at, out):  # type: ignore[no-untyped-def]
    """out[v]: the share of value v + LOWEST in the pool at rec[at:]."""
    total = 0
    for v in range(VALUES):
        total += rec[at + v]
    for v in range(VALUES):
        out[v] = rec[at + v] / total if total > 0 else 0.0


@njit(cache=True)
def force_draw(s, r, card):  # type: ignore[no-untyped-def]
    """Scratch table r draws `card` (a value of its draw pool): after a
    reshuffle the pile's cards are known, so one of that value is brought to
    the top; before one, the top is overwritten (the scratch pile's order and
    cards are never read). An empty pile is reshuffled first (RULES.md 2.7)."""
    top, end = s.slots[r, DRAW_TOP], s.slots[r, DRAW_END]
    if top == end:
        size = s.slots[r, DISCARD_LEN] - 1
        perm = np.arange(size)
        table.reshuffle_perm(s, r, perm)
        top, end = s.slots[r, DRAW_TOP], s.slots[r, DRAW_END]
    if s.slots[r, RESHUFFLES] > 0:
        for i in range(top, end):
            if s.piles[r, DRAW_PILE, i] == card:
                s.piles[r, DRAW_PILE, i] = s.piles[r, DRAW_PILE, top]
                break
    s.piles[r, DRAW_PILE, top] = card
    table.draw(s, r)


@njit(cache=True)
def _lay(src, sb, s, p, k, card, kind):  # type: ignore[no-untyped-def]
    """Scratch table LEAF of `s`: table sb of `src` after player p's move at k,
    the card there being `card` first (NO_CARD: as it is). `kind`: REVEAL (an
    opening reveal), SWAP (an exchange) or FLIP (discard and turn up), the
    turn then handed on (`table.hand_on`)."""
    table.copy_table(src, sb, s, LEAF)
    if card != table.NO_CARD:
        s.cells[LEAF, p, k] = card
    if kind == REVEAL:
        table.reveal(s, LEAF, k)
    else:
        table.move(s, LEAF, k, kind == FLIP)
        table.hand_on(s, LEAF)


@njit(cache=True)
def _weighed(net, src, sb, s, p, k, kind, down, rec, ints, wk, win, pts):  # type: ignore[no-untyped-def]
    """(win, points) for seat p of its move at k (`_lay`'s `kind`) at table sb
    of `src`, over the face-down pool `down` when k is face down."""
    if not (src.seats[sb, HIDDEN, p] >> k) & 1:
        _lay(src, sb, s, p, k, table.NO_CARD, kind)
        return _leaf(net, s, LEAF, p, rec, ints, wk, win, pts)
    w_sum, p_sum = 0.0, 0.0
    for v in range(VALUES):
        if down[v] == 0.0:
            continue
        _lay(src, sb, s, p, k, v + LOWEST, kind)
        w, q = _leaf(net, s, LEAF, p, rec, ints, wk, win, pts)
        w_sum += down[v] * w
        p_sum += down[v] * q
    return w_sum, p_sum


@njit(cache=True)
def place(net, src, sb, s, rec, ints, wk, win, pts, weight, values):  # type: ignore[no-untyped-def]
    """The best placement of the card in hand of the player to act at table sb
    of `src`: (action, win, points) by the objective (`weight`: points per
    100 taken off the win). values[i] = (win, points, action) of each option
    valued (the rest -1 in the action), in action order."""
    p = src.slots[sb, PLAYER]
    public(src, sb, rec, ints)
    down = np.zeros(VALUES)
    _probs(rec, POOL_DOWN, down)
    kinds = np.zeros(COLS, np.int64)
    for c in range(COLS):
        kinds[c] = rec[COL0 + c]
    hidden, cleared = src.seats[sb, HIDDEN, p], src.seats[sb, CLEARED, p]
    drawn = src.slots[sb, SOURCE] == DRAW
    seen = np.zeros((2, KINDS * SYMBOLS), np.bool_)
    best, best_w, best_p, best_a = -1e30, 0.0, 0.0, -1
    count = 0
    for flip in (False, True):
        if flip and not drawn:
            continue
        for k in range(GRID_SIZE):
            if (cleared >> k) & 1:
                continue
            down_k = (hidden >> k) & 1
            if flip and not down_k:
                continue
            sym = DOWN if down_k else src.cells[sb, p, k] - LOWEST
            key = kinds[k % COLS] * SYMBOLS + sym
            if seen[int(flip), key]:
                continue
            seen[int(flip), key] = True
            kind = FLIP if flip else SWAP
            w, q = _weighed(net, src, sb, s, p, k, kind, down, rec, ints, wk, win, pts)
            action = (FLIP if flip else SWAP) + k
            if count < values.shape[0]:
                values[count, 0], values[count, 1], values[count, 2] = w, q, action
                count += 1
            score = w - weight * q / 100.0
            if score > best:
                best, best_w, best_p, best_a = score, w, q, action
    for i in range(count, values.shape[0]):
        values[i, 2] = -1
    return best_a, best_w, best_p


@njit(cache=True)
def start(net, src, sb, s, rec, ints, wk, win, pts, weight, depth, values):  # type: ignore[no-untyped-def]
    """The start of a turn of the player to act at table sb: TAKE_DISCARD or
    DRAW by the objective; values[0] and values[1]: (win, points, action) of
    each. `depth`: SHALLOW or FULL (see the module)."""
    p = src.slots[sb, PLAYER]
    public(src, sb, rec, ints)
    drawable = np.zeros(VALUES)
    _probs(rec, POOL_DRAW, drawable)
    inner = np.zeros((MAX_OPTIONS, 3))
    table.copy_table(src, sb, s, MID)
    table.take_discard(s, MID)
    _, tw, tp = place(net, s, MID, s, rec, ints, wk, win, pts, weight, inner)
    dw, dp = 0.0, 0.0
    for v in range(VALUES):
        if drawable[v] == 0.0:
            continue
        table.copy_table(src, sb, s, MID)
        force_draw(s, MID, v + LOWEST)
        if depth == FULL:
            _, w, q = place(net, s, MID, s, rec, ints, wk, win, pts, weight, inner)
        else:
            w, q = _leaf(net, s, MID, p, rec, ints, wk, win, pts)
        dw += drawable[v] * w
        dp += drawable[v] * q
    values[0, 0], values[0, 1], values[0, 2] = tw, tp, TAKE_DISCARD
    values[1, 0], values[1, 1], values[1, 2] = dw, dp, DRAW
    for i in range(2, values.shape[0]):
        values[i, 2] = -1
    if tw - weight * tp / 100.0 > dw - weight * dp / 100.0:
        return TAKE_DISCARD
    return DRAW


@njit(cache=True)
def reveal(net, src, sb, s, rec, ints, wk, win, pts, weight, values):  # type: ignore[no-untyped-def]
    """The opening reveal (RULES.md 2.3) of the player to act at table sb: the
    face-down position whose turning up is worth most, over the face-down pool."""
    p = src.slots[sb, PLAYER]
    public(src, sb, rec, ints)
    down = np.zeros(VALUES)
    _probs(rec, POOL_DOWN, down)
    hidden = src.seats[sb, HIDDEN, p]
    seen = np.zeros(KINDS, np.bool_)
    best, best_a, count = -1e30, -1, 0
    for k in range(GRID_SIZE):
        if not (hidden >> k) & 1:
            continue
        kind = rec[COL0 + k % COLS]
        if seen[kind]:
            continue
        seen[kind] = True
        w_sum, p_sum = _weighed(net, src, sb, s, p, k, REVEAL, down, rec, ints, wk, win, pts)
        if count < values.shape[0]:
            values[count, 0], values[count, 1], values[count, 2] = w_sum, p_sum, REVEAL + k
            count += 1
        score = w_sum - weight * p_sum / 100.0
        if score > best:
            best, best_a = score, REVEAL + k
    for i in range(count, values.shape[0]):
        values[i, 2] = -1
    return best_a


@njit(cache=True)
def decide(net, t, b, s, rec, ints, wk, win, pts, weight, depth, values):  # type: ignore[no-untyped-def]
    """The action of the player to act at table b (a reveal, the start of a
    turn, or a placement: `reveal`, `start`, `place`); values: each option's
    (win, points, action) for that player."""
    if t.slots[b, PHASE] == _REVEAL:
        return reveal(net, t, b, s, rec, ints, wk, win, pts, weight, values)
    if t.slots[b, HELD] == table.NO_CARD:
        return start(net, t, b, s, rec, ints, wk, win, pts, weight, depth, values)
    return place(net, t, b, s, rec, ints, wk, win, pts, weight, values)[0]


@njit(cache=True)
def option_value(net, t, b, s, rec, ints, wk, win, pts, action, values):  # type: ignore[no-untyped-def]
    """(win, points) of `action` at the decision `decide` valued last (its
    `values`): read there, or valued now (an option alike to one valued)."""
    for i in range(values.shape[0]):
        if values[i, 2] == action:
            return values[i, 0], values[i, 1]
    p = t.slots[b, PLAYER]
    public(t, b, rec, ints)
    down = np.zeros(VALUES)
    _probs(rec, POOL_DOWN, down)
    kind, k = _kind_of(action)
    return _weighed(net, t, b, s, p, k, kind, down, rec, ints, wk, win, pts)


@njit(cache=True)
def guarded(net, t, b, s, rec, ints, wk, win, pts, weight, depth, values, prior, margin):  # type: ignore[no-untyped-def]
    """`decide`, but the `prior` action is played unless the best option beats
    it by more than `margin` in the objective."""
    best = decide(net, t, b, s, rec, ints, wk, win, pts, weight, depth, values)
    return guarded_choice(
        net, t, b, s, rec, ints, wk, win, pts, weight, values, best, prior, margin
    )


@njit(cache=True)
def guarded_choice(net, t, b, s, rec, ints, wk, win, pts, weight, values, best, prior, margin):  # type: ignore[no-untyped-def]
    """`best` (the choice of `decide`, whose `values` these are) if it beats
    `prior` by more than `margin` in the objective, else `prior`."""
    if best == prior:
        return best
    bw, bq = option_value(net, t, b, s, rec, ints, wk, win, pts, best, values)
    pw, pq = option_value(net, t, b, s, rec, ints, wk, win, pts, prior, values)
    if (bw - weight * bq / 100.0) - (pw - weight * pq / 100.0) > margin:
        return best
    return prior


@njit(cache=True)
def table_values(net, t, order, me, out, rec, ints, wk, win, pts):  # type: ignore[no-untyped-def]
    """out[b], for each table b of `order` whose round is still in play (a
    reveal or a turn, no card in hand, or due): seat `me`'s chance to win by
    the value; the others are left as they are."""
    for j in range(len(order)):
        b = order[j]
        phase = t.slots[b, PHASE]
        if phase > _FINAL or t.slots[b, HELD] != table.NO_CARD:
            continue
        out[b] = _leaf(net, t, b, me, rec, ints, wk, win, pts)[0]


@njit(cache=True)
def _kind_of(action):  # type: ignore[no-untyped-def]
    """(`_lay`'s kind, position) of a reveal, an exchange or a discard-and-flip."""
    if action >= FLIP:
        return FLIP, action - FLIP
    if action >= SWAP:
        return SWAP, action - SWAP
    return REVEAL, action - REVEAL


@njit(cache=True)
def known_values(net, t, b, s, rec, ints, wk, win, pts, action, card, out):  # type: ignore[no-untyped-def]
    """Every seat's (win, points) just after the player to act at table b
    plays `action` (an opening reveal or a placement), the face-down card it
    turns up (if any) being `card`: chance resolved, where `option_value`
    weighs it (the coach's luck, `skyjo.analysis`). out[q] = (win, points) of
    seat q; the position is left at scratch table LEAF of `s`."""
    kind, k = _kind_of(action)
    hidden = (t.seats[b, HIDDEN, t.slots[b, PLAYER]] >> k) & 1
    _lay(t, b, s, t.slots[b, PLAYER], k, card if hidden else table.NO_CARD, kind)
    seat_values(net, s, LEAF, rec, ints, wk, win, pts, out)


@njit(cache=True)
def seat_values(net, t, b, rec, ints, wk, win, pts, out):  # type: ignore[no-untyped-def]
    """Every seat's (win, points) at table b by the value: out[q] for seat q."""
    public(t, b, rec, ints)
    forward(net, rec, wk, win, pts)
    n = t.slots[b, PLAYERS]
    for q in range(n):
        slot = (q - t.slots[b, PLAYER]) % n
        out[q, 0], out[q, 1] = win[slot], pts[slot]
