"""`skyjo replay GAME.json --watch`: a record step by step on the game's board,
forward, back, a round at a time; everything shows (it is a record)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_bad_input  # tests/helpers.py
from tuidriver import (
    drawn_cells,
    quick_pilot,  # noqa: F401 (an autouse fixture)
    screen_text,
)
from typer.testing import CliRunner

from skyjo.cli import app as cli
from skyjo.engine import DRAW, State
from skyjo.match import Match, Seat, load_game
from skyjo.record import read_record
from skyjo.replayer import replay
from skyjo.rules import Rules
from skyjo.tui.board import SeatGrid
from skyjo.tui.cards import GONE, framed
from skyjo.tui.lineup import save_match
from skyjo.tui.replay import ReplayApp, frames, round_starts

VECTORS = Path(__file__).parent.parent / "data" / "vectors"


def bots_game(seed: int = 3, target: int = 60) -> Match:
    """A whole game between bots, a few rounds long."""
    seats = [Seat("Ana", "greedy"), Seat("Ben", "expected"), Seat("Cleo", "greedy")]
    match = Match(seats, Rules(target_score=target), seed=seed)
    match.advance()
    return match


def unkeyed(state: State) -> State:
    """`state` but its shuffle key (the replay deals the record's decks: it never shuffles)."""
    return state._replace(key=0)


def full_cells(state: State, seat: int, width: int) -> list[str]:
    """Every card of a seat as a replay draws it: face-down ones in parentheses."""
    shown = []
    for k, value in enumerate(state.grids[seat]):
        if state.cleared[seat] >> k & 1:
            shown.append(framed(GONE, width))
        elif state.hidden[seat] >> k & 1:
            shown.append(framed(f"{value:>2}", width, marks="()"))
        else:
            shown.append(framed(f"{value:>2}", width))
    return shown


def check_board(app: ReplayApp) -> None:
    state = app.steps[app.index].state
    for seat in range(state.num_players):
        grid = app.query_one(f"#seat-{seat}", SeatGrid)
        assert drawn_cells(grid) == full_cells(state, seat, grid.card_size.width)


def test_the_steps_are_the_records_game() -> None:
    match = bots_game()
    record = read_record(match.record())
    steps = frames(record)
    assert len(steps) == len(match.state.history) + 1
    assert replay(record).state == match.state
    assert unkeyed(steps[-1].state) == unkeyed(match.state)
    assert len(round_starts(steps)) == len(match.state.results) > 1


def test_replay_forward_back_and_by_rounds() -> None:
    match = bots_game()
    app = ReplayApp(read_record(match.record()))
    starts = app.starts

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.index == 0
            check_board(app)
            await pilot.press(*["right"] * 7)
            assert app.index == 7
            check_board(app)
            await pilot.press("left", "left")
            assert app.index == 5
            check_board(app)
            log = "\n".join(screen_text(app))
            assert "Replay: step 5 of" in log
            await pilot.press("right_square_bracket")
            assert app.index == starts[1]
            await pilot.press("right", "left_square_bracket")
            assert app.index == starts[1]  # back to the start of this round
            await pilot.press("left_square_bracket")
            assert app.index == starts[0] == 0
            await pilot.press("2")
            assert app.index == starts[1]
            check_board(app)
            await pilot.press("9")  # no round 9: nothing moves
            assert app.index == starts[1]
            await pilot.press("end")
            assert unkeyed(app.steps[app.index].state) == unkeyed(match.state)
            check_board(app)
            await pilot.pause()
            assert "Game over" in "\n".join(screen_text(app)) or match.stalled
            await pilot.press("right")  # past the end: stays
            assert app.index == len(app.steps) - 1
            await pilot.press("home", "left")
            assert app.index == 0

    asyncio.run(scenario())


def test_space_plays_the_steps_by_itself() -> None:
    app = ReplayApp(read_record(bots_game(target=1).record()), autoplay=0.01)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("space")
            assert app.timer is not None  # playing
            # it steps by itself: wait for four steps (a loaded machine may be slow)
            for _ in range(2000):
                if app.index > 3:
                    break
                await pilot.pause(0.01)
            assert app.index > 3
            await pilot.press("space")
            assert app.timer is None  # stopped: no timer left to step it
            stopped = app.index
            await pilot.pause(0.1)
            assert app.index == stopped

    asyncio.run(scenario())


def test_an_autoplay_tick_after_the_app_stopped_is_ignored() -> None:
    """The autoplay's timer may tick while the app shuts down: the tick no
    longer redraws the board, which is gone, and the app does not fail."""
    app = ReplayApp(read_record(bots_game(target=1).record()))

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    asyncio.run(scenario())
    assert not app.is_running
    before = app.index
    app.autostep()  # raised NoMatches ('#status') before the guard
    assert app.index == before


def test_a_record_ending_with_a_half_turn_shows_the_held_card() -> None:
    record = load_game(str(VECTORS / "half-turn-2p.json"))
    app = ReplayApp(record)
    state = replay(record).state
    assert state.held is not None

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("end")
            await pilot.pause()
            text = "\n".join(screen_text(app))
            who = record.players[state.player]
            verb = "drew" if state.source == DRAW else "took"
            assert f"{who} {verb}" in text
            assert f"{state.held:>2}" in next(line for line in text.splitlines() if verb in line)

    asyncio.run(scenario())


def test_a_game_saved_by_play_replays_too(tmp_path: Path) -> None:
    match = bots_game(target=1)
    path = tmp_path / "game.json"
    save_match(match, path)
    assert load_game(str(path)).to_dict() == read_record(match.record()).to_dict()


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> list[ReplayApp]:
    apps: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda app, *a, **k: apps.append(app))
    return apps


