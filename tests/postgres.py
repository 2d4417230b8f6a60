"""A real PostgreSQL server for the persistence tests, started from Debian's
`postgresql` package (`.ci/run` installs it): `initdb` into a temporary folder,
`pg_ctl start` on a free localhost port, as the `postgres` user when the tests
run as root (PostgreSQL refuses to run as root); stopped afterwards."""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

USER = "skyjo"


def _bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version)
    assert found, "PostgreSQL is not installed: apt-get install postgresql (.ci/run does)"
    return Path(found[-1]).parent


def _version(path: str) -> int:
    return int(Path(path).parts[4])


class Postgres:
    """One PostgreSQL server; `database()` gives a fresh database's SQLAlchemy URL."""

    def __init__(self) -> None:
        self.bin = _bin()
        self.folder = Path(tempfile.mkdtemp(prefix="skyjo-pg-"))
        self.data = self.folder / "data"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self.folder, "postgres", "postgres")
        self._names = itertools.count(1)
        self._run("initdb", "-D", self.data, "-U", USER, "-A", "trust", "--no-sync", "-E", "UTF8")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = self.folder / "server.log"
        self._run("pg_ctl", "-D", self.data, "-o", options, "-l", log, "-w", "-t", "60", "start")

    def _run(self, program: str, *args: object) -> None:
        command = [*self._as, str(self.bin / program), *map(str, args)]
        subprocess.run(command, check=True, capture_output=True, timeout=120, cwd=self.folder)

    def database(self) -> str:
        """A new, empty database's URL (psycopg 3)."""
        name = f"skyjo_{next(self._names)}"
        self._run("createdb", "-h", "127.0.0.1", "-p", self.port, "-U", USER, name)
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def running() -> Iterator[Postgres]:
    server = Postgres()
    try:
        yield server
    finally:
        server.stop()
