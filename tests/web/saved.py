"""Helpers of the web tests that read what a server left behind and follow its
rooms across servers (a plain module, imported as `saved`): a room's game as the
database holds it (its snapshot, then its move log, docs/deploy.md), the steps a
connection was told of, and a page's reconnection while a room changes hands."""

from __future__ import annotations

import time
from collections.abc import Callable

from webclient import Conn

from skyjo.match import Match
from skyjo.web.storage import RoomRecord, Store


def saved_game(database: str, code: str) -> tuple[RoomRecord, int, list[int]]:
    """Room `code` as the database `database` holds it: its record, its game's steps
    and actions (the snapshot with the moves logged after it played again)."""
    store = Store(database)
    try:
        record = store.load(code)
    finally:
        store.close()
    assert record is not None, f"no room {code} in the database"
    match = Match.from_dict(record.match)
    match.replay_moves(record.moves)
    match.close()
    return record, match.steps, list(match.state.history)


def history(database: str, code: str) -> list[int]:
    """The actions of room `code`'s game as the database holds it."""
    return saved_game(database, code)[2]


def updates(conn: Conn) -> list[tuple[int, int]]:
    """The steps `conn` was told of: each update's number and action."""
    return [(m["number"], m["action"]) for m in conn.messages if m["type"] == "update"]


def reconnect(connect: Callable[[str], Conn], code: str, token: str | None) -> Conn:
    """A page's reconnection (`connect(code)` a new connection): hello again until the
    room answers with its `state` (while it changes hands it answers `room_moving`,
    and the page tries again)."""
    deadline = time.monotonic() + 20
    while True:
        conn = connect(code)
        answer = conn.hello(token)
        if answer["type"] == "state":
            return conn
        assert answer.get("kind") == "room_moving", answer
        conn.close()
        assert time.monotonic() < deadline, "the room was not taken over"
