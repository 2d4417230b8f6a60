"""The observation array's layout: what one seat may see (RULES.md 2), as
fixed-size numbers, and where each field sits.

`Layout(num_players, slots)` names every field of the array, its offset and
size; docs/env.md describes each one. `Layout.floats(target_score)` scales
it to float32 for a network (`to_float`): each field divided by its natural
size, so that every entry lies in a small documented range. Seats are relative: slot 0 is the
viewer, slot j the seat j places after it in the order of play (RULES.md 1),
and slots past the table's players (`slots > num_players`) are padding. Both
encoders read it: the reference writer (`skyjo.bots.encoding.Writer`, fed
from an `Observation` or, by `skyjo.env.encoding`, from the engine's state)
and the kernel's compiled one (`skyjo.kernel.encoding`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from skyjo.engine import Phase
from skyjo.rules import (
    CARD_COUNTS,
    CARD_VALUES,
    DECK_SIZE,
    GRID_SIZE,
    VARIANTS,
    Rules,
    Variant,
)

#: The dtype of every observation array: every field is an exact small integer.
DTYPE = np.int16
#: Card values -2..12 index the count fields: value v is at v - LOWEST.
LOWEST = min(CARD_VALUES)
NUM_VALUES = len(CARD_VALUES)
#: The bound of the totals field, int16's (a game would need some 1,900 rounds to pass it).
TOTAL_BOUND = 2**15 - 1
#: Per seat slot: 12 face-up values, 12 face-down flags, 12 cleared flags.
SLOT_SIZE = 3 * GRID_SIZE
_HIGHEST = max(CARD_VALUES)
_PHASES = len(Phase)


def _fields(slots: int) -> tuple[tuple[str, int, float, float], ...]:
    """Each field: name, size, lowest and highest value."""
    return (
        *(("grids", GRID_SIZE, LOWEST, _HIGHEST), ("grids", 2 * GRID_SIZE, 0, 1)) * slots,
        ("present", slots, 0, 1),
        ("totals", slots, -TOTAL_BOUND - 1, TOTAL_BOUND),
        ("to_act", slots, 0, 1),
        ("ender", slots, 0, 1),
        ("starter", slots, 0, 1),
        ("visible_counts", NUM_VALUES, 0, max(CARD_COUNTS.values())),
        ("draw_known_counts", NUM_VALUES, 0, max(CARD_COUNTS.values())),
        ("discard_top", 1, LOWEST, _HIGHEST),
        ("discard_size", 1, 0, DECK_SIZE),
        ("draw_size", 1, 0, DECK_SIZE),
        ("reshuffled", 1, 0, 1),
        ("held_value", 1, LOWEST, _HIGHEST),
        ("held_known", 1, 0, 1),
        ("held_from_draw", 1, 0, 1),
        ("held_from_discard", 1, 0, 1),
        ("phase", _PHASES, 0, 1),
        ("round", 1, 0, TOTAL_BOUND),
        *(_variant_field(variant) for variant in VARIANTS),
    )


def _variant_field(variant: Variant) -> tuple[str, int, float, float]:
    """A rule variant's field (`rules.VARIANTS`, last, in their order): a choice
    is one-hot, an integer is itself."""
    if variant.choices:
        return (variant.name, len(variant.choices), 0, 1)
    return (variant.name, 1, 0, TOTAL_BOUND)


def variant_values(rules: Rules) -> np.ndarray:
    """The variants' fields of `rules`, the array's last (`_variant_field`), as both
    encoders write them: a choice's code one-hot, an integer as it is."""
    parts = []
    for variant in VARIANTS:
        value = getattr(rules, variant.name)
        if variant.choices:
            part = np.zeros(len(variant.choices), DTYPE)
            part[variant.code(value)] = 1
        else:
            part = np.array([value], DTYPE)
        parts.append(part)
    return np.concatenate(parts)


def _variant_scale(variant: Variant) -> tuple[float, tuple[float, float] | None]:
    """A rule variant's float scale: a choice as it is, an integer over its highest."""
    return (1.0, None) if variant.choices else (variant.high, (0.0, 1.0))


