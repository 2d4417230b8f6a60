"""The `random` bot: uniform over the legal actions."""

from __future__ import annotations

import random

from skyjo.observation import Observation


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> int:
        return self._rng.choice(observation.legal_actions)
