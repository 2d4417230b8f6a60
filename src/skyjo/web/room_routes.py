"""The rooms: made, listed, joined over HTTP, and played or watched over the WebSocket.

    GET  /api/health              the server is up: rooms in memory, bot levels, a
                                  database that takes a write (else 503: `faults`)
    POST /api/rooms               create a room (`RoomRequest`) -> code, seat, token
    GET  /api/rooms               the listed rooms still in play
    GET  /api/rooms/{code}        one room's public facts
    GET  /api/rooms/{code}/qr.svg a QR code of the room's link (the lobby shows it)
    POST /api/rooms/{code}/join   claim a free human seat (`JoinRequest`) -> seat, token
    WS   /ws/{code}               play or watch (docs/web-protocol.md, `protocol`)

A room made counts against its client address's rooms an hour once its request is
valid, a seat taken against its seats an hour once its room is found (`limited`), a
code with no room against its unknown codes an hour (`codes_counted`, `look_up`).
A WebSocket that does not say `hello` within `Settings.hello_within` seconds is
closed (4408).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import Annotated

from fastapi import APIRouter, Body, Depends, Request, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field

from skyjo.web.api import (
    LobbyOf,
    Seated,
    body_too_large,
    bounded,
    codes_counted,
    count,
    errors,
    refund,
)
from skyjo.web.faults import RETRY_AFTER
from skyjo.web.limits import Limits, client_address
from skyjo.web.lobby import Lobby
from skyjo.web.pace import BotSpeed
from skyjo.web.protocol import ProtocolError, error, refusal, unreadable
from skyjo.web.room_config import RoomConfig, RoomSettings, RulesSettings
from skyjo.web.rooms import Client, Room
from skyjo.web.settings import LADDER
from skyjo.web.validation import ANSWER, STRICT, Error, refusing

#: The largest HTTP request body of the rooms' routes, in bytes.
MAX_BODY = 16 * 1024


class Health(BaseModel):
    """The server answers: the rooms in memory (over every process of a cluster), the
    bots' levels."""

    model_config = ANSWER
    ok: bool
    rooms: int
    bots: list[str]
    database: str = Field(
        description='"ok", or why it takes no write now: storage_full, storage_locked, '
        "storage_failed (the answer is then 503)"
    )


class HeldSeat(BaseModel):
    """A seat the creator holds, and its token (one WebSocket connection each)."""

    model_config = ANSWER
    seat: int
    token: str


class Created(Seated):
    """A room made: the host's seat, and with hot seats every seat the host's device
    plays (the host's own first), each with its token."""

    seats: list[HeldSeat] | None = None


class SeatInfo(BaseModel):
    """A seat as anyone sees it."""

    model_config = ANSWER
    name: str
    bot: str | None
    human: bool
    claimed: bool = Field(description="someone holds its token")
    connected: bool
    host: bool = Field(description="the host's own seat")


class NextGame(BaseModel):
    """The table's next game, once its host started it (`rematch`)."""

    model_config = ANSWER
    code: str
    by: int | None = Field(description="the host's seat (null: a host without one)")


class RoomInfo(BaseModel):
    """A room's public facts."""

    model_config = ANSWER
    code: str
    title: str
    default_title: bool = Field(
        description="the title is the server's default (\"NAME's table\" for the host's"
        ' seat, else "Bots"): a page may word it in its own language'
    )
    listed: bool
    rules: RulesSettings
    seats: list[SeatInfo]
    free_seats: list[int]
    spectators: int
    round: int = Field(description="the round being played, from 1")
    over: bool
    lobby: bool = Field(description="the room waits in its lobby for its host to start")
    rematch: NextGame | None
    bot_speed: BotSpeed = Field(description="the bots' pace: slow, normal or fast")


class RoomList(BaseModel):
    """The listed rooms still in play (lobbies included), newest first."""

    model_config = ANSWER
    rooms: list[RoomInfo]


class JoinRequest(BaseModel):
    """`POST /api/rooms/{code}/join`: a free human seat (`seat`, else the first),
    named `name` (else the seat's name), both optional."""

    model_config = STRICT
    name: str | None = None
    seat: int | None = None


def _join_refusal(error: Error) -> ProtocolError:
    """What pydantic's `error` of a join request says, in the join's kinds."""
    match tuple(error["loc"]):
        case ("name", *_):
            return ProtocolError("bad_request", "name is a string", "join_name_type")
        case ("seat", *_):
            return ProtocolError("bad_request", "seat is a seat number", "join_seat_type")
    return ProtocolError(  # not an object, or a field it has not
        "bad_request", 'a join request is {"name", "seat"}, both optional', "join_shape"
    )


