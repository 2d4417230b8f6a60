"""A two-player game's odds between rounds: the chance of winning it from the
totals, by an exact recursion over the round scores of self-play.

RULES.md 3: the game ends after the round in which some total reaches the
target score, and the lowest total wins (tied players share the win). If
rounds are alike and independent, with the two players' round scores
(ender's penalty included, RULES.md 2.10) drawn from one joint distribution
`p(x, y)`, the first player's chance of winning from totals `a` and `b` is

    V(a, b) = sum over (x, y) of p(x, y) * (1 if a + x < b + y,
                                            1/2 if a + x == b + y,
                                            0 otherwise)   when the game ends,
                                           V(a + x, b + y)  when it goes on.

`solve` finds V by value iteration. It depends on the totals only relative
to the target, so one table, for a target of `REFERENCE` points, serves
every target (`chance`). `research/game_odds.py` writes the shipped table from
scratch: `p` is counted from self-play rounds of the search's playout policy
(the `expected` bot's cheap choice) on the rules kernel, symmetrised.

The `search` bot scores a played-out round with this table at two players
(`search:odds=1`), instead of taking the difference of the totals as normal
over the rounds likely left: that normal model is too sure of the leader (a
player 20 points ahead at 60 against 80 wins 87% of the time by it, 78% by
the recursion).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)

#: The target score the table is computed for (RULES.md 3's default).
REFERENCE = 100
#: The table's lowest total, for a target of `REFERENCE`; lower totals are
#: shifted up together (keeping their difference), far from the end.
LOW = -60
#: The number of totals in the table on each side: LOW to REFERENCE - 1.
SIZE = REFERENCE - LOW
#: The shipped table, as whole fractions of `SCALE` (a 16-bit integer each).
TABLE_FILE = Path(__file__).with_name("game_odds.npy")
SCALE = 65535


@njit(cache=True)
def _sweep(old, new, xs, ys, ps):  # type: ignore[no-untyped-def]
    """new = one step of the recursion applied to old (see the module's
    description); returns the largest change."""
    change = 0.0
    for i in range(SIZE):
        for j in range(SIZE):
            total = 0.0
            for k in range(len(ps)):
                a = i + xs[k]
                b = j + ys[k]
                if max(a, b) >= SIZE:  # the game ends
                    if a < b:
                        total += ps[k]
                    elif a == b:
                        total += 0.5 * ps[k]
                else:
                    total += ps[k] * old[max(a, 0), max(b, 0)]
            new[i, j] = total
            change = max(change, abs(total - old[i, j]))
    return change


def solve(outcomes: np.ndarray, weights: np.ndarray, tolerance: float = 1e-9) -> np.ndarray:
    """V (see the module's description) for a target of `REFERENCE`:
    `V[a - LOW, b - LOW]` for totals a and b from LOW to REFERENCE - 1.
    `outcomes` holds the round scores (x, y) of the first and the second
    player, one row each, and `weights` their frequencies. Totals that
    would fall below LOW are held at LOW."""
    if len(outcomes) == 0 or len(outcomes) != len(weights):
        raise ValueError("solve needs round outcomes, one weight each")
    ps = np.asarray(weights, dtype=np.float64) / float(np.sum(weights))
    xs = np.asarray(outcomes[:, 0], dtype=np.int64)
    ys = np.asarray(outcomes[:, 1], dtype=np.int64)
    old = np.full((SIZE, SIZE), 0.5)
    new = np.empty_like(old)
    while _sweep(old, new, xs, ys, ps) > tolerance:
        old, new = new, old
    return new


def load(path: Path = TABLE_FILE) -> np.ndarray:
    """The shipped table (see `solve`), as chances from 0 to 1."""
    raw = np.load(path)
    if raw.shape != (SIZE, SIZE):
        raise ValueError(f"{path} holds a {raw.shape} table, not {(SIZE, SIZE)}")
    return raw.astype(np.float64) / SCALE


def save(table: np.ndarray, path: Path = TABLE_FILE) -> None:
    """Write `table` (see `solve`) as `load` reads it."""
    np.save(path, np.rint(np.clip(table, 0.0, 1.0) * SCALE).astype(np.uint16))


@njit(cache=True)
def chance(table, mine, other, target):  # type: ignore[no-untyped-def]
    """The chance that a player with total `mine` wins a two-player game
    against `other` (both below `target`, between rounds), from `table`
    (see `solve`): the totals shifted to the table's target, rounded to
    whole points, and shifted up together if below its lowest."""
    a = int(np.rint(mine)) + REFERENCE - target
    b = int(np.rint(other)) + REFERENCE - target
    lowest = min(a, b)
    if lowest < LOW:
        a += LOW - lowest
        b += LOW - lowest
    a = min(a, REFERENCE - 1)
    b = min(b, REFERENCE - 1)
    return table[a - LOW, b - LOW]


@cache
def shipped() -> np.ndarray:
    """The shipped table (see `solve`), read on first use only: the search
    needs it only with `odds`, which is off by default."""
    return load()
