"""The scoresheet of a physical game: players, rules, rounds, and their history.

Everything a page or a terminal needs goes in and out as plain, JSON-ready
values, and every number is scored by `skyjo.scoring` (`score_grid`,
`score_round`, `Scoresheet`): this module checks and keeps what people enter,
it does not score a second time.

A round is an ender and one entry per player: either the player's round total
(``{"total": 9}``) or their 12 cards (``{"cards": [[7, 5, 2, 4], [7, -1, 3, 1],
[7, 0, -2, 2]]}``, rows top to bottom, a column cleared during the round
written ``"x"``). Entries may also be given as a person types them
(``"9"``, ``"7 5 2 4 / 7 -1 3 1 / 7 0 -2 2"``, see `parse_entry`) and are kept
in that canonical dict form.

A `Sheet` is immutable. Its rounds are what its changes (add a round, edit
round n, delete round n) made of its first rounds (`base`, the rounds of an
imported sheet): `undo` drops the last change and everything is recomputed,
game over and the winners included. Every change is checked in full before
it counts; a mistake raises `SheetError` (a `ValueError`) naming the round,
the player and what is wrong, and leaves the sheet as it was.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skyjo.jsondepth import TooDeep, check_depth
from skyjo.names import NameRefused, check_names
from skyjo.rules import (
    CARD_COUNTS,
    COLS,
    GRID_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROWS,
    Rules,
    RulesError,
    check_player_count,
)
from skyjo.scoring import (
    CLEARED,
    MAX_ROUND_SCORE,
    MIN_ROUND_SCORE,
    GridScore,
    RoundScore,
    Scoresheet,
    ScoringError,
    score_grid,
    score_round,
    winners,
)

#: The `format` and `version` of an exported sheet (JSON).
FORMAT = "skyjo-scoresheet"
FORMAT_VERSION = 1
#: The longest title of a sheet, in characters.
MAX_TITLE = 100
#: How a cleared card is written in an entry's cards.
X = "x"

_NUMBER = re.compile("[-\u2212]?[0-9]{1,9}")
_MIN_CARD, _MAX_CARD = min(CARD_COUNTS), max(CARD_COUNTS)


class SheetError(ValueError):
    """A mistake in what was entered: nothing changed. `round` (1-based) and
    `player` say where, when the mistake is in one place, so a form can point
    at the field. `kind` names the mistake (a short snake_case id, one per
    sentence: docs/scorepad.md) and `params` holds the values its sentence
    names, so a page writes the sentence in its own language; the message
    stays the English sentence. A `round` in `params` means the sentence
    starts with "round N: "."""

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,
        player: str | None = None,
        kind: str | None = None,
        params: Mapping[str, Any] | None = None,
    ):
        super().__init__(message)
        self.round = round
        self.player = player
        self.kind = kind
        self.params = dict(params or {})


#: The kinds of `skyjo.scoring`'s refusals of a grid that the sheet carries on
#: as they are (`ScoringError.kind` and `.params`, positions from 0); any other
#: refusal of a grid is `cards_refused`, its sentence as `detail`.
#: (`skyjo.names` and `skyjo.rules` name their refusals' kinds too.)
_GRID_KINDS = frozenset(
    {
        "card_out_of_range",
        "card_not_number",
        "column_partly_cleared",
        "grid_too_many",
        "grid_rows",
        "row_length",
    }
)


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
    except ScoringError as error:
        if error.kind in _GRID_KINDS:
            kind, params = error.kind, error.params
        else:
            kind, params = "cards_refused", {"detail": str(error)}
        raise SheetError(
            f"{player}'s cards: {error}",
            player=player,
            kind=kind,
            params={"player": player, **params},
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


# --------------------------------------------------------------------------
# A round
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Round:
    """One checked round: who ended it and every player's canonical entry, in seat order."""

    ender: str
    entries: dict[str, dict[str, Any]] = field(hash=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"ender": "Ben", "entries": {"Ana": {"total": 9}, ...}}``, JSON-ready (copies)."""
        return {"ender": self.ender, "entries": json.loads(json.dumps(self.entries))}


@dataclass(frozen=True, slots=True)
class ScoredRound:
    """A round with its scores: `score` from `skyjo.scoring.score_round`, grids by player."""

    round: Round
    score: RoundScore
    grids: dict[str, GridScore] = field(hash=False)


# --------------------------------------------------------------------------
# The sheet
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Sheet:
    """A scoresheet: players in seat order, rules, title, first rounds and changes.

    Build one with `Sheet.new` (or `Sheet.from_dict` for an exported sheet);
    each change returns a new sheet. `rounds`, `scored` and `scoresheet` are
    computed from `base` and `changes` when the sheet is made.
    """

    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    title: str = ""
    base: tuple[Round, ...] = ()
    changes: tuple[dict[str, Any], ...] = ()
    #: A sheet read from a store: its players' names were checked when it was made,
    #: by the rules of that day (`check_name` has grown stricter since), and stay as written.
    saved: bool = field(default=False, compare=False, repr=False)
    rounds: tuple[Round, ...] = field(init=False, compare=False)
    scored: tuple[ScoredRound, ...] = field(init=False, compare=False, repr=False)
    scoresheet: Scoresheet = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", _check_players(self.players, self.saved))
        object.__setattr__(self, "title", check_title(self.title, self.saved))
        if not isinstance(self.rules, Rules):
            raise SheetError(
                f"rules must be Rules, not {self.rules!r:.40}",
                kind="rules_type",
                params={"value": f"{self.rules!r:.40}"},
            )
        scored = tuple(self._score(r.to_dict(), n) for n, r in enumerate(self.base, start=1))
        scored = self._settle(scored, "these rounds")
        for change in self.changes:
            scored = self._apply(scored, change)
        object.__setattr__(self, "scored", scored)
        object.__setattr__(self, "rounds", tuple(s.round for s in scored))
        scores = tuple(s.score for s in scored)
        sheet = Scoresheet(self.players, self.rules.target_score, scores)
        object.__setattr__(self, "scoresheet", sheet)

    # --- making a sheet ---------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        title: str = "",
        target_score: int = 100,
        ender_penalty: str = "positive",
    ) -> Sheet:
        """A sheet with no round yet: 2 to 8 different names, the rules, a title."""
        return cls(tuple(players), make_rules(target_score, ender_penalty), title)

    @classmethod
    def from_dict(cls, data: Any) -> Sheet:
        """The sheet of an exported JSON document (`to_dict`); its `summary` is
        recomputed, not read. The imported rounds have no history to undo."""
        if not isinstance(data, Mapping):
            raise SheetError(
                f"a scoresheet is a JSON object, not {type(data).__name__}",
                kind="not_an_object",
                params={"type": type(data).__name__},
            )
        if data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise SheetError(
                f'not a scoresheet: expected "format": "{FORMAT}", "version": {FORMAT_VERSION}',
                kind="not_a_scoresheet",
                params={"format": FORMAT, "version": FORMAT_VERSION},
            )
        known = {"format", "version", "title", "players", "rules", "rounds", "summary"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SheetError(
                f"unknown key {unknown[0]!r} in the scoresheet",
                kind="unknown_key",
                params={"key": repr(unknown[0])},
            )
        rules = data.get("rules") or {}
        if not isinstance(rules, Mapping):
            raise SheetError("rules must be an object", kind="rules_not_object")
        rounds = data.get("rounds", [])
        if not isinstance(rounds, list):
            raise SheetError("rounds must be a list", kind="rounds_not_list")
        sheet = cls.new(
            _players_list(data.get("players")),
            data.get("title", ""),
            rules.get("target_score", 100),
            rules.get("ender_penalty", "positive"),
        )
        base = tuple(sheet.check_round(r, n) for n, r in enumerate(rounds, start=1))
        return cls(sheet.players, sheet.rules, sheet.title, base)

    # --- changes ------------------------------------------------------------

    def add_round(self, data: Any) -> Sheet:
        """The sheet with one more round (see `check_round` for `data`)."""
        return self._changed({"op": "add", "round": data})

    def edit_round(self, number: int, data: Any) -> Sheet:
        """The sheet with round `number` (1-based) replaced; the rest is recomputed."""
        return self._changed({"op": "edit", "number": number, "round": data})

    def delete_round(self, number: int) -> Sheet:
        """The sheet without round `number` (1-based); later rounds move up one."""
        return self._changed({"op": "delete", "number": number})

    def undo(self) -> Sheet:
        """The sheet as it was before its last change."""
        if not self.changes:
            raise SheetError("there is nothing to undo", kind="nothing_to_undo")
        return self._with(self.changes[:-1])

    def renamed(self, title: str) -> Sheet:
        """The same sheet under another title (not a change to undo)."""
        return Sheet(self.players, self.rules, title, self.base, self.changes, self.saved)

    @property
    def can_undo(self) -> bool:
        return bool(self.changes)

    def _changed(self, change: dict[str, Any]) -> Sheet:
        """The sheet with `change` (checked in full) as its last change."""
        scored = self._apply(self.scored, change)  # raises before anything counts
        canonical = dict(change)
        if "round" in change:
            canonical["round"] = scored[_index(change, scored)].round.to_dict()
        return self._with((*self.changes, canonical))

    def _with(self, changes: tuple[dict[str, Any], ...]) -> Sheet:
        return Sheet(self.players, self.rules, self.title, self.base, changes, self.saved)

    def _apply(self, scored: tuple[ScoredRound, ...], change: Any) -> tuple[ScoredRound, ...]:
        """`scored` after one change: ``add``, ``edit`` (number) or ``delete`` (number)."""
        if not isinstance(change, Mapping) or change.get("op") not in ("add", "edit", "delete"):
            raise SheetError(
                f"a change is add, edit or delete, not {change!r:.60}",
                kind="change_shape",
                params={"value": f"{change!r:.60}"},
            )
        op = change["op"]
        rounds = list(scored)
        if op == "add":
            if self._finished(scored):
                raise SheetError(
                    f"the game is over (a total reached {self.rules.target_score}): "
                    "no round can be added",
                    kind="game_over",
                    params={"target": self.rules.target_score},
                )
            rounds.append(self._score(change.get("round"), len(rounds) + 1))
            return tuple(rounds)
        number = _round_number(change.get("number"), len(rounds))
        if op == "edit":
            rounds[number - 1] = self._score(change.get("round"), number)
        else:
            del rounds[number - 1]
        return self._settle(tuple(rounds), f"that change to round {number}", number)

    def _settle(
        self, scored: tuple[ScoredRound, ...], what: str, changed: int | None = None
    ) -> tuple[ScoredRound, ...]:
        """`scored`, unless the game is over before its last round (`changed`:
        the round whose change made `scored`, None for imported rounds)."""
        totals = dict.fromkeys(self.players, 0)
        for number, one in enumerate(scored, start=1):
            if number > 1 and any(t >= self.rules.target_score for t in totals.values()):
                raise SheetError(
                    f"with {what}, the game is over after round {number - 1}, but round "
                    f"{number} follows: delete the later rounds first",
                    round=number - 1,
                    kind="over_before_round" if changed is None else "change_ends_game",
                    params={"after": number - 1, "next": number}
                    | ({} if changed is None else {"changed": changed}),
                )
            for player, score in one.score.scores.items():
                totals[player] += score
        return scored

    def _finished(self, scored: Sequence[ScoredRound]) -> bool:
        totals = [sum(s.score.scores[p] for s in scored) for p in self.players]
        return any(total >= self.rules.target_score for total in totals)

    # --- checking a round ---------------------------------------------------

    def check_round(self, data: Any, number: int | None = None) -> Round:
        """`data` (``{"ender": name, "entries": {name: entry}}``) checked as
        round `number` of this sheet: every entry (`check_entry`), an ender
        who is a player with an entry, an entry for every player, and no more
        of a value in the round's cards than the deck holds."""
        return self._score(data, number).round

    def preview(self, data: Any, number: int | None = None) -> ScoredRound:
        """`data` checked as round `number` (`check_round`) and scored, for a
        form to show the round's scores and the ender's penalty before saving."""
        return self._score(data, number)

    def _score(self, data: Any, number: int | None) -> ScoredRound:
        """`data` checked (`check_round`) and scored by `score_round` and `score_grid`."""
        where = f"round {number}: " if number else ""
        try:
            return self._score_checked(data)
        except SheetError as error:
            params = {**error.params, "round": number} if number else error.params
            raise SheetError(
                f"{where}{error}",
                round=number,
                player=error.player,
                kind=error.kind,
                params=params,
            ) from error

    def _score_checked(self, data: Any) -> ScoredRound:
        if not isinstance(data, Mapping) or set(data) - {"ender", "entries"}:
            raise SheetError(
                'a round is {"ender": name, "entries": {name: entry}}', kind="round_shape"
            )
        given = data.get("entries") or {}
        if not isinstance(given, Mapping):
            raise SheetError(
                "the entries must map each player to a total or 12 cards", kind="entries_shape"
            )
        given = {_as_name(name): entry for name, entry in given.items()}
        for name in given:
            if name not in self.players:
                raise SheetError(
                    f"{name!r:.60} is not a player of this sheet",
                    kind="not_a_player",
                    params={"name": f"{name!r:.60}"},
                )
        entries = {p: check_entry(given.get(p), p) for p in self.players}
        ender = _as_name(data.get("ender"))
        if ender is None or ender == "":
            raise SheetError("no ender is marked: mark who ended the round", kind="no_ender")
        if ender not in self.players:
            raise SheetError(
                f"the ender {ender!r:.60} is not a player of this sheet",
                kind="ender_not_player",
                params={"name": f"{ender!r:.60}"},
            )
        if entries[ender] is None:
            raise SheetError(
                f"{ender} ended the round but has no score entered",
                player=ender,
                kind="ender_no_entry",
                params={"player": ender},
            )
        for player, entry in entries.items():
            if entry is None:
                raise SheetError(
                    f"{player} has no score entered",
                    player=player,
                    kind="no_entry",
                    params={"player": player},
                )
        return self._scored_round(Round(ender, entries))  # type: ignore[arg-type]

    def _scored_round(self, one: Round) -> ScoredRound:
        grids: dict[str, GridScore] = {}
        raw: dict[str, int] = {}
        for player, entry in one.entries.items():
            raw[player], grid = entry_score(entry, player)
            if grid is not None:
                grids[player] = grid
        _check_round_cards(grids)
        try:
            score = score_round(raw, one.ender, self.rules.ender_penalty)
        except ScoringError as error:  # the totals were checked: not expected
            raise SheetError(
                str(error), kind="scoring_refused", params={"detail": str(error)}
            ) from error
        return ScoredRound(one, score, grids)

    # --- reading ------------------------------------------------------------

    @property
    def totals(self) -> dict[str, int]:
        return self.scoresheet.totals

    @property
    def finished(self) -> bool:
        return self._finished(self.scored)

    @property
    def winners(self) -> list[str]:
        return self.scoresheet.winners

    @property
    def leaders(self) -> list[str]:
        """The players with the lowest total so far (none before the first round)."""
        return winners(self.totals) if self.scored else []

    def to_target(self) -> dict[str, int]:
        """Per player, the points left before reaching the target (0 or less: reached)."""
        return {p: self.rules.target_score - t for p, t in self.totals.items()}

    def summary(self) -> dict[str, Any]:
        """Everything a page shows, JSON-ready: each round with every player's
        entry, raw and final score, grid explained column by column, the
        ender's penalty in words and the running totals; then the totals, the
        leaders, the distance to the target, game over and the winners."""
        running = self.scoresheet.running_totals
        return {
            "rounds": [
                _round_summary(n, s, totals)
                for n, (s, totals) in enumerate(zip(self.scored, running, strict=True), start=1)
            ],
            "totals": self.totals,
            "leaders": self.leaders,
            "to_target": self.to_target(),
            "finished": self.finished,
            "winners": self.winners,
        }

    def to_dict(self) -> dict[str, Any]:
        """The exported sheet (JSON-ready): what `from_dict` reads back, plus its summary."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "title": self.title,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "rounds": [one.to_dict() for one in self.rounds],
            "summary": self.summary(),
        }


def _round_summary(number: int, scored: ScoredRound, totals: dict[str, int]) -> dict[str, Any]:
    """One round of `Sheet.summary`."""
    score = scored.score
    players = {}
    for player, entry in scored.round.entries.items():
        grid = scored.grids.get(player)
        players[player] = {
            "entry": json.loads(json.dumps(entry)),
            "raw": score.raw[player],
            "score": score.scores[player],
            "grid": None if grid is None else grid.to_dict(),
            "explanation": "" if grid is None else grid_explanation(grid),
        }
    return {
        "number": number,
        "ender": score.ender,
        "doubled": score.doubled,
        "reason": score.reason,
        "players": players,
        "totals": totals,
    }


def _check_round_cards(grids: Mapping[str, GridScore]) -> None:
    """The round's grids come from one deck: no more of a value than it holds (RULES.md 1)."""
    counts = Counter(
        card
        for grid in grids.values()
        for column in grid.columns
        for card in column.cards
        if card is not CLEARED
    )
    for value, count in sorted(counts.items()):
        if count > CARD_COUNTS[value]:
            raise SheetError(
                f"the cards entered hold {count} cards of {value}, "
                f"but the deck has only {CARD_COUNTS[value]}",
                kind="round_too_many",
                params={"count": count, "value": value, "deck": CARD_COUNTS[value]},
            )


