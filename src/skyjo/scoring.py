"""Scoring: cleared columns, the ender's penalty, totals and winners (RULES.md 2.6, 2.9, 2.10, 3).

This module is shared by the engine and by people scoring a physical game. It
has two layers, and the second is built on the first so that every rule is
written exactly once:

* **Lean rule functions** (`column_clears`, `ender_is_doubled`, `round_scores`,
  `is_game_over`, `winners`): plain ints and lists, no validation beyond what is
  free, meant for the engine's hot path at every round end.
* **Explained scoring** (`score_grid`, `score_round`, `Scoresheet`): validated
  input, frozen result objects that say *why* each number is what it is, and
  `to_dict()` in the JSON shapes of RULES.md 6. Bad input raises `ScoringError`.

It imports nothing from the engine or from any adapter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from skyjo.errors import SkyjoError
from skyjo.rules import (
    CARD_COUNTS,
    COLS,
    DEFAULT_TARGET_SCORE,
    ENDER_PENALTIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROWS,
)
from skyjo.wording import agree, possessive, within

__all__ = [
    "CLEARED",
    "GRID_KINDS",
    "MAX_ROUND_SCORE",
    "MIN_ROUND_SCORE",
    "ColumnScore",
    "GridScore",
    "RoundScore",
    "Scoresheet",
    "ScoringError",
    "column_clears",
    "ender_is_doubled",
    "is_game_over",
    "round_facts",
    "round_scores",
    "score_grid",
    "score_round",
    "winners",
]

K = TypeVar("K", bound=Hashable)

#: How a card that was cleared earlier in the round is written in a grid given
#: to `score_grid` (the CLI accepts `x` for it).
CLEARED = None

_MIN_CARD = min(CARD_COUNTS)
_MAX_CARD = max(CARD_COUNTS)

MIN_ROUND_SCORE = -17
"""The lowest raw round score a grid can make (RULES.md 1, 2.6, 2.9).

A grid is four columns of three cards from the 150 of the deck, which holds
five -2, ten -1 and fifteen 0; a column of three equal cards clears and counts
0. A column that does not clear scores at least -2 (-1 -1 0) with no -2 in it,
-4 (-2 -1 -1) with one, -5 (-2 -2 -1) with two; three -2 clear. Each -2 is
worth most in a column that has none yet (2 points off, against 1 for the
second in a column), so the five -2 are spread two, one, one, one: -2 -2 -1
and three columns of -2 -1 -1, with seven of the ten -1. That is -5 - 3 x 4 =
-17; two columns of -2 -2 -1 would give only -5 - 5 - 4 - 2 = -16.
"""

MAX_ROUND_SCORE = 140
"""The highest raw round score a grid can make (RULES.md 1, 2.6, 2.9).

The highest column that does not clear is 12 12 11 = 35 (three 12 clear and
count 0); the deck's ten 12 and ten 11 make four of them: 4 x 35 = 140.
"""


class ScoringError(SkyjoError):
    """Input that cannot be scored: the message names what is wrong, for a
    person (rows and columns counted from 1: "row 1, column 1" is the top left
    card). `kind` names the sentence and `params` holds the facts it names
    (`skyjo.errors`), with positions as RULES.md writes them (`row` 0-2 from
    the top, `column` 0-3 from the left)."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        # score_grid (GRID_KINDS)
        "grid_not_list": ("rows", "type"),
        "grid_rows": ("rows", "count"),
        "grid_row_not_list": ("row", "size", "value"),
        "row_length": ("row", "count", "size"),
        "card_not_number": ("row", "column", "card"),
        "card_out_of_range": ("row", "column", "card", "min", "max"),
        "grid_too_many": ("count", "value", "deck"),
        "column_partly_cleared": ("column", "cleared", "size"),
        # round_scores, score_round
        "ender_seat": ("seat", "seats"),
        "player_count": ("min", "max", "count"),
        "name_not_text": ("name",),
        "score_not_integer": ("player", "value"),
        "score_out_of_range": ("player", "score", "min", "max"),
        "ender_not_player": ("ender", "players"),
        "unknown_penalty": ("penalty", "choices"),
        # Scoresheet
        "name_repeated": ("names",),
        "target_invalid": ("value",),
        "round_after_game_over": ("number", "after"),
        "round_not_scored": ("number", "value"),
        "round_players": ("number", "scored", "players"),
        "game_over": ("target",),
    }


#: The kinds of `score_grid`'s refusals (a grid's shape, its cards, its columns).
GRID_KINDS: tuple[str, ...] = (
    "grid_not_list",
    "grid_rows",
    "grid_row_not_list",
    "row_length",
    "card_not_number",
    "card_out_of_range",
    "grid_too_many",
    "column_partly_cleared",
)


