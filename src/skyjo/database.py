"""What the web app's rooms and the scorepad's sheets share of a database:
where it is (`database_url`), the engine for a SQLAlchemy URL, and a versioned
schema with its migrations.

Each part of the app keeps its own tables, its own one-row version table and
its own chain of migrations (version -> the function that upgrades from it to
the next), so they live side by side in one database (SQLite by default,
PostgreSQL by URL) and upgrade independently.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, MetaData, create_engine, event
from sqlalchemy import select as sql_select
from sqlalchemy.pool import StaticPool


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


def engine_for(url: str) -> Engine:
    """An engine for `url`. SQLite files are in WAL mode with `synchronous=NORMAL`
    (a committed transaction survives a killed process) and shared across
    threads; an in-memory SQLite database is one shared connection."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=StaticPool if memory else None,
    )

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


def migrate(
    engine: Engine,
    metadata: MetaData,
    version_table: Any,
    current: int,
    migrations: Mapping[int, Callable[[Connection], None]],
    too_new: Callable[[int], Exception],
) -> None:
    """Create `metadata`'s tables on first use and record `current` in the
    one-row `version_table` (a mapped class with a `version` column); on a
    database of an older version run `migrations` in order, in one
    transaction; refuse a newer one with `too_new(version)`."""
    metadata.create_all(engine)
    table = version_table.__table__
    with engine.begin() as connection:
        version = max(connection.scalars(sql_select(version_table.version)).all(), default=None)
        if version is None:
            connection.execute(table.insert(), {"version": current})
            return
        if version > current:
            raise too_new(version)
        while version < current:
            migrations[version](connection)
            version += 1
        connection.execute(table.delete())
        connection.execute(table.insert(), {"version": version})
