"""The AEC environment's throughput: steps per second with random legal actions.

Plays whole games of `skyjo.env.env(num_players=4)` (PettingZoo's loop:
`agent_iter`, `last()` for the observation and the mask, a uniformly random
legal action from the mask, `step`) for a few seconds on one core, and
prints steps/s; the same loop on `raw_env` (without PettingZoo's order
wrapper), on `env(engine="reference")` (the game played by the engine
itself instead of the kernel), and the bare engine's actions/s in the same
run, for scale; and the floor of the loop itself: the same loop over an
environment with no game under it (`Idle`: PettingZoo's bookkeeping, a
fresh observation and mask copied each step, games of the same length),
which no environment with this API can beat on this machine.

With `--rlskyjo PYTHON` (a Python with `rlskyjo` 1.0.0 installed, see
`bench/rlskyjo_env.py`) it also measures `rlskyjo` in the same run, with the
same loop and seconds, and prints the ratio.

With `--vector` it measures the vectorized environment instead
(`skyjo.env.SkyjoVectorEnv`, `--tables` tables, 2 players by default) on one
core (the process is pinned to one): learner decisions per second against
`greedy` and against `expected`, whole games, each step's actions uniformly
random among the legal ones (drawn with NumPy from the mask, which counts in
the time), and the same step alone; beside it, in the same run, the AEC
environment's steps per second at the same table size (`env()`, the loop
above) and the Gymnasium environment's decisions per second (`SkyjoEnv`, one
table, on the kernel), and, at 2 players, MaskablePPO's training loop
through the Stable-Baselines3 adapter (`skyjo.env.sb3`: rollouts and
updates, docs/env.md's setting, against `random`) in decisions per second
(with sb3-contrib installed: the `[train]` extra).

    python bench/env.py                 # a table
    python bench/env.py --json          # {"steps_per_s": ...}
    python bench/env.py --profile       # where the time goes (cProfile)
    python bench/env.py --rlskyjo /tmp/rlvenv/bin/python
    python bench/env.py --vector        # 1,024 tables, 2 players
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import random
import subprocess
import time
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

import numpy as np
import typer
from machine import describe  # bench/machine.py, beside this script

from skyjo.engine import NUM_ACTIONS, SWAP, Phase, legal_actions, new_game, step
from skyjo.env import SkyjoEnv, SkyjoVectorEnv, env, raw_env
from skyjo.env.ordering import Ordered

GAME_OVER = int(Phase.GAME_OVER)


class Idle(raw_env):
    """`raw_env`'s PettingZoo bookkeeping with no game under it: every observation a
    copy of one fixed array and mask, the agents in turn, the episode over after
    `length` steps. Not a game: the floor of the loop (module docstring)."""

    def __init__(self, num_players: int, length: int) -> None:
        super().__init__(num_players=num_players)
        self.length = length
        self._array = np.zeros(self.layout.size, self.layout.low.dtype)
        self._mask = np.zeros(NUM_ACTIONS, np.int8)
        self._mask[SWAP : SWAP + 12] = 1  # a typical count of legal actions
        self._steps = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed, options)
        self._steps = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self._array.copy(), "action_mask": self._mask.copy()}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self._steps >= self.length:
            self.terminations = dict.fromkeys(self.agents, True)
        seat = (self._seats[agent] + 1) % len(self.possible_agents)
        self.agent_selection = self.possible_agents[seat]


def run_env(
    make: Callable[..., Any], players: int, seconds: float, seed: int
) -> tuple[float, float]:
    """AEC steps per second over whole games, random legal actions, and the mean
    steps of a game (the final steps of the terminated agents included)."""
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
    return steps / (time.perf_counter() - start), steps / games


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


def run_vector(
    players: int, tables: int, opponent: str, seconds: float, seed: int
) -> tuple[float, float, float]:
    """The vectorized environment's learner decisions per second (one decision
    a table a step): with the random legal actions drawn from the masks, and
    the steps alone; and the mean decisions of a game."""
    envs = SkyjoVectorEnv(tables, opponents=[opponent] * (players - 1))
    rng = np.random.default_rng(seed)
    _, info = envs.reset(seed=seed)
    steps, games, stepping = 0, 0, 0.0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        masks = info["action_mask"]
        actions = (rng.random(masks.shape, dtype=np.float32) * masks).argmax(axis=1)
        before = time.perf_counter()
        _, _, terminated, truncated, info = envs.step(actions)
        stepping += time.perf_counter() - before
        steps += 1
        games += int(np.count_nonzero(terminated | truncated))
    decisions = steps * tables
    per_game = decisions / games if games else float("nan")  # none ended (a short warm-up)
    return decisions / (time.perf_counter() - start), decisions / stepping, per_game


def run_single(players: int, seconds: float, seed: int) -> float:
    """The Gymnasium environment's decisions per second (one table, on the
    kernel, against `greedy`), random legal actions."""
    table = SkyjoEnv(opponents=["greedy"] * (players - 1))
    choose = random.Random(seed).random
    decisions, games = 0, 0
    _, info = table.reset(seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        legal = info["action_mask"].nonzero()[0]
        _, _, terminated, truncated, info = table.step(int(legal[int(choose() * len(legal))]))
        decisions += 1
        if terminated or truncated:
            games += 1
            _, info = table.reset(seed=seed + games)
    return decisions / (time.perf_counter() - start)


def run_sb3(seconds: float, opponent: str) -> float | None:
    """sb3-contrib's MaskablePPO on `skyjo.env.sb3.MaskableVecEnv` in docs/env.md's
    setting (64 tables, `slots=8`, `reward="win"`, `n_steps=128`, `batch_size=2048`,
    one PyTorch thread): learner decisions per second of `learn`, its rollouts
    and updates; None without sb3-contrib (the [train] extra)."""
    try:
        import torch
        from sb3_contrib import MaskablePPO

        from skyjo.env.sb3 import MaskableVecEnv
    except ModuleNotFoundError:
        return None
    torch.set_num_threads(1)
    envs = MaskableVecEnv(SkyjoVectorEnv(64, opponents=[opponent], reward="win", slots=8))
    model = MaskablePPO("MlpPolicy", envs, n_steps=128, batch_size=2048, seed=1, device="cpu")
    rollout = envs.num_envs * 128  # one rollout, then its updates
    model.learn(rollout)  # warm up
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        model.learn(rollout, reset_num_timesteps=False)
        decisions += rollout
    return decisions / (time.perf_counter() - start)


def vector_main(players: int, tables: int, seconds: float, seed: int, as_json: bool) -> None:
    """`--vector`: the vectorized environment against greedy and expected, the
    AEC and Gymnasium environments beside it, on one core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    for opponent in ("greedy", "expected"):  # warm up: compile or load the code
        run_vector(players, 8, opponent, 0.2, seed)
    run_env(env, players, 0.3, seed)
    run_single(players, 0.3, seed)
    greedy, greedy_alone, greedy_game = run_vector(players, tables, "greedy", seconds, seed)
    expected, expected_alone, _ = run_vector(players, tables, "expected", seconds, seed)
    aec, _ = run_env(env, players, seconds, seed)
    single = run_single(players, seconds, seed)
    sb3 = run_sb3(2 * seconds, "random") if players == 2 else None
    if as_json:
        figures = {
            "players": players,
            "tables": tables,
            "greedy_decisions_per_s": round(greedy),
            "greedy_step_decisions_per_s": round(greedy_alone),
            "expected_decisions_per_s": round(expected),
            "expected_step_decisions_per_s": round(expected_alone),
            "aec_steps_per_s": round(aec),
            "single_decisions_per_s": round(single),
            "sb3_random_decisions_per_s": sb3 and round(sb3),
        }
        print(json.dumps(figures))
        return
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{describe()}; load average {load}; one core")
    print(f"{players} players, {seconds:g} s each, random legal actions, whole games:")
    print(f"  vector, greedy    {greedy:>12,.0f} decisions/s ({tables:,} tables; the step alone:")
    print(f"                    {greedy_alone:>12,.0f}; {greedy_game:.0f} decisions a game)")
    print(f"  vector, expected  {expected:>12,.0f} decisions/s (the step alone:")
    print(f"                    {expected_alone:>12,.0f})")
    print(f"  env()             {aec:>12,.0f} AEC steps/s (every seat a random agent)")
    print(f"  SkyjoEnv()        {single:>12,.0f} decisions/s (one table, greedy, on the kernel)")
    print(f"  vector against greedy: {greedy / aec:.1f} times env()'s steps/s")
    if sb3 is not None:
        print(f"  MaskablePPO       {sb3:>12,.0f} decisions/s (sb3-contrib through skyjo.env.sb3,")
        print("                    64 tables, random, rollouts and updates, one thread)")


