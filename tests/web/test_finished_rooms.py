"""Finished rooms leave the server's memory: once the game is over and saved and
nobody is connected (after `finished_linger` seconds, or at once beyond
`finished_kept` such rooms); the game stays in the database, a replay and a
record, and a visitor of the room loads it again. Rooms still in play stay."""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.testclient import TestClient
from webapp import serving
from webclient import Conn, create_room

from skyjo.replayer import replay
from skyjo.web.lobby import Lobby

BOTS = [{"bot": "greedy"}, {"bot": "random"}]


def lobby(client: TestClient) -> Lobby:
    return client.app.state.lobby  # type: ignore[attr-defined,no-any-return]


def wait_for(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    """Poll `condition` (the server's own state, in its thread) until it holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.01)  # polling a condition of the server, not waiting for time


def finish(client: TestClient, rules: dict | None = None) -> tuple[str, Conn]:
    """A room of two bots played to its end, with a spectator still connected."""
    room = create_room(client, BOTS, host_seat=None, rules=rules or {"target_score": 30})
    watcher = Conn(client, room["code"])
    watcher.hello()
    if not watcher.over:
        watcher.until(lambda m: m.get("observation", {}).get("phase") == "game_over")
    return room["code"], watcher


def test_a_finished_room_leaves_memory_once_nobody_watches_and_stays_a_replay() -> None:
    with serving(finished_linger=0.0) as client:
        code, watcher = finish(client)
        rooms = lobby(client).rooms
        client.portal.call(lobby(client).sweep)  # type: ignore[union-attr]
        assert code in rooms, "a room someone is connected to stays, over or not"
        steps = rooms[code].match.steps
        watcher.close()
        wait_for(lambda: code not in rooms)
        assert client.get("/api/health").json()["rooms"] == 0
        record = client.get(f"/api/rooms/{code}/record")
        assert record.status_code == 200 and replay(record.json()).finished
        shown = client.get(f"/api/rooms/{code}/replay").json()
        assert shown["finished"] and len(shown["frames"]) == steps + 1
        assert code not in rooms  # a replay is read from the database, not from a room
        # the host's seat and whether the title is the server's default, read back too
        assert [seat["host"] for seat in shown["seats"]] == [False, False]  # bots: no host seat
        assert shown["title"] == "Bots" and shown["default_title"] is True
        # a visitor of the room's page sees the end of the game, loaded again...
        visitor = Conn(client, code)
        state = visitor.hello()
        assert state["over"] and state["number"] == steps and code in rooms
        # ...and, gone, lets it go again
        visitor.close()
        wait_for(lambda: code not in rooms)


def test_beyond_the_bound_the_longest_unwatched_finished_rooms_go_at_once() -> None:
    with serving(finished_linger=3600.0, finished_kept=1) as client:
        rooms = lobby(client).rooms
        playing = create_room(client, [{"name": "Cleo"}, {"bot": "greedy"}])["code"]
        first, watching_first = finish(client)
        second, watching_second = finish(client)
        watching_first.close()
        watching_second.close()
        wait_for(lambda: first not in rooms)
        client.portal.call(lobby(client).sweep)  # type: ignore[union-attr]
        assert second in rooms, "the newest finished room is kept (the bound is 1)"
        assert playing in rooms, "a game in play stays, even with nobody connected"
        for code in (first, second):
            assert client.get(f"/api/rooms/{code}/replay").json()["finished"]
