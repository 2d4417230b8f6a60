"""The learned value of a public Skyjo state, compiled: what a position is worth
to every seat, from what every seat sees.

Skyjo has no private information that matters to a position's worth: a
face-down card is hidden from its owner too and every drawn card ends face
up (RULES.md 2.5), so all players share one belief, the multiset of unseen
cards. The value `V(s)` of a public state is then each seat's chance to win
the game and its expected points for the round, and a search over the draw
(the 15 card values weighted by the unseen counts) with `V` at its leaves is
exact up to `V`'s own error (`skyjo.kernel.expectimax`).

A position is written in two steps:

1. `public(t, b, out)`: the *public record* of table b, int16 numbers that
   are everything a seat may see and nothing more (`RECORD` fields): per seat
   slot, relative to the player to act (slot j is the seat j places after it,
   RULES.md 1), the kinds of its four columns, its total, the sum and number
   of its face-up and face-down cards, and flags; then the two pools of
   unseen cards (face-down cards and the draw pile, which differ only after a
   reshuffle, RULES.md 2.7), the discard pile's top, the card in hand, the
   phase and the rules. A table that `table.hand_on` left *due* (every final
   turn played, the final reveal not yet done, RULES.md 2.9) is a phase of
   its own. The training data are these records (`skyjo.kernel.selfplay`).
2. `features(record, cols, ctx, glob)`: the network's inputs.

**Symmetries.** Columns are interchangeable and so are the rows of a column
(RULES.md 2.6 clears a column whatever the order of its cards), so a column is
one of `KINDS` kinds: a multiset of three cells, each face down or a value
(816), or cleared. A seat's grid enters the network as the sum of its four
columns' learned embeddings (`E`), which sees the grid exactly as the rules
do and nothing else: a 12-card grid has 12! orders and 4! x 6^4 symmetries,
and this encoding needs to learn none of them. Seats share weights: a seat's
embedding (`E`, then `W2`) reads its grid only; the third layer adds its
place at the table and score (`ctx`), the mean embedding of the other seats
and the shared facts (`glob`); each seat's win logit and round points come
from it, and the win chances are a softmax over the seats present, so one
network plays any table of 2 to 8.

`Net` holds the weights (`skyjo.kernel.value.load`, file format `FORMAT`);
`forward` evaluates one position, `evaluate` many.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)
from skyjo.engine import DRAW, Phase
from skyjo.kernel import playout_expected, valuation
from skyjo.kernel.table import (
    CLEARED,
    DISCARD_LEN,
    DISCARD_PILE,
    DRAW_END,
    DRAW_TOP,
    ENDER,
    HELD,
    HIDDEN,
    LAST_ENDER,
    NO_CARD,
    PENALTY,
    PHASE,
    PLAYER,
    PLAYERS,
    SOURCE,
    STARTER,
    TARGET,
    TOTALS,
    TURNS,
)
from skyjo.rules import CARD_VALUES, COLS, COLUMNS, DECK_SIZE, GRID_SIZE, MAX_PLAYERS

#: The format of a value file (`meta["format"]`).
FORMAT = "skyjo-value/1"

LOWEST = min(CARD_VALUES)
VALUES = len(CARD_VALUES)
#: A cell's symbol in a column's kind: a card value v is v - LOWEST, face down DOWN.
DOWN = VALUES
SYMBOLS = VALUES + 1


def _kinds() -> np.ndarray:
    """KIND[x, y, z]: the kind of a column of cells with symbols x, y, z (any
    order): the rank of the sorted triple among all multisets of three symbols."""
    kind = np.zeros((SYMBOLS, SYMBOLS, SYMBOLS), np.int16)
    rank = 0
    for x in range(SYMBOLS):
        for y in range(x, SYMBOLS):
            for z in range(y, SYMBOLS):
                for a, b_, c in ((x, y, z), (x, z, y), (y, x, z), (y, z, x), (z, x, y), (z, y, x)):
                    kind[a, b_, c] = rank
                rank += 1
    return kind


KIND = _kinds()
#: A cleared column's kind, and the number of kinds (816 multisets and it).
CLEARED_KIND = int(KIND.max()) + 1
KINDS = CLEARED_KIND + 1


def _kind_cells() -> np.ndarray:
    """KIND_CELLS[kind]: the three symbols of a column kind, sorted (a cleared one: DOWN)."""
    cells = np.full((KINDS, 3), DOWN, np.int64)
    for x in range(SYMBOLS):
        for y in range(x, SYMBOLS):
            for z in range(y, SYMBOLS):
                cells[KIND[x, y, z]] = (x, y, z)
    return cells


KIND_CELLS = _kind_cells()
_COLUMN_CELLS = np.array(COLUMNS, np.int64)

# --- the public record --------------------------------------------------------------

#: Per seat slot: the four columns' kinds, the total, the face-up cards' sum,
#: the face-down cards' number, and FLAGS.
COL0, SEAT_TOTAL, UP_SUM, N_DOWN, FLAGS = 0, COLS, COLS + 1, COLS + 2, COLS + 3
SLOT = COLS + 4
#: FLAGS bits: the slot holds a seat; it ended the round; it has a turn left
#: in the round (the player to act included); it starts the round.
PRESENT, IS_ENDER, TO_PLAY, STARTS = 1, 2, 4, 8
#: The shared fields, after MAX_PLAYERS slots: the face-down pool and the draw
#: pool (counts per value), the draw pile's size, the discard's top and the
#: card in hand (NONE: none), where it came from (SRC_...), the phase
#: (PH_...), the players, the penalty code, the target, the round's turns.
POOL_DOWN = MAX_PLAYERS * SLOT
POOL_DRAW = POOL_DOWN + VALUES
DRAW_SIZE = POOL_DRAW + VALUES
TOP = DRAW_SIZE + 1
HAND = TOP + 1
SRC = HAND + 1
PHASE_CODE = SRC + 1
NPLAYERS = PHASE_CODE + 1
PENALTY_CODE = NPLAYERS + 1
TARGET_SCORE = PENALTY_CODE + 1
ROUND_TURNS = TARGET_SCORE + 1
RECORD = ROUND_TURNS + 1
NONE = -100
SRC_NONE, SRC_DECK, SRC_DISCARD = 0, 1, 2
PH_REVEAL, PH_TURNS, PH_FINAL, PH_DUE = 0, 1, 2, 3
NPHASES = 4

_REVEAL, _TURNS, _FINAL_TURNS = int(Phase.REVEAL), int(Phase.TURNS), int(Phase.FINAL_TURNS)
_POOL_INTS = playout_expected.INTS


@njit(cache=True, inline="always")
def _symbol(t, b, p, k, hidden):  # type: ignore[no-untyped-def]
    """The symbol of seat p's cell k: DOWN, or its face-up value less LOWEST."""
    if (hidden >> k) & 1:
        return DOWN
    return t.cells[b, p, k] - LOWEST


