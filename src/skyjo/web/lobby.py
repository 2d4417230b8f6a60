"""The lobby: every room of a server, created, found by code, resumed from the database.

A server that starts resumes every unfinished room in the background
(`start_resuming`): it answers at once, and a room asked for before its turn
(its players come back to its page) is loaded then, once, however many ask.

A finished game's room does not stay in memory for ever: once its game is over
and saved, and nobody has been connected to it for `Settings.finished_linger`
seconds (or more such rooms than `Settings.finished_kept` wait), the lobby drops
it (`sweep`). Its row stays in the database: the replay and the record are read
from there, and a visitor of the room's page loads it again (for a while).

On PostgreSQL the lobby is one process's part of a cluster (`skyjo.web.cluster`):
it keeps only the rooms whose lock it holds, takes a room's lock before loading
it (`get`, `locate`), takes the unfinished rooms nobody holds every
`TAKE_OVER_EVERY` seconds (`take_over`), and lets go of a room it drops.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from skyjo import practice
from skyjo.bots import make_bot
from skyjo.match import Match, MatchError, Seat
from skyjo.seeds import fresh_seed
from skyjo.web.archive import Archive
from skyjo.web.cluster import Ownership, OwnershipLost, room_moving
from skyjo.web.pace import DEFAULT_SPEED
from skyjo.web.protocol import ProtocolError, refused
from skyjo.web.room_config import RoomConfig, default_title
from skyjo.web.rooms import CODE_LENGTH, Room, new_code
from skyjo.web.seat_names import bot_name, player_name, reserved
from skyjo.web.settings import Settings
from skyjo.web.storage import RoomRecord, Store
from skyjo.web.thinking import Thinkers
from skyjo.web.writes import Writes

log = logging.getLogger("skyjo.web")
#: The level of the bots that play on with a person from a finished game's position.
PRACTICE_BOT = "expected"
#: Threads that make and load matches: the background resume takes one at a time, so
#: a long load leaves the others to the rooms players create and come back to.
MATCH_THREADS = 4
#: How soon (seconds) the lobby looks again at a finished room it could not drop
#: because a step of it was still being saved.
RETRY_DROP = 0.1
#: (A cluster) How often (seconds) a process looks for unfinished rooms nobody holds
#: (their owner died) and takes them (`Lobby.take_over`), and checks its own locks.
TAKE_OVER_EVERY = 1.0
#: The most rooms the front page's list shows (the newest).
LISTED = 50


def _loaded(record: RoomRecord, make: Any) -> Match:
    """The match of a saved room: its snapshot, then the steps saved after it."""
    match = Match.from_dict(record.match, make=make)
    match.replay_moves(record.moves)
    return match


def snapshot_info(record: RoomRecord) -> dict[str, Any]:
    """A room's public facts (`Room.info`) from its saved snapshot, for a room another
    process of the cluster holds. The snapshot is written whenever a seat, the lobby
    or the round changes (docs/deploy.md), so these are current; who is connected
    and how many watch only the owner knows: a bot's seat and a claimed one are
    given as connected, a free one not, and no spectator (`GET /api/rooms/{code}`,
    relayed to the owner, tells)."""
    seats = record.match["seats"]
    game = record.match["record"]
    held = set(record.tokens.values())
    host = record.tokens.get(record.host)
    return {
        "code": record.code,
        "title": record.title,
        "default_title": record.title
        == default_title(None if host is None else seats[host]["name"]),
        "listed": record.listed,
        "rules": game["rules"],
        "seats": [
            {
                "name": seat["name"],
                "bot": seat["bot"],
                "human": seat["bot"] is None,
                "claimed": i in held,
                "connected": seat["bot"] is not None or i in held,
                "host": i == host,
            }
            for i, seat in enumerate(seats)
        ],
        "free_seats": [i for i, s in enumerate(seats) if s["bot"] is None and i not in held],
        "spectators": 0,
        "round": max(1, len(game["rounds"])),
        "over": record.finished,
        "lobby": bool(record.options.get("lobby")),
        "rematch": record.options.get("rematch"),
        "bot_speed": record.options.get("bot_speed", DEFAULT_SPEED),
    }


def to_drop(rooms: list[Room], now: float, settings: Settings) -> tuple[list[Room], float | None]:
    """Which finished rooms nobody is connected to leave memory now: those that
    have waited `finished_linger` seconds, and the longest waiting beyond the
    `finished_kept` newest (a room whose step is still being saved is looked at
    again soon); and the seconds until the next one is due (None: none waits)."""
    linger, kept = settings.finished_linger, settings.finished_kept
    waiting = sorted(
        (r for r in rooms if r.match.over and r.unwatched),
        key=lambda r: r.idle_since if r.idle_since is not None else now,
    )
    due: list[float] = []
    gone: list[Room] = []
    for index, room in enumerate(waiting):
        idle = now - (room.idle_since if room.idle_since is not None else now)
        if index >= len(waiting) - kept and idle < linger:
            due.append(linger - idle)
        elif not room.droppable:
            due.append(RETRY_DROP)  # a step is being saved: look again soon
        else:
            gone.append(room)
    return gone, min(due) if due else None


def _report_resume(task: asyncio.Task[int]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("the rooms could not be resumed", exc_info=task.exception())


class Lobby:
    """The rooms of one server process, by code. Database writes go through one
    thread, in order (`save`, `append`), off the event loop."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        thinkers: Thinkers | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        """`ownership`: this process is one of a cluster (`skyjo.web.cluster`): it keeps
        in memory only the rooms whose lock it holds."""
        self.settings = settings
        self.store = store
        self.thinkers = thinkers  #: worker processes for the bots (None: threads)
        self.ownership = ownership
        self.rooms: dict[str, Room] = {}
        writes = Writes(store)
        #: Database work, in its thread: a room's record written, a step appended (the
        #: rooms' `save` and `append`), anything else run (`_run_db`).
        self.save, self.append, self._run_db = writes.save, writes.append, writes.run
        self._writes = writes
        #: Matches are made and loaded in threads of their own, not in the default
        #: executor's, which may all be waiting for bots to think (after a restart,
        #: every resumed room's bots at once): a player waits for these.
        self._matches = ThreadPoolExecutor(MATCH_THREADS, thread_name_prefix="skyjo-match")
        #: Finished games: their records, replays and reviews (`skyjo.web.archive`).
        self.archive = Archive(store, self.rooms, self._run_db)
        self.reviews = self.archive.reviews
        # what the replay routes ask the lobby for
        self.finished, self.replay = self.archive.finished, self.archive.replay
        self.upload, self.uploaded = self.archive.upload, self.archive.uploaded
        self.record_of, self.room_review = self.archive.record_of, self.archive.room_review
        self.upload_review = self.archive.upload_review
        self._idle = asyncio.Event()  #: set by a room whose game ended or that nobody watches
        self._sweeper: asyncio.Task[None] | None = None
        self._resumer: asyncio.Task[int] | None = None
        #: The rooms being loaded from the database, by code: set once each is loaded.
        self._loading: dict[str, asyncio.Event] = {}
        #: While `resume` runs, every room in memory since it began: its snapshot of
        #: the database is stale for them (a room dropped since must not come back old).
        self._seen: set[str] | None = None
        self._taker: asyncio.Task[None] | None = None

    async def _match(self, function: Any, *args: Any, **options: Any) -> Match:
        """`function(*args, **options)` (a match made or loaded) in the matches' threads."""
        work = functools.partial(function, *args, **options)
        return await asyncio.get_running_loop().run_in_executor(self._matches, work)

    async def create(self, config: RoomConfig) -> tuple[Room, str, dict[int, str]]:
        """A new room for `config`, saved and started; returns it, the host's token
        and the tokens of the hot seats (played on the host's device)."""
        code = await self._new_code()
        match = await self._match(Match, config.seats, config.rules, make=self._maker(code))
        options: dict[str, Any] = {"joined": []}  # seats someone has held (Room._joined)
        if config.turn_seconds is not None:
            options["turn_seconds"] = config.turn_seconds
        if config.lobby:
            options["lobby"] = True
        if config.bot_speed != DEFAULT_SPEED:
            options["bot_speed"] = config.bot_speed
        record = RoomRecord(code, config.title, config.listed, "", {}, {}, options=options)
        room = self._room(record, match)
        token = room.seating.host_token(config.host_seat)
        hot = dict(room.seating.claim(room.match, seat) for seat in config.hot_seats)
        await self._open(room)
        return room, token, hot

    async def practice(self, record: dict[str, Any], step: int) -> tuple[Room, str, int]:
        """A new room that plays on from `step` of a finished game's `record`
        (`skyjo.practice`: the unseen cards dealt afresh): the seat to act there is
        the host's, a person of the game's name; every other seat an `expected`
        bot. Returns it, the host's token and seat; `bad_request` (kind `no_turn`)
        for a step that is no seat's turn."""
        try:
            state, seat = await self._match(practice.position, record, step, random.Random())
        except practice.PracticeError as failure:
            raise ProtocolError("bad_request", str(failure), "no_turn", {"step": step}) from None
        name = record["players"][seat]
        name = name if not reserved(name) else player_name(seat)
        seats: list[Seat] = []
        for i in range(len(record["players"])):
            taken = [s.name for s in seats] + [name]
            bot = Seat(bot_name(PRACTICE_BOT, taken), PRACTICE_BOT)
            seats.append(Seat(name, None) if i == seat else bot)
        code = await self._new_code()
        match = await self._match(
            Match, seats, state.rules, fresh_seed(), make=self._maker(code), state=state
        )
        kept = RoomRecord(code, default_title(name), False, "", {}, {}, options={"joined": []})
        room = self._room(kept, match)
        token = room.seating.host_token(seat)
        await self._open(room)
        return room, token, seat

    async def rematch(self, old: Room) -> Room:
        """The new room of the next game of `old`'s table (`Room.next_record`): its
        seats (names, bots) and rules, a fresh deal."""
        code = await self._new_code()
        try:
            match = await self._match(
                Match, old.match.seats, old.match.rules, make=self._maker(code)
            )
        except MatchError as failure:  # a name saved under older rules that these refuse
            raise refused("bad_name", failure) from None
        room = self._room(old.next_record(code), match)
        await self._open(room)
        return room

    async def _new_code(self) -> str:
        """A code no room has, in memory or in the database (in a cluster, its lock
        taken: held here)."""
        while True:
            code = new_code()
            if code in self.rooms or not await self._take(code):
                continue
            if await self._run_db(self.store.load, code) is None:
                return code
            await self._release(code)

    async def _take(self, code: str) -> bool:
        """(A cluster) Take room `code`'s lock: whether this process holds it now
        (True outside a cluster)."""
        if self.ownership is None:
            return True
        return bool(await self.ownership.call(self.ownership.take, [code]))

    async def _release(self, code: str) -> None:
        """(A cluster) Let go of room `code`, no longer in memory here."""
        if self.ownership is not None and code not in self.rooms and code not in self._loading:
            try:
                await self.ownership.call(self.ownership.release, code)
            except OwnershipLost:
                log.warning("the lock connection failed while letting go of room %s", code)

    async def locate(self, code: str) -> str | None:
        """(A cluster) Where room `code` is played: None here (in memory, or its lock
        just taken: `get` loads it; or no such code), else the address of the
        process holding it."""
        assert self.ownership is not None
        code = code.strip().upper()
        if len(code) != CODE_LENGTH:
            return None
        for _ in range(3):  # the holder may let go between the two looks
            if code in self.rooms or code in self._loading or await self._take(code):
                return None
            owner = await self.ownership.call(self.ownership.owner, code)
            if owner is not None and owner != self.ownership.address:
                return owner
        return None

    def _room(self, record: RoomRecord, match: Match) -> Room:
        return Room(
            record, match, self.settings, self.save, self._idle.set, self.rematch, self.append
        )

    async def _open(self, room: Room) -> None:
        """Keep a new room, save it and start its driver; a room that could not be
        saved is not kept (its request fails: `skyjo.web.faults`)."""
        self._keep(room)
        try:
            await self.save(room.record())
        except BaseException:
            del self.rooms[room.code]
            await room.close()
            await self._release(room.code)
            raise
        room.start()

    async def get(self, code: str) -> Room | None:
        """The room with this code (loaded from the database if it is not in memory)."""
        code = code.strip().upper()
        if len(code) != CODE_LENGTH:
            return None
        while (room := self.rooms.get(code)) is None:
            if (loading := self._loading.get(code)) is not None:
                await loading.wait()  # then in memory (or not: a failure, dropped since)
                continue
            if not await self._take(code):  # held by another process: `locate` relays
                raise room_moving()
            record = await self._run_db(self.store.load, code)  # read once the lock is held
            if record is None:
                await self._release(code)
                return None
            if code not in self.rooms and code not in self._loading:
                return await self._resume(record)
        return room

    async def join(
        self, code: str, name: str | None = None, seat: int | None = None
    ) -> tuple[Room, int, str]:
        """Claim a free human seat of a room (`seat`, else the first), named `name`
        if given: the room, the seat and its token."""
        room = await self.get(code)
        if room is None:
            raise ProtocolError("no_room", f"there is no room {code!r:.20}")
        seat, token = await room.join(name, seat)
        return room, seat, token

    async def resume(self) -> int:
        """Load every unfinished room from the database (oldest first) that is not
        in memory yet; returns how many rooms are in memory. (In a cluster, those
        whose lock is free: `take_over`.)"""
        if self.ownership is not None:
            await self.take_over()
            return len(self.rooms)
        self._seen = set(self.rooms)
        try:
            records = await self._run_db(self.store.active)
            for record in records:
                code = record.code
                if code in self._seen or code in self.rooms or code in self._loading:
                    continue  # loaded (or created) since: a visitor had it first
                try:
                    await self._resume(record)
                except Exception:  # one damaged room must not keep the server down
                    log.exception("room %s could not be resumed", record.code)
        finally:
            self._seen = None
        return len(self.rooms)

    def start_resuming(self) -> None:
        """Start resuming every unfinished room (`resume`) in the background; in a
        cluster, then go on taking the rooms whose owner died (`take_over`)."""
        if self._resumer is None:
            self._resumer = asyncio.create_task(self.resume(), name="skyjo lobby resume")
            self._resumer.add_done_callback(_report_resume)
        if self.ownership is not None and self._taker is None:
            self._taker = asyncio.create_task(self._taking_over(), name="skyjo lobby take over")

    async def take_over(self) -> list[str]:
        """(A cluster) Take and load the unfinished rooms nobody holds: a process that
        held them died (PostgreSQL freed its locks), and their bots and timers must
        go on without waiting for a viewer. Returns the codes taken."""
        assert self.ownership is not None
        codes = await self._run_db(self.store.active_codes)
        free = [c for c in codes if c not in self.rooms and c not in self._loading]
        if not free:
            return []
        held = set(self.ownership.held)  # taken by a visitor's `get`, which loads them
        taken = [c for c in await self.ownership.call(self.ownership.take, free) if c not in held]
        for code in taken:
            if code in self.rooms or code in self._loading:
                continue  # a visitor's `get` loaded it meanwhile
            record = await self._run_db(self.store.load, code)
            if code in self.rooms or code in self._loading:
                continue
            if record is None or record.finished:
                await self._release(code)
                continue
            try:
                await self._resume(record)
            except Exception:  # one damaged room must not keep the others
                log.exception("room %s could not be taken over", code)
        return taken

    async def _taking_over(self) -> None:
        """(A cluster) Every `TAKE_OVER_EVERY` seconds: check the lock connection (lost,
        every room here goes: its clients reconnect and whoever takes the room
        next has its saved state), then take the rooms nobody holds."""
        assert self.ownership is not None
        while True:
            await asyncio.sleep(TAKE_OVER_EVERY)
            try:
                await self.ownership.call(self.ownership.check)
                await self.take_over()
            except OwnershipLost:
                log.error("the lock connection was lost: letting go of every room")
                await self._abandon()
            except Exception:
                log.exception("taking over the rooms nobody holds failed")

    async def _abandon(self) -> None:
        """Close every room in memory: its lock is gone, another process may hold it."""
        rooms = list(self.rooms.values())
        self.rooms.clear()  # (the archive's too: one dict)
        for room in rooms:
            await room.close()

    async def resumed(self) -> int:
        """Wait until the rooms `start_resuming` began to load are in memory; how many
        rooms are."""
        return await self._resumer if self._resumer is not None else len(self.rooms)

    async def _resume(self, record: RoomRecord) -> Room:
        """The room of `record`, loaded and started. Whoever asks for it meanwhile
        waits for this load (`get`); the caller has it at once, with no pause
        in which a finished room nobody watches yet could be dropped again."""
        loading = self._loading[record.code] = asyncio.Event()
        try:
            match = await self._match(_loaded, record, make=self._maker(record.code))
        except BaseException:
            del self._loading[record.code]
            loading.set()
            await self._release(record.code)
            raise
        del self._loading[record.code]
        loading.set()
        room = self._room(record, match)
        self._keep(room)
        room.start()
        self._idle.set()  # a finished game loaded for a visitor is dropped again later
        return room

    def _keep(self, room: Room) -> None:
        self.rooms[room.code] = room
        if self._seen is not None:
            self._seen.add(room.code)

    def _maker(self, code: str) -> Any:
        """The bot factory of a new match of room `code`."""
        return make_bot if self.thinkers is None else self.thinkers.maker(code)

    # --- dropping finished rooms ------------------------------------------------------

    def start_sweeping(self) -> None:
        """Start the task that drops finished rooms nobody watches (`sweep`)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweeping(), name="skyjo lobby sweeper")

    async def _sweeping(self) -> None:
        while True:
            self._idle.clear()
            try:
                wait = await self.sweep()
            except Exception:  # the sweeper must outlive one room's failure to close
                log.exception("dropping finished rooms failed")
                wait = RETRY_DROP * 100
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._idle.wait(), wait)

    async def sweep(self) -> float | None:
        """Drop from memory the finished rooms nobody is connected to that have
        waited long enough (`to_drop`); returns the seconds until the next one is
        due (None: no finished room waits)."""
        gone, due = to_drop(list(self.rooms.values()), time.monotonic(), self.settings)
        for room in gone:
            del self.rooms[room.code]
        for room in gone:
            await room.close()
            await self._release(room.code)
        if gone:
            log.info("dropped %d finished rooms from memory", len(gone))
        return due

    def listed(self) -> list[dict[str, Any]]:
        """The open games of the front page: listed rooms not over, newest first (the
        rooms in this process's memory: every room, outside a cluster)."""
        rooms = [r for r in self.rooms.values() if r.listed and not r.match.over]
        rooms.sort(key=lambda r: r.created_at, reverse=True)
        return [room.info() for room in rooms[:LISTED]]

    async def open_rooms(self) -> list[dict[str, Any]]:
        """The open games of the front page over the whole service: outside a cluster
        `listed`; in one, the database's listed unfinished rooms, newest first, each
        as this process has it in memory, else from its last snapshot
        (`snapshot_info`: one query, no request to the other processes)."""
        if self.ownership is None:
            return self.listed()
        records = await self._run_db(self.store.listed, LISTED)
        shown = []
        for record in records:
            room = self.rooms.get(record.code)
            if room is None:
                shown.append(snapshot_info(record))
            elif not room.match.over:
                shown.append(room.info())
        return shown

    async def database_fault(self) -> str | None:
        """`Store.probe`, on the rooms' database thread (after the writes waiting there)."""
        return await self._run_db(self.store.probe)

    async def rooms_held(self) -> int:
        """How many rooms are in memory: this process's, or in a cluster every
        member's (the room locks they hold)."""
        if self.ownership is None:
            return len(self.rooms)
        return int(await self.ownership.call(self.ownership.count_held))

    async def close(self) -> None:
        """Stop the sweeper, the resume, every room and the database thread."""
        for task in (self._sweeper, self._resumer, self._taker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        while self._loading:  # rooms still loading are let finish, to be closed with the others
            await next(iter(self._loading.values())).wait()
        for room in list(self.rooms.values()):
            await room.close()
        await self._writes.flush()  # the steps already made are written
        await asyncio.to_thread(self.reviews.close)
        self._writes.close()
        self._matches.shutdown(wait=True)
        if self.thinkers is not None:
            self.thinkers.close()
        if self.ownership is not None:  # PostgreSQL lets go of every room's lock
            await asyncio.to_thread(self.ownership.close)
