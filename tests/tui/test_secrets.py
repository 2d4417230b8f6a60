"""No screen of the terminal game shows a face-down card's value, nor a card
another player drew and has not placed: every step of whole games is drawn
and checked against the match's full state."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from tuidriver import (
    bot_chooser,
    check_cells,
    drawn_cells,
    play_on,
    quick_pilot,  # noqa: F401 (an autouse fixture)
    screen_cells,
    screen_text,
)

from skyjo.engine import DRAW
from skyjo.match import Match, Seat, Update
from skyjo.rules import Rules
from skyjo.tui.board import Piles, SeatGrid
from skyjo.tui.cards import back
from skyjo.tui.game import GameApp
from skyjo.tui.screens import PassScreen

DREW = re.compile(r"^(.+) drew an? (-?\d+)$")


def check_board(app: GameApp) -> None:
    """The widgets as drawn now, against the match's state: every face-down
    card a back, every face-up card its value; another's drawn card a back;
    a drawn card's value in the log only for a human's own draw."""
    state = app.match.state
    for seat in range(app.match.num_players):
        check_cells(drawn_cells(app.query_one(f"#seat-{seat}", SeatGrid)), state, seat)
    lines = app.query_one(Piles).render().plain.split("\n")
    if state.held is not None and state.source == DRAW and app.viewer != state.player:
        assert lines[2][11:15] == f" {back()} ", lines
    humans = {seat.name for seat in app.match.seats if seat.human}
    for strip in app.game_log.lines:
        said = DREW.match(strip.text.strip())
        if said:
            assert said.group(1) in humans, strip.text


def check_screen(app: GameApp) -> None:
    """The terminal as shown now: the grids (when the board is in front), or
    nothing but the hand-over line (hot-seat)."""
    text = screen_text(app)
    if isinstance(app.screen, PassScreen):
        assert "▒▒" not in "\n".join(text)
        assert not any(re.search(r"\d", line) for line in text), text
        return
    if app.screen is app.screen_stack[0]:
        for seat in range(app.match.num_players):
            grid = app.query_one(f"#seat-{seat}", SeatGrid)
            check_cells(screen_cells(app, grid), app.match.state, seat)


TABLES = [
    pytest.param(
        ["You"], ["greedy", "expected", "random"], (80, 24), 40, id="1-human-3-bots-80x24"
    ),
    pytest.param(["Ana"], ["random"] * 7, (80, 24), 1, id="8-seats-80x24"),
    # hot-seat: two humans pass the screen to each other, and the bot's draw stays hidden from both
    pytest.param(["Ana", "Ben"], ["greedy"], (120, 40), 1, id="hot-seat-2-humans-120x40"),
]


@pytest.mark.parametrize(("humans", "bots", "size", "target"), TABLES)
def test_no_screen_shows_a_hidden_card(
    monkeypatch: pytest.MonkeyPatch,
    humans: list[str],
    bots: list[str],
    size: tuple[int, int],
    target: int,
) -> None:
    seats = [Seat(name) for name in humans]
    seats += [Seat(f"{spec.title()} {i}", spec) for i, spec in enumerate(bots)]
    match = Match(seats, Rules(target_score=target), seed=len(seats))
    app = GameApp(match, pause=0)
    steps: list[int] = []
    shown = GameApp.show_update

    def show_update(self: GameApp, update: Update | None) -> None:
        shown(self, update)  # the board is drawn for this step: check it
        check_board(self)
        steps.append(match.steps)

    monkeypatch.setattr(GameApp, "show_update", show_update)

    async def scenario() -> Any:
        async with app.run_test(size=size) as pilot:
            await play_on(pilot, bot_chooser("greedy"), on_screen=lambda: check_screen(app))

    asyncio.run(scenario())
    assert match.over
    assert steps == list(range(1, len(match.state.history) + 1))  # every step was drawn