@njit(cache=True)
def public(t, b, out, ints):  # type: ignore[no-untyped-def]
    """out[:RECORD]: the public record of table b (see the module), seats
    relative to the player to act; `ints` is work space (`scratch`). The
    table is in a turn, in the opening reveals or due (`table.hand_on`)."""
    n = t.slots[b, PLAYERS]
    me = t.slots[b, PLAYER]
    phase = t.slots[b, PHASE]
    ender = t.slots[b, ENDER]
    due = phase == _FINAL_TURNS and me == ender
    starter = t.slots[b, STARTER]
    if phase == _REVEAL:
        starter = t.slots[b, LAST_ENDER]
    for i in range(RECORD):
        out[i] = 0
    for j in range(n):
        p = me + j
        if p >= n:
            p -= n
        at = j * SLOT
        hidden, cleared = t.seats[b, HIDDEN, p], t.seats[b, CLEARED, p]
        up_sum, down = 0, 0
        for c in range(COLS):
            if (cleared >> _COLUMN_CELLS[c, 0]) & 1:  # a column clears whole
                out[at + COL0 + c] = CLEARED_KIND
                continue
            s0 = _symbol(t, b, p, _COLUMN_CELLS[c, 0], hidden)
            s1 = _symbol(t, b, p, _COLUMN_CELLS[c, 1], hidden)
            s2 = _symbol(t, b, p, _COLUMN_CELLS[c, 2], hidden)
            out[at + COL0 + c] = KIND[s0, s1, s2]
            for s_ in (s0, s1, s2):
                if s_ == DOWN:
                    down += 1
                else:
                    up_sum += s_ + LOWEST
        out[at + SEAT_TOTAL] = t.seats[b, TOTALS, p]
        out[at + UP_SUM] = up_sum
        out[at + N_DOWN] = down
        flags = PRESENT
        if p == ender:
            flags |= IS_ENDER
        if phase == _FINAL_TURNS:
            # seats from the player to act up to the ender (not included) still play
            if not due and (p - me) % n < (ender - me) % n:
                flags |= TO_PLAY
        else:
            flags |= TO_PLAY
        if p == starter:
            flags |= STARTS
        out[at + FLAGS] = flags
    playout_expected.pools(t, b, ints)
    for i in range(VALUES):
        out[POOL_DOWN + i] = ints[playout_expected.DOWN_POOL + i]
        out[POOL_DRAW + i] = ints[playout_expected.DRAW_POOL + i]
    out[DRAW_SIZE] = t.slots[b, DRAW_END] - t.slots[b, DRAW_TOP]
    held = t.slots[b, HELD]
    size = t.slots[b, DISCARD_LEN]
    out[TOP] = t.piles[b, DISCARD_PILE, size - 1] if size > 0 else NONE
    out[HAND] = NONE if held == NO_CARD else held
    if held == NO_CARD:
        out[SRC] = SRC_NONE
    elif t.slots[b, SOURCE] == DRAW:
        out[SRC] = SRC_DECK
    else:
        out[SRC] = SRC_DISCARD
    if phase == _REVEAL:
        out[PHASE_CODE] = PH_REVEAL
    elif phase == _TURNS:
        out[PHASE_CODE] = PH_TURNS
    elif due:
        out[PHASE_CODE] = PH_DUE
    else:
        out[PHASE_CODE] = PH_FINAL
    out[NPLAYERS] = n
    out[PENALTY_CODE] = t.slots[b, PENALTY]
    out[TARGET_SCORE] = t.slots[b, TARGET]
    out[ROUND_TURNS] = min(t.slots[b, TURNS], 32000)


