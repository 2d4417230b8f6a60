"""Rooms: each a table (`skyjo.web.table.Table`) that answers its connections' messages.

A room is created from a JSON request (`skyjo.web.room_config.RoomConfig`), gets a short
code, and gives the host a token for a seat. Each message of a connection is
checked (the seats' rules are `skyjo.web.seating`'s, the round end's
`skyjo.web.round_end`'s, the chat's `skyjo.web.chat`'s), then played on the
table under its one `asyncio.Lock`: the step, then saving it (the step
appended to the room's move log, or now and then the whole room), then an
`update` to every connection with what that viewer may see (`Update.view`),
encoded once for all the connections that see the same. Bots and stand-ins for
absent humans play from the room's driver task, off the event loop
(`asyncio.to_thread`), after a pause (`skyjo.web.timers`).

A client's bad message gets an `error` and changes nothing; a client that
floods is disconnected; nothing a client sends can stop the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import logging
import secrets
import time
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from skyjo.engine import NEXT_ROUND, IllegalActionError, Phase
from skyjo.match import Checkpoint, MatchError, MatchOver, NotYourTurn, Update
from skyjo.web import protocol
from skyjo.web.chat import check_line
from skyjo.web.client import Client
from skyjo.web.faults import RETRY_EVERY
from skyjo.web.hints import check_hint, hint
from skyjo.web.protocol import (
    Chat,
    Drop,
    Hello,
    Hint,
    Move,
    ProtocolError,
    Ready,
    Rematch,
    Remove,
    Resync,
    SeatChange,
    SetBotSpeed,
    Start,
    Undo,
    encode,
    refusal,
    refused,
)
from skyjo.web.room_saving import SNAPSHOT_EVERY
from skyjo.web.seating import new_token, token_hash
from skyjo.web.table import Table, round_summaries

#: What other modules import from here, where these lived before the room was split.
__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "SNAPSHOT_EVERY",
    "Client",
    "Room",
    "new_code",
    "new_token",
    "round_summaries",
    "token_hash",
]

log = logging.getLogger("skyjo.web")

#: Room codes: 6 characters without look-alikes (no 0/O, 1/I).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_code() -> str:
    """A fresh room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Room(Table):
    """A table that answers its connections' messages (each checked, played
    under the table's lock, saved, then told) and plays its automatic moves."""

    # --- connections and their messages ------------------------------------------------------

    async def receive(self, client: Client, raw: str | bytes | None) -> None:
        """Handle one message of `client`; any refusal becomes an `error` to it alone."""
        if not client.admit():
            return
        try:
            message = protocol.parse(raw, self.settings.max_message)
            await self._dispatch(client, message)
        except ProtocolError as failure:
            client.send(refusal(failure))
        except SQLAlchemyError as failure:  # unsaved: the room waits for its database
            client.send(refusal(self._storage_failed(failure)))

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
        elif isinstance(message, SetBotSpeed):
            await self._set_speed(client, message.speed)
        elif isinstance(message, Undo):
            await self._undo(client)
        elif isinstance(message, Hint):
            await self._hint(client)

    async def _hello(self, client: Client, hello: Hello) -> None:
        """Greet a seat's holder (by token), a newcomer (`join`) or a spectator."""
        if client.greeted:
            raise ProtocolError("already_greeted", "hello was already said")
        if len(self.clients) >= self.settings.max_connections:
            raise ProtocolError("room_crowded", "this room has as many connections as it takes")
        if hello.join:
            await self._hello_join(client, hello.name)
        elif hello.token is not None:
            client.seat, client.host = self.seating.holder(hello.token)
        client.greeted = True
        async with self.lock:  # the state first, then every later update
            client.send(self.state_message(client))
            if self.outage is not None:  # and that it waits for its database
                client.send(self._outage_message())
            self.clients.add(client)
            self.idle_since = None
        if client.seat is not None:
            self.round_end.connected(client.seat)  # awaited now as any connected human
        if client.seat is not None and self.clock.arrived(client.seat):
            self._tell_seats()
        self._announce_ready()
        self._wake.set()

    async def _hello_join(self, client: Client, name: str | None) -> None:
        """A newcomer's hello takes a seat (counted against its address's joins)."""
        if client.limits is not None:
            await client.limits.check("joins_rate", client.address)
        try:
            client.seat, token = await self.join(name)
        except ProtocolError:  # no seat taken: its count is given back
            if client.limits is not None:
                await client.limits.refund("joins_rate", client.address)
            raise
        client.send({"type": "joined", "seat": client.seat, "token": token})

    async def _move(self, client: Client, action: int) -> None:
        """A human's move: played through the match, refused with the match's reason."""
        if client.seat is None:
            raise ProtocolError("spectator", "a spectator cannot move", "spectator_move")
        if self.in_lobby:
            raise ProtocolError(
                "in_lobby", "the game has not started: the host starts it", "in_lobby"
            )
        self._check_available()
        if action == NEXT_ROUND and self.match.state.phase == Phase.ROUND_OVER:
            await self._say_ready(client)  # the next round is dealt once everyone has said so
            return
        async with self.lock:
            before = self.match.checkpoint()
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
            await self._commit(update, before)
            self.undo.note(self.match, client.seat, before)
        self._wake.set()

    async def _undo(self, client: Client) -> None:
        """Undo the client's last move and the bots' replies since (`skyjo.web.undo`):
        saved with the move log after it dropped, then a fresh `state` to everyone."""
        self._check_available()
        async with self.lock:
            mark = self.undo.check(self.match, client.seat)
            now = self.match.checkpoint()
            self.match.restore(mark)
            try:
                await self._store(rewound=True)
            except BaseException:
                self.match.restore(now)
                raise
            self.undo.clear()
            self.round_end.stepped(self.match.state.phase)
            self.clock.stepped(True, time.monotonic())
            kept = [update for update in self.recent if update.number <= mark.steps]
            self.recent.clear()
            self.recent.extend(kept)
            self._restate()
        self._announce_ready()
        self._wake.set()

    async def _say_ready(self, client: Client) -> None:
        """The client's seat has seen the round's end (a `ready`, or the ender's
        NEXT_ROUND): saved, as a step is, before anyone is told."""
        if client.seat is None:
            raise ProtocolError("spectator", "a spectator cannot move", "spectator_move")
        self._check_available()
        async with self.lock:
            self.round_end.say_ready(self.match, client.seat)
            if self._wait_record() != self.saving.wait:
                await self._store()
        self._announce_ready()
        self._wake.set()

    def _chat(self, client: Client, text: str) -> None:
        """Relay a chat line from a seated player to everyone in the room (`chat.check_line`)."""
        seat = check_line(client.seat, text, self.settings.max_chat)
        if not client.chats.take():
            raise ProtocolError("chat_rate", "too many chat lines: wait a little")
        name = self.match.seats[seat].name
        self._broadcast({"type": "chat", "seat": seat, "name": name, "text": text})

    async def _hint(self, client: Client) -> None:
        """The `expected` bot's move in the sender's place (`skyjo.web.hints`), thought
        off the event loop, for this step (`number`) alone."""
        async with self.lock:
            seat = check_hint(self.match, client.seat, self.in_lobby)
            action = await asyncio.to_thread(hint, self.match, seat)
            client.send({"type": "hint", "action": action, "number": self.match.steps})

    # --- seats and tokens: the rules are `seating`'s -----------------------------------------

    async def join(self, name: str | None = None, seat: int | None = None) -> tuple[int, str]:
        """Claim a free seat (`seat`, else the first), named `name` if given
        (`Seating.join`), and save the room: the seat and its token. A join that
        could not be saved is undone (`unavailable`)."""
        async with self.lock:
            self._check_available()
            seats, tokens, joined = (
                self.match.seats,
                dict(self.seating.tokens),
                set(self.seating.joined),
            )
            seat, token = self.seating.join(self.match, name, seat)
            try:
                await self._store()
            except SQLAlchemyError as failure:
                self.match.seats, self.seating.tokens, self.seating.joined = seats, tokens, joined
                raise self._storage_failed(failure) from None
        self._tell_seats()
        return seat, token

    async def _seat_change(self, client: Client, change: SeatChange) -> None:
        """The host hands a seat to a bot or back to its human."""
        self.seating.check_seat_change(client.host, self.match, change.seat, change.bot)
        async with self.lock:
            if self.match.over:
                raise ProtocolError("game_over", "the game is over")
            await self._give(change.seat, change.bot)
            await self._store()
        self._tell_seats()
        self._announce_ready()
        self._wake.set()

    async def _give(self, seat: int, bot: str | None) -> None:
        """(Under the lock) Hand `seat` to the bot `bot` (None: its human), named as
        the server names it when nobody has held it (`Seating.name_by_server`)."""
        await asyncio.to_thread(self.match.set_player, seat, bot)
        self.seating.name_by_server(self.match, seat)

    async def _remove(self, client: Client, seat: int) -> None:
        """The host removes a seat's player (`Seating.remove`): its connections are
        closed, and it is no longer awaited at a round end."""
        self.seating.check_remove(client.host, self.match, seat)
        async with self.lock:
            sent_away = self.seating.remove(self.match, seat)
            await self._store()
        self._send_away({seat}, sent_away)
        self.round_end.connected(seat)  # a removed player is not awaited at a round end
        self.clock.absent.setdefault(seat, time.monotonic())
        self._tell_seats()
        self._announce_ready()
        self._wake.set()

    # --- the lobby: friends join, then the host starts ---------------------------------------

    async def _start_game(self, client: Client, empty: str | None) -> None:
        """The host starts the game (`Seating.start_plan`: the seats nobody took
        dropped, or given to bots). Absent players' clocks start now."""
        self.seating.check_start(client.host, empty)
        async with self.lock:
            plan = self.seating.start_plan(self.match, empty)
            if plan.kept is not None:
                await self._reseat(plan.kept)
            for seat in plan.bots:
                await self._give(seat, plan.bot)
            self.seating.started()
            present = {c.seat for c in self.clients}
            self.clock.started(self.match.num_players, present, time.monotonic())
            await self._store()
        self._restate()
        self._wake.set()

    async def _drop(self, client: Client, seat: int) -> None:
        """In the lobby, the host removes `seat` from the table: its player (if
        one joined) is sent away; the seats after it move up one."""
        self.seating.check_drop(client.host, self.match, seat)
        async with self.lock:
            self.seating.check_lobby()
            await self._reseat([s for s in range(self.match.num_players) if s != seat])
            await self._store()
        self._restate()

    # --- another game: the whole table moves on to a new room --------------------------------

    async def _rematch(self, client: Client) -> None:
        """The host starts another game of this table once this one is over (or
        stalled): a new room (`next_game`, `next_record`) that every connection is
        told of, and whose code this room keeps (saved) for whoever comes later.
        Asked again, it answers the same room: one table, one next game."""
        async with self.lock:  # two requests at once make one room
            started = self.seating.check_rematch(client.host, self.match.over)
            if started is not None:
                client.send({"type": "rematch", **started})
                return
            assert self._next_game is not None, "a room made outside a lobby opens no other"
            if client.limits is not None:  # a room made, as by POST /api/rooms
                await client.limits.check("rooms_rate", client.address)
            room = await self._next_game(self)
            started = self.seating.rematched(room.code)
            await self._store()
        self._broadcast({"type": "rematch", **started})

    # --- steps, told to every viewer, and the driver: bots and stand-ins --------------------

    async def _commit(
        self, update: Update | None, before: Checkpoint, timed_out: bool = False
    ) -> None:
        """After a step (under the lock): save the room, then tell every viewer. A
        step that could not be saved is undone (the match back at `before`, the round
        end as it was) and told to nobody: its error goes up (`_storage_failed`)."""
        assert update is not None
        waited = copy.deepcopy(self.round_end)
        self.round_end.stepped(update.state.phase)
        try:
            await self._store_step(update)
        except BaseException:
            self.match.restore(before)
            self.round_end = waited
            raise
        self.recent.append(update)
        self.clock.stepped(update.state.held is None, time.monotonic())
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
        "stand_in", "timer" (`Clock.due`), or at a round end "deal" or "lapse"
        (`RoundEnd.due`)), or None while a present human is to move (or to say
        "next round") with no turn timer, or in the lobby, or the game is over."""
        if self.match.to_move is None or self.in_lobby:
            return None
        now = time.monotonic()
        if self.match.state.phase == Phase.ROUND_OVER:
            pause, timer = self.clock.pause_left(now), self.clock.deadline()
            return self.round_end.due(self.match, self._present(), pause, timer, now)
        return self.clock.due(self.match, self.seating.joined, now)

    async def _drive(self) -> None:
        """Play each automatic move when it is due; wake early on any change."""
        while not self.closed:
            self._wake.clear()
            if self.outage is not None:
                if not await self._recover():
                    await asyncio.sleep(RETRY_EVERY)  # the database's own time to come back
                continue
            try:
                await self._keep_wait()
            except SQLAlchemyError as failure:
                self._storage_failed(failure)
                continue
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
            except SQLAlchemyError as failure:  # undone: played again once saved
                self._storage_failed(failure)
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
            before = self.match.checkpoint()
            update = await asyncio.to_thread(play)
            await self._commit(update, before, timed_out=kind == "timer")
