"""A room's table: its match, its seats, its connections, what it saves and what it shows.

A `Table` holds the state of a room and the lock every change is made under:
the match, the connections, the rules of its seats, of its round end and of
its clocks, which are plain objects (`skyjo.web.seating`,
`skyjo.web.round_end`, `skyjo.web.timers`), and what the database holds of it
(`skyjo.web.room_saving`). It says what each viewer may see (`info`,
`state_message`) and saves the room; `skyjo.web.rooms.Room` answers the
connections' messages, tells each step to every viewer and drives the bots.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from skyjo.engine import State
from skyjo.match import Match, Update
from skyjo.scoring import round_facts, score_round
from skyjo.web import protocol
from skyjo.web.client import Client
from skyjo.web.faults import (
    RETRY_AFTER,
    logged,
    outage_refusal,
    storage_kind,
    storage_refusal,
)
from skyjo.web.pace import DEFAULT_SPEED, bot_pause
from skyjo.web.protocol import ProtocolError, encode, error
from skyjo.web.room_config import default_title
from skyjo.web.room_saving import Appender, Saver, Saving
from skyjo.web.round_end import RoundEnd
from skyjo.web.seating import Seating
from skyjo.web.settings import Settings
from skyjo.web.storage import MoveRecord, RoomRecord
from skyjo.web.timers import Clock
from skyjo.web.undo import UndoMark

log = logging.getLogger("skyjo.web")

#: The options of a saved room that are its seating's (`Seating.options`).
SEATING_OPTIONS = ("joined", "lobby", "rematch")
#: Opens the room of a table's next game (`Lobby.rematch`): given the room whose game
#: is over, the new room.
NextGame = Callable[[Any], Awaitable["Table"]]


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


class Table:
    """A table: one match, its connections, and the lock every change is made
    under. The rules of its seats (`seating`), its round end (`round_end`) and
    its clocks (`clock`) are plain objects the table asks; it saves each change
    (`saving`), then tells its connections."""

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
        options = dict(record.options)
        saved_wait = options.pop("round_end", None)
        self.seating = Seating.saved(record.host, record.tokens, options, match.num_players)
        #: The room's other options (its turn timer), saved as they came.
        self.options = {k: v for k, v in options.items() if k not in SEATING_OPTIONS}
        now = time.monotonic()
        self.clock = Clock(
            match.num_players,
            options.get("turn_seconds"),
            bot_pause(settings.bot_delay, options.get("bot_speed")),
            settings.absent_after,
            now,
        )
        self.round_end = RoundEnd()
        self.round_end.restore(saved_wait, match, self.seating.joined, now + settings.absent_after)
        self.undo = UndoMark()  #: the human's last move, to undo against bots
        self.saving = Saving(save, append, record.steps)
        self.saving.wait = self._wait_record()
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self.closed = False
        #: Since when (time.monotonic) no connection has been open; None while one is.
        self.idle_since: float | None = now
        self._attached = 0  #: connections open to the room, greeted or not
        self._on_idle = on_idle or (lambda: None)
        self._next_game = next_game
        #: While the database takes no write: the kind of its failure (`skyjo.web.faults`).
        self.outage: str | None = None

    # --- reading -----------------------------------------------------------------------------

    @property
    def turn_seconds(self) -> float | None:
        """The turn timer's seconds (None: no timer)."""
        return self.clock.turn_seconds

    @turn_seconds.setter
    def turn_seconds(self, seconds: float | None) -> None:
        self.clock.turn_seconds = seconds

    @property
    def bot_speed(self) -> str:
        """The bots' pace (`skyjo.web.pace`), as the host set it."""
        return str(self.options.get("bot_speed", DEFAULT_SPEED))

    @property
    def in_lobby(self) -> bool:
        """Whether the game waits in its lobby for the host to start it: nobody
        moves, no bot or stand-in plays, seats can still be dropped."""
        return self.seating.lobby

    @property
    def rematch(self) -> dict[str, Any] | None:
        """The table's next game once the host has started it: `{code, by}`, `by` the
        host's seat (None for a host without one); None before."""
        return self.seating.rematch

    def record(self, same_match: bool = False) -> RoomRecord:
        """What the database keeps of the room now (at a round end, its wait too:
        `_wait_record`); with `same_match`, without its match (the one saved last)."""
        return RoomRecord(
            code=self.code,
            title=self.title,
            listed=self.listed,
            host=self.seating.host,
            tokens=dict(self.seating.tokens),
            match={} if same_match else self.match.to_dict(),
            same_match=same_match,
            finished=self.match.over,
            steps=self.match.steps,
            created_at=self.created_at,
            options=self._options_record(),
        )

    def _options_record(self) -> dict[str, Any]:
        """The room's options as saved (`RoomRecord.options`)."""
        options = {**self.options, **self.seating.options()}
        wait = self._wait_record()
        if wait is not None:
            options["round_end"] = wait
        return options

    def free_seats(self) -> list[int]:
        """Human seats nobody holds a token for."""
        return self.seating.free_seats(self.match)

    def seats(self) -> list[dict[str, Any]]:
        """The public facts of each seat."""
        return self.seating.public(self.match, self.clock.absent)

    def info(self) -> dict[str, Any]:
        """The room as anyone may see it (the front page's list, a join page)."""
        host = self.seating.host_seat
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
            "bot_speed": self.bot_speed,
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
            "ready": sorted(self.round_end.ready),
            "waiting": self.waiting(),
        }

    def timer_left(self) -> float | None:
        """Seconds until the turn timer plays the awaited move of a human seat
        (`skyjo.web.timers.Clock.timer_left`)."""
        return self.clock.timer_left(self.match, time.monotonic())

    def _present(self) -> set[int]:
        """The seats with a connection."""
        return {c.seat for c in self.clients if c.seat is not None}

    # --- the round end: every connected human says "next round" ------------------------------

    def waiting(self) -> list[int]:
        """The seats a round end still waits for (`RoundEnd.waiting`)."""
        return self.round_end.waiting(self.match, self._present())

    def _wait_record(self) -> dict[str, Any] | None:
        """The round-end wait as saved (`RoundEnd.record`); None outside a round end."""
        return self.round_end.record(self.match, self._present())

    async def _keep_wait(self) -> None:
        """(The driver) Stop waiting for the seats owed since a restart whose time is
        up, tell the viewers, and save the round-end wait when it changed since it
        was saved (a connection came or went, a seat's time ran out)."""
        self.round_end.lapse(time.monotonic())
        self._announce_ready()
        if self._wait_record() != self.saving.wait:
            async with self.lock:
                await self._store()

    def _announce_ready(self) -> None:
        """Tell every viewer who is ready and who is awaited, when that changed (the
        driver then saves it)."""
        message = self.round_end.announcement(self.match, self._present())
        if message is not None:
            self._broadcast(message)
            self._wake.set()

    # --- saving ------------------------------------------------------------------------------

    async def _store(self, rewound: bool = False) -> None:
        """(Under the lock) Save the whole room (its snapshot). When only the rest
        changed since the last (a "next round" at a round end, a seat's token), the
        match is not written again (`RoomRecord.same_match`). `rewound`: the game went
        back (an undo): the match is written, the move log after it dropped."""
        key = self._match_key()
        record = self.record(same_match=not rewound and self.saving.holds_match(key))
        record.rewound = rewound
        await self.saving.snapshot(record, key)

    def _match_key(self) -> tuple[Any, ...]:
        """What makes the saved match differ: which match (a lobby's reseat makes
        another), its step, its seats (names, bots) and its stall."""
        match = self.match
        return (match, match.steps, match.seats, match.stalled)  # the match: by identity

    async def _store_step(self, update: Update) -> None:
        """(Under the lock, after a step) Save the step: appended to the move log
        when it may be (`Saving.appends`), else the whole room."""
        match = self.match
        if self.saving.appends(match.steps, match.over, self._options_record()):
            await self.saving.step(MoveRecord(self.code, update.number, update.seat, update.action))
        else:
            await self._store()

    # --- the room's options ------------------------------------------------------------------

    async def _set_speed(self, client: Client, speed: str) -> None:
        """The host sets the bots' pace (`skyjo.web.pace`): saved, then told to everyone."""
        if not client.host:
            raise ProtocolError("not_host", "only the host sets the bots' pace", "not_host_speed")
        self._check_available()
        async with self.lock:
            was = self.options.get("bot_speed")
            self.options["bot_speed"] = speed
            try:
                await self._store()
            except BaseException:
                self.options["bot_speed"] = was
                raise
            self.clock.bot_delay = bot_pause(self.settings.bot_delay, speed)
        self._broadcast({"type": "bot_speed", "speed": speed})
        self._wake.set()

    # --- a database that fails: the room waits for it, and says so ---------------------------

    def _storage_failed(self, failure: BaseException) -> ProtocolError:
        """A write of the room failed: it is unavailable (every connection told once,
        moves refused) until the driver saves it again (`_recover`); the refusal."""
        kind = logged(failure, f"room {self.code}")
        if self.outage is None:
            self.outage = kind
            self._broadcast(self._outage_message())
            self._wake.set()
        return storage_refusal(failure)

    def _outage_message(self) -> dict[str, Any]:
        """What tells a connection the room waits for its database (docs/web-protocol.md)."""
        return {"type": "unavailable", "kind": self.outage, "retry_after": RETRY_AFTER}

    def _check_available(self) -> None:
        """Refuse a change while the database takes no write (`unavailable`, its kind)."""
        if self.outage is not None:
            raise outage_refusal(self.outage)

    async def _recover(self) -> bool:
        """(The driver, while unavailable) Save the whole room as it is (the last step
        saved, and any other change since): once that works, tell every connection the
        room is back and send it the room's state again. Whether it worked."""
        async with self.lock:
            try:
                await self._store()
            except SQLAlchemyError as failure:
                self.outage = storage_kind(failure)  # logged when it began
                return False
            self.outage = None
            log.warning("room %s: the database takes writes again: the room goes on", self.code)
            self._broadcast({"type": "available"})
            self._restate()
        self._announce_ready()
        return True

    # --- steps, and telling the connections --------------------------------------------------

    def _tell_seats(self) -> None:
        self._broadcast({"type": "seats", "seats": self.seats()})

    def _restate(self) -> None:
        """Send every connection a fresh `state` (the lobby changed the match)."""
        for client in list(self.clients):
            client.send(self.state_message(client))

    def _broadcast(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for client in list(self.clients):
            client.send_text(text)

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

    # --- connections, and seats that move --------------------------------------------------

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
            self.clock.left(seat, time.monotonic())
            self._tell_seats()
            self._wake.set()

    def _send_away(self, seats: Collection[int], message: dict[str, Any]) -> None:
        """Close the connections of `seats` (after `message`): the host removed them."""
        for other in list(self.clients):
            if other.seat is not None and other.seat in seats:
                other.send(message)
                other.close(4403, "removed by the host")
                self.clients.discard(other)
        self._check_idle()

    async def _reseat(self, kept: list[int]) -> None:
        """(Under the lock, in the lobby) a fresh match of the seats `kept`, in
        order: tokens, connections and absences follow their seats' new numbers;
        those of the other seats are revoked and sent away."""
        seats, number = self.seating.reseat(self.match, kept)
        gone = set(range(self.match.num_players)) - number.keys()
        self.match = await asyncio.to_thread(self.match.reseated, seats)
        self.seating.renumber(number)
        self.clock.renumber(number)
        self._send_away(gone, error("removed", "the host removed your seat from the table"))
        for other in self.clients:
            if other.seat is not None:
                other.seat = number[other.seat]

    def next_record(self, code: str) -> RoomRecord:
        """The record of the room `code` of this table's next game: the title, listing
        and turn timer, and every seat's token hashes, the host's included, so that a
        browser holding a token here holds the same seat there (no new secret is
        sent); its lobby as `Seating.next_options` says."""
        options = self.seating.next_options(self.match)
        if self.turn_seconds is not None:
            options["turn_seconds"] = self.turn_seconds
        if "bot_speed" in self.options:
            options["bot_speed"] = self.options["bot_speed"]
        seating = self.seating
        return RoomRecord(
            code, self.title, self.listed, seating.host, dict(seating.tokens), {}, options=options
        )


def _log_entry(update: Update, viewer: int | None) -> dict[str, Any]:
    """A past step as `viewer` may see it, without the observation."""
    return {
        "number": update.number,
        "seat": update.seat,
        "action": update.action,
        "events": [event.to_dict() for event in update.events_for(viewer)],
    }
