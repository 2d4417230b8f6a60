"""The WebSocket protocol (docs/web-protocol.md): client messages parsed and
checked, server messages built.

Every client message is one JSON object with a `type`; `parse` measures the raw
text (its size, its nesting), parses it and validates it as one of the pydantic
models below (`ClientMessage`, by its `type`), or raises `ProtocolError`, whose
`code`, English message, `kind` (one per sentence) and `params` (the values the
sentence names) go back to the client in an `error` message, for a client to
write the sentence in its own language (docs/web-protocol.md): pydantic's own
errors are read as those (`skyjo.web.validation`). Server messages are plain
dicts built by the functions at the end.
"""

from __future__ import annotations

import json
import math
import time
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from skyjo.errors import SkyjoError
from skyjo.jsondepth import TooDeep, check_depth
from skyjo.record import RecordError
from skyjo.web.pace import BotSpeed
from skyjo.web.validation import Error, Invalid, ProtocolError, carried, refusing, shown

#: The protocol's version, sent in every `state` message.
VERSION = 1


class _Message(BaseModel):
    """A client message: a JSON object whose `type` names its model, with no field
    but the model's, each of exactly its JSON type (strict: no `"1"` for 1)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    """The first message: a seat's token, none for a spectator, or `join` to claim a free seat."""

    type: Literal["hello"]
    token: str | None = Field(None, max_length=100)
    join: bool = False
    protocol: Literal[1] = VERSION  #: the protocol the client speaks (`VERSION`)
    name: str | None = None  #: with `join`: the name the newcomer chose

    @model_validator(mode="after")
    def _join_or_token(self) -> Hello:
        """`join` claims a free seat (with a `name`, perhaps), a token resumes one."""
        if self.join and self.token is not None:
            raise Invalid(
                ProtocolError(
                    "bad_field", "join a free seat or give a token, not both", "join_and_token"
                )
            )
        if self.name is not None and not self.join:
            raise Invalid(
                ProtocolError("bad_field", "name is a string, given with join", "name_type")
            )
        return self


class Move(_Message):
    """An action id of the engine for the sender's seat."""

    type: Literal["move"]
    action: int


class Resync(_Message):
    """Ask for a fresh `state` (after a gap in the update numbers)."""

    type: Literal["resync"]


class Chat(_Message):
    """A line of room chat (the spaces around it dropped)."""

    type: Literal["chat"]
    text: str

    @field_validator("text")
    @classmethod
    def _stripped(cls, text: str) -> str:
        if not text.strip():
            raise Invalid(
                ProtocolError("bad_field", "text must be a non-empty string", "chat_empty")
            )
        return text.strip()


class SeatChange(_Message):
    """The host hands `seat` to the bot `bot` (a ladder level) or back to its human (None)."""

    type: Literal["seat"]
    bot: str | None = None
    seat: int


class Remove(_Message):
    """The host removes the player of `seat`: its tokens are revoked, the seat is free."""

    type: Literal["remove"]
    seat: int


class Ready(_Message):
    """At a round end, the sender's seat has seen it: deal the next round when
    every connected human has said so."""

    type: Literal["ready"]


class Start(_Message):
    """The host starts the game waiting in its lobby; `empty` says what becomes
    of seats nobody took: None (refused while there are any), "drop" (the
    seats are removed) or a ladder level (a bot of that level plays each)."""

    type: Literal["start"]
    empty: str | None = None


class Drop(_Message):
    """In the lobby, the host removes `seat` from the table (2 seats at least stay)."""

    type: Literal["drop"]
    seat: int


class Rematch(_Message):
    """Once the game is over, the host starts another game of the whole table: a new
    room with the same seats, their tokens and the rules (asked again: the same room)."""

    type: Literal["rematch"]


class SetBotSpeed(_Message):
    """The host sets the bots' pace (`skyjo.web.pace`): told to everyone, kept with the room."""

    type: Literal["bot_speed"]
    speed: BotSpeed


class Undo(_Message):
    """Undo the sender's last move and the bots' replies since (`skyjo.web.undo`):
    only in a room where every other seat is a bot's."""

    type: Literal["undo"]


class Hint(_Message):
    """In a game against bots only, the sender asks which move the `expected` bot
    would play in its place now (`skyjo.web.hints`)."""

    type: Literal["hint"]


def _refusal(error: Error) -> ProtocolError:
    """What a client is told of pydantic's `error` of its message: the protocol's
    codes and kinds (docs/web-protocol.md), as the hand checks of old said them."""
    loc = tuple(error["loc"])
    if error["type"] == "model_attributes_type":
        return ProtocolError("bad_json", "a message is a JSON object", "not_object")
    if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
        kind = shown(error["input"].get("type"))
        return ProtocolError("unknown_type", f"unknown message type {kind}", params={"type": kind})
    if error["type"] == "extra_forbidden":
        field = shown(loc[-1])
        return ProtocolError(
            "bad_field",
            f"a {loc[0]} message has no field {field}",
            "unknown_field",
            {"type": loc[0], "field": field},
        )
    missing = error["type"] == "missing"
    match loc[:2]:
        case (_, "action" | "seat" as field):
            value = shown(None if missing else error["input"])
            return ProtocolError(
                "bad_field",
                f"{field} must be an integer, not {value}",
                "not_integer",
                {"field": field, "value": value},
            )
        case ("hello", "token"):
            return ProtocolError("bad_field", "token must be a string or null", "token_type")
        case ("hello", "join"):
            return ProtocolError("bad_field", "join must be true or false", "join_type")
        case ("hello", "protocol"):
            return ProtocolError(
                "bad_version",
                f"this server speaks protocol {VERSION}",
                params={"version": VERSION},
            )
        case ("hello", "name"):
            return ProtocolError("bad_field", "name is a string, given with join", "name_type")
        case ("chat", "text"):
            return ProtocolError("bad_field", "text must be a non-empty string", "chat_empty")
        case ("seat", "bot"):
            return ProtocolError("bad_field", "bot must be a bot level or null", "bot_type")
        case ("bot_speed", "speed"):
            return ProtocolError("bad_field", 'speed is "slow", "normal" or "fast"', "speed_type")
        case ("start", "empty"):
            return ProtocolError("bad_field", 'empty is null, "drop" or a bot level', "empty_type")
    raise TypeError(f"no refusal for {error}")  # a bug: every field of every message is above


