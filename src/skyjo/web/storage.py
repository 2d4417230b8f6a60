"""Rooms saved in a database with SQLAlchemy 2.x (SQLite by default, any URL).

A room is one row of `rooms`, its snapshot: its metadata (title, listed, the
hashes of its seats' tokens, its options) and its match as `Match.to_dict()`
JSON, which holds the game record (RULES.md 5, half turns included) and the
secret seed, as of step `steps`. The steps after it are rows of `room_moves`,
one a step (`MoveRecord`: its number, seat and action), appended in one small
transaction (`append`, several rooms' steps at once) before anyone is told of
them; a room loads as its snapshot with those moves played again
(`RoomRecord.moves`, `Match.replay_moves`). The room decides when to write a
whole snapshot instead (`skyjo.web.room_saving.SNAPSHOT_EVERY`: every so many steps,
at a round's end and the game's, whenever anything but the game changed);
`save` then drops the moves the snapshot holds, in the same transaction. So a
server killed at any moment restarts from the last step every client was told
of, and a step costs one short row, not the whole room.

An uploaded game record, once checked, is one row of `uploads`, under an id made
of its content (`upload_id`): the same record uploaded twice is one row, one link.
The review of a finished game (`skyjo.web.reviews`) is one row of `reviews`,
under the same id of its record: a game is reviewed once.

The tables, the scorepad's too, and their versions are `skyjo.persistence`'s:
`Store` brings the database to `SCHEMA_VERSION` when it opens it, and refuses
a newer one (docs/deploy.md). The server hands it the process's one engine.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection
from sqlalchemy import delete as sql_delete
from sqlalchemy import insert as sql_insert
from sqlalchemy import select as sql_select
from sqlalchemy import update as sql_update
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from skyjo.persistence.engine import Source, engine_of, lock_wait
from skyjo.persistence.schema import SCHEMA_VERSION, migrate, schema_version
from skyjo.persistence.tables import MoveRow, ReviewRow, RoomRow, SchemaVersion, UploadRow
from skyjo.web.faults import storage_kind

#: A SQLite file's folder with less free space than this is full to `Store.probe`.
MIN_FREE_BYTES = 256 * 1024
#: How long `Store.probe` waits for a lock another program holds, in seconds.
PROBE_WAIT = 1.0

#: The characters of an upload's id (lower-case base 32) and its length.
UPLOAD_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
UPLOAD_ID_LENGTH = 12


def upload_id(record: dict[str, Any]) -> str:
    """The id of an uploaded record: 12 characters of the SHA-256 of its canonical
    JSON (sorted keys, no spaces), in lower-case base 32 (60 bits)."""
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:UPLOAD_ID_LENGTH]


class StorageError(RuntimeError):
    """A database this server cannot use (a newer schema, say)."""


@dataclass(slots=True)
class RoomRecord:
    """What is stored of a room (tokens only as hashes)."""

    code: str
    title: str
    listed: bool
    host: str
    tokens: dict[str, int | None]
    match: dict[str, Any]
    finished: bool = False
    steps: int = 0
    created_at: float = field(default_factory=time.time)
    #: The room's options: `turn_seconds` (the turn timer, or absent), `bot_speed` (the
    #: bots' pace, `skyjo.web.pace`; absent: normal), `lobby`, `joined`,
    #: and at a round end `round_end` (its wait: `RoundEnd.record`; docs/deploy.md).
    options: dict[str, Any] = field(default_factory=dict)
    #: (Loaded) the steps saved after the snapshot `match`, in order: `(number, seat,
    #: action)`, numbers from `steps` + 1 (`Match.replay_moves`).
    moves: list[tuple[int, int, int]] = field(default_factory=list)
    #: (Saving) the match is the one the room's last save wrote, unchanged (the same
    #: step, seats and stall): its column is not written again and `match` not read.
    same_match: bool = False
    #: (Saving) the game went back to `steps` (an undo, `skyjo.web.undo`): the move
    #: log's steps after it are dropped too, or a load would play them again.
    rewound: bool = False


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One step of room `code`'s game: its number `seq` (the match's steps after it,
    from 1: unique in the room), the seat that made it and the engine's action."""

    code: str
    seq: int
    seat: int
    action: int


