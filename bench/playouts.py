"""The cost of `search`'s playouts: the `expected` playout policy
(`skyjo.kernel.playout_expected`, at the search's cheap settings) playing the
rest of a round from mid-round kernel tables, on one core.

Each table size plays `--playouts` playouts from each of 8 tables dealt
4 turns per player into a random round (`kernel.mid_round`), with the same
reshuffle generator every repeat; the figure is the best of `--repeats`
repeats, in CPU microseconds per playout turn (one turn is two decisions:
take or draw, then place), and the checksum (the sum of every playout's
round scores) shows that two versions of the code played the same playouts.

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
from numba import njit
from rich.console import Console
from rich.table import Table

from skyjo import kernel
from skyjo.kernel import playout_expected
from skyjo.kernel.playouts import EXPECTED, GIVE_UP, Playouts, play_out

TABLES = 8


@njit(cache=True)
def _play(world, scratch, count, prm, floats, ints, mt):  # type: ignore[no-untyped-def]
    """`count` playouts from copies of world table 0: (turns, sum of round scores)."""
    turns = 0
    scores = 0
    n = world.slots[0, kernel.PLAYERS]
    for _ in range(count):
        kernel.copy_table(world, 0, scratch, 0)
        play_out(scratch, 0, EXPECTED, prm, floats, ints, mt, GIVE_UP)
        turns += scratch.slots[0, kernel.TURNS]
        for p in range(n):
            scores += scratch.seats[0, kernel.TOTALS, p] - world.seats[0, kernel.TOTALS, p]
    return turns, scores


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
            t, s = _play(world, scratch, playouts, prm, play.floats, play.ints, play.mt)
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