#: Every message a client sends, by its `type`, refused as the protocol says.
ClientMessage = Annotated[
    Hello
    | Move
    | Resync
    | Chat
    | SeatChange
    | Remove
    | Ready
    | Start
    | Drop
    | Rematch
    | SetBotSpeed
    | Undo
    | Hint,
    Field(discriminator="type"),
    refusing(_refusal),
]
_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse(raw: str | bytes | None, max_bytes: int) -> ClientMessage:
    """The message in `raw`, checked (`ClientMessage`); `ProtocolError` names what
    is wrong. Its size and its nesting are measured on its text before it is
    parsed (`skyjo.jsondepth`)."""
    if raw is None:
        raise ProtocolError("bad_json", "a message is a JSON object sent as text", "not_text")
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise ProtocolError(
            "too_large",
            f"a message has at most {max_bytes} bytes, not {size}",
            params={"max": max_bytes, "size": size},
        )
    try:
        check_depth(raw)
    except TooDeep as deep:
        raise ProtocolError(
            "bad_json",
            f"a message nests deeper than {deep.limit} levels",
            "too_deep",
            {"max": deep.limit},
        ) from None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise ProtocolError(
            "bad_json", f"not JSON: {error}", "not_json", {"detail": str(error)}
        ) from None
    try:
        return _MESSAGES.validate_python(data)
    except ValidationError as failure:
        refused = carried(failure.errors())
        if refused is None:  # a bug: `refusing` turns every error into one
            raise TypeError(f"a refusal without a kind: {failure}") from failure
        raise refused from None


class TokenBucket:
    """A rate limit: `burst` messages at once, refilled at `rate` a second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._last = time.monotonic()

    def take(self) -> bool:
        """Spend one token; False when none is left (the message is over the limit)."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    @property
    def retry_after(self) -> float:
        """Seconds until the next token (0 when one is left), as of the last `take`."""
        return max(0.0, (1 - self._tokens) / self.rate) if self.rate > 0 else math.inf


# --- server messages ------------------------------------------------------------


def encode(message: dict[str, Any]) -> str:
    """A server message's text: compact JSON in UTF-8, by orjson (a tenth of the
    time of `json.dumps`, for every update to every viewer). What orjson refuses
    (a string with a lone surrogate a client sent, echoed in an error; an integer
    beyond 64 bits) is written by `json.dumps`, with escapes."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))


def error(
    code: str, message: str, kind: str | None = None, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The `error` message: `code` names what was wrong, `message` says it in
    English, `kind` names the sentence (the code when it has only one) and
    `params` holds the values it names (docs/web-protocol.md)."""
    return {
        "type": "error",
        "code": code,
        "message": message,
        "kind": kind or code,
        "params": params or {},
    }


def refused(code: str, failure: SkyjoError) -> ProtocolError:
    """The `ProtocolError` `code` of a refusal of the core (`skyjo.errors`): its
    English sentence, its `kind` and its `params`, as they were raised."""
    return ProtocolError(code, str(failure), failure.kind, failure.params)


def record_refused(failure: RecordError) -> ProtocolError:
    """The `bad_record` refusal of a game record (`skyjo.record.RecordError`): the
    record's own `kind` and `params`, and `where` in the record it went wrong:
    `{round, turn, player}`, each null when the error is about the record as a whole
    (`round` from 1; `turn` from 1 within the round, or ``"reveals"``; `player` the
    name of the player concerned)."""
    return ProtocolError(
        "bad_record", f"Not a game record: {failure}", failure.kind, failure.params, _where(failure)
    )


def _where(failure: RecordError) -> dict[str, Any]:
    return {"round": failure.round, "turn": failure.turn, "player": failure.player}


def cause_of(failure: Exception) -> dict[str, Any] | None:
    """A refusal of the core that another refusal names as its `detail`, for a client to
    write in its language: its `kind` and `params`, and for a game record's
    (`RecordError`) `where` in the record, as `record_refused` gives them; None for an
    error with no kind."""
    if not isinstance(failure, SkyjoError):
        return None
    cause = {"kind": failure.kind, "params": failure.params}
    if isinstance(failure, RecordError):
        cause["where"] = _where(failure)
    return cause


def refusal(failure: ProtocolError) -> dict[str, Any]:
    """The `error` message of `failure` (with its `where` and `cause`, if any)."""
    return {"type": "error", **failure.fields()}


def unreadable(code: str, failure: Exception) -> ProtocolError:
    """A stored room this server cannot load: saved by an older version under
    rules it no longer accepts (a target over 1,000, say). Its row is kept. The
    refusal's English sentence is `detail`, and its kind and params the `cause`."""
    shown = f"{code.strip().upper()!s:.20}"
    return ProtocolError(
        "room_unreadable",
        f"room {shown} was saved under rules this server no longer accepts: {failure}",
        "room_unreadable",
        {"code": shown, "detail": str(failure)},
        cause=cause_of(failure),
    )