class Store:
    """The rooms' database: `append` a step or `save` the room after every step,
    `load` and `active` to resume. Opened on the process's engine, or on a URL (an
    engine of its own, disposed of by `close`: `engine_of`)."""

    def __init__(self, source: Source) -> None:
        self.engine, self._owned = engine_of(source)
        self._migrate()

    def probe(self) -> str | None:
        """None when the database takes a write now, else why not (a kind of
        `skyjo.web.faults`): a SQLite file's disk nearly full, or a write failing or
        waiting `PROBE_WAIT` for a lock another program holds (the version row, written
        unchanged)."""
        folder = _sqlite_folder(self.engine.url)
        if folder is not None:
            space = os.statvfs(folder)
            if space.f_bavail * space.f_frsize < MIN_FREE_BYTES:
                return "storage_full"
        try:
            with self.engine.connect() as connection:
                table = SchemaVersion.__table__
                try:
                    _wait_at_most(connection, PROBE_WAIT)
                    connection.execute(sql_update(table).values(version=table.c.version))
                    connection.commit()
                finally:
                    connection.rollback()
                    _wait_at_most(connection, None)
                    connection.commit()
        except SQLAlchemyError as failure:
            return storage_kind(failure)
        return None

    def save(self, room: RoomRecord) -> None:
        """Write the room's snapshot (update, else insert) and drop the moves it holds
        (numbers up to its `steps`; every one when `rewound`), in one transaction; the
        match as it is unless `same_match`. (SQLAlchemy Core statements: half the time
        of the ORM's merge.)"""
        values = {
            "title": room.title,
            "listed": room.listed,
            "created_at": room.created_at,
            "updated_at": time.time(),
            "finished": room.finished,
            "steps": room.steps,
            "host": room.host,
            "tokens": json.dumps(room.tokens),
            "options": json.dumps(room.options),
        }
        if not room.same_match:
            values["match"] = json.dumps(room.match, separators=(",", ":"))
        table, moves = RoomRow.__table__, MoveRow.__table__
        with self.engine.begin() as connection:
            changed = connection.execute(
                sql_update(table).where(table.c.code == room.code).values(values)
            )
            if changed.rowcount == 0:
                connection.execute(sql_insert(table).values(code=room.code, **values))
            held = moves.c.code == room.code
            if not room.rewound:
                held &= moves.c.seq <= room.steps
            connection.execute(sql_delete(moves).where(held))

    def append(self, moves: list[MoveRecord]) -> None:
        """Add steps to their rooms' move logs, all in one transaction (one commit
        for many rooms' steps). A step's number already there (a second writer of
        the room) fails the whole transaction: nothing is applied twice."""
        if not moves:
            return
        rows = [{"code": m.code, "seq": m.seq, "seat": m.seat, "action": m.action} for m in moves]
        with self.engine.begin() as connection:
            connection.execute(sql_insert(MoveRow.__table__), rows)

    def load(self, code: str) -> RoomRecord | None:
        """The room with this code (its snapshot and the moves after it), or None."""
        with Session(self.engine) as session:
            row = session.get(RoomRow, code)
            if row is None:
                return None
            record = _record(row)
            query = (
                sql_select(MoveRow.seq, MoveRow.seat, MoveRow.action)
                .where(MoveRow.code == code, MoveRow.seq > row.steps)
                .order_by(MoveRow.seq)
            )
            record.moves = [(seq, seat, action) for seq, seat, action in session.execute(query)]
            return record

    def active(self) -> list[RoomRecord]:
        """Every room whose game is not finished (with its moves), oldest first."""
        query = sql_select(RoomRow).where(RoomRow.finished.is_(False)).order_by(RoomRow.created_at)
        moves = (
            sql_select(MoveRow.code, MoveRow.seq, MoveRow.seat, MoveRow.action)
            .join(RoomRow, RoomRow.code == MoveRow.code)
            .where(RoomRow.finished.is_(False), MoveRow.seq > RoomRow.steps)
            .order_by(MoveRow.code, MoveRow.seq)
        )
        with Session(self.engine) as session:
            records = [_record(row) for row in session.scalars(query)]
            tails: dict[str, list[tuple[int, int, int]]] = {}
            for code, seq, seat, action in session.execute(moves):
                tails.setdefault(code, []).append((seq, seat, action))
        for record in records:
            record.moves = tails.get(record.code, [])
        return records

    def active_codes(self) -> list[str]:
        """The codes of every room whose game is not finished, oldest first."""
        query = (
            sql_select(RoomRow.code).where(RoomRow.finished.is_(False)).order_by(RoomRow.created_at)
        )
        with Session(self.engine) as session:
            return list(session.scalars(query))

    def listed(self, limit: int) -> list[RoomRecord]:
        """The `limit` newest listed rooms whose game is not finished (snapshots only:
        the front page's list, in a cluster, where other processes hold rooms)."""
        query = (
            sql_select(RoomRow)
            .where(RoomRow.listed.is_(True), RoomRow.finished.is_(False))
            .order_by(RoomRow.created_at.desc())
            .limit(limit)
        )
        with Session(self.engine) as session:
            return [_record(row) for row in session.scalars(query)]

    def save_upload(self, record: dict[str, Any]) -> str:
        """Keep an uploaded record (once: the same record gives the same id); its id."""
        key = upload_id(record)
        with Session(self.engine) as session, session.begin():
            if session.get(UploadRow, key) is None:
                document = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
                session.add(UploadRow(id=key, uploaded_at=time.time(), record=document))
        return key

    def load_upload(self, key: str) -> dict[str, Any] | None:
        """The uploaded record with this id, or None."""
        with Session(self.engine) as session:
            row = session.get(UploadRow, key)
            return None if row is None else json.loads(row.record)

    def save_review(self, key: str, review: dict[str, Any]) -> None:
        """Keep the review of the game whose record has the id `key` (once)."""
        with Session(self.engine) as session, session.begin():
            if session.get(ReviewRow, key) is None:
                document = json.dumps(review, separators=(",", ":"), ensure_ascii=False)
                session.add(ReviewRow(id=key, reviewed_at=time.time(), review=document))

    def load_review(self, key: str) -> dict[str, Any] | None:
        """The review kept under `key`, or None."""
        with Session(self.engine) as session:
            row = session.get(ReviewRow, key)
            return None if row is None else json.loads(row.review)

    def version(self) -> int:
        """The database's schema version."""
        return schema_version(self.engine)

    def close(self) -> None:
        """Let go of the engine if it is the store's own (a shared one is its maker's)."""
        if self._owned:
            self.engine.dispose()

    def _migrate(self) -> None:
        def too_new(version: int) -> StorageError:
            return StorageError(
                f"the database has schema version {version}, newer than this "
                f"server's {SCHEMA_VERSION}: upgrade skyjo"
            )

        migrate(self.engine, too_new)


def _sqlite_folder(url: URL) -> str | None:
    """The folder of a SQLite database file (None: another database, or in memory)."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return os.path.dirname(os.path.abspath(url.database)) or "."


def _wait_at_most(connection: Connection, seconds: float | None) -> None:
    """Make `connection` wait at most `seconds` for another program's lock (None: the
    engine's own wait again). SQLite's busy timeout; PostgreSQL's `lock_timeout`."""
    if connection.dialect.name == "sqlite":
        milliseconds = int(1000 * (lock_wait() if seconds is None else seconds))
        connection.exec_driver_sql(f"PRAGMA busy_timeout = {milliseconds}")
    elif connection.dialect.name == "postgresql":
        setting = "DEFAULT" if seconds is None else f"'{int(1000 * seconds)}ms'"
        connection.exec_driver_sql(f"SET lock_timeout = {setting}")


def _record(row: RoomRow) -> RoomRecord:
    return RoomRecord(
        code=row.code,
        title=row.title,
        listed=row.listed,
        host=row.host,
        tokens=json.loads(row.tokens),
        match=json.loads(row.match),
        finished=row.finished,
        steps=row.steps,
        created_at=row.created_at,
        options=json.loads(row.options or "{}"),
    )
