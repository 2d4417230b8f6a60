"""The screens over the board: help, hot-seat hand-over, round end, quit.

Every text is a `Text` (names shown as written). The round-end screen sits at
the bottom of the terminal so the revealed grids stay in sight above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from skyjo.scoring import winners
from skyjo.tui import cards
from skyjo.tui.narrate import after_colon, penalty_reason
from skyjo.tui.view import TableView
from skyjo.wording import agree

RULES_SUMMARY = """\
Skyjo: have the lowest total when someone reaches the target (100 by
default). Each player has 12 cards face down, 3 rows of 4. At the start
of a round everyone turns up two of them. On your turn, either:

  - take the discard pile's top card and exchange it with one of your
    cards (face up or face down); it may not be put back;
  - or draw the draw pile's top card, look at it, and either exchange
    it with one of your cards, or discard it and turn up one of your
    face-down cards.

The card you give away goes face up on the discard pile.

A column of three equal face-up cards is cleared: its cards go on the
discard pile and it scores nothing for the rest of the round. When the
draw pile is empty, the discard pile but its top card is shuffled into
a new draw pile.

A player with no face-down card left ends the round: everyone else plays
one more turn. Then every card is turned up (columns of three equal
cards still clear) and each player scores the sum of their cards. The
ender's score is doubled when it is above 0 and someone else scored as
low or lower (unless the --ender-penalty variant says otherwise).

The lowest total wins; equal lowest totals share the win."""

KEYS_SUMMARY = """\
Keys: the arrows move on your grid, Enter chooses (or click a card).
  d  draw a card            t  take the discard pile's top card
  f  after drawing: discard the drawn card and turn up one of yours
     (f again: exchange it after all); or click the discard pile
  s  the scoresheet         ?  this help (arrows scroll it)
  q  quit
