"""Checks on the files a command will write, made before any work is done."""

from __future__ import annotations

import os
from pathlib import Path


def check_writable(path: str | Path, option: str) -> Path:
    """`path` as a `Path` if a file can be written there, else a `ValueError`
    naming `option` and the reason: the path is a folder, its folder does not
    exist or is a file, or it may not be written. Commands call this before
    playing, so that a long run never ends in an error about its output."""
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder")
    if not folder.exists():
        raise ValueError(f"{option} {str(path)!r}: no folder {str(folder)!r}")
    if not folder.is_dir():
        raise ValueError(f"{option} {str(path)!r}: {str(folder)!r} is a file, not a folder")
    target = path if path.exists() else folder
    if not os.access(target, os.W_OK):
        raise ValueError(f"{option} {str(path)!r} may not be written")
    return path