# --------------------------------------------------------------------------
# Lean rule functions
# --------------------------------------------------------------------------


def column_clears(a: int, b: int, c: int) -> bool:
    """Whether three face-up cards of one column clear (RULES.md 2.6): three
    equal values, whatever the value (-2 and 0 too)."""
    return a == b == c


def ender_is_doubled(ender_raw: int, others_raw: Iterable[int], penalty: str) -> bool:
    """Whether the ender's round score is doubled (RULES.md 2.10).

    - ``"positive"`` (default rules): doubled iff the ender's raw score is above
      0 and some other player's raw score is equal to it or lower.
    - ``"always"`` (variant): doubled iff some other raw score is equal or
      lower, whatever the sign (a negative score doubles to twice as negative).
    - ``"none"`` (variant): never doubled.

    Raises `ScoringError` for any other `penalty`.
    """
    if penalty == "positive":
        return ender_raw > 0 and any(other <= ender_raw for other in others_raw)
    if penalty == "always":
        return any(other <= ender_raw for other in others_raw)
    if penalty == "none":
        return False
    raise _unknown_penalty(penalty)


def round_scores(raw: Sequence[int], ender: int, penalty: str) -> tuple[list[int], bool]:
    """Seat-indexed round scores after the ender's penalty (RULES.md 2.10): the
    raw scores (2.9) with the ender's doubled or not, and whether it was."""
    if not 0 <= ender < len(raw):
        raise ScoringError(
            f"the ender's seat {ender} is not one of the {len(raw)} seats",
            "ender_seat",
            {"seat": ender, "seats": len(raw)},
        )
    ender_raw = raw[ender]
    others = (score for seat, score in enumerate(raw) if seat != ender)
    doubled = ender_is_doubled(ender_raw, others, penalty)
    scores = list(raw)
    if doubled:
        scores[ender] = 2 * ender_raw
    return scores, doubled


def is_game_over(totals: Iterable[int], target: int) -> bool:
    """Whether the game is over: some running total has reached the target (RULES.md 3)."""
    return any(total >= target for total in totals)


def winners(totals: Mapping[K, int]) -> list[K]:
    """The players with the lowest total, in mapping order (RULES.md 3): equal
    lowest totals share the win, with no tie-break."""
    if not totals:
        return []
    lowest = min(totals.values())
    return [player for player, total in totals.items() if total == lowest]


