"""`skyjo train` (skyjo.train.value_run): a whole tiny run from the command
line, its files, resuming it, its defaults, refused options, and the same
games played as Ray tasks on a local Ray."""

from __future__ import annotations

import csv
import inspect
import json
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from skyjo.bots import make_bot
from skyjo.cli import app
from skyjo.kernel import value
from skyjo.train.cli import train_command
from skyjo.train.value_data import Games
from skyjo.train.value_run import Run, ValueConfig, run_jobs

#: A run small enough for the suite: every stage, a few games each.
TINY = [
    "--players", "2,4", "--base-games", "24,8", "--selfplay-games", "12,4",
    "--iterations", "1", "--base-steps", "6", "--steps", "4", "--batch", "256",
    "--hidden", "8", "--eval-games", "8", "--seed", "3",
]  # fmt: skip


def tiny(out: Path, *more: str) -> dict:
    result = CliRunner().invoke(app, ["train", "--out", str(out), *TINY, "--json", *more])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("run")
    return out, tiny(out, "--workers", "1")


def test_a_run_writes_its_value_curve_and_calibration(run: tuple[Path, dict]) -> None:
    out, summary = run
    assert [s["stage"] for s in summary["stages"]] == [0, 1]
    assert summary["stages"][0]["games"] == 32 and summary["stages"][1]["games"] == 16
    for stage in summary["stages"]:
        figures = stage["evaluation"]
        for label in ("expected 2p", "expected 4p"):
            assert figures[f"{label}_low"] <= figures[label] <= figures[f"{label}_high"]
            assert 0.0 <= figures[label] <= 1.0
    net, meta = value.load(out / "value.npz")
    assert meta["format"] == value.FORMAT and meta["stage"] == 1
    assert net.E.shape[1] == 8
    assert (out / "value.npz").read_bytes() == (out / "stage-1" / "value.npz").read_bytes()
    with (out / "curve.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["stage"] for r in rows] == ["0", "1"]
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with (out / "calibration.csv").open() as f:
        bins = list(csv.DictReader(f))
    assert bins and all(float(b["from"]) <= float(b["predicted"]) <= float(b["to"]) for b in bins)
    # the file plays as `best`
    bot = make_bot(f"best:path={out / 'value.npz'}", 1)
    assert bot.net.E.shape == net.E.shape  # type: ignore[attr-defined]


def test_resume_goes_on_after_the_last_stage(run: tuple[Path, dict], tmp_path: Path) -> None:
    out, summary = run
    copy = tmp_path / "run"
    for path in out.rglob("*"):
        if path.is_file():
            (copy / path.relative_to(out)).parent.mkdir(parents=True, exist_ok=True)
            (copy / path.relative_to(out)).write_bytes(path.read_bytes())
    more = tiny(copy, "--workers", "1", "--iterations", "2", "--resume")
    assert more["stages"][:2] == summary["stages"]  # kept, not played again
    assert [s["stage"] for s in more["stages"]] == [0, 1, 2]
    assert value.load(copy / "value.npz")[1]["stage"] == 2


def test_the_same_seed_gives_the_same_games_in_worker_processes(
    run: tuple[Path, dict], tmp_path: Path
) -> None:
    config = ValueConfig(
        out=str(tmp_path), players=(2, 4), base_games=(24, 8), selfplay_games=(12, 4), seed=3,
        keep=ValueConfig.keep, workers=2,
    )  # fmt: skip
    games = Games.join(run_jobs(Run(config).jobs(0, None), config, lambda job: None))
    first = base_games(run[0])
    np.testing.assert_array_equal(games.records, first.records)
    np.testing.assert_array_equal(games.results, first.results)


def base_games(out: Path) -> Games:
    """The games of a run's base stage, as it saved them."""
    return Games.join([Games.load(str(p)) for p in sorted((out / "stage-0").glob("games-*.npz"))])


def test_the_command_s_defaults_are_the_run_s() -> None:
    """`skyjo train` with no options is the shipped run (docs/model-card.md)."""
    options = inspect.signature(train_command).parameters
    defaults = ValueConfig()
    for field in fields(ValueConfig):
        option = options[field.name].default
        expected = getattr(defaults, field.name)
        if isinstance(expected, tuple):
            option = tuple(int(x) for x in option.split(","))
        assert option == expected, field.name


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--base-games", "10"], "--base-games needs one count per table size"),
        (["--players", "2,9", "--base-games", "1,1", "--selfplay-games", "1,1"], "from 2 to 8"),
        (["--keep", "0"], "--keep is a chance above 0"),
        (["--players", "two"], "--players"),
    ],
)  # fmt: skip
def test_bad_options_are_refused_naming_them(
    tmp_path: Path, options: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, ["train", "--out", str(tmp_path), *TINY, *options])
    assert result.exit_code != 0
    assert message in result.output
    assert not (tmp_path / "value.npz").exists()


def test_the_games_play_as_ray_tasks_on_a_local_ray(run: tuple[Path, dict], tmp_path: Path) -> None:
    """`--address local`: the base stage's games on a local Ray are the ones
    the worker processes played (every chunk has its own seed)."""
    config = ValueConfig(
        out=str(tmp_path), players=(2, 4), base_games=(24, 8), selfplay_games=(12, 4), seed=3,
        address="local",
    )  # fmt: skip
    games = Games.join(run_jobs(Run(config).jobs(0, None), config, lambda job: None))
    first = base_games(run[0])
    np.testing.assert_array_equal(games.records, first.records)
    np.testing.assert_array_equal(games.where, first.where)