def scratch() -> np.ndarray:
    """The work space `public` takes."""
    return np.zeros(_POOL_INTS, np.int64)


# --- the network's inputs -----------------------------------------------------------

#: Per seat slot (`ctx`): its place (one-hot, MAX_PLAYERS), then CTX_... fields.
CTX_TOTAL = MAX_PLAYERS  #: total / target
CTX_EST = CTX_TOTAL + 1  #: round estimate: face-up sum + face-down cards x the pool's mean, / 30
CTX_GAME = CTX_EST + 1  #: (total + estimate) / target
CTX_LEAD = CTX_GAME + 1  #: (total + estimate) less the best other seat's, / 30
CTX_ROUND_LEAD = CTX_LEAD + 1  #: estimate less the best other seat's, / 30
CTX_ENDER = CTX_ROUND_LEAD + 1
CTX_TO_PLAY = CTX_ENDER + 1
CTX_STARTS = CTX_TO_PLAY + 1
CTX_DOWN = CTX_STARTS + 1  #: face-down cards / 12
#: The `expected` bot's value of the seat's grid (`valuation.grid_value`: its
#: columns' expected scores, less the next draw's expected saving for a seat
#: that still plays), / 30; with the total, / target; less the best other
#: seat's, in the round and in the game, / 30.
CTX_GRID = CTX_DOWN + 1
CTX_GRID_GAME = CTX_GRID + 1
CTX_GRID_LEAD = CTX_GRID_GAME + 1
CTX_GRID_ROUND_LEAD = CTX_GRID_LEAD + 1
NCTX = CTX_GRID_ROUND_LEAD + 1
#: The look-ahead's weight in the grid's value: the `expected` bot's.
LOOKAHEAD = valuation.DEFAULT_OPTIONS.lookahead
#: Shared (`glob`): the pools as shares (2 x VALUES), their sizes / 150, the
#: draw pile's size / 150, the top and the hand one-hot (VALUES each), the
#: hand's source (deck, discard), the phase (NPHASES), the players (one-hot
#: of 2..8), the penalty (3), the target / 100. (Not the round's turns, which
#: an observation does not hold.)
G_DOWN = 0
G_DRAW = VALUES
G_SIZES = 2 * VALUES
G_DRAW_SIZE = G_SIZES + 2
G_TOP = G_DRAW_SIZE + 1
G_HAND = G_TOP + VALUES
G_SRC = G_HAND + VALUES
G_PHASE = G_SRC + 2
G_PLAYERS = G_PHASE + NPHASES
G_PENALTY = G_PLAYERS + MAX_PLAYERS - 1
G_TARGET = G_PENALTY + 3
NGLOB = G_TARGET + 1
#: Scales: a round's points are divided by POINTS in `ctx` and the points head.
POINTS = 30.0
POINTS_HEAD = 10.0


