"""Engine throughput: complete games between uniformly random legal players.

Plays whole games (to the target score) on one core and prints games/s and
turns/s for 2, 4 and 8 players. A turn is one player's whole turn (its two
actions); the opening reveals and dealing are part of the measured time.

    python bench/engine.py                 # a table
    python bench/engine.py --json          # one JSON object per player count
    python bench/engine.py --seconds 10 --players 2 --players 3
"""

from __future__ import annotations

import json
import random
import time
from typing import Annotated

import typer
from machine import describe  # bench/machine.py, beside this script
from rich.console import Console
from rich.table import Table

from skyjo.engine import DRAW, TAKE_DISCARD, Phase, legal_actions, new_game, step
from skyjo.events import History

GAME_OVER = int(Phase.GAME_OVER)


def count_turns(history: History) -> int:
    """Turns in a game: each starts with a draw or by taking the discard."""
    return history.count(DRAW) + history.count(TAKE_DISCARD)


def play_random_games(num_players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play games until `seconds` have passed; return (games, turns, elapsed)."""
    choose = random.Random(seed).random
    games = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = new_game(num_players, seed=seed + games)
        while state.phase != GAME_OVER:
            actions = legal_actions(state)
            state = step(state, actions[int(choose() * len(actions))])
        turns += count_turns(state.history)
        games += 1
    return games, turns, time.perf_counter() - start


def main(
    players: Annotated[list[int] | None, typer.Option(help="player counts")] = None,
    seconds: Annotated[float, typer.Option(help="time per player count")] = 5.0,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
) -> None:
    play_random_games(2, 0.2, seed)  # warm up: imports, caches
    rows = []
    for n in players or [2, 4, 8]:
        games, turns, elapsed = play_random_games(n, seconds, seed)
        rows.append(
            {
                "players": n,
                "games_per_s": round(games / elapsed, 1),
                "turns_per_s": round(turns / elapsed),
            }
        )
    if as_json:
        for row in rows:
            print(json.dumps(row))
        return
    table = Table(title="skyjo engine, random legal players, one core", caption=describe())
    for column in ("players", "games/s", "turns/s"):
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(str(row["players"]), f"{row['games_per_s']:,}", f"{row['turns_per_s']:,}")
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
