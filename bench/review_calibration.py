"""The coach's calibration table (docs/review.md): each bot's accuracy and
points lost per decision, reviewed by `skyjo review`'s evaluator.

Each bot plays `--games` two-player games against `expected` (seats
alternating, seeded); only its own seat is reviewed. Printed: per bot, the
mean accuracy and points lost per non-forced decision over its games, the
share of its decisions in each label, and quantiles of its losses.

    python bench/review_calibration.py --games 200 --out docs/review-calibration.json
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from skyjo.analysis import review
from skyjo.analysis.rating import LABEL_NAMES
from skyjo.match import Match, Seat
from skyjo.rules import Rules

LADDER = ("random", "greedy", "expected", "best", "search")


def play(spec: str, seat: int, seed: int) -> dict:
    """A seeded two-player game of `spec` (at `seat`) against `expected`."""
    specs = ["expected", "expected"]
    specs[seat] = spec
    match = Match([Seat(f"{s}{i}", s) for i, s in enumerate(specs)], Rules(), seed)
    match.advance()
    return match.record()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--bots", default=",".join(LADDER))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    table = {}
    for spec in args.bots.split(","):
        start = time.perf_counter()
        accuracy, lost, losses = [], [], []
        labels = dict.fromkeys(LABEL_NAMES, 0)
        for g in range(args.games):
            seat = g % 2
            reviewed = review(play(spec, seat, 1000 + g), seats=[seat], worlds=args.worlds)
            player = reviewed.players[0]
            accuracy.append(player.accuracy)
            lost.append(player.points_lost)
            for name, count in player.labels.items():
                labels[name] += count
            losses += [d.loss for d in reviewed.decisions if not d.forced]
        total = sum(labels.values())
        row = {
            "games": args.games,
            "accuracy": float(np.mean(accuracy)),
            "accuracy_se": float(np.std(accuracy, ddof=1) / np.sqrt(len(accuracy))),
            "points_lost": float(np.mean(lost)),
            "points_lost_se": float(np.std(lost, ddof=1) / np.sqrt(len(lost))),
            "labels": {k: v / total for k, v in labels.items()},
            "loss_quantiles": {
                q: float(np.quantile(losses, float(q))) for q in ("0.5", "0.9", "0.99")
            },
            "seconds": time.perf_counter() - start,
        }
        table[spec] = row
        print(spec, json.dumps(row), flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            json.dump({"worlds": args.worlds, "bots": table}, file, indent=1)


if __name__ == "__main__":
    main()
