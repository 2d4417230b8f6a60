"""The real server (`skyjo serve`, tests/web/liveserver.py) killed with SIGKILL at
each kind of moment of a room's life, then started again on the same database:
in the lobby, on a human's turn, with a drawn card held (half a turn), with a
bot's move due or bots playing, at a round end and at the game's end.

Each room must come back as its clients last saw it: the database holds every
step they were told of and no other (the game record's actions are theirs), and
every seat's `state` after the restart says what it said before the kill (the
step, the phase, the lobby flag, whose turn, the held card, the seats, the
round-end wait); then the game goes on from there. Each test runs on a SQLite
file and on a real PostgreSQL server (tests/web/postgres.py)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2
from liveserver import Server
from saved import saved_game
from webclient import Conn, Message, play_game

from skyjo.engine import DRAW, REVEAL, SWAP

#: A target no round reaches, however badly the random players play.
LONG = {"target_score": 1000}


def _server(database: str, **env: str) -> Server:
    """`skyjo serve` on `database` whose message rate the scripted players stay under."""
    return Server(database, SKYJO_RATE="1000", **env)


@dataclass
class Moment:
    """A room at the moment of the kill: its players' tokens and connections (by
    seat; None: a spectator), what each last saw, and every step's action."""

    code: str
    tokens: dict[int | None, str | None]
    conns: dict[int | None, Conn]
    states: dict[int | None, Message] = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    record: Any = None  #: a finished game's record, as served

    def note(self) -> None:
        """Take each connection's fresh `state` (a resync) and the actions it saw."""
        for seat, conn in self.conns.items():
            conn.send({"type": "resync"})
            self.states[seat] = _kept(conn.until(lambda m: m["type"] == "state"))
        first = next(iter(self.conns.values()))
        self.actions = [m["action"] for m in first.messages if m["type"] == "update"]
        assert len(self.actions) == first.number  # it saw every step from the first

    def back(self, server: Server) -> dict[int | None, Conn]:
        """Each seat reconnected to the restarted server: its `state` is the one it had."""
        conns = {seat: server.conn(self.code) for seat in self.tokens}
        for seat, conn in conns.items():
            assert _kept(conn.hello(self.tokens[seat])) == self.states[seat], (self.code, seat)
        return conns


def _kept(state: Message) -> Message:
    """What a restart keeps of a `state`: all but the log (it restarts), the timer's
    seconds, who is connected and how many watch."""
    kept = {k: v for k, v in state.items() if k not in ("log", "timer_left")}
    kept["room"] = {k: v for k, v in state["room"].items() if k != "spectators"}
    kept["seats"] = [{k: v for k, v in s.items() if k != "connected"} for s in state["seats"]]
    return kept


def _seat(server: Server, seats: list[Message], **room: Any) -> tuple[Message, list[Message]]:
    """A room of `seats` (no lobby) with every human seat after the host's joined."""
    host = server.post("/api/rooms", {"seats": seats, "lobby": False, **room})
    humans = [i for i, s in enumerate(seats) if not s.get("bot")][1:]
    return host, [server.post(f"/api/rooms/{host['code']}/join") for _ in humans]


def _connect(server: Server, code: str, tokens: dict[int | None, str | None]) -> Moment:
    conns = {seat: server.conn(code) for seat in tokens}
    for seat, conn in conns.items():
        assert conn.hello(tokens[seat])["you"] == seat
    return Moment(code, tokens, conns)


def _phase(phase: str) -> Callable[[Conn], bool]:
    return lambda conn: conn.obs is not None and conn.obs["phase"] == phase


# --- the moments ---------------------------------------------------------------------


def _in_the_lobby(server: Server) -> Moment:
    """The host waits in the lobby: a friend joined and named himself, a seat dropped."""
    seats = [{"name": "Dee"}, {"bot": None}, {"bot": None}]
    host = server.post("/api/rooms", {"seats": seats})
    eli = server.post(f"/api/rooms/{host['code']}/join", {"name": "Eli"})
    moment = _connect(server, host["code"], {0: host["token"], 1: eli["token"]})
    moment.conns[0].send({"type": "drop", "seat": 2})
    for conn in moment.conns.values():
        assert len(conn.until(lambda m: m["type"] == "state")["seats"]) == 2
    moment.note()
    assert moment.states[0]["room"]["lobby"] is True
    return moment


