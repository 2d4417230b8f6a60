"""`skyjo watch`: a game between bots narrated in the terminal; `skyjo play`'s options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_bad_input
from typer.testing import CliRunner

from skyjo.cli import app
from skyjo.replayer import replay, replay_summary

runner = CliRunner()


def test_watch_narrates_a_whole_game_and_writes_a_replayable_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["watch", "--bots", "random,random,random", "--seed", "5", "--record", str(path)]
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


def test_watch_names_places_from_1_while_the_record_keeps_them_from_0(tmp_path: Path) -> None:
    """People count rows and columns from 1; a record keeps RULES.md's [row, col] from 0."""
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["watch", "--bots", "random,random", "--seed", "5", "--record", str(path)]
    )
    assert result.exit_code == 0, result.stderr
    reveals = json.loads(path.read_text())["rounds"][0]["reveals"]
    lines = result.stdout.splitlines()[1:5]
    places = [(row, col) for seat in reveals for row, col in seat]
    assert len(lines) == len(places) == 4
    for line, (row, col) in zip(lines, places, strict=True):
        assert line.endswith(f" at row {row + 1}, column {col + 1}"), (line, row, col)


def test_the_same_seed_plays_the_same_game() -> None:
    first = runner.invoke(app, ["watch", "--bots", "random,random", "--seed", "9"])
    second = runner.invoke(app, ["watch", "--bots", "random,random", "--seed", "9"])
    other = runner.invoke(app, ["watch", "--bots", "random,random", "--seed", "10"])
    assert first.stdout == second.stdout
    assert first.stdout != other.stdout


def test_the_rules_variant_reaches_the_game() -> None:
    result = runner.invoke(app, ["watch", "--bots", "random,random", "--target", "1"])
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
        result = runner.invoke(app, ["watch", *args])
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
    assert_bad_input(runner.invoke(app, ["watch", "--bots", "random,random", *args]), *fragments)


def test_a_record_path_that_is_a_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["watch", "--bots", "random,random", "--record", str(tmp_path)])
    assert_bad_input(result, "--record", "is a folder")


def test_a_record_path_in_no_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    path = tmp_path / "none" / "game.json"
    result = runner.invoke(app, ["watch", "--bots", "random,random", "--record", str(path)])
    assert_bad_input(result, "--record", f"no folder '{path.parent}'")


# ---------------------------------------------------------------- skyjo play


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """`skyjo play` without its window: the apps it would run, in order."""
    from skyjo.tui.game import GameApp

    apps: list[Any] = []
    monkeypatch.setattr(GameApp, "run", lambda app, *args, **kwargs: apps.append(app))
    return apps


def test_play_alone_seats_you_against_three_bots_of_increasing_strength(
    started: list[Any],
) -> None:
    result = runner.invoke(app, ["play"])
    assert result.exit_code == 0, result.stderr
    (game,) = started
    seats = [(seat.name, seat.bot) for seat in game.match.seats]
    assert seats == [
        ("You", None),
        ("Greedy", "greedy"),
        ("Expected", "expected"),
        ("Search", "search"),
    ]
    assert game.save_path is None
    assert "The game is not finished" in result.stdout


def test_play_seats_the_humans_then_the_bots_with_the_rules(started: list[Any]) -> None:
    args = ["play", "--humans", "Ana,Ben", "--bots", "greedy,greedy", "--seed", "4"]
    result = runner.invoke(app, [*args, "--target", "50", "--ender-penalty", "always"])
    assert result.exit_code == 0, result.stderr
    (game,) = started
    match = game.match
    assert [(s.name, s.bot) for s in match.seats] == [
        ("Ana", None),
        ("Ben", None),
        ("Greedy 1", "greedy"),
        ("Greedy 2", "greedy"),
    ]
    assert match.secret == 4
    assert (match.rules.target_score, match.rules.ender_penalty) == (50, "always")


def test_several_humans_play_each_other_without_bots_unless_asked(started: list[Any]) -> None:
    assert runner.invoke(app, ["play", "--humans", "Ana,Ben,Cleo"]).exit_code == 0
    assert [s.bot for s in started[0].match.seats] == [None, None, None]


