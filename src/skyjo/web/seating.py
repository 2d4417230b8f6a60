"""A room's seating: who holds which seat (by token), the names, the lobby, the rematch.

Plain state and rules, no waiting, storage or sockets: `skyjo.web.rooms.Room`
asks a `Seating` whether a change is allowed (each refusal a `ProtocolError`
naming what was wrong), makes it, and then saves the room and tells its
connections. A token is kept as its hash only (`token_hash`). The seats
themselves (names, bots) are the match's (`skyjo.match.Match.seats`): the
methods that rename one take the match.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from skyjo.match import Match, MatchError, Seat, check_seats
from skyjo.names import NameRefused, check_name, clash, confusable, name_key
from skyjo.rules import MIN_PLAYERS
from skyjo.web.protocol import ProtocolError, error, refused
from skyjo.web.seat_names import bot_name, free_name, player_name, reserved
from skyjo.web.settings import LADDER


def new_token() -> str:
    """A fresh, unguessable seat token (192 bits)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256, so a database leak gives no seat away."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def checked_name(value: Any) -> str:
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


def _check_bot(bot: str | None, also: tuple[str | None, ...] = (None,)) -> None:
    """Refuse a bot level that is not one of the ladder's (nor of `also`)."""
    if bot not in (*also, *LADDER):
        raise ProtocolError(
            "bad_bot", f"a bot is one of {', '.join(LADDER)}", params={"bots": ", ".join(LADDER)}
        )


def _check_host(host: bool, kind: str, does: str) -> None:
    """Refuse a host's message from someone else (`kind` the refusal's, `does` what it does)."""
    if not host:
        raise ProtocolError("not_host", f"only the host {does}", kind)


def _check_seat(match: Match, seat: int) -> None:
    """Refuse a seat number the table does not have."""
    if not 0 <= seat < match.num_players:
        raise ProtocolError("bad_seat", f"there is no seat {seat}", "no_such_seat", {"seat": seat})


@dataclass(frozen=True)
class StartPlan:
    """What starting the game does to the seats nobody took: the seats `kept`
    when they are dropped (the match is then reseated), and those given to `bot`."""

    kept: list[int] | None
    bots: list[int]
    bot: str | None


