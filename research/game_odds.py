"""Compute `skyjo.kernel.game_odds`' table from scratch: self-play rounds of the
search's playout policy (the new `expected`'s cheap choice) on the rules
kernel at two players, the frequency of each pair of round scores (ender's
penalty included; both seat orders counted, so the table is symmetric), then
the exact recursion over the game's totals (`game_odds.solve`). Prints a few
of its chances beside the normal model the search used before, and writes
the table the package ships.

    python research/game_odds.py                       # the shipped table
    python research/game_odds.py --rounds 2000 --out /tmp/odds.npy
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from forecast import deal  # research/forecast.py, beside this script
from machine import describe  # research/machine.py, beside this script

from skyjo import kernel
from skyjo.bots.search import Valuer
from skyjo.engine import new_game
from skyjo.kernel import SCORES, game_odds
from skyjo.kernel.playouts import EXPECTED, Playouts
from skyjo.observation import observe
from skyjo.rules import MAX_PLAYERS

#: Totals (first player, second player) at which the two models are shown.
SHOWN = ((0, 0), (20, 10), (50, 30), (60, 80), (80, 60), (85, 60), (90, 70), (95, 90))


def round_scores(rounds: int, seed: int) -> Counter[tuple[int, int]]:
    """How often each pair of round scores came up in `rounds` two-player
    self-play rounds, counted in both seat orders."""
    rng = random.Random(seed)
    playouts = Playouts(random.Random(rng.getrandbits(64)), EXPECTED)
    t = kernel.new_tables(1, MAX_PLAYERS, 2)
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(rounds):
        deal(t, rng, 2)
        while not playouts.play_turns(t, 0, 1):
            pass
        x, y = (int(v) for v in t.seats[0, SCORES, :2])
        counts[x, y] += 1
        counts[y, x] += 1
    return counts


def normal(mine: int, other: int) -> float:
    """The search's normal model at two players: its valuer without the
    table (`search.Valuer`, `odds` 0) on a scored table with these totals."""
    t = kernel.new_tables(1, 2, players=2)
    t.totals[0] = [mine, other]
    out = np.zeros(1)
    Valuer(observe(new_game(2, seed=0), 0), 1, 0)(t, np.arange(1), out)
    return float(out[0])


def main(
    rounds: Annotated[int, typer.Option(help="self-play rounds")] = 100_000,
    seed: Annotated[int, typer.Option()] = 1,
    out: Annotated[Path, typer.Option(help="the table written")] = game_odds.TABLE_FILE,
) -> None:
    """Count round scores, solve the recursion and write the table to `out`."""
    print(f"{rounds:,} two-player rounds, seed {seed}; {describe()}")
    begun = time.perf_counter()
    counts = round_scores(rounds, seed)
    outcomes = np.array(list(counts), dtype=np.int64)
    weights = np.array(list(counts.values()), dtype=np.float64)
    mean = float(np.average(outcomes[:, 0], weights=weights))
    spread = math.sqrt(float(np.average((outcomes[:, 0] - outcomes[:, 1]) ** 2, weights=weights)))
    print(
        f"{len(counts):,} different pairs of scores; a round scores {mean:.2f} on average, "
        f"the two scores differ by {spread:.1f} (root mean square); "
        f"{time.perf_counter() - begun:.0f} s"
    )
    begun = time.perf_counter()
    table = game_odds.solve(outcomes, weights)
    print(f"solved in {time.perf_counter() - begun:.1f} s")
    for mine, other in SHOWN:
        exact = game_odds.chance(table, mine, other, game_odds.REFERENCE)
        model = normal(mine, other)
        print(f"  totals {mine:>3} and {other:>3}: {exact:.3f} (normal model {model:.3f})")
    game_odds.save(table, out)
    print(f"wrote {out}")


if __name__ == "__main__":
    typer.run(main)
