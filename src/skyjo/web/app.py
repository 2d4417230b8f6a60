"""The FastAPI application: HTTP routes, the WebSocket `/ws/{code}`, the client's files.

    POST /api/rooms               create a room (RoomConfig) -> code, seat, token
    GET  /api/rooms               the listed rooms still in play
    GET  /api/rooms/{code}        one room's public facts
    GET  /api/rooms/{code}/qr.svg a QR code of the room's link (the lobby shows it)
    POST /api/rooms/{code}/join   claim a free human seat -> seat, token
    GET  /api/rooms/{code}/record the game record (RULES.md 5), once the game is over
    GET  /api/rooms/{code}/replay the frames of a finished game (`replays.frames`)
    POST /api/replays             check and keep an uploaded record -> its frames, id, link
    GET  /api/replays/{id}        the frames of an uploaded record (its stable link)
    WS   /ws/{code}               play or watch (docs/web-protocol.md)
    GET  /, /r/{code}, /r/{code}/replay, /replay, /replay/{id}
                                  the client (static/index.html); /static/... its files
    GET  /manifest.webmanifest, /favicon.ico, /sw.js   installed and offline (`pwa`)

Every HTTP error is `{"error": {"code", "message", "kind", "params"}}` (and `where`, for a
game record refused: `protocol.record_refused`; `cause`, for a room that no longer loads:
`protocol.cause_of`). Every response carries a Content-Security-Policy that allows
scripts, styles and connections from the app's own origin only (no inline script).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from skyjo.jsondepth import TooDeep, check_depth
from skyjo.record import RecordError
from skyjo.web.facts import page as facts_page
from skyjo.web.limits import Limits, RateLimit, client_address
from skyjo.web.lobby import Lobby
from skyjo.web.origins import OriginGuard
from skyjo.web.protocol import ProtocolError, cause_of, error, record_refused, refusal
from skyjo.web.pwa import pwa_router
from skyjo.web.replays import MAX_UPLOAD
from skyjo.web.room_config import RoomConfig
from skyjo.web.rooms import Client, Room
from skyjo.web.scorepad_routes import scorepad_router
from skyjo.web.settings import LADDER, Settings
from skyjo.web.storage import Store
from skyjo.web.thinking import Thinkers

STATIC = Path(__file__).parent / "static"


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


#: The largest HTTP request body, in bytes.
MAX_BODY = 16 * 1024
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
STATUS = {
    "no_room": 404,
    "no_replay": 404,
    "bad_name": 400,
    "bad_seat": 409,
    "room_full": 409,
    "not_over": 409,
    "bad_request": 400,
    "bad_record": 400,
    "too_large": 413,
    "rate_limited": 429,
    "room_unreadable": 409,
}


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for `settings` (an in-memory SQLite database by default)."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The server answers once the database is open: the bots' workers start and
        # the unfinished rooms are resumed meanwhile (a room asked for is loaded at once).
        store = await asyncio.to_thread(Store, settings.database_url)
        thinkers = Thinkers(settings.bot_processes) if settings.bot_processes else None
        lobby = Lobby(settings, store, thinkers)
        lobby.start_resuming()
        lobby.start_sweeping()
        app.state.lobby = lobby
        app.state.limits = Limits(
            settings.rooms_per_hour,
            settings.replays_per_hour,
            settings.sheets_per_hour,
            settings.joins_per_hour,
        )
        per_address = settings.ip_burst if settings.ip_rate > 0 else 0  # 0: no limit
        app.state.messages = RateLimit(per_address, settings.ip_burst / max(settings.ip_rate, 1e-9))
        try:
            yield
        finally:
            await lobby.close()
            store.close()

    app = FastAPI(title="Skyjo", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    # Inside the security headers (its refusals carry them), before every route.
    app.add_middleware(OriginGuard, allowed=settings.allowed_origins)
    app.middleware("http")(_security_headers)
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # replays: 200 KB -> 7 KB
    _routes(app, settings)
    app.include_router(scorepad_router(settings))  # /scorepad, /api/scorepad
    app.include_router(pwa_router())  # /manifest.webmanifest, /favicon.ico, /sw.js
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # Outermost: the client's address is the real client's behind a trusted proxy.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)
    return app


async def _security_headers(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    response = await call_next(request)
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


async def _http_error(request: Request, failure: Exception) -> Response:
    """Starlette's own refusals (no such route, a method a route does not take) in
    the documented error shape: 404 `not_found` (kind `no_route`, path), 405
    `method_not_allowed` (method, path), other statuses `http_<status>`."""
    assert isinstance(failure, StarletteHTTPException)
    path = f"{request.url.path:.200}"
    if failure.status_code == 404:
        refused = ProtocolError(
            "not_found", f"there is nothing at {path}", "no_route", {"path": path}
        )
    elif failure.status_code == 405:
        method = request.method
        refused = ProtocolError(
            "method_not_allowed",
            f"{path} does not take {method} requests",
            "method_not_allowed",
            {"method": method, "path": path},
        )
    else:
        code = f"http_{failure.status_code}"
        refused = ProtocolError(code, str(failure.detail), code)
    return JSONResponse(
        {"error": refused.fields()}, status_code=failure.status_code, headers=failure.headers
    )


def _fail(failure: ProtocolError) -> JSONResponse:
    """The HTTP answer of `failure`: its status, and a `Retry-After` header (seconds)
    when it is a rate limit's."""
    headers = {}
    if failure.code == "rate_limited":
        headers["Retry-After"] = str(failure.params["retry_after"])
    body = {"error": failure.fields()}
    return JSONResponse(body, status_code=STATUS.get(failure.code, 400), headers=headers)