@njit(cache=True)
def features(record, cols, ctx, glob):  # type: ignore[no-untyped-def]
    """The network's inputs of one public record: cols[j, c] (int64, the kinds;
    absent slots CLEARED_KIND), ctx[j, :NCTX] and glob[:NGLOB] (float32)."""
    n = record[NPLAYERS]
    target = max(record[TARGET_SCORE], 1)
    down_total, weighted = 0, 0
    for i in range(VALUES):
        down_total += record[POOL_DOWN + i]
        weighted += record[POOL_DOWN + i] * (i + LOWEST)
    mean = weighted / down_total if down_total > 0 else 5.0
    est = np.zeros(MAX_PLAYERS)
    game = np.zeros(MAX_PLAYERS)
    grid = np.zeros(MAX_PLAYERS)
    down_pool = valuation.pool_vector(record[POOL_DOWN : POOL_DOWN + VALUES])
    draw_pool = valuation.pool_vector(record[POOL_DRAW : POOL_DRAW + VALUES])
    cells = np.zeros(GRID_SIZE, np.int64)
    for j in range(MAX_PLAYERS):
        for c in range(COLS):
            cols[j, c] = CLEARED_KIND
        for i in range(NCTX):
            ctx[j, i] = 0.0
    for j in range(n):
        at = j * SLOT
        for c in range(COLS):
            cols[j, c] = record[at + COL0 + c]
        est[j] = record[at + UP_SUM] + record[at + N_DOWN] * mean
        game[j] = record[at + SEAT_TOTAL] + est[j]
        hidden, cleared = 0, 0
        for c in range(COLS):
            kind = record[at + COL0 + c]
            for r in range(3):
                k = _COLUMN_CELLS[c, r]
                sym = KIND_CELLS[kind, r]
                if kind == CLEARED_KIND:
                    cleared |= 1 << k
                elif sym == DOWN:
                    hidden |= 1 << k
                else:
                    cells[k] = sym + LOWEST
        ahead = LOOKAHEAD if record[at + FLAGS] & TO_PLAY else 0.0
        grid[j] = valuation.grid_value(
            cells, hidden, cleared, down_pool, draw_pool, ahead, 0.0, 1.0
        )
    for j in range(n):
        at = j * SLOT
        best_round, best_game, best_grid, best_grid_game = 1e9, 1e9, 1e9, 1e9
        for o in range(n):
            if o != j:
                best_round = min(best_round, est[o])
                best_game = min(best_game, game[o])
                best_grid = min(best_grid, grid[o])
                best_grid_game = min(best_grid_game, grid[o] + record[o * SLOT + SEAT_TOTAL])
        flags = record[at + FLAGS]
        ctx[j, j] = 1.0
        ctx[j, CTX_TOTAL] = record[at + SEAT_TOTAL] / target
        ctx[j, CTX_EST] = est[j] / POINTS
        ctx[j, CTX_GAME] = game[j] / target
        ctx[j, CTX_LEAD] = (game[j] - best_game) / POINTS
        ctx[j, CTX_ROUND_LEAD] = (est[j] - best_round) / POINTS
        ctx[j, CTX_ENDER] = 1.0 if flags & IS_ENDER else 0.0
        ctx[j, CTX_TO_PLAY] = 1.0 if flags & TO_PLAY else 0.0
        ctx[j, CTX_STARTS] = 1.0 if flags & STARTS else 0.0
        ctx[j, CTX_DOWN] = record[at + N_DOWN] / 12.0
        mine = grid[j] + record[at + SEAT_TOTAL]
        ctx[j, CTX_GRID] = grid[j] / POINTS
        ctx[j, CTX_GRID_GAME] = mine / target
        ctx[j, CTX_GRID_LEAD] = (mine - best_grid_game) / POINTS
        ctx[j, CTX_GRID_ROUND_LEAD] = (grid[j] - best_grid) / POINTS
    for i in range(NGLOB):
        glob[i] = 0.0
    draw_total = 0
    for i in range(VALUES):
        draw_total += record[POOL_DRAW + i]
    for i in range(VALUES):
        if down_total > 0:
            glob[G_DOWN + i] = record[POOL_DOWN + i] / down_total
        if draw_total > 0:
            glob[G_DRAW + i] = record[POOL_DRAW + i] / draw_total
    glob[G_SIZES] = down_total / DECK_SIZE
    glob[G_SIZES + 1] = draw_total / DECK_SIZE
    glob[G_DRAW_SIZE] = record[DRAW_SIZE] / DECK_SIZE
    if record[TOP] != NONE:
        glob[G_TOP + record[TOP] - LOWEST] = 1.0
    if record[HAND] != NONE:
        glob[G_HAND + record[HAND] - LOWEST] = 1.0
    if record[SRC] == SRC_DECK:
        glob[G_SRC] = 1.0
    elif record[SRC] == SRC_DISCARD:
        glob[G_SRC + 1] = 1.0
    glob[G_PHASE + record[PHASE_CODE]] = 1.0
    glob[G_PLAYERS + n - 2] = 1.0
    glob[G_PENALTY + record[PENALTY_CODE]] = 1.0
    glob[G_TARGET] = record[TARGET_SCORE] / 100.0


