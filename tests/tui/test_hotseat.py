"""Hot-seat: between two humans' turns a screen hides the board until the next
human presses Enter, so nobody sees another's drawn card or choices."""

from __future__ import annotations

import asyncio
import itertools

from tuidriver import (
    bot_chooser,
    press_move,
    quick_pilot,  # noqa: F401 (an autouse fixture)
    screen_text,
    settle,
)

from skyjo.engine import DRAW, Phase
from skyjo.match import Match, Seat
from skyjo.rules import Rules
from skyjo.tui.game import GameApp
from skyjo.tui.screens import PassScreen, RoundOverScreen


def test_a_pass_screen_hides_the_board_between_two_humans() -> None:
    seats = [Seat("Ana"), Seat("Ben"), Seat("Greedy", "greedy")]
    match = Match(seats, Rules(target_score=1), seed=21)
    app = GameApp(match, pause=0)
    choose = bot_chooser("greedy")
    handed: list[str] = []  # whom each pass screen named
    turns: list[int] = []  # whose turn each move was

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            while True:
                await settle(pilot)
                screen = app.screen
                if isinstance(screen, PassScreen):
                    text = screen_text(app)
                    shown = "\n".join(text)
                    assert f"Pass to {screen.player} — press Enter" in shown
                    # the whole terminal shows nothing else: no grid, pile or log
                    for line in text:
                        assert "Pass to" in line or set(line) <= set(" ┏━┓┃┗┛"), line
                    assert "▒▒" not in shown and "drew" not in shown and "Greedy" not in shown
                    handed.append(screen.player)
                    await pilot.press("enter")
                    continue
                if isinstance(screen, RoundOverScreen):
                    if screen.game_over:
                        return
                    await pilot.press("enter")
                    continue
                seat = app.picking
                assert seat is not None and app.viewer == seat
                # a human never plays behind another human's pass screen
                assert handed and handed[-1] == match.names[seat]
                turns.append(seat)
                if match.state.source == DRAW:  # the drawer sees the drawn card
                    assert f"{match.names[seat]} drew" in "\n".join(screen_text(app))
                await press_move(pilot, app, seat, choose(app, seat))

    asyncio.run(scenario())
    assert match.over
    # one pass screen each time the turn went from one human to the other
    humans = [seat for seat in turns if seat in (0, 1)]
    changes = 1 + sum(1 for a, b in itertools.pairwise(humans) if a != b)
    assert len(handed) == changes
    assert set(handed) == {"Ana", "Ben"}


def test_one_human_gets_no_pass_screen() -> None:
    match = Match([Seat("Ana"), Seat("Greedy", "greedy")], seed=2)
    app = GameApp(match, pause=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            for _ in range(6):
                assert not isinstance(app.screen, PassScreen)
                seat = app.picking
                assert seat == 0
                await press_move(pilot, app, seat, bot_chooser()(app, seat))
                await settle(pilot)

    asyncio.run(scenario())
    assert match.state.phase == Phase.TURNS


def test_the_first_human_takes_the_seat_behind_a_pass_screen_too() -> None:
    match = Match([Seat("Ana"), Seat("Ben")], seed=3)
    app = GameApp(match, pause=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, PassScreen) and app.screen.player == "Ana"
            await pilot.press("enter")
            await settle(pilot)
            assert app.picking == 0

    asyncio.run(scenario())
