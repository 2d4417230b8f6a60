"""`skyjo scorepad`'s Textual app driven by keys (Textual's pilot), on a real database."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot

from skyjo.scorepad.sheet import Sheet
from skyjo.scorepad.store import SheetStore
from skyjo.scorepad.tui import HelpScreen, ListScreen, RoundScreen, ScorepadApp, SheetScreen
from skyjo.scoring import score_round

GRID_14 = "7 5 2 4 / 7 -1 3 1 / 7 0 -2 2"
BEN, CLEO = "[bold]Ben", "Cleo[/]"  # markup that must stay text


@pytest.fixture
def store(tmp_path: Path) -> SheetStore:
    return SheetStore(f"sqlite:///{tmp_path / 'skyjo.db'}")


def run(app: ScorepadApp, scenario: Callable[[Pilot[Any]], Awaitable[None]], size=(120, 30)):
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(main())


def screen_text(app: Any) -> str:
    """What the terminal shows now, as plain text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


async def enter_round(pilot: Pilot[Any], values: list[str], ender: int) -> None:
    """From a sheet: `a`, each player's value then Enter, `e` in the ender's field."""
    await pilot.press("a")
    await pilot.pause()
    for n, value in enumerate(values):
        await pilot.press(*value)
        if n == ender:
            await pilot.press("e")
        await pilot.press("enter")
    await pilot.pause()


def sheet_with(store: SheetStore, *rounds: dict[str, Any], target: int = 100) -> str:
    sheet = Sheet.new(["Ana", BEN, CLEO], "Friday [red]night", target_score=target)
    for data in rounds:
        sheet = sheet.add_round(data)
    return store.create(sheet).id


def test_a_sheet_is_made_and_the_worked_examples_entered_by_keys(store: SheetStore) -> None:
    app = ScorepadApp(store)

    async def scenario(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, ListScreen)
        assert "No scoresheet yet" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*"Friday [red]night", "enter", *"Ana", "enter", *BEN, "enter", *CLEO)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)
        # RULES.md 4: Cleo ends with 14 while Ana has 9: Cleo writes 28.
        await enter_round(pilot, ["9", "20", "14"], ender=2)
        assert isinstance(app.screen, SheetScreen)
        shown = screen_text(app)
        assert "Round 1 saved." in shown
        reason = score_round({"Ana": 9, BEN: 20, CLEO: 14}, CLEO).reason
        assert reason in shown
        # The grid of RULES.md 4 as cards; Ben ends with 5 and Cleo also has 5: 10.
        await enter_round(pilot, [GRID_14, "5", "5"], ender=1)
        shown = screen_text(app)
        assert "three 7s, cleared, so 0; 5 + -1 + 0 = 4; 2 + 3 + -2 = 3; 4 + 1 + 2 = 7: 14" in shown
        assert f"{BEN} ended with 5 and {CLEO} has 5" in shown
        # Ana ends with -3 and Cleo has -5: Ana keeps -3.
        await enter_round(pilot, ["-3", "10", "-5"], ender=0)
        shown = screen_text(app)
        assert "Ana ended with -3: a score of 0 or below is never doubled" in shown
        assert "Leader: Ana (20)" in shown
        assert f"to 100: Ana 80, {BEN} 60, {CLEO} 72" in shown
        assert "Friday [red]night" in shown

    run(app, scenario)
    (info,) = store.list()
    sheet = store.load(info.id).sheet
    assert sheet.players == ("Ana", BEN, CLEO) and sheet.title == "Friday [red]night"
    assert sheet.totals == {"Ana": 20, BEN: 40, CLEO: 28}
    assert [r.ender for r in sheet.rounds] == [CLEO, BEN, "Ana"]


def test_the_game_ends_and_an_edited_round_changes_the_winner(store: SheetStore) -> None:
    first = {"ender": CLEO, "entries": {"Ana": 9, BEN: 20, CLEO: 14}}
    sheet_id = sheet_with(store, first, target=50)
    app = ScorepadApp(store, sheet_id)

    async def scenario(pilot: Pilot[Any]) -> None:
        await enter_round(pilot, ["22", "35", "2"], ender=2)
        shown = screen_text(app)
        assert f"Game over: {CLEO} wins with 30." in shown
        await pilot.press("a")
        await pilot.pause()
        assert "no round can be added" in screen_text(app)
        # Round 1 was misread: Cleo had 24, so 48 and Ana wins.
        await pilot.press("up", "e")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        await pilot.press("down", "down", "ctrl+a", "ctrl+k", *"24", "enter")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)
        assert "Game over: Ana wins with 31." in screen_text(app)
        await pilot.press("u")
        await pilot.pause()
        assert f"Game over: {CLEO} wins with 30." in screen_text(app)
        await pilot.press("U")  # issue 46: the terminal scorepad's redo
        await pilot.pause()
        assert "Game over: Ana wins with 31." in screen_text(app)
        assert "The undone change is made again." in screen_text(app)
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert "Nothing to redo" in screen_text(app)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert f"Game over: {CLEO} wins with 30." in screen_text(app)

    run(app, scenario)
    assert store.load(sheet_id).sheet.winners == [CLEO]


