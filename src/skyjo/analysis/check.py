"""A second opinion on a decision: its options played out on the same
sampled card orders (common random numbers).

The learned value (`skyjo.analysis.evaluator`) gives every option's worth at
once; where it calls a choice worse than an inaccuracy, the coach checks
that choice against the value's best option by playouts: in each of
`worlds` worlds dealt from what the player saw (`skyjo.bots.determinize`:
the unseen cards shuffled, never the true ones), both options are played,
then the rest of the round by the `expected` bot's playout policy for every
player (`skyjo.kernel.playouts`, as the `search` bot plays them). The same
world serves both options, so their difference is measured with the luck of
the cards taken out; its mean and a 95% interval are the check. A choice
whose interval reaches zero is within the noise of the best: never a
mistake. The worlds come in batches of `BATCH`, and the check stops at the
first batch whose interval leaves out zero (a clear verdict either way): at
most `WORLDS`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from skyjo import kernel
from skyjo.bots.determinize import Sampler
from skyjo.bots.expected import ExpectedBot
from skyjo.bots.search import drawn_placing
from skyjo.engine import DRAW, TAKE_DISCARD
from skyjo.kernel.playouts import EXPECTED, Playouts, no_placing
from skyjo.kernel.table import DOUBLED, ENDER, SCORES
from skyjo.observation import Observation

#: The most worlds per check (each plays both options to the end of the
#: round), dealt in batches of `BATCH`: the check stops after a batch once its
#: interval leaves out zero, so a clear verdict costs one or two batches.
WORLDS = 200
BATCH = 50
#: The interval's half-width in standard errors (95%).
Z = 1.96

#: A move as played: (DRAW,), (TAKE_DISCARD, placement) or (placement,).
Move = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Check:
    """The playouts' verdict on a choice against another option: how many more
    round points the choice scored on average (`difference`, with its 95%
    interval `low`..`high`) over `worlds` shared worlds, and in how many of
    them (as a share) each option's round ended with the player's score
    doubled (RULES.md 2.10)."""

    worlds: int
    difference: float
    low: float
    high: float
    doubled: tuple[float, float]

    @property
    def clear(self) -> bool:
        """Whether the choice is worse beyond the noise (the interval above 0)."""
        return self.low > 0


def compare(
    observation: Observation, chosen: Move, other: Move, worlds: int = WORLDS, seed: int = 0
) -> Check:
    """Play `chosen` and `other` (moves of the player to act in `observation`)
    in `worlds` worlds dealt from what that player sees, then their rounds out
    (see the module)."""
    me = observation.current_player
    sampler = Sampler(observation)
    moves = [chosen, other]
    drawing = any(m[0] == DRAW for m in moves)
    placing = drawn_placing(ExpectedBot(seed), sampler) if drawing else no_placing()
    actions = np.array([m[0] for m in moves], dtype=np.int64)
    args = np.array([m[1] if m[0] == TAKE_DISCARD else 0 for m in moves], dtype=np.int64)
    gen = np.random.Generator(np.random.PCG64(seed))
    playouts = Playouts(random.Random(seed), EXPECTED)
    n = observation.num_players
    world = kernel.new_tables(1, n)
    tables = kernel.new_tables(2, n)
    order = np.arange(2, dtype=np.int64)
    differences = np.zeros(worlds)
    doubled = np.zeros(2)
    played = 0
    low = high = mean = 0.0
    while played < worlds:
        for w in range(played, min(worlds, played + BATCH)):
            sampler.load(world, 0, sampler.deal(gen))
            playouts.play_moves(world, tables, order, actions, args, placing)
            scores = tables.seats[:, SCORES, me]
            differences[w] = float(scores[0]) - float(scores[1])
            doubled += (tables.slots[:, DOUBLED] == 1) & (tables.slots[:, ENDER] == me)
            played = w + 1
        mean, low, high = _interval(differences[:played])
        if low > 0 or high < 0:
            break
    shares = (float(doubled[0]) / played, float(doubled[1]) / played)
    return Check(played, mean, low, high, shares)


def _interval(differences: np.ndarray) -> tuple[float, float, float]:
    """The mean of paired differences and its 95% interval."""
    mean = float(differences.mean())
    count = len(differences)
    spread = float(differences.std(ddof=1)) / math.sqrt(count) if count > 1 else math.inf
    return mean, mean - Z * spread, mean + Z * spread
