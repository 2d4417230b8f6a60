"""Real faults of a database for the tests: a small disk (a tmpfs mounted for the
test) that fills up, and a lock another process holds on a SQLite file or on
PostgreSQL tables. Each cleans up after itself."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

#: What the lock's process runs: it takes the lock, says "locked", and holds it until
#: its standard input closes (the test's signal to let go).
_HOLDER = """
import sys
import sqlalchemy
engine = sqlalchemy.create_engine(sys.argv[1])
with engine.connect() as connection:
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN EXCLUSIVE")
    else:
        connection.exec_driver_sql("BEGIN")
        connection.exec_driver_sql("LOCK TABLE schema_version, rooms, room_moves IN EXCLUSIVE MODE")
    print("locked", flush=True)
    sys.stdin.read()
    connection.rollback()
"""


@contextlib.contextmanager
def small_disk(megabytes: int = 4) -> Iterator[Path]:
    """A tmpfs of `megabytes`, mounted on a new folder for the test, then unmounted."""
    folder = Path(tempfile.mkdtemp(prefix="skyjo-disk-"))
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(folder)], check=True
    )
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)
        folder.rmdir()


def fill(folder: Path) -> Path:
    """Fill the disk of `folder` to the last byte with a file; the file (delete it to
    give the space back)."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 512, 1):  # big blocks, then the last bytes
            with contextlib.suppress(OSError):
                while True:
                    os.write(descriptor, b"\0" * size)
    finally:
        os.close(descriptor)
    assert os.statvfs(folder).f_bavail == 0
    return filler


@contextlib.contextmanager
def held_lock(url: str) -> Iterator[None]:
    """Another process holds a write lock on the database at `url` (SQLite's `BEGIN
    EXCLUSIVE`; PostgreSQL's `LOCK TABLE ... IN EXCLUSIVE MODE` of the rooms' tables)
    until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, url], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
        yield
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