def test_a_round_is_deleted_after_confirmation(store: SheetStore) -> None:
    one = {"ender": "Ana", "entries": {"Ana": 1, BEN: 2, CLEO: 3}}
    sheet_id = sheet_with(store, one, {**one, "entries": {"Ana": 4, BEN: 5, CLEO: 6}})
    app = ScorepadApp(store, sheet_id)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        await pilot.pause()
        assert "Delete round 1? (y / n)" in screen_text(app)
        await pilot.press("n", "d", "y")
        await pilot.pause()
        assert "Round 1 deleted." in screen_text(app)

    run(app, scenario)
    assert store.load(sheet_id).sheet.totals == {"Ana": 4, BEN: 5, CLEO: 6}


@pytest.mark.parametrize(
    ("values", "ender", "message"),
    [
        (["1", "2", "3"], None, "round 1: no ender is marked: mark who ended the round"),
        (["", "2", "3"], 0, "round 1: Ana ended the round but has no score entered"),
        (["1", "", "3"], 0, f"round 1: {BEN} has no score entered"),
        (["13 1 1 1 1 1 1 1 1 1 1 1", "2", "3"], 0, "row 1, column 1 is 13"),
        (["-2 -2 -2 -2 -2 -2 0 0 0 0 0 0", "2", "3"], 0, "6 cards of -2 but the deck has only 5"),
    ],
)
def test_a_mistake_is_refused_with_its_message_and_nothing_saved(
    store: SheetStore, values: list[str], ender: int | None, message: str
) -> None:
    sheet_id = sheet_with(store)
    before = store.load(sheet_id)
    app = ScorepadApp(store, sheet_id)

    async def scenario(pilot: Pilot[Any]) -> None:
        await enter_round(pilot, values, ender=-1 if ender is None else ender)
        assert isinstance(app.screen, RoundScreen)
        assert message in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)

    run(app, scenario)
    assert store.load(sheet_id) == before


def test_the_list_opens_renames_and_deletes_sheets(store: SheetStore) -> None:
    keep = sheet_with(store)
    gone = sheet_with(store)
    app = ScorepadApp(store)

    async def scenario(pilot: Pilot[Any]) -> None:
        shown = screen_text(app)
        assert keep in shown and gone in shown and f"Ana, {BEN}, {CLEO}" in shown
        await pilot.press("d")  # the last made is on top
        await pilot.pause()
        assert f"Delete the scoresheet {gone} Friday [red]night, 0 rounds? (y / n)" in (
            screen_text(app)
        )
        await pilot.press("y", "r")
        await pilot.pause()
        await pilot.press("ctrl+a", "ctrl+k", *"Saturday", "enter", "enter")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)
        assert "Saturday" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ListScreen)

    run(app, scenario)
    assert [(info.id, info.title) for info in store.list()] == [(keep, "Saturday")]


def row_of(shown: str, name: str) -> str:
    """The line of the round screen that starts with the player's name."""
    return next(line for line in shown.splitlines() if line.startswith(f" {name} "))


