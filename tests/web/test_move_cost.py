"""What a step costs the server (issue 47): its row in the room's move log instead
of the whole room, the room's snapshot now and then (`rooms.SNAPSHOT_EVERY`, a
round's end, any other change), every distinct view encoded once (by orjson), and
small messages sent without compression (`skyjo.web.transport`)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from liveserver import Server
from sqlalchemy import create_engine, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from webapp import make_settings, serving
from webclient import Conn, create_room, join_room
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import TEXT, Frame
from websockets.sync.client import connect

from skyjo.match import Match, Seat
from skyjo.persistence.tables import MoveRow
from skyjo.web import protocol, rooms
from skyjo.web.lobby import Lobby
from skyjo.web.storage import SCHEMA_VERSION, MoveRecord, RoomRecord, Store
from skyjo.web.transport import MIN_COMPRESSED

LONG = {"target_score": 1000}


def _play(player: dict[int, Conn], watcher: Conn, steps: int, rng: random.Random) -> None:
    """Play `steps` steps at random (each seat's connection in `player`), saying
    "next round" at a round end."""
    target = watcher.number + steps
    while watcher.number < target:
        obs = watcher.obs
        assert obs is not None
        if obs["phase"] == "round_over":
            for conn in player.values():
                conn.ready()
        else:
            mover = player[obs["current_player"]]
            mover.until_number(watcher.number)
            mover.move(rng.choice(mover.obs["legal_actions"]))  # type: ignore[index]
        watcher.until(lambda m: m["type"] == "update")
    for conn in player.values():
        conn.until_number(target)


def _saved(url: str, code: str) -> RoomRecord:
    store = Store(url)
    try:
        record = store.load(code)
    finally:
        store.close()
    assert record is not None
    return record


def test_steps_go_to_the_move_log_and_a_snapshot_comes_every_so_often(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    rng = random.Random(3)
    with serving(database_url=url) as client:
        made = create_room(client, [{"name": "Ana"}, {"name": "Ben"}], rules=LONG)
        guest = join_room(client, made["code"])
        ana, ben = Conn(client, made["code"]), Conn(client, made["code"])
        ana.hello(made["token"])
        ben.hello(guest["token"])
        players = {0: ana, 1: ben}
        _play(players, ana, 10, rng)
        saved = _saved(url, made["code"])
        assert saved.steps == 0  # the snapshot the join wrote
        assert [seq for seq, _, _ in saved.moves] == list(range(1, 11))
        actions = [m["action"] for m in ana.messages if m["type"] == "update"]
        assert [action for _, _, action in saved.moves] == actions
        assert [seat for _, seat, _ in saved.moves] == [
            m["seat"] for m in ana.messages if m["type"] == "update"
        ]
        _play(players, ana, 2 * rooms.SNAPSHOT_EVERY, rng)
        _last_round_over(players, ana, rng)
        updates = [m for m in ana.messages if m["type"] == "update"]
        ended = {m["number"] for m in updates if m["observation"]["phase"] == "round_over"}
        last, reasons = 0, set()  # the policy: a round's end, its deal, SNAPSHOT_EVERY steps
        for number in range(1, ana.number + 1):
            if number in ended or number - 1 in ended:
                last = number
                reasons.add("round")
            elif number - last >= rooms.SNAPSHOT_EVERY:
                last = number
                reasons.add("every")
        assert reasons == {"round", "every"} and last == ana.number  # ends on a round's end
        saved = _saved(url, made["code"])
        assert saved.steps == last and saved.moves == []
        assert saved.options["round_end"]["step"] == ana.number
        match = Match.from_dict(saved.match)
        assert list(match.state.history) == [m["action"] for m in updates]
        match.close()
        _play(players, ana, 3, rng)  # the deal (a snapshot), then two steps logged
        saved = _saved(url, made["code"])
        assert saved.steps == last + 1 and [seq for seq, _, _ in saved.moves] == [
            last + 2,
            last + 3,
        ]


def _last_round_over(players: dict[int, Conn], watcher: Conn, rng: random.Random) -> None:
    """Play on until a round ends."""
    while watcher.obs is None or watcher.obs["phase"] != "round_over":
        _play(players, watcher, 1, rng)


def test_a_room_loads_as_its_snapshot_and_the_moves_after_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    match = Match([Seat("Ana"), Seat("Ben")])
    store = Store(url)
    store.save(RoomRecord("ABCDEF", "T", False, "h", {}, match.to_dict(), options={}))
    moves = []
    for _ in range(7):
        seat = match.state.player
        legal = match.observation(seat).legal_actions
        update = match.play(seat, random.Random(len(moves)).choice(legal))
        assert update is not None
        moves.append(MoveRecord("ABCDEF", update.number, update.seat, update.action))
    store.append(moves[:3])
    store.append(moves[3:])
    loaded = store.load("ABCDEF")
    assert loaded is not None and loaded.steps == 0
    assert loaded.moves == [(m.seq, m.seat, m.action) for m in moves]
    assert [r.moves for r in store.active()] == [loaded.moves]
    again = Match.from_dict(loaded.match)
    again.replay_moves(loaded.moves)
    assert again.state == match.state and again.steps == 7
    with pytest.raises(Exception):  # noqa: B017 - the driver's own integrity error
        store.append([moves[2]])  # step 3 again: refused, nothing applied twice
    assert store.load("ABCDEF").moves == loaded.moves  # type: ignore[union-attr]
    store.save(RoomRecord("ABCDEF", "T", False, "h", {}, match.to_dict(), steps=7))
    assert store.load("ABCDEF").moves == []  # type: ignore[union-attr]  # the snapshot holds them
    store.close()


def test_a_log_that_does_not_follow_its_snapshot_is_refused_as_damaged() -> None:
    match = Match([Seat("Ana"), Seat("Ben")])
    saved = match.to_dict()
    update = match.play(0, match.observation(0).legal_actions[0])
    assert update is not None
    for wrong in ([(2, 0, update.action)], [(1, 1, update.action)], [(1, 0, 10_000)]):
        again = Match.from_dict(saved)
        with pytest.raises(Exception, match="a damaged saved match") as refused:
            again.replay_moves(wrong)
        assert refused.value.kind == "saved_match_damaged"  # type: ignore[attr-defined]
        again.close()
    match.close()


def test_a_version_4_database_gets_the_move_log_and_keeps_its_rooms(database: str) -> None:
    """The tables as version 4 left them (rooms with options, uploads, the scorepad's):
    opened, the database is at version 5 with `room_moves`, and a room saved then
    loads whole, with no moves, and takes new ones."""
    match = Match([Seat("Ana"), Seat("Ben")])
    for _ in range(5):
        seat = match.state.player
        match.play(seat, match.observation(seat).legal_actions[0])
    engine = create_engine(database)
    with engine.begin() as db:
        db.execute(text("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)"))
        db.execute(text("INSERT INTO schema_version VALUES (4)"))
        db.execute(
            text(
                "CREATE TABLE rooms (code VARCHAR(16) PRIMARY KEY, title VARCHAR(200), "
                "listed BOOLEAN, created_at FLOAT, updated_at FLOAT, finished BOOLEAN, "
                "steps INTEGER, host VARCHAR(64), tokens TEXT, match TEXT, "
                "options TEXT NOT NULL DEFAULT '{}')"
            )
        )
        db.execute(
            text(
                "INSERT INTO rooms VALUES ('ABCDEF', 'Old', :no, 1.0, 1.0, :no, 5, 'h', "
                "'{}', :match, '{\"joined\": [0, 1]}')"
            ),
            {"no": False, "match": json.dumps(match.to_dict())},
        )
    engine.dispose()
    store = Store(database)
    assert store.version() == SCHEMA_VERSION == 7
    old = store.load("ABCDEF")
    assert old is not None and old.steps == 5 and old.moves == []
    loaded = Match.from_dict(old.match)
    assert loaded.state == match.state
    seat = match.state.player
    update = match.play(seat, match.observation(seat).legal_actions[0])
    assert update is not None
    store.append([MoveRecord("ABCDEF", 6, update.seat, update.action)])
    assert [r.moves for r in store.active()] == [[(6, update.seat, update.action)]]
    store.close()
    loaded.close()
    match.close()


def test_each_distinct_view_of_a_step_is_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two seats (one in two tabs) and three spectators: a step is encoded three
    times (each seat's view, the spectators'), not once per connection."""
    with serving() as client:
        made = create_room(client, [{"name": "Ana"}, {"name": "Ben"}], rules=LONG)
        guest = join_room(client, made["code"])
        ana, ana_too, ben = (Conn(client, made["code"]) for _ in range(3))
        ana.hello(made["token"])
        ana_too.hello(made["token"])
        ben.hello(guest["token"])
        watchers = [Conn(client, made["code"]) for _ in range(3)]
        for watcher in watchers:
            watcher.hello()
        encoded: list[dict[str, Any]] = []

        def counted(message: dict[str, Any]) -> str:
            encoded.append(message)
            return protocol.encode(message)

        monkeypatch.setattr(rooms, "encode", counted)
        mover = ana if ana.obs["current_player"] == 0 else ben  # type: ignore[index]
        mover.move(mover.obs["legal_actions"][0])  # type: ignore[index]
        for conn in (ana, ana_too, ben, *watchers):
            conn.until(lambda m: m["type"] == "update")
        updates = [m for m in encoded if m["type"] == "update"]
        assert sorted(m["observation"]["viewer"] is None for m in updates) == [False, False, True]
        assert ana.messages[-1] == ana_too.messages[-1]
        assert watchers[0].messages[-1] == watchers[1].messages[-1] == watchers[2].messages[-1]


def test_encode_writes_utf_8_and_what_orjson_refuses_as_json_does() -> None:
    message = {"type": "chat", "name": "Zoë", "text": "¡hola! 👋", "n": 3, "x": None}
    assert protocol.encode(message) == json.dumps(
        message, separators=(",", ":"), ensure_ascii=False
    )
    odd = {"type": "error", "message": "unknown message type '\ud800'", "big": 2**80}
    assert json.loads(protocol.encode(odd)) == odd


class _Seen(PerMessageDeflate):
    """The client's permessage-deflate, noting whether each message came compressed."""

    compressed: list[tuple[int, bool]]

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        decoded = super().decode(frame, max_size=max_size)
        if frame.opcode is TEXT:  # not a ping's pong
            self.compressed.append((len(decoded.data), frame.rsv1))
        return decoded


class _SeenFactory(ClientPerMessageDeflateFactory):
    def __init__(self, seen: list[tuple[int, bool]]) -> None:
        super().__init__()
        self.seen = seen

    def process_response_params(self, params: Any, accepted: Any) -> PerMessageDeflate:
        extension = super().process_response_params(params, accepted)
        extension.__class__ = _Seen
        extension.compressed = self.seen  # type: ignore[attr-defined]
        return extension


def test_small_messages_go_uncompressed_and_large_ones_compressed(tmp_path: Path) -> None:
    """permessage-deflate is on, and used for large messages only: an `update`, under
    `MIN_COMPRESSED` bytes, comes as it is (RSV1 clear); a `state` with a long log
    (a resync after 40 steps) comes compressed."""
    server = Server(f"sqlite:///{tmp_path / 'skyjo.db'}", SKYJO_RATE="1000")
    try:
        made = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"bot": "greedy"}]})
        seen: list[tuple[int, bool]] = []
        url = f"ws://127.0.0.1:{server.port}/ws/{made['code']}"
        with connect(url, extensions=[_SeenFactory(seen)], compression=None) as ws:
            assert ws.protocol.extensions and isinstance(ws.protocol.extensions[0], _Seen)
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            message = json.loads(ws.recv(timeout=30))
            while message.get("number", 0) < 40 or message["type"] != "update":
                obs = message.get("observation", {})
                if obs.get("phase") == "round_over":
                    ws.send(json.dumps({"type": "ready"}))
                elif obs.get("legal_actions"):
                    action = obs["legal_actions"][0]
                    ws.send(json.dumps({"type": "move", "action": action}))
                message = json.loads(ws.recv(timeout=30))
            updates = len(seen)
            ws.send(json.dumps({"type": "resync"}))
            while (message := json.loads(ws.recv(timeout=30)))["type"] != "state":
                pass
    finally:
        server.kill()
    assert updates >= 40 and all(not compressed for _, compressed in seen[1:updates])
    assert max(size for size, _ in seen[1:updates]) < MIN_COMPRESSED  # the updates
    size = len(json.dumps(message, separators=(",", ":")).encode())
    assert size >= MIN_COMPRESSED and (size, True) in seen[updates:]  # the state, with its log
    assert all(compressed == (n >= MIN_COMPRESSED) for n, compressed in seen[updates:])


