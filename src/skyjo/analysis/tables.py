"""`skyjo review`'s text: the players' summary and the costliest decisions, as
Rich tables (the command line prints them; RULES.md 6)."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from skyjo.analysis.rating import LABEL_NAMES, move_of
from skyjo.analysis.review import Review

#: How many of the costliest decisions the text lists.
SHOWN = 10


def move_text(action: int) -> str:
    """A move as the record writes it, in words: "deck", "swap 2,3" (row, column from 1)."""
    move = move_of(action)
    kind, where = next(iter(move.items()))
    if kind == "take":
        return str(where)
    return f"{kind} {where[0] + 1},{where[1] + 1}"


def review_tables(review: Review, shown: int = SHOWN) -> list[Any]:
    """The players' table, then the `shown` decisions that lost most."""
    players = Table(title="Players")
    headers = ("Player", "Accuracy", "Lost", "Best", "Good", "Inacc.", "Mist.", "Blund.", "Luck")
    for header in headers:
        players.add_column(header, justify="left" if header == "Player" else "right")
    for p in review.players:
        players.add_row(
            p.name,
            f"{p.accuracy:.1f}",
            f"{p.points_lost:.2f}",
            *(str(p.labels[name]) for name in LABEL_NAMES),
            f"{p.luck:+.1f}",
        )
    costly = sorted(
        (d for d in review.decisions if d.label in ("inaccuracy", "mistake", "blunder")),
        key=lambda d: -d.loss,
    )[:shown]
    lines = [Text("Costliest decisions", style="bold")]
    for d in costly:
        turn = "reveals" if d.turn is None else f"turn {d.turn + 1}"
        lines.append(
            Text(
                f"Round {d.round + 1}, {turn} · {review.names[d.seat]} · {d.label}, "
                f"{d.loss:.1f} points: {move_text(d.action)} (better: {move_text(d.best)})\n"
                f"    {d.reason}"
            )
        )
    worst = Group(*lines)
    shown_tables: list[Any] = [players]
    shown_tables.append(worst if costly else "No inaccuracy, mistake or blunder.")
    shown_tables.append(
        "Accuracy: 0 to 100 from the round points lost (lichess's curve); lost: expected round "
        "points lost per decision against the best option (the learned value); luck: round points "
        "the cards gave (+) or took (-). Rounds and turns count from 1 (docs/review.md)."
    )
    return shown_tables
