"""The board's widgets: every seat's grid, the piles, the prompt and the log.

Each widget draws from a `TableView` (see `skyjo.tui.view`) and builds only
`Text` objects, so a player's name is shown as written, whatever it holds.
Clicks are reported as messages (`CellClicked`, `PileClicked`): the app
decides what they mean.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text
from textual import events
from textual.containers import Grid
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import RichLog

from skyjo.engine import Phase
from skyjo.observation import CLEARED, FACE_DOWN
from skyjo.rules import COLS, GRID_SIZE, ROWS
from skyjo.tui import cards
from skyjo.tui.view import SeatView, TableView

#: A grid's width with the smallest cards: four cards and the gaps between them.
GRID_WIDTH = COLS * cards.CELL + COLS - 1
#: A grid's height with the smallest cards: its title, three rows, its score line.
GRID_HEIGHT = ROWS + 2
#: The lines the board needs besides the grids: the status line, the piles
#: and some log, the prompt and the footer.
BOARD_LINES = 1 + 6 + 2 + 1
#: The card sizes, the largest first: the board takes the largest that fits.
SIZES = (cards.BIG, cards.TALL, cards.COMPACT)


def grid_width(size: cards.CardSize) -> int:
    """A grid's width: four cards and the gaps between them."""
    return COLS * size.width + COLS - 1


def grid_height(size: cards.CardSize) -> int:
    """A grid's height: its title, three rows of cards and its score line."""
    return ROWS * size.lines + 2


