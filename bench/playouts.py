"""The cost of `search`'s playouts: the `expected` playout policy
(`skyjo.kernel.playout_expected`, at the search's cheap settings) playing the
rest of a round from mid-round kernel tables, on one core.

Each table size plays `--playouts` playouts from each of 8 tables dealt
4 turns per player into a random round (`kernel.mid_round`), with the same
reshuffle generator every repeat; the figure is the best of `--repeats`
repeats, in CPU microseconds per playout turn (one turn is two decisions:
take or draw, then place), and the checksum (the sum of every playout's
round scores) shows that two versions of the code played the same playouts.
The playouts are the kernel's (`Playouts.play_copies`).

    python bench/playouts.py
    python bench/playouts.py --players 4 --playouts 400 --repeats 5
"""

from __future__ import annotations

import random
import time
from typing import Annotated

import typer
from kernel import mid_round  # bench/kernel.py, beside this script
from machine import describe  # bench/machine.py, beside this script
from rich.console import Console
from rich.table import Table

from skyjo import kernel
from skyjo.kernel import playout_expected
from skyjo.kernel.playouts import EXPECTED, Playouts

TABLES = 8


def measure(players: int, playouts: int, repeats: int) -> tuple[float, int, int]:
    """(best CPU µs per playout turn, turns, checksum) at `players` seats."""
    worlds = [mid_round(players, seed) for seed in range(TABLES)]
    for world in worlds:
        world.turns[0] = 0  # a playout counts its turns from its start
    scratch = kernel.new_tables(1, players)
    prm = playout_expected.params()
    best = float("inf")
    turns = checksum = 0
    for _ in range(repeats):
        play = Playouts(random.Random(1), EXPECTED, prm)
        turns = checksum = 0
        start = time.process_time()
        for world in worlds:
            t, s = play.play_copies(world, scratch, playouts)
            turns, checksum = turns + t, checksum + s
        best = min(best, (time.process_time() - start) / turns * 1e6)
    return best, turns, checksum


def main(
    players: Annotated[list[int] | None, typer.Option(help="table sizes")] = None,
    playouts: Annotated[int, typer.Option(help="playouts per table")] = 200,
    repeats: Annotated[int, typer.Option(help="repeats (the best counts)")] = 3,
) -> None:
    """Print the playout policy's CPU µs per playout turn at each table size."""
    measure(2, 1, 1)  # compile, or load the cache
    table = Table(title="search's playouts (the expected policy), one core", caption=describe())
    for head in ("players", "playouts", "turns", "µs per turn (CPU)", "checksum"):
        table.add_column(head, justify="right")
    for n in players or [2, 4, 8]:
        us, turns, checksum = measure(n, playouts, repeats)
        table.add_row(str(n), f"{playouts * TABLES:,}", f"{turns:,}", f"{us:.1f}", str(checksum))
    Console(width=120).print(table)


if __name__ == "__main__":
    typer.run(main)
