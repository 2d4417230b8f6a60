"""The database thread: every read and write of the rooms' store, in order, off the
event loop; steps of many rooms written together (a group commit)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from skyjo.web.storage import MoveRecord, RoomRecord, Store


class Writes:
    """One thread's work on `store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._db = ThreadPoolExecutor(1, thread_name_prefix="skyjo-db")
        #: Steps waiting for the next `append` transaction, each with its room's future.
        self._moves: list[tuple[MoveRecord, asyncio.Future[None]]] = []
        self._appender: asyncio.Task[None] | None = None

    async def run(self, function: Any, *args: Any) -> Any:
        """`function(*args)` in the database thread."""
        return await asyncio.get_running_loop().run_in_executor(self._db, function, *args)

    async def save(self, record: RoomRecord) -> None:
        """Write a room's record to the database (in the database thread)."""
        await self.run(self.store.save, record)

    async def append(self, move: MoveRecord) -> None:
        """Add a step to its room's move log; returns once it is committed. Steps
        of other rooms that come meanwhile wait for the transaction in progress,
        then go in the next, together (a group commit): one commit for many steps
        when many rooms play at once, and none waits for more than two."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._moves.append((move, future))
        if self._appender is None or self._appender.done():
            self._appender = asyncio.create_task(self._append_all(), name="skyjo moves")
        await future

    async def _append_all(self) -> None:
        """Write the waiting steps, a transaction at a time, until none waits. A
        transaction that fails is tried again a step at a time: one room's bad
        step (a number already there) fails that room's alone."""
        while self._moves:
            batch, self._moves = self._moves, []
            try:
                await self.run(self.store.append, [move for move, _ in batch])
            except Exception:
                for move, future in batch:  # each alone: a room's failure is its own
                    try:
                        await self.run(self.store.append, [move])
                    except Exception as failure:  # the room hears of it (`Room._commit`)
                        if not future.done():
                            future.set_exception(failure)
                    else:
                        if not future.done():
                            future.set_result(None)
            else:
                for _, future in batch:
                    if not future.done():
                        future.set_result(None)

    async def flush(self) -> None:
        """Wait until the steps already made are written."""
        if self._appender is not None:
            await self._appender

    def close(self) -> None:
        """Stop the thread once its work is done."""
        self._db.shutdown(wait=True)