@njit(cache=True)
def features_batch(records, cols, ctx, glob):  # type: ignore[no-untyped-def]
    """`features` of every record (row) into the rows of cols, ctx, glob."""
    for i in range(records.shape[0]):
        features(records[i], cols[i], ctx[i], glob[i])


# --- the network ----------------------------------------------------------------------


class Net(NamedTuple):
    """The value network's weights (float32; see the module): the column kinds'
    embeddings `E` (KINDS x H1) and `b1`; the seat layer `W2` (H1 x H2), `b2`;
    the third layer's own-seat `A`, other-seats `B` (H2 x H3), context `C`
    (NCTX x H3), shared `D` (NGLOB x H3), `b3`; the heads `Wo` (H3 x 2: win
    logit, round points / POINTS_HEAD) and `bo`, and `U` (NCTX x 2), the
    heads' linear part straight from the seat's context."""

    E: np.ndarray
    b1: np.ndarray
    W2: np.ndarray
    b2: np.ndarray
    A: np.ndarray
    B: np.ndarray
    C: np.ndarray
    D: np.ndarray
    b3: np.ndarray
    Wo: np.ndarray
    bo: np.ndarray
    U: np.ndarray


def shapes(h1: int, h2: int, h3: int) -> dict[str, tuple[int, ...]]:
    """The arrays' shapes of a network of hidden sizes h1, h2, h3."""
    return {
        "E": (KINDS, h1), "b1": (h1,), "W2": (h1, h2), "b2": (h2,), "A": (h2, h3),
        "B": (h2, h3), "C": (NCTX, h3), "D": (NGLOB, h3), "b3": (h3,), "Wo": (h3, 2),
        "bo": (2,), "U": (NCTX, 2),
    }  # fmt: skip


class Work(NamedTuple):
    """Work space of `forward` (float32 unless said)."""

    cols: np.ndarray  #: (MAX_PLAYERS, COLS) int64
    ctx: np.ndarray  #: (MAX_PLAYERS, NCTX)
    glob: np.ndarray  #: (NGLOB,)
    h1: np.ndarray  #: (H1,)
    h2: np.ndarray  #: (MAX_PLAYERS, H2)
    own: np.ndarray  #: (MAX_PLAYERS, H3): A h2
    other: np.ndarray  #: (MAX_PLAYERS, H3): B h2
    shared: np.ndarray  #: (H3,): D glob + b3
    h3: np.ndarray  #: (H3,)


def work(net: Net) -> Work:
    h1, h2, h3 = net.E.shape[1], net.W2.shape[1], net.A.shape[1]
    f = np.float32
    return Work(
        cols=np.zeros((MAX_PLAYERS, COLS), np.int64),
        ctx=np.zeros((MAX_PLAYERS, NCTX), f),
        glob=np.zeros(NGLOB, f),
        h1=np.zeros(h1, f),
        h2=np.zeros((MAX_PLAYERS, h2), f),
        own=np.zeros((MAX_PLAYERS, h3), f),
        other=np.zeros((MAX_PLAYERS, h3), f),
        shared=np.zeros(h3, f),
        h3=np.zeros(h3, f),
    )


