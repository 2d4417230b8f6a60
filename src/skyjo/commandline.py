"""What every command of `skyjo` shares (RULES.md 6: the command-line contract).

Each package owns its commands (`skyjo.scorepad.cli`, `skyjo.tui.cli`,
`skyjo.sim.cli`, `skyjo.train.cli`, `skyjo.web.cli`) as a Typer app made by
`make_app`; `skyjo.cli` only assembles them. A command's body is short: it does
the work in library code inside `user_input()`, which turns a `ValueError` into
the bad-input exit (one line on standard error, exit status 2), and prints with
`print_json` (`--json`: one JSON document) or on `console()` (a Rich table).
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from skyjo.render import visible

if TYPE_CHECKING:  # Rich is imported when a command prints (`skyjo serve` never does)
    from rich.console import Console
    from rich.text import Text

PROG = "skyjo"
#: Exit status for bad input (RULES.md 6).
BAD_INPUT = 2


class BadInput(typer.TyperException):
    """Bad input found by a command: reported as one line, exit status 2 (RULES.md 6)."""

    exit_code = BAD_INPUT


def fail(reason: str) -> NoReturn:
    """Stop the command: bad input, reported as `skyjo: error: <reason>` (RULES.md 6)."""
    raise BadInput(reason)


@contextmanager
def user_input() -> Iterator[None]:
    """Turn any `ValueError` raised inside the block into the bad-input exit (RULES.md 6).

    Library code (scoring, rules, engine, records) reports bad input with
    `ValueError` subclasses whose message names what is wrong; this is the one
    place that turns them into the command-line contract.
    """
    try:
        yield
    except ValueError as error:
        raise BadInput(str(error) or type(error).__name__) from error


#: The settings every Typer app of the command line has: no shell completion,
#: no pretty tracebacks, `-h` as well as `--help`.
APP_SETTINGS: dict[str, Any] = {
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}


def make_app(name: str | None = None, help: str | None = None) -> typer.Typer:
    """A package's Typer app of commands (or a group of them, given `name`)."""
    return typer.Typer(name=name, help=help, **APP_SETTINGS)


def print_json(document: Any) -> None:
    """Print exactly one JSON document on stdout (RULES.md 6, `--json`)."""
    sys.stdout.write(json.dumps(document) + "\n")


@functools.cache
def plain_console() -> type[Console]:
    """`PlainConsole`, a Rich console that shows control characters of the strings
    it prints escaped (`render.visible`: ESC as `\\x1b`), newlines and tabs
    excepted. (A class made on first use: Rich is imported then.)"""
    from rich.console import Console

    class PlainConsole(Console):
        def render_str(self, text: str, **options: Any) -> Text:
            """Rich's `render_str` (every string printed, table cells and titles
            included, passes here) of `text` with its control characters made visible."""
            return super().render_str(visible(text, keep="\n\t"), **options)

    return PlainConsole


def console() -> Console:
    """The Rich console every command prints on: the current stdout (tests swap
    it), no highlighting, no markup, no emoji codes and control characters
    escaped (`plain_console`), because names and labels come from the user and
    must show as written (`[/]`, `:smile:`). Style with `rich.text.Text`."""
    return plain_console()(file=sys.stdout, highlight=False, markup=False, emoji=False)


@contextmanager
def progress_bar(
    description: str, show: bool | None = None, unit: str = "games"
) -> Iterator[Callable[[int, int], None]]:
    """A Rich progress bar with ETA on standard error; yields the callback
    (done, in all: games, or another `unit`) that moves it. Shown only on a
    terminal unless `show` says otherwise."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    shown_on = Console(stderr=True)
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=shown_on,
        disable=not (shown_on.is_terminal if show is None else show),
        transient=False,
    )
    task = bar.add_task(description, total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield advance


JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON document instead.")]


#: A whole number as a person types it: an optional minus sign, ASCII `-` or the
#: typographic `\u2212` of RULES.md, then ASCII digits.
WHOLE_NUMBER = re.compile("[-\u2212]?[0-9]+")


#: The most digits (leading zeros aside) of a number read by `parse_whole_number`:
#: no card or score comes near, and Python's `int` refuses beyond 4,300.
MAX_DIGITS = 9


def parse_whole_number(text: str, what: str, expected: str) -> int:
    """`text` read as a whole number typed by a person (`WHOLE_NUMBER`), for the
    cards of `score grid`, the scores of `score round` and the counts of
    `train` alike.

    Nothing else is taken, though `int` would: no `+`, no `_` between digits, no
    digits of other scripts. Otherwise fail with `<what> is <text>: write
    <expected>`, or `<what> is too long a number` beyond `MAX_DIGITS` digits.
    """
    if not WHOLE_NUMBER.fullmatch(text):
        fail(f"{what} is {text!r}: write {expected}")
    digits = len(text.lstrip("-\u2212").lstrip("0"))
    if digits > MAX_DIGITS:
        fail(f"{what} is too long a number ({digits} digits)")
    return int(text.replace("\u2212", "-"))
