"""The one database of the web app's rooms and the scorepad's sheets: where it
is (`database_url`), the engine for a SQLAlchemy URL, every table (one
declarative `Base`) and one schema version with its migrations (`migrate`).

The tables of both parts are declared here, so that whichever part opens a
database first creates and upgrades all of them: one history, one version
row in `schema_version` (docs/deploy.md). SQLite by default, PostgreSQL by URL.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Connection,
    Engine,
    Float,
    Integer,
    String,
    Text,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy import select as sql_select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

from skyjo.rules import MAX_TARGET_SCORE


def data_dir() -> Path:
    """The user's data folder for skyjo: `$XDG_DATA_HOME/skyjo`, else `~/.local/share/skyjo`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "skyjo"


def database_url(db: str | None = None) -> str:
    """The database URL: `db` if given, else `$SKYJO_DB`, else `sqlite:///` a file
    `skyjo.db` in `data_dir()` (its folder is created)."""
    url = db or os.environ.get("SKYJO_DB")
    if url:
        return url
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'skyjo.db'}"


#: How long a SQLite write waits for another program's lock before it fails, in seconds
#: (the failure is said to the players and the requests: skyjo.web.faults).
BUSY_TIMEOUT = 5.0


def engine_for(url: str) -> Engine:
    """An engine for `url`. SQLite files are in WAL mode with `synchronous=NORMAL`
    (a committed transaction survives a killed process) and shared across
    threads; an in-memory SQLite database is one shared connection. A write waits
    at most `BUSY_TIMEOUT` for a lock another program holds (SQLite's busy
    timeout, PostgreSQL's `lock_timeout`). An error's message never shows the
    statement's parameters (`hide_parameters`): they hold a match's secret seed
    and decks, and the seats' token hashes."""
    if url.startswith("postgresql"):  # a lock held elsewhere fails a write as SQLite's does
        wait = {"options": f"-c lock_timeout={int(BUSY_TIMEOUT * 1000)}"}
        return create_engine(url, pool_pre_ping=True, hide_parameters=True, connect_args=wait)
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, hide_parameters=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT},
        poolclass=StaticPool if memory else None,
        hide_parameters=True,
    )

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------


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


# --------------------------------------------------------------------------
# The schema's versions
# --------------------------------------------------------------------------

#: The version of the tables this code writes.
SCHEMA_VERSION = 6
#: Where the scorepad kept the version of its tables before version 4.
OLD_SCOREPAD_VERSION = "scorepad_schema_version"


def _add_options(connection: Connection) -> None:
    """Version 1 to 2: the rooms' options (the turn timer), a JSON object."""
    connection.execute(text("ALTER TABLE rooms ADD COLUMN options TEXT NOT NULL DEFAULT '{}'"))


def _add_uploads(connection: Connection) -> None:
    """Version 2 to 3: the new table `uploads`, made with the missing tables."""


def _one_history(connection: Connection) -> None:
    """Version 3 to 4: the scorepad's tables join this history. They had their
    own (`scorepad_schema_version`, versions 1 and 2); those of version 1 are
    brought to 2 (`_scorepad_owners`), and that table goes. A database the
    scorepad alone made (no `schema_version`) comes here as version 3."""
    if not inspect(connection).has_table(OLD_SCOREPAD_VERSION):
        return  # no scorepad yet: its tables are made with the missing ones
    found = connection.execute(text(f"SELECT MAX(version) FROM {OLD_SCOREPAD_VERSION}"))
    if found.scalar() == 1:
        _scorepad_owners(connection)
    connection.execute(text(f"DROP TABLE {OLD_SCOREPAD_VERSION}"))


def _add_moves(connection: Connection) -> None:
    """Version 4 to 5: the new table `room_moves` (each room's steps since its row
    was written), made with the missing tables. Every room of version 4 has its
    whole game in its row, and so no moves."""


def _add_reviews(connection: Connection) -> None:
    """Version 5 to 6: the new table `reviews` (the coach's reviews of finished
    games), made with the missing tables."""


def _scorepad_owners(connection: Connection) -> None:
    """The scorepad's version 1 to 2: the sheets' owners (`owner`, NULL for
    every sheet made before: they stay open to anyone holding their id) and
    `scorepad_keys`, made with the missing tables. A target score over
    `skyjo.rules.MAX_TARGET_SCORE`, which the rules now refuse, is brought down
    to it, so that every sheet still loads."""
    connection.execute(text("ALTER TABLE scorepad_sheets ADD COLUMN owner VARCHAR(64)"))
    connection.execute(
        text("CREATE INDEX IF NOT EXISTS ix_scorepad_sheets_owner ON scorepad_sheets (owner)")
    )
    for sheet_id, rules in connection.execute(text("SELECT id, rules FROM scorepad_sheets")):
        data = json.loads(rules)
        if isinstance(data.get("target_score"), int) and data["target_score"] > MAX_TARGET_SCORE:
            data["target_score"] = MAX_TARGET_SCORE
            connection.execute(
                text("UPDATE scorepad_sheets SET rules = :rules WHERE id = :id"),
                {"rules": json.dumps(data), "id": sheet_id},
            )


#: version -> the function that upgrades a database from it to the next. A
#: migration changes the tables that are there: a database may lack some (one
#: part alone made it), which are then made at this code's version.
MIGRATIONS: dict[int, Callable[[Connection], None]] = {
    1: _add_options,
    2: _add_uploads,
    3: _one_history,
    4: _add_moves,
    5: _add_reviews,
}


#: The PostgreSQL advisory lock a migration holds for its transaction (the two-key
#: form: apart from the cluster's room locks, which are one 64-bit key each).
MIGRATION_LOCK = (0x736B796A, 1)


def migrate(engine: Engine, too_new: Callable[[int], Exception]) -> None:
    """Bring the database to `SCHEMA_VERSION` in one transaction: run the
    migrations from its version, make the missing tables, and write the
    version; a new database gets the tables and the version. A database of a
    newer version is refused with `too_new(version)`, so that an old program
    never writes over a newer schema. On PostgreSQL the transaction first takes
    `MIGRATION_LOCK`: processes started at once (`skyjo serve --workers N`)
    migrate one after the other, each later one finding the work done, where
    two CREATE TABLEs of one name would fail the second process."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            key, part = MIGRATION_LOCK
            connection.execute(text(f"SELECT pg_advisory_xact_lock({key}, {part})"))
        version = _version(connection)
        if version is None:  # a new database
            version = SCHEMA_VERSION
        if version > SCHEMA_VERSION:
            raise too_new(version)
        while version < SCHEMA_VERSION:
            MIGRATIONS[version](connection)
            version += 1
        Base.metadata.create_all(connection)
        table = SchemaVersion.__table__
        connection.execute(table.delete())
        connection.execute(table.insert(), {"version": version})


def _version(connection: Connection) -> int | None:
    """The database's version: its `schema_version` row; 3 for a database the
    scorepad alone made before version 4; None for a new one."""
    if inspect(connection).has_table(SchemaVersion.__tablename__):
        found = connection.scalars(sql_select(SchemaVersion.version)).all()
        if found:
            return max(found)
    if inspect(connection).has_table(OLD_SCOREPAD_VERSION):
        return 3
    return None


def schema_version(engine: Engine) -> int:
    """The version the database's tables are at (0: none yet)."""
    with engine.connect() as connection:
        return _version(connection) or 0