def _after_the_lobby(moment: Moment, server: Server) -> None:
    dee, eli = moment.back(server).values()
    dee.send({"type": "start", "empty": None})  # nothing was lost: nothing is missing to start
    state = eli.until(lambda m: m["type"] == "state")
    assert state["room"]["lobby"] is False and [s["name"] for s in state["seats"]] == ["Dee", "Eli"]


def _human_to_move(server: Server) -> Moment:
    """A human's turn, nothing drawn, after the bot's move."""
    host, _ = _seat(server, [{"name": "Cleo"}, {"bot": "greedy"}])
    moment = _connect(server, host["code"], {0: host["token"]})
    cleo = moment.conns[0]

    def may_draw(watcher: Conn) -> bool:
        return watcher.number > 6 and DRAW in watcher.obs["legal_actions"]  # type: ignore[index]

    play_game(cleo, {0: cleo}, random.Random(3), until=may_draw)
    moment.note()
    return moment


def _after_a_human_to_move(moment: Moment, server: Server) -> None:
    cleo = moment.back(server)[0]
    cleo.move(DRAW)
    update = cleo.until(lambda m: m["type"] == "update")
    assert update["number"] == len(moment.actions) + 1 and update["seat"] == 0


def _half_a_turn(server: Server) -> Moment:
    """Ana has drawn a card and holds it; Ben watches."""
    host, [guest] = _seat(server, [{"name": "Ana"}, {"name": "Ben"}])
    moment = _connect(server, host["code"], {0: host["token"], 1: guest["token"]})
    ana, ben = moment.conns[0], moment.conns[1]

    def ana_may_draw(watcher: Conn) -> bool:
        return watcher.number > 12 and DRAW in ana.obs["legal_actions"]  # type: ignore[index]

    play_game(ana, {0: ana, 1: ben}, random.Random(7), until=ana_may_draw)
    ana.move(DRAW)
    ana.until_number(ana.number + 1)
    ben.until_number(ana.number)
    moment.note()
    assert moment.states[0]["observation"]["held"] is not None
    return moment


def _after_half_a_turn(moment: Moment, server: Server) -> None:
    ana = moment.back(server)[0]
    ana.move(next(a for a in ana.obs["legal_actions"] if a >= SWAP))  # type: ignore[index]
    assert ana.until(lambda m: m["type"] == "update")["number"] == len(moment.actions) + 1


def _at_a_round_end(server: Server) -> Moment:
    """A round has ended: Ana has said "next round", Ben has not (a bot is the third)."""
    host, [guest] = _seat(server, [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}],
                          rules=LONG)  # fmt: skip
    moment = _connect(server, host["code"], {0: host["token"], 1: guest["token"]})
    ana, ben = moment.conns[0], moment.conns[1]
    play_game(ana, {0: ana, 1: ben}, random.Random(5), until=_phase("round_over"))
    ben.until_number(ana.number)
    ana.ready()
    for conn in (ana, ben):
        conn.until(lambda m: m["type"] == "ready" and m["ready"] == [0])
    moment.note()
    assert (moment.states[1]["ready"], moment.states[1]["waiting"]) == ([0], [1])
    return moment


def _after_a_round_end(moment: Moment, server: Server) -> None:
    ana, ben = moment.back(server).values()  # Ben awaited though he was not back yet
    ben.ready()
    for conn in (ana, ben):
        dealt = conn.until(lambda m: m["type"] == "update")
        assert dealt["number"] == len(moment.actions) + 1
        assert dealt["observation"]["phase"] == "reveal"


def _at_the_game_end(server: Server) -> Moment:
    """The game is over (a target of 1: one round)."""
    host, _ = _seat(server, [{"name": "Fay"}, {"bot": "random"}], rules={"target_score": 1})
    moment = _connect(server, host["code"], {0: host["token"]})
    play_game(moment.conns[0], {0: moment.conns[0]}, random.Random(2))
    moment.note()
    assert moment.states[0]["over"] and moment.states[0]["winners"]
    response = httpx2.get(f"{server.base}/api/rooms/{moment.code}/record", timeout=10)
    moment.record = response.json()
    return moment


def _after_the_game_end(moment: Moment, server: Server) -> None:
    moment.back(server)
    response = httpx2.get(f"{server.base}/api/rooms/{moment.code}/record", timeout=10)
    assert response.json() == moment.record


