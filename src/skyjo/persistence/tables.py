"""Every table of the database, one declarative `Base`: the web app's rooms, moves,
uploads and reviews, the scorepad's sheets, keys and changes, and a cluster's rate
buckets, versioned together (`skyjo.persistence.schema`, docs/deploy.md)."""

from __future__ import annotations

from typing import Any, ClassVar

from sqlalchemy import Boolean, Double, Float, Integer, String, Text
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.schema import CreateTable


class Base(DeclarativeBase):
    """Every table of the database."""


class SchemaVersion(Base):
    """One row: the version of every table."""

    __tablename__ = "schema_version"
    version: Mapped[int] = mapped_column(Integer, primary_key=True)


class RoomRow(Base):
    """A room of the web app (`skyjo.web.storage`): metadata and its match."""

    __tablename__ = "rooms"
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    listed: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float, index=True)
    finished: Mapped[bool] = mapped_column(Boolean, index=True)
    steps: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(64))  #: the hash of the host's token
    tokens: Mapped[str] = mapped_column(Text)  #: JSON {token hash: seat or null}
    match: Mapped[str] = mapped_column(Text)  #: JSON of Match.to_dict()
    options: Mapped[str] = mapped_column(Text, default="{}")  #: JSON {"turn_seconds"...} (v2)


class MoveRow(Base):
    """A step of a room's game since its row in `rooms` was written (v5): the row
    holds the room as of its `steps`, and its moves `seq` = steps + 1, + 2, ...
    follow in this table, one row a step, appended and never changed
    (`skyjo.web.storage`). `seq` is the step's number, unique in its room."""

    __tablename__ = "room_moves"
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)  #: the seat that made it (checked when replayed)
    action: Mapped[int] = mapped_column(Integer)  #: the engine's action id


class UploadRow(Base):
    """A game record someone uploaded, checked before it was kept (v3)."""

    __tablename__ = "uploads"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)  #: `storage.upload_id`
    uploaded_at: Mapped[float] = mapped_column(Float)
    record: Mapped[str] = mapped_column(Text)  #: JSON of the record (RULES.md 5), as read


class ReviewRow(Base):
    """The review of a finished game (`skyjo.analysis`, `skyjo review --json`),
    under the id of its record's content (`storage.upload_id`): a game is
    reviewed once (v6)."""

    __tablename__ = "reviews"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    reviewed_at: Mapped[float] = mapped_column(Float)
    review: Mapped[str] = mapped_column(Text)  #: JSON of the review


class SheetRow(Base):
    """A scoresheet (`skyjo.scorepad.store`): what a list shows, and what its
    changes start from."""

    __tablename__ = "scorepad_sheets"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    players: Mapped[str] = mapped_column(Text)  #: JSON list of names, seat order
    rules: Mapped[str] = mapped_column(Text)  #: JSON of Rules.to_dict()
    base: Mapped[str] = mapped_column(Text)  #: JSON list of rounds (an imported sheet's)
    revision: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    finished: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float, index=True)
    #: SHA-256 of the maker's token; NULL: made before owners (the scorepad's
    #: own version 2, before version 4), open to all.
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class KeyRow(Base):
    """A link's secret (its SHA-256) and what it lets its holder do with a sheet."""

    __tablename__ = "scorepad_keys"
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    sheet_id: Mapped[str] = mapped_column(String(16), index=True)
    access: Mapped[str] = mapped_column(String(8))  #: READ or EDIT
    created_at: Mapped[float] = mapped_column(Float)


class ChangeRow(Base):
    """Change number `seq` (from 1) of a sheet, as JSON (`Sheet.changes`)."""

    __tablename__ = "scorepad_changes"
    sheet_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    change: Mapped[str] = mapped_column(Text)
    made_at: Mapped[float] = mapped_column(Float)


#: The `info` key of a table PostgreSQL keeps out of its write-ahead log.
UNLOGGED = "unlogged"


class RateBucketRow(Base):
    """A token bucket of a cluster's hourly limits (`skyjo.web.limits.SharedLimits`),
    per kind of limit and client address, on the database's clock (v7). UNLOGGED on
    PostgreSQL: worth nothing after a crash of the database (every
    client gets its allowance back), and cheaper to write. Made everywhere with the
    other tables; only a cluster (PostgreSQL) writes it."""

    __tablename__ = "skyjo_rate_buckets"
    __table_args__: ClassVar[dict[str, Any]] = {"info": {UNLOGGED: True}}
    kind: Mapped[str] = mapped_column(Text, primary_key=True)
    address: Mapped[str] = mapped_column(Text, primary_key=True)
    tokens: Mapped[float] = mapped_column(Double)
    at: Mapped[float] = mapped_column(Double)  #: seconds since the epoch, the database's
    spent: Mapped[bool] = mapped_column(Boolean)  #: whether the last event took a token


@compiles(CreateTable, "postgresql")
def _create_unlogged(create: CreateTable, compiler: Any, **kw: Any) -> str:
    """PostgreSQL's CREATE TABLE, UNLOGGED for a table whose `info` says so."""
    statement: str = compiler.visit_create_table(create, **kw)
    if create.element.info.get(UNLOGGED):
        statement = statement.replace("CREATE TABLE", "CREATE UNLOGGED TABLE", 1)
    return statement