def test_the_ender_is_marked_where_the_eye_is(store: SheetStore) -> None:
    """Issue 29: the key that marks the ender was only in a hint line. A column
    beside the names shows it on the row being typed in, and `* ender` on the
    ender's row."""
    app = ScorepadApp(store, sheet_with(store))

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.press("a")
        await pilot.pause()
        shown = screen_text(app)
        assert "e: ender" in row_of(shown, "Ana")  # the focused row shows the key
        assert "ender" not in row_of(shown, BEN) and "ender" not in row_of(shown, CLEO)
        await pilot.press("9", "enter", "2", "0", "e")  # Ben's field: e marks Ben
        await pilot.pause()
        shown = screen_text(app)
        assert "* ender" in row_of(shown, BEN)
        assert "ender" not in row_of(shown, "Ana") and "ender" not in row_of(shown, CLEO)
        assert row_of(shown, BEN).rstrip().endswith("20")  # the e was not typed
        await pilot.press("down")
        await pilot.pause()
        shown = screen_text(app)
        assert "* ender" in row_of(shown, BEN) and "e: ender" in row_of(shown, CLEO)
        await pilot.press("1", "4", "*")  # Cleo's field: * moves the mark to Cleo
        await pilot.pause()
        shown = screen_text(app)
        assert "* ender" in row_of(shown, CLEO) and "ender" not in row_of(shown, BEN)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)

    run(app, scenario, size=(80, 24))
    (info,) = store.list()
    assert store.load(info.id).sheet.rounds[0].ender == CLEO


def test_question_mark_shows_the_keys_and_how_to_mark_the_ender(store: SheetStore) -> None:
    app = ScorepadApp(store)

    async def shows_help(pilot: Pilot[Any], back_to: type) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = " ".join(screen_text(app).split())
        assert "e or * in a player's field: that player ended the round" in shown
        assert '"* ender" on the ender\'s row' in shown and '"e: ender"' in shown
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, back_to)

    async def scenario(pilot: Pilot[Any]) -> None:
        await shows_help(pilot, ListScreen)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("f1")  # a name or a title may hold a ?: F1 there
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ListScreen)
        app.open_sheet(sheet_with(store))
        await pilot.pause()
        await shows_help(pilot, SheetScreen)
        await pilot.press("a", "7")
        await pilot.pause()
        await shows_help(pilot, RoundScreen)  # ? in a field is help, not typed
        assert app.screen.inputs()[0].value == "7"  # type: ignore[attr-defined]

    run(app, scenario, size=(80, 24))


def test_at_80_columns_a_long_title_s_heading_wraps_instead_of_being_cut(
    store: SheetStore,
) -> None:
    title = "The long Friday night at Ana's, with the cousins from Lyon and Zaragoza"
    sheet_id = store.create(Sheet.new(["Ana", "Ben"], title)).id
    app = ScorepadApp(store, sheet_id)

    async def scenario(pilot: Pilot[Any]) -> None:
        shown = " ".join(screen_text(app).split())
        assert f"{title} · {sheet_id} · target 100 · ender penalty positive" in shown

    run(app, scenario, size=(80, 24))


def test_the_screens_fit_80_by_24(store: SheetStore, tmp_path: Path) -> None:
    sheet_id = sheet_with(store)
    app = ScorepadApp(store, sheet_id)

    async def scenario(pilot: Pilot[Any]) -> None:
        await enter_round(pilot, ["9", "20", "14"], ender=2)
        await pilot.press("a", *GRID_14, "enter", "5", "e", "enter", "5")
        await pilot.pause()
        shown = screen_text(app)
        assert "three 7s, cleared, so 0;" in shown
        assert f"{BEN} ended with 5 and {CLEO} has 5" in shown.replace("\n", " ")
        app.save_screenshot(str(tmp_path / "round.svg"))
        await pilot.press("enter")
        await pilot.pause()
        assert "Leader: Ana (23)" in screen_text(app)
        app.save_screenshot(str(tmp_path / "sheet.svg"))

    run(app, scenario, size=(80, 24))
    assert (tmp_path / "sheet.svg").read_text().count("[bold]Ben") >= 1


def test_a_new_sheet_takes_each_rule_variant_from_its_field(store: SheetStore) -> None:
    """The form has a field a variant (`skyjo.rules.VARIANTS`, named by its key) with
    its default, and the sheet is made under what they hold; a value a variant does
    not take is refused in its words, and nothing is stored."""
    app = ScorepadApp(store)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.press("n")
        await pilot.pause()
        target, penalty = app.screen.query_one("#target"), app.screen.query_one("#penalty")
        assert (target.value, penalty.value) == ("100", "positive")  # type: ignore[attr-defined]
        assert "positive, always, none (RULES.md 2.10)" in screen_text(app)
        await pilot.press(*"Friday", "enter", *"Ana", "enter", *"Ben")
        penalty.value = "sometimes"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "ender_penalty must be one of positive, always, none" in screen_text(app)
        assert store.list() == []
        target.value, penalty.value = "50", "always"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)

    run(app, scenario)
    (info,) = store.list()
    assert store.load(info.id).sheet.rules.to_dict() == {
        "target_score": 50,
        "ender_penalty": "always",
    }
