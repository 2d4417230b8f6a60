"""`skyjo serve`: the web app under uvicorn."""

from __future__ import annotations

from sqlalchemy.engine import make_url

from skyjo.web.settings import Settings

#: The largest WebSocket message the transport reads (uvicorn's ws_max_size): far above
#: the protocol's own limits, so that the app reads an oversized message and answers
#: it (`too_large`, naming the limit) before it closes the connection (1009). A message
#: larger still is cut by the transport (1009, its reason naming the size).
WS_MAX_SIZE = 1024 * 1024


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Serve the web app on `host:port` with the database `db` (see `Settings.from_env`).
    The app reads the proxy headers itself (`Settings.trusted_proxies`), so
    uvicorn's own reading is off: one setting decides whom to trust. Messages
    under `transport.MIN_COMPRESSED` bytes go uncompressed (`skyjo.web.transport`)."""
    import uvicorn

    from skyjo.web.app import create_app
    from skyjo.web.transport import WebSocketProtocol

    settings = Settings.from_env(db)
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    print(f"Skyjo is at http://{host}:{port}  (database {shown}; Ctrl-C stops)", flush=True)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level="warning",
        loop="auto",  # uvloop (a dependency), else asyncio's own loop
        ws=WebSocketProtocol,  # permessage-deflate for large messages only
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20,
        proxy_headers=False,
    )