def limit(request: Request, kind: str) -> None:
    """Count one `kind` event (`limits.Limits`) of the request's client address: a
    `ProtocolError` (429 `rate_limited`) over the limit."""
    limits: Limits = request.app.state.limits
    limits.check(kind, client_address(request.scope.get("client")))


def _unreadable(code: str, failure: Exception) -> ProtocolError:
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


async def _room(request: Request | WebSocket, code: str) -> Room | None:
    """The room `code` (None: there is none), `room_unreadable` if it cannot be loaded."""
    try:
        return await _lobby(request).get(code)
    except ValueError as failure:  # MatchError, RecordError, RulesError: a damaged row
        raise _unreadable(code, failure) from None


async def _json_body(request: Request) -> Any:
    """The request's JSON body (`{}` when empty): at most `MAX_BODY` bytes, nesting
    at most `MAX_DEPTH` levels (measured before parsing, `check_depth`)."""
    body = await _body(request, MAX_BODY)
    _shallow(body)
    try:
        return json.loads(body or b"{}")
    except ValueError:
        raise ProtocolError(
            "bad_request", "the request body is not JSON", "body_not_json"
        ) from None


def _shallow(body: bytes) -> None:
    """Refuse a body nesting deeper than `MAX_DEPTH` (400 `body_too_deep`) before
    any parser recurses into it."""
    try:
        check_depth(body)
    except TooDeep as deep:
        raise ProtocolError(
            "bad_request",
            f"the request body nests deeper than {deep.limit} levels",
            "body_too_deep",
            {"max": deep.limit},
        ) from None


async def _body(request: Request, limit: int, too_large: ProtocolError | None = None) -> bytes:
    """The request's body, refused (`too_large`, or the error `too_large`) as soon
    as it passes `limit` bytes: by its Content-Length before reading, else while read."""
    refusal = too_large or ProtocolError(
        "too_large", f"a request has at most {limit} bytes", "body_too_large", {"max": limit}
    )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise refusal
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise refusal
    return bytes(body)


def _join_request(data: Any) -> tuple[str | None, int | None]:
    """A join request's `{"name", "seat"}`, both optional."""
    if not isinstance(data, dict) or set(data) - {"name", "seat"}:
        raise ProtocolError(
            "bad_request", 'a join request is {"name", "seat"}, both optional', "join_shape"
        )
    name, seat = data.get("name"), data.get("seat")
    if name is not None and not isinstance(name, str):
        raise ProtocolError("bad_request", "name is a string", "join_name_type")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise ProtocolError("bad_request", "seat is a seat number", "join_seat_type")
    return name or None, seat


def _lobby(request: Request | WebSocket) -> Lobby:
    return request.app.state.lobby  # type: ignore[no-any-return]


