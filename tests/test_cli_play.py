"""`skyjo play`: a game between bots narrated in the terminal."""

from __future__ import annotations

import json
from pathlib import Path

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
