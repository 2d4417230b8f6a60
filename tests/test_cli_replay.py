"""`skyjo replay GAME.json [--json]` (RULES.md 6: the command-line contract)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_bad_input
from typer.testing import CliRunner, Result

from skyjo import engine
from skyjo.cli import app
from skyjo.engine import Phase, State
from skyjo.record import MAX_RECORD_BYTES, write_record
from skyjo.replayer import replay, replay_summary
from skyjo.rules import Rules

VECTORS = Path(__file__).parent / "data" / "vectors"
PLAYERS = ["Ana", "Ben", "Cleo"]
Doc = dict[str, Any]


def run(*args: str, stdin: str | None = None) -> Result:
    """Run `skyjo ARGS...` in-process, with a wide plain terminal so tables do not wrap."""
    env = {"COLUMNS": "120", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
    return CliRunner().invoke(app, list(args), env=env, input=stdin)


def game(seed: int = 1, target: int = 1, stop: int | None = None) -> State:
    """A seeded game of Ana, Ben and Cleo, by random legal play."""
    rng = random.Random(seed)
    state = engine.new_game(3, seed, Rules(target_score=target))
    steps = 0
    while state.phase != Phase.GAME_OVER and (stop is None or steps < stop):
        state = engine.step(state, rng.choice(engine.legal_actions(state)))
        steps += 1
    return state


def save(tmp_path: Path, doc: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return str(path)


def starter(doc: Doc) -> int:
    first = dict(doc["rounds"][0], turns=[], reshuffles=[])
    return replay(dict(doc, rounds=[first])).state.player


# ---------------------------------------------------------------- good records


def test_json_is_exactly_the_summary(tmp_path: Path) -> None:
    state = game(target=150)
    doc = write_record(state, PLAYERS)
    result = run("replay", save(tmp_path, doc), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    summary = json.loads(result.stdout)
    assert summary == replay_summary(replay(doc))
    assert list(summary) == ["rounds", "totals", "finished", "winners"]
    assert summary["finished"] is True
    assert summary["totals"] == dict(zip(PLAYERS, state.totals, strict=True))


def test_text_shows_each_round_then_totals_finished_and_winners() -> None:
    result = run("replay", str(VECTORS / "game-2p.json"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    lines = out.splitlines()
    assert "Round 1, ended by P1" in out and "Round 2, ended by P0" in out
    assert out.index("Round 1") < out.index("Round 2") < out.index("Totals")
    assert any(line.split("│")[1:4] == [" P0     ", "  50 ", "   100 "] for line in lines)
    assert "ender, doubled" in out
    assert any("163" in line and "P0" in line for line in lines)
    assert any("72" in line and "P1" in line and "winner" in line for line in lines)
    assert "Finished: yes" in out
    assert lines[-1] == "Winners: P1"


def test_text_of_a_game_in_progress() -> None:
    result = run("replay", str(VECTORS / "in-progress-3p.json"))
    assert result.exit_code == 0, result.stderr
    assert "Round 1: in progress (nobody has ended it yet)" in result.stdout
    assert "Finished: no" in result.stdout
    assert "Winners: none yet" in result.stdout


def test_text_of_a_round_with_an_ender_in_progress(tmp_path: Path) -> None:
    final = game()
    state = engine.new_game(3, 1, final.rules)
    for action in engine.history(final):
        state = engine.step(state, action)
        if state.phase == Phase.FINAL_TURNS and state.held is None:
            break
    assert state.ender is not None
    path = save(tmp_path, write_record(state, PLAYERS))
    assert f"{PLAYERS[state.ender]} has ended it" in run("replay", path).stdout
    summary = json.loads(run("replay", path, "--json").stdout)
    assert summary["rounds"] == [{"ender": PLAYERS[state.ender]}]


def test_record_from_standard_input() -> None:
    text = (VECTORS / "game-4p.json").read_text()
    result = run("replay", "-", "--json", stdin=text)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == json.loads((VECTORS / "game-4p.expected.json").read_text())


# ---------------------------------------------------------------- bad input


def _turn(index: int, turn: Doc) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        doc["rounds"][0]["turns"][index] = turn

    return change


def _flip_face_up(doc: Doc) -> None:
    row, col = doc["rounds"][0]["reveals"][starter(doc)][0]
    doc["rounds"][0]["turns"][0] = {"take": "deck", "flip": [row, col]}


def _wrong_player(doc: Doc) -> None:
    doc["rounds"][0]["turns"][0]["player"] = PLAYERS[(starter(doc) + 1) % 3]


BAD: list[tuple[str, Callable[[Doc], object], tuple[str, ...]]] = [
    ("wrong format", lambda d: d.update(format="skyjo/9"), ("unknown record format",)),
    ("players", lambda d: d.update(players=["Ana"]), ("2 to 8 players",)),
    ("rules", lambda d: d.update(rules={"speed": 2}), ("unknown rule 'speed'",)),
    ("seed", lambda d: d.update(seed="x"), ("the seed must be an integer",)),
    (
        "card not in the deck",
        lambda d: d["rounds"][0]["deck"].__setitem__(0, 13),
        ("round 1:", "not the 150 Skyjo cards"),
    ),
    (
        "no deck, no seed",
        lambda d: (d.pop("seed"), d["rounds"][0].pop("deck")),
        ("round 1:", "no deck"),
    ),
    (
        "same reveal twice",
        lambda d: d["rounds"][0]["reveals"].__setitem__(1, [[0, 0], [0, 0]]),
        ("round 1, reveals (Ben):", "twice"),
    ),
    (
        "off the grid",
        _turn(2, {"take": "deck", "swap": [3, 0]}),
        ("round 1, turn 3:", "[3, 0] is off the grid"),
    ),
    (
        "off the grid column",
        _turn(2, {"take": "deck", "swap": [0, 4]}),
        ("round 1, turn 3:", "[0, 4] is off the grid"),
    ),
    (
        "off the grid negative",
        _turn(2, {"take": "deck", "flip": [-1, 0]}),
        ("round 1, turn 3:", "[-1, 0] is off the grid"),
    ),
    (
        "not a position",
        _turn(2, {"take": "deck", "swap": "b2"}),
        ("round 1, turn 3:", "two integers"),
    ),
    ("flip a face-up card", _flip_face_up, ("round 1, turn 1 (", "cannot flip", "already face up")),
    (
        "exchange and flip",
        _turn(1, {"take": "deck", "swap": [0, 0], "flip": [0, 1]}),
        ("round 1, turn 2:", "both exchanges and flips"),
    ),
    (
        "discard and flip",
        _turn(1, {"take": "discard", "flip": [0, 1]}),
        ("round 1, turn 2:", "takes the discard and flips"),
    ),
    ("neither", _turn(1, {"take": "deck"}), ("round 1, turn 2:", "neither exchanges nor flips")),
    (
        "unknown take",
        _turn(1, {"take": "pocket", "swap": [0, 0]}),
        ("round 1, turn 2:", 'unknown take "pocket"'),
    ),
    (
        "unknown turn key",
        _turn(1, {"take": "deck", "swap": [0, 0], "x": 1}),
        ("round 1, turn 2:", 'unknown key "x"'),
    ),
    (
        "unknown player",
        _turn(1, {"player": "Zed", "take": "deck", "swap": [0, 0]}),
        ("round 1, turn 2:", 'unknown player "Zed"'),
    ),
    ("wrong player", _wrong_player, ("round 1, turn 1 (", "the turn names", "'s turn")),
    (
        "turn after the round",
        lambda d: d["rounds"][0]["turns"].append({"take": "deck", "swap": [0, 0]}),
        ("round 1, turn", "the round is over"),
    ),
    (
        "round after the game",
        lambda d: d["rounds"].append(d["rounds"][0]),
        ("round 2:", "the game is over"),
    ),
    (
        "unused reshuffle",
        lambda d: d["rounds"][0].update(reshuffles=[[1]]),
        ("round 1:", "reshuffle 1 is never used"),
    ),
    (
        "reshuffle not cards",
        lambda d: d["rounds"][0].update(reshuffles=[["a"]]),
        ("round 1:", "not a card value"),
    ),
]


@pytest.mark.parametrize(("change", "fragments"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_record(
    tmp_path: Path, change: Callable[[Doc], None], fragments: tuple[str, ...]
) -> None:
    doc = write_record(game(), PLAYERS)
    change(doc)
    path = save(tmp_path, doc)
    assert_bad_input(run("replay", path), *fragments)
    assert_bad_input(run("replay", path, "--json"), *fragments)


def test_an_unfinished_round_before_the_next(tmp_path: Path) -> None:
    doc = write_record(game(target=500), PLAYERS)
    assert len(doc["rounds"]) >= 2
    doc["rounds"][0]["turns"].pop()
    assert_bad_input(
        run("replay", save(tmp_path, doc), "--json"), "round 2:", "round 1 is unfinished"
    )


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("{", ("not valid JSON", "line 1, column 2")),
        ('{"format": "skyjo-record/1", "players": ["A", "B"],', ("not valid JSON",)),
        ("", ("not valid JSON",)),
        ("[1, 2]", ("must be a JSON object",)),
        ('{"a": 1, "a": 1}', ("duplicate key",)),
    ],
)
def test_malformed_json(tmp_path: Path, text: str, fragments: tuple[str, ...]) -> None:
    assert_bad_input(run("replay", save(tmp_path, text), "--json"), *fragments)


def test_missing_file(tmp_path: Path) -> None:
    assert_bad_input(run("replay", str(tmp_path / "nope.json")), "cannot read", "nope.json")


def test_a_directory(tmp_path: Path) -> None:
    assert_bad_input(run("replay", str(tmp_path)), "cannot read")


def test_a_file_too_large(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(" " * (MAX_RECORD_BYTES + 10))
    assert_bad_input(run("replay", str(path)), "too large")


def test_no_file_given() -> None:
    assert_bad_input(run("replay"), "GAME.json")


def test_bad_record_through_the_installed_command(tmp_path: Path) -> None:
    doc = write_record(game(), PLAYERS)
    _flip_face_up(doc)
    done = subprocess.run(
        [sys.executable, "-m", "skyjo", "replay", save(tmp_path, doc), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("skyjo: error: round 1, turn 1 (")
    assert "already face up" in line
