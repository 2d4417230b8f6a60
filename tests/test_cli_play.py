"""`skyjo play`: a game between bots narrated in the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import assert_bad_input
from typer.testing import CliRunner

from skyjo.cli import app
from skyjo.record import replay, replay_summary

runner = CliRunner()


def test_play_narrates_a_whole_game_and_writes_a_replayable_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "--bots", "random,random,random", "--seed", "5", "--record", str(path)]
    )
    assert result.exit_code == 0, result.stderr
    assert "Scoresheet" in result.stdout
    assert "Winner: " in result.stdout
    summary = replay_summary(replay(json.loads(path.read_text())))
    assert summary["finished"] is True
    for name, total in summary["totals"].items():
        assert name in result.stdout
        assert str(total) in result.stdout
    winners = " and ".join(summary["winners"])
    assert f"Winner: {winners}" in result.stdout


def test_the_same_seed_plays_the_same_game() -> None:
    first = runner.invoke(app, ["play", "--bots", "random,random", "--seed", "9"])
    second = runner.invoke(app, ["play", "--bots", "random,random", "--seed", "9"])
    other = runner.invoke(app, ["play", "--bots", "random,random", "--seed", "10"])
    assert first.stdout == second.stdout
    assert first.stdout != other.stdout


def test_the_rules_variant_reaches_the_game() -> None:
    result = runner.invoke(app, ["play", "--bots", "random,random", "--target", "1"])
    assert result.exit_code == 0
    assert result.stdout.count("round 1 over") == 1
    assert "round 2 over" not in result.stdout


def test_bad_lineups_and_rules_are_one_line_errors() -> None:
    for args, reason in [
        (["--bots", "random"], "2 to 8 bots"),
        (["--bots", ",".join(["random"] * 9)], "2 to 8 bots"),
        (["--bots", "random,nobody"], "unknown bot 'nobody'"),
        (["--bots", "random,random", "--target", "0"], "target_score"),
        (["--bots", "random,random", "--ender-penalty", "often"], "ender_penalty"),
    ]:
        result = runner.invoke(app, ["play", *args])
        assert result.exit_code == 2, args
        assert result.stdout == ""
        assert len(result.stderr.splitlines()) == 1
        assert reason in result.stderr, (args, result.stderr)


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--pace", "-1"], ["--pace takes 0 to 60 seconds, not -1"]),
        (["--pace", "nan"], ["--pace", "not nan"]),
        (["--pace", "inf"], ["--pace", "not inf"]),
        (["--pace", "1e300"], ["--pace", "not 1e+300"]),
    ],
)
def test_bad_options_are_refused_before_the_game(args: list[str], fragments: list[str]) -> None:
    assert_bad_input(runner.invoke(app, ["play", "--bots", "random,random", *args]), *fragments)


def test_a_record_path_that_is_a_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "--bots", "random,random", "--record", str(tmp_path)])
    assert_bad_input(result, "--record", "is a folder")


def test_a_record_path_in_no_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    path = tmp_path / "none" / "game.json"
    result = runner.invoke(app, ["play", "--bots", "random,random", "--record", str(path)])
    assert_bad_input(result, "--record", f"no folder '{path.parent}'")
