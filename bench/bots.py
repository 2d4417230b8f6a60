"""Bots' time per move: the median, 99th percentile and mean of `choose` calls.

Each bot given plays seat 0 of seeded games against `--rivals` (by default
`expected`) at each table size of `--players`, until `--moves` of its own
decisions (each `choose` call: a turn is two, take or draw then place) have
been timed, wall-clock and CPU (this process's). Opening reveals and
next-round calls are timed too, as a tournament makes them. Before timing, one
game warms up the bot (imports, Numba's compiled code from its cache). The
load average is printed: on a shared machine the wall-clock figures say as
much about the other work as about the bot; the CPU figures less.

    python bench/bots.py                                  # expected at 2, 4 and 8 players
    python bench/bots.py --bots search,expected --players 4 --moves 600
    python bench/bots.py --json
"""

from __future__ import annotations

import json
import os
import statistics
import time
from typing import Annotated, Any

import typer
from machine import describe  # bench/machine.py, beside this script
from rich.console import Console
from rich.table import Table

from skyjo.bots import make_bot, split_specs
from skyjo.engine import Phase, new_game, step
from skyjo.observation import observe


def move_times(
    spec: str, rivals: str, players: int, moves: int, seed: int
) -> tuple[list[float], list[float]]:
    """Seconds per `choose` call of `spec` at seat 0 against `rivals`: wall-clock and CPU."""
    wall: list[float] = []
    cpu: list[float] = []
    game = 0
    while len(wall) < moves:
        bots = [make_bot(spec, seed + game)]
        bots += [make_bot(rivals, seed + game + p) for p in range(1, players)]
        state = new_game(players, seed=seed + game)
        while state.phase != Phase.GAME_OVER and len(wall) < moves:
            seat = state.player
            observation = observe(state, seat)
            start, start_cpu = time.perf_counter(), time.process_time()
            action = bots[seat].choose(observation)
            if seat == 0:
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            state = step(state, action)
        game += 1
    return wall, cpu


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main(
    bots: Annotated[str, typer.Option(help="bot specs to time, comma-separated")] = "expected",
    rivals: Annotated[str, typer.Option(help="the bot in the other seats")] = "expected",
    players: Annotated[str, typer.Option(help="table sizes, comma-separated")] = "2,4,8",
    moves: Annotated[int, typer.Option(help="moves to time per bot and table size")] = 3000,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    """Time each bot's moves at each table size and print the figures."""
    sizes = [int(part) for part in players.split(",")]
    specs = split_specs(bots)
    rows: list[dict[str, Any]] = []
    for spec in specs:
        move_times(spec, rivals, 2, 50, seed + 10_000)  # warm up
        for size in sizes:
            wall, cpu = move_times(spec, rivals, size, moves, seed)
            rows.append(
                {
                    "spec": spec,
                    "players": size,
                    "moves": len(wall),
                    "median_ms": round(1000 * statistics.median(wall), 4),
                    "p99_ms": round(1000 * percentile(wall, 99), 4),
                    "mean_ms": round(1000 * statistics.fmean(wall), 4),
                    "median_cpu_ms": round(1000 * statistics.median(cpu), 4),
                    "p99_cpu_ms": round(1000 * percentile(cpu, 99), 4),
                }
            )
    result = {
        "machine": describe(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "rivals": rivals,
        "bots": rows,
    }
    if as_json:
        print(json.dumps(result))
        return
    load = ", ".join(f"{x:.2f}" for x in result["load_average"])
    table = Table(title=f"ms per move against {rivals} ({result['machine']}; load {load})")
    for name in ("bot", "players", "moves", "median", "p99", "mean", "CPU median", "CPU p99"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    for row in rows:
        table.add_row(
            row["spec"],
            str(row["players"]),
            f"{row['moves']:,}",
            *(f"{row[key]:.3f}" for key in ("median_ms", "p99_ms", "mean_ms")),
            *(f"{row[key]:.3f}" for key in ("median_cpu_ms", "p99_cpu_ms")),
        )
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
