"""Cards drawn as terminal cells: colours by value as on the real cards.

Every card is a cell of `CELL` characters. A face-up card shows its value
(always as a number, so a monochrome terminal reads it too) on the colour of
its value band: negative dark blue, 0 light blue, 1 to 4 green, 5 to 8
yellow, 9 to 12 red. A face-down card is a card back (`▒▒`), a card of a
cleared column a dim `··`. The cursor puts the cell in brackets (`[ 7]`), in
reverse video: visible without colours as well. When the terminal has room,
cards are drawn taller and wider (`CardSize`: `COMPACT`, `TALL`, `BIG`),
with half lines of their colour above and below their value (`edge`).

Only `Text` objects are built here: nothing is read as markup.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

#: Characters a card takes, padding included.
CELL = 4
#: What a card back shows.
BACK = "▒▒"
#: What a card of a cleared column shows.
GONE = "··"

_DARK_BLUE = Style(color="#ffffff", bgcolor="#1f3f99", bold=True)
_LIGHT_BLUE = Style(color="#000000", bgcolor="#8fd3f4", bold=True)
_GREEN = Style(color="#000000", bgcolor="#5dbb63", bold=True)
_YELLOW = Style(color="#000000", bgcolor="#f3d34a", bold=True)
_RED = Style(color="#ffffff", bgcolor="#d2413a", bold=True)
#: The back of a card (the real ones are a deep violet blue).
BACK_STYLE = Style(color="#a9a3e0", bgcolor="#3b3470")
#: A face-down card whose value a replay shows anyway.
PEEK_STYLE = Style(color="#e8e4ff", bgcolor="#3b3470", italic=True)
GONE_STYLE = Style(color="#6c6c6c", dim=True)
CURSOR_STYLE = Style(reverse=True, bold=True, underline=True)
#: A card that may not be chosen now (a face-up card in flip mode).
IDLE_STYLE = Style(dim=True)


def card_style(value: int) -> Style:
    """The colours of a face-up card of `value` (the real cards' five bands)."""
    if value < 0:
        return _DARK_BLUE
    if value == 0:
        return _LIGHT_BLUE
    if value <= 4:
        return _GREEN
    if value <= 8:
        return _YELLOW
    return _RED


def band_name(value: int) -> str:
    """The colour of `value` in words, for the help screen and tests."""
    if value < 0:
        return "dark blue"
    if value == 0:
        return "light blue"
    if value <= 4:
        return "green"
    if value <= 8:
        return "yellow"
    return "red"


@dataclass(frozen=True, slots=True)
class CardSize:
    """How big cards are drawn: `width` characters, `lines` lines a row of the
    grid (1: the value only; 2: a half line of colour above it; 3: and one
    below, so a card stands two lines tall with half a line around it)."""

    width: int
    lines: int

    @property
    def value_line(self) -> int:
        """Which line of a row holds the values."""
        return 0 if self.lines == 1 else 1


COMPACT = CardSize(CELL, 1)
TALL = CardSize(CELL, 2)
BIG = CardSize(6, 3)


def framed(inner: str, width: int = CELL, *, cursor: bool = False, marks: str = "  ") -> str:
    """`inner` centred on `width` characters; under the cursor in brackets
    (`[ 7]`, `[ 12 ]`), else between `marks` (spaces, or parentheses)."""
    inner = inner.center(width - 2)
    left, right = ("[", "]") if cursor else (marks[0], marks[1])
    return f"{left}{inner}{right}"


def face_up(value: int, *, cursor: bool = False, idle: bool = False, width: int = CELL) -> Text:
    """A face-up card: its value, right-aligned on two characters, on its colours."""
    style = card_style(value)
    if idle:
        style += IDLE_STYLE
    if cursor:
        style += CURSOR_STYLE
    return Text(framed(f"{value:>2}", width, cursor=cursor), style=style)


def back(width: int = CELL) -> str:
    """The pattern of a card back, `▒▒` on a small card."""
    return BACK[0] * (width - 2)


def face_down(*, cursor: bool = False, peek: int | None = None, width: int = CELL) -> Text:
    """A card back; `peek` (a replay only) shows the value it hides, in parentheses."""
    if peek is not None:
        text = framed(f"{peek:>2}", width, cursor=cursor, marks="()")
        style = PEEK_STYLE
    else:
        text, style = framed(back(width), width, cursor=cursor), BACK_STYLE
    return Text(text, style=style + CURSOR_STYLE if cursor else style)


def gone(*, cursor: bool = False, width: int = CELL) -> Text:
    """A card of a cleared column: nothing left to play there."""
    style = GONE_STYLE + CURSOR_STYLE if cursor else GONE_STYLE
    return Text(framed(GONE, width, cursor=cursor), style=style)


def edge(
    status: str, value: int | None = None, *, cursor: bool = False, width: int = CELL, top: bool
) -> Text:
    """The half line above (`top`) or below a tall card: the card's colour in
    half blocks (`▄▄▄▄`, `▀▀▀▀`), so that the cards of a column stand apart.
    `status` is "up", "down" or "gone" (nothing drawn)."""
    if status == "gone":
        return Text(" " * width)
    colour = BACK_STYLE.bgcolor if status == "down" or value is None else card_style(value).bgcolor
    style = Style(color="#ffffff" if cursor else colour, bold=cursor)
    return Text(("▄" if top else "▀") * width, style=style)


def card(value: int | None) -> Text:
    """A pile's card: `value` face up, or a card back when None."""
    if value is None:
        return face_down()
    return face_up(value)
