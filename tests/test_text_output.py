"""Text output shows every name as written, whatever the name holds (issue 12).

Names come from the user (arguments, game records, bot labels): Rich markup
(`[/]`, `[bold]x`, `[link=...]`), emoji codes (`:smile:`), characters the
output cannot encode, control characters. None of them may crash the output,
style it, or reach the terminal as anything but text. Last, the help of
`skyjo tournament` says how `--bots` fills the `--players` seats.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from helpers import assert_bad_input
from typer.testing import CliRunner, Result

from skyjo import engine
from skyjo.cli import app, console
from skyjo.engine import Phase, State
from skyjo.record import write_record
from skyjo.render import visible
from skyjo.rules import Rules
from skyjo.tui import watch

MARKUP_NAMES = ["[/]", "[bold]x", ":smile:", "[link=https://x]y"]


def run(*args: str) -> Result:
    """Run `skyjo ARGS...` in-process, with a wide plain terminal so tables do not wrap."""
    env = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
    return CliRunner().invoke(app, list(args), env=env)


def finished_game(players: int, seed: int = 3) -> State:
    """A whole seeded game (target 1: one round) by random legal play."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed, Rules(target_score=1))
    while state.phase != Phase.GAME_OVER:
        state = engine.step(state, rng.choice(engine.legal_actions(state)))
    return state


# ---------------------------------------------------------------- Rich markup


def test_score_round_shows_markup_names_as_written() -> None:
    result = run("score", "round", "--ender", "[/]", "[/]=3", "[bold]x=4", ":smile:=5")
    assert result.exit_code == 0, result.stderr
    cells = [line.split("│")[1].strip() for line in result.stdout.splitlines() if "│" in line]
    assert cells == ["[/]", "[bold]x", ":smile:"]
    assert "[/] ended with 3, the single lowest score" in result.stdout


def test_score_round_with_a_link_name() -> None:
    result = run("score", "round", "--ender", "[link=https://x]y", "[link=https://x]y=3", "B=4")
    assert result.exit_code == 0, result.stderr
    assert "[link=https://x]y ended with 3" in result.stdout


def test_replay_shows_markup_names_in_titles_cells_and_lines(tmp_path: Path) -> None:
    state = finished_game(4)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(write_record(state, MARKUP_NAMES)))
    result = run("replay", str(path))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert f"Round 1, ended by {MARKUP_NAMES[state.results[0].ender]}" in out
    for name in MARKUP_NAMES:
        assert f"│ {name} " in out, name
    winners = [MARKUP_NAMES[seat] for seat in engine_winners(state)]
    assert out.splitlines()[-1] == f"Winners: {', '.join(winners)}"


def engine_winners(state: State) -> list[int]:
    """The seats with the lowest total."""
    best = min(state.totals)
    return [seat for seat, total in enumerate(state.totals) if total == best]


def test_watch_narrates_with_markup_names_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(watch, "seat_names", lambda specs: MARKUP_NAMES[: len(specs)])
    watch.watch(["random"] * 4, 5, Rules(target_score=1), console())
    out = capsys.readouterr().out
    assert out.startswith(f"Skyjo: {', '.join(MARKUP_NAMES)}; target 1\n")
    for name in MARKUP_NAMES:
        assert f"  {name} turned up " in out, name  # describe_events lines
    assert "Winner: " in out
    caption = next(line for line in out.splitlines() if "Winner: " in line).strip()
    assert all(part in MARKUP_NAMES for part in caption.removeprefix("Winner: ").split(" and "))


def test_watch_scoresheet_headers_show_markup_names(capsys: pytest.CaptureFixture[str]) -> None:
    console().print(watch.scoresheet(finished_game(4), MARKUP_NAMES))
    header = next(line for line in capsys.readouterr().out.splitlines() if "round" in line)
    for name in MARKUP_NAMES:
        assert name in header, name


# ---------------------------------------------------------------- encodings


def run_ascii(*args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    """Run `python -m skyjo ARGS...` in a subprocess whose output encoding is ASCII."""
    env = dict(os.environ, PYTHONIOENCODING="ascii", COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "skyjo", *args], capture_output=True, env=env, check=False
    )


def test_a_name_the_output_cannot_encode_is_replaced() -> None:
    done = run_ascii("score", "round", "--ender", "Zoë", "Zoë=3", "B=4")
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert b"Zo? ended with 3" in done.stdout
    assert b"| Zo? " in done.stdout  # ASCII table borders on an ASCII output


