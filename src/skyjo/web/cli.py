"""The web app's command: `skyjo serve` (the work is in `skyjo.web.command`).
This module imports nothing of the app: the command does when it runs."""

from __future__ import annotations

from typing import Annotated

import typer

from skyjo.commandline import make_app, user_input

#: The web app's command, `skyjo serve`.
commands = make_app()


@commands.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy database URL (default: $SKYJO_DB, else a SQLite file "
            "in the user's data folder)."
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes sharing the port (PostgreSQL only: docs/deploy.md, "
            '"Several processes").'
        ),
    ] = 1,
) -> None:
    """Start the web app: play Skyjo in the browser, with friends, bots and spectators."""
    from skyjo.web.command import serve

    with user_input():
        serve(host=host, port=port, db=db, workers=workers)
