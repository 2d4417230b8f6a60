"""`skyjo scorepad`: the scoresheet of a physical game in the terminal (Textual).

Screens: the list of sheets (open, new, rename, delete), a new sheet (title,
players, rules), a sheet (rounds, running totals, each round explained, the
leader, the distance to the target, the winners; add, edit, delete a round;
undo) and a round (one field a player: a total or 12 cards; `e` in a player's
field marks the ender, shown in a column beside the names: `* ender` on the
ender's row, the key `e: ender` on the row being typed in). `?` (or F1) shows
the keys of every screen. Every change goes through the model (`skyjo.scorepad.sheet`) and is
saved at once (`skyjo.scorepad.store.OpenSheet`); a refused one saves nothing
and says why.

Every text shown is a `rich.text.Text`, never markup: names appear as typed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Footer, Input, Label, Static

from skyjo.rules import GRID_SIZE, MAX_PLAYERS, VARIANTS, Variant
from skyjo.scorepad.entries import (
    check_entry,
    entry_score,
    entry_text,
    grid_explanation,
    parse_entry,
)
from skyjo.scorepad.sheet import Sheet, SheetError
from skyjo.scorepad.store import OpenSheet, SheetStore, StoreError

#: What an entry field takes: digits, minus signs, `x`, separators.
ENTRY_CHARS = "[-\u22120-9xX/, ]*"

CSS = """
Screen { layout: vertical; }
.heading { height: auto; padding: 0 1; background: $primary-background; text-style: bold; }
.message { height: auto; min-height: 1; padding: 0 1; }
.error { color: $error; text-style: bold; }
.field { height: 1; margin: 0 0 0 1; }
.field Label { width: 16; }
.field Input { width: 1fr; height: 1; border: none; padding: 0 1; }
.field Input:focus { background: $boost; }
.preview { height: auto; min-height: 1; padding: 0 1 0 18; color: $text-muted; }
.field .mark { width: 10; }
RoundScreen .preview { padding: 0 1 0 28; }
#rounds { height: 1fr; min-height: 5; }
#details { height: auto; max-height: 10; padding: 0 1; }
#status { height: auto; padding: 0 1; background: $boost; }
"""


def plain(text: str, style: str = "") -> Text:
    """`text` as it is written (no markup)."""
    return Text(text, style=style)


# --------------------------------------------------------------------------
# Small screens
# --------------------------------------------------------------------------


class Confirm(ModalScreen[bool]):
    """A yes/no question (y / n)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Static { width: auto; max-width: 90%; border: round $error; padding: 1 2;
        background: $surface; }
    """

    def __init__(self, question: Text) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(self.question + plain(" (y / n)"))

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class Rename(ModalScreen[str | None]):
    """Asks for a new title (Enter), or nothing (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]
    DEFAULT_CSS = """
    Rename { align: center middle; }
    Rename > Vertical { width: 60; height: auto; border: round $primary; background: $surface; }
    """

    def __init__(self, title: str) -> None:
        super().__init__()
        self.old = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(plain("New title (Enter to keep it, Escape to cancel):"))
            yield Input(self.old, id="title")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


#: The keys of every screen, shown by `?` (or F1) on any screen.
HELP = """\
The list of sheets
  Enter  open the selected sheet       n  a new sheet
  r      rename it                     d  delete it (asks y / n)
  q      quit

A sheet: a line a round (* the ender, x2 a doubled score, the running total)
  a      enter the next round          e or Enter  edit the selected round
  d      delete the selected round     u or ctrl+z  undo the last change
                                       U or ctrl+y  redo what was undone
  r      rename the sheet              Escape  back to the list

A round: a field a player, a total (9) or the 12 cards row by row
(7 5 2 4 / 7 -1 3 1 / 7 0 -2 2), x for a card of a cleared column
  e or * in a player's field: that player ended the round. The column
         beside the names says "* ender" on the ender's row, and shows
         the key, "e: ender", on the row you are typing in.
  Enter  the next player (from the last one: save)
  up, down  another player    ctrl+s  save    Escape  cancel

Mistakes name a card by its row and column, counted from 1: the top
left card is row 1, column 1."""


