"""The request that creates a room, read and checked: its seats (humans, ladder
bots, hot seats, names), rules, title, host seat, turn timer and lobby
(`RoomConfig.from_dict`). A bad request is a `ProtocolError("bad_request")`
whose `kind` and `params` say what is wrong; a refusal of the core (a name, the
rules, the seats) carries the core's own kind (`skyjo.errors`).

The seats' names follow `skyjo.web.seat_names`: a person's name is checked
(`skyjo.names.check_name`) and may not be one the server keeps for its bots and
free seats; a bot is named from its level; a human seat given no name is "Player
N" when it is taken at once (the host's, a hot seat), else "Seat N", free.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from skyjo.match import MatchError, Seat, check_seats
from skyjo.names import NameRefused, check_name, invisible
from skyjo.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError
from skyjo.web.protocol import ProtocolError, refused
from skyjo.web.seat_names import bot_name, free_name, player_name, reserved
from skyjo.web.settings import LADDER

MAX_TITLE = 80


def _text(value: Any, what: str, limit: int) -> str:
    """A short line of text (a title): 1 to `limit` characters once trimmed, no control
    character, no format character (Cf: a right-to-left override, a zero-width
    space), no line or paragraph separator and no default ignorable outside an emoji
    sequence (`skyjo.names.invisible`: a title may hold its host's emoji name)."""
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError(
            "bad_request", f"{what} must be a non-empty string", "text_empty", {"what": what}
        )
    value = unicodedata.normalize("NFC", value.strip())
    if len(value) > limit:
        raise ProtocolError(
            "bad_request",
            f"{what} has at most {limit} characters",
            "text_too_long",
            {"what": what, "max": limit},
        )
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in value) or invisible(value):
        raise ProtocolError(
            "bad_request",
            f"{what} holds a control, format or invisible character",
            "text_control",
            {"what": what},
        )
    return value


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """A request for a new room: its seats, rules, title and whether it is listed."""

    seats: tuple[Seat, ...]
    rules: Rules
    title: str
    listed: bool
    host_seat: int | None
    #: Human seats played on the host's device (hot-seat): their tokens go to the host.
    hot_seats: tuple[int, ...] = ()
    #: The turn timer: seconds a human has for a move before `Match.play_for` plays it.
    turn_seconds: float | None = None
    #: Whether the room opens in a lobby, where friends join before the host starts.
    lobby: bool = False

    @classmethod
    def from_dict(cls, data: Any) -> RoomConfig:
        """Read `{"seats": [{"name", "bot", "hot_seat"}...], "rules", "title",
        "listed", "host_seat", "turn_seconds", "lobby"}`; `ProtocolError("bad_request")`
        names what is wrong. `lobby` defaults to whether a seat waits for a
        friend (a human seat neither the host's nor played on the host's device)."""
        if not isinstance(data, dict):
            raise ProtocolError("bad_request", "the request is a JSON object", "request_type")
        unknown = sorted(
            set(data) - {"seats", "rules", "title", "listed", "host_seat", "turn_seconds", "lobby"}
        )
        if unknown:
            raise ProtocolError(
                "bad_request",
                f"unknown field {unknown[0]!r:.40}",
                "request_field",
                {"field": f"{unknown[0]!r:.40}"},
            )
        given = _seats(data.get("seats"))
        hot_seats = _hot_seats(data.get("seats"))
        turn_seconds = _turn_seconds(data.get("turn_seconds"))
        try:
            rules = Rules.from_dict(data.get("rules"))
        except RulesError as failure:
            raise refused("bad_request", failure) from None
        host_seat = _host_seat(data.get("host_seat", "first"), [bot is None for _, bot in given])
        seats = _named(given, {host_seat, *hot_seats})
        listed = data.get("listed", False)
        if not isinstance(listed, bool):
            raise ProtocolError("bad_request", "listed must be true or false", "listed_type")
        default_title = f"{seats[host_seat].name}'s table" if host_seat is not None else "Bots"
        title = _text(data.get("title") or default_title, "the title", MAX_TITLE)
        if host_seat in hot_seats:
            raise ProtocolError(
                "bad_request",
                f"seat {host_seat} is the host's own seat",
                "host_hot_seat",
                {"seat": host_seat},
            )
        friends = any(
            seat.human and i != host_seat and i not in hot_seats for i, seat in enumerate(seats)
        )
        lobby = data.get("lobby", friends)
        if not isinstance(lobby, bool):
            raise ProtocolError("bad_request", "lobby must be true or false", "lobby_type")
        return cls(seats, rules, title, listed, host_seat, hot_seats, turn_seconds, lobby)


#: The turn timer's bounds, in seconds.
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 5, 600


