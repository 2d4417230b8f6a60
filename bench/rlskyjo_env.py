"""`rlskyjo`'s environment measured with `bench/env.py`'s loop, for comparison.

`rlskyjo` 1.0.0 (the other Skyjo environment on PyPI, issue 32) speaks
PettingZoo 1.14's API: its `env()` wrappers and its `last()` do not run on
today's PettingZoo. This script drives its raw `SimpleSkyjoEnv` directly, the
way `bench/env.py` drives ours (the agent to act, its observation and mask,
a uniformly random legal action from the mask, `step`), and prints steps/s.
It needs a virtual environment of its own (never this project's):

    python3 -m venv /tmp/rlvenv && /tmp/rlvenv/bin/pip install rlskyjo==1.0.0
    /tmp/rlvenv/bin/python bench/rlskyjo_env.py

Its games are one round each (rlskyjo plays no more).
"""

from __future__ import annotations

import random
import sys
import time

from rlskyjo.environment.skyjo_env import SimpleSkyjoEnv

# PettingZoo 1.14's hook, gone from today's PettingZoo: nothing to do without it.
SimpleSkyjoEnv._dones_step_first = lambda self: None


def play(table: SimpleSkyjoEnv, choose: random.Random) -> int:
    """One game with random legal actions; its steps."""
    steps = 0
    table.reset()
    while not any(table.dones.values()):
        legal = table.observe(table.agent_selection)["action_mask"].nonzero()[0]
        table.step(int(legal[int(choose.random() * len(legal))]))
        steps += 1
    return steps


def main(players: int = 4, seconds: float = 5.0) -> None:
    """Measure `seconds` of whole games at `players` (the arguments, in order)."""
    table = SimpleSkyjoEnv(num_players=players)
    choose = random.Random(1)
    for _ in range(3):
        play(table, choose)  # warm up: its Numba functions compile
    steps, start = 0, time.perf_counter()
    while time.perf_counter() < start + seconds:
        steps += play(table, choose)
    rate = steps / (time.perf_counter() - start)
    print(f"rlskyjo 1.0.0, {players} players: {rate:,.0f} AEC steps/s")


if __name__ == "__main__":
    main(*(float(arg) if i else int(arg) for i, arg in enumerate(sys.argv[1:3])))