class HelpScreen(ModalScreen[None]):
    """The keys of every screen (`?` or F1); Escape, `?`, `q` or Enter closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,enter,f1", "dismiss", "Close")
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 80; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(plain("Skyjo scorepad: the keys (Escape to go back)", "bold underline"))
            yield Static(plain(HELP))


# --------------------------------------------------------------------------
# The list of sheets
# --------------------------------------------------------------------------


class ListScreen(Screen[None]):
    """Every sheet of the database, the last changed first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New sheet"),
        Binding("enter", "open", "Open", show=False),
        Binding("r", "rename", "Rename"),
        Binding("d,delete", "delete", "Delete"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(plain("Skyjo scorepad · scoresheets"), classes="heading")
        yield DataTable(id="sheets", cursor_type="row")
        yield Static(id="message", classes="message")
        yield Footer()

    @property
    def store(self) -> SheetStore:
        return self.app.store  # type: ignore[attr-defined, no-any-return]

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Id", "Title", "Players", "Rounds", "")
        self.refresh_list()

    def on_screen_resume(self) -> None:
        self.refresh_list()

    def refresh_list(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        infos = self.store.list()
        for info in infos:
            state = "game over" if info.finished else ""
            cells = (info.id, info.title, ", ".join(info.players), str(info.rounds), state)
            table.add_row(*map(plain, cells), key=info.id)
        hint = "Enter opens a sheet, n starts a new one." if infos else "No scoresheet yet."
        self.query_one("#message", Static).update(plain(hint + " (n: new sheet)"))

    def selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        sheet_id = self.selected()
        if sheet_id is not None:
            self.app.open_sheet(sheet_id)  # type: ignore[attr-defined]

    def action_new(self) -> None:
        self.app.push_screen(NewSheetScreen())

    def action_rename(self) -> None:
        sheet_id = self.selected()
        if sheet_id is None:
            return

        def done(title: str | None) -> None:
            if title is not None:
                self.attempt(lambda: self.store.rename(sheet_id, title))
            self.refresh_list()

        self.app.push_screen(Rename(self.store.load(sheet_id).sheet.title), done)

    def action_delete(self) -> None:
        sheet_id = self.selected()
        if sheet_id is None:
            return
        sheet = self.store.load(sheet_id).sheet
        question = plain(f"Delete the scoresheet {sheet_id} ") + plain(sheet.title or "untitled")
        question.append(f", {len(sheet.rounds)} rounds?")

        def done(yes: bool | None) -> None:
            if yes:
                self.attempt(lambda: self.store.delete(sheet_id))
            self.refresh_list()

        self.app.push_screen(Confirm(question), done)

    def attempt(self, change: Callable[[], Any]) -> None:
        try:
            change()
        except ValueError as error:
            self.query_one("#message", Static).update(plain(str(error), "bold red"))


# --------------------------------------------------------------------------
# A new sheet
# --------------------------------------------------------------------------


class NewSheetScreen(Screen[None]):
    """Title, 2 to 8 players, target score and ender penalty; ctrl+s creates it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "create", "Create", priority=True),
        Binding("escape", "app.pop_screen", "Cancel"),
        Binding("down", "app.focus_next", "Next", show=False),
        Binding("up", "app.focus_previous", "Previous", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(plain("New scoresheet (Enter: next field; ctrl+s: create)"), classes="heading")
        with VerticalScroll():
            yield self.field("Title", Input(placeholder="e.g. Friday at Ana's", id="title"))
            for n in range(1, MAX_PLAYERS + 1):
                hint = "a name" if n <= 2 else "(optional)"
                yield self.field(f"Player {n}", Input(placeholder=hint, id=f"player{n}"))
            for variant in VARIANTS:
                yield from self.variant_field(variant)
        yield Static(id="message", classes="message error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#title", Input).focus()

    def variant_field(self, variant: Variant) -> Iterator[Any]:
        """A rule variant's input (`skyjo.rules.VARIANTS`), named by its key: a number
        within its bounds, or one of its choices, which are shown below it."""
        label = variant.name.replace("_", " ").capitalize()
        if not variant.choices:
            yield self.field(label, Input(str(variant.default), restrict="[0-9]*", id=variant.key))
            return
        choices = SuggestFromList(variant.choices)
        yield self.field(label, Input(str(variant.default), suggester=choices, id=variant.key))
        shown = f"{', '.join(variant.choices)} (RULES.md {variant.section})"
        yield Static(plain(shown), classes="preview")

    def variant_value(self, variant: Variant) -> Any:
        """What the input of `variant` holds: a number (0 when empty), or a word."""
        typed = self.query_one(f"#{variant.key}", Input).value.strip()
        if variant.choices:
            return typed
        return int(typed) if typed else 0

    @staticmethod
    def field(label: str, widget: Any) -> Horizontal:
        return Horizontal(Label(plain(label)), widget, classes="field")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == VARIANTS[-1].key:
            self.action_create()
        else:
            self.focus_next()

    def action_create(self) -> None:
        names = [self.query_one(f"#player{n}", Input).value for n in range(1, MAX_PLAYERS + 1)]
        variants = {variant.name: self.variant_value(variant) for variant in VARIANTS}
        try:
            sheet = Sheet.new(
                [name for name in names if name.strip()],
                self.query_one("#title", Input).value,
                **variants,
            )
            stored = self.app.store.create(sheet)  # type: ignore[attr-defined]
        except ValueError as error:
            self.query_one("#message", Static).update(plain(str(error)))
            return
        self.app.pop_screen()
        self.app.open_sheet(stored.id)  # type: ignore[attr-defined]


# --------------------------------------------------------------------------
# A sheet
# --------------------------------------------------------------------------


class SheetScreen(Screen[None]):
    """The rounds of a sheet, the running totals, the selected round explained."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a,n", "add", "New round"),
        Binding("e,enter", "edit", "Edit round"),
        Binding("d,delete", "delete", "Delete round"),
        Binding("u,ctrl+z", "undo", "Undo"),
        Binding("U,ctrl+y", "redo", "Redo"),
        Binding("r", "rename", "Rename", show=False),
        Binding("escape,q", "back", "Sheets"),
    ]

    def __init__(self, pad: OpenSheet) -> None:
        super().__init__()
        self.pad = pad

    @property
    def sheet(self) -> Sheet:
        return self.pad.sheet

    def compose(self) -> ComposeResult:
        yield Static(id="heading", classes="heading")
        yield DataTable(id="rounds", cursor_type="row", zebra_stripes=True)
        yield Static(id="details")
        yield Static(id="status")
        yield Static(id="message", classes="message")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self, message: Text | None = None, select: int | None = None) -> None:
        """Draw the sheet, the cursor on round `select`, else where it was."""
        self.query_one("#heading", Static).update(heading(self.pad.id, self.sheet))
        table = self.query_one(DataTable)
        row = table.cursor_row if table.row_count else 0
        row = row if select is None else select - 1
        fill_rounds(table, self.sheet)
        if table.row_count:
            table.move_cursor(row=min(row, max(len(self.sheet.rounds) - 1, 0)))
        self.show_details()
        self.query_one("#status", Static).update(status(self.sheet))
        self.query_one("#message", Static).update(message or plain(self.hint()))

    def hint(self) -> str:
        if self.sheet.finished:
            return "The game is over. e edits a round, u undoes the last change."
        return "a: enter the next round; e: edit the selected round; u: undo."

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_details()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_edit()

    def selected(self) -> int | None:
        """The selected round's number (1-based), or None on the totals line."""
        table = self.query_one(DataTable)
        number = table.cursor_row + 1
        return number if 1 <= number <= len(self.sheet.rounds) else None

    def show_details(self) -> None:
        number = self.selected()
        details = round_details(self.sheet, number) if number else Text("")
        self.query_one("#details", Static).update(details)

    def action_add(self) -> None:
        if self.sheet.finished:
            self.warn("The game is over: no round can be added (u undoes, e edits).")
            return
        self.app.push_screen(RoundScreen(self, None))

    def action_edit(self) -> None:
        number = self.selected()
        if number is None:
            self.warn("Choose a round to edit (up and down).")
            return
        self.app.push_screen(RoundScreen(self, number))

    def action_delete(self) -> None:
        number = self.selected()
        if number is None:
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.change(lambda: self.pad.delete_round(number), f"Round {number} deleted.")

        self.app.push_screen(Confirm(plain(f"Delete round {number}?")), done)

    def action_undo(self) -> None:
        self.change(self.pad.undo, "The last change is undone (U redoes it).")

    def action_redo(self) -> None:
        if not self.pad.can_redo:
            self.warn("Nothing to redo: no change was undone since the last one.")
            return
        self.change(self.pad.redo, "The undone change is made again.")

    def action_rename(self) -> None:
        def done(title: str | None) -> None:
            if title is not None:
                self.change(lambda: self.pad.rename(title), "Renamed.")

        self.app.push_screen(Rename(self.sheet.title), done)

    def action_back(self) -> None:
        self.app.pop_screen()
        if not self.app.screen_stack[1:]:
            self.app.push_screen(ListScreen())

    def change(self, make: Callable[[], Any], done: str) -> None:
        try:
            make()
        except ValueError as error:
            self.warn(str(error))
            return
        self.show(plain(done))

    def warn(self, reason: str) -> None:
        self.query_one("#message", Static).update(plain(reason, "bold red"))