def _routes(app: FastAPI, settings: Settings) -> None:
    """The HTTP and WebSocket routes."""

    @app.get("/", include_in_schema=False)
    @app.get("/r/{code}", include_in_schema=False)
    @app.get("/r/{code}/replay", include_in_schema=False)
    @app.get("/replay", include_in_schema=False)
    @app.get("/replay/{key}", include_in_schema=False)
    async def page(code: str = "", key: str = "") -> HTMLResponse:
        return facts_page(STATIC / "index.html", settings)

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        return {"ok": True, "rooms": len(_lobby(request).rooms), "bots": list(LADDER)}

    @app.get("/api/rooms")
    async def listed(request: Request) -> dict[str, Any]:
        return {"rooms": _lobby(request).listed()}

    @app.post("/api/rooms", status_code=201, response_model=None)
    async def create(request: Request) -> dict[str, Any] | JSONResponse:
        try:
            config = RoomConfig.from_dict(await _json_body(request))
            limit(request, "rooms_rate")
            room, token, hot = await _lobby(request).create(config)
        except ProtocolError as failure:
            return _fail(failure)
        answer = {"code": room.code, "seat": config.host_seat, "token": token, "host": True}
        if hot:
            held = [(config.host_seat, token)] if config.host_seat is not None else []
            held += sorted(hot.items())
            answer["seats"] = [{"seat": seat, "token": tok} for seat, tok in held]
        return answer

    @app.get("/api/rooms/{code}", response_model=None)
    async def room_info(request: Request, code: str) -> dict[str, Any] | JSONResponse:
        try:
            room = await _room(request, code)
        except ProtocolError as failure:
            return _fail(failure)
        if room is None:
            return _fail(ProtocolError("no_room", f"there is no room {code!r:.20}"))
        return room.info()

    @app.get("/api/rooms/{code}/qr.svg", response_model=None)
    async def room_qr(request: Request, code: str) -> Response:
        room = await _lobby(request).get(code)
        if room is None:
            return _fail(ProtocolError("no_room", f"there is no room {code!r:.20}"))
        link = f"{str(request.base_url).rstrip('/')}/r/{room.code}"
        return Response(qr_svg(link), media_type="image/svg+xml")

    @app.post("/api/rooms/{code}/join", response_model=None)
    async def join(request: Request, code: str) -> dict[str, Any] | JSONResponse:
        try:
            name, seat = _join_request(await _json_body(request))
            if await _room(request, code) is not None:  # loaded, or why it cannot be
                limit(request, "joins_rate")
            room, seat, token = await _lobby(request).join(code, name, seat)
        except ProtocolError as failure:
            return _fail(failure)
        return {"code": room.code, "seat": seat, "token": token, "host": False}

    @app.get("/api/rooms/{code}/record", response_model=None)
    async def game_record(request: Request, code: str) -> JSONResponse:
        try:
            game = await _lobby(request).finished(code)
        except ProtocolError as failure:
            return _fail(failure)
        name = f"skyjo-{code.strip().upper()}.json"
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        return JSONResponse(game["record"], headers=disposition)

    @app.get("/api/rooms/{code}/replay", response_model=None)
    async def room_replay(request: Request, code: str) -> dict[str, Any] | JSONResponse:
        try:
            try:
                return await _lobby(request).replay(code)
            except ValueError as failure:  # RecordError: a record saved under older rules
                raise _unreadable(code, failure) from None
        except ProtocolError as failure:
            return _fail(failure)

    @app.post("/api/replays", status_code=201, response_model=None)
    async def upload_replay(request: Request) -> dict[str, Any] | JSONResponse:
        too_large = ProtocolError(
            "too_large",
            f"a game record has at most {MAX_UPLOAD} bytes ({MAX_UPLOAD // 2**20} MB)",
            "record_too_large",
            {"max": MAX_UPLOAD, "mb": MAX_UPLOAD // 2**20},
        )
        try:
            limit(request, "replays_rate")
            body = await _body(request, MAX_UPLOAD, too_large)
            _shallow(body)
            try:
                return await _lobby(request).upload(body)
            except RecordError as failure:
                raise record_refused(failure) from None
        except ProtocolError as failure:
            return _fail(failure)

    @app.get("/api/replays/{key}", response_model=None)
    async def uploaded_replay(request: Request, key: str) -> dict[str, Any] | JSONResponse:
        try:
            return await _lobby(request).uploaded(key)
        except ProtocolError as failure:
            return _fail(failure)

    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        lobby = _lobby(websocket)
        try:
            room = await _room(websocket, code)
        except ProtocolError as failure:
            await websocket.send_json(refusal(failure))
            await websocket.close(4409)
            return
        if room is None:
            await websocket.send_json(error("no_room", f"there is no room {code!r:.20}"))
            await websocket.close(4404)
            return
        room.attach()  # at once (no await since get): the lobby keeps the room meanwhile
        address = client_address(websocket.scope.get("client"))
        client = Client(
            lobby.settings, address, websocket.app.state.messages, websocket.app.state.limits
        )
        await _converse(websocket, room, client)


async def _converse(websocket: WebSocket, room: Room, client: Client) -> None:
    """Serve one connection: its messages go to the room, the room's to it,
    until either side ends it (a client sent away stops being read)."""
    reader = asyncio.create_task(_read(websocket, room, client))
    writer = asyncio.create_task(_write(websocket, client))
    try:
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
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