def test_a_room_s_failed_step_fails_that_room_alone(tmp_path: Path) -> None:
    """Steps of two rooms in one transaction, one of them a number its room's log
    already holds: that room's step is refused, the other's written."""
    store = Store(f"sqlite:///{tmp_path / 'skyjo.db'}")
    store.append([MoveRecord("AAAAAA", 1, 0, 3)])
    lobby = Lobby(make_settings(), store)

    async def both() -> list[BaseException | None]:
        return await asyncio.gather(
            lobby.append(MoveRecord("AAAAAA", 1, 1, 4)),  # step 1 again
            lobby.append(MoveRecord("BBBBBB", 1, 0, 5)),
            return_exceptions=True,
        )

    again, other = asyncio.run(both())
    assert isinstance(again, IntegrityError) and other is None
    with Session(store.engine) as session:
        rows = session.execute(select(MoveRow.code, MoveRow.seq, MoveRow.action)).all()
    assert sorted(rows) == [("AAAAAA", 1, 3), ("BBBBBB", 1, 5)]
    store.close()


def test_an_update_s_views_made_at_once_are_each_viewer_s_own() -> None:
    match = Match([Seat("Ana"), Seat("Ben"), Seat("Cleo", "greedy")], seed=5)
    rng = random.Random(5)
    viewers = [None, 2, 0, 1]
    while not match.over and match.steps < 400:
        seat = match.state.player
        if match.seats[seat].human:
            update = match.play(seat, rng.choice(match.observation(seat).legal_actions))
        else:
            update = match.play_bot()
        assert update is not None
        assert update.views(viewers) == {viewer: update.view(viewer) for viewer in viewers}
        assert list(update.views([1, None, 1])) == [1, None]
    match.close()


