"""Batch simulator throughput: whole games in compiled code, on one core.

Plays complete games (to the target score) with `skyjo.batch.play_fast`:
`players` copies of one policy (`random` or `greedy`), decks, reshuffles and
the random policy's choices from the cheap compiled generator, the rules
from the kernel. Prints turns/s and games/s for 2 and 4 players, pinned to one
CPU (`os.sched_setaffinity`), and the reference engine's turns/s between
random players measured in the same run (`bench/engine.py`'s loop) with the
ratio. Where the time goes: the share spent shuffling and dealing decks
(timed apart, per round, times the rounds played); the rest is the turns.
And the kernel's floor: the same games with the one policy that costs
nothing (`_floor`: no random choice, the first face-down card turned up, a
drawn card always discarded), what the rules alone cost a turn.

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
from skyjo.batch.games import fast_state, play_fast
from skyjo.engine import Phase
from skyjo.kernel import loop
from skyjo.kernel.policies import KTH
from skyjo.rules import GRID_SIZE

POLICIES = ("random", "greedy")
_REVEAL, _ROUND_OVER, _GAME_OVER = int(Phase.REVEAL), int(Phase.ROUND_OVER), int(Phase.GAME_OVER)
ALL = (1 << GRID_SIZE) - 1  # every position of a grid


@njit(cache=True)
def _deals(t, mt, fast, deck, rounds):  # type: ignore[no-untyped-def]
    """Shuffle and deal `rounds` decks at table 0, as the fast loop does."""
    for _ in range(rounds):
        loop._fast_deck(mt, fast, 0, deck)
        kernel.deal(t, 0, deck[0])


@njit(cache=True)
def _floor(t, mt, fast, deck, perm, games):  # type: ignore[no-untyped-def]
    """Play `games` games at table 0 with no decision to make: reveal the first
    face-down card, draw, discard and turn up the first face-down card (or,
    with none left, exchange the first card in play); the turns played."""
    turns = 0
    for _ in range(games):
        while t.slots[0, kernel.PHASE] != _GAME_OVER:
            loop._fast_deck(mt, fast, 0, deck)
            kernel.deal(t, 0, deck[0])
            while t.slots[0, kernel.PHASE] < _ROUND_OVER:
                p = t.slots[0, kernel.PLAYER]
                hidden = t.seats[0, kernel.HIDDEN, p]
                if t.slots[0, kernel.PHASE] == _REVEAL:
                    kernel.reveal(t, 0, KTH[hidden, 0])
                    continue
                if kernel.draw(t, 0) == kernel.NO_CARD:
                    loop._fast_perm(mt, fast, 0, perm, t.slots[0, kernel.DISCARD_LEN] - 1)
                    kernel.reshuffle_perm(t, 0, perm[0])
                    kernel.draw(t, 0)
                if hidden:
                    kernel.place(t, 0, KTH[hidden, 0], True)
                else:
                    kernel.place(t, 0, KTH[ALL & ~t.seats[0, kernel.CLEARED, p], 0], False)
                turns += 1
        slots = t.slots[0]
        kernel.start_game(t, 0, slots[kernel.PLAYERS], slots[kernel.PENALTY], slots[kernel.TARGET])
    return turns


def floor_turns(players: int, seconds: float) -> float:
    """The kernel's floor (`_floor`): turns per second with no decision to make."""
    t, _, mt, fast, _, deck, perm = fast_state(1, players, "random", 0)[:7]
    _floor(t, mt, fast, deck, perm, 10)
    turns, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns += _floor(t, mt, fast, deck, perm, 1000)
    return turns / (time.perf_counter() - start)


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


def measure(players: int, policy: str, seconds: float, seed: int, batch: int) -> dict[str, Any]:
    """Play rounds of `batch` games until `seconds` have passed."""
    play_fast(players, policy, batch, seed, batch)  # compile, or load the cache
    games = turns = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        run = play_fast(players, policy, 16 * batch, seed + games, batch)
        games, turns, rounds = games + run.games, turns + run.turns, rounds + run.rounds
    elapsed = time.perf_counter() - start
    return {
        "players": players,
        "policy": policy,
        "turns_per_s": turns / elapsed,
        "games_per_s": games / elapsed,
        "deal_share": deal_seconds(players, rounds) / elapsed,
        "turns_per_round": turns / rounds,
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
    engine, floor = {}, {}
    for n in sorted({row["players"] for row in rows}):
        _, turns, elapsed = play_random_games(n, seconds, seed)
        engine[n] = turns / elapsed
        floor[n] = floor_turns(n, seconds)
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
            print(json.dumps({"players": n, "kernel_floor_turns_per_s": floor[n]}))
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
        console.print(
            f"kernel floor, {n} players, no decision to make: {floor[n]:,.0f} turns/s (_floor)"
        )


if __name__ == "__main__":
    typer.run(main)
