"""What a person writes on a scoresheet: a round total or 12 cards, and the
sheet's refusals (`SheetError`).

An entry is either the player's round total (``{"total": 9}``) or their 12
cards (``{"cards": [[7, 5, 2, 4], [7, -1, 3, 1], [7, 0, -2, 2]]}``, rows top to
bottom, a column cleared during the round written ``"x"``). Entries may also be
given as a person types them (``"9"``, ``"7 5 2 4 / 7 -1 3 1 / 7 0 -2 2"``, see
`parse_entry`) and are kept in that canonical dict form. Cards are scored by
`skyjo.scoring.score_grid`, never a second time here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from skyjo.errors import SkyjoError
from skyjo.names import NameRefused
from skyjo.rules import CARD_COUNTS, COLS, GRID_SIZE, ROWS, RulesError
from skyjo.scoring import (
    CLEARED,
    GRID_KINDS,
    MAX_ROUND_SCORE,
    MIN_ROUND_SCORE,
    GridScore,
    ScoringError,
    score_grid,
)

#: How a cleared card is written in an entry's cards.
X = "x"

_NUMBER = re.compile("[-\u2212]?[0-9]{1,9}")
_MIN_CARD, _MAX_CARD = min(CARD_COUNTS), max(CARD_COUNTS)

#: The kinds of `skyjo.rules.RulesError` a sheet's rules carry on (`make_rules`).
RULES_KINDS = ("target_not_integer", "target_too_low", "target_too_high", "penalty_unknown")


class SheetError(SkyjoError):
    """A mistake in what was entered: nothing changed. `round` (1-based) and
    `player` say where, when the mistake is in one place, so a form can point
    at the field. `kind` names the mistake (one per sentence: docs/scorepad.md)
    and `params` holds the values its sentence names (`skyjo.errors`), so a
    page writes the sentence in its own language; the message stays the
    English sentence. A `round` in `params` (any kind may carry one) means the
    sentence starts with "round N: "."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        # an entry (this module)
        "card_count": ("player", "count", "size"),
        "not_a_total": ("player", "text"),
        "not_a_card": ("player", "text"),
        "entry_shape": ("player", "value"),
        "total_not_integer": ("player", "value"),
        "total_out_of_range": ("player", "total", "min", "max"),
        "cards_not_list": ("player", "value"),
        "row_not_list": ("player", "value"),
        # a player's cards refused by `score_grid`: its kinds, naming the player
        **{kind: ("player", *ScoringError.KINDS[kind]) for kind in GRID_KINDS},
        # a round (skyjo.scorepad.sheet)
        "round_shape": (),
        "entries_shape": (),
        "not_a_player": ("name",),
        "no_ender": (),
        "ender_not_player": ("name",),
        "ender_no_entry": ("player",),
        "no_entry": ("player",),
        "round_too_many": ("count", "value", "deck"),
        # the sheet's changes
        "change_shape": ("value",),
        "game_over": ("target",),
        "over_before_round": ("after", "next"),
        "change_ends_game": ("changed", "after", "next"),
        "no_such_round": ("number", "count"),
        "no_round_yet": ("number",),
        "nothing_to_undo": (),
        # players, title, rules: a name's kinds are `skyjo.names.check_name`'s, the
        # rules' those of `skyjo.rules.Rules`
        "players_not_list": ("value",),
        "players_missing": (),
        "player_count": ("min", "max", "count"),
        **NameRefused.KINDS,
        "title_not_text": ("value",),
        "title_too_long": ("max", "length"),
        "title_control": ("title",),
        "rules_type": ("value",),
        **{kind: RulesError.KINDS[kind] for kind in RULES_KINDS},
        # an imported sheet (skyjo.scorepad.exports)
        "not_an_object": ("type",),
        "not_a_scoresheet": ("format", "version"),
        "unknown_key": ("key",),
        "rules_not_object": (),
        "rounds_not_list": (),
        "too_deep": ("max",),
        "not_json": ("detail",),
    }
    EXTRA: ClassVar[frozenset[str]] = frozenset({"round"})

    def __init__(
        self,
        message: str,
        *,
        kind: str,
        params: Mapping[str, Any] | None = None,
        round: int | None = None,
        player: str | None = None,
    ):
        super().__init__(message, kind, params)
        self.round = round
        self.player = player


# --------------------------------------------------------------------------
# Entries: a round total or 12 cards
# --------------------------------------------------------------------------


def parse_entry(text: str, player: str = "this player") -> dict[str, Any] | None:
    """An entry as a person types it: one number is the round total, 12 cards
    (row by row, separated by spaces, `/` or commas; `x` for a cleared card)
    are the grid. Minus signs may be `-` or `\u2212`. Empty text is no entry."""
    tokens = text.replace("/", " ").replace(",", " ").split()
    if not tokens:
        return None
    if len(tokens) == 1:
        return {"total": _number(tokens[0], player, "a round total")}
    if len(tokens) != GRID_SIZE:
        raise SheetError(
            f"{player}: {len(tokens)} cards written, but a grid has {GRID_SIZE} "
            "(or write one number, the round total)",
            player=player,
            kind="card_count",
            params={"player": player, "count": len(tokens), "size": GRID_SIZE},
        )
    cards = [X if token in ("x", "X") else _number(token, player, "a card") for token in tokens]
    return {"cards": [cards[r * COLS : (r + 1) * COLS] for r in range(ROWS)]}


