"""Snapshots of the terminal game's main screens at 80x24 and 120x40
(pytest-textual-snapshot). A changed screen fails until a person has looked
at it (the report shows both) and accepted it with `--snapshot-update`; the
SVGs are in __snapshots__/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pytest_textual_snapshot import SVGImageExtension
from textual.pilot import Pilot
from tuidriver import bot_chooser, press_move, settle

from skyjo.engine import DRAW, Phase
from skyjo.match import Match, Seat
from skyjo.record import read_record
from skyjo.rules import Rules
from skyjo.tui.game import GameApp
from skyjo.tui.replay import ReplayApp

# pytest-textual-snapshot 1.0.0 sets syrupy 4's `_file_extension`; syrupy 5
# and later read `file_extension`: without this the SVGs are saved as `.raw`.
SVGImageExtension.file_extension = "svg"

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
# Bots whose play is fixed by their rules, never tuned (not `expected` or `search`),
# so that tuning a bot does not redraw these screens.
FOUR = [
    Seat("You"),
    Seat("Greedy", "greedy"),
    Seat("Random", "random"),
    Seat("Basic", "basic"),
]


def played(
    seats: list[Seat], seed: int, until: Callable[[Match], bool], target: int = 100
) -> Match:
    """A match played through the driver (the humans as greedy) until `until`."""
    match = Match(seats, Rules(target_score=target), seed=seed)
    choose = bot_chooser("greedy")
    while not until(match):
        if match.waiting_for_human:
            seat = match.to_move
            assert seat is not None
            match.play(seat, choose(_Viewer(match), seat))  # type: ignore[arg-type]
        else:
            match.play_bot()
    return match


class _Viewer:
    def __init__(self, match: Match) -> None:
        self.match = match


def my_turn(match: Match) -> bool:
    """Seat 0 is to start a turn."""
    return match.to_move == 0 and match.state.phase == Phase.TURNS and match.state.held is None


def round_over(match: Match) -> bool:
    return match.state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)


async def settled(pilot: Pilot[Any]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
def test_the_opening(snap_compare: Any, size: tuple[int, int]) -> None:
    """One human against three bots: turn up two cards."""
    app = GameApp(Match(FOUR, seed=7), pause=0)
    assert snap_compare(app, terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES)
def test_a_drawn_card_in_flip_mode(snap_compare: Any, size: tuple[int, int]) -> None:
    """Some turns in: the human drew a card and chose to discard it and flip."""
    match = played(FOUR, 7, lambda m: len(m.state.history) >= 30 and my_turn(m))

    async def draw_then_flip_mode(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await press_move(pilot, pilot.app, 0, DRAW)  # type: ignore[arg-type]
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)

    app = GameApp(match, pause=0)
    assert snap_compare(app, terminal_size=size, run_before=draw_then_flip_mode)


@pytest.mark.parametrize("size", SIZES)
def test_a_round_over(snap_compare: Any, size: tuple[int, int]) -> None:
    """Every card turned up, the scores, the ender's penalty explained."""
    match = played(FOUR, 8, round_over)
    assert snap_compare(GameApp(match, pause=0), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES)
def test_the_game_over(snap_compare: Any, size: tuple[int, int]) -> None:
    """The last round's scores, the totals and the winners."""
    match = played(FOUR, 9, lambda m: m.over, target=40)
    assert snap_compare(GameApp(match, pause=0), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES)
def test_the_hot_seat_hand_over(snap_compare: Any, size: tuple[int, int]) -> None:
    """Two humans: the board hidden until Ben presses Enter."""
    seats = [Seat("Ana"), Seat("Ben"), Seat("Greedy", "greedy")]
    match = played(seats, 10, lambda m: m.to_move == 1 and m.state.phase == Phase.TURNS)
    app = GameApp(match, pause=0)
    assert snap_compare(app, terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES)
def test_eight_seats(snap_compare: Any, size: tuple[int, int]) -> None:
    """The largest table: one human, seven bots."""
    seats = [Seat("Ana")] + [Seat(f"Bot {i}", "greedy") for i in range(1, 8)]
    match = played(seats, 11, lambda m: len(m.state.history) >= 40 and my_turn(m))
    assert snap_compare(GameApp(match, pause=0), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES)
def test_the_help(snap_compare: Any, size: tuple[int, int]) -> None:
    app = GameApp(Match(FOUR, seed=7), pause=0)
    assert snap_compare(app, press=["question_mark"], terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES)
def test_a_replay(snap_compare: Any, size: tuple[int, int]) -> None:
    """A record, some steps in: every card shows, face-down ones in brackets."""
    seats = [Seat("Ana", "greedy"), Seat("Ben", "random"), Seat("Cleo", "basic")]
    match = Match(seats, Rules(target_score=40), seed=12)
    match.advance()
    app = ReplayApp(read_record(match.record()))
    assert snap_compare(app, press=["right"] * 20, terminal_size=size)
