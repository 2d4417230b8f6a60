"""Helpers of the web tests that read what a server left behind and follow its
rooms across servers (a plain module, imported as `saved`): a room's game as the
database holds it (its snapshot, then its move log, docs/deploy.md), the steps a
connection was told of, and a page's reconnection while a room changes hands."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from webclient import Conn

from skyjo.match import Match
from skyjo.web.storage import RoomRecord, Store


class Front(Protocol):
    """Where a test reaches the service: a server (`liveserver.Server`) or a proxy."""

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]: ...

    def conn(self, code: str) -> Conn: ...


def two_players(
    room: dict[str, Any], first: Front, second: Front | None = None
) -> tuple[str, dict[str, Any], dict[str, Any], Conn, Conn]:
    """Room `room` (seats 0 and 1 human) made through `first`, its seat 1 joined through
    `second` (else `first` too); Ana connected through `first` and Ben through
    `second`, each in their seat. Its code, the host's and the guest's answers (their
    tokens), and the two connections."""
    second = second or first
    host = first.post("/api/rooms", room)
    code = host["code"]
    guest = second.post(f"/api/rooms/{code}/join")
    ana, ben = first.conn(code), second.conn(code)
    assert ana.hello(host["token"])["you"] == 0
    assert ben.hello(guest["token"])["you"] == 1
    return code, host, guest, ana, ben


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
