"""`skyjo serve`: the web app under uvicorn."""

from __future__ import annotations

import gc

from sqlalchemy.engine import make_url

from skyjo.web.settings import Settings

#: The largest WebSocket message the transport reads (uvicorn's ws_max_size): far above
#: the protocol's own limits, so that the app reads an oversized message and answers
#: it (`too_large`, naming the limit) before it closes the connection (1009). A message
#: larger still is cut by the transport (1009, its reason naming the size).
WS_MAX_SIZE = 1024 * 1024
#: The cyclic garbage collector's thresholds while serving (Python's are 700, 10, 10).
GC_THRESHOLDS = (50_000, 20, 100)


def tune_gc() -> None:
    """Make the cyclic garbage collector cheaper for a long-running server: what
    the start made (modules, the app) is frozen out of every collection, and the
    collections come far less often. Each step makes and drops thousands of small
    dicts and lists (every viewer's update), which reference counting frees;
    with Python's thresholds the collector still ran every few hundred of them,
    walking every live object of every room each time it reached the oldest
    generation: 8 % of a busy server's time (issue 47, docs/benchmarks.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


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
    app = create_app(settings)
    tune_gc()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        loop="auto",  # uvloop (a dependency), else asyncio's own loop
        ws=WebSocketProtocol,  # permessage-deflate for large messages only
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20,
        proxy_headers=False,
    )
