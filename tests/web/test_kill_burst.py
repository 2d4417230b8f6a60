"""The real server killed with SIGKILL in the middle of a burst of moves from
several rooms at once (each room's players answering every update at once), then
started again on the same database: every room holds every step its clients saw
acknowledged (an `update`), in their order, nothing twice, and at most the one
step in flight that nobody was told of yet (a move its client sent, or the deal
after a round end). Steps are appended to the rooms' move logs (`storage`), several
rooms' in one transaction: the kill finds some room whose steps since its last
snapshot are in its log. Runs on a SQLite file and on a real PostgreSQL server."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

from liveserver import Server
from saved import saved_game
from webclient import Conn, Message
from websockets.exceptions import ConnectionClosed

from skyjo.engine import NEXT_ROUND

ROOMS = 6
#: Steps every room has been told of before the kill (the burst goes on meanwhile).
BEFORE_KILL = 40
LONG = {"target_score": 1000}  # no game ends during the burst


@dataclass
class Table:
    """A room of two humans playing flat out: what they sent and were told."""

    code: str
    tokens: list[str]
    conns: list[Conn] = field(default_factory=list)
    sent: list[int] = field(default_factory=list)  #: every move sent, in order
    told: threading.Event = field(default_factory=threading.Event)  #: BEFORE_KILL reached
    failure: BaseException | None = None

    def play(self, seed: int) -> None:
        """Answer every update at once until the connection dies (the kill)."""
        rng = random.Random(seed)
        try:
            while True:
                self._step(rng)
        except (ConnectionClosed, OSError):
            return  # the server was killed
        except BaseException as failure:  # reported by the test, in the main thread
            self.failure = failure
        finally:
            self.told.set()

    def _step(self, rng: random.Random) -> None:
        watcher = self.conns[0]
        obs = watcher.obs
        assert obs is not None
        if obs["phase"] == "round_over":
            for conn in self.conns:
                conn.ready()
        else:
            mover = self.conns[obs["current_player"]]
            mover.until_number(watcher.number)
            action = rng.choice(mover.obs["legal_actions"])  # type: ignore[index]
            self.sent.append(action)
            mover.move(action)
        watcher.until(lambda m: m["type"] == "update")
        if watcher.number >= BEFORE_KILL:
            self.told.set()

    def acknowledged(self) -> list[int]:
        """The actions of every step a client of the room was told of, in order
        (each client's updates are a prefix of the longest's)."""
        seen = [[m["action"] for m in c.messages if m["type"] == "update"] for c in self.conns]
        longest = max(seen, key=len)
        assert all(longest[: len(s)] == s for s in seen)
        return longest


def test_killed_during_a_burst_every_acknowledged_move_is_there_once(database: str) -> None:
    server = Server(database, SKYJO_RATE="1000")
    tables: list[Table] = []
    try:
        for _ in range(ROOMS):
            seats = [{"name": "Ana"}, {"name": "Ben"}]
            host = server.post("/api/rooms", {"seats": seats, "lobby": False, "rules": LONG})
            guest = server.post(f"/api/rooms/{host['code']}/join")
            table = Table(host["code"], [host["token"], guest["token"]])
            for seat, token in enumerate(table.tokens):
                table.conns.append(server.conn(table.code))
                assert table.conns[seat].hello(token)["you"] == seat
            tables.append(table)
        players = [
            threading.Thread(target=t.play, args=(i,), daemon=True) for i, t in enumerate(tables)
        ]
        for player in players:
            player.start()
        for table in tables:
            assert table.told.wait(120), table.code
        server.kill()  # every room still playing flat out
        for player in players:
            player.join(60)
            assert not player.is_alive()
    finally:
        if server.process.poll() is None:  # a failure before the kill
            server.kill()
        Conn.close_all()
    assert [t.failure for t in tables] == [None] * ROOMS

    logged = 0
    for table in tables:
        acknowledged = table.acknowledged()
        assert len(acknowledged) >= BEFORE_KILL
        record, _, saved = saved_game(database, table.code)
        logged += len(record.moves)
        assert saved[: len(acknowledged)] == acknowledged, table.code  # each once, in order
        unheard = saved[len(acknowledged) :]
        assert unheard in ([], [table.sent[-1]], [NEXT_ROUND]), (table.code, unheard)
    assert logged > 0  # the kill found steps in the move logs, after their snapshots

    server = Server(database, SKYJO_RATE="1000")
    try:
        for table in tables:
            *_, saved = saved_game(database, table.code)
            back = [server.conn(table.code) for _ in table.tokens]
            states: list[Message] = [c.hello(t) for c, t in zip(back, table.tokens, strict=True)]
            assert [s["number"] for s in states] == [len(saved)] * 2
            obs = states[0]["observation"]
            if obs["phase"] == "round_over":
                back[0].ready()
                back[1].ready()
            else:
                mover = back[obs["current_player"]]
                mover.move(mover.obs["legal_actions"][0])  # type: ignore[index]
            update = back[0].until(lambda m: m["type"] == "update")
            assert update["number"] == len(saved) + 1  # the game goes on from there
    finally:
        Conn.close_all()
        server.kill()