def heading(sheet_id: str, sheet: Sheet) -> Text:
    text = plain(sheet.title or "Untitled")
    rules = sheet.rules
    text.append(
        f" · {sheet_id} · target {rules.target_score} · ender penalty {rules.ender_penalty}"
    )
    return text


def fill_rounds(table: DataTable[Any], sheet: Sheet) -> None:
    """One line a round (the ender starred, a doubled score marked x2), then the totals."""
    table.clear(columns=True)
    table.add_column(plain("Round"), key="round")
    for player in sheet.players:
        table.add_column(plain(player))
    running = sheet.scoresheet.running_totals
    for number, (scored, totals) in enumerate(zip(sheet.scored, running, strict=True), start=1):
        cells = [plain(str(number))]
        for player in sheet.players:
            cells.append(score_cell(scored.score, player, totals[player]))
        table.add_row(*cells)
    winners = set(sheet.winners)
    totals = [plain("Total", "bold")]
    for player, total in sheet.totals.items():
        totals.append(plain(f"{total:>4}", "bold green" if player in winners else "bold"))
    table.add_row(*totals)


def score_cell(score: Any, player: str, total: int) -> Text:
    """`28 x2 *  (28)`: the round score, doubled, ended, the running total."""
    text = plain(f"{score.scores[player]:>4}")
    if player == score.ender:
        text.append(" x2" if score.doubled else "   ", "bold red")
        text.append(" *", "bold")
    else:
        text.append("     ")
    text.append(f" ({total})", "dim")
    return text


