"""The cards, the table and the rule variants (RULES.md sections 1 and 2.10, 3).

Everything here is a constant or a small validated value: the engine, the
scorekeeper and every adapter read the facts of the game from this module.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

ROWS = 3
COLS = 4
GRID_SIZE = ROWS * COLS
#: The grid indices of each column, top to bottom (grids are laid row by row,
#: index = row * COLS + col, RULES.md 5): the one statement of column geometry.
COLUMNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(col + COLS * row for row in range(ROWS)) for col in range(COLS)
)
#: Per grid index, the other positions of its column, top to bottom.
COLUMN_PARTNERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in COLUMNS[index % COLS] if k != index) for index in range(GRID_SIZE)
)
MIN_PLAYERS = 2
MAX_PLAYERS = 8

#: RULES.md 1: five -2, ten -1, fifteen 0, and ten each of 1 to 12.
CARD_COUNTS: dict[int, int] = {-2: 5, -1: 10, 0: 15, **{v: 10 for v in range(1, 13)}}
CARD_VALUES: tuple[int, ...] = tuple(CARD_COUNTS)
#: The 150 cards in sorted order.
DECK: tuple[int, ...] = tuple(v for v, n in CARD_COUNTS.items() for _ in range(n))
DECK_SIZE = len(DECK)

EnderPenalty = Literal["positive", "always", "none"]
ENDER_PENALTIES: tuple[str, ...] = ("positive", "always", "none")
DEFAULT_TARGET_SCORE = 100
#: The bounds of `target_score` (RULES.md 3's variant): a game of a 1-point target
#: ends after its first round; 1,000 is ten official games in one, and keeps every
#: total far inside the rules kernel's integers.
MIN_TARGET_SCORE = 1
MAX_TARGET_SCORE = 1000


class RulesError(ValueError):
    """Rules options that are unknown or out of range. `kind` names the sentence
    (a stable snake_case id) and `params` the values it names, so an interface
    writes it in its own language without reading the English message."""

    def __init__(self, message: str, kind: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.params = dict(params or {})


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule variants in force (RULES.md 2.10 `ender_penalty`, 3 `target_score`).

    The defaults are the official rules: the ender's score is doubled only when
    above 0 and not the single lowest, and the game ends when a total reaches 100.
    """

    target_score: int = DEFAULT_TARGET_SCORE
    ender_penalty: EnderPenalty = "positive"

    def __post_init__(self) -> None:
        """`target_score` is an integer from `MIN_TARGET_SCORE` to `MAX_TARGET_SCORE`,
        `ender_penalty` one of `ENDER_PENALTIES`: every interface gets these bounds."""
        target = self.target_score
        if isinstance(target, bool) or not isinstance(target, int):
            shown = f"{target!r:.40}"
            raise RulesError(
                f"target_score must be an integer, not {shown}",
                "target_not_integer",
                {"value": shown},
            )
        if target < MIN_TARGET_SCORE:
            raise RulesError(
                f"target_score must be at least {MIN_TARGET_SCORE}, not {target}",
                "target_too_low",
                {"min": MIN_TARGET_SCORE, "value": target},
            )
        if target > MAX_TARGET_SCORE:
            # a huge value is shown by its size: str() refuses ints of over 4,300 digits
            shown = str(target) if target < 10**15 else f"about 10^{round(math.log10(target))}"
            raise RulesError(
                f"target_score must be at most {MAX_TARGET_SCORE}, not {shown}",
                "target_too_high",
                {"max": MAX_TARGET_SCORE, "value": shown},
            )
        if self.ender_penalty not in ENDER_PENALTIES:
            choices, shown = ", ".join(ENDER_PENALTIES), f"{self.ender_penalty!r:.40}"
            raise RulesError(
                f"ender_penalty must be one of {choices}, not {shown}",
                "penalty_unknown",
                {"choices": choices, "value": shown},
            )

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Read the `rules` object of a game record; unknown keys are an error."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            kind = type(data).__name__
            raise RulesError(f"rules must be an object, not {kind}", "rules_shape", {"type": kind})
        unknown = sorted(set(data) - {"target_score", "ender_penalty"})
        if unknown:
            shown = f"{', '.join(map(repr, unknown))!s:.60}"
            raise RulesError(f"unknown rule {shown}", "rules_unknown", {"rules": shown})
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {"target_score": self.target_score, "ender_penalty": self.ender_penalty}


def check_player_count(players: Any) -> int:
    """`players` if it is a number of players Skyjo takes (RULES.md 1: 2 to 8),
    else a `ValueError` saying so. Every count of players is checked here."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"the number of players must be an integer, not {players!r:.40}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Skyjo takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    return players


def check_deck(cards: Any) -> tuple[int, ...]:
    """Check that `cards` is exactly the 150 Skyjo cards in some order (RULES.md 1)."""
    if not isinstance(cards, list | tuple):
        raise ValueError(f"a deck must be a list of {DECK_SIZE} cards")
    bad = [c for c in cards if isinstance(c, bool) or not isinstance(c, int)]
    if bad:
        raise ValueError(f"a deck holds card values, not {bad[0]!r}")
    if len(cards) != DECK_SIZE or Counter(cards) != CARD_COUNTS:
        counts = Counter(cards)
        wrong = [
            f"{counts.get(v, 0)} of {v} instead of {CARD_COUNTS.get(v, 0)}"
            for v in sorted(set(counts) | set(CARD_COUNTS))
            if counts.get(v, 0) != CARD_COUNTS.get(v, 0)
        ]
        raise ValueError(
            f"the deck is not the {DECK_SIZE} Skyjo cards ({len(cards)} cards; "
            + "; ".join(wrong[:3])
            + ")"
        )
    return tuple(cards)


def position(index: int) -> tuple[int, int]:
    """The `[row, col]` of grid index 0-11, laid row by row (RULES.md 5)."""
    return divmod(index, COLS)


def index_of(row: int, col: int) -> int:
    """The grid index of `[row, col]`."""
    return row * COLS + col