# --------------------------------------------------------------------------
# Explained scoring: a grid
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ColumnScore:
    """One column of a scored grid (RULES.md 2.6, 2.9).

    `index` is the column, 0-3 from the left; `cards` its cards top to bottom,
    with `CLEARED` (None) for a column cleared earlier in the round.
    """

    index: int
    cards: tuple[int | None, ...]
    cleared: bool
    score: int
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        """The column as in RULES.md 6, plus its explanation."""
        return {
            "cards": list(self.cards),
            "cleared": self.cleared,
            "score": self.score,
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True)
class GridScore:
    """A player's grid at the end of a round, scored column by column (RULES.md 2.9)."""

    columns: tuple[ColumnScore, ...]
    total: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of RULES.md 6: ``{"columns": [...], "total": 14}``."""
        return {"columns": [column.to_dict() for column in self.columns], "total": self.total}


def score_grid(rows: Sequence[Sequence[int | None]]) -> GridScore:
    """Score a grid once every card is face up (RULES.md 2.6 and 2.9).

    `rows` holds the 3 rows top to bottom, 4 cards each. A column of three
    equal values clears at this final reveal and scores 0 (RULES.md 2.9: this
    counts), whatever the value, -2 and 0 included (2.6). A column written all
    `CLEARED` was cleared earlier in the round and scores 0. Every other column
    scores the sum of its cards, and the grid is worth the sum of its columns.

    Raises `ScoringError` when the grid does not have 3 rows of 4 cards, a card
    is not a value from -2 to 12, a column is only partly cleared, or the grid
    holds more copies of a value than the deck (RULES.md 1). Its message counts
    rows and columns from 1 (people read it); its params from 0 (RULES.md).
    """
    grid = _check_grid(rows)
    columns = tuple(_score_column(col, grid) for col in range(COLS))
    return GridScore(columns=columns, total=sum(column.score for column in columns))


def _score_column(col: int, grid: list[list[int | None]]) -> ColumnScore:
    """Score column `col` of a checked grid: cleared earlier, cleared now (2.6, 2.9), or summed."""
    cards = tuple(grid[row][col] for row in range(ROWS))
    values = [card for card in cards if card is not None]
    if not values:
        return ColumnScore(col, cards, True, 0, "cleared earlier, so 0")
    if len(values) != ROWS:
        raise ScoringError(
            f"column {col + 1} is partly cleared ({ROWS - len(values)} of its {ROWS} cards "
            "written as cleared): a column is cleared all three cards at once",
            "column_partly_cleared",
            {"column": col, "cleared": ROWS - len(values), "size": ROWS},
        )
    a, b, c = values
    if column_clears(a, b, c):
        return ColumnScore(col, cards, True, 0, f"three {a}s, cleared, so 0")
    score = a + b + c
    return ColumnScore(col, cards, False, score, f"{a} + {b} + {c} = {score}")


def _check_grid(rows: Sequence[Sequence[int | None]]) -> list[list[int | None]]:
    """Check a grid's shape (RULES.md 2.1), its card values and copies (RULES.md 1).

    The messages count rows and columns from 1, as people do ("row 1, column
    1" is the top left card); the params, from 0, as RULES.md writes positions.
    """
    if isinstance(rows, str | bytes) or not isinstance(rows, Sequence):
        raise ScoringError(
            f"a grid is a list of {ROWS} rows, not {type(rows).__name__}",
            "grid_not_list",
            {"rows": ROWS, "type": type(rows).__name__},
        )
    if len(rows) != ROWS:
        raise ScoringError(
            f"a grid has {ROWS} rows, not {len(rows)}",
            "grid_rows",
            {"rows": ROWS, "count": len(rows)},
        )
    grid: list[list[int | None]] = []
    for r, row in enumerate(rows):
        if isinstance(row, str | bytes) or not isinstance(row, Sequence):
            raise ScoringError(
                f"row {r + 1} must be a list of {COLS} cards, not {row!r}",
                "grid_row_not_list",
                {"row": r, "size": COLS, "value": repr(row)},
            )
        if len(row) != COLS:
            raise ScoringError(
                f"row {r + 1} has {len(row)} cards instead of {COLS}",
                "row_length",
                {"row": r, "count": len(row), "size": COLS},
            )
        for c, card in enumerate(row):
            if card is None:
                continue
            if isinstance(card, bool) or not isinstance(card, int):
                raise ScoringError(
                    f"the card at row {r + 1}, column {c + 1} is {card!r}, not a number",
                    "card_not_number",
                    {"row": r, "column": c, "card": repr(card)},
                )
            if not _MIN_CARD <= card <= _MAX_CARD:
                raise ScoringError(
                    f"the card at row {r + 1}, column {c + 1} is {card}, "
                    f"but cards go from {_MIN_CARD} to {_MAX_CARD}",
                    "card_out_of_range",
                    {"row": r, "column": c, "card": card, "min": _MIN_CARD, "max": _MAX_CARD},
                )
        grid.append(list(row))
    counts = Counter(card for row in grid for card in row if card is not None)
    for value, count in sorted(counts.items()):
        if count > CARD_COUNTS[value]:
            raise ScoringError(
                f"the grid holds {count} cards of {value} "
                f"but the deck has only {CARD_COUNTS[value]}",
                "grid_too_many",
                {"count": count, "value": value, "deck": CARD_COUNTS[value]},
            )
    return grid


# --------------------------------------------------------------------------
# Explained scoring: a round
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The scores of one round, after the ender's penalty (RULES.md 2.9, 2.10).

    Build it with `score_round`. `raw` and `scores` map each player, in seat
    order, to their raw and final round score; `reason` says in a sentence why
    the ender's score was or was not doubled, and `facts` says it as facts
    (`round_facts`: seats numbered in the order of `raw`), for an interface to
    say in its own language. The dicts are the object's own: treat them as
    read-only.
    """

    raw: dict[str, int] = field(hash=False)
    scores: dict[str, int] = field(hash=False)
    ender: str
    doubled: bool
    reason: str
    facts: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of RULES.md 6 (``raw``, ``scores``, ``doubled``) plus ender and reason."""
        return {
            "raw": dict(self.raw),
            "scores": dict(self.scores),
            "doubled": self.doubled,
            "ender": self.ender,
            "reason": self.reason,
        }


def score_round(raw: Mapping[str, int], ender: str, penalty: str = "positive") -> RoundScore:
    """Apply the ender's penalty to a round's raw scores, and say why (RULES.md 2.10).

    `raw` maps each player, in seat order, to their raw round score (the sum of
    their remaining cards, RULES.md 2.9); `ender` is the player who ended the
    round; `penalty` is the `ender_penalty` variant (``"positive"`` by default,
    ``"always"`` or ``"none"``).

    Raises `ScoringError` for fewer than 2 or more than 8 players, a player
    name that is not a non-empty string, a score that is not an integer or that
    no grid makes (outside `MIN_ROUND_SCORE`..`MAX_ROUND_SCORE`), an ender who
    is not one of the players, or an unknown penalty.
    """
    players = list(raw)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ScoringError(
            f"a round has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}",
            "player_count",
            {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(players)},
        )
    for player in players:
        if not isinstance(player, str) or not player:
            raise _bad_name(player)
        score = raw[player]
        if isinstance(score, bool) or not isinstance(score, int):
            raise ScoringError(
                f"{player}'s score must be a whole number, not {score!r}",
                "score_not_integer",
                {"player": player, "value": repr(score)},
            )
        if not MIN_ROUND_SCORE <= score <= MAX_ROUND_SCORE:
            raise ScoringError(
                f"{player}'s score is {score}, but no grid scores that: a round's raw "
                f"score goes from {MIN_ROUND_SCORE} to {MAX_ROUND_SCORE}",
                "score_out_of_range",
                {
                    "player": player,
                    "score": score,
                    "min": MIN_ROUND_SCORE,
                    "max": MAX_ROUND_SCORE,
                },
            )
    if ender not in raw:
        raise ScoringError(
            f"the ender {ender!r} is not one of the players ({', '.join(players)})",
            "ender_not_player",
            {"ender": repr(ender), "players": players},
        )
    if penalty not in ENDER_PENALTIES:
        raise _unknown_penalty(penalty)
    seat = players.index(ender)
    final, doubled = round_scores([raw[p] for p in players], seat, penalty)
    scores = dict(zip(players, final, strict=True))
    facts = round_facts([raw[p] for p in players], seat, penalty)
    reason = _penalty_reason(players, facts)
    return RoundScore(
        raw=dict(raw), scores=scores, ender=ender, doubled=doubled, reason=reason, facts=facts
    )


def round_facts(raw: Sequence[int], ender: int, penalty: str = "positive") -> dict[str, Any]:
    """Why the ender (a seat) scored what they did (RULES.md 2.10), as facts
    rather than a sentence, for an interface to say in its own language.

    `kind` is `no_penalty` (the "none" variant), `not_positive` (the "positive"
    variant and a raw score of 0 or below), `doubled`, or `lowest` (the single
    lowest score: not doubled); `ender` the seat, `raw` and `score` its raw and
    final scores, `penalty` the variant; when `doubled`, `rival` is the other
    seat with the lowest raw score (the first in seat order) and `other` its
    score, the clearest witness. `raw` is every seat's raw score, already
    checked (`score_round` checks them)."""
    final, doubled = round_scores(list(raw), ender, penalty)
    facts: dict[str, Any] = {"ender": ender, "raw": raw[ender], "score": final[ender]}
    if penalty == "none":
        kind = "no_penalty"
    elif penalty == "positive" and raw[ender] <= 0:
        kind = "not_positive"
    elif doubled:
        kind = "doubled"
        rival = min((seat for seat in range(len(raw)) if seat != ender), key=lambda s: raw[s])
        facts.update(rival=rival, other=raw[rival])
    else:
        kind = "lowest"
    return {"kind": kind, **facts, "penalty": penalty}


def _penalty_reason(players: Sequence[str], facts: Mapping[str, Any]) -> str:
    """The English sentence of `round_facts` (RULES.md 2.10), the seats named by `players`."""
    ender, penalty = players[facts["ender"]], facts["penalty"]
    ended = f"{ender} ended with {facts['raw']}"
    if facts["kind"] == "no_penalty":
        return f'{ended}: under the "none" variant the ender\'s score is never doubled'
    if facts["kind"] == "not_positive":
        return f"{ended}: a score of 0 or below is never doubled"
    if facts["kind"] == "doubled":
        sign = ', whatever its sign (the "always" variant)' if penalty == "always" else ""
        rival = players[facts["rival"]]
        has = f"{within(rival)} {agree(rival, 'has', 'have')} {facts['other']}"
        return (
            f"{ended} and {has}, which is not higher: "
            f"{possessive(ender, within=True)} score is doubled to {facts['score']}{sign}"
        )
    variant = ' (the "always" variant)' if penalty == "always" else ""
    return f"{ended}, the single lowest score: not doubled{variant}"


def _unknown_penalty(penalty: object) -> ScoringError:
    """The refusal of a penalty that is not one of the variants of RULES.md 2.10."""
    return ScoringError(
        f"unknown ender penalty {penalty!r}: use one of {', '.join(ENDER_PENALTIES)}",
        "unknown_penalty",
        {"penalty": repr(penalty), "choices": list(ENDER_PENALTIES)},
    )


def _bad_name(player: object) -> ScoringError:
    """The refusal of a player's name that is not a non-empty string."""
    return ScoringError(
        f"a player's name must be a non-empty string, not {player!r}",
        "name_not_text",
        {"name": repr(player)},
    )


# --------------------------------------------------------------------------
# Explained scoring: a game
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """The scoresheet of a whole game (RULES.md 3).

    Each player's round scores add up to a running total; once a total has
    reached `target_score` (100 by default, a variant) the game is over and the
    lowest total wins, equal lowest totals sharing the win. A scoresheet is
    immutable: `add_round` returns a new one.
    """

    players: tuple[str, ...]
    target_score: int = DEFAULT_TARGET_SCORE
    rounds: tuple[RoundScore, ...] = ()

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "rounds", tuple(self.rounds))
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ScoringError(
                f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}",
                "player_count",
                {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(players)},
            )
        for player in players:
            if not isinstance(player, str) or not player:
                raise _bad_name(player)
        if len(set(players)) != len(players):
            dupes = sorted({p for p in players if players.count(p) > 1})
            raise ScoringError(
                f"each player appears once, but {', '.join(dupes)} is repeated",
                "name_repeated",
                {"names": dupes},
            )
        target = self.target_score
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise ScoringError(
                f"the target score must be a whole number of at least 1, not {target!r}",
                "target_invalid",
                {"value": repr(target)},
            )
        totals = dict.fromkeys(players, 0)
        for number, round_score in enumerate(self.rounds, start=1):
            if is_game_over(totals.values(), target):
                raise ScoringError(
                    f"round {number} cannot be added: the game was over after round {number - 1}",
                    "round_after_game_over",
                    {"number": number, "after": number - 1},
                )
            self._check_round(round_score, number)
            for player in players:
                totals[player] += round_score.scores[player]

    def _check_round(self, round_score: RoundScore, number: int) -> None:
        """Check that round `number` is a `RoundScore` for exactly this game's players."""
        if not isinstance(round_score, RoundScore):
            raise ScoringError(
                f"round {number} must be a RoundScore, not {round_score!r}",
                "round_not_scored",
                {"number": number, "value": repr(round_score)},
            )
        if set(round_score.scores) != set(self.players):
            raise ScoringError(
                f"round {number} is scored for {', '.join(round_score.scores)}, "
                f"but the players are {', '.join(self.players)}",
                "round_players",
                {
                    "number": number,
                    "scored": list(round_score.scores),
                    "players": list(self.players),
                },
            )

    def add_round(self, round_score: RoundScore) -> Scoresheet:
        """A new scoresheet with one more round (RULES.md 3).

        Raises `ScoringError` if the game is already over or the round is not
        scored for exactly this game's players.
        """
        if self.finished:
            raise ScoringError(
                f"the game is over (a total reached {self.target_score}): no round can be added",
                "game_over",
                {"target": self.target_score},
            )
        return Scoresheet(self.players, self.target_score, (*self.rounds, round_score))

    @property
    def running_totals(self) -> list[dict[str, int]]:
        """Every player's running total after each round, one dict per round (RULES.md 3)."""
        totals = dict.fromkeys(self.players, 0)
        running = []
        for round_score in self.rounds:
            for player in self.players:
                totals[player] += round_score.scores[player]
            running.append(dict(totals))
        return running

    @property
    def totals(self) -> dict[str, int]:
        """Every player's total so far, in seat order (RULES.md 3)."""
        return {
            player: sum(round_score.scores[player] for round_score in self.rounds)
            for player in self.players
        }

    @property
    def finished(self) -> bool:
        """Whether some total has reached the target score (RULES.md 3)."""
        return is_game_over(self.totals.values(), self.target_score)

    @property
    def winners(self) -> list[str]:
        """The players with the lowest total once the game is over, else empty (RULES.md 3)."""
        return winners(self.totals) if self.finished else []

    def to_dict(self) -> dict[str, Any]:
        """The whole sheet, in the spirit of `skyjo replay --json` (RULES.md 6)."""
        totals = self.totals
        finished = is_game_over(totals.values(), self.target_score)
        return {
            "players": list(self.players),
            "target_score": self.target_score,
            "rounds": [round_score.to_dict() for round_score in self.rounds],
            "running_totals": self.running_totals,
            "totals": totals,
            "finished": finished,
            "winners": winners(totals) if finished else [],
        }
