"""The cards, the table and the rule variants (RULES.md sections 1 and 2.10, 3).

Everything here is a constant or a small validated value: the engine, the
scorekeeper and every adapter read the facts of the game from this module.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from skyjo.errors import SkyjoError

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


@dataclass(frozen=True, slots=True)
class Variant:
    """One rule variant, declared once (docs/architecture.md): every interface, the
    kernel and the encoders read their variants from `VARIANTS`.

    A variant takes one of `choices` (words), or else an integer from `low` to
    `high`. `key` names its wording in the interfaces' language tables (the label
    `front.KEY`, a choice `KEY.CHOICE`) and the kinds of its refusals (`KEY_unknown`,
    `KEY_not_integer`, `KEY_too_low`, `KEY_too_high`); `section` is its RULES.md section.
    """

    name: str
    default: int | str
    key: str
    section: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0

    @property
    def kinds(self) -> dict[str, tuple[str, ...]]:
        """The kinds of `RulesError` that refuse a value of this variant, with their params."""
        if self.choices:
            return {f"{self.key}_unknown": ("choices", "value")}
        return {
            f"{self.key}_not_integer": ("value",),
            f"{self.key}_too_low": ("min", "value"),
            f"{self.key}_too_high": ("max", "value"),
        }

    def code(self, value: int | str) -> int:
        """The kernel's integer for `value` (a choice's index; an integer itself)."""
        return self.choices.index(str(value)) if self.choices else int(value)

    def check(self, value: Any) -> None:
        """Refuse a value this variant does not take, with a `RulesError` naming it."""
        if self.choices:
            _check_choice(self, value)
        else:
            _check_integer(self, value)

    def facts(self) -> dict[str, Any]:
        """What a client needs to offer this variant: name, wording key, default and
        its choices or bounds."""
        values = {"choices": list(self.choices)} if self.choices else {}
        bounds = {} if self.choices else {"min": self.low, "max": self.high}
        return {"name": self.name, "key": self.key, "default": self.default, **values, **bounds}


#: The rule variants (RULES.md 2.10, 3), in `Rules`' order. A new variant is added
#: here, to `Rules`, to the engine and to the kernel's rules (`kernel.table`'s slots
#: and `start_game`); tests/test_variants.py checks every other part follows.
VARIANTS: tuple[Variant, ...] = (
    Variant(
        "target_score",
        DEFAULT_TARGET_SCORE,
        "target",
        "3",
        low=MIN_TARGET_SCORE,
        high=MAX_TARGET_SCORE,
    ),
    Variant("ender_penalty", "positive", "penalty", "2.10", choices=ENDER_PENALTIES),
)
#: The variants by name.
VARIANT: dict[str, Variant] = {variant.name: variant for variant in VARIANTS}


def _check_choice(variant: Variant, value: Any) -> None:
    if value not in variant.choices:
        choices, shown = ", ".join(variant.choices), f"{value!r:.40}"
        raise RulesError(
            f"{variant.name} must be one of {choices}, not {shown}",
            f"{variant.key}_unknown",
            {"choices": choices, "value": shown},
        )


def _check_integer(variant: Variant, value: Any) -> None:
    name, key = variant.name, variant.key
    if isinstance(value, bool) or not isinstance(value, int):
        shown = f"{value!r:.40}"
        raise RulesError(
            f"{name} must be an integer, not {shown}", f"{key}_not_integer", {"value": shown}
        )
    if value < variant.low:
        raise RulesError(
            f"{name} must be at least {variant.low}, not {value}",
            f"{key}_too_low",
            {"min": variant.low, "value": value},
        )
    if value > variant.high:
        # a huge value is shown by its size: str() refuses ints of over 4,300 digits
        shown = str(value) if value < 10**15 else f"about 10^{round(math.log10(value))}"
        raise RulesError(
            f"{name} must be at most {variant.high}, not {shown}",
            f"{key}_too_high",
            {"max": variant.high, "value": shown},
        )


class RulesError(SkyjoError):
    """Rules options that are unknown or out of range, a number of players Skyjo
    does not take, a deck that is not the 150 cards (`skyjo.errors`)."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        **{kind: params for variant in VARIANTS for kind, params in variant.kinds.items()},
        "rules_shape": ("type",),
        "rules_unknown": ("rules",),
        "players_not_integer": ("value",),
        "player_count": ("min", "max", "count"),
        "deck_not_list": ("size",),
        "deck_not_cards": ("value",),
        "deck_wrong": ("size", "count", "wrong"),
    }


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule variants in force (RULES.md 2.10 `ender_penalty`, 3 `target_score`).

    The defaults are the official rules: the ender's score is doubled only when
    above 0 and not the single lowest, and the game ends when a total reaches 100.
    """

    target_score: int = DEFAULT_TARGET_SCORE
    ender_penalty: EnderPenalty = "positive"

    def __post_init__(self) -> None:
        """Each variant's value is one its `Variant` takes (its choices or bounds):
        every interface gets these refusals."""
        for variant in VARIANTS:
            variant.check(getattr(self, variant.name))

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Read the `rules` object of a game record; unknown keys are an error."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            kind = type(data).__name__
            raise RulesError(f"rules must be an object, not {kind}", "rules_shape", {"type": kind})
        unknown = sorted(set(data) - set(VARIANT))
        if unknown:
            shown = f"{', '.join(map(repr, unknown))!s:.60}"
            raise RulesError(f"unknown rule {shown}", "rules_unknown", {"rules": shown})
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {variant.name: getattr(self, variant.name) for variant in VARIANTS}


def check_player_count(players: Any) -> int:
    """`players` if it is a number of players Skyjo takes (RULES.md 1: 2 to 8),
    else a `RulesError` saying so. Every count of players is checked here."""
    if isinstance(players, bool) or not isinstance(players, int):
        shown = f"{players!r:.40}"
        raise RulesError(
            f"the number of players must be an integer, not {shown}",
            "players_not_integer",
            {"value": shown},
        )
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(
            f"Skyjo takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}",
            "player_count",
            {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": players},
        )
    return players


def check_deck(cards: Any) -> tuple[int, ...]:
    """Check that `cards` is exactly the 150 Skyjo cards in some order (RULES.md 1);
    a `RulesError` says what is wrong."""
    if not isinstance(cards, list | tuple):
        raise RulesError(
            f"a deck must be a list of {DECK_SIZE} cards", "deck_not_list", {"size": DECK_SIZE}
        )
    bad = [c for c in cards if isinstance(c, bool) or not isinstance(c, int)]
    if bad:
        shown = f"{bad[0]!r:.40}"
        raise RulesError(
            f"a deck holds card values, not {shown}", "deck_not_cards", {"value": shown}
        )
    if len(cards) != DECK_SIZE or Counter(cards) != CARD_COUNTS:
        counts = Counter(cards)
        wrong = [
            f"{counts.get(v, 0)} of {v} instead of {CARD_COUNTS.get(v, 0)}"
            for v in sorted(set(counts) | set(CARD_COUNTS))
            if counts.get(v, 0) != CARD_COUNTS.get(v, 0)
        ]
        shown = "; ".join(wrong[:3])
        held = f"{len(cards)} card" if len(cards) == 1 else f"{len(cards)} cards"
        raise RulesError(
            f"the deck is not the {DECK_SIZE} Skyjo cards ({held}; {shown})",
            "deck_wrong",
            {"size": DECK_SIZE, "count": len(cards), "wrong": shown},
        )
    return tuple(cards)


def position(index: int) -> tuple[int, int]:
    """The `[row, col]` of grid index 0-11, laid row by row (RULES.md 5)."""
    return divmod(index, COLS)


def index_of(row: int, col: int) -> int:
    """The grid index of `[row, col]`."""
    return row * COLS + col