In a replay: right and left a step, ] and [ a round, 1-9 a round's
start, Home and End the first and last step, space plays on."""


def colours_legend() -> Text:
    """The five card colours, each shown on a card, plus a card back."""
    legend = Text("Cards: ")
    for value in (-2, 0, 3, 7, 11):
        legend.append_text(cards.face_up(value))
        legend.append(f" {cards.band_name(value)}" + ("\n       " if value == 3 else "  "))
    legend.append_text(cards.face_down())
    legend.append(" face down  ")
    legend.append_text(cards.gone())
    legend.append(" cleared")
    return legend


class HelpScreen(ModalScreen[None]):
    """The rules in short and the keys (`?`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,enter", "dismiss", "Close")
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 78; max-width: 100%; height: 90%;
        border: round $primary; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("How to play Skyjo (Escape to go back)", style="bold underline"))
            yield Static(colours_legend())
            yield Static(Text(KEYS_SUMMARY))
            yield Static(Text(""))
            yield Static(Text(RULES_SUMMARY))


class PassScreen(Screen[None]):
    """Hot-seat: the board is hidden until the next human presses Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "dismiss", "Ready", show=False)]
    DEFAULT_CSS = """
    PassScreen { align: center middle; background: $background; }
    PassScreen > Static { width: auto; border: heavy $accent; padding: 1 4; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        text = Text("Pass to ")
        text.append(self.player, style="bold")
        text.append(" — press Enter")
        yield Static(text, id="pass")

    def on_click(self) -> None:
        self.dismiss()


def scores_table(view: TableView, *, title: str = "") -> Table:
    """The last round's raw and final scores and the totals, a row a seat."""
    table = Table(title=title or None, box=None, padding=(0, 1), title_style="bold")
    table.add_column("Player")
    table.add_column("Raw", justify="right")
    table.add_column("Round", justify="right")
    table.add_column("Total", justify="right")
    table.add_column("")
    result = view.results[-1]
    best = set(winners(dict(enumerate(view.seats[s].total for s in range(len(view.seats))))))
    for seat, shown in enumerate(view.seats):
        note = "ended, doubled" if result.doubled and seat == result.ender else ""
        note = note or ("ended" if seat == result.ender else "")
        row_style = "bold" if seat in best else ""
        table.add_row(
            Text(shown.name),
            str(result.raw[seat]),
            str(result.scores[seat]),
            str(shown.total),
            note,
            style=row_style,
        )
    return table


def scoresheet(view: TableView) -> Table:
    """Every round's score and the running totals (RULES.md 3)."""
    table = Table(title="Scoresheet", box=None, padding=(0, 1), title_style="bold")
    table.add_column("Round")
    for seat in view.seats:
        table.add_column(Text(seat.name), justify="right")
    running = [0] * len(view.seats)
    for number, result in enumerate(view.results, start=1):
        cells = []
        for seat, score in enumerate(result.scores):
            running[seat] += score
            doubled = " x2" if result.doubled and seat == result.ender else ""
            cells.append(f"{score}{doubled} ({running[seat]})")
        table.add_row(str(number), *cells)
    table.add_row("total", *(str(s.total) for s in view.seats), style="bold")
    return table


def winners_line(view: TableView) -> Text:
    """`Ana wins with 45` or `Ana and Ben share the win with 60`, to follow
    "Game over: " (so `you win with 45` for the default human, "You")."""
    totals = {seat: s.total for seat, s in enumerate(view.seats)}
    best = winners(totals)
    names = [view.seats[s].name for s in best]
    text = Text("")
    for i, name in enumerate(names):
        if i:
            text.append(" and " if i == len(names) - 1 else ", ")
        text.append(after_colon(name, name) if i == 0 else name, style="bold")
    verb = f" {agree(names[0], 'wins', 'win')}" if len(best) == 1 else " share the win"
    text.append(f"{verb} with {totals[best[0]]}")
    return text


class RoundOverScreen(ModalScreen[None]):
    """A round's end: its scores, why the ender was or was not doubled, the
    totals; at the game's end, the winners."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "dismiss", "Continue"),
        Binding("s", "app.scores", "Scores"),
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit_game", "Quit"),
    ]
    DEFAULT_CSS = """
    RoundOverScreen { align: center bottom; background: transparent; }
    RoundOverScreen > Vertical { width: 100%; height: auto; max-height: 60%;
        border-top: heavy $accent; background: $panel; padding: 0 1; }
    """

    def __init__(self, view: TableView, game_over: bool, prompt: str, stalled: str | None = None):
        super().__init__()
        self.view = view
        self.game_over = game_over
        self.prompt = prompt
        self.stalled = stalled

    def compose(self) -> ComposeResult:
        view = self.view
        with Vertical():
            if self.stalled:
                yield Static(Text(f"The game stopped: {self.stalled}.", style="bold"))
            elif view.results:
                title = f"Round {len(view.results)} over"
                yield Static(scores_table(view, title=title))
                reason = penalty_reason(view.results[-1], view.names, view.penalty)
                yield Static(Text(reason))
            if self.game_over:
                head = Text("Game over: ", style="bold")
                yield Static(head.append_text(winners_line(view)))
            yield Static(Text(self.prompt, style="dim"))


class QuitScreen(ModalScreen[bool]):
    """Asks before quitting a game that is not saved."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Quit"),
        Binding("n,escape", "answer(False)", "Go on playing"),
    ]
    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static { width: auto; border: round $error; padding: 1 2; background: $surface; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(Text(self.question + " (y / n)"))

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class TextScreen(ModalScreen[None]):
    """A Rich renderable (the scoresheet) over the board."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q,s", "dismiss", "Close")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 90%; height: auto; max-height: 90%;
        border: round $primary; background: $surface; padding: 0 1; }
    """

    def __init__(self, renderables: Sequence[object]) -> None:
        super().__init__()
        self.renderables = renderables

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            for item in self.renderables:
                yield Static(item)  # type: ignore[arg-type]