def test_an_error_naming_what_the_output_cannot_encode_is_one_line() -> None:
    done = run_ascii("score", "round", "--ender", "Zoë", "Ana=3", "B=4")
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr == b"skyjo: error: the ender 'Zo?' is not one of the players (Ana, B)\n"


def test_json_output_stays_valid_json_whatever_the_encoding() -> None:
    done = run_ascii("score", "round", "--ender", "Zoë", "Zoë=3", "B=4", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == {"Zoë": 3, "B": 4}


def test_an_argument_that_is_not_utf8_is_shown_with_a_replacement() -> None:
    name = b"Zo\xff"  # a lone surrogate, "Zo\udcff", once Python has decoded it
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="120")
    done = subprocess.run(
        [sys.executable, "-m", "skyjo", "score", "round", "--ender", name, name + b"=3", "B=4"],
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"Zo? ended with 3" in done.stdout


def test_a_lone_surrogate_in_process() -> None:
    result = run("score", "round", "--ender", "\ud800", "\ud800=3", "B=4")
    assert result.exit_code == 0, result.stderr
    assert "? ended with 3" in result.stdout
    as_json = run("score", "round", "--ender", "\ud800", "\ud800=3", "B=4", "--json")
    assert json.loads(as_json.stdout)["raw"] == {"\ud800": 3, "B": 4}


# ---------------------------------------------------------------- control characters, long words

ESCAPES = ["\x1b[2J\x1b[31mAna", "\x1b]0;pwned\x07Ana", "A\x9b31mna", "A\x00\x7fna"]


@pytest.mark.parametrize("name", ESCAPES)
def test_error_lines_show_control_characters_escaped(name: str) -> None:
    result = run("score", "round", "--ender", "Ben", f"{name}=3", f"{name}=4", "Ben=1")
    assert_bad_input(result, f"{visible(name)} is given twice")
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in result.stderr[:-1])


def test_error_lines_show_escaped_what_repr_would_not_escape() -> None:
    # repr() leaves C1 characters as they are; the error line does not
    result = run("score", "round", "--ender", "\x9b31mX", "Ana=3", "Ben=4")
    assert_bad_input(result, "the ender '\\x9b31mX' is not one of the players")


@pytest.mark.parametrize("name", ESCAPES)
def test_text_output_shows_control_characters_escaped(name: str) -> None:
    result = run("score", "round", "--ender", name, f"{name}=3", "Ben=4")
    assert result.exit_code == 0, result.stderr
    assert f"│ {visible(name)} " in result.stdout
    assert f"{visible(name)} ended with 3" in result.stdout
    assert "\x1b" not in result.stdout and "\x9b" not in result.stdout


def test_error_lines_cut_a_very_long_word() -> None:
    card = "y" * 5000
    result = run("score", "grid", f"{card} 5 2 4", "7 -1 3 1", "7 0 -2 2")
    assert_bad_input(result, "the card at row 1, column 1 is 'yyy", "...(5003 characters)...")
    assert len(result.stderr) < 300
    assert result.stderr.endswith("yyy': write a number or x\n")


@pytest.mark.parametrize("digits", [10, 4000, 5000])
def test_a_huge_number_is_too_long_a_number(digits: int) -> None:
    number = "9" * digits
    score = run("score", "round", "--ender", "Ana", f"Ana={number}", "Ben=4")
    assert_bad_input(score, f"Ana's score is too long a number ({digits} digits)")
    card = run("score", "grid", f"-{number} 5 2 4", "7 -1 3 1", "7 0 -2 2")
    assert_bad_input(card, f"row 1, column 1 is too long a number ({digits} digits)")
    for result in (score, card):
        assert "Exceeds the limit" not in result.stderr
        assert len(result.stderr) < 200


def test_leading_zeros_do_not_make_a_number_long() -> None:
    result = run("score", "round", "--ender", "Ana", f"Ana={'0' * 50}7", "Ben=4", "--json")
    assert json.loads(result.stdout)["raw"] == {"Ana": 7, "Ben": 4}


# ---------------------------------------------------------------- tournament help


def test_tournament_help_says_how_the_bots_fill_the_seats() -> None:
    command = typer.main.get_command(app).commands["tournament"]  # type: ignore[attr-defined]
    helps = {param.name: " ".join(param.help.split()) for param in command.params}
    for name in ("bots", "players"):
        assert "A, B, A, B" in helps[name], helps[name]
        assert "A,B,B,B" in helps[name], helps[name]
    assert "one bot against three is A,B,B,B" in helps["bots"]
