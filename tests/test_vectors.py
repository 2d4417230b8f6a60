"""The shared game-record vectors (tests/data/vectors, RULES.md 5 and 6).

Every `NAME.json` record replays, and its `skyjo replay --json` summary equals
`NAME.expected.json` exactly, through the library and through the command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from skyjo import engine
from skyjo.cli import app
from skyjo.record import read_record, write_record
from skyjo.replayer import replay, replay_summary

VECTORS = Path(__file__).parent / "data" / "vectors"
RECORDS = sorted(p for p in VECTORS.glob("*.json") if not p.name.endswith(".expected.json"))


def expected(record: Path) -> object:
    return json.loads(record.with_name(record.stem + ".expected.json").read_text())


def test_the_vectors_are_there() -> None:
    assert len(RECORDS) >= 4
    for record in RECORDS:
        assert record.with_name(record.stem + ".expected.json").exists()


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_vector_replays_to_its_expected_summary(record: Path) -> None:
    result = replay(record.read_bytes())
    assert replay_summary(result) == expected(record)


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_vector_round_trips_through_write_record(record: Path) -> None:
    result = replay(record.read_bytes())
    doc = write_record(result.state, result.record.players)
    again = replay(doc)
    assert engine.history(again.state) == engine.history(result.state)
    assert again.state._replace(history=()) == result.state._replace(history=())
    assert read_record(doc).to_dict() == doc
    original = json.loads(record.read_text())
    for mine, theirs in zip(doc["rounds"], original["rounds"], strict=True):
        assert mine["deck"] == theirs["deck"]
        assert mine["reveals"] == theirs["reveals"]
        assert mine["turns"] == theirs["turns"]
        assert mine["reshuffles"] == theirs.get("reshuffles", [])


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_vector_through_the_command(record: Path) -> None:
    result = CliRunner().invoke(app, ["replay", str(record), "--json"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout) == expected(record)
    assert result.stdout.count("\n") == 1


def test_a_vector_through_the_installed_command() -> None:
    record = RECORDS[0]
    done = subprocess.run(
        [sys.executable, "-m", "skyjo", "replay", str(record), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == expected(record)


def test_the_half_turn_vector_leaves_the_player_holding_the_drawn_card() -> None:
    record = VECTORS / "half-turn-2p.json"
    state = replay(record.read_bytes()).state
    assert state.held is not None and state.source == engine.DRAW
    assert all(engine.SWAP <= a < engine.NEXT_ROUND for a in engine.legal_actions(state))
    doc = json.loads(record.read_text())
    assert write_record(state, doc["players"])["rounds"][-1]["turns"][-1] == {"take": "deck"}
