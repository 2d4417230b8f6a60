"""Replay time against a record's length: it must grow linearly.

Builds records of one endless round (two players who take the discard and
exchange it for a face-up card, so the round never ends) of 20,000 to
160,000 turns, then times `skyjo.replayer.replay` of each and prints the time
per 1,000 turns, which stays flat when replaying is linear.

    python bench/replay.py
    python bench/replay.py --json
"""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer
from machine import describe  # bench/machine.py, beside this script
from rich.console import Console
from rich.table import Table

from skyjo.engine import SWAP, TAKE_DISCARD, new_game, step
from skyjo.observation import FACE_DOWN, observe
from skyjo.record import write_record
from skyjo.replayer import replay


def endless_round(turns: int) -> dict:
    """The record of a round of `turns` turns that never ends."""
    state = new_game(2, seed=1)
    for _ in range(4):
        state = step(state, min(a for a in range(12) if state.hidden[state.player] >> a & 1))
    for _ in range(turns):
        state = step(state, TAKE_DISCARD)
        status = observe(state, state.player).status[state.player]
        state = step(state, SWAP + next(k for k, s in enumerate(status) if s != FACE_DOWN))
    return write_record(state, ["Ana", "Ben"])


def main(
    sizes: Annotated[
        str, typer.Option(help="record lengths, in turns")
    ] = "20000,40000,80000,160000",
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    """Time the replay of records of growing length."""
    rows = []
    for turns in (int(n) for n in sizes.split(",")):
        record = endless_round(turns)
        start = time.perf_counter()
        replay(record)
        seconds = time.perf_counter() - start
        rows.append(
            {"turns": turns, "seconds": seconds, "ms_per_1000_turns": 1e6 * seconds / turns}
        )
    if as_json:
        print(json.dumps({"machine": describe(), "replays": rows}))
        return
    table = Table(title="Replay time", caption=describe())
    for name in ("turns", "seconds", "ms per 1,000 turns"):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(
            f"{row['turns']:,}", f"{row['seconds']:.2f}", f"{row['ms_per_1000_turns']:.1f}"
        )
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