def entry_text(entry: Mapping[str, Any] | None) -> str:
    """A canonical entry written as `parse_entry` reads it: `9`, or the cards
    row by row, `7 5 2 4 / 7 -1 3 1 / 7 0 -2 2`."""
    if entry is None:
        return ""
    if "total" in entry:
        return str(entry["total"])
    return " / ".join(" ".join(str(card) for card in row) for row in entry["cards"])


def _number(token: str, player: str, what: str) -> int:
    """`token` as a whole number, or a `SheetError` naming `what` it should be."""
    if not _NUMBER.fullmatch(token):
        expected = "a whole number" if what == "a round total" else "a number from -2 to 12 or x"
        raise SheetError(
            f"{player}: {token!r} is not {what}: write {expected}",
            player=player,
            kind="not_a_total" if what == "a round total" else "not_a_card",
            params={"player": player, "text": repr(token)},
        )
    return int(token.replace("\u2212", "-"))


def check_entry(value: Any, player: str) -> dict[str, Any] | None:
    """The canonical entry (``{"total": n}`` or ``{"cards": rows}``) of `value`:
    an int, such a dict, a list of rows or of 12 cards, or typed text. None or
    empty text is no entry. Cards are checked by `score_grid` (values, cleared
    columns, no more of a value than the deck holds)."""
    if value is None:
        return None
    if isinstance(value, str):
        return check_entry(parse_entry(value, player), player)
    if isinstance(value, list | tuple):
        value = {"cards": value}
    if isinstance(value, int) and not isinstance(value, bool):
        value = {"total": value}
    if not isinstance(value, Mapping) or len(value) != 1 or not {"total", "cards"} & set(value):
        raise SheetError(
            f"{player}'s entry must be a total or 12 cards, not {value!r:.60}",
            player=player,
            kind="entry_shape",
            params={"player": player, "value": f"{value!r:.60}"},
        )
    if "total" in value:
        return {"total": _check_total(value["total"], player)}
    rows = _grid_rows(value["cards"], player)
    entry_grid(rows, player)
    return {"cards": [[X if card is CLEARED else card for card in row] for row in rows]}


def _check_total(total: Any, player: str) -> int:
    """A round total: a whole number some grid scores (RULES.md 2.9)."""
    if isinstance(total, bool) or not isinstance(total, int):
        raise SheetError(
            f"{player}'s total must be a whole number, not {total!r:.40}",
            player=player,
            kind="total_not_integer",
            params={"player": player, "value": f"{total!r:.40}"},
        )
    if not MIN_ROUND_SCORE <= total <= MAX_ROUND_SCORE:
        raise SheetError(
            f"{player}'s total is {total}, but no grid scores that: a round's score "
            f"goes from {MIN_ROUND_SCORE} to {MAX_ROUND_SCORE}",
            player=player,
            kind="total_out_of_range",
            params={
                "player": player,
                "total": total,
                "min": MIN_ROUND_SCORE,
                "max": MAX_ROUND_SCORE,
            },
        )
    return total


def _grid_rows(cards: Any, player: str) -> list[list[Any]]:
    """`cards` as 3 rows of 4 (a flat list of 12 is laid row by row), `x` as `CLEARED`."""
    if not isinstance(cards, list | tuple):
        raise SheetError(
            f"{player}'s cards must be a list, not {cards!r:.40}",
            player=player,
            kind="cards_not_list",
            params={"player": player, "value": f"{cards!r:.40}"},
        )
    if len(cards) == GRID_SIZE and not any(isinstance(c, list | tuple) for c in cards):
        cards = [cards[r * COLS : (r + 1) * COLS] for r in range(ROWS)]
    rows = []
    for row in cards:
        if not isinstance(row, list | tuple):
            raise SheetError(
                f"{player}'s cards: a row must be a list, not {row!r:.40}",
                player=player,
                kind="row_not_list",
                params={"player": player, "value": f"{row!r:.40}"},
            )
        rows.append([CLEARED if card in (X, "X", None) else card for card in row])
    return rows


def entry_grid(rows: Sequence[Sequence[Any]], player: str) -> GridScore:
    """`score_grid` of a player's cards, its mistakes named with the player."""
    try:
        return score_grid(rows)
    except ScoringError as error:  # one of GRID_KINDS
        raise SheetError(
            f"{player}'s cards: {error}",
            player=player,
            kind=error.kind,
            params={"player": player, **error.params},
        ) from error


def entry_score(
    entry: Mapping[str, Any], player: str = "this player"
) -> tuple[int, GridScore | None]:
    """The raw round score of a canonical entry, and its scored grid when cards were given."""
    if "total" in entry:
        return entry["total"], None
    grid = entry_grid(_grid_rows(entry["cards"], player), player)
    return grid.total, grid


def grid_explanation(grid: GridScore) -> str:
    """`three 7s, cleared, so 0; 5 + -1 + 0 = 4; ...: 14`, column by column."""
    return "; ".join(column.explanation for column in grid.columns) + f": {grid.total}"
