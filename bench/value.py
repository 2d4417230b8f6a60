"""The learned value's inference: positions a second on one core, batched.

The positions are the public records (`skyjo.kernel.value.public`) of
seeded games of `expected` against itself at each table size of
`--players`, every position kept; the value (`--value`, by default the
shipped one) evaluates all of them `--repeat` times in one compiled call
(`value.evaluate`: features and network), then the features alone. A
checksum of the win chances shows that the same file and seed give the same
figures. One warm-up call first (Numba's compiled code from its cache).

    python bench/value.py                         # the shipped value, 2 and 4 players
    python bench/value.py --value runs/best/value.npz --players 2,3,4 --json
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from machine import describe  # bench/machine.py, beside this script
from rich.console import Console
from rich.table import Table

from skyjo.kernel import value
from skyjo.rules import MAX_PLAYERS
from skyjo.train.value_data import Spec, generate


def positions(players: int, games: int, seed: int) -> np.ndarray:
    """The public records of `games` games of `expected` at `players` seats."""
    spec = Spec(players=players, games=games, seats=("expected",) * players, seed=seed, keep=1.0)
    return generate(spec).records


def rate(net: value.Net, records: np.ndarray, repeat: int) -> tuple[float, float, float]:
    """(positions/s of the value, positions/s of the features alone, checksum)."""
    wk = value.work(net)
    win = np.zeros((len(records), MAX_PLAYERS), np.float32)
    points = np.zeros_like(win)
    value.evaluate(net, records[:10], wk, win[:10], points[:10])  # warm-up
    start = time.process_time()
    for _ in range(repeat):
        value.evaluate(net, records, wk, win, points)
    full = repeat * len(records) / (time.process_time() - start)
    cols = np.zeros((len(records), MAX_PLAYERS, 4), np.int64)
    ctx = np.zeros((len(records), MAX_PLAYERS, value.NCTX), np.float32)
    glob = np.zeros((len(records), value.NGLOB), np.float32)
    value.features_batch(records[:10], cols[:10], ctx[:10], glob[:10])
    start = time.process_time()
    for _ in range(repeat):
        value.features_batch(records, cols, ctx, glob)
    features = repeat * len(records) / (time.process_time() - start)
    return full, features, float(win[:, 0].astype(np.float64).sum())


def main(
    value_file: Annotated[str, typer.Option("--value", help="a value file")] = str(value.SHIPPED),
    players: Annotated[str, typer.Option(help="table sizes, comma-separated")] = "2,4",
    games: Annotated[int, typer.Option(help="games of positions per table size")] = 40,
    repeat: Annotated[int, typer.Option(help="passes over the positions")] = 5,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    """Time the value's inference at each table size and print the figures."""
    net, _ = value.load(Path(value_file))
    rows: list[dict[str, Any]] = []
    for n in (int(p) for p in players.split(",")):
        records = positions(n, games, seed)
        full, features, checksum = rate(net, records, repeat)
        rows.append(
            {"players": n, "positions": len(records), "per_second": round(full),
             "features_per_second": round(features), "checksum": round(checksum, 3)}
        )  # fmt: skip
    machine = describe()
    if as_json:
        print(json.dumps({"machine": machine, "value": value_file, "rows": rows}))
        return
    table = Table(title=f"the value's positions a second, one core ({machine})")
    for column in ("players", "positions", "value/s", "features/s", "checksum"):
        table.add_column(column, justify="right")
    for r in rows:
        table.add_row(
            str(r["players"]), f"{r['positions']:,}", f"{r['per_second']:,}",
            f"{r['features_per_second']:,}", str(r["checksum"]),
        )  # fmt: skip
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
