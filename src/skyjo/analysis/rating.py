"""A rated decision and the scales it is rated on: the labels' thresholds and
the accuracy curve (docs/review.md), the record's notation of a move
(RULES.md 5, 6)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from skyjo.analysis.check import Check
from skyjo.analysis.evaluator import Worth
from skyjo.engine import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD
from skyjo.rules import position

#: The labels, best first, each with the most expected round points a choice
#: labelled so loses (the last has no bound). Calibrated on bot games
#: (docs/review.md): `search` and `expected` make almost no choice beyond
#: `good`; `random`'s median placement is a mistake.
LABELS: tuple[tuple[str, float], ...] = (
    ("best", 0.05),
    ("good", 0.75),
    ("inaccuracy", 2.0),
    ("mistake", 4.0),
    ("blunder", math.inf),
)
LABEL_NAMES = tuple(name for name, _ in LABELS)
#: lichess's accuracy curve, 103.1668 * exp(-0.04354 * x) - 3.1669, of x the
#: win percentage lost; here x is `POINT` times the round points lost.
CURVE = (103.1668, 0.04354, 3.1669)
#: The percentage points of lichess's curve one round point lost counts for:
#: a decision in Skyjo moves the chance to win the game by a point or two at
#: most, so the curve on the chance itself puts every player near 100; at 10,
#: the ladder spreads from about 60 (`random`) to the mid 90s (docs/review.md).
POINT = 10.0

Progress = Callable[[int, int], None]


#: How a replay marks a label (chess's signs; none for `best` and `good`).
MARKS = {"best": "", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def label_of(loss: float) -> str:
    """The label of a choice losing `loss` expected round points (`LABELS`)."""
    return next(name for name, most in LABELS if loss <= most)


def accuracy(loss: float) -> float:
    """A decision's accuracy (0 to 100) from the round points it lost, by
    lichess's curve (`CURVE`, `POINT`): 100 for no loss, about 64 for 1 point,
    40 for 2, 8 for 5."""
    if loss <= 0:
        return 100.0
    a, k, b = CURVE
    return max(0.0, min(100.0, a * math.exp(-k * POINT * loss) - b))


def target(action: int) -> tuple[str, int]:
    """The kind (`reveal`, `swap` or `flip`) and grid position of an action
    that names a card of the grid."""
    if action >= FLIP:
        return "flip", action - FLIP
    if action >= SWAP:
        return "swap", action - SWAP
    return "reveal", action - REVEAL


def move_of(action: int) -> dict[str, Any]:
    """An engine action in the record's notation (RULES.md 5): {"take": "deck"},
    {"swap": [row, column]}, {"flip": [...]} or {"reveal": [...]}."""
    if action == DRAW:
        return {"take": "deck"}
    if action == TAKE_DISCARD:
        return {"take": "discard"}
    kind, k = target(action)
    return {kind: list(position(k))}


@dataclass(frozen=True, slots=True)
class Decision:
    """One rated decision: where it is in the record (`round` and `turn` index
    its `rounds` and that round's `turns`; `turn` is None for a reveal; `step`
    counts the replay's steps, the first deal 0: `skyjo.replayer.steps`), who
    made it, the `action` played (worth `chosen`) and each legal action's
    worth (`options`; `kinds`: how many kinds of alike options they make), the
    `best` option
    (the action played if it is as good) and its worth `top`, the `loss` in
    expected round points (never negative), the chance to win lost
    (`win_lost`), the label and a reason (`why`: its kind and params,
    `skyjo.analysis.reasons`; `reason`: its English sentence); `luck`: round points the chance
    resolved by this decision gave (positive) or took; `check`: the playouts'
    verdict when one was made; `standing`: each seat's chance to win the game
    at the position before the decision, by the value."""

    round: int
    turn: int | None
    part: str
    step: int
    seat: int
    action: int
    chosen: Worth
    best: int
    top: Worth
    options: Mapping[int, Worth]
    loss: float
    win_lost: float
    label: str
    reason: str = ""
    why: dict[str, Any] = field(default_factory=dict)
    standing: tuple[float, ...] = ()
    kinds: int = 0
    luck: float | None = None
    check: Check | None = None

    @property
    def forced(self) -> bool:
        """Whether the decision had one option only (up to alike ones)."""
        return self.kinds <= 1

    def to_dict(self, names: tuple[str, ...]) -> dict[str, Any]:
        """The decision in `skyjo review --json` (RULES.md 6)."""
        found: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "part": self.part,
            "step": self.step,
            "seat": self.seat,
            "player": names[self.seat],
            "move": move_of(self.action),
            "best": move_of(self.best),
            "loss": round(self.loss, 2),
            "win_lost": round(self.win_lost, 4),
            "label": self.label,
            "reason": self.reason,
            "why": self.why,
            "points": round(self.chosen.points, 2),
            "win": round(self.chosen.win, 4),
            "forced": self.forced,
            "options": [self._option(a, w) for a, w in sorted(self.options.items(), key=_cheapest)],
            "luck": None if self.luck is None else round(self.luck, 2),
            "standing": [round(w, 4) for w in self.standing],
            "check": None,
        }
        if self.check is not None:
            c = self.check
            found["check"] = {
                "worlds": c.worlds,
                "difference": round(c.difference, 2),
                "interval": [round(c.low, 2), round(c.high, 2)],
            }
        return found

    def _option(self, action: int, worth: Worth) -> dict[str, Any]:
        """One legal move in the document: its worth, and its loss and label by the
        value alone (for a page's "try it again"; a choice's own label may be
        lowered by its playout check)."""
        loss = max(0.0, worth.points - self.top.points)
        return {
            "move": move_of(action),
            "points": round(worth.points, 2),
            "win": round(worth.win, 4),
            "loss": round(loss, 2),
            "label": label_of(loss),
        }


def _cheapest(option: tuple[int, Worth]) -> tuple[float, int]:
    """Options in the document's order: fewest expected round points first."""
    return option[1].points, option[0]


def part_of(action: int) -> str:
    """`reveal`, `take` or `place`: the part of a turn an action is."""
    if action < DRAW:
        return "reveal"
    return "take" if action in (DRAW, TAKE_DISCARD) else "place"
