"""`skyjo review`'s speed: seconds to review a whole game, one core.

Seeded games of `expected` against `greedy` (2 players) and of two of each
(4 players) are played to `--rounds` rounds (the target set out of reach),
then reviewed: every seat, then one seat alone. The evaluator's budget: the
learned value's one-ply expectimax at every decision (the draw searched one
ply further), and a playout check of each choice worse than `good` in
batches of 50 worlds, at most `--worlds`; the final reveal's expectation
over 200 deals a round. CPU seconds (the review is one thread); one review
first to load the compiled code from Numba's cache.

    python bench/review.py                   # 2 and 4 players, 8 rounds
    python bench/review.py --rounds 8 --worlds 200 --json
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer
from machine import describe  # bench/machine.py, beside this script
from rich.console import Console
from rich.table import Table

from skyjo.analysis import review
from skyjo.match import Match, Seat
from skyjo.rules import Rules


def game(specs: list[str], rounds: int, seed: int) -> dict[str, Any]:
    """A seeded record of `rounds` rounds of the bots `specs`."""
    seats = [Seat(f"{spec}{i}", spec) for i, spec in enumerate(specs)]
    match = Match(seats, Rules(target_score=1000), seed, record_events=False)
    while len(match.state.results) < rounds:
        match.advance(1)
    return match.record()


def timed(record: dict[str, Any], seats: list[int] | None, worlds: int) -> tuple[float, int, int]:
    """(CPU seconds, decisions rated, decisions checked) of one review."""
    start = time.process_time()
    reviewed = review(record, seats, worlds=worlds)
    seconds = time.process_time() - start
    checked = sum(d.check is not None for d in reviewed.decisions)
    return seconds, len(reviewed.decisions), checked


def main(
    rounds: Annotated[int, typer.Option(help="rounds of each game")] = 8,
    worlds: Annotated[int, typer.Option(help="most worlds per playout check")] = 200,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    tables = {2: ["expected", "greedy"], 4: ["expected", "greedy", "expected", "greedy"]}
    timed(game(tables[2], 1, seed), None, worlds)  # warm-up: the compiled code
    rows = []
    for players, specs in tables.items():
        record = game(specs, rounds, seed)
        turns = sum(len(r["turns"]) for r in record["rounds"])
        every = timed(record, None, worlds)
        one = timed(record, [0], worlds)
        rows.append(
            {
                "players": players,
                "rounds": rounds,
                "turns": turns,
                "seconds": round(every[0], 2),
                "decisions": every[1],
                "checked": every[2],
                "one_seat_seconds": round(one[0], 2),
                "one_seat_decisions": one[1],
            }
        )
    machine = describe()
    if as_json:
        print(json.dumps({"machine": machine, "worlds": worlds, "rows": rows}))
        return
    table = Table(title=f"skyjo review, one core ({machine}); checks of at most {worlds} worlds")
    for header in ("players", "rounds", "turns", "decisions", "checked", "seconds", "one seat"):
        table.add_column(header, justify="right")
    for row in rows:
        table.add_row(
            *(str(row[k]) for k in ("players", "rounds", "turns", "decisions", "checked")),
            f"{row['seconds']:.1f}",
            f"{row['one_seat_seconds']:.1f}",
        )
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
