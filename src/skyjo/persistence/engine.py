"""The engine of a database URL (`engine_for`): one a process, which every part of
the process that uses the database is handed (docs/architecture.md)."""

from __future__ import annotations

import os
import sqlite3
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.pool import QueuePool

#: How long a write waits for another program's lock before it fails, in seconds, unless
#: `$SKYJO_DB_WAIT` says otherwise (the failure is said to the players and the
#: requests: skyjo.web.faults).
BUSY_TIMEOUT = 5.0


def lock_wait() -> float:
    """How long a write waits for another program's lock: `$SKYJO_DB_WAIT` seconds
    if set (docs/deploy.md), else `BUSY_TIMEOUT`."""
    return float(os.environ.get("SKYJO_DB_WAIT") or BUSY_TIMEOUT)


#: What a part that uses the database is opened on: the process's engine, handed
#: to it (shared: whoever made it disposes of it), or a URL (an engine of its own).
Source = str | Engine


def engine_for(url: str) -> Engine:
    """An engine for `url`. SQLite files are in WAL mode with `synchronous=NORMAL`
    (a committed transaction survives a killed process) and shared across
    threads; an in-memory SQLite database is one connection, one thread at a time. A write waits
    at most `lock_wait()` for a lock another program holds (SQLite's busy
    timeout, PostgreSQL's `lock_timeout`). An error's message never shows the
    statement's parameters (`hide_parameters`): they hold a match's secret seed
    and decks, and the seats' token hashes."""
    if url.startswith("postgresql"):  # a lock held elsewhere fails a write as SQLite's does
        wait = {"options": f"-c lock_timeout={int(lock_wait() * 1000)}"}
        return create_engine(url, pool_pre_ping=True, hide_parameters=True, connect_args=wait)
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, hide_parameters=True)
    if url in ("sqlite://", "sqlite:///:memory:"):
        engine = _memory_engine(url)
    else:
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": lock_wait()},
            hide_parameters=True,
        )

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


def _memory_engine(url: str) -> Engine:
    """An in-memory SQLite database: one connection (a second would be another
    database), lent to one thread at a time (a pool of one: the parts of a process
    that share the engine, each on its own thread, never interleave their
    transactions on it)."""
    database = sqlite3.connect(":memory:", check_same_thread=False, timeout=lock_wait())
    return create_engine(
        url,
        creator=lambda: database,
        poolclass=QueuePool,
        pool_size=1,
        max_overflow=0,
        pool_timeout=60,
        hide_parameters=True,
    )


def engine_of(source: Source) -> tuple[Engine, bool]:
    """The engine of `source` and whether its holder owns it: an engine handed in
    is shared (not disposed of by its holder), a URL gets an engine of its own
    (`engine_for`), disposed of when its holder closes."""
    if isinstance(source, Engine):
        return source, False
    return engine_for(source), True
