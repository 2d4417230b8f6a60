"""The cards, the table and the rule variants (RULES.md sections 1 and 2.10, 3).

Everything here is a constant or a small validated value: the engine, the
scorekeeper and every adapter read the facts of the game from this module.
"""

from __future__ import annotations

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


class RulesError(ValueError):
    """Rules options that are unknown or out of range."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule variants in force (RULES.md 2.10 `ender_penalty`, 3 `target_score`).

    The defaults are the official rules: the ender's score is doubled only when
    above 0 and not the single lowest, and the game ends when a total reaches 100.
    """

    target_score: int = DEFAULT_TARGET_SCORE
    ender_penalty: EnderPenalty = "positive"

    def __post_init__(self) -> None:
        if isinstance(self.target_score, bool) or not isinstance(self.target_score, int):
            raise RulesError(f"target_score must be an integer, not {self.target_score!r}")
        if self.target_score < 1:
            raise RulesError(f"target_score must be at least 1, not {self.target_score}")
        if self.ender_penalty not in ENDER_PENALTIES:
            raise RulesError(
                f"ender_penalty must be one of {', '.join(ENDER_PENALTIES)}, "
                f"not {self.ender_penalty!r}"
            )

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Read the `rules` object of a game record; unknown keys are an error."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object, not {type(data).__name__}")
        unknown = sorted(set(data) - {"target_score", "ender_penalty"})
        if unknown:
            raise RulesError(f"unknown rule {', '.join(map(repr, unknown))}")
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
