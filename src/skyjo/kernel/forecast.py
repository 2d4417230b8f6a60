"""A forecast of every player's round score from the middle of a round, learned
from the `expected` bot's self-play: the leaf of the search's short playouts.

A whole-round playout is too noisy to tell two moves apart early in a round
(docs/bots.md, `search`); a playout of a few turns is not, but it stops with the
round unfinished. Its value is then each player's *forecast* round score
(with the ender's penalty, RULES.md 2.10), a linear function of a few
features of that player's grid as everyone sees it (`features`): the
grid's expected score with column clears (`valuation`'s columns, face-down
cards at the unseen pool's mean), what the next drawn card should save
(the one-draw look-ahead), its face-down count, how soon the round should
end (the fewest face-down cards at the table), high cards still in the
grid, pairs waiting for their third card, whether the round has been ended
and by whom, and how many turns pass before the player acts, some of them
times the round's expected length. One weight vector per number of
players (`WEIGHTS`, `forecast.json` beside this module) is fitted by least
squares on self-play rounds of the playout policy (`research/forecast.py`
writes it, from scratch, in a few minutes on one core).

Nothing here peeks: a face-down card's value is never read, only the pools
counted from the table as the player to act sees it (`playout_expected.pools`).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from skyjo.kernel import playout_expected
from skyjo.kernel import valuation as va
from skyjo.kernel.table import CLEARED, ENDER, HIDDEN, PLAYER, PLAYERS
from skyjo.rules import COLS, MAX_PLAYERS, ROWS

#: The features of one player (see `features`), in this order.
NAMES = (
    "one",
    "expected",
    "lookahead",
    "down",
    "fewest",
    "lookahead*fewest",
    "down*fewest",
    "high",
    "high*fewest",
    "pairs",
    "pairs*fewest",
    "ended",
    "ender",
    "ender*expected",
    "lag",
    "lag*fewest",
)
NFEATURES = len(NAMES)
#: A card at least this high is "high": it should be exchanged before the end.
HIGH_CARD = 7
#: The shipped weights: one row per number of players (rows 0 and 1 unused).
WEIGHTS_FILE = Path(__file__).with_name("forecast.json")


def load_weights(path: Path = WEIGHTS_FILE) -> np.ndarray:
    """The weights in `path` (as `research/forecast.py` writes them) as an array
    of shape (MAX_PLAYERS + 1, NFEATURES)."""
    data = json.loads(path.read_text())
    if tuple(data["features"]) != NAMES:
        raise ValueError(f"{path}: the features are not this module's {NAMES}")
    weights = np.zeros((MAX_PLAYERS + 1, NFEATURES))
    for players, row in data["weights"].items():
        weights[int(players)] = row
    return weights


WEIGHTS = load_weights()


@njit(cache=True)
def features(t, b, ints, out):  # type: ignore[no-untyped-def]
    """out[p, :]: the features (`NAMES`) of each player p at table b, from what
    everyone can see (the pools of the player to act)."""
    n = t.slots[b, PLAYERS]
    playout_expected.pools(t, b, ints)
    dp = va.pool_vector(ints[playout_expected.DOWN_POOL : playout_expected.DOWN_POOL + va.VALUES])
    wp = va.pool_vector(ints[playout_expected.DRAW_POOL : playout_expected.DRAW_POOL + va.VALUES])
    if wp[va.P1 : va.P1 + va.VALUES].sum() == 0.0:
        wp = dp
    vals = np.zeros((COLS, ROWS), np.int64)
    ups = np.zeros((COLS, ROWS), np.int64)
    gone = np.zeros(COLS, np.int64)
    colv = np.zeros(COLS)
    gains = np.zeros((COLS, va.VALUES))
    downs = np.zeros(n, np.int64)
    no_potential = np.zeros((2, va.VALUES))
    fewest = 12
    for p in range(n):
        hidden = t.seats[b, HIDDEN, p]
        downs[p] = va._load(t.cells[b, p], hidden, t.seats[b, CLEARED, p], vals, ups, gone)
        fewest = min(fewest, downs[p])
        va._columns(vals, ups, gone, dp, 0.0, 1.0, no_potential, colv, gains)
        high = 0
        pairs = 0
        for col in range(COLS):
            if gone[col]:
                continue
            for row in range(ROWS):
                if ups[col, row] and vals[col, row] >= HIGH_CARD:
                    high += 1
            for r1 in range(ROWS):
                for r2 in range(r1 + 1, ROWS):
                    r3 = 3 - r1 - r2
                    same = ups[col, r1] and ups[col, r2] and vals[col, r1] == vals[col, r2]
                    if same and not (ups[col, r3] and vals[col, r3] == vals[col, r1]):
                        pairs += 1
        out[p, 1] = colv.sum()
        out[p, 2] = va._lookahead(gains, wp)
        out[p, 3] = downs[p]
        out[p, 7] = high
        out[p, 9] = pairs
    ender = t.slots[b, ENDER]
    to_act = t.slots[b, PLAYER]
    for p in range(n):
        out[p, 0] = 1.0
        out[p, 4] = fewest
        out[p, 5] = out[p, 2] * fewest
        out[p, 6] = out[p, 3] * fewest
        out[p, 8] = out[p, 7] * fewest
        out[p, 10] = out[p, 9] * fewest
        out[p, 11] = 1.0 if ender >= 0 else 0.0
        out[p, 12] = 1.0 if ender == p else 0.0
        out[p, 13] = out[p, 12] * out[p, 1]
        out[p, 14] = (p - to_act) % n
        out[p, 15] = out[p, 14] * fewest


@njit(cache=True)
def predict(t, b, weights, ints, feats, out):  # type: ignore[no-untyped-def]
    """out[p]: player p's forecast round score at table b (`features` times the
    weights of its number of players); `feats` is work space (MAX_PLAYERS x
    NFEATURES)."""
    n = t.slots[b, PLAYERS]
    features(t, b, ints, feats)
    for p in range(n):
        total = 0.0
        for f in range(feats.shape[1]):
            total += weights[n, f] * feats[p, f]
        out[p] = total
