"""`skyjo play --save` keeps the game after every move, half turns included;
`--resume` goes on exactly: a game saved, quit and resumed ends as the same
game played in one go with the same moves."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from tuidriver import (
    Chooser,
    bot_chooser,
    play_on,
    press_move,
    quick_pilot,  # noqa: F401 (an autouse fixture)
    screen_text,
    settle,
)
from typer.testing import CliRunner

from skyjo.bots import make_bot
from skyjo.cli import app as cli
from skyjo.engine import DRAW, FLIP, SWAP, Phase
from skyjo.match import Match, Seat
from skyjo.observation import Observation
from skyjo.rules import Rules
from skyjo.tui.game import GameApp
from skyjo.tui.lineup import load_match, save_match
from skyjo.tui.screens import PassScreen

SEATS = [Seat("Ana"), Seat("Ben"), Seat("Bot", "greedy")]
RULES = Rules(target_score=1)  # one round


class Stateless:
    """A bot that remembers nothing between moves (a fresh greedy each move):
    resumed, it plays as it would have in the unbroken game."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, observation: Observation) -> int:
        return int(make_bot("greedy", self.seed).choose(observation))


def stateless(spec: str, seed: int) -> Stateless:
    return Stateless(seed)


def saved(path: Path) -> Match:
    return Match.from_dict(json.loads(path.read_text()), make=stateless)


async def play_until_a_drawn_card(pilot: Pilot[Any], choose: Chooser, moves: int) -> None:
    """Play at least `moves` human moves, then on to a human holding a drawn card."""
    app = pilot.app
    made = await play_on(pilot, choose, moves=moves)
    assert made == moves
    while not (app.picking is not None and app.match.state.source == DRAW):
        await play_on(pilot, choose, moves=1)


def unbroken(choose: Chooser) -> Match:
    """The game played in one go, through the driver alone, with the same moves."""
    match = Match(SEATS, RULES, seed=31, make=stateless)
    while not match.over:
        match.advance()
        if match.waiting_for_human:
            seat = match.to_move
            assert seat is not None
            match.play(seat, choose(Viewer(match), seat))  # type: ignore[arg-type]
    return match


class Viewer:
    """What a chooser reads of an app: its match."""

    def __init__(self, match: Match) -> None:
        self.match = match


def test_saved_quit_and_resumed_the_game_ends_as_the_unbroken_one(tmp_path: Path) -> None:
    choose = bot_chooser("greedy")
    whole = unbroken(choose)
    path = tmp_path / "game.json"
    broken = Match(SEATS, RULES, seed=31, make=stateless)
    first = GameApp(broken, save=path, pause=0)
    held: list[int | None] = []

    async def until_quit() -> None:
        async with first.run_test(size=(80, 24)) as pilot:
            await play_until_a_drawn_card(pilot, choose, 12)
            held.append(broken.state.held)
            assert saved(path).state == broken.state  # the half turn is saved
            await pilot.press("q")  # saved: quits at once
            await pilot.pause()

    asyncio.run(until_quit())
    assert first.return_code is not None

    resumed = saved(path)
    assert resumed.state == broken.state and resumed.state.held == held[0] is not None
    second = GameApp(resumed, save=path, pause=0)

    async def resume() -> None:
        async with second.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert isinstance(second.screen, PassScreen)  # two humans: hot-seat
            await pilot.press("enter")
            await settle(pilot)
            seat = resumed.state.player
            assert second.picking == seat
            legal = resumed.observation(seat).legal_actions
            assert all(SWAP <= a < FLIP + 12 for a in legal)  # only to place the card
            assert f"{resumed.names[seat]} drew" in "\n".join(screen_text(second))
            await play_on(pilot, choose)

    asyncio.run(resume())
    assert resumed.over
    assert resumed.state.history == whole.state.history
    assert resumed.state.totals == whole.state.totals
    assert resumed.winners() == whole.winners()
    assert saved(path).state == resumed.state


def test_the_file_follows_every_move_half_turns_included(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    match = Match([Seat("Ana"), Seat("Bot", "greedy")], seed=6, make=stateless)
    app = GameApp(match, save=path, pause=0)
    choose = bot_chooser()

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(12):
                await settle(pilot)
                assert saved(path).state == match.state
                seat = app.picking
                assert seat is not None
                await press_move(pilot, app, seat, choose(app, seat))

    asyncio.run(scenario())
    assert not list(tmp_path.glob(".game.json.*"))  # no temporary file left


def test_a_failed_save_leaves_the_last_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    match = Match([Seat("Ana"), Seat("Bot", "greedy")], seed=6)
    save_match(match, path)
    before = path.read_text()
    match.play(0, 0)

    def broken(*args: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        save_match(match, path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert load_match(path).state.history == b""


def test_play_save_and_resume_through_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`skyjo play --save`, quit holding a drawn card, `skyjo play --resume` to the end."""
    path = tmp_path / "game.json"
    choose = bot_chooser()
    scenarios = []

    async def quit_holding(pilot: Pilot[Any]) -> None:
        await play_until_a_drawn_card(pilot, choose, 3)
        await pilot.press("q")

    async def finish(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        assert pilot.app.match.state.source == DRAW
        await play_on(pilot, choose)
        await pilot.press("q")

    def run_headless(app: GameApp, *args: Any, **kwargs: Any) -> None:
        async def main() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await scenarios.pop(0)(pilot)

        asyncio.run(main())

    monkeypatch.setattr(GameApp, "run", run_headless)
    runner = CliRunner()
    scenarios[:] = [quit_holding, finish]
    args = ["--humans", "Ana", "--bots", "random", "--target", "10", "--pause", "0"]
    first = runner.invoke(cli, ["play", *args, "--save", str(path)])
    assert first.exit_code == 0, first.stderr
    assert "The game is not finished" in first.stdout
    assert f"skyjo play --resume {path}" in first.stdout
    assert load_match(path).state.source == DRAW
    second = runner.invoke(cli, ["play", "--resume", str(path), "--pause", "0"])
    assert second.exit_code == 0, second.stderr
    assert "Game over: " in second.stdout
    assert load_match(path).state.phase == Phase.GAME_OVER