def test_the_command_watches_a_record(watched: list[ReplayApp], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bots_game(target=1).record()))
    result = CliRunner().invoke(cli, ["replay", str(path), "--watch"])
    assert result.exit_code == 0, result.stderr
    assert len(watched) == 1 and watched[0].names == ("Ana", "Ben", "Cleo")


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--json"], ["--watch shows the game on the screen", "drop --json"]),
    ],
)
def test_the_command_refuses_json_with_watch(
    watched: list[ReplayApp], tmp_path: Path, args: list[str], fragments: list[Any]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bots_game(target=1).record()))
    assert_bad_input(CliRunner().invoke(cli, ["replay", str(path), "--watch", *args]), *fragments)
    assert watched == []


def test_the_command_refuses_a_bad_record_or_stdin(
    watched: list[ReplayApp], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "skyjo-record/1", "players": ["A"]}')
    runner = CliRunner()
    assert_bad_input(runner.invoke(cli, ["replay", str(path), "--watch"]))
    assert_bad_input(runner.invoke(cli, ["replay", "-", "--watch"]), "not -")
    assert_bad_input(runner.invoke(cli, ["replay", str(tmp_path / "no.json"), "--watch"]))
    assert watched == []


def test_a_reviewed_replay_marks_each_decision(watched: list[ReplayApp], tmp_path: Path) -> None:
    """`--watch --review`: every step but a deal carries its rating, in the log
    and in the status line, and a costly one names the better move."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bots_game(target=1).record()))
    result = CliRunner().invoke(cli, ["replay", str(path), "--watch", "--review"])
    assert result.exit_code == 0, result.stderr
    (app,) = watched
    rated = [frame.rated for frame in app.steps]
    assert rated[0] is None
    assert all(d is not None for d in rated[1:])  # one round: no other deal
    costly = next(i for i, d in enumerate(rated) if d is not None and d.label != "best")

    async def scenario() -> None:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            app.go(costly)
            await pilot.pause()
            decision = rated[costly]
            assert decision is not None
            text = "\n".join(screen_text(app))
            assert f"{app.names[decision.seat]}: {decision.label}" in text
            assert f"{decision.label}, {decision.loss:.1f} points" in text

    asyncio.run(scenario())


def test_review_needs_watch(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bots_game(target=1).record()))
    result = CliRunner().invoke(cli, ["replay", str(path), "--review"])
    assert_bad_input(result, "--review", "skyjo review")
