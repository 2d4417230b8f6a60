"""`skyjo serve`: the web app under uvicorn."""

from __future__ import annotations

from sqlalchemy.engine import make_url

from skyjo.web.settings import Settings

#: The largest WebSocket frame uvicorn accepts; the protocol's own limit is smaller.
WS_MAX_SIZE = 64 * 1024


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Serve the web app on `host:port` with the database `db` (see `Settings.from_env`)."""
    import uvicorn

    from skyjo.web.app import create_app

    settings = Settings.from_env(db)
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    print(f"Skyjo is at http://{host}:{port}  (database {shown}; Ctrl-C stops)", flush=True)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20,
    )