def test_the_server_s_garbage_collector_is_tuned() -> None:
    """`skyjo serve` freezes what its start made out of the collections and collects
    far less often (`command.tune_gc`): run in a process of its own."""
    script = (
        "import gc; from skyjo.web.command import GC_THRESHOLDS, tune_gc; "
        "before = gc.get_threshold(); tune_gc(); "
        "print(before, gc.get_threshold() == GC_THRESHOLDS, gc.get_freeze_count() > 1000)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split(")")
    assert shown[0] == "(700, 10, 10" and shown[1].split() == ["True", "True"]


def test_a_save_at_the_same_step_does_not_write_the_match_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a round end each "next round" saves the room's wait, the match unchanged:
    its column is not written again; a seat handed to a bot changes the match."""
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    saves: list[RoomRecord] = []
    real = Store.save

    def noted(store: Store, room: RoomRecord) -> None:
        saves.append(room)
        real(store, room)

    monkeypatch.setattr(Store, "save", noted)
    with serving(database_url=url) as client:
        made = create_room(client, [{"name": "Ana"}, {"name": "Ben"}], rules=LONG)
        guest = join_room(client, made["code"])
        ana, ben = Conn(client, made["code"]), Conn(client, made["code"])
        ana.hello(made["token"])
        ben.hello(guest["token"])
        _last_round_over({0: ana, 1: ben}, ana, random.Random(4))
        ended = saves[-1]
        assert not ended.same_match and ended.steps == ana.number  # the round's end
        ana.ready()
        ana.until(lambda m: m["type"] == "ready" and m["ready"] == [0])
        ready = saves[-1]
        assert ready.same_match and ready.match == {} and ready.steps == ended.steps
        assert ready.options["round_end"]["ready"] == [0]
        saved = _saved(url, made["code"])
        assert saved.match == ended.match and saved.options == ready.options  # both kept
        ana.send({"type": "seat", "seat": 1, "bot": "greedy"})
        ana.until(lambda m: m["type"] == "seats")
        handed = saves[-1]
        assert not handed.same_match and handed.match["seats"][1]["bot"] == "greedy"