def round_details(sheet: Sheet, number: int) -> Text:
    """Round `number` explained: each grid column by column, then the ender's penalty."""
    scored = sheet.scored[number - 1]
    lines = [plain(f"Round {number}", "bold")]
    for player, grid in scored.grids.items():
        lines.append(Text.assemble((player, "bold"), ": ", grid_explanation(grid)))
    lines.append(plain(scored.score.reason))
    return Text("\n").join(lines)


def status(sheet: Sheet) -> Text:
    """The winners, or the leader and each player's distance to the target."""
    if not sheet.rounds:
        return plain("No round yet: press a to enter the first one.")
    totals = sheet.totals
    if sheet.finished:
        best = sheet.winners
        verb = "share the win" if len(best) > 1 else "wins"
        text = Text.assemble(("Game over: ", "bold"), (" and ".join(best), "bold green"))
        text.append(f" {verb} with {totals[best[0]]}.")
        return text
    text = plain("Leader: ")
    text.append(" and ".join(sheet.leaders), "bold")
    text.append(f" ({totals[sheet.leaders[0]]}) · to {sheet.rules.target_score}: ")
    text.append(", ".join(f"{p} {left}" for p, left in sheet.to_target().items()))
    return text


# --------------------------------------------------------------------------
# A round
# --------------------------------------------------------------------------


