"""Where the database is: `database_url` (docs/deploy.md)."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The user's data folder for skyjo: `$XDG_DATA_HOME/skyjo`, else `~/.local/share/skyjo`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "skyjo"


def database_url(db: str | None = None) -> str:
    """The database URL: `db` if given, else `$SKYJO_DB`, else `sqlite:///` a file
    `skyjo.db` in `data_dir()` (its folder is created)."""
    url = db or os.environ.get("SKYJO_DB")
    if url:
        return url
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'skyjo.db'}"