MOMENTS = [
    (_in_the_lobby, _after_the_lobby),
    (_human_to_move, _after_a_human_to_move),
    (_half_a_turn, _after_half_a_turn),
    (_at_a_round_end, _after_a_round_end),
    (_at_the_game_end, _after_the_game_end),
]


def test_killed_at_each_moment_the_server_resumes_each_room_as_it_was(database: str) -> None:
    """Rooms at each moment (`MOMENTS`) and one whose bots are playing, killed together."""
    server = _server(database)
    try:
        moments = [(make(server), after) for make, after in MOMENTS]
        # Two bots play on, a spectator watching, until the server dies mid-game.
        bots = server.post("/api/rooms", {"seats": [{"bot": "random"}, {"bot": "random"}]})
        watcher = server.conn(bots["code"])
        first = watcher.hello()["number"]  # the steps played before it came
        watcher.until_number(first + 10)
        server.kill()
    except BaseException:
        server.kill()
        raise
    finally:
        Conn.close_all()
    for moment, _ in moments:  # every step its clients saw is saved, and no other
        assert saved_game(database, moment.code)[1:] == (len(moment.actions), moment.actions)
    seen = [m["action"] for m in watcher.messages if m["type"] == "update"]
    _, steps, actions = saved_game(database, bots["code"])  # saved before it was sent: maybe more
    assert steps == len(actions) >= first + len(seen) and actions[first:][: len(seen)] == seen

    server = _server(database)
    try:
        for moment, after in moments:
            after(moment, server)
        watcher = server.conn(bots["code"])
        state = watcher.hello()  # the bots went on from the saved step ...
        assert state["number"] >= steps
        if not state["over"]:
            watcher.until_number(state["number"] + 1)  # ... and play on
    finally:
        Conn.close_all()
        server.kill()


def test_killed_with_a_bot_s_move_due_or_at_a_round_end_with_nobody_back(database: str) -> None:
    """A bot's move was due (a long bot pause) when the server died: the restarted
    server plays it, at once, and goes on from there. A round end's players never
    come back: it is dealt `absent_after` (here 3 s) after the restart, not before."""
    server = _server(database, SKYJO_BOT_DELAY="3600")
    try:
        host, _ = _seat(server, [{"name": "Dan"}, {"bot": "greedy"}])
        due = _connect(server, host["code"], {0: host["token"]})
        dan = due.conns[0]
        for k in range(2):  # Dan's two opening reveals: the bot's first is due
            dan.move(REVEAL + k)
            dan.until_number(k + 1)
        due.note()
        assert due.states[0]["observation"]["current_player"] == 1
        host, [guest] = _seat(server, [{"name": "Fay"}, {"name": "Gus"}], rules=LONG)
        end = _connect(server, host["code"], {0: host["token"], 1: guest["token"]})
        fay, gus = end.conns[0], end.conns[1]
        play_game(fay, {0: fay, 1: gus}, random.Random(4), until=_phase("round_over"))
        gus.until_number(fay.number)
        end.note()
        server.kill()
    except BaseException:
        server.kill()
        raise
    finally:
        Conn.close_all()
    for moment in (due, end):
        assert saved_game(database, moment.code)[1:] == (len(moment.actions), moment.actions)

    restarted = time.monotonic()
    server = _server(database, SKYJO_ABSENT_AFTER="3")
    try:
        watcher = server.conn(end.code)
        state = watcher.hello()  # Fay and Gus are not back, and are awaited
        assert state["number"] == len(end.actions) and state["waiting"] == [0, 1]
        dan = server.conn(due.code)
        state = dan.hello(due.tokens[0])  # the bot plays on at once, from the saved step:
        dan.until_number(4)  # (its worker may still be starting when Dan is back)
        steps = {e["number"]: e for e in state["log"]}  # every step since the restart ...
        steps |= {m["number"]: m for m in dan.messages if m["type"] == "update"}
        assert sorted(steps) == list(range(3, dan.number + 1))
        bots = [(steps[n]["seat"], REVEAL <= steps[n]["action"] < DRAW) for n in (3, 4)]
        assert bots == [(1, True)] * 2  # ... the bot's two reveals first
        assert dan.obs is not None and dan.obs["phase"] == "turns"
        dealt = watcher.until(lambda m: m["type"] == "update")
        assert dealt["number"] == len(end.actions) + 1 and time.monotonic() - restarted >= 3
    finally:
        Conn.close_all()
        server.kill()
