"""Fit `skyjo.kernel.forecast`'s weights from scratch: self-play rounds of the
search's playout policy (the new `expected`'s cheap choice) on the rules
kernel, the features of every player at every turn's start, and the round
score each went on to get (with the ender's penalty); least squares, one
weight vector per number of players. Prints each fit's error against the
plain expected score of the grid, and writes the JSON the package ships.

    python research/forecast.py                      # the shipped weights
    python research/forecast.py --rounds 500 --out /tmp/forecast.json
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from machine import describe  # research/machine.py, beside this script

from skyjo import kernel
from skyjo.kernel import HELD, NO_CARD, PLAYERS, SCORES, forecast
from skyjo.kernel.playouts import EXPECTED, Playouts
from skyjo.rules import DECK, GRID_SIZE, MAX_PLAYERS, MIN_PLAYERS


def deal(t: kernel.Tables, rng: random.Random, players: int) -> None:
    """Deal table 0 of `t` a new round from a shuffled deck, and turn up two
    random cards of each of the `players` grids (RULES.md 2.2)."""
    deck = list(DECK)
    rng.shuffle(deck)
    kernel.deal(t, 0, np.array(deck, dtype=np.int8))
    for _seat in range(players):
        for k in rng.sample(range(GRID_SIZE), 2):
            kernel.reveal(t, 0, k)


def sample(players: int, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The features (rows) and final round scores (targets) of every player at
    the start of every turn of `rounds` self-play rounds at `players` seats."""
    rng = random.Random(seed)
    playouts = Playouts(random.Random(rng.getrandbits(64)), EXPECTED)
    t = kernel.new_tables(1, MAX_PLAYERS, players)
    feats = np.zeros((MAX_PLAYERS, forecast.NFEATURES))
    rows: list[np.ndarray] = []
    targets: list[float] = []
    for _ in range(rounds):
        deal(t, rng, players)
        start = len(rows)
        while True:
            assert t.slots[0, HELD] == NO_CARD
            forecast.features(t, 0, playouts.ints, feats)
            rows.extend(feats[: t.slots[0, PLAYERS]].copy())
            if playouts.play_turns(t, 0, 1):
                break
        scores = t.seats[0, SCORES, :players].astype(float)
        targets.extend(np.tile(scores, (len(rows) - start) // players))
    return np.array(rows), np.array(targets)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares weights of y on x."""
    weights, *_ = np.linalg.lstsq(x, y, rcond=None)
    return weights


def main(
    rounds: Annotated[int, typer.Option(help="self-play rounds per number of players")] = 1000,
    seed: Annotated[int, typer.Option()] = 1,
    out: Annotated[Path, typer.Option(help="the JSON written")] = forecast.WEIGHTS_FILE,
) -> None:
    """Fit one weight vector per number of players and write them to `out`."""
    print(f"{rounds} rounds per table size, seed {seed}; {describe()}")
    weights: dict[str, list[float]] = {}
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        begun = time.perf_counter()
        x, y = sample(players, rounds, seed * 100 + players)
        half = len(y) // 2  # fitted on the first half, checked on the second
        w = fit(x[:half], y[:half])
        test_x, test_y = x[half:], y[half:]
        rmse = float(np.sqrt(np.mean((test_x @ w - test_y) ** 2)))
        plain = float(np.sqrt(np.mean((test_x[:, 1] - test_y) ** 2)))
        spread = float(np.std(test_y))
        weights[str(players)] = [round(float(v), 6) for v in fit(x, y)]
        print(
            f"{players} players: {len(y):,} rows, held-out error {rmse:.2f} points "
            f"(the grid's expected score alone {plain:.2f}, the scores' spread {spread:.2f}); "
            f"{time.perf_counter() - begun:.0f} s"
        )
    out.write_text(
        json.dumps({"features": list(forecast.NAMES), "weights": weights}, indent=1) + "\n"
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    typer.run(main)
