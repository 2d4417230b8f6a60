"""The WebSocket protocol (docs/web-protocol.md): client messages parsed and
checked, server messages built.

Every client message is one JSON object with a `type`; `parse` turns the raw
text into one of the dataclasses below or raises `ProtocolError`, whose `code`,
English message, `kind` (one per sentence) and `params` (the values the
sentence names) go back to the client in an `error` message, for a client to
write the sentence in its own language (docs/web-protocol.md). Server messages are
plain dicts built by the functions at the end.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any

from skyjo.errors import SkyjoError
from skyjo.jsondepth import TooDeep, check_depth
from skyjo.record import RecordError

#: The protocol's version, sent in every `state` message.
VERSION = 1


class ProtocolError(Exception):
    """A message or request the server refuses: `code` names what was wrong,
    `kind` which sentence `message` is (the code itself when it has only one)
    and `params` the values the sentence names; `where`, for a game record
    refused (`bad_record`), where in the record (`record_refused`); `cause`, for
    a refusal that names another's sentence as its `detail` (`room_unreadable`),
    that refusal's `kind`, `params` and `where` (`cause_of`)."""

    def __init__(
        self,
        code: str,
        message: str,
        kind: str | None = None,
        params: dict[str, Any] | None = None,
        where: dict[str, Any] | None = None,
        cause: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.kind = kind or code
        self.params = params or {}
        self.where = where
        self.cause = cause

    def fields(self) -> dict[str, Any]:
        """What an answer says of it: `{code, message, kind, params}`, and `where` and
        `cause` when it has them (docs/web-protocol.md)."""
        said: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "kind": self.kind,
            "params": self.params,
        }
        if self.where is not None:
            said["where"] = self.where
        if self.cause is not None:
            said["cause"] = self.cause
        return said


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message: a seat's token, none for a spectator, or `join` to claim a free seat."""

    token: str | None
    join: bool = False
    name: str | None = None  #: with `join`: the name the newcomer chose


@dataclass(frozen=True, slots=True)
class Move:
    """An action id of the engine for the sender's seat."""

    action: int


@dataclass(frozen=True, slots=True)
class Resync:
    """Ask for a fresh `state` (after a gap in the update numbers)."""


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of room chat."""

    text: str


@dataclass(frozen=True, slots=True)
class SeatChange:
    """The host hands `seat` to the bot `bot` (a ladder level) or back to its human (None)."""

    seat: int
    bot: str | None


@dataclass(frozen=True, slots=True)
class Remove:
    """The host removes the player of `seat`: its tokens are revoked, the seat is free."""

    seat: int


@dataclass(frozen=True, slots=True)
class Ready:
    """At a round end, the sender's seat has seen it: deal the next round when
    every connected human has said so."""


@dataclass(frozen=True, slots=True)
class Start:
    """The host starts the game waiting in its lobby; `empty` says what becomes
    of seats nobody took: None (refused while there are any), "drop" (the
    seats are removed) or a ladder level (a bot of that level plays each)."""

    empty: str | None


@dataclass(frozen=True, slots=True)
class Drop:
    """In the lobby, the host removes `seat` from the table (2 seats at least stay)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Rematch:
    """Once the game is over, the host starts another game of the whole table: a new
    room with the same seats, their tokens and the rules (asked again: the same room)."""


ClientMessage = Hello | Move | Resync | Chat | SeatChange | Remove | Ready | Start | Drop | Rematch

#: Per type, the fields a message may hold besides `type`.
FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"token", "join", "name", "protocol"}),
    "move": frozenset({"action"}),
    "resync": frozenset(),
    "chat": frozenset({"text"}),
    "seat": frozenset({"seat", "bot"}),
    "remove": frozenset({"seat"}),
    "ready": frozenset(),
    "start": frozenset({"empty"}),
    "drop": frozenset({"seat"}),
    "rematch": frozenset(),
}


def parse(raw: str | bytes | None, max_bytes: int) -> ClientMessage:
    """The message in `raw`, checked; `ProtocolError` names what is wrong."""
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
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message is a JSON object", "not_object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r:.40}", params={"type": f"{kind!r:.40}"}
        )
    unknown = sorted(set(data) - FIELDS[kind] - {"type"})
    if unknown:
        raise ProtocolError(
            "bad_field",
            f"a {kind} message has no field {unknown[0]!r:.40}",
            "unknown_field",
            {"type": kind, "field": f"{unknown[0]!r:.40}"},
        )
    return _READERS[kind](data)


def _integer(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(
            "bad_field",
            f"{key} must be an integer, not {value!r:.40}",
            "not_integer",
            {"field": key, "value": f"{value!r:.40}"},
        )
    return value


def _hello(data: dict[str, Any]) -> Hello:
    token = data.get("token")
    if token is not None and (not isinstance(token, str) or len(token) > 100):
        raise ProtocolError("bad_field", "token must be a string or null", "token_type")
    join = data.get("join", False)
    if not isinstance(join, bool):
        raise ProtocolError("bad_field", "join must be true or false", "join_type")
    version = data.get("protocol", VERSION)
    if version != VERSION:
        raise ProtocolError(
            "bad_version", f"this server speaks protocol {VERSION}", params={"version": VERSION}
        )
    if join and token is not None:
        raise ProtocolError(
            "bad_field", "join a free seat or give a token, not both", "join_and_token"
        )
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or not join):
        raise ProtocolError("bad_field", "name is a string, given with join", "name_type")
    return Hello(token, join, name)


def _move(data: dict[str, Any]) -> Move:
    return Move(_integer(data, "action"))


def _chat(data: dict[str, Any]) -> Chat:
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ProtocolError("bad_field", "text must be a non-empty string", "chat_empty")
    return Chat(text.strip())


def _seat(data: dict[str, Any]) -> SeatChange:
    bot = data.get("bot")
    if bot is not None and not isinstance(bot, str):
        raise ProtocolError("bad_field", "bot must be a bot level or null", "bot_type")
    return SeatChange(_integer(data, "seat"), bot)


def _start(data: dict[str, Any]) -> Start:
    empty = data.get("empty")
    if empty is not None and not isinstance(empty, str):
        raise ProtocolError("bad_field", 'empty is null, "drop" or a bot level', "empty_type")
    return Start(empty)


_READERS = {
    "hello": _hello,
    "move": _move,
    "resync": lambda data: Resync(),
    "chat": _chat,
    "seat": _seat,
    "remove": lambda data: Remove(_integer(data, "seat")),
    "ready": lambda data: Ready(),
    "start": _start,
    "drop": lambda data: Drop(_integer(data, "seat")),
    "rematch": lambda data: Rematch(),
}


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
