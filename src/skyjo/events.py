"""Events and history: what happened at a step, and every action of a game.

- `Event`: something that happened, for interfaces to show (`step` appends
  them when given a list; `step_with_events` returns them). `EVENT_KINDS`
  lists every kind in the order they can happen; `visible_event` hides a
  drawn card from the other players until it is placed (RULES.md 2.5).
- `History`: every action of a game, oldest first, as a state holds it.

The engine's `step` builds these events and its states hold a `History`, so
`skyjo.engine` imports this module and this module imports nothing of the
engine: there is no import circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from skyjo.rules import COLS


class History:
    """Every action of a game, oldest first: an immutable sequence of ints that
    grows by one action in constant time (amortized).

    States along one game share a buffer: a state's history is the first
    `length` bytes of it. Appending to the newest history extends the buffer in
    place; appending to an older one (a search trying several moves from one
    state) copies its prefix first. The appended byte is checked after the
    append, so two threads extending the same history never see each other's
    action. So replaying a long game is linear, where concatenating bytes was
    quadratic.
    """

    __slots__ = ("_buffer", "_length")

    def __init__(self, actions: bytes | bytearray | Iterable[int] = b"") -> None:
        self._buffer = bytearray(actions)
        self._length = len(self._buffer)

    def plus(self, action: int) -> History:
        """This history followed by `action`."""
        buffer, length = self._buffer, self._length
        if len(buffer) == length:
            buffer.append(action)
            if buffer[length] == action:  # our byte, not another thread's
                return _history(buffer, length + 1)
        copy = buffer[:length]
        copy.append(action)
        return _history(copy, length + 1)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[int]:
        return iter(self._buffer[: self._length])

    def __getitem__(self, index: int) -> int:
        if not -self._length <= index < self._length:
            raise IndexError("history index out of range")
        return self._buffer[index % self._length]

    def to_bytes(self) -> bytes:
        return bytes(self._buffer[: self._length])

    def count(self, action: int) -> int:
        return self._buffer.count(action, 0, self._length)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._length == other._length and (
                self._buffer is other._buffer or self.to_bytes() == other.to_bytes()
            )
        if isinstance(other, bytes | bytearray):
            return self.to_bytes() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def __repr__(self) -> str:
        return f"History({self.to_bytes()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return History, (self.to_bytes(),)


def _history(buffer: bytearray, length: int) -> History:
    history = History.__new__(History)
    history._buffer = buffer
    history._length = length
    return history


#: Every kind of `Event`, in the order they can happen.
EVENT_KINDS = (
    "dealt",
    "revealed",
    "drew",
    "took_discard",
    "exchanged",
    "discarded",
    "flipped",
    "column_cleared",
    "reshuffled",
    "final_turns",
    "round_ended",
    "ender_doubled",
    "game_over",
)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for interfaces to show (see `visible_event`).

    By `kind` (`position` is a grid index, row * 4 + col):

    - `dealt`: a round was dealt (from the second round on);
    - `revealed`: `player` turned up `card` at `position` in the opening; at
      the round's end, `cards` lists the player's face-down cards turned up;
    - `drew` (`card`, hidden from the others by `visible_event`), `took_discard`
      (`card`);
    - `exchanged`: `card` went to `position`, `cards` holds the card it replaced;
    - `discarded` (`card`) then `flipped` (`card` turned up at `position`);
    - `column_cleared`: `cards` left `player`'s column, `position` is the grid
      index of its top card (so also the column's number);
    - `reshuffled`: `count` cards became the draw pile;
    - `final_turns`: `player` ended the round;
    - `round_ended` (`player` is the ender, `scores` the round scores),
      `ender_doubled` (`card` is the doubled score), `game_over` (`scores` the totals).
    """

    kind: str
    player: int | None = None
    card: int | None = None
    position: int | None = None
    cards: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for name in ("player", "card", "position", "cards", "scores", "count"):
            value = getattr(self, name)
            if value is not None:
                data[name] = list(value) if isinstance(value, tuple) else value
        if self.position is not None:
            data["position"] = list(divmod(self.position, COLS))
        return data


def visible_event(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it: a drawn card is seen only by the drawer
    until it is placed (RULES.md 2.5)."""
    if event.kind == "drew" and event.player != viewer:
        return Event("drew", event.player)
    return event
