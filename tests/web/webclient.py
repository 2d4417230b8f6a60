"""A test client of the web protocol over Starlette's TestClient WebSockets.

`Conn` keeps every message it received (the security test reads them all) and
the latest `state`/`update` it saw; `play_game` drives a room to its end with
every human seat choosing at random, waiting on messages, never on time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from starlette.testclient import TestClient

Message = dict[str, Any]


class Conn:
    """One WebSocket connection to a room, as a player or a spectator."""

    #: Every connection still open (the fixtures close them before the app stops).
    open: ClassVar[list[Conn]] = []

    def __init__(self, client: TestClient | None, code: str, socket: Any = None) -> None:
        """A TestClient connection to room `code`, or `socket` (any object with
        send_json, receive_json and close) when given."""
        self._context: Any = None
        if socket is None:
            assert client is not None
            self._context = client.websocket_connect(f"/ws/{code}")
            socket = self._context.__enter__()
        self.ws = socket
        self.open.append(self)
        self.messages: list[Message] = []
        self.state: Message | None = None
        self.obs: Message | None = None
        self.number = 0
        self.seats: list[Message] = []
        #: At a round end, the seats it waits for to say "next round" (None: not told yet).
        self.waiting: list[int] | None = []

    def hello(self, token: str | None = None, join: bool = False) -> Message:
        """Say hello and return the `state` that answers it."""
        message: Message = {"type": "hello", "token": token}
        if join:
            message = {"type": "hello", "join": True}
        self.send(message)
        return self.until(lambda m: m["type"] in ("state", "error"))

    def send(self, message: Message) -> None:
        self.ws.send_json(message)

    def move(self, action: int) -> None:
        self.send({"type": "move", "action": action})

    def ready(self) -> None:
        """Say "next round" at a round end."""
        self.send({"type": "ready"})

    def receive(self) -> Message:
        """The next message (waits for it), noted."""
        message = self.ws.receive_json()
        self.messages.append(message)
        kind = message["type"]
        if kind == "state":
            self.state, self.obs, self.number = message, message["observation"], message["number"]
            self.seats, self.waiting = message["seats"], message["waiting"]
        elif kind == "update":
            assert message["number"] == self.number + 1, (message["number"], self.number)
            self.obs, self.number = message["observation"], message["number"]
            self.waiting = None if self.obs["phase"] == "round_over" else []
        elif kind == "ready":
            self.waiting = message["waiting"]
        elif kind == "seats":
            self.seats = message["seats"]
        return message

    def until(self, done: Callable[[Message], bool]) -> Message:
        """Receive until a message satisfies `done`; return it."""
        while True:
            message = self.receive()
            if done(message):
                return message

    def error(self) -> Message:
        """The next `error` message (other messages before it are noted)."""
        return self.until(lambda m: m["type"] == "error")

    def until_number(self, number: int) -> None:
        while self.number < number:
            self.receive()

    def close(self) -> None:
        if self in self.open:
            self.open.remove(self)
            if self._context is not None:
                self._context.__exit__(None, None, None)
            else:
                self.ws.close()

    @classmethod
    def close_all(cls) -> None:
        """Close every connection still open."""
        for conn in list(cls.open):
            conn.close()

    @property
    def over(self) -> bool:
        return self.obs is not None and self.obs["phase"] == "game_over"


def create_room(
    client: TestClient, seats: list[Message], lobby: bool | None = False, **fields: Any
) -> Message:
    """POST a room; the response's JSON (code, seat, token). The game starts at
    once unless `lobby` (None: the server's default, a lobby when friends are awaited)."""
    if lobby is not None:
        fields["lobby"] = lobby
    response = client.post("/api/rooms", json={"seats": seats, **fields})
    assert response.status_code == 201, response.text
    return response.json()


def join_room(client: TestClient, code: str) -> Message:
    response = client.post(f"/api/rooms/{code}/join")
    assert response.status_code == 200, response.text
    return response.json()


def human_to_move(watcher: Conn) -> bool:
    """Whether the watcher's latest view awaits a human (or the game is over):
    then no update is coming until a human moves, or at a round end until the
    awaited humans say "next round"."""
    obs = watcher.obs
    assert obs is not None
    if obs["phase"] == "game_over" or (watcher.state and watcher.state["stalled"]):
        return True
    if obs["phase"] == "round_over":
        return bool(watcher.waiting)
    return watcher.seats[obs["current_player"]]["human"]


def settle(watcher: Conn, players: list[Conn]) -> None:
    """Read until the game waits for a human, and bring every player to that step."""
    while not human_to_move(watcher):
        watcher.receive()
    for player in players:
        player.until_number(watcher.number)


def to_my_turn(conn: Conn) -> None:
    """Bring the only human of a room of bots to a turn of theirs with nothing held, their
    round's first reveals made (the first legal card each time)."""
    settle(conn, [conn])
    while conn.obs is not None and conn.obs["phase"] == "reveal":
        conn.move(conn.obs["legal_actions"][0])
        conn.until_number(conn.number + 1)
        settle(conn, [conn])


def play_game(
    watcher: Conn,
    players: dict[int, Conn],
    rng: random.Random,
    until: Callable[[Conn], bool] | None = None,
) -> None:
    """Play on until the game is over (or `until(watcher)`): each human seat picks
    a legal action at random when the game waits for it."""
    while True:
        settle(watcher, list(players.values()))
        if watcher.over or (until is not None and until(watcher)):
            return
        assert watcher.obs is not None
        if watcher.obs["phase"] == "round_over":
            for seat in watcher.waiting or ():
                players[seat].ready()
            watcher.until_number(watcher.number + 1)
            continue
        mover = players[watcher.obs["current_player"]]
        assert mover.obs is not None and mover.obs["legal_actions"], mover.obs
        mover.move(rng.choice(mover.obs["legal_actions"]))
        watcher.until_number(watcher.number + 1)


def finished_room(client: TestClient, seed: int = 11) -> tuple[Message, Conn]:
    """A room of Ana (random legal moves, `seed`) and a greedy bot, played to its
    end (a target of 20): the host's response and Ana's connection."""
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}], rules={"target_score": 20})
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    play_game(ana, {0: ana}, random.Random(seed))
    return host, ana
