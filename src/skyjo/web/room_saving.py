"""What the database holds of a room, and the writes that keep it so (`storage`).

A room saves each change under its lock: a step appended to its move log when
its snapshot holds everything else and is recent, else a whole snapshot
(`RoomRecord`); a snapshot of the match saved last writes the rest of the
room only (`RoomRecord.same_match`). `Saving` remembers what the last write
left in the database, so that the room knows which write a change needs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from skyjo.web.storage import MoveRecord, RoomRecord

#: A room's snapshot is written at least every this many steps (and at a round's
#: end, the game's, and any change but a step): a restart plays again at most this
#: many steps of a room's move log (`storage`).
SNAPSHOT_EVERY = 64

Saver = Callable[[RoomRecord], Awaitable[None]]
#: Adds a step to its room's move log (`Lobby.append`), returning once it is committed.
Appender = Callable[[MoveRecord], Awaitable[None]]


class Saving:
    """A room's writes, and what the last of them left in the database."""

    def __init__(self, save: Saver, append: Appender | None, steps: int) -> None:
        """`save` writes a snapshot; `append` a step to the move log (None: every
        step writes a snapshot); `steps`: the steps of the snapshot loaded."""
        self._save = save
        self._append = append
        #: The steps and the options the database's snapshot holds: a step appended to
        #: the move log needs the same options and a recent snapshot. (None: unknown,
        #: as after a load: the next step writes a snapshot.)
        self.steps = steps
        self.options: dict[str, Any] | None = None
        #: What identifies the match the last snapshot wrote (None: unknown): a
        #: snapshot of the same one writes the rest of the room only.
        self.match: tuple[Any, ...] | None = None
        #: The round-end wait the database holds (the options' `round_end`).
        self.wait: dict[str, Any] | None = None

    def holds_match(self, key: tuple[Any, ...]) -> bool:
        """Whether the last snapshot wrote the match `key` identifies."""
        return key == self.match

    async def snapshot(self, record: RoomRecord, key: tuple[Any, ...]) -> None:
        """Write the room's snapshot `record` (of the match `key` identifies)."""
        self.options = self.match = None  # a failed write is not saved
        await self._save(record)
        self.wait = record.options.get("round_end")
        self.steps, self.options = record.steps, record.options
        self.match = key

    def appends(self, steps: int, over: bool, options: dict[str, Any]) -> bool:
        """Whether a step (the game now at `steps`, `over` or not, the room's
        options `options`) goes to the move log: the snapshot holds everything
        else (the same options, the game not over) and is recent (`SNAPSHOT_EVERY`).
        A round's end changes the options (its wait), and its deal again: each
        writes a snapshot."""
        return (
            self._append is not None
            and not over
            and steps - self.steps < SNAPSHOT_EVERY
            and self.options == options
        )

    async def step(self, move: MoveRecord) -> None:
        """Append `move` to the move log (`appends` said it may)."""
        assert self._append is not None
        try:
            await self._append(move)
        except BaseException:
            self.options = None  # a step missing from the log: the next saves all
            raise