def _index(change: Mapping[str, Any], scored: Sequence[ScoredRound]) -> int:
    """The index in `scored` of the round a checked add or edit wrote."""
    return len(scored) - 1 if change["op"] == "add" else change["number"] - 1


def _round_number(number: Any, count: int) -> int:
    """A round number from 1 to `count`."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= count:
        have = f"rounds 1 to {count}" if count else "no round yet"
        raise SheetError(
            f"there is no round {number!r:.20}: the sheet has {have}",
            kind="no_such_round" if count else "no_round_yet",
            params={"number": f"{number!r:.20}"} | ({"count": count} if count else {}),
        )
    return number


# --------------------------------------------------------------------------
# Players, title, rules
# --------------------------------------------------------------------------


def _players_list(players: Any) -> list[str]:
    if not isinstance(players, list | tuple):
        raise SheetError(
            f"players must be a list of names, not {players!r:.40}",
            kind="players_not_list",
            params={"value": f"{players!r:.40}"},
        )
    return list(players)


def _check_players(players: Sequence[Any], saved: bool = False) -> tuple[str, ...]:
    """2 to 8 different names, each a valid seat name, normalised
    (`skyjo.names.check_names`: no two alike once case-folded); `saved`: the
    names of a stored sheet, kept as written once they are 2 to 8 different
    strings (they were checked when the sheet was made)."""
    players = tuple(_players_list(players))
    try:
        check_player_count(len(players))
    except ValueError as error:
        raise SheetError(
            str(error),
            kind="player_count",
            params={"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(players)},
        ) from error
    names_as_written = all(isinstance(p, str) and p.strip() for p in players)
    if saved and names_as_written and len(set(players)) == len(players):
        return players
    try:
        return check_names(players)
    except NameRefused as error:
        kind = error.kind or "players_refused"
        params = error.params if error.kind else {"detail": str(error)}
        if kind == "name_repeated":
            message = f"each player has their own name, but {params['names']} is repeated"
            raise SheetError(message, kind=kind, params=params) from error
        raise SheetError(str(error), kind=kind, params=params) from error


def _as_name(name: Any) -> Any:
    """A name as a form or a file gives it, written as `check_name` keeps names
    (NFC, no spaces around), so that it finds its player."""
    return unicodedata.normalize("NFC", name.strip()) if isinstance(name, str) else name


def check_title(title: Any, saved: bool = False) -> str:
    """A title: text of at most `MAX_TITLE` characters once trimmed, without a
    control character (Cc), a lone surrogate, a format character (Cf: a
    right-to-left override, a zero-width space) or a line or paragraph
    separator (Zl, Zp); `saved`: a stored sheet's title, checked as when it was
    made (Cc and surrogates only)."""
    if not isinstance(title, str):
        raise SheetError(
            f"the title must be text, not {title!r:.40}",
            kind="title_not_text",
            params={"value": f"{title!r:.40}"},
        )
    title = title.strip()
    if len(title) > MAX_TITLE:
        raise SheetError(
            f"the title has at most {MAX_TITLE} characters, not {len(title)}",
            kind="title_too_long",
            params={"max": MAX_TITLE, "length": len(title)},
        )
    refused = ("Cc", "Cs") if saved else ("Cc", "Cs", "Cf", "Zl", "Zp")
    for char in title:
        if unicodedata.category(char) in refused:
            raise SheetError(
                f"the title {title!r:.60} holds a control, format or invisible character "
                "or a lone surrogate",
                kind="title_control",
                params={"title": f"{title!r:.60}"},
            )
    return title


def make_rules(target_score: Any = 100, ender_penalty: Any = "positive") -> Rules:
    """`Rules` of the target score and ender penalty, or a `SheetError` saying why not."""
    try:
        return Rules(target_score=target_score, ender_penalty=ender_penalty)
    except RulesError as error:
        raise SheetError(str(error), kind=error.kind, params=error.params) from error


# --------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------


def export_json(sheet: Sheet) -> str:
    """The sheet as one JSON document (`Sheet.to_dict`), as `Sheet.from_dict` reads it."""
    return json.dumps(sheet.to_dict(), ensure_ascii=False, indent=1) + "\n"


def import_json(text: str) -> Sheet:
    """The sheet of an exported JSON document (refused, `too_deep`, when it nests
    deeper than `skyjo.jsondepth.MAX_DEPTH` levels: measured before parsing)."""
    try:
        check_depth(text)
    except TooDeep as deep:
        raise SheetError(
            f"the file nests deeper than {deep.limit} levels",
            kind="too_deep",
            params={"max": deep.limit},
        ) from None
    try:
        data = json.loads(text)
    except ValueError as error:  # JSONDecodeError, or an integer of over 4,300 digits
        raise SheetError(
            f"not JSON: {error}", kind="not_json", params={"detail": str(error)}
        ) from error
    return Sheet.from_dict(data)


CSV_HEADER = ("round", "player", "cards", "raw", "score", "total", "ender", "doubled")


def export_csv(sheet: Sheet) -> str:
    """One line per player per round: the cards (if entered), raw and final
    score, running total, whether the player ended the round and was doubled."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for one in sheet.summary()["rounds"]:
        for player, row in one["players"].items():
            written = entry_text(row["entry"]) if "cards" in row["entry"] else ""
            ender = player == one["ender"]
            writer.writerow(
                (
                    one["number"],
                    player,
                    written,
                    row["raw"],
                    row["score"],
                    one["totals"][player],
                    "yes" if ender else "",
                    "yes" if ender and one["doubled"] else "",
                )
            )
    return out.getvalue()
