"""A policy's strength against the compiled ladder, with NumPy only: whole
2-player (or n-player) games on the vector environment, each table's first
game counted once, the learner's seat drawn from each game's seed, so seats
rotate. A win is the lowest total; a win shared by k players counts 1/k, as
`skyjo tournament` counts it. The interval is Wilson's 95% score interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from skyjo.bots.encoding import with_advice
from skyjo.env.vector import SkyjoVectorEnv

#: A batched policy: float32 observations (k, size) and int8 masks (k, 39) in, k actions out.
BatchedPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]
#: The first seed of the evaluation games (far from the training streams' seeds).
EVAL_SEED = 10**12


@dataclass(frozen=True)
class Strength:
    """Games won of games played against one lineup, with a 95% interval."""

    opponents: tuple[str, ...]
    games: int
    wins: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def __str__(self) -> str:
        low, high = self.interval
        who = ",".join(self.opponents)
        return (
            f"{100 * self.rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of {self.games} vs {who}"
        )


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval of a proportion (95% with z = 1.96)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    low, high = (centre - spread) / denominator, (centre + spread) / denominator
    return max(0.0, low), min(1.0, high)


def evaluate(
    policy: BatchedPolicy,
    opponents: tuple[str, ...],
    games: int,
    slots: int | None = None,
    seed: int = EVAL_SEED,
    advice: str | None = None,
) -> Strength:
    """Play `games` whole games, one a table, of `policy` against the compiled
    bots `opponents` (the games of seeds seed, seed + 1, ...); with `advice`,
    the policy's observations end with that bot's move as a one-hot (the
    trainer's `with_advice`)."""
    envs = SkyjoVectorEnv(games, opponents=list(opponents), reward="win", slots=slots)
    obs, info = envs.reset(seed=seed)
    playing = np.ones(games, bool)
    wins = 0.0
    layout = envs.layout
    totals, present = layout.offsets["totals"], layout.offsets["present"]
    while playing.any():
        if advice:
            obs = with_advice(obs, envs.teacher_actions(advice))
        actions = np.asarray(policy(obs, info["action_mask"]), np.int64)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        ended = (terminated | truncated) & playing
        for b in np.flatnonzero(ended & (rewards > 0)).tolist():
            final = info["final_obs"][b]  # the last totals: how many share the lowest
            seated = final[totals][final[present] > 0]
            wins += 1 / int(np.count_nonzero(seated == seated[0]))
        playing &= ~ended
    envs.close()
    return Strength(tuple(opponents), games, wins)
