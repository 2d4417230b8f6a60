"""Train a policy on skyjo's Gymnasium environment on a CPU in a few minutes.

The policy is linear and masked: each legal action gets a score, a weighted
sum of a few features read from the observation array (docs/env.md's layout:
the agent's grid, the card in hand, the discard pile's top), and the policy
plays the best-scored legal action. Weights are shared by the 12 grid
positions (an exchange at k is scored from position k's features), so there
are only 17 of them. They are trained by the cross-entropy method: sample
weights from a Gaussian, play each sample on the same deals (one round
against `greedy`, reward = minus the agent's round score), refit the
Gaussian to the best, repeat.

Then full games (to 100) measure it, two players, seats drawn per game:
against `random`, against `greedy`, and `greedy` against `random` for scale.

    python examples/train.py            # about a minute on one core
    python examples/train.py --quick    # seconds: a smoke test
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np

from skyjo.bots import Bot, make_bot
from skyjo.engine import DRAW, FLIP, NEXT_ROUND, REVEAL, SWAP, TAKE_DISCARD
from skyjo.env import Layout, SkyjoEnv
from skyjo.observation import observe
from skyjo.rules import COLUMN_PARTNERS, GRID_SIZE, Rules

LAYOUT = Layout(2)
VALUES, DOWN, CLEARED = (LAYOUT.grid(0, plane) for plane in range(3))
HELD, DISCARD_TOP = LAYOUT.start("held_value"), LAYOUT.start("discard_top")
MEAN_CARD = 5.07  # the mean of the 150 cards (RULES.md 1): 760 / 150
# The weights: [take the discard: 4][exchange: 7][discard and flip: 4][reveal: 2]
SIZES = {"take": 4, "swap": 7, "flip": 4, "reveal": 2}
NUM_WEIGHTS = sum(SIZES.values())
#: What a round that never ends costs in training (worse than any real round).
STALLED = 300.0
Policy = Callable[[np.ndarray, np.ndarray], int]


def grid(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return obs[VALUES], obs[DOWN], obs[CLEARED]


def pairs(card: float, k: int, values: np.ndarray, down: np.ndarray) -> int:
    """How many face-up cards of k's column (k itself aside) equal `card`."""
    return sum(1 for j in COLUMN_PARTNERS[k] if not down[j] and values[j] == card)


def features(obs: np.ndarray, action: int) -> tuple[str, list[float]]:
    """The kind of `action` and its features, from the observation alone."""
    values, down, cleared = grid(obs)
    held = float(obs[HELD])
    if action in (DRAW, TAKE_DISCARD):
        top = float(obs[DISCARD_TOP])
        best_pair = max(pairs(top, k, values, down) for k in range(GRID_SIZE) if not cleared[k])
        worst = max(
            (values[k] for k in range(GRID_SIZE) if not down[k] and not cleared[k]), default=0
        )
        return "take", [1.0, top, best_pair, top - worst]
    if SWAP <= action < FLIP:
        k = action - SWAP
        old = MEAN_CARD if down[k] else float(values[k])
        return "swap", [
            1.0,
            float(down[k]),
            old,
            held,
            held - old,
            pairs(held, k, values, down),
            pairs(old, k, values, down) if not down[k] else 0,
        ]
    if FLIP <= action < NEXT_ROUND:
        k = action - FLIP
        return "flip", [1.0, held, float(down.sum()), sum(1 - down[j] for j in COLUMN_PARTNERS[k])]
    k = action - REVEAL
    return "reveal", [1.0, sum(1 - down[j] for j in COLUMN_PARTNERS[k])]


def split(weights: np.ndarray) -> dict[str, np.ndarray]:
    parts, at = {}, 0
    for kind, size in SIZES.items():
        parts[kind] = weights[at : at + size]
        at += size
    return parts


def linear(weights: np.ndarray) -> Policy:
    """The masked linear policy of `weights`: the best-scored legal action
    (drawing scores 0, the reference the discard's score is measured from)."""
    parts = split(weights)

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        best, chosen = -math.inf, -1
        for action in np.flatnonzero(mask):
            action = int(action)
            if action == DRAW:
                score = 0.0
            else:
                kind, phi = features(obs, action)
                score = float(np.dot(parts[kind], phi))
            if score > best:
                best, chosen = score, action
        return chosen

    return act


def episode(table: SkyjoEnv, policy: Policy, seed: int) -> float:
    """One episode of `policy`; its summed reward, and -STALLED for a round
    that never ends (truncated: a policy must not learn to stall)."""
    observation, _ = table.reset(seed=seed)
    total, over = 0.0, False
    while not over:
        action = policy(observation["observation"], observation["action_mask"])
        observation, reward, terminated, truncated, _ = table.step(action)
        total += float(reward) - STALLED * truncated
        over = terminated or truncated
    return total


def train(iterations: int, population: int, games: int, seed: int) -> np.ndarray:
    """The cross-entropy method over the weights; the final mean."""
    rng = np.random.default_rng(seed)
    table = SkyjoEnv(opponents=["greedy"], one_round=True, seat=None, max_round_turns=120)
    mean, std = np.zeros(NUM_WEIGHTS), np.full(NUM_WEIGHTS, 2.0)
    elite = max(2, population // 4)
    for it in range(iterations):
        samples = mean + std * rng.standard_normal((population, NUM_WEIGHTS))
        deals = [seed * 100_000 + it * 1000 + g for g in range(games)]  # common deals
        scores = np.array([np.mean([episode(table, linear(w), d) for d in deals]) for w in samples])
        best = samples[np.argsort(scores)[-elite:]]
        mean, std = best.mean(axis=0), best.std(axis=0) + 0.05
        print(
            f"iteration {it + 1:>2}: mean round score {-scores.mean():6.1f}, "
            f"best {-scores.max():6.1f}",
            flush=True,
        )
    return mean


def seated(table: SkyjoEnv, bot: Bot) -> Policy:
    """A bot in the agent's seat: it plays from the seat's engine observation."""
    return lambda obs, mask: bot.choose(observe(table.game_state, table.seat))


def win_rate(policy: Policy | str, opponent: str, games: int, seed: int) -> tuple[float, float]:
    """Win rate of `policy` (or a bot's name) against `opponent` in full 2-player
    games (a shared win counts), with the half-width of its 95% interval."""
    table = SkyjoEnv(opponents=[opponent], reward="win", seat=None, rules=Rules())
    wins = 0
    for g in range(games):
        play = policy if not isinstance(policy, str) else seated(table, make_bot(policy, seed + g))
        wins += episode(table, play, seed + g) > 0
    rate = wins / games
    return rate, 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds: a smoke test")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    iterations, population, games, matches = (2, 4, 2, 4) if args.quick else (12, 20, 16, 300)
    start = time.perf_counter()
    weights = train(iterations, population, games, args.seed)
    trained = time.perf_counter() - start
    print(f"trained in {trained:.0f} s; weights: {np.round(weights, 2).tolist()}")
    rows = [
        ("trained", "random", linear(weights)),
        ("trained", "greedy", linear(weights)),
        ("greedy", "random", "greedy"),
    ]
    for name, opponent, policy in rows:
        rate, half = win_rate(policy, opponent, matches, seed=10_000 + args.seed)
        print(
            f"{name} vs {opponent}: wins {100 * rate:.1f}% ± {100 * half:.1f} "
            f"of {matches} full 2-player games"
        )
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
