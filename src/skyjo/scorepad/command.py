"""The work of `skyjo scorepad` (the command itself is in `skyjo.scorepad.cli`).

`scripted` does what prints and exits (`--list`, `--export`, `--import`),
`open_app` makes the Textual app; both raise a `ValueError` for bad input,
which the command turns into its one-line error (RULES.md 6).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from skyjo.persistence.location import database_url
from skyjo.render import visible
from skyjo.scorepad.exports import export_csv, export_json, import_json
from skyjo.scorepad.store import EDIT, READ, SheetInfo, SheetStore, StoreError

FORMATS = ("json", "csv")
T = TypeVar("T")


def open_store(db: str | None) -> SheetStore:
    """The sheets of `--db`, else `$SKYJO_DB`, else the user's SQLite file
    (`skyjo.persistence.location.database_url`: the games' database)."""
    url = database_url(db)
    return guarded(url, lambda: SheetStore(url))


def guarded(url: str, work: Callable[[], T]) -> T:
    """`work()`, a database error said in one line as a `StoreError`."""
    try:
        return work()
    except StoreError:
        raise
    except (ArgumentError, SQLAlchemyError) as error:
        try:
            shown = make_url(url).render_as_string(hide_password=True)
        except ArgumentError:
            shown = url
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise StoreError.of("database_unusable", database=shown, reason=reason) from error


def scripted(
    db: str | None,
    listing: bool,
    export: str | None,
    fmt: str | None,
    source: Path | None,
    as_json: bool,
    share: str | None = None,
) -> str | None:
    """The output of `--list`, `--export ID`, `--import FILE` or `--share ID`, or
    None when none is given (the app then opens). Refuses options that do not go
    together."""
    given = [
        name
        for name, value in (
            ("--list", listing),
            ("--export", export),
            ("--import", source),
            ("--share", share),
        )
        if value
    ]
    if len(given) > 1:
        raise ValueError(f"{given[0]} and {given[1]} do not go together: give one")
    if fmt is not None and export is None:
        raise ValueError("--format goes with --export ID")
    if as_json and not listing and source is None and share is None:
        raise ValueError("--json goes with --list, --import or --share (--export takes --format)")
    if not given:
        return None
    store = open_store(db)
    try:
        if listing:
            return list_output(guarded(store.url, store.list), as_json)
        if export is not None:
            return export_output(store, export, fmt or "json")
        if share is not None:
            return share_output(store, share, as_json)
        assert source is not None
        return import_output(store, source, as_json)
    finally:
        store.close()


def list_output(infos: list[SheetInfo], as_json: bool) -> str:
    """`--list`: a line a sheet (id, rounds, state, title, players), or one JSON document."""
    if as_json:
        return json.dumps({"sheets": [info.to_dict() for info in infos]}) + "\n"
    if not infos:
        return "No scoresheet yet: skyjo scorepad starts one.\n"
    lines = []
    for info in infos:
        state = "game over" if info.finished else "going on"
        title = info.title or "untitled"
        players = ", ".join(info.players)
        rounds = f"{info.rounds:>3} round" + ("" if info.rounds == 1 else "s")
        lines.append(visible(f"{info.id}  {rounds:<10}  {state:<9}  {title}: {players}"))
    return "\n".join(lines) + "\n"


def export_output(store: SheetStore, sheet_id: str, fmt: str) -> str:
    """`--export ID --format csv|json`: the sheet for a script."""
    if fmt not in FORMATS:
        raise ValueError(f"--format is csv or json, not {fmt!r:.40}")
    sheet = guarded(store.url, lambda: store.load(sheet_id)).sheet
    return export_csv(sheet) if fmt == "csv" else export_json(sheet)


def import_output(store: SheetStore, source: Path, as_json: bool) -> str:
    """`--import FILE`: a sheet exported as JSON, stored under a new id."""
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read {source}: {error}") from error
    sheet = import_json(text)
    stored = guarded(store.url, lambda: store.create(sheet))
    if as_json:
        return json.dumps({"id": stored.id}) + "\n"
    rounds = f"{len(sheet.rounds)} round" + ("" if len(sheet.rounds) == 1 else "s")
    return f"Imported as {stored.id} ({rounds}): skyjo scorepad --sheet {stored.id}\n"


def share_output(store: SheetStore, sheet_id: str, as_json: bool) -> str:
    """`--share ID`: a read-only and an edit link to the sheet, for the web page
    (the paths to put after the server's address). This is how a sheet made in
    the terminal, or one made before sheets had owners, is handed to a browser."""
    guarded(store.url, lambda: store.load(sheet_id))
    read = guarded(store.url, lambda: store.share(sheet_id, READ))
    edit = guarded(store.url, lambda: store.share(sheet_id, EDIT))
    links = {"id": sheet_id, "read": f"/scorepad/{sheet_id}#key={read}"}
    links["edit"] = f"/scorepad/{sheet_id}#key={edit}"
    if as_json:
        return json.dumps(links) + "\n"
    return (
        f"Links to {sheet_id}, after the web app's address (skyjo serve):\n"
        f"  read only: {links['read']}\n"
        f"  to edit:   {links['edit']}\n"
    )


def open_app(db: str | None, sheet_id: str | None) -> object:
    """The Textual app on the database, on the sheet `sheet_id` if given (checked now)."""
    from skyjo.scorepad.tui import ScorepadApp

    store = open_store(db)
    if sheet_id is not None:
        guarded(store.url, lambda: store.load(sheet_id))
    return ScorepadApp(store, sheet_id)
