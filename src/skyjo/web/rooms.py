"""Rooms: each owns one `skyjo.match.Match`, its seats' tokens and its connections.

A room is created from a JSON request (`skyjo.web.room_config.RoomConfig`), gets a short
code, and gives the host a token for a seat. Every step of its match goes
through the room under one `asyncio.Lock`: the step, then saving it (`storage`:
the step appended to the room's move log, or now and then the whole room), then
an `update` to every connection with what that viewer may see (`Update.view`),
encoded once for all the connections that see the same. Bots and stand-ins for
absent humans play from the room's driver task, off the event loop
(`asyncio.to_thread`), after a pause.

A client's bad message gets an `error` and changes nothing; a client that
floods is disconnected; nothing a client sends can stop the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import math
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from skyjo.engine import NEXT_ROUND, IllegalActionError, Phase, State
from skyjo.match import (
    Match,
    MatchError,
    MatchOver,
    NotYourTurn,
    Seat,
    Update,
    check_seats,
)
from skyjo.names import NameRefused, check_name, clash, confusable, name_key
from skyjo.rules import MIN_PLAYERS
from skyjo.scoring import round_facts, score_round
from skyjo.web import protocol
from skyjo.web.limits import Limits, RateLimit
from skyjo.web.protocol import (
    Chat,
    Drop,
    Hello,
    Move,
    ProtocolError,
    Ready,
    Rematch,
    Remove,
    Resync,
    SeatChange,
    Start,
    encode,
    error,
    refusal,
    refused,
)
from skyjo.web.room_config import default_title
from skyjo.web.seat_names import bot_name, free_name, player_name, reserved
from skyjo.web.settings import LADDER, Settings
from skyjo.web.storage import MoveRecord, RoomRecord

log = logging.getLogger("skyjo.web")

#: Room codes: 6 characters without look-alikes (no 0/O, 1/I).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: A room's snapshot is written at least every this many steps (and at a round's
#: end, the game's, and any change but a step): a restart plays again at most this
#: many steps of a room's move log (`storage`).
SNAPSHOT_EVERY = 64


def new_code() -> str:
    """A fresh room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A fresh, unguessable seat token (192 bits)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256, so a database leak gives no seat away."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _name(value: Any) -> str:
    """A player's chosen name, normalised by `skyjo.names.check_name` (NFC, no
    spaces around it; no control, format or invisible character), and not one the
    server keeps for its bots and free seats (`name_reserved`:
    `skyjo.web.seat_names.reserved`)."""
    try:
        name = check_name(value)
    except NameRefused as failure:
        raise refused("bad_name", failure) from None
    if reserved(name):
        raise ProtocolError(
            "bad_name",
            f"the name {name} is kept for the bots and the free seats: choose another",
            "name_reserved",
            {"name": name},
        )
    return name


