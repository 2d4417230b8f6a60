"""`skyjo serve`: the web app under uvicorn."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
from typing import Any

from sqlalchemy.engine import make_url

from skyjo.web.settings import WS_MAX_SIZE, Settings
from skyjo.web.sockets import open_file_limit, socket_caps

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


class WorkersRefused(ValueError):
    """`--workers` the database cannot take: several processes share their rooms
    through PostgreSQL (`skyjo.web.cluster`), never through a SQLite file."""


def check_workers(workers: int, url: str) -> None:
    """Refuse `workers` below 1, or above 1 on a database other than PostgreSQL."""
    if workers < 1:
        raise WorkersRefused(f"--workers is a number of processes, at least 1 (not {workers})")
    backend = make_url(url).get_backend_name()
    if workers > 1 and backend != "postgresql":
        raise WorkersRefused(
            f"--workers {workers} needs PostgreSQL (--db postgresql+psycopg://...): "
            f"several processes share their rooms through PostgreSQL's advisory locks, "
            f"and {backend} has none; one process serves a {backend} database"
        )


def serve(
    host: str = "127.0.0.1", port: int = 8000, db: str | None = None, workers: int = 1
) -> None:
    """Serve the web app on `host:port` with the database `db` (see `Settings.from_env`).
    The app reads the proxy headers itself (`Settings.trusted_proxies`), so
    uvicorn's own reading is off: one setting decides whom to trust. Messages
    under `transport.MIN_COMPRESSED` bytes go uncompressed (`skyjo.web.transport`).

    On PostgreSQL the server is one member of a cluster (`skyjo.web.cluster`):
    `workers` processes share the port (SO_REUSEPORT: the kernel spreads the
    connections), each also listening on a port of its own at
    `$SKYJO_INTERNAL_HOST` (127.0.0.1) where the others relay the connections of
    the rooms it holds; the same command on several machines against one
    database is one service. On SQLite it is one process (`check_workers`).
    The start-up line names the open-file limit and the caps of open WebSockets
    it sets (`skyjo.web.sockets`)."""
    settings = Settings.from_env(db)
    check_workers(workers, settings.database_url)
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    clustered = make_url(settings.database_url).get_backend_name() == "postgresql"
    caps = socket_caps(settings, clustered, open_file_limit()).describe()
    print(f"Skyjo is at http://{host}:{port}  (database {shown}; {caps}; Ctrl-C stops)", flush=True)
    if not clustered:
        _serve_alone(settings, host, port)
        return
    internal = os.environ.get("SKYJO_INTERNAL_HOST") or "127.0.0.1"
    check_internal(internal)
    if workers == 1:
        _member(settings, host, port, internal)
        return
    _supervise(settings, host, port, internal, workers)


def _uvicorn_options() -> dict[str, Any]:
    from skyjo.web.transport import WebSocketProtocol

    return {
        "log_level": "warning",
        "loop": "auto",  # uvloop (a dependency), else asyncio's own loop
        "ws": WebSocketProtocol,  # permessage-deflate for large messages only
        "ws_max_size": WS_MAX_SIZE,
        "ws_ping_interval": 20,
        "proxy_headers": False,
    }


def _serve_alone(settings: Settings, host: str, port: int) -> None:
    """One process, its rooms its own (SQLite)."""
    import uvicorn

    from skyjo.web.app import create_app

    app = create_app(settings)
    tune_gc()
    uvicorn.run(app, host=host, port=port, **_uvicorn_options())


def _listener(host: str, port: int, shared: bool) -> socket.socket:
    """A listening TCP socket on `host:port` (port 0: any free one); `shared`: with
    SO_REUSEPORT, so that every worker listens on the same port."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _address(sock: socket.socket) -> str:
    """The address (`host:port`, IPv6 in brackets) the other processes reach `sock` at."""
    own_host, own_port = sock.getsockname()[:2]
    return f"[{own_host}]:{own_port}" if ":" in own_host else f"{own_host}:{own_port}"


def check_internal(internal: str) -> None:
    """Refuse, before any process starts, an `internal` host whose address with the
    longest port would not fit in the lock connection's application_name
    (`cluster.check_address`), rather than a worker failing and starting again."""
    from skyjo.web.cluster import check_address

    with _listener(internal, 0, shared=False) as probe:
        own_host = _address(probe).rsplit(":", 1)[0]
    check_address(f"{own_host}:65535")


def _member(settings: Settings, host: str, port: int, internal: str) -> None:
    """One process of a cluster: the shared port, and its own at `internal`, whose
    address the others reach it at (`Settings.cluster_address`)."""
    import dataclasses

    import uvicorn

    from skyjo.web.app import create_app

    public = _listener(host, port, shared=True)
    own = _listener(internal, 0, shared=False)
    address = _address(own)
    app = create_app(dataclasses.replace(settings, cluster_address=address))
    tune_gc()
    config = uvicorn.Config(app, **_uvicorn_options())
    uvicorn.Server(config).run(sockets=[public, own])


def _worker(settings: Settings, host: str, port: int, internal: str) -> None:
    """A worker process of `--workers`: killed by the kernel when its supervisor
    dies (as the bots' workers are), then a member of the cluster."""
    from skyjo.web.thinking import die_with_parent

    die_with_parent()
    _member(settings, host, port, internal)


def _supervise(settings: Settings, host: str, port: int, internal: str, workers: int) -> None:
    """Run `workers` processes (`_worker`), starting again one that dies, until
    SIGINT or SIGTERM, which is passed on to each (uvicorn's graceful stop). The
    port is bound here first, so that a port in use fails at once, here."""
    import multiprocessing
    import multiprocessing.connection

    _listener(host, port, shared=True).close()
    context = multiprocessing.get_context("spawn")
    each = _worker_settings(settings, workers)
    stopping = False

    def start() -> multiprocessing.process.BaseProcess:
        process = context.Process(
            target=_worker, args=(each, host, port, internal), name="skyjo worker"
        )
        process.start()
        return process

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for process in running:
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGTERM)

    running = [start() for _ in range(workers)]
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping:
        multiprocessing.connection.wait([p.sentinel for p in running])
        for index, process in enumerate(running):
            if process.exitcode is not None and not stopping:
                running[index] = start()  # its rooms went to the others meanwhile
    for process in running:
        process.join()


def _worker_settings(settings: Settings, workers: int) -> Settings:
    """Each worker's settings: the bots' worker processes shared out among them (at
    least one each, when the settings ask for any)."""
    import dataclasses

    if settings.bot_processes == 0:
        return settings
    return dataclasses.replace(settings, bot_processes=max(1, settings.bot_processes // workers))