def test_a_fresh_seed_unless_one_is_given(started: list[Any]) -> None:
    for _ in range(2):
        assert runner.invoke(app, ["play"]).exit_code == 0
    assert started[0].match.secret != started[1].match.secret


def test_a_bot_named_as_a_human_is_told_apart(started: list[Any]) -> None:
    assert runner.invoke(app, ["play", "--humans", "Greedy", "--bots", "greedy"]).exit_code == 0
    assert started[0].match.names == ("Greedy", "Greedy (bot)")


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--humans", ""], ["--humans takes 1 to 8 names"]),
        (["--humans", "Ana,,Ben"], ["empty name"]),
        (["--humans", ",".join(f"P{i}" for i in range(9))], ["1 to 8 names, not 9"]),
        (["--humans", "Ana,Ana"], ["Ana is repeated"]),
        (["--humans", "Ana,ANA"], ["Ana / ANA is repeated"]),
        (["--humans", "Ana,\u200b"], ["invisible or format character (U+200B)"]),
        (["--humans", "A\x1bB"], ["control character"]),
        (["--humans", "x" * 41], ["at most 40 characters"]),
        (["--humans", "Ana", "--bots", ""], ["2 to 8 seats, not 1"]),
        (["--humans", "A,B,C", "--bots", "greedy," * 5 + "greedy"], ["2 to 8 seats, not 9"]),
        (["--bots", "greedy,nobody"], ["unknown bot 'nobody'"]),
        (["--target", "0"], ["target_score"]),
        (["--target", "1001"], ["target_score must be at most 1000"]),
        (["--ender-penalty", "often"], ["ender_penalty"]),
        (["--pause", "-1"], ["--pause takes 0 to 60 seconds, not -1"]),
        (["--pause", "nan"], ["--pause", "not nan"]),
    ],
)
def test_play_refuses_bad_options_in_one_line_before_the_game(
    started: list[Any], args: list[str], fragments: list[str]
) -> None:
    assert_bad_input(runner.invoke(app, ["play", *args]), *fragments)
    assert started == []


def test_play_save_path_is_checked_before_the_game(started: list[Any], tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "--save", str(tmp_path)])
    assert_bad_input(result, "--save", "is a folder")
    result = runner.invoke(app, ["play", "--save", str(tmp_path / "no" / "game.json")])
    assert_bad_input(result, "--save", "no folder")
    assert started == []


def test_play_saves_at_once_and_says_how_to_resume(started: list[Any], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "--save", str(path), "--seed", "3"])
    assert result.exit_code == 0, result.stderr
    assert started[0].save_path == path
    assert f"skyjo play --resume {path}" in result.stdout
    saved = json.loads(path.read_text())
    assert saved["format"] == "skyjo-match/1"
    assert saved["record"]["seed"] == 3


def test_resume_takes_the_saved_seats_and_keeps_saving_there(
    started: list[Any], tmp_path: Path
) -> None:
    from skyjo.match import Match, Seat
    from skyjo.tui.lineup import save_match

    path = tmp_path / "game.json"
    saved = Match([Seat("Ana"), Seat("Bot", "greedy")], seed=8)
    saved.play(0, 0)
    save_match(saved, path)
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 0, result.stderr
    (game,) = started
    assert game.match.names == ("Ana", "Bot")
    assert game.match.state == saved.state
    assert game.save_path == path


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--humans", "Ana"], ["--resume goes on with the saved game", "drop --humans"]),
        (["--seed", "1"], ["drop --seed"]),
        (["--target", "50"], ["drop --target"]),
    ],
)
def test_resume_refuses_new_seats_or_rules(
    started: list[Any], tmp_path: Path, args: list[str], fragments: list[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}")
    assert_bad_input(runner.invoke(app, ["play", "--resume", str(path), *args]), *fragments)


@pytest.mark.parametrize(
    ("content", "fragments"),
    [
        (None, ["--resume: there is no file"]),
        ("{", ["is not JSON"]),
        ('{"format": "other"}', ["not a saved match"]),
    ],
)
def test_resume_refuses_what_is_not_a_saved_game(
    started: list[Any], tmp_path: Path, content: str | None, fragments: list[str]
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    assert_bad_input(runner.invoke(app, ["play", "--resume", str(path)]), *fragments)
    assert started == []
