"""One engine serves a web process (`skyjo.persistence.engine`, docs/architecture.md):
the rooms' store, the scorepad's sheets, and in a cluster the shared hourly limits
and the lock connection all take their connections from the engine the app opens
(`app.state.engine`), on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from postgres import Postgres
from sqlalchemy import Connection, Engine, create_engine, event, text
from webapp import serving
from webclient import create_room

ADDRESS = "127.0.0.1:9"  #: a cluster member's address (never reached: it holds its rooms)


@contextlib.contextmanager
def pools_connected() -> Iterator[set[int]]:
    """The pools of every engine a connection is taken from meanwhile, by id."""
    pools: set[int] = set()

    def connected(connection: Connection) -> None:
        pools.add(id(connection.engine.pool))

    event.listen(Engine, "engine_connect", connected)
    try:
        yield pools
    finally:
        event.remove(Engine, "engine_connect", connected)


def test_rooms_and_sheets_share_the_process_s_one_engine(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    with pools_connected() as pools, serving(database_url=url) as client:
        code = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])["code"]
        sheet = client.post("/api/scorepad/sheets", json={"players": ["Ana", "Ben"]})
        assert sheet.status_code == 201, sheet.text
        engine = client.app.state.engine  # type: ignore[attr-defined]
        assert client.app.state.sheets.engine is engine  # type: ignore[attr-defined]
        assert pools == {id(engine.pool)}
    reading = create_engine(url)  # both in the one database
    try:
        with reading.connect() as db:
            assert db.execute(text("SELECT code FROM rooms")).scalars().all() == [code]
            sheets = db.execute(text("SELECT id FROM scorepad_sheets")).scalars().all()
            assert sheets == [sheet.json()["id"]]
    finally:
        reading.dispose()


def test_a_cluster_member_s_limits_and_locks_take_the_one_engine_too(
    postgres: Postgres,
) -> None:
    """The shared limits count in the engine's connections, and the lock connection is
    one of its connections, detached from its pool and named by the member's address
    (which the other members read: `Ownership.owner`)."""
    url = postgres.database()
    changes = {"database_url": url, "cluster_address": ADDRESS, "rooms_per_hour": 5}
    watching = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with pools_connected() as pools, serving(**changes) as client:
            create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
            engine = client.app.state.engine  # type: ignore[attr-defined]
            assert pools == {id(engine.pool)}
            spent = "SELECT tokens FROM skyjo_rate_buckets WHERE kind = 'rooms_rate'"
            named = "SELECT count(*) FROM pg_stat_activity WHERE application_name = :name"
            with watching.connect() as watcher:
                assert watcher.execute(text(spent)).scalar() < 5  # counted in the table
                assert watcher.execute(text(named), {"name": f"skyjo {ADDRESS}"}).scalar() == 1
    finally:
        watching.dispose()