@njit(cache=True, fastmath=True)
def _affine(x, w, bias, out):  # type: ignore[no-untyped-def]
    """out = x @ w + bias (bias may be empty: none)."""
    m = w.shape[1]
    if bias.shape[0]:
        for j in range(m):
            out[j] = bias[j]
    else:
        for j in range(m):
            out[j] = 0.0
    for i in range(w.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(m):
                out[j] += xi * w[i, j]


@njit(cache=True, fastmath=True)
def forward(net, record, wk, win, points):  # type: ignore[no-untyped-def]
    """The value of one public record: win[j], the chance that the seat at slot
    j wins the game (the seats present sum to 1), and points[j] its expected
    points for the round (`public`'s slots; absent ones 0)."""
    n = record[NPLAYERS]
    features(record, wk.cols, wk.ctx, wk.glob)
    empty = net.bo[:0]
    h1n = net.E.shape[1]
    for j in range(n):
        for i in range(h1n):
            wk.h1[i] = net.b1[i]
        for c in range(COLS):
            row = net.E[wk.cols[j, c]]
            for i in range(h1n):
                wk.h1[i] += row[i]
        for i in range(h1n):
            wk.h1[i] = max(wk.h1[i], 0.0)
        _affine(wk.h1, net.W2, net.b2, wk.h2[j])
        for i in range(wk.h2.shape[1]):
            wk.h2[j, i] = max(wk.h2[j, i], 0.0)
        _affine(wk.h2[j], net.A, empty, wk.own[j])
        _affine(wk.h2[j], net.B, empty, wk.other[j])
    _affine(wk.glob, net.D, net.b3, wk.shared)
    h3n = net.A.shape[1]
    best = -1e30
    share = np.float32(1.0 / (n - 1))
    for j in range(n):
        _affine(wk.ctx[j], net.C, empty, wk.h3)
        for i in range(h3n):
            others = np.float32(0.0)
            for o in range(n):
                if o != j:
                    others += wk.other[o, i]
            x = wk.h3[i] + wk.shared[i] + wk.own[j, i] + others * share
            wk.h3[i] = max(x, 0.0)
        logit, pts = net.bo[0], net.bo[1]
        for i in range(h3n):
            logit += wk.h3[i] * net.Wo[i, 0]
            pts += wk.h3[i] * net.Wo[i, 1]
        for i in range(NCTX):
            logit += wk.ctx[j, i] * net.U[i, 0]
            pts += wk.ctx[j, i] * net.U[i, 1]
        win[j] = logit
        points[j] = pts * POINTS_HEAD
        best = max(best, logit)
    total = 0.0
    for j in range(n):
        win[j] = np.exp(win[j] - best)
        total += win[j]
    for j in range(n):
        win[j] /= total
    for j in range(n, win.shape[0]):
        win[j] = 0.0
        points[j] = 0.0


@njit(cache=True)
def evaluate(net, records, wk, win, points):  # type: ignore[no-untyped-def]
    """`forward` of every record (row): win[i], points[i]."""
    for i in range(records.shape[0]):
        forward(net, records[i], wk, win[i], points[i])


# --- files ---------------------------------------------------------------------------

#: The value network `best` plays without a `path`: package data, put there by `skyjo train`.
SHIPPED = Path(__file__).resolve().parents[1] / "bots" / "data" / "value.npz"


def save(path: Path, net: Net, meta: dict) -> None:
    """Write `net` and its `meta` (JSON; `format` is set) as a value file."""
    meta = {**meta, "format": FORMAT}
    arrays = {name: np.asarray(getattr(net, name), np.float32) for name in Net._fields}
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)


def load(path: Path) -> tuple[Net, dict]:
    """A value file's network and meta. ValueError naming what is wrong."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {name: np.ascontiguousarray(data[name], np.float32) for name in Net._fields}
    except (OSError, KeyError, ValueError, EOFError) as error:
        raise ValueError(f"{path} is not a value file ({FORMAT}): {error}") from None
    if meta.get("format") != FORMAT:
        raise ValueError(
            f"{path} is not a value file: format {meta.get('format')!r}, not {FORMAT!r}"
        )
    h1, h2, h3 = arrays["E"].shape[1], arrays["W2"].shape[1], arrays["A"].shape[1]
    for name, shape in shapes(h1, h2, h3).items():
        if arrays[name].shape != shape:
            raise ValueError(f"{path}: {name} has shape {arrays[name].shape}, not {shape}")
        if not np.isfinite(arrays[name]).all():
            raise ValueError(f"{path}: {name} holds numbers that are not finite")
    return Net(**arrays), meta