def run_rlskyjo(python: str, players: int, seconds: float) -> float:
    """`rlskyjo`'s steps/s: bench/rlskyjo_env.py run by `python`, which has it."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rlskyjo_env.py")
    done = subprocess.run(
        [python, script, str(players), str(seconds)], capture_output=True, text=True, check=True
    )
    return float(done.stdout.split(":")[-1].split()[0].replace(",", ""))


def main(
    players: Annotated[
        int | None, typer.Option(help="players at the table (4; --vector: 2)")
    ] = None,
    seconds: Annotated[float, typer.Option(help="time per measurement")] = 5.0,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
    profile: Annotated[bool, typer.Option(help="profile the env() loop instead")] = False,
    rlskyjo: Annotated[
        str | None, typer.Option(help="a Python with rlskyjo 1.0.0, to measure it too")
    ] = None,
    vector: Annotated[bool, typer.Option(help="the vectorized environment instead")] = False,
    tables: Annotated[int, typer.Option(help="--vector: tables stepped together")] = 1024,
) -> None:
    if vector:
        vector_main(players or 2, tables, seconds, seed, as_json)
        return
    players = players or 4
    run_env(env, players, 0.3, seed)  # warm up: imports, caches
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(run_env, env, players, seconds, seed)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    wrapped, _ = run_env(env, players, seconds, seed)
    raw, steps_per_game = run_env(raw_env, players, seconds, seed)
    reference, _ = run_env(partial(env, engine="reference"), players, seconds, seed)
    engine = run_engine(players, seconds, seed)
    length = round(steps_per_game) - players  # Idle's terminated agents take their own steps
    idle = partial(Idle, length=length)
    floor, _ = run_env(lambda num_players: Ordered(idle(num_players)), players, seconds, seed)
    raw_floor, _ = run_env(idle, players, seconds, seed)
    other = run_rlskyjo(rlskyjo, players, seconds) if rlskyjo else None
    if as_json:
        print(
            json.dumps(
                {
                    "players": players,
                    "steps_per_s": round(wrapped),
                    "raw_steps_per_s": round(raw),
                    "reference_steps_per_s": round(reference),
                    "engine_actions_per_s": round(engine),
                    "floor_steps_per_s": round(floor),
                    "raw_floor_steps_per_s": round(raw_floor),
                    **({} if other is None else {"rlskyjo_steps_per_s": round(other)}),
                }
            )
        )
        return
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{describe()}; load average {load}")
    print(f"{players} players, {seconds:g} s each, random legal actions:")
    print(f"  env()      {wrapped:>10,.0f} AEC steps/s (observation and mask every step)")
    print(f"  raw_env()  {raw:>10,.0f} AEC steps/s")
    print(f"  reference  {reference:>10,.0f} AEC steps/s (env(engine='reference'))")
    print(f"  engine     {engine:>10,.0f} actions/s (legal_actions and step alone)")
    print(f"  floor      {floor:>10,.0f} AEC steps/s (env()'s loop with no game: Idle)")
    print(f"  raw floor  {raw_floor:>10,.0f} AEC steps/s (raw_env()'s loop with no game)")
    if other is not None:
        print(f"  rlskyjo    {other:>10,.0f} AEC steps/s (1.0.0, raw; one round a game)")
        print(f"  env() is {wrapped / other:.1f} times rlskyjo")


if __name__ == "__main__":
    typer.run(main)
