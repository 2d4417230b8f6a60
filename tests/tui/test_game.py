"""The terminal game driven headlessly (Textual's pilot): keys, mouse, screens."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from rich.text import Text
from textual.pilot import Pilot
from tuidriver import (
    bot_chooser,
    keys_for,
    play_on,
    quick_pilot,  # noqa: F401 (an autouse fixture)
    screen_text,
    settle,
)

from skyjo.bots import make_bot
from skyjo.engine import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD, Phase, new_game, step
from skyjo.match import Match, Seat
from skyjo.observation import Observation, observe
from skyjo.rules import Rules
from skyjo.tui.board import Piles, SeatGrid
from skyjo.tui.game import GameApp, join_parts
from skyjo.tui.screens import HelpScreen, QuitScreen, RoundOverScreen, TextScreen
from skyjo.tui.view import from_observation


def run(app: GameApp, scenario: Callable[[Pilot[Any]], Awaitable[None]], size=(80, 24)) -> None:
    """Run `scenario` on the app, headless, at `size`."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot)

    asyncio.run(main())


def seat_actions(match: Match, seat: int) -> list[int]:
    """The actions `seat` played, read back from the match's history."""
    state = new_game(match.num_players, match.secret, match.rules)
    played = []
    for action in match.state.history:
        if state.player == seat and state.phase != Phase.ROUND_OVER:
            played.append(action)
        state = step(state, action)
    return played


def test_a_human_plays_a_whole_round_against_bots_by_key_presses() -> None:
    match = Match([Seat("Ana"), Seat("Greedy", "greedy"), Seat("Random", "random")], seed=3)
    app = GameApp(match, pause=0)
    chosen: list[int] = []
    greedy = bot_chooser("greedy")

    def choose(app: GameApp, seat: int) -> int:
        chosen.append(greedy(app, seat))
        return chosen[-1]

    async def scenario(pilot: Pilot[Any]) -> None:
        made = await play_on(pilot, choose, stop_at_round=1)
        assert made == len(chosen) > 4
        assert isinstance(app.screen, RoundOverScreen)
        text = "\n".join(screen_text(app))
        assert "Round 1 over" in text
        assert "ended with" in text  # the ender's penalty, explained

    run(app, scenario)
    assert len(match.state.results) == 1
    assert seat_actions(match, 0) == chosen
    assert any(a == DRAW for a in chosen) and any(SWAP <= a < FLIP for a in chosen)


