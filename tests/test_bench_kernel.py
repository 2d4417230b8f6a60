"""bench/kernel.py and bench/batch.py, kept working: each runs briefly and prints
its figures, measured through the kernel's drivers (issue 54), with the keys
that docs/benchmarks.md and docs/batch.md name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def run_bench(script: str, *options: str) -> list[dict[str, Any]]:
    """The JSON lines `bench/<script>` prints with `options`."""
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *options, "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_kernel_bench_times_the_batch_loop_and_the_search_playouts() -> None:
    """Random games on the batch loop beside the engine, in turns, and the
    search's greedy playouts: a 2-player round's rest from 4 turns a player in
    is tens of turns, not the steps or random playouts of a loop of its own."""
    (row,) = run_bench("kernel.py", "--games", "0", "--seconds", "0.05", "--players", "2")
    assert set(row) == {
        "players",
        "engine_turns_per_s",
        "kernel_turns_per_s",
        "speedup",
        "search_playout_us",
        "search_playout_turns",
    }
    assert row["players"] == 2
    assert row["engine_turns_per_s"] > 0 and row["kernel_turns_per_s"] > 0
    assert row["speedup"] == round(row["kernel_turns_per_s"] / row["engine_turns_per_s"], 1)
    assert row["search_playout_us"] > 0
    assert 2 <= row["search_playout_turns"] <= 200


def test_the_batch_bench_prints_its_measures_and_no_floor() -> None:
    """One line per measure and one per player count with the engine's rate and
    the ratio; the floor of a loop of its own is gone."""
    rows = run_bench("batch.py", "--seconds", "0.05", "--players", "2", "--policy", "random")
    measure, engine = rows
    assert set(measure) == {"players", "policy", "turns_per_s", "games_per_s"}
    assert measure["policy"] == "random" and measure["turns_per_s"] > measure["games_per_s"] > 0
    assert set(engine) == {"players", "engine_turns_per_s", "ratio"}
    assert engine["ratio"] * engine["engine_turns_per_s"] == pytest.approx(measure["turns_per_s"])
