"""Fill Numba's on-disk cache (`skyjo.kernel.cache`) before the tests run.

On a clean checkout the cache is empty, and each of the test session's worker
processes would compile the same compiled functions at the same time, in the
middle of its tests. `make test` runs this first, beside the system packages'
installation: two processes, each playing a share of what the package compiles
(games of every bot and a review; the environments and self-play), so that
every function is compiled once and the tests' workers load it. Whatever is
left out is compiled by the tests as before: this script only saves time.

    python tools/compile_kernel.py        # both shares, in two processes
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor


def bots_and_review() -> str:
    """The batch loop with each compiled policy, then a round of each bot by the
    reference engine and its review."""
    start = time.perf_counter()
    from skyjo.analysis import review
    from skyjo.batch import play_fast, play_seeded
    from skyjo.bots import make_bot
    from skyjo.match import Match, Seat
    from skyjo.rules import Rules

    play_seeded([["random", "greedy", "basic", "expected"]], [1], [[1, 2, 3, 4]])
    for policy in ("random", "greedy"):
        play_fast(2, policy, games=2, batch=2)
    for specs in (["search:turns=150", "best"], ["expected", "basic", "greedy"]):
        seats = [Seat(f"s{i}", spec) for i, spec in enumerate(specs)]
        match = Match(seats, Rules(target_score=1000), 1, make=make_bot, record_events=False)
        while not match.state.results:
            match.advance(1)
        review(match.record(), worlds=5)
    return f"bots and review {time.perf_counter() - start:.0f} s"


def environments() -> str:
    """The vector environment (random and teacher actions, discounted), the AEC
    environment's kernel mode, and self-play for the value's training."""
    start = time.perf_counter()
    import numpy as np

    from skyjo.env import SkyjoVectorEnv, raw_env
    from skyjo.train.value_data import Spec, generate

    envs = SkyjoVectorEnv(
        num_envs=2, opponents=["greedy", "expected"], discount=0.9, max_round_turns=40
    )
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    for turn in range(200):
        masks = info["action_mask"]
        if turn % 2:
            actions = envs.teacher_actions("expected")
        else:
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, _, _, info = envs.step(actions)
    game = raw_env(num_players=3)
    game.reset(seed=1)
    for agent in game.agent_iter(300):
        _, _, terminated, truncated, _ = game.last()
        mask = game.observe(agent)["action_mask"]
        game.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
    generate(Spec(players=3, games=2, seats=("value", "expected", "greedy"), seed=5))
    return f"environments and self-play {time.perf_counter() - start:.0f} s"


def main() -> int:
    start = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        done = [f.result() for f in [pool.submit(bots_and_review), pool.submit(environments)]]
    print(f"compiled ({', '.join(done)}) in {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