#: The body of a join, every refusal in the protocol's kinds (optional: no name, any seat).
JoinBody = Annotated[JoinRequest, refusing(_join_refusal), Body()]
ANY_SEAT = JoinRequest()


def no_room(code: str) -> ProtocolError:
    return ProtocolError("no_room", f"there is no room {code!r:.20}")


async def find_room(lobby: Lobby, code: str) -> Room | None:
    """The room `code` (None: there is none), `room_unreadable` if it cannot be loaded."""
    try:
        return await lobby.get(code)
    except ValueError as failure:  # MatchError, RecordError, RulesError: a damaged row
        raise unreadable(code, failure) from None


async def look_up(lobby: Lobby, code: str, limits: Limits, address: str) -> Room | None:
    """`find_room`, counting a miss against `address`'s unknown codes an hour
    (`codes_rate`: 429 past it). While the address waits after such a refusal every
    lookup is refused, a hit too: a guesser learns nothing from it."""
    limits.check_waiting("codes_rate", address)
    room = await find_room(lobby, code)
    if room is None:
        await limits.check("codes_rate", address)
    return room


async def _room(code: str, lobby: LobbyOf) -> Room:
    """The room of the path's `code`: `no_room` (404) when there is none (a route
    with this dependency counts it: `codes_counted`)."""
    room = await find_room(lobby, code)
    if room is None:
        raise no_room(code)
    return room


async def _counted_room(request: Request, config: Annotated[RoomSettings, Body()]) -> RoomConfig:
    """A valid room request, counted as a room made by its client address (`rooms_rate`)."""
    await count(request, "rooms_rate")
    return config  # type: ignore[return-value]  # RoomSettings validates to a RoomConfig


async def _counted_join(
    request: Request, code: str, lobby: LobbyOf, asked: JoinBody = ANY_SEAT
) -> JoinRequest:
    """A valid join, counted as a seat taken by its client address (`joins_rate`)
    when its room is there (or cannot be loaded: its refusal)."""
    if await find_room(lobby, code) is not None:
        await count(request, "joins_rate")
    return asked


def qr_svg(link: str) -> bytes:
    """A QR code of `link` as an SVG picture (dark modules on white, a quiet zone
    of 4 modules, scaled by the page), for a phone at the table to scan. (segno is
    imported on the first: a server starts without it.)"""
    import segno

    buffer = io.BytesIO()
    segno.make(link, error="m").save(
        buffer,
        kind="svg",
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgns=True,
        title="QR code",
        nl=False,
        omitsize=True,
    )
    return buffer.getvalue()


#: The rooms' routes (bodies of at most `MAX_BODY` bytes).
router = APIRouter(route_class=bounded(MAX_BODY, body_too_large), tags=["rooms"])


@router.get("/api/health", responses={**errors(), 503: {"model": Health}})
async def health(lobby: LobbyOf, response: Response) -> Health:
    """The server answers (once its database is open: its rooms load meanwhile), and
    its database takes a write: else 503, saying why (a load balancer's signal)."""
    fault = await lobby.database_fault()
    if fault is not None:
        response.status_code = 503
        response.headers["Retry-After"] = str(RETRY_AFTER)
    rooms = await lobby.rooms_held()
    return Health(ok=fault is None, rooms=rooms, bots=list(LADDER), database=fault or "ok")


@router.get("/api/rooms", responses=errors())
async def listed(lobby: LobbyOf) -> RoomList:
    """The listed rooms still in play, newest first."""
    return RoomList.model_validate({"rooms": await lobby.open_rooms()})


@router.post(
    "/api/rooms",
    status_code=201,
    responses=errors(400, 413, 429),
    response_model_exclude_unset=True,
)
async def create(config: Annotated[RoomConfig, Depends(_counted_room)], lobby: LobbyOf) -> Created:
    """Create a room; its creator holds the host's seat (and the hot seats)."""
    room, token, hot = await lobby.create(config)
    created = Created(code=room.code, seat=config.host_seat, token=token, host=True)
    if hot:
        held = [(config.host_seat, token)] if config.host_seat is not None else []
        held += sorted(hot.items())
        created.seats = [HeldSeat(seat=seat, token=tok) for seat, tok in held]
    return created


@router.get(
    "/api/rooms/{code}",
    dependencies=[Depends(codes_counted)],
    responses=errors(404, 409, 429),
)
async def room_info(room: Annotated[Room, Depends(_room)]) -> RoomInfo:
    """A room's public facts."""
    return RoomInfo.model_validate(room.info())