def fit(text: str, width: int) -> str:
    """`text` cut to `width` characters, an ellipsis marking the cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def score_line(seat: SeatView, round_score: int | None, width: int = GRID_WIDTH) -> Text:
    """`shows 14   total 40` under a grid (`round 28` once a round is scored)."""
    left = f"shows {seat.shows}" if round_score is None else f"round {round_score}"
    right = f"total {seat.total}"
    return Text(left + right.rjust(width - len(left)), style="dim")


class SeatGrid(Widget):
    """One seat: its name, its 3 x 4 cards, its visible score and total."""

    DEFAULT_CSS = f"""
    SeatGrid {{ width: {GRID_WIDTH}; height: {GRID_HEIGHT}; }}
    """

    class CellClicked(Message):
        """A card of a grid was clicked."""

        def __init__(self, seat: int, position: int) -> None:
            super().__init__()
            self.seat = seat
            self.position = position

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"seat-{seat}")
        self.seat = seat
        self.view: SeatView | None = None
        self.marks = ""
        self.cursor: int | None = None
        self.choosable: Collection[int] | None = None
        self.round_score: int | None = None
        self.card_size = cards.COMPACT

    def show(
        self,
        view: SeatView,
        *,
        marks: str = "",
        cursor: int | None = None,
        choosable: Collection[int] | None = None,
        round_score: int | None = None,
    ) -> None:
        """Draw `view`; `marks` go before the name, `cursor` is a position in
        brackets, and positions not in `choosable` (when given) are dimmed."""
        self.view, self.marks, self.cursor = view, marks, cursor
        self.choosable, self.round_score = choosable, round_score
        self.refresh()

    def cell(self, k: int) -> Text:
        """The card at position k, as drawn."""
        assert self.view is not None
        status, value = self.view.cell(k)
        cursor, width = k == self.cursor, self.card_size.width
        if status == CLEARED:
            return cards.gone(cursor=cursor, width=width)
        if status == FACE_DOWN:
            return cards.face_down(cursor=cursor, peek=value, width=width)
        assert value is not None
        idle = self.choosable is not None and k not in self.choosable
        return cards.face_up(value, cursor=cursor, idle=idle, width=width)

    def edge(self, k: int, *, top: bool) -> Text:
        """The half line above (`top`) or below the card at k (tall cards)."""
        assert self.view is not None
        status, value = self.view.cell(k)
        kind = {CLEARED: "gone", FACE_DOWN: "down"}.get(status, "up")
        shown = value if kind == "up" else None
        return cards.edge(kind, shown, cursor=k == self.cursor, width=self.card_size.width, top=top)

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        width = grid_width(self.card_size)
        title = Text(fit(self.marks + self.view.name, width), style="bold")
        lines = [title]
        for row in range(ROWS):
            positions = range(row * COLS, (row + 1) * COLS)
            if self.card_size.lines > 1:
                lines.append(Text(" ").join([self.edge(k, top=True) for k in positions]))
            lines.append(Text(" ").join([self.cell(k) for k in positions]))
            if self.card_size.lines > 2:
                lines.append(Text(" ").join([self.edge(k, top=False) for k in positions]))
        lines.append(score_line(self.view, self.round_score, width))
        return Text("\n").join(lines)

    def value_line(self, row: int) -> int:
        """The line of the widget that shows the values of `row`."""
        return 1 + row * self.card_size.lines + self.card_size.value_line

    def position_at(self, x: int, y: int) -> int | None:
        """The grid position under the point (x, y) of the widget, if a card is there."""
        row = (y - 1) // self.card_size.lines
        col, gap = divmod(x, self.card_size.width + 1)
        if y >= 1 and 0 <= row < ROWS and 0 <= col < COLS and gap < self.card_size.width:
            return row * COLS + col
        return None

    def on_click(self, event: events.Click) -> None:
        k = self.position_at(event.x, event.y)
        if k is not None:
            self.post_message(self.CellClicked(self.seat, k))


class Table(Grid):
    """The seats' grids, in bands of as many as the width holds, balanced."""

    DEFAULT_CSS = """
    Table { height: auto; grid-gutter: 0 1; padding: 0 0 0 1; }
    """

    def __init__(self, seats: int) -> None:
        super().__init__(id="table")
        self.count = seats

    def compose(self):  # type: ignore[no-untyped-def]
        for seat in range(self.count):
            yield SeatGrid(seat)

    def on_mount(self) -> None:
        self.lay_out(self.app.size)

    def lay_out(self, size: Size) -> None:
        """The largest cards that fit, and as many grids a band as fit in the
        width, the bands balanced (8 at 80 columns: two bands of 4; 5: a band
        of 3 and one of 2)."""
        for cards_size in SIZES:
            width, height = grid_width(cards_size), grid_height(cards_size)
            fits = max(1, size.width // (width + 1))  # a gap of 1, and 1 of padding
            bands = -(-self.count // fits)
            if bands * height + BOARD_LINES <= size.height:
                break
        per_band = -(-self.count // bands)
        spare = size.width - 1 - per_band * width
        self.styles.grid_gutter_vertical = max(1, min(4, spare // max(1, per_band - 1)))
        self.styles.grid_size_columns = per_band
        self.styles.grid_columns = str(width)
        self.styles.grid_rows = str(height)
        for grid in self.query(SeatGrid):
            grid.card_size = cards_size
            grid.styles.width = width
            grid.styles.height = height
            grid.refresh()

    def grid(self, seat: int) -> SeatGrid:
        return self.query_one(f"#seat-{seat}", SeatGrid)


class Piles(Widget):
    """The draw pile's size, the discard pile's top card and the held card."""

    DEFAULT_CSS = """
    Piles { width: 30; height: 4; padding: 0 1; }
    """

    class PileClicked(Message):
        """The draw pile ("deck") or the discard pile ("discard") was clicked."""

        def __init__(self, pile: str) -> None:
            super().__init__()
            self.pile = pile

    def __init__(self) -> None:
        super().__init__(id="piles")
        self.view: TableView | None = None
        self.flip_mode = False

    def show(self, view: TableView, *, flip_mode: bool = False) -> None:
        self.view, self.flip_mode = view, flip_mode
        self.refresh()

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        size = view.draw_size
        lines = [self.row("Draw pile", cards.card(None), f"{size} card{'s' if size != 1 else ''}")]
        if view.discard:
            lines.append(self.row("Discard", cards.card(view.discard[-1]), "its top card"))
        else:
            lines.append(Text("Discard    (empty)"))
        return Text("\n").join(lines + self.hand_lines(view))

    @staticmethod
    def row(label: str, card: Text, note: str) -> Text:
        """`Draw pile   ▒▒   98 cards`: a label, a card and a note."""
        return Text(f"{fit(label, 11):<11}").append_text(card).append(f" {note}")

    def hand_lines(self, view: TableView) -> list[Text]:
        """Who holds which card, from where (a card back for another's drawn card)."""
        if not view.holding or not view.playing:
            return []
        who = view.seats[view.current].name
        verb = "drew" if view.source == "deck" else "took"
        lines = [self.row(f"{fit(who, 11 - len(verb) - 1)} {verb}", cards.card(view.held), "")]
        if self.flip_mode and view.held is not None:
            # At most 28 characters, the widget's width: "the 12 goes on the discard
            # pile" was cut at 80 columns.
            lines.append(Text(f"the {view.held} will be discarded", style="bold"))
        elif view.source == "discard":
            lines.append(Text("from the discard pile", style="dim"))
        return lines

    def on_click(self, event: events.Click) -> None:
        if event.y == 0:
            self.post_message(self.PileClicked("deck"))
        elif event.y == 1:
            self.post_message(self.PileClicked("discard"))


class GameLog(RichLog):
    """What happened, a line a step (the newest at the bottom)."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; border-left: vkey $primary-darken-2; padding: 0 0 0 1;
              scrollbar-size-vertical: 1; background: $surface; }
    """

    def __init__(self) -> None:
        super().__init__(
            id="log", wrap=True, markup=False, highlight=False, max_lines=1000, min_width=20
        )
        self.can_focus = False

    def say(self, lines: list[Text]) -> None:
        for line in lines:
            self.write(line)


def choosable(view: TableView, flip_mode: bool) -> set[int] | None:
    """The positions the current human may pick now (None when not picking)."""
    seat = view.seats[view.current]
    if view.phase == Phase.REVEAL or (view.holding and flip_mode):
        return {k for k in range(GRID_SIZE) if seat.status[k] == FACE_DOWN}
    if view.holding:
        return {k for k in range(GRID_SIZE) if seat.status[k] != CLEARED}
    return None
