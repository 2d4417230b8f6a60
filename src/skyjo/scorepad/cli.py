"""The scorepad's commands: `skyjo score grid`, `skyjo score round` (a round of
a game played with real cards, scored) and `skyjo scorepad` (its scoresheet
kept round by round; the work is in `skyjo.scorepad.command`). RULES.md 6."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from skyjo.commandline import (
    PROG,
    JsonFlag,
    console,
    fail,
    make_app,
    parse_whole_number,
    print_json,
    user_input,
)
from skyjo.rules import ENDER_PENALTIES
from skyjo.scoring import CLEARED, GridScore, RoundScore, score_grid, score_round

if TYPE_CHECKING:  # Rich is imported when a command prints a table
    from rich.table import Table

#: The scorepad's commands, `skyjo score` (a group) and `skyjo scorepad`.
commands = make_app()
score_app = make_app("score", "Score a round of a physical game: one grid, or the round's scores.")
commands.add_typer(score_app)


def parse_card(text: str, row: int, col: int) -> int | None:
    """One card of a `score grid` row: a whole number, or `x` for a cleared card (RULES.md 6).

    `row` and `col` are the card's position from 0; a message names them from 1,
    as people count ("row 1, column 1" is the top left card).
    """
    if text in ("x", "X"):
        return CLEARED
    where = f"the card at row {row + 1}, column {col + 1}"
    return parse_whole_number(text, where, "a number or x")


def parse_rows(texts: Sequence[str]) -> list[list[int | None]]:
    """The rows of `score grid`, each a string of 4 space-separated cards (RULES.md 6).

    The command lets unknown options through so that a row may start with a
    negative card; a lone `--word` is reported here as the unknown option it is.
    """
    for text in texts:
        if text.startswith("--"):
            fail(f"No such option: {text.partition('=')[0]} (see '{PROG} score grid --help')")
    return [
        [parse_card(card, r, c) for c, card in enumerate(text.split())]
        for r, text in enumerate(texts)
    ]


def grid_table(grid: GridScore) -> Table:
    """A Rich table of a scored grid: one line per column (numbered from 1, as
    people count them), with its explanation."""
    from rich.table import Table

    table = Table(title="Grid score", show_footer=True)
    table.add_column("Column", footer="Total")
    table.add_column("Cards (top to bottom)")
    table.add_column("Cleared")
    table.add_column("Score", justify="right", footer=str(grid.total))
    table.add_column("Why")
    for column in grid.columns:
        cards = " / ".join("x" if card is CLEARED else str(card) for card in column.cards)
        cleared = "yes" if column.cleared else "no"
        table.add_row(str(column.index + 1), cards, cleared, str(column.score), column.explanation)
    return table


@score_app.command(
    "grid",
    context_settings={"ignore_unknown_options": True},  # so a row may start with "-2"
)
def score_grid_command(
    rows: Annotated[
        list[str],
        typer.Argument(
            metavar="ROW",
            help='The 3 rows, top to bottom, each 4 cards in quotes, e.g. "7 5 2 4"; '
            "write a cleared card as x.",
            show_default=False,
        ),
    ],
    as_json: JsonFlag = False,
) -> None:
    """Score one grid at the end of a round: columns of three equal cards clear (RULES.md 2.9)."""
    with user_input():
        grid = score_grid(parse_rows(rows))
    if as_json:
        print_json(grid.to_dict())
    else:
        console().print(grid_table(grid))


def parse_scores(pairs: Sequence[str]) -> dict[str, int]:
    """The `NAME=SCORE` arguments of `score round`, in the order given (seat order).

    A score holds no `=`, so a name may (`[link=https://x]y=3`).
    """
    raw: dict[str, int] = {}
    for pair in pairs:
        name, equals, value = pair.rpartition("=")
        name = name.strip()
        if not equals or not name:
            fail(f"{pair!r} is not NAME=SCORE (for example Ana=9)")
        if name in raw:
            fail(f"{name} is given twice")
        raw[name] = parse_whole_number(value.strip(), f"{name}'s score", "a whole number")
    return raw


def the_ender(enders: Sequence[str]) -> str:
    """The one `--ender` of `score round`: a round has one ender, so a second is refused
    rather than silently taking the last."""
    if len(enders) != 1:
        fail(f"--ender is given {len(enders)} times ({', '.join(enders)}): a round has one ender")
    return enders[0]


def round_table(result: RoundScore) -> Table:
    """A Rich table of a round: raw and final score of each player."""
    from rich.table import Table

    table = Table(title="Round score")
    table.add_column("Player")
    table.add_column("Raw", justify="right")
    table.add_column("Score", justify="right")
    table.add_column("")
    for player, raw in result.raw.items():
        note = ""
        if player == result.ender:
            note = "ender, doubled" if result.doubled else "ender"
        table.add_row(player, str(raw), str(result.scores[player]), note)
    return table


@score_app.command("round")
def score_round_command(
    pairs: Annotated[
        list[str],
        typer.Argument(
            metavar="NAME=SCORE",
            help="Each player's raw round score, in seat order, e.g. Ana=9 Ben=20 Cleo=14.",
            show_default=False,
        ),
    ],
    ender: Annotated[
        list[str],
        typer.Option(
            "--ender",
            metavar="NAME",
            help="The player who ended the round (once).",
            show_default=False,
        ),
    ],
    ender_penalty: Annotated[
        str,
        typer.Option(
            "--ender-penalty",
            metavar="|".join(ENDER_PENALTIES),
            help="The ender_penalty variant (RULES.md 2.10).",
        ),
    ] = "positive",
    as_json: JsonFlag = False,
) -> None:
    """Apply the ender's penalty to a round's raw scores (RULES.md 2.10)."""
    with user_input():
        result = score_round(parse_scores(pairs), the_ender(ender), ender_penalty)
    if as_json:
        print_json(result.to_dict())
    else:
        out = console()
        out.print(round_table(result))
        out.print(result.reason, soft_wrap=True)


@commands.command("scorepad")
def scorepad_command(
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy database URL (default: $SKYJO_DB, else the games' SQLite "
            "file in the user's data folder)."
        ),
    ] = None,
    sheet: Annotated[str | None, typer.Option(help="Open this scoresheet (its id).")] = None,
    listing: Annotated[bool, typer.Option("--list", help="List the scoresheets and exit.")] = False,
    export: Annotated[
        str | None, typer.Option(metavar="ID", help="Print this scoresheet and exit.")
    ] = None,
    fmt: Annotated[
        str | None, typer.Option("--format", help="With --export: json (default) or csv.")
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option("--import", help="Store a scoresheet exported as JSON; print its id."),
    ] = None,
    share: Annotated[
        str | None,
        typer.Option(
            metavar="ID", help="Print a read-only and an edit link to this scoresheet and exit."
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Keep the score of a game played with real cards: totals or 12 cards a player a round."""
    from skyjo.scorepad.command import open_app, scripted

    with user_input():
        output = scripted(db, listing, export, fmt, source, as_json, share)
        pad = open_app(db, sheet) if output is None else None
    if output is not None:
        sys.stdout.write(output)
    elif pad is not None:
        pad.run()  # type: ignore[attr-defined]
