"""Finished games: their records, their replays (kept for the last few asked for),
uploaded records, and the coach's reviews of both.

A finished room's game is read from the room in memory, else from the database;
its record (seed and decks) is given only once the game is over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from skyjo.web.protocol import ProtocolError
from skyjo.web.replays import checked, frames
from skyjo.web.reviews import Reviews
from skyjo.web.room_config import default_title
from skyjo.web.rooms import CODE_LENGTH, Room
from skyjo.web.storage import UPLOAD_ALPHABET, UPLOAD_ID_LENGTH, Store, upload_id

#: How many finished games' replays a server keeps ready.
REPLAY_CACHE = 16
#: Runs a function of the store in the database thread (`Lobby._run_db`).
RunDb = Callable[..., Awaitable[Any]]


def _not_over(code: str) -> ProtocolError:
    return ProtocolError(
        "not_over",
        f"the game of room {code} is still being played: its record, which holds every "
        "deck, is given once the game is over",
    )


class Archive:
    """The finished games of a server: its rooms' (`rooms`, the lobby's, by code)
    and the uploaded ones."""

    def __init__(self, store: Store, rooms: dict[str, Room], run_db: RunDb) -> None:
        """`run_db` runs a function of `store` in the database thread."""
        self.store = store
        self.rooms = rooms
        self._run_db = run_db
        self._replays: dict[str, dict[str, Any]] = {}
        #: The coach's reviews of finished games in flight (kept in the database once made).
        self.reviews = Reviews(store.save_review)

    async def finished(self, code: str) -> dict[str, Any]:
        """What a replay of room `code` shows: `{title, seats, record}`, the record
        whole (seed and decks) and so only once the game is over: `no_room`, or
        `not_over` while it is played."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            async with room.lock:
                if not room.match.over:
                    raise _not_over(code)
                seats = [seat.to_dict() for seat in room.match.seats]
                host = next((i for i, seat in enumerate(room.seats()) if seat["host"]), None)
                return {
                    "title": room.title, "seats": seats, "host": host,
                    "record": room.match.record(),
                }  # fmt: skip
        record = await self._run_db(self.store.load, code) if len(code) == CODE_LENGTH else None
        if record is None:
            raise ProtocolError("no_room", f"there is no room {code!r:.20}")
        if not record.finished:
            raise _not_over(code)
        seats = list(record.match["seats"])
        game = record.match["record"]
        host = record.tokens.get(record.host)
        return {"title": record.title, "seats": seats, "host": host, "record": game}

    async def replay(self, code: str) -> dict[str, Any]:
        """The frames of a finished room's game (`replays.frames`), kept for the
        last few rooms asked for (a finished game never changes)."""
        code = code.strip().upper()
        cached = self._replays.get(code)
        if cached is not None:
            return cached
        game = await self.finished(code)
        shown = await asyncio.to_thread(frames, game["record"])
        host = game["host"]
        seats = [{**seat, "host": i == host} for i, seat in enumerate(game["seats"])]
        named = None if host is None else seats[host]["name"]
        shown.update(
            code=code, title=game["title"], seats=seats,
            default_title=game["title"] == default_title(named),
        )  # fmt: skip
        self._remember(code, shown)
        return shown

    async def upload(self, body: bytes) -> dict[str, Any]:
        """Check an uploaded record (`RecordError` says what is wrong), keep it, and
        answer its replay with its `id` and `link` (`/replay/ID`, stable)."""
        record, shown = await asyncio.to_thread(checked, body)
        key = await self._run_db(self.store.save_upload, record)
        shown.update(id=key, link=f"/replay/{key}")
        self._remember(f"upload:{key}", shown)
        return shown

    async def uploaded(self, key: str) -> dict[str, Any]:
        """The replay of the uploaded record `key` (`no_replay` when there is none)."""
        cached = self._replays.get(f"upload:{key}")
        if cached is not None:
            return cached
        shown = await asyncio.to_thread(frames, await self.record_of("upload", key))
        shown.update(id=key, link=f"/replay/{key}")
        self._remember(f"upload:{key}", shown)
        return shown

    async def record_of(self, kind: str, key: str) -> dict[str, Any]:
        """The record of a finished room's game (`kind` "room") or of an upload."""
        if kind == "room":
            return dict((await self.finished(key))["record"])
        valid = len(key) == UPLOAD_ID_LENGTH and set(key) <= set(UPLOAD_ALPHABET)
        record = await self._run_db(self.store.load_upload, key) if valid else None
        if record is None:
            raise ProtocolError("no_replay", "there is no uploaded game record at this link")
        return dict(record)

    async def room_review(self, code: str, start: bool) -> dict[str, Any]:
        """The review of room `code`'s finished game (`review`)."""
        record = await self.record_of("room", code)
        return await self.review(upload_id(record), record, start)

    async def upload_review(self, key: str, start: bool) -> dict[str, Any]:
        """The review of the uploaded record `key` (`no_replay` when there is none)."""
        return await self.review(key, await self.record_of("upload", key), start)

    async def review(self, key: str, record: dict[str, Any], start: bool) -> dict[str, Any]:
        """The review of a finished game (id `key`): `{"status": "done", "review"}`
        once kept, else its progress (`skyjo.web.reviews`), started if `start`;
        `no_review` when none was asked for."""
        for _ in range(2):  # a review may end between the two looks: look again
            kept = await self._run_db(self.store.load_review, key)
            if kept is not None:
                return {"status": "done", "review": kept}
            progress = self.reviews.progress(key)
            if progress is None and start:
                progress = self.reviews.start(key, record)
            if progress is not None:
                return progress
        raise ProtocolError(
            "no_review", "this game has no review yet: ask for one (POST) to start it"
        )

    def _remember(self, key: str, shown: dict[str, Any]) -> None:
        """Keep a replay for the next visitor (the last `REPLAY_CACHE` asked for)."""
        self._replays[key] = shown
        while len(self._replays) > REPLAY_CACHE:
            self._replays.pop(next(iter(self._replays)))