def test_the_game_goes_to_its_end_and_names_the_winners() -> None:
    seats = [Seat("Ana"), Seat("Greedy", "greedy")]
    match = Match(seats, Rules(target_score=30), seed=12)
    app = GameApp(match, pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await play_on(pilot, bot_chooser("expected"))
        assert isinstance(app.screen, RoundOverScreen) and app.screen.game_over
        text = "\n".join(screen_text(app))
        winners = " and ".join(match.names[s] for s in match.winners())
        assert f"Game over: {winners}" in text
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        assert "Scoresheet" in "\n".join(screen_text(app))
        await pilot.press("escape", "q")
        await pilot.pause()

    run(app, scenario)
    assert match.over and match.winners()
    assert app.return_code is not None  # the app ended


def test_keys_that_are_not_legal_now_change_nothing() -> None:
    seats = [Seat("Ana"), Seat("Greedy", "greedy")]
    match = Match(seats, seed=5)
    app = GameApp(match, pause=0)

    async def refused(pilot: Pilot[Any], key: str, reason: str = "") -> None:
        before = match.state
        await pilot.press(key)
        await settle(pilot)
        assert match.state is before, key
        assert reason in "\n".join(screen_text(app)), (key, reason)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for key in ("d", "t", "f"):
            await refused(pilot, key, "First turn up two of your cards")
        for key in ("z", "x", "1", "tab", "escape", "space"):
            await refused(pilot, key)
        await pilot.press("enter")  # reveals the card under the cursor, which stays there
        await settle(pilot)
        await refused(pilot, "enter", "That card is already face up")
        await pilot.press("right", "enter")
        await play_on(pilot, bot_chooser(), moves=0)  # the bot's reveals
        assert match.state.phase == Phase.TURNS and match.to_move == 0
        await refused(pilot, "enter", "Draw a card (d) or take the discard (t) first")
        await refused(pilot, "f", "Draw a card first (d)")
        await pilot.press("t")
        await settle(pilot)
        assert match.state.held is not None
        await refused(pilot, "t", "put it in your grid first")
        await refused(pilot, "d", "put it in your grid first")
        await refused(pilot, "f", "may not go back")
        await pilot.press("enter")
        await settle(pilot)
        assert seat_actions(match, 0)[-2] == TAKE_DISCARD

    run(app, scenario)


def test_the_cursor_stays_where_the_player_put_it_after_every_kind_of_move() -> None:
    """Issue 29: Enter, Enter turned up two neighbours, the cursor having moved
    on by itself. After a reveal, an exchange or a flip it stays on the card
    played, and a draw or flip mode does not move it either."""
    match = Match([Seat("Ana"), Seat("Greedy", "greedy")], seed=5)
    app = GameApp(match, pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        grid = app.query_one("#seat-0", SeatGrid)
        await pilot.press("down", "right")
        await settle(pilot)
        assert app.cursor[0] == grid.cursor == 5
        await pilot.press("enter", "enter")  # Enter, Enter: one card, and a refusal
        await settle(pilot)
        assert seat_actions(match, 0) == [REVEAL + 5]
        assert app.cursor[0] == grid.cursor == 5
        assert "That card is already face up" in "\n".join(screen_text(app))
        await pilot.press("right", "enter")  # the second reveal, at 6
        await play_on(pilot, bot_chooser(), moves=0)  # the bot's reveals
        assert app.cursor[0] == 6
        await pilot.press("d")
        await settle(pilot)
        assert app.cursor[0] == grid.cursor == 6  # a draw does not move it
        await pilot.press("enter")  # exchange at 6
        await play_on(pilot, bot_chooser(), moves=0)  # the bot's turn
        assert seat_actions(match, 0)[2:] == [DRAW, SWAP + 6]
        assert app.cursor[0] == 6
        await pilot.press("d", "f")
        await settle(pilot)
        assert app.cursor[0] == grid.cursor == 6  # flip mode leaves it on the face-up 6
        await pilot.press("enter")
        await settle(pilot)
        assert seat_actions(match, 0)[4:] == [DRAW]  # refused: 6 is face up
        await pilot.press("left", "left", "enter")  # discard and flip at 4
        await play_on(pilot, bot_chooser(), moves=0)
        assert seat_actions(match, 0)[4:] == [DRAW, FLIP + 4]
        assert app.cursor[0] == 4
        await pilot.press("d")
        await settle(pilot)
        assert grid.cursor == 4

    run(app, scenario)


def last_turn(seats: list[Seat], seed: int) -> Match:
    """A match played (seat 0 as greedy) until seat 0 is to play a last turn."""
    match = Match(seats, seed=seed)
    chooser = bot_chooser("greedy")
    while not (match.state.phase == Phase.FINAL_TURNS and match.to_move == 0):
        assert match.state.phase in (Phase.REVEAL, Phase.TURNS, Phase.FINAL_TURNS)
        if match.waiting_for_human:
            match.play(0, chooser(SimpleNamespace(match=match), 0))  # type: ignore[arg-type]
        else:
            match.play_bot()
    return match


def test_at_80_columns_the_status_wraps_between_its_parts_and_cuts_none() -> None:
    """Issue 29: at 80 columns the header stopped at "last turns: Expected
    ended the". Its parts now go on a second line, whole, and the board still
    fits in 24 lines."""
    seats = [
        Seat("You"),
        Seat("Greedy Expected", "greedy"),
        Seat("Basic Search", "basic"),
        Seat("Greedy Two", "greedy"),
    ]
    match = last_turn(seats, seed=1)
    ender = match.names[match.state.ender]
    app = GameApp(match, pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        lines = screen_text(app)
        assert lines[0].strip() == "Skyjo · round 1 · target 100 · You to play"
        assert lines[1].strip() == f"last turns: {ender} ended the round"
        assert sum("total 0" in line for line in lines) == 1  # the four grids' score line
        assert "d draw a card" in "\n".join(lines)  # the prompt is still on the screen
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        wide = screen_text(app)[0].strip()
        assert (
            wide
            == f"Skyjo · round 1 · target 100 · You to play · last turns: {ender} ended the round"
        )

    run(app, scenario)


def test_at_80_columns_a_long_name_s_prompt_wraps_instead_of_being_cut() -> None:
    name = "Anastasia Wilhelmina Fitzgerald-Okonkwo"  # 39 characters: a name may have 40
    app = GameApp(Match([Seat(name), Seat("Greedy", "greedy")], seed=5), pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        shown = " ".join(" ".join(screen_text(app)).split())
        assert f"{name}: turn up 2 cards (arrows and Enter, or a click)" in shown
        await pilot.press("d")  # refused: the hint goes under the wrapped instruction
        await settle(pilot)
        shown = " ".join(" ".join(screen_text(app)).split())
        assert "click) First turn up two of your cards" in shown

    run(app, scenario)


def test_the_piles_say_whole_what_flip_mode_does_with_the_drawn_card() -> None:
    """Every line of the piles fits their 30 columns, a 12 drawn included."""
    view = from_observation(observe(new_game(2, seed=1), 0), ["Ana", "Ben"])
    view = replace(view, held=12, source="deck")
    piles = Piles()
    piles.show(view, flip_mode=True)
    lines = piles.render().plain.split("\n")
    assert lines[-1] == "the 12 will be discarded"
    assert all(len(line) <= 28 for line in lines), lines  # 30 columns, padding 1 each side


def test_status_parts_go_to_the_next_line_whole() -> None:
    parts = [Text("Skyjo"), Text("round 1"), Text("You to play"), Text("last turns: Ana ended")]
    assert join_parts(parts, None).plain == "Skyjo · round 1 · You to play · last turns: Ana ended"
    assert join_parts(parts, 29).plain == "Skyjo · round 1 · You to play\nlast turns: Ana ended"
    assert join_parts(parts, 28).plain == "Skyjo · round 1\nYou to play\nlast turns: Ana ended"
    assert join_parts(parts, 5).plain == "Skyjo\nround 1\nYou to play\nlast turns: Ana ended"


def test_flip_mode_offers_only_face_down_cards() -> None:
    match = Match([Seat("Ana"), Seat("Greedy", "greedy")], seed=5)
    app = GameApp(match, pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await play_on(pilot, bot_chooser(), moves=2)  # the two reveals
        await pilot.press("d", "f")
        await settle(pilot)
        obs = match.observation(0)
        grid = app.query_one("#seat-0", SeatGrid)
        assert grid.choosable == {k for k, v in enumerate(obs.cards[0]) if v is None}
        face_up = next(k for k, v in enumerate(obs.cards[0]) if v is not None)
        before = match.state
        await pilot.press(*keys_for(SWAP + face_up, grid.cursor))  # Enter on a face-up card
        await settle(pilot)
        assert match.state is before
        assert "choose a face-down card" in "\n".join(screen_text(app))
        await pilot.press("f", "f")  # out of flip mode and back in
        k = next(iter(grid.choosable))
        await pilot.press(*keys_for(SWAP + k, grid.cursor))
        await settle(pilot)
        assert seat_actions(match, 0)[2:] == [DRAW, FLIP + k]

    run(app, scenario)


def test_the_mouse_plays_cards_and_piles() -> None:
    match = Match([Seat("Ana"), Seat("Random", "random")], seed=8)
    app = GameApp(match, pause=0)

    def at(grid: SeatGrid, k: int) -> tuple[int, int]:
        row, col = divmod(k, 4)
        return col * (grid.card_size.width + 1) + 1, grid.value_line(row)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        grid = app.query_one("#seat-0", SeatGrid)
        for k in (5, 6):
            await pilot.click("#seat-0", offset=at(grid, k))
            await settle(pilot)
        await play_on(pilot, bot_chooser(), moves=0)
        await pilot.click(Piles, offset=(1, 0))  # the draw pile
        await settle(pilot)
        await pilot.click(Piles, offset=(1, 1))  # the discard pile: discard and flip
        await settle(pilot)
        assert app.flip_mode
        await pilot.click("#seat-0", offset=at(grid, 0))
        await settle(pilot)
        await play_on(pilot, bot_chooser(), moves=0)
        await pilot.click(Piles, offset=(1, 1))  # take the discard
        await settle(pilot)
        await pilot.click("#seat-0", offset=at(grid, 5))
        await settle(pilot)

    run(app, scenario)
    assert seat_actions(match, 0)[:6] == [
        REVEAL + 5,
        REVEAL + 6,
        DRAW,
        FLIP + 0,
        TAKE_DISCARD,
        SWAP + 5,
    ]


def test_help_shows_the_rules_and_the_card_colours() -> None:
    app = GameApp(Match([Seat("Ana"), Seat("Greedy", "greedy")], seed=1), pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(screen_text(app))
        for words in ("How to play Skyjo", "dark blue", "light blue", "green", "yellow", "red"):
            assert words in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)

    run(app, scenario)


def test_the_interface_answers_while_a_bot_thinks() -> None:
    release = threading.Event()
    thinking = threading.Event()

    class Slow:
        """A bot that thinks until the test lets it play."""

        def __init__(self, seed: int) -> None:
            self.bot = make_bot("greedy", seed)

        def choose(self, observation: Observation) -> int:
            thinking.set()
            assert release.wait(10)
            return int(self.bot.choose(observation))

    match = Match([Seat("Ana"), Seat("Slow", "greedy")], seed=4, make=lambda spec, seed: Slow(seed))
    app = GameApp(match, pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("enter", "right", "enter")  # Ana's reveals: the bot's turn
        await asyncio.get_running_loop().run_in_executor(None, thinking.wait, 10)
        before = match.state
        await pilot.press("d", "t", "enter", "question_mark")  # answered: help opens
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert match.state is before and app.busy
        assert "Slow is thinking" in "\n".join(screen_text(app))
        release.set()
        await settle(pilot)
        assert not app.busy

    run(app, scenario)


def test_names_are_shown_as_written_never_as_markup() -> None:
    names = ["[/]", "[bold]x", ":smile:", "[link=https://x]y"]
    seats = [Seat(names[0]), Seat(names[1]), Seat(names[2], "greedy"), Seat(names[3], "greedy")]
    match = Match(seats, Rules(target_score=1), seed=14)
    app = GameApp(match, pause=0)
    seen: set[str] = set()

    def look() -> None:
        seen.add("\n".join(screen_text(app)))

    async def scenario(pilot: Pilot[Any]) -> None:
        await play_on(pilot, bot_chooser(), on_screen=look)
        look()

    run(app, scenario, size=(120, 40))
    shown = "\n".join(seen)
    assert "Pass to [/] — press Enter" in shown and "Pass to [bold]x — press Enter" in shown
    for name in names:
        assert f"{name} turned up" in shown, name  # the log
        assert f" {name}  " in shown or f"▶ {name}" in shown, name  # a grid's title
    assert "Game over: " in shown


def test_quitting_an_unsaved_game_asks_first() -> None:
    app = GameApp(Match([Seat("Ana"), Seat("Greedy", "greedy")], seed=1), pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "This game is not saved" in "\n".join(screen_text(app))
        await pilot.press("n")
        await settle(pilot)
        assert app.waiting == "move" and app.return_code is None
        await pilot.press("q", "y")
        await pilot.pause()

    run(app, scenario)
    assert app.return_code is not None


def test_a_bot_move_back_after_the_app_stopped_is_ignored() -> None:
    """A bot's worker may finish while the app shuts down (quit while it was
    thinking, or a test leaving the app): its move no longer redraws the
    board, which is gone, and the app does not fail."""
    match = Match([Seat("Ana"), Seat("Greedy", "greedy")], seed=6)
    app = GameApp(match, pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    run(app, scenario)
    assert not app.is_running
    app.bot_moved(None)  # raised NoMatches ('#status') before the guard


def test_below_80_by_24_the_board_says_the_size_it_needs() -> None:
    """Issue 46: below 80x24 the grids ran together and nothing said why."""
    match = Match([Seat("Ana"), Seat("Greedy", "greedy")], seed=2)
    app = GameApp(match, pause=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        assert "needs at least" not in "\n".join(screen_text(app))
        await pilot.resize_terminal(70, 20)
        await settle(pilot)
        text = "\n".join(screen_text(app))
        assert "This terminal is 70x20: Skyjo needs at least 80x24." in text
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert "needs at least" not in "\n".join(screen_text(app))

    run(app, scenario)
