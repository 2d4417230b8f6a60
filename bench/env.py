"""The AEC environment's throughput: steps per second with random legal actions.

Plays whole games of `skyjo.env.env(num_players=4)` (PettingZoo's loop:
`agent_iter`, `last()` for the observation and the mask, a uniformly random
legal action from the mask, `step`) for a few seconds on one core, and
prints steps/s; the same loop on `raw_env` (without PettingZoo's order
wrapper) and the bare engine's actions/s in the same run, for scale.

    python bench/env.py                 # a table
    python bench/env.py --json          # {"steps_per_s": ...}
    python bench/env.py --profile       # where the time goes (cProfile)
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import random
import time
from collections.abc import Callable
from typing import Annotated, Any

import typer
from machine import describe  # bench/machine.py, beside this script

from skyjo.engine import Phase, legal_actions, new_game, step
from skyjo.env import env, raw_env

GAME_OVER = int(Phase.GAME_OVER)


def run_env(make: Callable[..., Any], players: int, seconds: float, seed: int) -> float:
    """AEC steps per second over whole games, random legal actions."""
    table = make(num_players=players)
    choose = random.Random(seed).random
    steps, games = 0, 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        table.reset(seed=seed + games)
        for _agent in table.agent_iter():
            observation, _reward, terminated, truncated, _info = table.last()
            if terminated or truncated:
                action = None
            else:
                legal = observation["action_mask"].nonzero()[0]
                action = int(legal[int(choose() * len(legal))])
            table.step(action)
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start)


def run_engine(players: int, seconds: float, seed: int) -> float:
    """The bare engine's actions per second, random legal actions (bench/engine.py)."""
    choose = random.Random(seed).random
    actions, games = 0, 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = new_game(players, seed=seed + games)
        while state.phase != GAME_OVER:
            legal = legal_actions(state)
            state = step(state, legal[int(choose() * len(legal))])
            actions += 1
        games += 1
    return actions / (time.perf_counter() - start)


def main(
    players: Annotated[int, typer.Option(help="players at the table")] = 4,
    seconds: Annotated[float, typer.Option(help="time per measurement")] = 5.0,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
    profile: Annotated[bool, typer.Option(help="profile the env() loop instead")] = False,
) -> None:
    run_env(env, players, 0.3, seed)  # warm up: imports, caches
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(run_env, env, players, seconds, seed)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    wrapped = run_env(env, players, seconds, seed)
    raw = run_env(raw_env, players, seconds, seed)
    engine = run_engine(players, seconds, seed)
    if as_json:
        print(
            json.dumps(
                {
                    "players": players,
                    "steps_per_s": round(wrapped),
                    "raw_steps_per_s": round(raw),
                    "engine_actions_per_s": round(engine),
                }
            )
        )
        return
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{describe()}; load average {load}")
    print(f"{players} players, {seconds:g} s each, random legal actions:")
    print(f"  env()      {wrapped:>10,.0f} AEC steps/s (observation and mask every step)")
    print(f"  raw_env()  {raw:>10,.0f} AEC steps/s")
    print(f"  engine     {engine:>10,.0f} actions/s (legal_actions and step alone)")


if __name__ == "__main__":
    typer.run(main)
