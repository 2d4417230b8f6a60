"""Batch simulator throughput: whole games in compiled code, on one core.

Plays complete games (to the target score) with `skyjo.batch.play_fast`:
`players` copies of one policy (`random` or `greedy`), decks, reshuffles and
the random policy's choices from the cheap compiled generator, the rules
from the kernel. Prints turns/s and games/s for 2 and 4 players, pinned to one
CPU (`os.sched_setaffinity`), and the reference engine's turns/s between
random players measured in the same run (`bench/engine.py`'s loop) with the
ratio. Where the time goes: the share spent shuffling and dealing decks
(timed apart, per round, times the rounds played: the loop's own shuffle and
the kernel's `deal`); the rest is the turns.

Every game is played by the kernel's driver (`skyjo.kernel.loop.advance`).
There is no "floor" column (a game with no decision to make, what the rules
alone cost a turn) any more: the loop has no policy that costs nothing, and a
loop of rules written here to stand in for one would measure the bench's
driver, not the kernel's (issue 54).

    python bench/batch.py                  # a table
    python bench/batch.py --json           # one JSON object per line
    python bench/batch.py --workers 2      # every worker on its own CPU, summed
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from typing import Annotated, Any

import typer
from engine import play_random_games  # bench/engine.py, beside this script
from machine import describe  # bench/machine.py, beside this script
from numba import njit
from rich.console import Console
from rich.table import Table

from skyjo import kernel
from skyjo.batch.games import FastRun, fast_state, play_fast
from skyjo.kernel import loop

POLICIES = ("random", "greedy")


@njit(cache=True)
def _deals(t, mt, fast, deck, rounds):  # type: ignore[no-untyped-def]
    """Shuffle and deal `rounds` decks at table 0, as the fast loop does."""
    for _ in range(rounds):
        loop._fast_deck(mt, fast, 0, deck)
        kernel.deal(t, 0, deck[0])


def deal_seconds(players: int, rounds: int) -> float:
    """Seconds the fast loop spends shuffling and dealing `rounds` rounds."""
    t, _, mt, fast, _, deck = fast_state(1, players, "random", 0)[:6]
    _deals(t, mt, fast, deck, 10)
    start = time.perf_counter()
    _deals(t, mt, fast, deck, rounds)
    return time.perf_counter() - start


def pin(cpu: int | None) -> None:
    """Run on one CPU: `cpu`, or the first this process may use."""
    allowed = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {allowed[0] if cpu is None else cpu})


def play_for(
    players: int, policy: str, seconds: float, seed: int, batch: int
) -> tuple[FastRun, float]:
    """Whole games of `policy` on the batch loop (`play_fast`, 16 games a table
    a call, `batch` tables) until `seconds` have passed: what they played, and
    the time it took."""
    play_fast(players, policy, batch, seed, batch)  # compile, or load the cache
    games = turns = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        run = play_fast(players, policy, 16 * batch, seed + games, batch)
        games, turns, rounds = games + run.games, turns + run.turns, rounds + run.rounds
    return FastRun(games, turns, rounds), time.perf_counter() - start


def measure(players: int, policy: str, seconds: float, seed: int, batch: int) -> dict[str, Any]:
    """Play rounds of `batch` games until `seconds` have passed."""
    run, elapsed = play_for(players, policy, seconds, seed, batch)
    return {
        "players": players,
        "policy": policy,
        "turns_per_s": run.turns / elapsed,
        "games_per_s": run.games / elapsed,
        "deal_share": deal_seconds(players, run.rounds) / elapsed,
        "turns_per_round": run.turns / run.rounds,
    }


def _worker(args: tuple[int, int, str, float, int, int]) -> dict[str, Any]:
    cpu, players, policy, seconds, seed, batch = args
    pin(cpu)
    return measure(players, policy, seconds, seed + cpu, batch)


def main(
    players: Annotated[list[int] | None, typer.Option(help="player counts")] = None,
    policy: Annotated[list[str] | None, typer.Option(help="random, greedy")] = None,
    seconds: Annotated[float, typer.Option(help="time per measure")] = 3.0,
    seed: Annotated[int, typer.Option()] = 1,
    batch: Annotated[int, typer.Option(help="tables played side by side")] = 64,
    workers: Annotated[int, typer.Option(help="processes, each pinned to its own CPU")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
) -> None:
    cpus = sorted(os.sched_getaffinity(0))[:workers]
    pin(cpus[0])
    rows = []
    for n in players or [2, 4]:
        for name in policy or POLICIES:
            if workers == 1:
                rows.append(measure(n, name, seconds, seed, batch))
                continue
            jobs = [(cpu, n, name, seconds, seed, batch) for cpu in cpus]
            with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
                parts = pool.map(_worker, jobs)
            row = dict(parts[0])
            for key in ("turns_per_s", "games_per_s"):
                row[key] = sum(part[key] for part in parts)
            row["deal_share"] = sum(p["deal_share"] for p in parts) / len(parts)
            rows.append(row)
    play_random_games(2, 0.2, seed)  # warm up the reference engine
    engine = {}
    for n in sorted({row["players"] for row in rows}):
        _, turns, elapsed = play_random_games(n, seconds, seed)
        engine[n] = turns / elapsed
    if as_json:
        for row in rows:
            print(
                json.dumps(
                    {key: row[key] for key in ("players", "policy", "turns_per_s", "games_per_s")}
                )
            )
        for n, rate in engine.items():
            best = max(
                r["turns_per_s"] for r in rows if r["players"] == n and r["policy"] == "random"
            )
            print(json.dumps({"players": n, "engine_turns_per_s": rate, "ratio": best / rate}))
        return
    table = Table(title=f"batch simulator, {workers} worker(s), {describe()}")
    for column in (
        "players",
        "policy",
        "turns/s",
        "games/s",
        "turns/round",
        "deal+shuffle",
        "vs engine",
    ):
        table.add_column(column, justify="right")
    for row in rows:
        n = row["players"]
        table.add_row(
            str(n),
            row["policy"],
            f"{row['turns_per_s']:,.0f}",
            f"{row['games_per_s']:,.0f}",
            f"{row['turns_per_round']:.1f}",
            f"{row['deal_share']:.0%}",
            f"{row['turns_per_s'] / engine[n]:.1f}x",
        )
    console = Console()
    console.print(table)
    for n, rate in engine.items():
        console.print(
            f"reference engine, {n} random players: {rate:,.0f} turns/s (bench/engine.py)"
        )


if __name__ == "__main__":
    typer.run(main)
