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
from typing import Any, ClassVar, Self

from skyjo.errors import SkyjoError, params_of
from skyjo.names import NameRefused
from skyjo.rules import CARD_COUNTS, COLS, GRID_SIZE, ROWS, VARIANTS, RulesError
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
RULES_KINDS = tuple(kind for variant in VARIANTS for kind in variant.kinds)


class SheetError(SkyjoError):
    """A mistake in what was entered: nothing changed. `round` (1-based) and
    `player` say where, when the mistake is in one place, so a form can point
    at the field. `kind` names the mistake (one per sentence: docs/scorepad.md)
    and `params` holds the values its sentence names (`skyjo.errors`), so a
    page writes the sentence in its own language; the message stays the
    English sentence. A `round` in `params` (any kind may carry one) means the
    sentence starts with "round N: "."""

    #: The English sentence of each mistake the scorepad finds itself.
    MESSAGES: ClassVar[dict[str, str]] = {
        # an entry (this module)
        "card_count": (
            "{player}: {count} cards written, but a grid has {size} "
            "(or write one number, the round total)"
        ),
        "not_a_total": "{player}: {text} is not a round total: write a whole number",
        "not_a_card": "{player}: {text} is not a card: write a number from -2 to 12 or x",
        "entry_shape": "{player}'s entry must be a total or 12 cards, not {value}",
        "total_not_integer": "{player}'s total must be a whole number, not {value}",
        "total_out_of_range": (
            "{player}'s total is {total}, but no grid scores that: "
            "a round's score goes from {min} to {max}"
        ),
        "cards_not_list": "{player}'s cards must be a list, not {value}",
        "row_not_list": "{player}'s cards: a row must be a list, not {value}",
        # a round (skyjo.scorepad.sheet)
        "round_shape": 'a round is {{"ender": name, "entries": {{name: entry}}}}',
        "entries_shape": "the entries must map each player to a total or 12 cards",
        "not_a_player": "{name} is not a player of this sheet",
        "no_ender": "no ender is marked: mark who ended the round",
        "ender_not_player": "the ender {name} is not a player of this sheet",
        "ender_no_entry": "{player} ended the round but has no score entered",
        "no_entry": "{player} has no score entered",
        "round_too_many": (
            "the cards entered hold {count} cards of {value}, but the deck has only {deck}"
        ),
        # the sheet's changes
        "change_shape": "a change is add, edit or delete, not {value}",
        "game_over": "the game is over (a total reached {target}): no round can be added",
        "over_before_round": (
            "with these rounds, the game is over after round {after}, but round {next} "
            "follows: delete the later rounds first"
        ),
        "change_ends_game": (
            "with that change to round {changed}, the game is over after round {after}, "
            "but round {next} follows: delete the later rounds first"
        ),
        "no_such_round": "there is no round {number}: the sheet has rounds 1 to {count}",
        "no_round_yet": "there is no round {number}: the sheet has no round yet",
        "nothing_to_undo": "there is nothing to undo",
        # players, title, rules
        "players_not_list": "players must be a list of names, not {value}",
        "players_missing": "players must be a list of names",
        "title_not_text": "the title must be text, not {value}",
        "title_too_long": "the title has at most {max} characters, not {length}",
        "title_control": (
            "the title {title} holds a control, format or invisible character or a lone surrogate"
        ),
        "rules_type": "rules must be Rules, not {value}",
        # an imported sheet (skyjo.scorepad.exports)
        "not_an_object": "a scoresheet is a JSON object, not {type}",
        "not_a_scoresheet": 'not a scoresheet: expected "format": "{format}", "version": {version}',
        "unknown_key": "unknown key {key} in the scoresheet",
        "rules_not_object": "rules must be an object",
        "rounds_not_list": "rounds must be a list",
        "too_deep": "the file nests deeper than {max} levels",
        "not_json": "not JSON: {detail}",
    }
    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        **params_of(MESSAGES),
        # the kinds it carries on, with their sentences: a player's cards refused by
        # `score_grid`, naming the player; a name's (`skyjo.names.check_name`); the
        # number of players and the rules' (`skyjo.rules`)
        **{kind: ("player", *ScoringError.KINDS[kind]) for kind in GRID_KINDS},
        **NameRefused.KINDS,
        "player_count": ("min", "max", "count"),
        **{kind: RulesError.KINDS[kind] for kind in RULES_KINDS},
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

    @classmethod
    def of(cls, kind: str, round: int | None = None, **params: Any) -> Self:
        """The mistake of `kind` in its sentence (`MESSAGES`), at `round` and at
        the player its params name."""
        error = super().of(kind, **params)
        error.round, error.player = round, params.get("player")
        return error


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
        return {"total": _number(tokens[0], player, True)}
    if len(tokens) != GRID_SIZE:
        raise SheetError.of("card_count", player=player, count=len(tokens), size=GRID_SIZE)
    cards = [X if token in ("x", "X") else _number(token, player, False) for token in tokens]
    return {"cards": [cards[r * COLS : (r + 1) * COLS] for r in range(ROWS)]}


def entry_text(entry: Mapping[str, Any] | None) -> str:
    """A canonical entry written as `parse_entry` reads it: `9`, or the cards
    row by row, `7 5 2 4 / 7 -1 3 1 / 7 0 -2 2`."""
    if entry is None:
        return ""
    if "total" in entry:
        return str(entry["total"])
    return " / ".join(" ".join(str(card) for card in row) for row in entry["cards"])


def _number(token: str, player: str, total: bool) -> int:
    """`token` as a whole number, or a `SheetError`: not a round `total`, or not a card."""
    if not _NUMBER.fullmatch(token):
        raise SheetError.of(
            "not_a_total" if total else "not_a_card", player=player, text=repr(token)
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
        raise SheetError.of("entry_shape", player=player, value=f"{value!r:.60}")
    if "total" in value:
        return {"total": _check_total(value["total"], player)}
    rows = _grid_rows(value["cards"], player)
    entry_grid(rows, player)
    return {"cards": [[X if card is CLEARED else card for card in row] for row in rows]}


def _check_total(total: Any, player: str) -> int:
    """A round total: a whole number some grid scores (RULES.md 2.9)."""
    if isinstance(total, bool) or not isinstance(total, int):
        raise SheetError.of("total_not_integer", player=player, value=f"{total!r:.40}")
    if not MIN_ROUND_SCORE <= total <= MAX_ROUND_SCORE:
        raise SheetError.of(
            "total_out_of_range",
            player=player,
            total=total,
            min=MIN_ROUND_SCORE,
            max=MAX_ROUND_SCORE,
        )
    return total


def _grid_rows(cards: Any, player: str) -> list[list[Any]]:
    """`cards` as 3 rows of 4 (a flat list of 12 is laid row by row), `x` as `CLEARED`."""
    if not isinstance(cards, list | tuple):
        raise SheetError.of("cards_not_list", player=player, value=f"{cards!r:.40}")
    if len(cards) == GRID_SIZE and not any(isinstance(c, list | tuple) for c in cards):
        cards = [cards[r * COLS : (r + 1) * COLS] for r in range(ROWS)]
    rows = []
    for row in cards:
        if not isinstance(row, list | tuple):
            raise SheetError.of("row_not_list", player=player, value=f"{row!r:.40}")
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