class Seating:
    """The tokens of a room's seats (hashes), its host's, the seats someone has
    held, whether its game waits in its lobby and the room of its next game."""

    def __init__(
        self,
        host: str,
        tokens: dict[str, int | None],
        joined: Collection[int],
        lobby: bool = False,
        rematch: dict[str, Any] | None = None,
    ) -> None:
        """`host` is the host's token hash (a key of `tokens`, hash -> seat or None);
        `joined` the seats someone has held (a token given): only theirs are played
        for when absent, and keep their person's name."""
        self.host = host
        self.tokens = dict(tokens)
        self.joined = {*joined, *self.tokens.values()} - {None}
        self.lobby = lobby
        self.rematch = rematch

    @classmethod
    def saved(
        cls, host: str, tokens: dict[str, int | None], options: dict[str, Any], players: int
    ) -> Seating:
        """The seating of a saved room (`RoomRecord`: its host, tokens and options).
        A room saved before `joined` was kept counts every seat as held, as then."""
        joined = options.get("joined")
        return cls(
            host,
            tokens,
            range(players) if joined is None else joined,
            bool(options.get("lobby")),
            options.get("rematch"),
        )

    # --- reading -----------------------------------------------------------------------

    @property
    def host_seat(self) -> int | None:
        """The host's seat (None for a host without one)."""
        return self.tokens.get(self.host)

    def held(self) -> set[int | None]:
        """The seats someone holds a token for."""
        return set(self.tokens.values())

    def holder(self, token: str) -> tuple[int | None, bool]:
        """Whose `token` is: its seat (None: a host without one) and whether it is
        the host's (`bad_token` when it holds no seat here)."""
        digest = token_hash(token)
        if digest not in self.tokens:
            raise ProtocolError("bad_token", "this token holds no seat in this room")
        return self.tokens[digest], digest == self.host

    def free_seats(self, match: Match) -> list[int]:
        """Human seats nobody holds a token for."""
        held = self.held()
        return [i for i, s in enumerate(match.seats) if s.human and i not in held]

    def public(self, match: Match, absent: Collection[int]) -> list[dict[str, Any]]:
        """The public facts of each seat (`absent`: the seats nobody is connected to)."""
        held, host = self.held(), self.host_seat
        return [
            {
                "name": seat.name,
                "bot": seat.bot,
                "human": seat.human,
                "claimed": i in held,
                "connected": i not in absent,
                "host": i == host,
            }
            for i, seat in enumerate(match.seats)
        ]

    def options(self) -> dict[str, Any]:
        """The seating's part of the room's saved options (`RoomRecord.options`)."""
        options: dict[str, Any] = {"joined": sorted(self.joined)}  # type: ignore[type-var]
        if self.lobby:
            options["lobby"] = True
        if self.rematch is not None:
            options["rematch"] = self.rematch
        return options

    def check_lobby(self) -> None:
        """Refuse a lobby message after the game has started."""
        if not self.lobby:
            raise ProtocolError("started", "the game has started already", "already_started")

    # --- taking seats ------------------------------------------------------------------

    def host_token(self, seat: int | None) -> str:
        """Make a fresh host token (for `seat`, or a host without a seat)."""
        token = new_token()
        self.host = token_hash(token)
        self.tokens[self.host] = seat
        if seat is not None:
            self.joined.add(seat)
        return token

    def claim(self, match: Match, seat: int | None = None) -> tuple[int, str]:
        """Give a free human seat (`seat`, else the first) a new token
        (`room_full` when none is left, `bad_seat` when `seat` is not free)."""
        free = self.free_seats(match)
        if seat is not None and seat not in free:
            raise ProtocolError(
                "bad_seat", f"seat {seat} is not a free human seat", "seat_not_free", {"seat": seat}
            )
        if not free:
            raise ProtocolError("room_full", "every human seat of this room is taken")
        seat = free[0] if seat is None else seat
        token = new_token()
        self.tokens[token_hash(token)] = seat
        self.joined.add(seat)
        return seat, token

    def join(self, match: Match, name: str | None, seat: int | None = None) -> tuple[int, str]:
        """Claim a free seat (`seat`, else the first), named `name` if given: the seat
        and its token. Without a name, the newcomer takes the seat's: the one the host
        gave it, or its last player's (one the host removed); a seat the server named
        ("Seat N", free) makes them "Player N" (`skyjo.web.seat_names`). A refused
        name leaves the seat free."""
        if name is not None:
            name = checked_name(name)
        joined = set(self.joined)
        seat, token = self.claim(match, seat)
        if name is None and reserved(match.seats[seat].name):
            name = player_name(seat)
        if name is not None and name != match.seats[seat].name:
            try:
                self._rename(match, seat, name)
            except ProtocolError:
                self._revoke(seat)
                self.joined = joined
                raise
        return seat, token

    def _rename(self, match: Match, seat: int, name: str) -> None:
        """Give `seat` a person's name `name` (checked by `checked_name`, or the
        server's "Player N"); `bad_name` when another seat has it, the same once
        case-folded (`name_taken`: `skyjo.names.name_key`), or when it looks like
        another seat's (`name_confusable`: `skyjo.names.look_alike`)."""
        others = [other for i, other in enumerate(match.names) if i != seat]
        if name_key(name) in {name_key(other) for other in others}:
            raise ProtocolError(
                "bad_name", f"the name {name} is taken here: choose another", "name_taken",
                {"name": name},
            )  # fmt: skip
        other = clash(name, others)
        if other is not None:
            raise refused("bad_name", confusable(name, other))
        try:
            _set_name(match, seat, name)
        except MatchError as failure:
            raise refused("bad_name", failure) from None

    def name_by_server(self, match: Match, seat: int) -> None:
        """Name a seat nobody has held as the server names it: a bot from its level,
        a human seat "Seat N", free (`skyjo.web.seat_names`). A seat someone held
        keeps its person's name, whoever plays it now."""
        if seat in self.joined:
            return
        bot = match.seats[seat].bot
        taken = [other for i, other in enumerate(match.names) if i != seat]
        name = free_name(seat) if bot is None else bot_name(bot, taken)
        with contextlib.suppress(MatchError):  # a room saved with names of old, alike
            _set_name(match, seat, name)

    def _revoke(self, seat: int) -> None:
        """Forget every token of `seat` but the host's: the seat is free again."""
        self.tokens = {
            digest: held
            for digest, held in self.tokens.items()
            if held != seat or digest == self.host
        }

    # --- the host's changes ------------------------------------------------------------

    def check_seat_change(self, host: bool, match: Match, seat: int, bot: str | None) -> None:
        """Refuse the host's handing `seat` to the bot `bot` (or back to its human,
        None) when it is not the host's, or names no level or no seat."""
        _check_host(host, "not_host_seat", "changes who plays a seat")
        _check_bot(bot)
        _check_seat(match, seat)

    def _check_not_hosts(self, seat: int) -> None:
        """Refuse a change of the host's own seat."""
        if self.host_seat == seat:
            raise ProtocolError("bad_seat", "that is the host's own seat", "host_own_seat")

    def check_remove(self, host: bool, match: Match, seat: int) -> None:
        """Refuse the host's removing `seat`'s player when it is not the host's, or
        the seat is none, the host's own, or nobody's."""
        _check_host(host, "not_host_remove", "removes a seat's player")
        _check_seat(match, seat)
        self._check_not_hosts(seat)
        if seat not in self.held():
            raise ProtocolError(
                "bad_seat", f"nobody holds seat {seat}", "seat_not_held", {"seat": seat}
            )

    def remove(self, match: Match, seat: int) -> dict[str, Any]:
        """The host removes `seat`'s player: its tokens are revoked; the seat is free
        for a returning human (or the host gives it to a bot). In the lobby the seat
        is freed for anyone, its taker's name gone with them. Returns the `error`
        its connections are sent away with."""
        self._revoke(seat)
        if not self.lobby:
            return error("removed", "the host gave your seat to someone else")
        self.joined.discard(seat)  # freed before the game: as if nobody had held it ("Seat N")
        self.name_by_server(match, seat)
        return error("removed", "the host freed your seat for someone else", "seat_freed")

    def check_start(self, host: bool, empty: str | None) -> None:
        """Refuse the host's starting the game when it is not the host's, the game
        has started, or `empty` is neither "drop", a bot level nor None."""
        _check_host(host, "not_host_start", "starts the game")
        self.check_lobby()
        _check_bot(empty, (None, "drop"))

    def start_plan(self, match: Match, empty: str | None) -> StartPlan:
        """What starting does with the seats nobody took: dropped (`empty` "drop"),
        given to bots of the level `empty`, or (None) refused: `empty_seats`."""
        self.check_lobby()
        free = self.free_seats(match)
        if free and empty is None:
            names = ", ".join(f"seat {s + 1}" for s in free)
            raise ProtocolError(
                "empty_seats",
                f"nobody has taken {names} yet: give them to bots or remove them",
                "empty_seats",
                {"names": names, "count": len(free)},
            )
        if free and empty == "drop":
            return StartPlan([s for s in range(match.num_players) if s not in free], [], None)
        return StartPlan(None, free, empty)

    def started(self) -> None:
        """The game has started: the lobby is over."""
        self.lobby = False

    def check_drop(self, host: bool, match: Match, seat: int) -> None:
        """Refuse the host's dropping `seat` from the table in the lobby when it is
        not the host's, the game has started, the seat is none or the host's own,
        or the table would be too small."""
        _check_host(host, "not_host_drop", "removes a seat from the table")
        self.check_lobby()
        _check_seat(match, seat)
        self._check_not_hosts(seat)
        if match.num_players <= MIN_PLAYERS:
            raise ProtocolError(
                "too_few_seats",
                f"a game has {MIN_PLAYERS} seats at least",
                params={"min": MIN_PLAYERS},
            )

    def reseat(self, match: Match, kept: list[int]) -> tuple[list[Seat], dict[int, int]]:
        """The seats `kept`, in order, as the new match's (a free seat nobody held
        named by its new number), and each kept seat's new number (old -> new)."""
        number = {old: new for new, old in enumerate(kept)}
        seats = [
            Seat(free_name(new), seat.bot) if seat.name == free_name(old) else seat
            for new, (old, seat) in enumerate((old, match.seats[old]) for old in kept)
        ]
        return seats, number

    def renumber(self, number: dict[int, int]) -> None:
        """The seats took their new numbers (`reseat`): tokens follow; those of the
        other seats are revoked."""
        self.tokens = {
            digest: None if seat is None else number[seat]
            for digest, seat in self.tokens.items()
            if seat is None or seat in number
        }
        self.joined = {number[s] for s in self.joined if s in number}

    # --- another game ------------------------------------------------------------------

    def check_rematch(self, host: bool, over: bool) -> dict[str, Any] | None:
        """The next game already started (`{code, by}`), or None: the host may start
        it; refused when it is not the host's, or the game is not over."""
        _check_host(host, "not_host_rematch", "starts another game")
        if not over:
            raise ProtocolError(
                "not_over",
                "the game is not over: another game is started at its end",
                "game_not_over",
            )
        return self.rematch

    def rematched(self, code: str) -> dict[str, Any]:
        """The host started the next game, in room `code`: `{code, by}`, `by` the
        host's seat."""
        self.rematch = {"code": code, "by": self.host_seat}
        return self.rematch

    def next_options(self, match: Match) -> dict[str, Any]:
        """The seating's options of the room of this table's next game: it opens in
        its lobby, where the friends come back and the host can still give away or
        drop the seats of those who do not, when the table has a human seat besides
        the host's; a table of the host and bots starts at once, as when made."""
        host = self.host_seat
        others = any(seat.human and i != host for i, seat in enumerate(match.seats))
        return {"joined": [], "lobby": True} if others else {"joined": []}


def _set_name(match: Match, seat: int, name: str) -> None:
    """Name `seat` `name` (a `MatchError` if the seats then clash)."""
    seats = list(match.seats)
    seats[seat] = Seat(name, seats[seat].bot)
    match.seats = check_seats(seats)
