"""A server answers soon after it starts (after a crash, every player waits for it):
it imports only what serving needs, answers before its bots' worker processes
have started and before its unfinished rooms are all resumed, and still finds a
room asked for at once. The times themselves are bench/startup.py's."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from liveserver import Server
from starlette.testclient import TestClient
from webapp import serving
from webclient import Conn, create_room, play_game

from skyjo.match import Match
from skyjo.web.lobby import Lobby
from skyjo.web.thinking import Thinkers

#: What `skyjo serve` must not import before it serves: the bots that think (NumPy,
#: Numba and LLVM), the other interfaces and their libraries, the QR code writer.
HEAVY = (
    "numpy",
    "numba",
    "llvmlite",
    "matplotlib",
    "segno",
    "skyjo.kernel",
    "skyjo.bots.expected",
    "skyjo.bots.search",
    "skyjo.batch",
    "skyjo.sim",
    "skyjo.env",
    "skyjo.tui",
    "textual",
    "openskill",
    "pettingzoo",
    "gymnasium",
)
#: How long a test lets a held-back start wait before it goes on anyway (an old
#: server that waits for it then fails the test instead of hanging it).
HELD = 30.0


def _lobby(client: TestClient) -> Lobby:
    return client.app.state.lobby  # type: ignore[attr-defined,no-any-return]


def test_the_serve_command_imports_nothing_heavy_before_it_serves() -> None:
    """`python -m skyjo serve` imports the command line, `skyjo.web.command`, the
    app and uvicorn, and builds the app, before it answers: none of `HEAVY`."""
    script = (
        "import json, sys\n"
        "from skyjo.cli import app\n"
        "from skyjo.web.command import serve\n"
        "import uvicorn\n"
        "from skyjo.web.app import create_app\n"
        "create_app()\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert json.loads(found.stdout) == []


def _mapped(pid: int, library: str) -> bool:
    """Whether process `pid` has a file of the package `library` mapped (Linux
    /proc): a compiled module of it was imported."""
    return f"/{library}/" in Path(f"/proc/{pid}/maps").read_text()


def test_a_restarted_server_leaves_the_bots_and_their_libraries_to_the_workers(
    tmp_path: Path,
) -> None:
    """Rooms with `search` and `expected` bots, one resumed and one created, played
    on, with a hint asked in each: their bots and the hints think in the workers, and
    the server itself never imports Numba nor LLVM (half a second here, seconds on a
    slow machine, and a first compile holds the server's GIL) to check their names."""
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    seats = [{"name": "Ana"}, {"bot": "search"}, {"bot": "expected"}]
    server = Server(url, SKYJO_BOT_PROCESSES="1")
    try:
        saved = server.post("/api/rooms", {"seats": seats, "lobby": False})
    finally:
        server.kill()
    server = Server(url, SKYJO_BOT_PROCESSES="1")
    try:
        fresh = server.post("/api/rooms", {"seats": seats, "lobby": False})
        for room in (saved, fresh):
            ana = server.conn(room["code"])
            assert ana.hello(room["token"])["you"] == 0
            play_game(ana, {0: ana}, random.Random(3), until=lambda w: w.number >= 12)
            play_game(ana, {0: ana}, random.Random(4), until=lambda w: w.obs["current_player"] == 0)
            ana.send({"type": "hint"})  # `expected`'s move, thought in the worker too
            assert ana.until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        for library in ("numba", "llvmlite"):  # (NumPy shuffles the decks: it is there)
            assert not _mapped(server.process.pid, library), library
    finally:
        Conn.close_all()
        server.kill()


def test_the_server_answers_before_its_bot_workers_have_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker held back from starting: the server answers and a room of bots is
    made meanwhile; its bots move once the worker is up (the first move waits
    for it, under the room's lock: a hello then waits too)."""
    opened, started = threading.Event(), threading.Event()
    real = Thinkers._started_pool

    def held(thinkers: Thinkers) -> Any:
        opened.wait(HELD)
        pool = real(thinkers)
        started.set()
        return pool

    monkeypatch.setattr(Thinkers, "_started_pool", held)
    with serving(bot_processes=1) as client:
        assert client.get("/api/health").status_code == 200
        code = create_room(client, [{"bot": "greedy"}, {"bot": "random"}], host_seat=None)["code"]
        assert not started.is_set(), "the server waited for its worker"
        opened.set()
        watcher = Conn(client, code)
        watcher.hello()
        watcher.until_number(4)  # every bot revealed its two cards, in the worker


def test_thinkers_closed_before_their_workers_started_start_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first worker is still starting when the thinkers close (it is let
    start, and stopped); the second never starts."""
    closing = threading.Event()
    starts: list[int] = []
    real_start, real_close = Thinkers._started_pool, Thinkers.close

    def start(thinkers: Thinkers) -> Any:
        starts.append(len(starts))
        closing.wait(HELD)
        return real_start(thinkers)

    def close(thinkers: Thinkers) -> None:
        closing.set()
        real_close(thinkers)

    monkeypatch.setattr(Thinkers, "_started_pool", start)
    monkeypatch.setattr(Thinkers, "close", close)
    others = set(multiprocessing.active_children())
    thinkers = Thinkers(2)
    thinkers.close()
    assert starts == [0]
    assert not [p for p in set(multiprocessing.active_children()) - others if p.is_alive()]


def test_the_rooms_are_resumed_after_the_server_answers_and_one_asked_for_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The oldest room's load is held back, and with it the resume of the rooms
    after it: the server answers meanwhile, and the newest room, asked for, is
    loaded at once; then every room is back, each loaded once."""
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    with serving(database_url=url) as client:  # a server that saved three rooms, oldest first
        rooms = [create_room(client, [{"name": f"Ana{i}"}, {"name": "Ben"}]) for i in range(3)]
    oldest, newest = rooms[0]["code"], rooms[-1]["code"]
    opened, loaded = threading.Event(), threading.Event()
    loads: list[str] = []
    real = Match.from_dict.__func__  # type: ignore[attr-defined]

    def from_dict(cls: type[Match], data: dict[str, Any], **options: Any) -> Match:
        loads.append(data["seats"][0]["name"])
        if loads[-1] == "Ana0":
            opened.wait(HELD)
            loaded.set()
        return real(cls, data, **options)  # type: ignore[no-any-return]

    monkeypatch.setattr(Match, "from_dict", classmethod(from_dict))
    with serving(database_url=url) as client:
        lobby = _lobby(client)
        health = client.get("/api/health").json()
        assert not loaded.is_set(), "the server waited for every room"
        assert health["rooms"] == 0
        info = client.get(f"/api/rooms/{newest}")
        assert info.status_code == 200 and info.json()["code"] == newest
        ana = Conn(client, newest)
        assert ana.hello(rooms[-1]["token"])["you"] == 0
        room = lobby.rooms[newest]
        assert oldest not in lobby.rooms
        opened.set()
        assert client.portal.call(lobby.resumed) == 3
        assert lobby.rooms[newest] is room  # not loaded again by the resume
        assert sorted(loads) == ["Ana0", "Ana1", "Ana2"]


def test_a_room_asked_for_twice_at_once_is_loaded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two visitors of a room not in memory at the same moment get the one room
    (two loads made two rooms of one game: each player in a different one)."""
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    with serving(database_url=url) as client:
        code = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])["code"]
    loads: list[int] = []
    real = Match.from_dict.__func__  # type: ignore[attr-defined]

    def from_dict(cls: type[Match], data: dict[str, Any], **options: Any) -> Match:
        loads.append(len(loads))
        return real(cls, data, **options)  # type: ignore[no-any-return]

    monkeypatch.setattr(Match, "from_dict", classmethod(from_dict))
    with serving(database_url=url) as client:
        lobby = _lobby(client)
        deadline = time.monotonic() + 30
        while code not in lobby.rooms:  # resumed (before the server answered, or since)
            assert time.monotonic() < deadline, "the room was never resumed"
            time.sleep(0.01)  # polling a condition of the server, not waiting for time
        client.portal.call(lobby.rooms.pop(code).close)  # as if dropped from memory

        async def twice() -> list[Any]:
            return list(await asyncio.gather(lobby.get(code), lobby.get(code)))

        first, second = client.portal.call(twice)
        assert first is second is lobby.rooms[code]
        assert len(loads) == 2  # the resume's, then one for both visitors


def test_rooms_are_made_and_loaded_while_every_default_thread_waits(tmp_path: Path) -> None:
    """A room's bot waits for its worker in one of the default executor's threads
    (`Room`): after a restart, every resumed room's bots at once (1,000 rooms
    took 20 s to resume here). Making a room and loading one are not queued
    behind them."""
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    with serving(database_url=url) as client:
        saved = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])["code"]
    released, freed = threading.Event(), threading.Event()

    def busy() -> None:
        if not released.wait(HELD):
            freed.set()  # (a server that waited for the threads gets them now)

    async def occupy() -> None:  # every thread of the default executor (its default size)
        loop = asyncio.get_running_loop()
        for _ in range(min(32, (os.cpu_count() or 1) + 4)):
            loop.run_in_executor(None, busy)

    with serving(database_url=url) as client:
        lobby = _lobby(client)
        deadline = time.monotonic() + 30
        while saved not in lobby.rooms:  # resumed (before the server answered, or since)
            assert time.monotonic() < deadline, "the room was never resumed"
            time.sleep(0.01)  # polling a condition of the server, not waiting for time
        client.portal.call(lobby.rooms.pop(saved).close)  # as if dropped from memory
        client.portal.call(occupy)
        try:
            created = create_room(client, [{"name": "Cleo"}, {"bot": "greedy"}])
            assert client.get(f"/api/rooms/{saved}").json()["code"] == saved
            assert not freed.is_set(), "the server waited for the default threads"
            assert {created["code"], saved} <= set(lobby.rooms)
        finally:
            released.set()