#: The float32 observation (`Layout.floats`): per field, the divisor of its
#: integers and the range the quotient is clipped to (None: the field's own
#: bounds, divided). The totals are in targets (1.0: a total at the target),
#: clipped to +-4 (a game's totals stay within -1 and 3.9 targets at the
#: default target of 100); the round index saturates at 20 rounds.
FLOAT_SCALES: dict[str, tuple[float, tuple[float, float] | None]] = {
    "grids": (1.0, None),  # the values' plane is divided by 12 (`Layout.floats`)
    "present": (1.0, None),
    "totals": (0.0, (-4.0, 4.0)),  # divided by the target score
    "to_act": (1.0, None),
    "ender": (1.0, None),
    "starter": (1.0, None),
    "visible_counts": (max(CARD_COUNTS.values()), None),
    "draw_known_counts": (max(CARD_COUNTS.values()), None),
    "discard_top": (_HIGHEST, None),
    "discard_size": (DECK_SIZE, None),
    "draw_size": (DECK_SIZE, None),
    "reshuffled": (1.0, None),
    "held_value": (_HIGHEST, None),
    "held_known": (1.0, None),
    "held_from_draw": (1.0, None),
    "held_from_discard": (1.0, None),
    "phase": (1.0, None),
    "round": (20.0, (0.0, 1.0)),
    **{variant.name: _variant_scale(variant) for variant in VARIANTS},
}


@dataclass(frozen=True)
class Layout:
    """Where each field sits in the array of a `num_players` table with `slots`
    seat slots (`slots >= num_players`; the default is the table's size)."""

    num_players: int
    slots: int = 0
    offsets: dict[str, slice] = field(init=False, repr=False)
    size: int = field(init=False)
    low: np.ndarray = field(init=False, repr=False)
    high: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        slots = self.slots or self.num_players
        if slots < self.num_players:
            raise ValueError(f"{slots} slots cannot hold {self.num_players} players")
        object.__setattr__(self, "slots", slots)
        offsets, lows, highs, at = {}, [], [], 0
        for name, size, low, high in _fields(slots):
            first = offsets.get(name, slice(at, at)).start
            offsets[name] = slice(first, at + size)
            lows += [low] * size
            highs += [high] * size
            at += size
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "size", at)
        object.__setattr__(self, "low", np.array(lows, DTYPE))
        object.__setattr__(self, "high", np.array(highs, DTYPE))

    def start(self, name: str) -> int:
        return self.offsets[name].start

    def grid(self, slot: int, plane: int = 0) -> slice:
        """Slot `slot`'s 12 values (plane 0), face-down flags (1) or cleared flags (2)."""
        first = self.start("grids") + slot * SLOT_SIZE + plane * GRID_SIZE
        return slice(first, first + GRID_SIZE)

    def fields(self) -> list[tuple[str, int, int]]:
        """(name, offset, size) of every field, in order."""
        return [(name, s.start, s.stop - s.start) for name, s in self.offsets.items()]

    def floats(self, target_score: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The float32 observation of a game to `target_score` (`to_float`):
        per entry, the factor its integer is multiplied by and the bounds the
        product is clipped to (`FLOAT_SCALES`; the grids' card values and the
        cards' fields divided by 12, counts by 15, pile sizes by 150, totals by
        the target). Three float32 arrays of the layout's size."""
        scale = np.ones(self.size, np.float32)
        low, high = self.low.astype(np.float32), self.high.astype(np.float32)
        for name, at in self.offsets.items():
            divisor, clip = FLOAT_SCALES[name]
            if name == "totals":
                divisor = target_score
            scale[at] = np.float32(1 / divisor)
            if clip is None:
                low[at], high[at] = low[at] * scale[at], high[at] * scale[at]
            else:
                low[at], high[at] = clip
        for slot in range(self.slots):
            values = self.grid(slot)
            scale[values] = np.float32(1 / _HIGHEST)
            low[values], high[values] = LOWEST * scale[values], _HIGHEST * scale[values]
        return scale, low, high

    def clipped(self) -> np.ndarray:
        """The entries whose float bounds are a clip (`FLOAT_SCALES`), not the
        field's own bounds scaled: only these may need clipping."""
        found = [
            np.arange(self.size)[at] for name, at in self.offsets.items() if FLOAT_SCALES[name][1]
        ]
        return np.concatenate(found).astype(np.int64)


def to_float(array: np.ndarray, scale: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The float32 observation of an integer one (`Layout.floats`): each entry
    times its factor, in float32, clipped to its bounds."""
    return np.minimum(np.maximum(array.astype(np.float32) * scale, low), high)