@router.get(
    "/api/rooms/{code}/qr.svg",
    dependencies=[Depends(codes_counted)],
    response_class=Response,
    responses={
        200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}},
        **errors(404, 409, 429),
    },
)
async def room_qr(request: Request, room: Annotated[Room, Depends(_room)]) -> Response:
    """A QR code of the room's link, as the request reached the server."""
    link = f"{str(request.base_url).rstrip('/')}/r/{room.code}"
    return Response(qr_svg(link), media_type="image/svg+xml")


@router.post(
    "/api/rooms/{code}/join",
    dependencies=[Depends(codes_counted)],
    responses=errors(400, 404, 409, 413, 429),
)
async def join(
    request: Request,
    code: str,
    asked: Annotated[JoinRequest, Depends(_counted_join)],
    lobby: LobbyOf,
) -> Seated:
    """Claim a free human seat (a join refused gives its count back: only seats
    taken count against `joins_rate`)."""
    try:
        room, seat, token = await lobby.join(code, asked.name or None, asked.seat)
    except ProtocolError:
        await refund(request, "joins_rate")
        raise
    return Seated(code=room.code, seat=seat, token=token, host=False)


@router.websocket("/ws/{code}")
async def play(websocket: WebSocket, code: str) -> None:
    await websocket.accept()
    lobby: Lobby = websocket.app.state.lobby
    limits: Limits = websocket.app.state.limits
    address = client_address(websocket.scope.get("client"))
    try:
        room = await look_up(lobby, code, limits, address)
    except ProtocolError as failure:  # room_unreadable, room_moving, codes_rate
        await websocket.send_json(refusal(failure))
        await websocket.close(REFUSED_CLOSE.get(failure.kind, 4409))
        return
    if room is None:
        await websocket.send_json(error("no_room", f"there is no room {code!r:.20}"))
        await websocket.close(4404)
        return
    room.attach()  # at once (no await since get): the lobby keeps the room meanwhile
    client = Client(lobby.settings, address, websocket.app.state.messages, limits)
    await _converse(websocket, room, client)


#: The close code of a WebSocket whose room lookup is refused, by the refusal's kind
#: (else 4409, `room_unreadable`): `room_moving` tries again, `codes_rate` waits.
REFUSED_CLOSE = {"room_moving": 1013, "codes_rate": 4429}
#: The close code of a WebSocket that did not say `hello` in time (as HTTP's 408).
UNGREETED = 4408


def _hello_deadline(client: Client, within: float) -> asyncio.TimerHandle | None:
    """Close `client`'s connection in `within` seconds if it has not said `hello` by
    then (`Settings.hello_within`; 0: never): the timer, to cancel when it ends."""
    if within <= 0:
        return None
    return asyncio.get_running_loop().call_later(within, _close_ungreeted, client, within)


def _close_ungreeted(client: Client, within: float) -> None:
    if not client.greeted:
        client.close(UNGREETED, f"no hello within {within:g} s")


async def _converse(websocket: WebSocket, room: Room, client: Client) -> None:
    """Serve one connection: its messages go to the room, the room's to it,
    until either side ends it (a client sent away stops being read, one silent past
    `Settings.hello_within` too)."""
    deadline = _hello_deadline(client, room.settings.hello_within)
    reader = asyncio.create_task(_read(websocket, room, client))
    writer = asyncio.create_task(_write(websocket, client))
    try:
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if deadline is not None:
            deadline.cancel()
        room.leave(client)
        client.close(client.close_code, client.close_reason)
        await writer
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader


async def _read(websocket: WebSocket, room: Room, client: Client) -> None:
    """Hand the client's messages to the room until it disconnects or is sent away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while not client.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            raw = text if text is not None else message.get("bytes")
            if _oversize(client, raw, room.settings.oversize_close):
                return
            await room.receive(client, raw)


def _oversize(client: Client, raw: str | bytes | None, limit: int) -> bool:
    """Whether `raw` is over `limit` bytes: then the client is told the largest
    message (`too_large`, kind `too_large_closed`, with `max`: the protocol's own
    limit, `Settings.max_message`) and the connection is closed with 1009."""
    if raw is None:
        return False
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size <= limit:
        return False
    largest = client.max_message
    client.send(
        error(
            "too_large",
            f"a message has at most {largest} bytes, not {size}: the connection is closed",
            "too_large_closed",
            {"max": largest, "size": size},
        )
    )
    client.close(1009, f"message too big: at most {largest} bytes")
    return True


async def _write(websocket: WebSocket, client: Client) -> None:
    """Send the client's queued messages in order, then close the socket."""
    try:
        while (text := await client.queue.get()) is not None:
            await websocket.send_text(text)
        await websocket.close(client.close_code, client.close_reason)
    except (WebSocketDisconnect, RuntimeError, OSError):
        client.closed = True


__all__ = ["qr_svg", "router"]
