"""What a bot is: a seeded, deterministic chooser of legal actions.

A bot sees only its own player's `Observation` (which holds the public table
and, on its own turn, its legal actions): never a face-down card nor the deck
order. One bot object plays one seat for one game and may remember what it
saw earlier in that game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from skyjo.observation import Observation


class Bot(Protocol):
    """A player program. `choose` returns one of `observation.legal_actions`."""

    name: str

    def choose(self, observation: Observation) -> int: ...


#: Makes a bot from a seed; keyword options come from a bot spec (`search:budget=0.1`).
BotFactory = Callable[..., Bot]


class BotError(ValueError):
    """An unknown bot name or bad bot options."""