def _turn_seconds(raw: Any) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw != raw:
        raise ProtocolError(
            "bad_request", "turn_seconds is a number of seconds or null", "turn_seconds_type"
        )
    if not MIN_TURN_SECONDS <= raw <= MAX_TURN_SECONDS:
        raise ProtocolError(
            "bad_request",
            f"turn_seconds is from {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}",
            "turn_seconds_range",
            {"min": MIN_TURN_SECONDS, "max": MAX_TURN_SECONDS},
        )
    return float(raw)


def _hot_seats(raw: list[dict[str, Any]]) -> tuple[int, ...]:
    """The seats marked `"hot_seat": true` (checked by `_seats` already)."""
    return tuple(i for i, seat in enumerate(raw) if seat.get("hot_seat") is True)


def _seats(raw: Any) -> list[tuple[str | None, str | None]]:
    """The seats of a request: 2 to 8, each a human (its name, None if not given)
    or a ladder bot (named by the server: a name given to it is refused)."""
    if not isinstance(raw, list) or not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise ProtocolError(
            "bad_request",
            f"seats is a list of {MIN_PLAYERS} to {MAX_PLAYERS}",
            "seats_count",
            {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        )
    given: list[tuple[str | None, str | None]] = []
    for i, seat in enumerate(raw):
        if not isinstance(seat, dict) or set(seat) - {"name", "bot", "hot_seat"}:
            raise ProtocolError(
                "bad_request",
                f"seat {i} is an object with a name, a bot and hot_seat",
                "seat_shape",
                {"seat": i},
            )
        bot = seat.get("bot")
        if bot is not None and bot not in LADDER:
            raise ProtocolError(
                "bad_request",
                f"seat {i}: bot is one of {', '.join(LADDER)}",
                "seat_bot",
                {"seat": i, "bots": ", ".join(LADDER)},
            )
        hot = seat.get("hot_seat", False)
        if not isinstance(hot, bool) or (hot and bot is not None):
            raise ProtocolError(
                "bad_request",
                f"seat {i}: hot_seat is true for a human seat",
                "seat_hot",
                {"seat": i},
            )
        name = seat.get("name")
        if name in (None, ""):
            given.append((None, bot))
        elif bot is not None:
            raise ProtocolError(
                "bad_request",
                f"seat {i} is a bot's: the server names it from its level, so it takes no name",
                "seat_bot_name",
                {"seat": i},
            )
        else:
            given.append((_person(name), None))
    return given


def _person(name: Any) -> str:
    """A person's name in a request, checked (`skyjo.names.check_name`, the core's
    kind) and not one the server keeps for itself (`name_reserved`)."""
    try:
        name = check_name(name)
    except NameRefused as failure:
        raise refused("bad_request", failure) from None
    if reserved(name):
        raise ProtocolError(
            "bad_request",
            f"the name {name} is kept for the bots and the free seats: choose another",
            "name_reserved",
            {"name": name},
        )
    return name


def _named(given: list[tuple[str | None, str | None]], taken: set[int | None]) -> tuple[Seat, ...]:
    """The seats with their names: a person's as given, else "Player N" for a seat
    taken at once (`taken`: the host's and the hot seats), "Seat N" for one that
    waits for a friend; each bot's from its level (`seat_names.bot_name`); then no
    two alike (`check_seats`: `name_repeated`, `name_confusable`)."""
    names: list[str | None] = []
    for i, (name, bot) in enumerate(given):
        if bot is None and name is None:
            name = player_name(i) if i in taken else free_name(i)
        names.append(name)
    for i, (_, bot) in enumerate(given):
        if bot is not None:
            names[i] = bot_name(bot, [n for n in names if n is not None])
    seats = tuple(Seat(str(name), bot) for name, (_, bot) in zip(names, given, strict=True))
    try:
        return check_seats(seats)
    except MatchError as failure:  # name_repeated, name_confusable
        raise refused("bad_request", failure) from None


def _host_seat(raw: Any, humans: list[bool]) -> int | None:
    """The host's seat: the one asked for, else the first human seat (None: no human
    seat); `humans` says which seats are humans'."""
    if raw == "first":
        return next((i for i, human in enumerate(humans) if human), None)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ProtocolError("bad_request", "host_seat is a seat number or null", "host_seat_type")
    if not 0 <= raw < len(humans):
        last = len(humans) - 1
        raise ProtocolError(
            "bad_request",
            f"host_seat {raw} is not a seat of this room: its seats are 0 to {last}",
            "host_seat_range",
            {"seat": raw, "last": last},
        )
    if not humans[raw]:
        raise ProtocolError(
            "bad_request",
            f"seat {raw} is a bot's: the host takes a human seat",
            "host_seat_bot",
            {"seat": raw},
        )
    return raw