def round_summaries(state: State, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every finished round: ender, raw and final scores (by seat), whether the
    ender was doubled, and why: as facts the client says in its language
    (`explain`, `skyjo.scoring.round_facts`) and in English (`reason`,
    `skyjo.scoring.score_round`)."""
    summaries = []
    penalty = state.rules.ender_penalty
    for number, result in enumerate(state.results, 1):
        raw = dict(zip(names, result.raw, strict=True))
        reason = score_round(raw, names[result.ender], penalty).reason
        summaries.append(
            {
                "round": number,
                "ender": result.ender,
                "raw": list(result.raw),
                "scores": list(result.scores),
                "doubled": result.doubled,
                "explain": round_facts(result.raw, result.ender, penalty),
                "reason": reason,
            }
        )
    return summaries


class Client:
    """One connection: who it is (seat, host), its rate limits, its outgoing queue.

    `send` never waits: messages queue for the connection's writer task, and a
    client too slow to take them is disconnected rather than slowing the room.
    """

    def __init__(
        self,
        settings: Settings,
        address: str = "",
        shared: RateLimit | None = None,
        limits: Limits | None = None,
    ) -> None:
        """`address` is the client's (the key of `shared`, the rate limit of all the
        connections of one address, and of `limits`, the server's per-address limits
        of what a message may make: a seat taken)."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(settings.send_queue)
        self.seat: int | None = None
        self.host = False
        self.greeted = False
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.messages = protocol.TokenBucket(settings.rate, settings.burst)
        self.overflow = protocol.TokenBucket(settings.rate, settings.burst)
        self.chats = protocol.TokenBucket(settings.chat_rate, settings.chat_burst)
        self.address = address
        self.shared = shared
        self.limits = limits
        self.max_message = settings.max_message

    def admit(self) -> bool:
        """Count one incoming message against this connection's rate (`rate`,
        `burst`) and its address's (`shared`): True when it may be handled. Over
        either, it is dropped and answered `rate_limited` (kind `messages_rate`,
        with the limit a second and when to try again); a client that goes on
        sending, as many messages again at once, is flooding: it is told so and
        disconnected (1008)."""
        if self.messages.take():
            over = self.shared.take(self.address) if self.shared is not None else None
            if over is None:
                return True
            limit, wait = over.limit / over.window, over.retry_after
        else:
            limit, wait = self.messages.rate, self.messages.retry_after
        if not self.overflow.take():
            self.send(error("flood", "too many messages: disconnected"))
            self.close(1008, "flood")
            return False
        limit, wait = round(limit, 1), math.ceil(min(wait, 3600.0) * 10) / 10
        self.send(
            error(
                "rate_limited",
                f"too many messages: at most {limit:g} a second; this one was not handled, "
                f"try again in {wait:g} s",
                "messages_rate",
                {"limit": limit, "retry_after": wait},
            )
        )
        return False

    def send(self, message: dict[str, Any]) -> None:
        """Queue `message` for this connection."""
        if not self.closed:
            self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (`encode`: one text for every connection
        that gets the same message)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(1013, "too slow: messages piled up")

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending: the writer sends what is queued, then closes with `code`."""
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()


Saver = Callable[[RoomRecord], Awaitable[None]]
#: Adds a step to its room's move log (`Lobby.append`), returning once it is committed.
Appender = Callable[[MoveRecord], Awaitable[None]]
#: Opens the room of a table's next game (`Lobby.rematch`): given the room whose game
#: is over, the new room.
NextGame = Callable[["Room"], Awaitable["Room"]]


class Room:
    """A table: one match, its seats' tokens (kept as hashes), its connections."""

    def __init__(
        self,
        record: RoomRecord,
        match: Match,
        settings: Settings,
        save: Saver,
        on_idle: Callable[[], None] | None = None,
        next_game: NextGame | None = None,
        append: Appender | None = None,
    ) -> None:
        """`save` writes the room's record; `on_idle` is called when the room may be
        dropped from memory: its game ended, or its last connection left; `next_game`
        opens the room of the table's next game (`rematch`); `append` adds a step to
        the room's move log (None: every step saves the whole room)."""
        self.code = record.code
        self.title = record.title
        self.listed = record.listed
        self.created_at = record.created_at
        self.match = match
        self.settings = settings
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.recent: deque[Update] = deque(maxlen=settings.log_length)
        self._host = record.host
        self._tokens: dict[str, int | None] = dict(record.tokens)
        self._save = save
        self._append = append
        #: The steps and the options (`_options_record`) the database's snapshot holds:
        #: a step appended to the move log needs the same options and a recent snapshot.
        #: (None: unknown, as after a load: the next step writes a snapshot.)
        self._saved_steps = record.steps
        self._saved_options: dict[str, Any] | None = None
        #: What identifies the match the last snapshot wrote (`_match_key`; None:
        #: unknown): a snapshot of the same one writes the rest of the room only.
        self._saved_match: tuple[Any, ...] | None = None
        now = time.monotonic()
        self._absent_since = dict.fromkeys(range(match.num_players), now)  # seats with no one
        self.options = dict(record.options)
        #: The seats someone has held (a token given): only theirs are played for when absent.
        #: (A room saved before this was kept: every seat, as then.)
        joined = self.options.get("joined")
        every = range(match.num_players)
        self._joined = set(every) if joined is None else {*joined, *self._tokens.values()} - {None}
        self._last_step = now
        self.turn_seconds: float | None = self.options.get("turn_seconds")
        self._decision_since = now  #: when the move awaited now became due (the turn timer)
        #: At a round end, the seats whose human said "next round" (`ready`).
        self._ready: set[int] = set()
        #: After a restart at a round end, the seats it waited for when it was saved and
        #: the time (monotonic) until which it still waits for each: until its player
        #: connects, or for `absent_after` (`_restore_wait`).
        self._owed: dict[int, float] = {}
        self._restore_wait(self.options.pop("round_end", None), now)
        self._saved_wait = self._wait_record()  #: the round-end wait the database holds
        self._announced: tuple[list[int], list[int]] = ([], [])  #: the last `ready` sent
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self.closed = False
        #: Since when (time.monotonic) no connection has been open; None while one is.
        self.idle_since: float | None = now
        self._attached = 0  #: connections open to the room, greeted or not
        self._on_idle = on_idle or (lambda: None)
        self._next_game = next_game

    # --- reading -----------------------------------------------------------------

    def record(self, same_match: bool = False) -> RoomRecord:
        """What the database keeps of the room now (at a round end, its wait too:
        `_wait_record`); with `same_match`, without its match (the one saved last)."""
        return RoomRecord(
            code=self.code,
            title=self.title,
            listed=self.listed,
            host=self._host,
            tokens=dict(self._tokens),
            match={} if same_match else self.match.to_dict(),
            same_match=same_match,
            finished=self.match.over,
            steps=self.match.steps,
            created_at=self.created_at,
            options=self._options_record(),
        )

    def _options_record(self) -> dict[str, Any]:
        """The room's options as saved (`RoomRecord.options`)."""
        options = {**self.options, "joined": sorted(self._joined)}
        wait = self._wait_record()
        if wait is not None:
            options["round_end"] = wait
        return options

    def free_seats(self) -> list[int]:
        """Human seats nobody holds a token for."""
        held = set(self._tokens.values())
        return [i for i, s in enumerate(self.match.seats) if s.human and i not in held]

    def seats(self) -> list[dict[str, Any]]:
        """The public facts of each seat."""
        held = set(self._tokens.values())
        host = self._tokens.get(self._host)
        return [
            {
                "name": seat.name,
                "bot": seat.bot,
                "human": seat.human,
                "claimed": i in held,
                "connected": i not in self._absent_since,
                "host": i == host,
            }
            for i, seat in enumerate(self.match.seats)
        ]

    def info(self) -> dict[str, Any]:
        """The room as anyone may see it (the front page's list, a join page)."""
        host = self._tokens.get(self._host)
        return {
            "code": self.code,
            "title": self.title,
            # the server's own default title ("Ana's table"): a page words it in its language
            "default_title": self.title
            == default_title(None if host is None else self.match.seats[host].name),
            "listed": self.listed,
            "rules": self.match.rules.to_dict(),
            "seats": self.seats(),
            "free_seats": self.free_seats(),
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "round": self.match.state.round + 1,
            "over": self.match.over,
            "lobby": self.in_lobby,
            "rematch": self.rematch,
        }

    def state_message(self, client: Client) -> dict[str, Any]:
        """The `state` snapshot for `client`: everything its viewer may see now."""
        viewer, match = client.seat, self.match
        return {
            "type": "state",
            "protocol": protocol.VERSION,
            "number": match.steps,
            "room": {k: v for k, v in self.info().items() if k not in ("seats",)},
            "you": viewer,
            "host": client.host,
            "seats": self.seats(),
            "observation": match.observation(viewer).to_dict(),
            "log": [_log_entry(update, viewer) for update in self.recent],
            "rounds": round_summaries(match.state, match.names),
            "over": match.over,
            "stalled": match.stalled,
            "winners": list(match.winners()),
            "turn_seconds": self.turn_seconds,
            "timer_left": self.timer_left(),
            "ready": sorted(self._ready),
            "waiting": self.waiting(),
        }

    def timer_left(self) -> float | None:
        """Seconds until the turn timer plays the awaited move of a human seat
        (None without a timer, or when a bot is to move, or once the game is over)."""
        seat = self.match.to_move
        if self.turn_seconds is None or seat is None or not self.match.seats[seat].human:
            return None
        left = self._decision_since + self.turn_seconds - time.monotonic()
        return round(max(0.0, left), 2)

    # --- seats and tokens ----------------------------------------------------------

    def host_token(self, seat: int | None) -> str:
        """Make a fresh host token (for `seat`, or a host without a seat)."""
        token = new_token()
        self._host = token_hash(token)
        self._tokens[self._host] = seat
        if seat is not None:
            self._joined.add(seat)
        return token

    def claim(self, seat: int | None = None) -> tuple[int, str]:
        """Give a free human seat (`seat`, else the first) a new token
        (`room_full` when none is left, `bad_seat` when `seat` is not free)."""
        free = self.free_seats()
        if seat is not None and seat not in free:
            raise ProtocolError(
                "bad_seat", f"seat {seat} is not a free human seat", "seat_not_free", {"seat": seat}
            )
        if not free:
            raise ProtocolError("room_full", "every human seat of this room is taken")
        seat = free[0] if seat is None else seat
        token = new_token()
        self._tokens[token_hash(token)] = seat
        self._joined.add(seat)
        return seat, token

    async def join(self, name: str | None = None, seat: int | None = None) -> tuple[int, str]:
        """Claim a free seat (`seat`, else the first), named `name` if given, and save
        the room. Without a name, the newcomer takes the seat's: the one the host gave
        it, or its last player's (one the host removed); a seat the server named
        ("Seat N", free) makes them "Player N" (`skyjo.web.seat_names`)."""
        async with self.lock:
            if name is not None:
                name = _name(name)
            held = set(self._joined)
            seat, token = self.claim(seat)
            if name is None and reserved(self.match.seats[seat].name):
                name = player_name(seat)
            if name is not None and name != self.match.seats[seat].name:
                try:
                    self._rename(seat, name)
                except ProtocolError:
                    self._revoke(seat)
                    self._joined = held
                    raise
            await self._store()
        self._broadcast({"type": "seats", "seats": self.seats()})
        return seat, token

    def _rename(self, seat: int, name: str) -> None:
        """Give `seat` a person's name `name` (checked by `_name`, or the server's
        "Player N"); `bad_name` when another seat has it, the same once case-folded
        (`name_taken`: `skyjo.names.name_key`), or when it looks like another seat's
        (`name_confusable`: `skyjo.names.look_alike`)."""
        others = [other for i, other in enumerate(self.match.names) if i != seat]
        if name_key(name) in {name_key(other) for other in others}:
            raise ProtocolError(
                "bad_name",
                f"the name {name} is taken here: choose another",
                "name_taken",
                {"name": name},
            )
        other = clash(name, others)
        if other is not None:
            raise refused("bad_name", confusable(name, other))
        try:
            self._set_name(seat, name)
        except MatchError as failure:
            raise refused("bad_name", failure) from None

    def _set_name(self, seat: int, name: str) -> None:
        """Name `seat` `name` (a `MatchError` if the seats then clash)."""
        seats = list(self.match.seats)
        seats[seat] = Seat(name, seats[seat].bot)
        self.match.seats = check_seats(seats)

    def _server_name(self, seat: int) -> None:
        """Name a seat nobody has held as the server names it: a bot from its level,
        a human seat "Seat N", free (`skyjo.web.seat_names`). A seat someone held
        keeps its person's name, whoever plays it now."""
        if seat in self._joined:
            return
        bot = self.match.seats[seat].bot
        taken = [other for i, other in enumerate(self.match.names) if i != seat]
        name = free_name(seat) if bot is None else bot_name(bot, taken)
        with contextlib.suppress(MatchError):  # a room saved with names of old, alike
            self._set_name(seat, name)

    def _revoke(self, seat: int) -> None:
        """Forget every token of `seat` but the host's: the seat is free again."""
        self._tokens = {
            digest: held
            for digest, held in self._tokens.items()
            if held != seat or digest == self._host
        }

    # --- messages --------------------------------------------------------------------

    async def receive(self, client: Client, raw: str | bytes | None) -> None:
        """Handle one message of `client`; any refusal becomes an `error` to it alone."""
        if not client.admit():
            return
        try:
            message = protocol.parse(raw, self.settings.max_message)
            await self._dispatch(client, message)
        except ProtocolError as failure:
            client.send(refusal(failure))

    async def _dispatch(self, client: Client, message: protocol.ClientMessage) -> None:
        if isinstance(message, Hello):
            await self._hello(client, message)
        elif not client.greeted:
            raise ProtocolError("hello_first", "the first message is hello")
        elif isinstance(message, Move):
            await self._move(client, message.action)
        elif isinstance(message, Resync):
            async with self.lock:
                client.send(self.state_message(client))
        elif isinstance(message, Chat):
            self._chat(client, message.text)
        elif isinstance(message, SeatChange):
            await self._seat_change(client, message)
        elif isinstance(message, Remove):
            await self._remove(client, message.seat)
        elif isinstance(message, Ready):
            await self._say_ready(client)
        elif isinstance(message, Start):
            await self._start_game(client, message.empty)
        elif isinstance(message, Drop):
            await self._drop(client, message.seat)
        elif isinstance(message, Rematch):
            await self._rematch(client)

    async def _hello(self, client: Client, hello: Hello) -> None:
        """Greet a seat's holder (by token), a newcomer (`join`) or a spectator."""
        if client.greeted:
            raise ProtocolError("already_greeted", "hello was already said")
        if len(self.clients) >= self.settings.max_connections:
            raise ProtocolError("room_crowded", "this room has as many connections as it takes")
        if hello.join:
            if client.limits is not None:
                await client.limits.check("joins_rate", client.address)
            try:
                client.seat, token = await self.join(hello.name)
            except ProtocolError:  # no seat taken: its count is given back
                if client.limits is not None:
                    await client.limits.refund("joins_rate", client.address)
                raise
            client.send({"type": "joined", "seat": client.seat, "token": token})
        elif hello.token is not None:
            digest = token_hash(hello.token)
            if digest not in self._tokens:
                raise ProtocolError("bad_token", "this token holds no seat in this room")
            client.seat, client.host = self._tokens[digest], digest == self._host
        client.greeted = True
        async with self.lock:  # the state first, then every later update
            client.send(self.state_message(client))
            self.clients.add(client)
            self.idle_since = None
        if client.seat is not None:
            self._owed.pop(client.seat, None)  # awaited now as any connected human
        if client.seat is not None and self._absent_since.pop(client.seat, None) is not None:
            self._broadcast({"type": "seats", "seats": self.seats()})
        self._announce_ready()
        self._wake.set()

    def attach(self) -> None:
        """A connection to the room opened (its hello may come later): the room
        stays in memory until it ends (`leave`)."""
        self._attached += 1
        self.idle_since = None

    def leave(self, client: Client) -> None:
        """A connection ended: its seat may now be absent."""
        self._attached = max(0, self._attached - 1)
        greeted = client in self.clients
        self.clients.discard(client)
        self._check_idle()
        if not greeted:
            return
        self._announce_ready()  # a round end no longer waits for who left
        self._wake.set()
        seat = client.seat
        if seat is not None and not any(c.seat == seat for c in self.clients):
            self._absent_since[seat] = time.monotonic()
            self._broadcast({"type": "seats", "seats": self.seats()})
            self._wake.set()

    async def _move(self, client: Client, action: int) -> None:
        """A human's move: played through the match, refused with the match's reason."""
        if client.seat is None:
            raise ProtocolError("spectator", "a spectator cannot move", "spectator_move")
        if self.in_lobby:
            raise ProtocolError(
                "in_lobby", "the game has not started: the host starts it", "in_lobby"
            )
        if action == NEXT_ROUND and self.match.state.phase == Phase.ROUND_OVER:
            await self._say_ready(client)  # the next round is dealt once everyone has said so
            return
        async with self.lock:
            try:
                update = self.match.play(client.seat, action)
            except NotYourTurn as failure:
                raise refused("not_your_turn", failure) from None
            except MatchOver as failure:
                raise refused("game_over", failure) from None
            except IllegalActionError as failure:  # the engine's kind: i18n.js "illegal.<kind>"
                raise refused("illegal", failure) from None
            except MatchError as failure:
                raise refused("bad_move", failure) from None
            await self._commit(update)
        self._wake.set()

    def _chat(self, client: Client, text: str) -> None:
        """Relay a chat line from a seated player to everyone in the room."""
        if client.seat is None:
            raise ProtocolError("spectator", "spectators watch: they do not chat", "spectator_chat")
        if len(text) > self.settings.max_chat:
            raise ProtocolError(
                "too_long",
                f"a chat line has at most {self.settings.max_chat}",
                params={"max": self.settings.max_chat},
            )
        if any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
            raise ProtocolError(
                "bad_field", "a chat line holds no control character", "chat_control"
            )
        if not client.chats.take():
            raise ProtocolError("chat_rate", "too many chat lines: wait a little")
        name = self.match.seats[client.seat].name
        self._broadcast({"type": "chat", "seat": client.seat, "name": name, "text": text})

    async def _seat_change(self, client: Client, change: SeatChange) -> None:
        """The host hands a seat to a bot or back to its human."""
        if not client.host:
            raise ProtocolError(
                "not_host", "only the host changes who plays a seat", "not_host_seat"
            )
        if change.bot is not None and change.bot not in LADDER:
            raise ProtocolError(
                "bad_bot",
                f"a bot is one of {', '.join(LADDER)}",
                params={"bots": ", ".join(LADDER)},
            )
        if not 0 <= change.seat < self.match.num_players:
            raise ProtocolError(
                "bad_seat", f"there is no seat {change.seat}", "no_such_seat", {"seat": change.seat}
            )
        async with self.lock:
            if self.match.over:
                raise ProtocolError("game_over", "the game is over")
            await asyncio.to_thread(self.match.set_player, change.seat, change.bot)
            self._server_name(change.seat)
            await self._store()
        self._broadcast({"type": "seats", "seats": self.seats()})
        self._announce_ready()
        self._wake.set()

    async def _remove(self, client: Client, seat: int) -> None:
        """The host removes a seat's player: its tokens are revoked, its connections
        closed; the seat is free for a returning human (or the host gives it to a bot).
        In the lobby the seat is freed for anyone, its taker's name gone with them."""
        if not client.host:
            raise ProtocolError(
                "not_host", "only the host removes a seat's player", "not_host_remove"
            )
        if not 0 <= seat < self.match.num_players:
            raise ProtocolError(
                "bad_seat", f"there is no seat {seat}", "no_such_seat", {"seat": seat}
            )
        if self._tokens.get(self._host) == seat:
            raise ProtocolError("bad_seat", "that is the host's own seat", "host_own_seat")
        if seat not in set(self._tokens.values()):
            raise ProtocolError(
                "bad_seat", f"nobody holds seat {seat}", "seat_not_held", {"seat": seat}
            )
        async with self.lock:
            self._revoke(seat)
            if self.in_lobby:  # freed before the game: as if nobody had held it ("Seat N")
                self._joined.discard(seat)
                self._server_name(seat)
            await self._store()
        sent_away = (
            error("removed", "the host freed your seat for someone else", "seat_freed")
            if self.in_lobby
            else error("removed", "the host gave your seat to someone else")
        )
        for other in list(self.clients):
            if other.seat == seat:
                other.send(sent_away)
                other.close(4403, "removed by the host")
                self.clients.discard(other)
        self._check_idle()
        self._owed.pop(seat, None)  # a removed player is not awaited at a round end
        self._absent_since.setdefault(seat, time.monotonic())
        self._broadcast({"type": "seats", "seats": self.seats()})
        self._announce_ready()
        self._wake.set()

    # --- the lobby: friends join, then the host starts ------------------------------------

    @property
    def in_lobby(self) -> bool:
        """Whether the game waits in its lobby for the host to start it: nobody
        moves, no bot or stand-in plays, seats can still be dropped."""
        return bool(self.options.get("lobby"))

    def _check_lobby(self) -> None:
        """Refuse a lobby message after the game has started."""
        if not self.in_lobby:
            raise ProtocolError("started", "the game has started already", "already_started")

    async def _start_game(self, client: Client, empty: str | None) -> None:
        """The host starts the game. Seats nobody took are first dropped
        (`empty` "drop") or given to bots of the level `empty`; with `empty`
        None they are refused. Absent players' clocks start now."""
        if not client.host:
            raise ProtocolError("not_host", "only the host starts the game", "not_host_start")
        self._check_lobby()
        if empty not in (None, "drop", *LADDER):
            raise ProtocolError(
                "bad_bot",
                f"a bot is one of {', '.join(LADDER)}",
                params={"bots": ", ".join(LADDER)},
            )
        async with self.lock:
            self._check_lobby()
            free = self.free_seats()
            if free and empty is None:
                names = ", ".join(f"seat {s + 1}" for s in free)
                raise ProtocolError(
                    "empty_seats",
                    f"nobody has taken {names} yet: give them to bots or remove them",
                    "empty_seats",
                    {"names": names, "count": len(free)},
                )
            if free and empty == "drop":
                await self._reseat([s for s in range(self.match.num_players) if s not in free])
            for seat in free if empty != "drop" else ():
                await asyncio.to_thread(self.match.set_player, seat, empty)
                self._server_name(seat)
            del self.options["lobby"]
            now = time.monotonic()
            present = {c.seat for c in self.clients}
            seats = range(self.match.num_players)
            self._absent_since = {s: now for s in seats if s not in present}
            self._last_step = self._decision_since = now
            await self._store()
        self._restate()
        self._wake.set()

    async def _drop(self, client: Client, seat: int) -> None:
        """In the lobby, the host removes `seat` from the table: its player (if
        one joined) is sent away; the seats after it move up one."""
        if not client.host:
            raise ProtocolError(
                "not_host", "only the host removes a seat from the table", "not_host_drop"
            )
        self._check_lobby()
        if not 0 <= seat < self.match.num_players:
            raise ProtocolError(
                "bad_seat", f"there is no seat {seat}", "no_such_seat", {"seat": seat}
            )
        if self._tokens.get(self._host) == seat:
            raise ProtocolError("bad_seat", "that is the host's own seat", "host_own_seat")
        if self.match.num_players <= MIN_PLAYERS:
            raise ProtocolError(
                "too_few_seats",
                f"a game has {MIN_PLAYERS} seats at least",
                params={"min": MIN_PLAYERS},
            )
        async with self.lock:
            self._check_lobby()
            await self._reseat([s for s in range(self.match.num_players) if s != seat])
            await self._store()
        self._restate()

    async def _reseat(self, kept: list[int]) -> None:
        """(Under the lock, in the lobby) a fresh match of the seats `kept`, in
        order: tokens, connections and absences follow their seats' new numbers;
        those of the other seats are revoked and sent away."""
        number = {old: new for new, old in enumerate(kept)}
        seats = [self.match.seats[old] for old in kept]
        seats = [  # a free seat nobody held is named by its new number
            Seat(free_name(new), seat.bot) if seat.name == free_name(old) else seat
            for new, (old, seat) in enumerate(zip(kept, seats, strict=True))
        ]
        self.match = await asyncio.to_thread(self.match.reseated, seats)
        self._tokens = {
            digest: None if seat is None else number[seat]
            for digest, seat in self._tokens.items()
            if seat is None or seat in number
        }
        self._absent_since = {number[s]: t for s, t in self._absent_since.items() if s in number}
        self._joined = {number[s] for s in self._joined if s in number}
        for other in list(self.clients):
            if other.seat is None:
                continue
            if other.seat in number:
                other.seat = number[other.seat]
            else:
                other.send(error("removed", "the host removed your seat from the table"))
                other.close(4403, "removed by the host")
                self.clients.discard(other)
        self._check_idle()

    def _restate(self) -> None:
        """Send every connection a fresh `state` (the lobby changed the match)."""
        for client in list(self.clients):
            client.send(self.state_message(client))

    # --- another game: the whole table moves on to a new room ----------------------------

    @property
    def rematch(self) -> dict[str, Any] | None:
        """The table's next game once the host has started it: `{code, by}`, `by` the
        host's seat (None for a host without one); None before."""
        return self.options.get("rematch")

    async def _rematch(self, client: Client) -> None:
        """The host starts another game of this table once this one is over (or
        stalled): a new room (`next_game`, `next_record`) that every connection is
        told of, and whose code this room keeps (saved) for whoever comes later.
        Asked again, it answers the same room: one table, one next game."""
        if not client.host:
            raise ProtocolError("not_host", "only the host starts another game", "not_host_rematch")
        async with self.lock:  # two requests at once make one room
            if not self.match.over:
                raise ProtocolError(
                    "not_over",
                    "the game is not over: another game is started at its end",
                    "game_not_over",
                )
            if self.rematch is not None:
                client.send({"type": "rematch", **self.rematch})
                return
            assert self._next_game is not None, "a room made outside a lobby opens no other"
            if client.limits is not None:  # a room made, as by POST /api/rooms
                await client.limits.check("rooms_rate", client.address)
            room = await self._next_game(self)
            self.options["rematch"] = {"code": room.code, "by": self._tokens.get(self._host)}
            await self._store()
        self._broadcast({"type": "rematch", **self.options["rematch"]})

    def next_record(self, code: str) -> RoomRecord:
        """The record of the room `code` of this table's next game: the title, listing
        and turn timer, and every seat's token hashes, the host's included, so that a
        browser holding a token here holds the same seat there (no new secret is sent).
        It opens in its lobby, where the friends come back and the host can still give
        away or drop the seats of those who do not, when the table has a human seat
        besides the host's; a table of the host and bots starts at once, as when made."""
        host = self._tokens.get(self._host)
        others = any(seat.human and i != host for i, seat in enumerate(self.match.seats))
        options: dict[str, Any] = {"joined": []}
        if self.turn_seconds is not None:
            options["turn_seconds"] = self.turn_seconds
        if others:
            options["lobby"] = True
        tokens = dict(self._tokens)
        return RoomRecord(code, self.title, self.listed, self._host, tokens, {}, options=options)

    # --- the round end: every connected human says "next round" ----------------------

    def waiting(self) -> list[int]:
        """The seats a round end still waits for: human seats with a connection, and
        after a restart those it waited for when it was saved (`_owed`), whose
        player has not said "next round" (empty outside a round end)."""
        if self.match.state.phase != Phase.ROUND_OVER:
            return []
        present = {c.seat for c in self.clients if c.seat is not None} | self._owed.keys()
        return sorted(s for s in present if self.match.seats[s].human and s not in self._ready)

    def _wait_record(self) -> dict[str, Any] | None:
        """The round-end wait as saved (options' `round_end`): the step it belongs
        to, the seats awaited and those ready; None outside a round end."""
        if self.match.state.phase != Phase.ROUND_OVER or self.match.over:
            return None
        return {"step": self.match.steps, "waiting": self.waiting(), "ready": sorted(self._ready)}

    def _restore_wait(self, saved: Any, now: float) -> None:
        """(Loading) A room saved at a round end waits again for the seats it waited
        for, minus those ready: a restart has disconnected everyone, and without this
        the round would be dealt before their pages are back. Each is awaited until
        its player connects (then as any connected human) or for `absent_after`,
        the time an absent human has before a stand-in plays for them; a turn timer
        still deals at its time. A wait saved by an older version (no `round_end`,
        or one of another step) is unknown: every human seat someone held is awaited."""
        if self.match.state.phase != Phase.ROUND_OVER or self.match.over:
            return
        humans = {s for s, seat in enumerate(self.match.seats) if seat.human}
        if isinstance(saved, dict) and saved.get("step") == self.match.steps:
            self._ready = humans.intersection(saved.get("ready", ()))
            awaited = humans.intersection(saved.get("waiting", ()))
        else:
            awaited = humans & self._joined
        self._owed = dict.fromkeys(sorted(awaited - self._ready), now + self.settings.absent_after)

    async def _store(self) -> None:
        """(Under the lock) Save the whole room (its snapshot), noting what it holds:
        the round-end wait, the steps, the options and which match. When only the
        rest changed since the last (a "next round" at a round end, a seat's
        token), the match is not written again (`RoomRecord.same_match`)."""
        key = self._match_key()
        record = self.record(same_match=key == self._saved_match)
        self._saved_options = self._saved_match = None  # a failed write is not saved
        await self._save(record)
        self._saved_wait = record.options.get("round_end")
        self._saved_steps, self._saved_options = record.steps, record.options
        self._saved_match = key

    def _match_key(self) -> tuple[Any, ...]:
        """What makes the saved match differ: which match (a lobby's reseat makes
        another), its step, its seats (names, bots) and its stall."""
        match = self.match
        return (match, match.steps, match.seats, match.stalled)  # the match: by identity

    async def _store_step(self, update: Update) -> None:
        """(Under the lock, after a step) Save the step: appended to the move log
        when the snapshot holds everything else (the same options, the game not
        over) and is recent (`SNAPSHOT_EVERY`); else the whole room. A round's end
        changes the options (its wait), and its deal again: each writes a snapshot."""
        if (
            self._append is None
            or self.match.over
            or self.match.steps - self._saved_steps >= SNAPSHOT_EVERY
            or self._saved_options != self._options_record()
        ):
            await self._store()
            return
        move = MoveRecord(self.code, update.number, update.seat, update.action)
        try:
            await self._append(move)
        except BaseException:
            self._saved_options = None  # a step missing from the log: the next saves all
            raise

    async def _keep_wait(self) -> None:
        """(The driver) Stop waiting for the seats owed since a restart whose time is
        up, tell the viewers, and save the round-end wait when it changed since it
        was saved (a connection came or went, a seat's time ran out)."""
        now = time.monotonic()
        for seat in [s for s, until in self._owed.items() if until <= now]:
            del self._owed[seat]
        self._announce_ready()
        if self._wait_record() != self._saved_wait:
            async with self.lock:
                await self._store()

    async def _say_ready(self, client: Client) -> None:
        """The client's seat has seen the round's end (a `ready`, or the ender's
        NEXT_ROUND): saved, as a step is, before anyone is told."""
        if client.seat is None:
            raise ProtocolError("spectator", "a spectator cannot move", "spectator_move")
        async with self.lock:
            if self.match.state.phase != Phase.ROUND_OVER:
                raise ProtocolError(
                    "not_round_end", "there is no round end to move on from", "not_round_end"
                )
            self._ready.add(client.seat)
            if self._wait_record() != self._saved_wait:
                await self._store()
        self._announce_ready()
        self._wake.set()

    def _announce_ready(self) -> None:
        """Tell every viewer who is ready and who is awaited, when that changed (the
        driver then saves it)."""
        now = (sorted(self._ready), self.waiting())
        if now != self._announced:
            self._announced = now
            self._broadcast({"type": "ready", "ready": now[0], "waiting": now[1]})
            self._wake.set()

    # --- steps -------------------------------------------------------------------------

    async def _commit(self, update: Update | None, timed_out: bool = False) -> None:
        """After a step (under the lock): save the room, then tell every viewer."""
        assert update is not None
        self.recent.append(update)
        self._last_step = time.monotonic()
        if update.state.held is None:  # a new move is awaited (not a turn's second half)
            self._decision_since = self._last_step
        if update.state.phase != Phase.ROUND_OVER:
            self._ready.clear()
            self._owed.clear()
        await self._store_step(update)
        clients = list(self.clients)
        extras = self._update_extras(update)
        if timed_out:
            extras["timed_out"] = True
        texts = {  # each distinct view made and encoded once
            viewer: encode({"type": "update", **view, **extras})
            for viewer, view in update.views(c.seat for c in clients).items()
        }
        for client in clients:
            client.send_text(texts[client.seat])
        self._announce_ready()
        if self.match.over:
            self.match.close()
            self._on_idle()  # saved: the lobby may drop the room once nobody watches it

    def _update_extras(self, update: Update) -> dict[str, Any]:
        """What every viewer's `update` of a step says alike, besides its view: the
        round's summary when it ended, the winners, the stall, the turn timer."""
        message: dict[str, Any] = {}
        if any(event.kind == "round_ended" for event in update.events):
            message["round"] = round_summaries(update.state, self.match.names)[-1]
        if update.state.phase == Phase.GAME_OVER:
            message["winners"] = list(self.match.winners())
        if self.match.stalled is not None:
            message["stalled"] = self.match.stalled
        if self.turn_seconds is not None:
            message["timer_left"] = self.timer_left()
        return message

    def _check_idle(self) -> None:
        """Note when the last connection left, and tell the lobby."""
        if self.unwatched and self.idle_since is None:
            self.idle_since = time.monotonic()
            self._on_idle()

    @property
    def unwatched(self) -> bool:
        """Whether no connection is open to the room (greeted or not)."""
        return not self.clients and not self._attached

    @property
    def droppable(self) -> bool:
        """Whether the room may leave memory now: its game is over and saved (no
        step in progress) and nobody is connected."""
        return self.match.over and self.unwatched and not self.lock.locked()

    def _broadcast(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for client in list(self.clients):
            client.send_text(text)

    # --- the driver: bots and stand-ins ----------------------------------------------------

    def start(self) -> None:
        """Start the task that plays the bots' and absent humans' moves."""
        if self._driver is None:
            self._driver = asyncio.create_task(self._drive(), name=f"room {self.code}")

    async def close(self) -> None:
        """Stop the driver and disconnect every client."""
        self.closed = True
        self._wake.set()
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
        for client in list(self.clients):
            client.close(1001, "the server is stopping")
        self.match.close()

    def _due(self) -> tuple[float, int, str] | None:
        """The next automatic move: (seconds until it is due, seat, "bot",
        "stand_in", "timer", or at a round end "deal", or "lapse": a seat awaited
        since a restart is no longer), or None while a present human is to move
        (or to say "next round") with no turn timer, or the game is over."""
        seat = self.match.to_move
        if seat is None or self.in_lobby:
            return None
        now = time.monotonic()
        wait = self._last_step + self.settings.bot_delay - now
        if self.match.state.phase == Phase.ROUND_OVER:
            return self._deal_due(seat, wait, now)
        if not self.match.seats[seat].human:
            return max(0.0, wait), seat, "bot"
        due: list[tuple[float, int, str]] = []
        since = self._absent_since.get(seat) if seat in self._joined else None
        if since is not None:
            due.append((max(0.0, wait, since + self.settings.absent_after - now), seat, "stand_in"))
        if self.turn_seconds is not None:
            due.append((max(0.0, self._decision_since + self.turn_seconds - now), seat, "timer"))
        return min(due) if due else None

    def _deal_due(self, seat: int, wait: float, now: float) -> tuple[float, int, str] | None:
        """When a round end deals the next round: once nobody is awaited (after the
        bot pause), or, with a turn timer, when the timer runs out for those still
        idle. While seats owed since a restart are awaited, the driver wakes when the
        first one's time is up ("lapse", for that seat). None: it waits for a human."""
        if not self.waiting():
            return max(0.0, wait), seat, "deal"
        due: list[tuple[float, int, str]] = []
        if self.turn_seconds is not None:
            due.append((max(0.0, self._decision_since + self.turn_seconds - now), seat, "deal"))
        if self._owed:
            until, owed = min((until, s) for s, until in self._owed.items())
            due.append((max(0.0, until - now), owed, "lapse"))
        return min(due) if due else None

    async def _drive(self) -> None:
        """Play each automatic move when it is due; wake early on any change."""
        while not self.closed:
            self._wake.clear()
            try:
                await self._keep_wait()
            except Exception:  # a failed save is tried again at the next change
                log.exception("room %s: saving the round-end wait failed", self.code)
            due = self._due()
            if due is None:
                await self._wake.wait()
                continue
            if due[0] > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), due[0])
                continue
            if due[2] == "lapse":
                continue  # _keep_wait, at the loop's top, stops waiting for that seat
            try:
                await self._auto_move(due[1], due[2])
            except Exception:  # a bot's failure must not end the room
                log.exception("room %s: an automatic move failed", self.code)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), 1.0)

    async def _auto_move(self, seat: int, kind: str) -> None:
        """A bot's move, or a stand-in's for an absent human, thought off the event loop."""
        async with self.lock:
            due = self._due()
            if due is None or due[0] > 0 or due[1:] != (seat, kind):
                return  # something changed while waiting for the lock
            if kind == "bot" or (kind == "deal" and not self.match.seats[seat].human):
                play = self.match.play_bot
            elif kind == "deal":
                play = functools.partial(self.match.play, seat, NEXT_ROUND)
            else:
                play = functools.partial(self.match.play_for, seat)
            update = await asyncio.to_thread(play)
            await self._commit(update, timed_out=kind == "timer")


def _log_entry(update: Update, viewer: int | None) -> dict[str, Any]:
    """A past step as `viewer` may see it, without the observation."""
    return {
        "number": update.number,
        "seat": update.seat,
        "action": update.action,
        "events": [event.to_dict() for event in update.events_for(viewer)],
    }