class EntryInput(Input):
    """A player's field: a total or 12 cards; `e` (or `*`) marks the player as the ender."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e,asterisk", "mark_ender", "This player ended", priority=True),
        Binding("question_mark", "app.help", "Help", show=False, priority=True),
    ]

    def __init__(self, player: str, value: str) -> None:
        super().__init__(value, restrict=ENTRY_CHARS, placeholder="total, or 12 cards")
        self.player = player

    def action_mark_ender(self) -> None:
        self.screen.mark_ender(self.player)  # type: ignore[attr-defined]


class RoundScreen(Screen[None]):
    """One field a player; Enter goes to the next, and saves from the last one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "app.pop_screen", "Cancel"),
        Binding("down", "app.focus_next", "Next player", show=False),
        Binding("up", "app.focus_previous", "Previous player", show=False),
    ]

    def __init__(self, owner: SheetScreen, number: int | None) -> None:
        super().__init__()
        self.owner = owner
        self.number = number
        old = owner.sheet.rounds[number - 1] if number else None
        self.ender: str | None = old.ender if old else None
        self.values = {p: entry_text(old.entries[p]) if old else "" for p in owner.sheet.players}

    @property
    def sheet(self) -> Sheet:
        return self.owner.sheet

    @property
    def shown_number(self) -> int:
        return self.number or len(self.sheet.rounds) + 1

    def compose(self) -> ComposeResult:
        verb = "Edit" if self.number else "Enter"
        title = f"{verb} round {self.shown_number}: a total or 12 cards (row by row, x cleared)"
        yield Static(plain(title), classes="heading")
        with VerticalScroll():
            for n, player in enumerate(self.sheet.players):
                with Horizontal(classes="field"):
                    yield Label(plain(player), id=f"label{n}")
                    yield Static(id=f"mark{n}", classes="mark")
                    yield EntryInput(player, self.values[player])
                yield Static(classes="preview", id=f"preview{n}")
        yield Static(id="round", classes="message")
        yield Static(id="message", classes="message error")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_round()
        self.query(EntryInput).first().focus()

    def inputs(self) -> list[EntryInput]:
        return list(self.query(EntryInput))

    def mark_ender(self, player: str) -> None:
        self.ender = player
        self.query_one("#message", Static).update("")
        self.refresh_round()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#message", Static).update("")  # the refusal was of the old values
        self.refresh_round()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        fields = self.inputs()
        if event.input is fields[-1]:
            self.action_save()
        else:
            self.focus_next()

    def data(self) -> dict[str, Any]:
        entries = {field.player: field.value for field in self.inputs()}
        return {"ender": self.ender, "entries": entries}

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.refresh_marks()

    def refresh_marks(self) -> None:
        """The column beside the names: `* ender` on the ender's row, and on the
        row being typed in (when it is not the ender's) the key that marks it."""
        for n, field in enumerate(self.inputs()):
            mark = self.query_one(f"#mark{n}", Static)
            mark.update(ender_mark(field.player == self.ender, field.has_focus))

    def refresh_round(self) -> None:
        """Each field's score as typed, the ender marked, the round's penalty when complete."""
        for n, field in enumerate(self.inputs()):
            style = "bold" if field.player == self.ender else ""
            self.query_one(f"#label{n}", Label).update(plain(field.player, style))
            self.query_one(f"#preview{n}", Static).update(entry_preview(field.value, field.player))
        self.refresh_marks()
        self.query_one("#round", Static).update(self.round_line())

    def round_line(self) -> Text:
        if self.ender is None:
            return plain("Mark who ended the round: e in their field.", "bold")
        try:
            scored = self.sheet.preview(self.data(), self.shown_number)
        except SheetError:
            return plain(f"{self.ender} ended the round.")
        return plain(scored.score.reason)

    def action_save(self) -> None:
        pad, number = self.owner.pad, self.shown_number
        try:
            if self.number:
                pad.edit_round(self.number, self.data())
            else:
                pad.add_round(self.data())
        except (SheetError, StoreError) as error:
            self.refuse(error)
            return
        self.app.pop_screen()
        self.owner.show(plain(f"Round {number} saved."), select=number)

    def refuse(self, error: ValueError) -> None:
        """Say why the round is refused and put the cursor on the player concerned."""
        self.query_one("#message", Static).update(plain(str(error)))
        player = getattr(error, "player", None)
        for field in self.inputs():
            if field.player == player:
                field.focus()


def ender_mark(ender: bool, focused: bool) -> Text:
    """A round's marker column: `* ender` for the player who ended the round (the
    `*` of the sheet's rounds), else `e: ender` on the row being typed in, so the
    key is where the eye is; nothing on the other rows."""
    if ender:
        return plain("* ender", "bold red")
    return plain("e: ender", "dim") if focused else plain("")


def entry_preview(value: str, player: str) -> Text:
    """What a field holds so far: `14: three 7s, cleared, so 0; ...`, or how far along."""
    tokens = value.replace("/", " ").replace(",", " ").split()
    if 1 < len(tokens) < GRID_SIZE:
        return plain(f"{len(tokens)} of {GRID_SIZE} cards")
    try:
        entry = check_entry(parse_entry(value, player), player)
    except SheetError as error:
        return plain(str(error), "red")
    if entry is None:
        return plain("")
    if "total" in entry:
        return plain(f"total {entry['total']}")
    _, grid = entry_score(entry, player)
    return plain(grid_explanation(grid))  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# The app
# --------------------------------------------------------------------------


class ScorepadApp(App[None]):
    """The scorepad on a database: the list of sheets, or one sheet straight away."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    TITLE = "Skyjo scorepad"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", key_display="?"),
    ]

    def __init__(self, store: SheetStore, sheet_id: str | None = None) -> None:
        super().__init__()
        self.store = store
        self.first = sheet_id

    def on_mount(self) -> None:
        if self.first is None:
            self.push_screen(ListScreen())
        else:
            self.open_sheet(self.first)

    def action_help(self) -> None:
        """The keys of every screen; not over itself."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def open_sheet(self, sheet_id: str) -> None:
        self.push_screen(SheetScreen(OpenSheet(self.store, self.store.load(sheet_id))))
