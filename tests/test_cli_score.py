"""`skyjo score grid` and `skyjo score round` (RULES.md 6: the command-line contract)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import assert_bad_input
from typer.testing import CliRunner, Result

from skyjo.cli import app

GRID_14 = ["7 5 2 4", "7 -1 3 1", "7 0 -2 2"]


def run(*args: str) -> Result:
    """Run `skyjo ARGS...` in-process, with a wide plain terminal so tables do not wrap."""
    env = {"COLUMNS": "120", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
    return CliRunner().invoke(app, list(args), env=env)


# ---------------------------------------------------------------- score grid


def test_score_grid_json_is_rules_section_6_document() -> None:
    result = run("score", "grid", *GRID_14, "--json")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert json.loads(result.stdout) == {
        "columns": [
            {
                "cards": [7, 7, 7],
                "cleared": True,
                "score": 0,
                "explanation": "three 7s, cleared, so 0",
            },
            {"cards": [5, -1, 0], "cleared": False, "score": 4, "explanation": "5 + -1 + 0 = 4"},
            {"cards": [2, 3, -2], "cleared": False, "score": 3, "explanation": "2 + 3 + -2 = 3"},
            {"cards": [4, 1, 2], "cleared": False, "score": 7, "explanation": "4 + 1 + 2 = 7"},
        ],
        "total": 14,
    }


def test_score_grid_text_shows_columns_explanations_and_total() -> None:
    result = run("score", "grid", *GRID_14)
    assert result.exit_code == 0
    assert result.stderr == ""
    out = result.stdout
    for text in ("three 7s, cleared, so 0", "5 + -1 + 0 = 4", "2 + 3 + -2 = 3", "4 + 1 + 2 = 7"):
        assert text in out
    total_line = next(line for line in out.splitlines() if "Total" in line)
    assert "14" in total_line
    # Columns are numbered as people count them: the left one is column 1.
    numbers = [line.split()[1] for line in out.splitlines() if " + " in line or "three" in line]
    assert numbers == ["1", "2", "3", "4"]


def test_score_grid_accepts_x_for_cleared_cards_and_rows_starting_negative() -> None:
    result = run("score", "grid", "-2 5 x 4", "-2 -1 X 1", "-2 0 x 2", "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["columns"][0] == {
        "cards": [-2, -2, -2],
        "cleared": True,
        "score": 0,
        "explanation": "three -2s, cleared, so 0",
    }
    assert document["columns"][2]["cards"] == [None, None, None]
    assert document["columns"][2]["cleared"] is True
    assert document["total"] == 4 + 7


def test_score_grid_text_shows_cleared_earlier() -> None:
    result = run("score", "grid", "x 5 2 4", "x -1 3 1", "x 0 -2 2")
    assert result.exit_code == 0
    assert "cleared earlier, so 0" in result.stdout


def test_help_still_works() -> None:
    for args in ([], ["score"], ["score", "grid"], ["score", "round"]):
        result = run(*args, "--help")
        assert result.exit_code == 0, args
        assert "Usage" in result.stdout
        assert result.stderr == ""


# ---------------------------------------------------------------- score round


def test_score_round_json_is_rules_section_6_document() -> None:
    result = run("score", "round", "--ender", "Cleo", "Ana=9", "Ben=20", "Cleo=14", "--json")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert json.loads(result.stdout) == {
        "raw": {"Ana": 9, "Ben": 20, "Cleo": 14},
        "scores": {"Ana": 9, "Ben": 20, "Cleo": 28},
        "doubled": True,
        "ender": "Cleo",
        "reason": "Cleo ended with 14 and Ana has 9, which is not higher: "
        "Cleo's score is doubled to 28",
    }


def test_score_round_json_keeps_the_order_given() -> None:
    result = run("score", "round", "Cleo=14", "Ana=9", "--ender=Cleo", "--json")
    assert result.exit_code == 0
    assert list(json.loads(result.stdout)["scores"]) == ["Cleo", "Ana"]


def test_score_round_text_shows_scores_and_reason() -> None:
    result = run("score", "round", "--ender", "Cleo", "Ana=9", "Ben=20", "Cleo=14")
    assert result.exit_code == 0
    assert result.stderr == ""
    cleo = next(line for line in result.stdout.splitlines() if "Cleo" in line)
    assert "14" in cleo
    assert "28" in cleo
    assert "Cleo's score is doubled to 28" in result.stdout


@pytest.mark.parametrize(
    ("penalty", "scores", "doubled"),
    [
        ("positive", {"Ana": -3, "Cleo": -5}, False),
        ("always", {"Ana": -6, "Cleo": -5}, True),
        ("none", {"Ana": -3, "Cleo": -5}, False),
    ],
)
def test_score_round_ender_penalty_variants(
    penalty: str, scores: dict[str, int], doubled: bool
) -> None:
    result = run(
        "score",
        "round",
        "--ender",
        "Ana",
        "Ana=-3",
        "Cleo=-5",
        "--ender-penalty",
        penalty,
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["scores"] == scores
    assert document["doubled"] is doubled


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (
            ["score", "grid", "7 5 2 4", "7 -1 3 1", "7 0 -2 13"],
            ["row 3, column 4 is 13"],
        ),
        (["score", "grid", "7 5 2 4", "7 -1 3 1", "7 0 -2"], ["row 3 has 3 cards"]),
        (["score", "grid", "7 5 2 4", "7 -1 3 1"], ["3 rows, not 2"]),
        (["score", "grid", "x 5 2 4", "7 -1 3 1", "x 0 -2 2"], ["column 1 is partly cleared"]),
        (["score", "grid", "7 5 2 4", "7 -1 3 1", "7 0 y 2"], ["row 3, column 3", "'y'"]),
        (
            ["score", "grid", "-2 -2 -2 4", "-2 -2 -2 1", "0 0 1 2"],
            ["6 cards of -2 but the deck has only 5"],
        ),
        (["score", "grid", "--bogus", *GRID_14], ["--bogus"]),
        (["score", "grid"], ["Missing argument"]),
        (["score", "round", "--ender", "Dan", "Ana=9", "Cleo=14"], ["'Dan'", "not one of"]),
        (["score", "round", "--ender", "Ana", "Ana=abc", "Cleo=14"], ["Ana", "'abc'"]),
        (["score", "round", "--ender", "Ana", "Ana", "Cleo=14"], ["NAME=SCORE"]),
        (["score", "round", "--ender", "Ana", "Ana=1", "Ana=2"], ["Ana is given twice"]),
        (["score", "round", "--ender", "Ana", "Ana=1"], ["2 to 8 players, not 1"]),
        (
            ["score", "round", "--ender", "Ana", "Ana=1", "Cleo=2", "--ender-penalty", "half"],
            ["'half'", "positive, always, none"],
        ),
        (["score", "round", "Ana=1", "Cleo=2"], ["Missing option", "--ender"]),
        (
            ["score", "round", "--ender", "Ana", "--ender", "Cleo", "Ana=1", "Cleo=2"],
            ["--ender is given 2 times (Ana, Cleo): a round has one ender"],
        ),
        (
            ["score", "round", "--ender", "Ana", "Ana=999", "Cleo=2"],
            ["Ana's score is 999", "from -17 to 140"],
        ),
        (
            ["score", "round", "--ender", "Ana", "Ana=1", "Cleo=-18"],
            ["Cleo's score is -18", "from -17 to 140"],
        ),
        (["score", "round", "--ender", "Ana"], ["Missing argument"]),
        (["score", "round", "--ender"], ["--ender"]),
        (["score", "round", "--ender", "Ana", "Ana=1", "Cleo=2", "--bogus"], ["--bogus"]),
        (["score", "grod"], ["No such command 'grod'"]),
        (["score"], ["Missing command"]),
        ([], ["Missing command"]),
        (["--bogus"], ["--bogus"]),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr(args: list[str], fragments: list[str]) -> None:
    assert_bad_input(run(*args), *fragments)


@pytest.mark.parametrize("card", ["1_0", "+3", "\u0663", "\uff13", "\u00b3", "3.0", "-", "xx"])
def test_score_grid_takes_only_cards_a_person_types(card: str) -> None:
    result = run("score", "grid", f"{card} 5 2 4", "7 -1 3 1", "7 0 -2 2")
    assert_bad_input(result, "the card at row 1, column 1 is", repr(card), "write a number or x")


@pytest.mark.parametrize("score", ["1_0", "+3", "\u0663", "\uff13", "3.0", "", "- 3"])
def test_score_round_takes_only_scores_a_person_types(score: str) -> None:
    result = run("score", "round", "--ender", "Ana", f"Ana={score}", "Ben=4")
    assert_bad_input(result, "Ana's score is", repr(score.strip()), "write a whole number")


def test_both_minus_signs_are_taken() -> None:
    grid = run("score", "grid", "\u22122 5 2 4", "-2 -1 3 1", "7 0 \u22122 2", "--json")
    assert json.loads(grid.stdout)["columns"][0]["cards"] == [-2, -2, 7]
    scores = run("score", "round", "--ender", "Ana", "Ana=\u22123", "Ben=-4", "--json")
    assert json.loads(scores.stdout)["raw"] == {"Ana": -3, "Ben": -4}


def test_bad_input_with_json_prints_nothing_on_stdout() -> None:
    result = run("score", "round", "--ender", "Dan", "Ana=9", "Cleo=14", "--json")
    assert_bad_input(result, "not one of the players")


def test_python_dash_m_skyjo_follows_the_same_contract() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "skyjo", "score", "grid", *GRID_14, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0
    assert json.loads(ok.stdout)["total"] == 14
    bad = subprocess.run(
        [sys.executable, "-m", "skyjo", "score", "round", "--ender", "Ana", "Ana=abc", "Ben=1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr == "skyjo: error: Ana's score is 'abc': write a whole number\n"
