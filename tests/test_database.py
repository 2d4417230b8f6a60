"""One database, one history (`skyjo.persistence`): the web app's rooms and the
scorepad's sheets under one `schema_version`, whichever part opens the
database first; databases of older versions, with the scorepad's own version
table (versions 1 and 2 of its tables) beside the web app's or alone, are
upgraded in place with nothing lost. Each test runs on a SQLite file and on a
real PostgreSQL server."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from postgres import Postgres
from sqlalchemy import Engine, create_engine, event, inspect, text

from skyjo.persistence import schema
from skyjo.scorepad.sheet import Sheet
from skyjo.scorepad.store import OPEN, OpenSheet, SheetStore, StoreError
from skyjo.web.storage import RoomRecord, StorageError, Store

TABLES = {"schema_version", "rooms", "uploads", "scorepad_sheets", "scorepad_changes"}
TABLES |= {"scorepad_keys", "room_moves", "reviews", "skyjo_rate_buckets"}
OPENERS = {"web": Store, "scorepad": SheetStore}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, then a database of a real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'skyjo.db'}"
    return request.getfixturevalue("postgres").database()


def tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def versions(url: str) -> list[int]:
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            return list(db.scalars(text("SELECT version FROM schema_version")))
    finally:
        engine.dispose()


def execute(url: str, *statements: str, **values: object) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as db:
            for statement in statements:
                db.execute(text(statement), values)
    finally:
        engine.dispose()


@pytest.mark.parametrize("first", OPENERS)
def test_whichever_part_opens_a_new_database_makes_every_table_and_one_version(
    url: str, first: str
) -> None:
    OPENERS[first](url).close()
    assert tables(url) == TABLES  # no `scorepad_schema_version`
    assert versions(url) == [schema.SCHEMA_VERSION] == [7]
    web, pads = Store(url), SheetStore(url)
    assert web.version() == pads.version() == 7
    assert versions(url) == [7]
    web.close()
    pads.close()


# The tables as a skyjo before version 4 left them: the web app's at version 1
# (`rooms` without its options), the scorepad's at its own version 1 (no owners,
# no links' keys) with its own version table.
WEB_1 = (
    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY)",
    "INSERT INTO schema_version VALUES (1)",
    "CREATE TABLE rooms (code VARCHAR(16) PRIMARY KEY, title VARCHAR(200), listed BOOLEAN, "
    "created_at FLOAT, updated_at FLOAT, finished BOOLEAN, steps INTEGER, host VARCHAR(64), "
    "tokens TEXT, match TEXT)",
    "INSERT INTO rooms VALUES ('ABCDEF', 'Old', :no, 1.0, 1.0, :no, 0, 'h', '{}', '{}')",
)
SCOREPAD_1 = (
    "CREATE TABLE scorepad_schema_version (version INTEGER PRIMARY KEY)",
    "INSERT INTO scorepad_schema_version VALUES (1)",
    "CREATE TABLE scorepad_sheets (id VARCHAR(16) PRIMARY KEY, title VARCHAR(200), "
    "players TEXT, rules TEXT, base TEXT, revision INTEGER, rounds INTEGER, finished BOOLEAN, "
    "created_at FLOAT, updated_at FLOAT)",
    "CREATE INDEX ix_scorepad_sheets_updated_at ON scorepad_sheets (updated_at)",
    "CREATE TABLE scorepad_changes (sheet_id VARCHAR(16), seq INTEGER, change TEXT, "
    "made_at FLOAT, PRIMARY KEY (sheet_id, seq))",
    "INSERT INTO scorepad_sheets VALUES ('oldsheet', 'Friday', '[\"Ana\", \"Ben\"]', "
    '\'{"target_score": 5000, "ender_penalty": "none"}\', \'[]\', 2, 1, :no, 1.0, 2.0)',
    "INSERT INTO scorepad_changes VALUES ('oldsheet', 1, "
    '\'{"op": "add", "round": {"ender": "Ana", "entries": {"Ana": {"total": 3}, '
    '"Ben": {"total": 9}}}}\', 2.0)',
)


@pytest.mark.parametrize("first", OPENERS)
def test_a_database_with_both_old_version_tables_is_upgraded_to_one_history(
    url: str, first: str
) -> None:
    """Rooms of the web app's version 1 and sheets of the scorepad's version 1,
    each part with its own version table: opened by either part, the database
    is at the latest version with one version table, and every room and sheet is there,
    as it was, and goes on."""
    execute(url, *WEB_1, *SCOREPAD_1, no=False)
    OPENERS[first](url).close()
    assert tables(url) == TABLES and versions(url) == [7]
    web, pads = Store(url), SheetStore(url)
    room = web.load("ABCDEF")
    assert room is not None and room.title == "Old" and room.options == {}  # version 2
    web.save(RoomRecord("ABCDEG", "New", False, "h", {}, {}, options={"turn_seconds": 30.0}))
    assert [r.code for r in web.active()] == ["ABCDEF", "ABCDEG"]
    record = {"format": "skyjo-record/1", "players": ["A", "B"], "rounds": []}
    assert web.load_upload(web.save_upload(record)) == record  # version 3
    old = pads.load("oldsheet")
    assert old.revision == 2 and old.sheet.title == "Friday"
    assert old.sheet.rules.target_score == 1000  # brought down to today's bound
    assert old.sheet.totals == {"Ana": 3, "Ben": 9}
    assert pads.access("oldsheet", None, None) == OPEN  # made before owners: open
    assert pads.share("oldsheet", "read")  # a link's key, in the table version 2 added
    OpenSheet(pads, old).add_round({"ender": "Ben", "entries": {"Ana": 5, "Ben": 1}})
    assert pads.load("oldsheet").revision == 3
    web.close()
    pads.close()
    again = Store(url)  # a second start changes nothing
    assert again.version() == 7 and versions(url) == [7] and tables(url) == TABLES
    again.close()


@pytest.mark.parametrize("scorepad", [1, 2])
def test_a_database_the_scorepad_alone_made_is_upgraded(url: str, scorepad: int) -> None:
    """No `schema_version` (the web app never opened it): the scorepad's tables
    are brought from their own version to the latest, the web app's are made."""
    execute(url, *SCOREPAD_1, no=False)
    if scorepad == 2:
        execute(
            url,
            "UPDATE scorepad_schema_version SET version = 2",
            "UPDATE scorepad_sheets SET rules = :rules",
            "ALTER TABLE scorepad_sheets ADD COLUMN owner VARCHAR(64)",
            "CREATE TABLE scorepad_keys (digest VARCHAR(64) PRIMARY KEY, "
            "sheet_id VARCHAR(16), access VARCHAR(8), created_at FLOAT)",
            rules='{"target_score": 100, "ender_penalty": "none"}',
        )
    store = SheetStore(url)
    assert store.version() == 7 and tables(url) == TABLES
    assert store.load("oldsheet").sheet.rules.target_score == (1000 if scorepad == 1 else 100)
    store.close()
    web = Store(url)
    assert web.active() == [] and web.version() == 7
    web.close()


