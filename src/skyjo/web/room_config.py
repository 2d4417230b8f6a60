"""The request that creates a room (`RoomRequest`, a pydantic model: what
/openapi.json shows) and the room it asks for, checked (`RoomConfig.of`): its
seats (humans, ladder bots, hot seats, names), rules, title, host seat, turn
timer and lobby. A bad request is a `ProtocolError("bad_request")` whose `kind`
and `params` say what is wrong (pydantic's errors read as those by `_refusal`);
a refusal of the core (a name, the rules, the seats) carries the core's own kind
(`skyjo.errors`).

The seats' names follow `skyjo.web.seat_names`: a person's name is checked
(`skyjo.names.check_name`) and may not be one the server keeps for its bots and
free seats; a bot is named from its level; a human seat given no name is "Player
N" when it is taken at once (the host's, a hot seat), else "Seat N", free.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    PlainSerializer,
    PlainValidator,
    create_model,
)

from skyjo.match import MatchError, Seat, check_seats
from skyjo.names import MAX_NAME, NameRefused, check_name, invisible
from skyjo.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    VARIANTS,
    Rules,
    RulesError,
    Variant,
)
from skyjo.web.pace import DEFAULT_SPEED, BotSpeed
from skyjo.web.protocol import ProtocolError, refused
from skyjo.web.seat_names import bot_name, free_name, player_name, reserved
from skyjo.web.settings import LADDER
from skyjo.web.validation import STRICT, Error, Invalid, refusing, shape_of, shown

MAX_TITLE = 80
#: The turn timer's bounds, in seconds.
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 5, 600


def variant_shape(variant: Variant) -> Any:
    """The type of a rule variant (`skyjo.rules.VARIANTS`) for pydantic: one of its
    choices, or an integer within its bounds."""
    if variant.choices:
        return Literal[variant.choices]
    return Annotated[int, Field(ge=variant.low, le=variant.high)]


def variant_field(variant: Variant) -> tuple[Any, Any]:
    """The pydantic field of a rule variant: its shape and its default."""
    return variant_shape(variant), variant.default


#: RULES.md's variants a room is played under (each optional), one field a variant
#: of `skyjo.rules.VARIANTS`; read by the core, `skyjo.rules.Rules.from_dict`, with
#: its own kinds.
RulesSettings: type[BaseModel] = create_model(
    "RulesSettings",
    __config__=STRICT,
    __doc__=(
        "RULES.md's variants a room is played under (each optional); read by the\n"
        "core, `skyjo.rules.Rules.from_dict`, with its own kinds."
    ),
    **{variant.name: variant_field(variant) for variant in VARIANTS},
)


def _rules(data: Any) -> Rules:
    """The rules of a request, read by the core (the same reader as a game record's)."""
    try:
        return Rules.from_dict(data)
    except RulesError as failure:
        raise Invalid(refused("bad_request", failure)) from None


#: The `rules` of a request: what `RulesSettings` shows, read by `_rules`.
RoomRules = Annotated[
    Rules,
    PlainValidator(_rules, json_schema_input_type=RulesSettings | None),
    PlainSerializer(Rules.to_dict, return_type=RulesSettings),
]


class SeatRequest(BaseModel):
    """A seat of a new room: a human's (named `name`, or by the server) or a ladder
    bot's (`bot`, named by the server from its level)."""

    model_config = STRICT
    bot: Literal[LADDER] | None = None  # type: ignore[valid-type]
    #: Played on the host's device (a human seat, not the host's): its token goes to the host.
    hot_seat: bool = False
    #: A person's name (`skyjo.names.check_name`; null or "": the server names the seat).
    name: str | None = Field(None, json_schema_extra={"maxLength": MAX_NAME})


class RoomRequest(BaseModel):
    """`POST /api/rooms`: the seats, rules, title, listing, host seat, turn timer and
    lobby of a new room (docs/web-protocol.md)."""

    model_config = STRICT
    seats: list[SeatRequest] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    #: Seconds a human has for a move before the server plays it (null: no timer).
    turn_seconds: float | None = Field(
        None, json_schema_extra={"minimum": MIN_TURN_SECONDS, "maximum": MAX_TURN_SECONDS}
    )
    rules: RoomRules = Rules()
    #: The human seat the creator takes: "first" (the first human seat) or null (none).
    host_seat: Literal["first"] | int | None = Field(
        "first", json_schema_extra={"minimum": 0, "maximum": MAX_PLAYERS - 1}
    )
    #: Shown on the front page's list of open games.
    listed: bool = False
    #: Default: "NAME's table" (the host's name), "Bots" for a table of bots.
    title: str | None = Field(None, json_schema_extra={"maxLength": MAX_TITLE})
    #: Default: whether a seat waits for a friend.
    lobby: bool = False
    #: The bots' pace (`skyjo.web.pace`): "slow", "normal" or "fast".
    bot_speed: BotSpeed = DEFAULT_SPEED


def _refusal(error: Error) -> ProtocolError:
    """What pydantic's `error` of a room request says, in the request's kinds."""
    loc = tuple(error["loc"])
    match loc:
        case ():
            return ProtocolError("bad_request", "the request is a JSON object", "request_type")
        case (field,) if error["type"] == "extra_forbidden":
            return ProtocolError(
                "bad_request",
                f"unknown field {shown(field)}",
                "request_field",
                {"field": shown(field)},
            )
        case ("seats",):
            return ProtocolError(
                "bad_request",
                f"seats is a list of {MIN_PLAYERS} to {MAX_PLAYERS}",
                "seats_count",
                {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
            )
        case ("seats", int(seat)) | ("seats", int(seat), _) if shape_of(error) is not None:
            return ProtocolError(
                "bad_request",
                f"seat {seat} is an object with a name, a bot and hot_seat",
                "seat_shape",
                {"seat": seat},
            )
        case ("seats", int(seat), "bot", *_):
            return _seat_bot(seat)
        case ("seats", int(seat), "hot_seat", *_):
            return _seat_hot(seat)
        case ("seats", int(), "name", *_):
            return _not_a_name(error["input"])
        case ("turn_seconds", *_):
            return _turn_seconds_type()
        case ("host_seat", *_):
            return ProtocolError(
                "bad_request", "host_seat is a seat number or null", "host_seat_type"
            )
        case ("listed", *_):
            return ProtocolError("bad_request", "listed must be true or false", "listed_type")
        case ("title", *_):
            return _text_empty("the title")
        case ("lobby", *_):
            return ProtocolError("bad_request", "lobby must be true or false", "lobby_type")
        case ("bot_speed", *_):
            return ProtocolError(
                "bad_request", 'bot_speed is "slow", "normal" or "fast"', "bot_speed_type"
            )
    raise TypeError(f"no refusal for {error}")  # a bug: every field of a request is above


def default_title(host: str | None) -> str:
    """The title of a room asked for without one: "NAME's table" for its host's seat's
    NAME, "Bots" without a host's seat. Pages show it in their own language (a room's
    `default_title` says it is this one)."""
    return f"{host}'s table" if host is not None else "Bots"


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """A room asked for, checked: its seats, rules, title and whether it is listed."""

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
    #: The bots' pace (`skyjo.web.pace`).
    bot_speed: str = DEFAULT_SPEED

    @classmethod
    def of(cls, request: RoomRequest) -> RoomConfig:
        """The room `request` asks for, or `Invalid` naming what is wrong with it (its
        types are the model's: this checks what they cannot say). `lobby` defaults
        to whether a seat waits for a friend (a human seat neither the host's nor
        played on the host's device)."""
        given = _seats(request.seats)
        hot_seats = tuple(i for i, seat in enumerate(request.seats) if seat.hot_seat)
        turn_seconds = _turn_seconds(request.turn_seconds)
        host_seat = _host_seat(request.host_seat, [bot is None for _, bot in given])
        seats = _named(given, {host_seat, *hot_seats})
        host_name = seats[host_seat].name if host_seat is not None else None
        title = _text(request.title or default_title(host_name), "the title", MAX_TITLE)
        if host_seat in hot_seats:
            raise Invalid(
                ProtocolError(
                    "bad_request",
                    f"seat {host_seat} is the host's own seat",
                    "host_hot_seat",
                    {"seat": host_seat},
                )
            )
        friends = any(
            seat.human and i != host_seat and i not in hot_seats for i, seat in enumerate(seats)
        )
        lobby = request.lobby if "lobby" in request.model_fields_set else friends
        return cls(
            seats,
            request.rules,
            title,
            request.listed,
            host_seat,
            hot_seats,
            turn_seconds,
            lobby,
            request.bot_speed,
        )


#: The body of `POST /api/rooms`: a `RoomRequest`, read as the `RoomConfig` it asks for,
#: every refusal in the protocol's kinds.
RoomSettings = Annotated[RoomRequest, AfterValidator(RoomConfig.of), refusing(_refusal)]


def _text(value: str, what: str, limit: int) -> str:
    """A short line of text (a title): 1 to `limit` characters once trimmed, no control
    character, no format character (Cf: a right-to-left override, a zero-width
    space), no line or paragraph separator and no default ignorable outside an emoji
    sequence (`skyjo.names.invisible`: a title may hold its host's emoji name)."""
    if not value.strip():
        raise Invalid(_text_empty(what))
    value = unicodedata.normalize("NFC", value.strip())
    if len(value) > limit:
        raise Invalid(
            ProtocolError(
                "bad_request",
                f"{what} has at most {limit} characters",
                "text_too_long",
                {"what": what, "max": limit},
            )
        )
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in value) or invisible(value):
        raise Invalid(
            ProtocolError(
                "bad_request",
                f"{what} holds a control, format or invisible character",
                "text_control",
                {"what": what},
            )
        )
    return value


def _text_empty(what: str) -> ProtocolError:
    return ProtocolError(
        "bad_request", f"{what} must be a non-empty string", "text_empty", {"what": what}
    )


def _turn_seconds_type() -> ProtocolError:
    return ProtocolError(
        "bad_request", "turn_seconds is a number of seconds or null", "turn_seconds_type"
    )


def _turn_seconds(seconds: float | None) -> float | None:
    """The turn timer asked for, within `MIN_TURN_SECONDS` to `MAX_TURN_SECONDS`."""
    if seconds is None:
        return None
    if seconds != seconds:  # NaN: not a number of seconds
        raise Invalid(_turn_seconds_type())
    if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise Invalid(
            ProtocolError(
                "bad_request",
                f"turn_seconds is from {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}",
                "turn_seconds_range",
                {"min": MIN_TURN_SECONDS, "max": MAX_TURN_SECONDS},
            )
        )
    return float(seconds)


def _seat_bot(seat: int) -> ProtocolError:
    return ProtocolError(
        "bad_request",
        f"seat {seat}: bot is one of {', '.join(LADDER)}",
        "seat_bot",
        {"seat": seat, "bots": ", ".join(LADDER)},
    )


def _seat_hot(seat: int) -> ProtocolError:
    return ProtocolError(
        "bad_request", f"seat {seat}: hot_seat is true for a human seat", "seat_hot", {"seat": seat}
    )


def _seats(requested: list[SeatRequest]) -> list[tuple[str | None, str | None]]:
    """The seats of a request, each a human (its name, None if not given) or a
    ladder bot (named by the server: a name given to it is refused)."""
    given: list[tuple[str | None, str | None]] = []
    for i, seat in enumerate(requested):
        if seat.hot_seat and seat.bot is not None:
            raise Invalid(_seat_hot(i))
        if not seat.name:
            given.append((None, seat.bot))
        elif seat.bot is not None:
            raise Invalid(
                ProtocolError(
                    "bad_request",
                    f"seat {i} is a bot's: the server names it from its level, so it takes no name",
                    "seat_bot_name",
                    {"seat": i},
                )
            )
        else:
            given.append((_checked_person(seat.name), None))
    return given


def _checked_person(name: Any) -> str:
    """A person's name in a request, checked (`skyjo.names.check_name`, the core's
    kind) and not one the server keeps for itself (`name_reserved`)."""
    try:
        name = check_name(name)
    except NameRefused as failure:
        raise Invalid(refused("bad_request", failure)) from None
    if reserved(name):
        raise Invalid(
            ProtocolError(
                "bad_request",
                f"the name {name} is kept for the bots and the free seats: choose another",
                "name_reserved",
                {"name": name},
            )
        )
    return name


def _not_a_name(name: Any) -> ProtocolError:
    """The names' own refusal of a seat's name that is not a string (`name_empty`)."""
    try:
        check_name(name)
    except NameRefused as failure:
        return refused("bad_request", failure)
    raise TypeError(f"{name!r} is a name")  # a bug: pydantic refused a string


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
        raise Invalid(refused("bad_request", failure)) from None


def _host_seat(asked: str | int | None, humans: list[bool]) -> int | None:
    """The host's seat: the one asked for, else ("first") the first human seat (None:
    no human seat); `humans` says which seats are humans'."""
    if asked == "first":
        return next((i for i, human in enumerate(humans) if human), None)
    if asked is None:
        return None
    assert isinstance(asked, int)
    if not 0 <= asked < len(humans):
        last = len(humans) - 1
        raise Invalid(
            ProtocolError(
                "bad_request",
                f"host_seat {asked} is not a seat of this room: its seats are 0 to {last}",
                "host_seat_range",
                {"seat": asked, "last": last},
            )
        )
    if not humans[asked]:
        raise Invalid(
            ProtocolError(
                "bad_request",
                f"seat {asked} is a bot's: the host takes a human seat",
                "host_seat_bot",
                {"seat": asked},
            )
        )
    return asked
