"""The FastAPI application: its routers, middleware and error answers.

    rooms       /api/health, /api/rooms..., /ws/{code}        (`room_routes`)
    replays     /api/rooms/{code}/record|replay, /api/replays  (`replay_routes`)
    scorepad    /api/scorepad/...                              (`scorepad_routes`)
    pages       /, /r/{code}, /replay..., /scorepad...         (`page_routes`)
    pwa         /manifest.webmanifest, /favicon.ico, /sw.js    (`pwa`)
    sockets     the caps of open WebSockets                    (`sockets.SocketGate`)
    /static/... the client's files; /openapi.json the API's schemas

Every HTTP error is `{"error": {"code", "message", "kind", "params"}}` (and `where`, for a
game record refused: `protocol.record_refused`; `cause`, for a room that no longer loads:
`protocol.cause_of`), with the status of its code (`api.STATUS`): the routes' requests
are pydantic models whose validation errors are read as the protocol's kinds, never
answered as pydantic's 422 (`api`, `validation`). Every response carries a
Content-Security-Policy that allows scripts, styles and connections from the app's own
origin only (no inline script).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

from fastapi import FastAPI, Request, Response
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from skyjo.persistence.engine import engine_for
from skyjo.web import api, page_routes, pwa, replay_routes, room_routes, scorepad_routes
from skyjo.web.cluster import Forwarder, Ownership, Relay
from skyjo.web.head import HeadAsGet
from skyjo.web.limits import Limits, RateLimit, SharedLimits
from skyjo.web.lobby import Lobby
from skyjo.web.origins import OriginGuard, allowed_names
from skyjo.web.page_routes import STATIC, missing_page
from skyjo.web.room_routes import qr_svg
from skyjo.web.settings import Settings
from skyjo.web.sockets import SocketGate, open_file_limit, socket_caps
from skyjo.web.storage import Store
from skyjo.web.thinking import Thinkers

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
#: What a page of an allowed origin (`SKYJO_ALLOWED_ORIGINS`) may send: the API's
#: methods, a JSON body and the scorepad's tokens (CORS: its preflight is answered).
CORS_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
CORS_HEADERS = ("Content-Type", "X-Skyjo-Owner", "X-Skyjo-Key")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for `settings` (an in-memory SQLite database by default)."""
    settings = settings or Settings()
    forwarder = Forwarder()  #: the requests relayed to other processes (a cluster)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The server answers once the database is open: the bots' workers start and
        # the unfinished rooms are resumed meanwhile (a room asked for is loaded at once).
        # One engine serves the process: the rooms, the scorepad, the limits, the locks.
        engine = app.state.engine = engine_for(settings.database_url)
        store = await asyncio.to_thread(Store, engine)
        thinkers = Thinkers(settings.bot_processes) if settings.bot_processes else None
        ownership = None
        if settings.cluster_address is not None:  # one of a cluster: skyjo.web.cluster
            ownership = await asyncio.to_thread(Ownership, engine, settings.cluster_address)
        lobby = Lobby(settings, store, thinkers, ownership)
        lobby.start_resuming()
        lobby.start_sweeping()
        app.state.lobby = lobby
        hourly = (
            settings.rooms_per_hour,
            settings.replays_per_hour,
            settings.sheets_per_hour,
            settings.joins_per_hour,
            settings.codes_per_hour,
        )
        limits = (  # a cluster counts them once for all its processes
            Limits(*hourly)
            if ownership is None
            else await asyncio.to_thread(SharedLimits, engine, *hourly)
        )
        app.state.limits = limits
        per_address = settings.ip_burst if settings.ip_rate > 0 else 0  # 0: no limit
        app.state.messages = RateLimit(per_address, settings.ip_burst / max(settings.ip_rate, 1e-9))
        try:
            yield
        finally:
            await lobby.close()
            await forwarder.close()
            limits.close()
            store.close()
            engine.dispose()

    app = FastAPI(
        title="Skyjo",
        summary="Rooms of humans and bots playing Skyjo, their replays, and a scorepad.",
        description="docs/web-protocol.md (the WebSocket's messages: `skyjo.web.protocol`)",
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings  # what the routers' lifespans and dependencies read
    api.install(app)
    # a browser's page address where there is none: the app's page saying so (JSON else)
    app.add_exception_handler(HTTPException, missing_page(api.http_error))
    # A room held by another process of the cluster: relayed there, once the origin
    # is checked here (inside the guard), before any route (`skyjo.web.cluster`).
    if settings.cluster_address is not None:
        app.add_middleware(Relay, forwarder=forwarder)
    # Inside the security headers (its refusals carry them), before every route.
    hosts = allowed_names(
        settings.allowed_hosts, settings.allowed_origins, settings.cluster_address
    )
    app.add_middleware(OriginGuard, allowed=settings.allowed_origins, hosts=hosts)
    if settings.allowed_origins:  # their pages' requests: preflights answered, answers readable
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.allowed_origins),
            allow_methods=list(CORS_METHODS),
            allow_headers=list(CORS_HEADERS),
            max_age=600,
        )
    app.middleware("http")(_security_headers)
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # replays: 200 KB -> 7 KB
    app.include_router(room_routes.router)
    app.include_router(replay_routes.router)
    app.include_router(scorepad_routes.router)
    app.include_router(page_routes.router)
    app.include_router(pwa.router)  # /manifest.webmanifest, /favicon.ico, /sw.js
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(HeadAsGet)  # HEAD where GET is, as GET without its body
    # Past a cap of open WebSockets (per client address, in all) refused before anything.
    relaying = settings.cluster_address is not None
    app.state.socket_caps = socket_caps(settings, relaying, open_file_limit())
    app.add_middleware(SocketGate, caps=app.state.socket_caps)
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


__all__ = ["STATIC", "create_app", "qr_svg"]