def test_a_database_the_web_app_alone_made_gets_the_scorepad_s_tables(url: str) -> None:
    execute(url, *WEB_1, no=False)
    pads = SheetStore(url)
    assert pads.version() == 7 and tables(url) == TABLES
    made = pads.create(Sheet.new(["Ana", "Ben"]))
    assert pads.load(made.id).sheet.players == ("Ana", "Ben")
    pads.close()
    room = Store(url).load("ABCDEF")
    assert room is not None and room.options == {}


@pytest.mark.parametrize("first", OPENERS)
def test_a_newer_database_is_refused_by_both_parts(url: str, first: str) -> None:
    OPENERS[first](url).close()
    execute(url, "UPDATE schema_version SET version = 99")
    with pytest.raises(StorageError, match="schema version 99, newer than this server's 7"):
        Store(url)
    with pytest.raises(StoreError, match="version 99, newer than this skyjo's 7") as refused:
        SheetStore(url)
    assert refused.value.kind == "database_too_new"
    assert refused.value.params == {"version": 99, "supported": 7}
    assert versions(url) == [99]  # nothing written


def test_migrations_run_in_order_from_the_database_s_version(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later version is one more migration in the one chain; it runs once."""
    pads = SheetStore(url)
    pad = OpenSheet(pads, pads.create(Sheet.new(["Ana", "Ben"], "Friday")))
    pads.close()
    ran: list[int] = []

    def to_8(connection: object) -> None:
        ran.append(8)
        connection.execute(text("ALTER TABLE scorepad_sheets ADD COLUMN note TEXT"))  # type: ignore[attr-defined]

    monkeypatch.setattr(schema, "SCHEMA_VERSION", 8)
    monkeypatch.setattr(schema, "MIGRATIONS", {**schema.MIGRATIONS, 7: to_8})
    upgraded = Store(url)
    assert ran == [8] and upgraded.version() == 8
    assert SheetStore(url).load(pad.id).sheet == pad.sheet
    Store(url).close()
    assert ran == [8]  # once only
    upgraded.close()


def test_two_processes_opening_a_new_postgresql_database_at_once_both_open_it(
    postgres: Postgres,
) -> None:
    """`skyjo serve --workers 2` starts both workers at once on a new database: the
    second to migrate waits for the first's transaction (an advisory lock), then
    finds the tables made, rather than failing on a CREATE TABLE of the same name.
    The first is held right after its first CREATE TABLE until the second waits on
    a lock, the moment where, without the lock, the second's CREATE TABLE fails."""
    url = postgres.database()
    first, second = create_engine(url), create_engine(url)
    created, go = threading.Event(), threading.Event()

    @event.listens_for(first, "after_cursor_execute")
    def hold(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().startswith("CREATE TABLE") and not created.is_set():
            created.set()
            assert go.wait(60)

    failures: list[BaseException] = []

    def migrate(engine: Engine) -> None:
        try:
            schema.migrate(engine, lambda version: RuntimeError(version))
        except BaseException as failure:
            failures.append(failure)

    # (autocommit: PostgreSQL keeps one snapshot of pg_stat_activity per transaction)
    watching = create_engine(url, isolation_level="AUTOCOMMIT")
    threads = [threading.Thread(target=migrate, args=(first,))]
    threads[0].start()
    try:
        assert created.wait(60)
        threads.append(threading.Thread(target=migrate, args=(second,)))
        threads[1].start()
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        with watching.connect() as watcher:
            deadline = time.monotonic() + 60
            while not watcher.execute(text(waiting)).scalar():
                assert time.monotonic() < deadline, "the second migration never waited"
                time.sleep(0.01)  # polling a condition: the second reaches its lock
    finally:
        go.set()
        for thread in threads:
            thread.join(60)
        for engine in (first, second, watching):
            engine.dispose()
    assert failures == []
    assert tables(url) == TABLES
    store = Store(url)
    try:
        assert store.version() == schema.SCHEMA_VERSION
    finally:
        store.close()


#: The table of a cluster's rate buckets as version 6's processes made it, outside
#: the schema (`skyjo.web.limits` before version 7), with one bucket in it.
BUCKETS_6 = (
    "CREATE UNLOGGED TABLE IF NOT EXISTS skyjo_rate_buckets (kind text NOT NULL,"
    " address text NOT NULL, tokens double precision NOT NULL,"
    " at double precision NOT NULL, spent boolean NOT NULL, PRIMARY KEY (kind, address))",
    "INSERT INTO skyjo_rate_buckets VALUES ('rooms_rate', '10.0.0.1', 2.5, 1.0, true)",
)


def persistence_of(url: str, table: str) -> str:
    """PostgreSQL's `relpersistence` of `table`: `u` unlogged, `p` permanent."""
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            found = "SELECT relpersistence FROM pg_class WHERE relname = :table"
            return str(db.execute(text(found), {"table": table}).scalar())
    finally:
        engine.dispose()


def test_a_new_postgresql_database_keeps_the_rate_buckets_out_of_its_log(
    postgres: Postgres,
) -> None:
    """The buckets are worth nothing after a crash: UNLOGGED (`u`), the others not."""
    url = postgres.database()
    Store(url).close()
    assert persistence_of(url, "skyjo_rate_buckets") == "u"
    assert persistence_of(url, "rooms") == persistence_of(url, "scorepad_sheets") == "p"


def test_a_cluster_s_database_of_version_6_keeps_its_rate_buckets(postgres: Postgres) -> None:
    """A cluster of version 6 made `skyjo_rate_buckets` itself: version 7 takes that
    table into the schema as it is, its buckets kept."""
    url = postgres.database()
    Store(url).close()
    execute(url, "DROP TABLE skyjo_rate_buckets", "UPDATE schema_version SET version = 6")
    execute(url, *BUCKETS_6)
    store = Store(url)
    assert store.version() == 7 and versions(url) == [7] and tables(url) == TABLES
    store.close()
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            bucket = db.execute(text("SELECT kind, address, tokens FROM skyjo_rate_buckets"))
            assert bucket.all() == [("rooms_rate", "10.0.0.1", 2.5)]
    finally:
        engine.dispose()
    assert persistence_of(url, "skyjo_rate_buckets") == "u"
