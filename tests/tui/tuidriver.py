"""Driving the terminal game headlessly: keys for a move, waiting for the bots.

A test's "human" is a seeded bot choosing from the human's own observation;
`keys_for` turns its choice into the key presses a person would make (arrows
from the cursor, Enter; `d`, `t`, `f`), so every move goes through the keys.

A test module imports `quick_pilot` (an autouse fixture) to make the pilot
quick.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import textual.app
import textual.pilot
from rich.console import Console
from textual.pilot import Pilot

from skyjo.bots import make_bot
from skyjo.engine import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD, State
from skyjo.rules import COLS, GRID_SIZE, ROWS
from skyjo.tui.board import SeatGrid
from skyjo.tui.cards import CELL, GONE, back
from skyjo.tui.game import GameApp
from skyjo.tui.screens import PassScreen, RoundOverScreen


async def _yield(min_sleep: float = 0, max_sleep: float = 1) -> None:
    for _ in range(3):
        await asyncio.sleep(0)


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Textual's pilot waits for the CPU to go idle (20 ms at least, more while
    the app draws) after every key: a game of hundreds of keys would take
    minutes. The tests wait instead for the app to say it waits for a person
    (`GameApp.waiting`, in `settle`), which the pilot's own message processing
    reaches without those sleeps. Snapshot tests do not use it."""
    monkeypatch.setattr(textual.pilot, "wait_for_idle", _yield)
    monkeypatch.setattr(textual.app, "wait_for_idle", _yield)
    yield


def keys_for(action: int, cursor: int) -> list[str]:
    """The keys that play `action` with the cursor at `cursor`."""
    if action == DRAW:
        return ["d"]
    if action == TAKE_DISCARD:
        return ["t"]
    prefix: list[str] = []
    if REVEAL <= action < REVEAL + GRID_SIZE:
        k = action - REVEAL
    elif SWAP <= action < SWAP + GRID_SIZE:
        k = action - SWAP
    else:
        assert FLIP <= action < FLIP + GRID_SIZE, action
        k, prefix = action - FLIP, ["f"]
    (row, col), (at_row, at_col) = divmod(k, COLS), divmod(cursor, COLS)
    moves = ["down"] * (row - at_row) + ["up"] * (at_row - row)
    moves += ["right"] * (col - at_col) + ["left"] * (at_col - col)
    return [*prefix, *moves, "enter"]


async def press_move(pilot: Pilot[Any], app: GameApp, seat: int, action: int) -> None:
    """Play `action` for `seat` by keys, from where the seat's cursor is."""
    await pilot.press(*keys_for(action, app.cursor[seat]))


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the bots are done and the app waits for a person."""
    app = pilot.app

    def idle() -> bool:
        waiting = getattr(app, "waiting", "replay")
        return waiting is not None and not app.workers._workers

    for _ in range(1_000_000):
        if app._exception is not None:
            raise AssertionError("the app failed") from app._exception
        await app.workers.wait_for_complete()
        if idle():
            await pilot.pause()
            if idle():
                return
        else:
            await asyncio.sleep(0.0005)
    raise AssertionError("the app never settled")


Chooser = Callable[[GameApp, int], int]


def bot_chooser(spec: str = "greedy", seed: int = 1) -> Chooser:
    """A human who plays like the bot `spec`, from their own observation only,
    and from nothing else: a fresh bot each move, so the same table gets the
    same move in any game."""

    def choose(app: GameApp, seat: int) -> int:
        return int(make_bot(spec, seed + seat).choose(app.match.observation(seat)))

    return choose


async def play_on(
    pilot: Pilot[Any],
    choose: Chooser,
    *,
    moves: int | None = None,
    on_screen: Callable[[], Any] | None = None,
    stop_at_round: int | None = None,
) -> int:
    """Play the humans' moves by keys (passing the hot-seat screens and the
    round ends) until the game is over or `moves` human moves were made.
    `on_screen` is called at every stop, the board drawn. Returns the moves made."""
    app = pilot.app
    assert isinstance(app, GameApp)
    made = 0
    while True:
        await settle(pilot)
        if on_screen is not None:
            on_screen()
        screen = app.screen
        if isinstance(screen, PassScreen):
            await pilot.press("enter")
            continue
        if isinstance(screen, RoundOverScreen):
            if screen.game_over:
                return made
            if stop_at_round is not None and len(screen.view.results) >= stop_at_round:
                return made
            await pilot.press("enter")
            continue
        if moves is not None and made >= moves:
            return made
        seat = app.picking
        assert seat is not None, "the app waits, but for no one"
        action = choose(app, seat)
        await press_move(pilot, app, seat, action)
        made += 1


def screen_text(app: Any) -> list[str]:
    """The lines the terminal shows now, as plain text (the screens below a
    modal one included, as they are drawn)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text().splitlines()


def _cells(lines: list[str], grid: SeatGrid) -> list[str]:
    """The 12 cards of a grid from the lines it takes (its own first line first)."""
    width = grid.card_size.width
    rows = [lines[grid.value_line(row)] for row in range(ROWS)]
    at = [(k % COLS) * (width + 1) for k in range(GRID_SIZE)]
    return [rows[k // COLS][at[k] : at[k] + width] for k in range(GRID_SIZE)]


def drawn_cells(grid: SeatGrid) -> list[str]:
    """The 12 cards of a grid as its widget draws them."""
    return _cells(grid.render().plain.split("\n"), grid)


def screen_cells(app: Any, grid: SeatGrid) -> list[str]:
    """The 12 cards of a grid as the terminal shows them."""
    text = screen_text(app)
    x, y = grid.region.x, grid.region.y
    return _cells([line[x:] for line in text[y:]], grid)


def expected_cells(state: State, seat: int, width: int = CELL) -> list[str]:
    """What each card of `seat` may look like: a back when face down (its
    value never), the value when face up, nothing when cleared."""
    hidden, cleared = state.hidden[seat], state.cleared[seat]
    shown = []
    for k, value in enumerate(state.grids[seat]):
        if cleared >> k & 1:
            shown.append(GONE)
        elif hidden >> k & 1:
            shown.append(back(width))
        else:
            shown.append(f"{value:>2}")
    return [inner.center(width - 2) for inner in shown]


def check_cells(cells: list[str], state: State, seat: int) -> None:
    """Each drawn card is what `expected_cells` allows, with or without the cursor."""
    width = len(cells[0])
    for k, (drawn, expected) in enumerate(
        zip(cells, expected_cells(state, seat, width), strict=True)
    ):
        assert drawn in (f" {expected} ", f"[{expected}]"), (seat, k, drawn, expected)
