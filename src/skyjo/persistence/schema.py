"""The database's one schema version and its migrations (`migrate`): whichever part
opens a database first creates and upgrades every table (`skyjo.persistence.tables`):
one history, one version row in `schema_version` (docs/deploy.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy import select as sql_select

from skyjo.persistence.tables import Base, SchemaVersion
from skyjo.rules import MAX_TARGET_SCORE

#: The version of the tables this code writes.
SCHEMA_VERSION = 7
#: Where the scorepad kept the version of its tables before version 4.
OLD_SCOREPAD_VERSION = "scorepad_schema_version"


class SchemaTooNew(RuntimeError):
    """A database of a newer schema than this code's (`migrate`'s refusal where its
    caller has none of its own)."""

    def __init__(self, version: int) -> None:
        super().__init__(
            f"the database has schema version {version}, newer than this "
            f"skyjo's {SCHEMA_VERSION}: upgrade skyjo"
        )


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


def _add_rate_buckets(connection: Connection) -> None:
    """Version 6 to 7: the new table `skyjo_rate_buckets` (a cluster's hourly
    limits), made with the missing tables. A cluster's database of version 6 has
    it already, made by its processes outside the schema with the same columns
    (UNLOGGED): it is kept as it is."""


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
    6: _add_rate_buckets,
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
