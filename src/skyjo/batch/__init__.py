"""The batch simulator: many games at once in compiled code, on the rules kernel.

The games are played by the compiled game loop (`skyjo.kernel.loop`, on the
environments' step of play, `skyjo.kernel.vector.move`) over the tables of
`skyjo.kernel`, the one compiled copy of the rules, with compiled
policies that decide exactly as the bots `random`, `greedy`, `basic` and
`expected` do (`skyjo.kernel.policies`); this package drives them. Chance is
an input: `play_seeded` deals and reshuffles from the same seeds as the
reference engine (RULES.md 5), so that both play the same games, turn for
turn; `play_fast` draws everything from a cheap compiled generator, for speed.
`skyjo tournament --engine batch` plays tournaments with it (docs/batch.md).
"""

from __future__ import annotations

from skyjo.batch.games import (
    BatchGame,
    FastRun,
    batch_policy,
    compile_loop,
    play_fast,
    play_seeded,
    policy_codes,
)
from skyjo.kernel.policies import POLICIES

__all__ = [
    "POLICIES",
    "BatchGame",
    "FastRun",
    "batch_policy",
    "compile_loop",
    "play_fast",
    "play_seeded",
    "policy_codes",
]
