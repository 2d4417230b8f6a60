"""What a played-out table is worth to the search bot: its chance of winning the game.

A round still in play (a short playout's, with forecast `weights`) counts each
player's forecast round score (`forecast.predict`) on top of the totals. Then,
the game over (a total at the target, RULES.md 3), the viewer's share of the
lowest total; else its chance of ending lower than every other player, each
player's total over the rounds likely left taken as normal, so that the
difference of two players' has `spread` a round. With two players that is one
normal chance. With more, `joint` 0 multiplies the chances of beating each
other player as if they were independent; `joint` 1 integrates over the
viewer's own future score (the part those chances share: Gauss-Hermite
quadrature), which gives a player level with three others a quarter, not an
eighth. At two players under the default ender's penalty, a non-empty
`table` (`game_odds`) gives the chance instead, by the exact recursion over
self-play round scores. `skyjo.bots.search` drives it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from skyjo.engine import Phase
from skyjo.kernel import forecast, game_odds
from skyjo.kernel.table import PENALTY, PHASE, PLAYERS, POSITIVE, TARGET, TOTALS

#: Gauss-Hermite nodes and weights (probabilists', weights summing to 1): the
#: expectation over the viewer's own standard normal future.
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(24)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()
_ROUND_OVER = int(Phase.ROUND_OVER)
#: No forecast: only played-out rounds are valued.
NO_WEIGHTS = np.zeros((0, forecast.NFEATURES))
#: No table of two-player odds: the normal model.
NO_TABLE = np.zeros((0, 0))


@njit(cache=True)
def values(  # type: ignore[no-untyped-def]
    t, order, me, leader_round, spread, joint, out, weights, ints, feats, predicted, totals, table
):
    """out[b], for each b of `order`: the value for seat `me` of table b (see
    the module); `ints`, `feats`, `predicted` and `totals` are work space
    (`forecast.predict`'s, then the totals as floats)."""
    for j in range(len(order)):
        b = order[j]
        n = t.slots[b, PLAYERS]
        target = t.slots[b, TARGET]
        for p in range(n):
            totals[p] = t.seats[b, TOTALS, p]
        if len(weights) and t.slots[b, PHASE] < _ROUND_OVER:
            forecast.predict(t, b, weights, ints, feats, predicted)
            for p in range(n):
                totals[p] += predicted[p]
        mine = totals[me]
        highest = totals[0]
        lowest = totals[0]
        for p in range(1, n):
            highest = max(highest, totals[p])
            lowest = min(lowest, totals[p])
        if highest >= target:
            if mine != lowest:
                out[b] = 0.0
            else:
                shared = 0
                for p in range(n):
                    shared += totals[p] == lowest
                out[b] = 1.0 / shared
            continue
        if n == 2 and len(table) and t.slots[b, PENALTY] == POSITIVE:
            out[b] = game_odds.chance(table, mine, totals[1 - me], target)
            continue
        rounds = max(1.0, 0.5 + (target - highest) / leader_round)
        if joint == 0 or n == 2:
            scale = 1.0 / (spread * math.sqrt(2.0 * rounds))
            chance = 1.0
            for o in range(n):
                if o != me:
                    chance *= 0.5 * (1.0 + math.erf((totals[o] - mine) * scale))
            out[b] = chance
            continue
        each = spread * math.sqrt(rounds / 2.0)  # one player's spread
        chance = 0.0
        for q in range(len(_NODES)):
            beat = _WEIGHTS[q]
            for o in range(n):
                if o != me:
                    z = (totals[o] - mine) / each - _NODES[q]
                    beat *= 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
            chance += beat
        out[b] = chance
