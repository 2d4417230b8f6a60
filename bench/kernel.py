"""The array kernel (`skyjo.kernel`): its differential check against the engine
on many games, and its throughput against the engine's, measured through the
kernel's own drivers.

- The check plays `--games` games (2,000 by default; `make kernel-check`) on
  the engine and, mirrored action by action, on a kernel table, with the
  test's long-round, column-clearing random players (`play_mirrored` of
  `tests/parity/kernel_mirror.py`, the copy the tests run), cycling through 2 to 8
  players and the three `ender_penalty` variants; any difference stops it with the game's
  parameters. It prints what the games went through: rounds, reshuffles,
  column clears during rounds and at the final reveal, doubled enders.
- The throughput: whole games (to 100) between uniformly random legal
  players, on one core: on the engine in Python (`bench/engine.py`'s loop),
  and on the batch loop (`skyjo.kernel.loop.advance` through
  `skyjo.batch.play_fast`, the `random` policy, `--batch` tables side by
  side; `bench/batch.py`'s measure); turns per second, and the speedup in
  turns. Then the search bot's playouts of the rest of a round from one
  copied mid-round table (`skyjo.kernel.playouts`, `Playouts.play_copies`
  with its greedy policy, reshuffles included).

The kernel's drivers count turns, not steps (actions), so the figures are in
turns. The playouts have no random policy (`playouts.GREEDY`, `EXPECTED`), so
only the search's playouts are timed here (`bench/playouts.py` times the
`expected` ones).

    python bench/kernel.py                     # check 2,000 games, then throughput
    python bench/kernel.py --games 0           # throughput only
    python bench/kernel.py --games 200 --seconds 1 --json
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from batch import play_for  # bench/batch.py, beside this script
from engine import play_random_games  # bench/engine.py, beside this script
from machine import describe  # bench/machine.py, beside this script
from rich.console import Console
from rich.table import Table

from skyjo import kernel
from skyjo.engine import Phase, legal_actions, new_game, step
from skyjo.kernel.playouts import Playouts
from skyjo.rules import ENDER_PENALTIES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "parity"))
from kernel_mirror import play_mirrored  # tests/parity/kernel_mirror.py: the check's one copy

GAME_OVER = int(Phase.GAME_OVER)


def check(games: int, seed: int) -> tuple[Counter[str], float]:
    """Play `games` mirrored games; what they went through, and the time taken."""
    seen: Counter[str] = Counter()
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed + i)
        game = {
            "players": 2 + i % 7,
            "seed": seed + i,
            "penalty": ENDER_PENALTIES[i // 7 % 3],
            "target": rng.randint(1, 150),
            "draw": rng.uniform(0.5, 1.0),
            "stall": rng.uniform(0.0, 0.97),
            "seek": rng.uniform(0.0, 1.0),
        }
        try:
            seen.update(play_mirrored(**game))
        except AssertionError:
            print(f"the kernel differs from the engine in game {game}", file=sys.stderr)
            raise
        if (i + 1) % 200 == 0:
            print(f"  {i + 1:,} games checked", file=sys.stderr)
    return seen, time.perf_counter() - start


# --- throughput -----------------------------------------------------------------------


def mid_round(players: int, seed: int) -> kernel.Tables:
    """A kernel table 4 turns per player into the turns of a random round."""
    for game in itertools.count(seed):
        state = new_game(players, seed=game)
        rng = random.Random(game)
        while state.phase != GAME_OVER:
            ready = state.phase == Phase.TURNS and state.held is None
            if ready and kernel.engine_view(state).turns >= 4 * players:
                world = kernel.new_tables(1, players)
                kernel.load_state(world, 0, state)
                return world
            state = step(state, rng.choice(legal_actions(state)))
    raise AssertionError("unreachable")


def policy_playouts(players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """The search's playouts of a round's rest from a copied table: (playouts, turns, elapsed)."""
    world, scratch = mid_round(players, seed), kernel.new_tables(1, players)
    world.turns[0] = 0  # a playout counts its turns from its start
    play = Playouts(random.Random(seed))
    playouts = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns += play.play_copies(world, scratch, 1000)[0]
        playouts += 1000
    return playouts, turns, time.perf_counter() - start


def throughput(players: int, seconds: float, seed: int, batch: int) -> dict[str, float]:
    """One row of the table: the engine, the batch loop and the playouts at `players`."""
    _, e_turns, e_time = play_random_games(players, seconds, seed)
    run, k_time = play_for(players, "random", seconds, seed, batch)
    searches, s_turns, s_time = policy_playouts(players, seconds, seed)
    return {
        "players": players,
        "engine_turns_per_s": round(e_turns / e_time),
        "kernel_turns_per_s": round(run.turns / k_time),
        "speedup": round(run.turns / k_time / (e_turns / e_time), 1),
        "search_playout_us": round(s_time / searches * 1e6, 2),
        "search_playout_turns": round(s_turns / searches, 1),
    }


def print_check(console: Console, games: int, seen: Counter[str], elapsed: float) -> None:
    """The check's counts, in a sentence."""
    console.print(
        f"kernel = engine in {games:,} games ({elapsed:.0f} s): {seen['steps']:,} steps, "
        f"{seen['rounds']:,} rounds, {seen['reshuffles']:,} reshuffles, "
        f"{seen['clears']:,} column clears in turns and {seen['final_clears']:,} at "
        f"final reveals, {seen['doubled']:,} doubled enders, {seen['stalled']} stalled"
    )


def print_table(console: Console, rows: list[dict[str, float]], batch: int) -> None:
    """The throughput rows as a table."""
    table = Table(
        title="random legal players, one core: the engine against the batch loop "
        f"(batches of {batch} tables), and the search's playouts of a round's rest",
        caption=describe(),
    )
    heads = ("players", "engine turns/s", "kernel turns/s", "speedup", "search playout µs",
             "turns/search playout")  # fmt: skip
    for head in heads:
        table.add_column(head, justify="right")
    for row in rows:
        table.add_row(
            str(row["players"]),
            f"{row['engine_turns_per_s']:,}",
            f"{row['kernel_turns_per_s']:,}",
            f"{row['speedup']}x",
            f"{row['search_playout_us']}",
            f"{row['search_playout_turns']}",
        )
    console.print(table)


def main(
    games: Annotated[int, typer.Option(help="mirrored games to check (0: none)")] = 2000,
    players: Annotated[list[int] | None, typer.Option(help="player counts")] = None,
    seconds: Annotated[float, typer.Option(help="time per measure")] = 3.0,
    batch: Annotated[int, typer.Option(help="kernel tables per batch")] = 64,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
) -> None:
    console = Console(width=120)
    if games:
        seen, elapsed = check(games, seed)
        if as_json:
            counts = dict(sorted(seen.items()))
            print(json.dumps({"checked_games": games, "seconds": round(elapsed, 1), **counts}))
        else:
            print_check(console, games, seen, elapsed)
        for what in ("reshuffles", "clears", "final_clears", "doubled"):
            assert seen[what] > 0, f"no {what} in {games} games"
    if seconds <= 0:
        return
    play_for(2, "random", 0.01, seed, 2)  # warm up: compile or load the cache
    policy_playouts(2, 0.01, seed)
    play_random_games(2, 0.2, seed)
    rows = [throughput(n, seconds, seed, batch) for n in players or [2, 4, 8]]
    if as_json:
        for row in rows:
            print(json.dumps(row))
        return
    print_table(console, rows, batch)


if __name__ == "__main__":
    typer.run(main)
