"""Web server load: many rooms of scripted clients over real WebSockets on localhost.

Starts `skyjo serve` in a subprocess (a temporary SQLite file, bots without
pause), creates rooms of four seats (most of four humans; every `--bot-every`
room two humans, a `greedy` and a `search` bot, and two spectators), connects
one WebSocket per human seat and spectator (four a room: 200 rooms are 800
connections), and lets every player answer like a quick human (0.5 to 1.5 s
of thinking before each move, `--think`). A room whose game ends starts another.
Every room is created and every client connected (each has its `state`)
before the clock starts: the setup's time is printed apart (`setup_s`), not
counted as move latency. Prints rooms, connections, moves/s, the 50th and 99th
percentile of move latency (a client sends a move until it sees its update),
the slowest, errors, the 1-minute load average at the window's start and end
(other work on the machine slows every figure) and the cores each group of
processes used over the window: `server_cores` the serving processes (the
server, or with `--workers` its supervisor and workers), `bot_workers_cores`
their bots' worker processes, `server_total_cores` both, `clients_cores` this
benchmark's own process (its clients share the machine with the server),
`postgres_cores` (with `--postgres`) the PostgreSQL server, `load_cores` (with
`--load`) the busy loop; and the moves per second of the server's CPU
(`moves_per_server_core_s`: moves/s over `server_total_cores`, what it makes on
one core of its own, the figure least moved by other work on the machine,
though not unmoved: a busy machine slows each core); then the same with no
thinking time (`--no-think-seconds`), the greatest moves/s.

    python bench/server.py                       # 200 rooms, 30 s, then 10 s flat out
    python bench/server.py --rooms 50 --seconds 10 --json
    python bench/server.py --baseline 5caa9ff --runs 2   # flat out: that commit, this, ...
    python bench/server.py --postgres --workers 2        # a cluster of two processes
    python bench/server.py --postgres --workers 1 --workers 2 --direct --runs 3
    python bench/server.py --postgres --workers 1 --workers 2 --paced --load

`--db URL` serves that database (every server of the run the same one: rooms
of an earlier run stay in it, and a cluster takes the unfinished ones over);
`--postgres` starts a PostgreSQL server of Debian's package as the tests do
(`tests/postgres.py`), a fresh database per server, and stops it at the end.
`--workers N` runs `skyjo serve --workers N` (above 1: PostgreSQL only); each
room's connections land on any worker, which relays them to the room's owner,
unless `--direct` connects them to the owner's own port, as a proxy routing by
room code would. `--load` starts a process that keeps one core busy for the
whole run, and stops it at the end.

With `--baseline REV`, the git revision REV's `src` (exported with `git archive`
into a temporary folder) is served too; with `--workers` given twice or more,
each count is served in turn (and with `--direct`, each cluster again with
direct connections): flat-out runs only (paced with `--paced`), a fresh server
and database each, alternating (A, B, A, B: `--runs` rounds), each run's
figures printed with the load average it began under.

Everything stays on 127.0.0.1, and every loop ends at its deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, TypeVar

import httpx2
import typer
from machine import describe  # bench/machine.py, beside this script
from orjson import dumps, loads
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

ROOT = Path(__file__).resolve().parent.parent
#: The members of a cluster: each process's lock connection, named by its address
#: (`skyjo.web.cluster`).
MEMBERS = "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'skyjo %'"
Result = TypeVar("Result")
READY = dumps({"type": "ready"})
HUMANS = [{"name": f"H{i}"} for i in range(4)]
WITH_BOTS = [{"name": "H0"}, {"name": "H1"}, {"bot": "greedy"}, {"bot": "search"}]


@dataclass
class Tally:
    """What one run measured."""

    moves: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    games: int = 0
    connections: int = 0

    def summary(self, rooms: int, seconds: float, setup: float, load: tuple[float, ...],
                cores: dict[str, float | None]) -> dict[str, Any]:  # fmt: skip
        cuts = statistics.quantiles(self.latencies, n=100) if len(self.latencies) > 1 else [0] * 99
        # the server's processes: the serving ones and their bots' workers
        parts = [cores.get("server_cores"), cores.get("bot_workers_cores")]
        server = None if None in parts else round(sum(c or 0.0 for c in parts), 2)
        return {
            "rooms": rooms,
            "connections": self.connections,
            "setup_s": round(setup, 1),
            "seconds": round(seconds, 1),
            "moves": self.moves,
            "moves_per_s": round(self.moves / seconds, 1),
            "p50_ms": round(cuts[49] * 1000, 1),
            "p99_ms": round(cuts[98] * 1000, 1),
            "max_ms": round(max(self.latencies, default=0) * 1000, 1),
            "games_finished": self.games,
            "errors": len(self.errors),
            "first_errors": self.errors[:5],
            "load_avg_1min": [round(load[0], 2), round(os.getloadavg()[0], 2)],
            **cores,
            "server_total_cores": server,
            # the moves one core of the server makes a second: what it would reach
            # flat out on a core of its own (not slowed by other work on the machine)
            "moves_per_server_core_s": round(self.moves / seconds / server) if server else None,
        }


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system, seconds) process `pid` used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes `pid` started (Linux /proc)."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return []
    found = []
    for task in tasks:
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def tree(pid: int) -> dict[int, int]:
    """`pid` and every process below it, each with its depth (0: `pid` itself)."""
    found, level, depth = {}, [pid], 0
    while level:
        found.update(dict.fromkeys(level, depth))
        level = [c for p in level for c in children(p) if c not in found]
        depth += 1
    return found


class Cores:
    """How many cores each group of processes used over a window (None where
    /proc cannot say). A group is a function giving its processes now: a
    process that starts within the window counts from zero (all its CPU time is
    the window's), one that ends within it is lost (its last figures gone)."""

    def __init__(self, groups: dict[str, Callable[[], list[int]]]) -> None:
        self.groups = groups
        self.begun = time.monotonic()
        self.start = {name: self._times(pids()) for name, pids in groups.items()}

    @staticmethod
    def _times(pids: list[int]) -> dict[int, float]:
        return {pid: t for pid in pids if (t := cpu_seconds(pid)) is not None}

    def used(self) -> dict[str, float | None]:
        seconds = time.monotonic() - self.begun
        shares: dict[str, float | None] = {}
        for name, pids in self.groups.items():
            now, then = self._times(pids()), self.start[name]
            if not now:
                shares[f"{name}_cores"] = None
                continue
            spent = sum(t - then.get(pid, 0.0) for pid, t in now.items())
            shares[f"{name}_cores"] = round(spent / seconds, 2)
        return shares


class Server:
    """`skyjo serve` on a free port: `db` its database's URL (None: a new SQLite
    file in `folder`), `workers` its processes (above 1: PostgreSQL only);
    `source` the PYTHONPATH whose `skyjo` package is served (None: the one this
    Python imports)."""

    def __init__(self, folder: Path, source: str | None = None, profile: Path | None = None,
                 db: str | None = None, workers: int = 1,
                 direct: bool = False) -> None:  # fmt: skip
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {
            **os.environ,
            "SKYJO_BOT_DELAY": "0",
            "SKYJO_RATE": "1000",
            "SKYJO_ROOMS_PER_HOUR": "0",  # all its rooms come from one address: no limit
            "SKYJO_JOINS_PER_HOUR": "0",  # nor on the seats they join
            "SKYJO_SOCKETS_PER_ADDRESS": "0",  # nor on their sockets (the file limit caps them)
            "SKYJO_MAX_SOCKETS": "100000",
            "SKYJO_ABSENT_AFTER": "3600",  # rooms of an earlier run stay still
        }
        if source is not None:
            env["PYTHONPATH"] = source
        self.db = db or f"sqlite:///{folder / 'bench.db'}"
        self.workers = workers
        self.direct = direct
        self._owners: Any = None
        command = [sys.executable, "-m", "skyjo", "serve", "--port", str(self.port)]
        command += ["--db", self.db, "--workers", str(workers)]
        if profile is not None:  # the server under cProfile, its statistics written when it stops
            command[1:1] = ["-m", "cProfile", "-o", str(profile)]
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while not self._up():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start ({' '.join(command)})")
            time.sleep(0.05)  # polling a condition: the server starts

    def _up(self) -> bool:
        """The server answers, and on PostgreSQL each of its processes has joined
        the cluster (its lock connection open, named `skyjo HOST:PORT`)."""
        with contextlib.suppress(httpx2.TransportError):
            if httpx2.get(f"{self.base}/api/health", timeout=1).status_code != 200:
                return False
            if not self.db.startswith("postgresql"):
                return True
            return self._members() >= self.workers
        return False

    def _members(self) -> int:
        from sqlalchemy import create_engine, text

        engine = create_engine(self.db)
        try:
            with engine.connect() as connection:
                members = (
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'skyjo %'"
                )
                return int(connection.execute(text(members)).scalar() or 0)
        finally:
            engine.dispose()

    async def websocket(self, code: str) -> str:
        """Room `code`'s WebSocket URL: at the shared port (a connection lands on any
        process, which relays it to the room's owner unless it is the owner), or
        with `direct` at the owner's own port, found as the processes find it
        (`Ownership.owner`), as a proxy that routes by room code would connect."""
        if not self.direct:
            return self.base.replace("http", "ws") + f"/ws/{code}"
        if self._owners is None:
            from skyjo.web.cluster import Ownership

            self._owners = Ownership(self.db, "bench (holds no room)")
        owner = await asyncio.to_thread(self._owners.owner, code)
        return (
            f"ws://{owner}/ws/{code}" if owner else self.base.replace("http", "ws") + f"/ws/{code}"
        )

    def serving(self) -> list[int]:
        """The processes that serve: the server, and with `--workers` its workers."""
        depth = 1 if self.workers > 1 else 0
        return [pid for pid, d in tree(self.process.pid).items() if d <= depth]

    def helpers(self) -> list[int]:
        """The processes below those: the bots' workers (and multiprocessing's helpers)."""
        depth = 1 if self.workers > 1 else 0
        return [pid for pid, d in tree(self.process.pid).items() if d > depth]

    def stop(self) -> None:
        """Ctrl-C: uvicorn stops, then raises it again, which cProfile lets by (SIGTERM,
        raised again, would end the process before cProfile writes); with `--workers`
        the supervisor passes it on to each worker."""
        if self._owners is not None:
            self._owners.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=60)


class Load:
    """`--load`: a process that keeps one core busy (a Python busy loop) while the
    benchmark runs, as other work on a shared machine would; it stops by itself
    after `limit` seconds if the benchmark did not stop it."""

    def __init__(self, limit: float = 3600.0) -> None:
        loop = f"import time\nend = time.monotonic() + {limit}\nwhile time.monotonic() < end: pass"
        self.process = subprocess.Popen([sys.executable, "-c", loop])

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)


def start_postgres() -> Any:
    """A PostgreSQL server of Debian's package, started as the tests start theirs
    (`tests/postgres.py`: `initdb` in a temporary folder, a free localhost port);
    its `database()` gives a fresh database's URL, its `stop()` removes it all."""
    sys.path.insert(0, str(ROOT / "tests"))
    from postgres import Postgres  # tests/postgres.py

    return Postgres()


def postmaster(postgres: Any) -> list[int]:
    """The processes of a PostgreSQL server: its postmaster and its backends."""
    try:
        pid = int((postgres.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    return list(tree(pid))


class Clock:
    """The measured window: it opens once every client of the first rooms is
    connected and has its state (so setting 200 rooms up is not measured as
    move latency), and closes `seconds` later."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.open = asyncio.Event()
        self.deadline = float("inf")
        self.waiting = 0

    def ready(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.start()

    def start(self) -> None:
        if not self.open.is_set():
            self.deadline = time.monotonic() + self.seconds
            self.open.set()


async def create(http: httpx2.AsyncClient, base: str, seats: list[dict[str, Any]],
                 tally: Tally) -> tuple[str, list[str | None]] | None:  # fmt: skip
    """A room of `seats` with every human seat claimed: its code and the tokens,
    one per seat: None (a spectator) for each bot's seat."""
    try:
        room = {"seats": seats, "lobby": False}  # every seat is taken at once: no lobby
        created = (await http.post(f"{base}/api/rooms", json=room)).json()
        tokens = [created["token"]]
        for _ in range(sum(1 for s in seats if "bot" not in s) - 1):
            joined = await http.post(f"{base}/api/rooms/{created['code']}/join")
            tokens.append(joined.json()["token"])
    except (httpx2.HTTPError, KeyError, ValueError) as failure:
        tally.errors.append(f"creating a room: {failure!r}")
        return None
    return created["code"], tokens + [None] * (len(seats) - len(tokens))


async def client(url: str, token: str | None, think: tuple[float, float], clock: Clock,
                 tally: Tally, rng: random.Random) -> bool:  # fmt: skip
    """One seat: say hello, wait for the window to open, then answer every turn
    after thinking until it closes; True when its game ended."""
    try:
        return await play(url, token, think, clock, tally, rng)
    except (OSError, WebSocketException, TimeoutError) as failure:
        tally.errors.append(f"a client's connection: {failure!r}")
        return False


async def play(url: str, token: str | None, think: tuple[float, float], clock: Clock,
               tally: Tally, rng: random.Random) -> bool:  # fmt: skip
    """The client's work per message kept small, since on a small machine the
    clients share the cores with the server they measure: orjson, the frames'
    bytes not decoded to text first, one timeout for the window (not one per
    message: `asyncio.wait_for` makes a task each time), and uvloop (`loop`)."""
    async with connect(url, max_size=2**20) as ws:
        tally.connections += 1
        await ws.send(dumps({"type": "hello", "token": token}), text=True)
        async with asyncio.timeout(60):
            message = loads(await ws.recv(decode=False))
            while message["type"] != "state":
                message = loads(await ws.recv(decode=False))
        seat, sent = message["you"], None
        clock.ready()
        await clock.open.wait()
        closes = asyncio.get_running_loop().time() + clock.deadline - time.monotonic()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(closes):
                while True:
                    kind = message["type"]
                    if kind == "error":
                        tally.errors.append(f"{message['code']}: {message['message']}")
                    elif kind in ("state", "update"):
                        if kind == "update" and sent is not None and message["seat"] == seat:
                            tally.latencies.append(time.monotonic() - sent)
                            tally.moves += 1
                            sent = None
                        obs = message["observation"]
                        if obs["phase"] == "game_over":
                            return True
                        if obs["phase"] == "round_over" and seat is not None:
                            await ws.send(READY, text=True)  # seen: deal the next round
                        elif obs.get("legal_actions") and sent is None:
                            if think[1] > 0:
                                await asyncio.sleep(rng.uniform(*think))
                            sent = time.monotonic()
                            action = rng.choice(obs["legal_actions"])
                            await ws.send(dumps({"type": "move", "action": action}), text=True)
                    message = loads(await ws.recv(decode=False))
    return False


def loop(main: Coroutine[Any, Any, Result]) -> Result:
    """Run the clients on uvloop (a dependency of the server, not on Windows), as the
    server runs: asyncio's own loop costs the clients about a third more CPU."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def seats_of(index: int, bot_every: int) -> list[dict[str, Any]]:
    return WITH_BOTS if bot_every and index % bot_every == 0 else HUMANS


async def room(http: httpx2.AsyncClient, server: Server, index: int,
               first: tuple[str, list[str | None]], bot_every: int,
               think: tuple[float, float], clock: Clock, tally: Tally) -> None:  # fmt: skip
    """Room `index`, set up already (`first`); a room whose game ends in the
    window starts another, until the window closes."""
    rng = random.Random(index)
    made: tuple[str, list[str | None]] | None = first
    while made is not None:
        code, tokens = made
        url = await server.websocket(code)
        ended = await asyncio.gather(*(client(url, t, think, clock, tally, rng) for t in tokens))
        if not any(ended) or time.monotonic() >= clock.deadline:
            return
        tally.games += 1
        made = await create(http, server.base, seats_of(index, bot_every), tally)
        if made is not None:
            clock.waiting += len(made[1])  # the window is open: they do not wait for it


async def run(server: Server, groups: dict[str, Callable[[], list[int]]], rooms: int,
              bot_every: int, think: tuple[float, float],
              seconds: float) -> dict[str, Any]:  # fmt: skip
    """Set `rooms` rooms up (created, joined, every client connected), then
    measure `seconds` of play, and the cores each group of processes used."""
    base = server.base
    tally = Tally()
    clock = Clock(seconds)
    # idle connections dropped before uvicorn's 5 s keep-alive ends them: a request sent
    # on a connection the server is closing fails (ReadError) and is not sent again
    limits = httpx2.Limits(max_connections=50, keepalive_expiry=2)
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, pool=None), limits=limits) as http:
        begun = time.monotonic()
        made = await asyncio.gather(
            *(create(http, base, seats_of(i, bot_every), tally) for i in range(rooms))
        )
        ready = [(i, m) for i, m in enumerate(made) if m is not None]
        clock.waiting = sum(len(tokens) for _, (_, tokens) in ready)
        tasks = [
            asyncio.create_task(room(http, server, i, m, bot_every, think, clock, tally))
            for i, m in ready
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(clock.open.wait(), 120)
        clock.start()  # (if some client never got its state, the errors say so)
        setup, load = time.monotonic() - begun, os.getloadavg()
        opened, cores = time.monotonic(), Cores(groups)
        await asyncio.gather(*tasks)
        used = cores.used()
    return tally.summary(rooms, time.monotonic() - opened, setup, load, used)


#: Packages this tree's server uses when they are installed and an older revision may
#: not have asked for: hidden from a baseline whose pyproject.toml does not name them.
OPTIONAL = ("uvloop",)


def export(revision: str, folder: Path) -> str:
    """The PYTHONPATH of git `revision`'s server: its `src` folder, exported into
    `folder`, and before it a folder that hides the packages of `OPTIONAL` its
    pyproject.toml does not name (uvicorn then runs as it did with that revision's
    dependencies: without uvloop, on asyncio's own loop)."""
    root = Path(__file__).resolve().parent.parent
    git = ["git", "-C", str(root)]
    archive = subprocess.run([*git, "archive", revision, "src"], check=True, capture_output=True)
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    wanted = subprocess.run(
        [*git, "show", f"{revision}:pyproject.toml"], check=True, capture_output=True, text=True
    ).stdout
    hidden = folder / "hidden"
    for name in OPTIONAL:
        if f'"{name}==' not in wanted:
            (hidden / name).mkdir(parents=True)
            (hidden / name / "__init__.py").write_text(
                f"raise ImportError('{name} is not a dependency of {revision}')\n"
            )
    return f"{hidden}{os.pathsep}{folder / 'src'}"


@dataclass
class Variant:
    """A server to measure: `label` in the output, `source` its PYTHONPATH (None:
    this tree's), `workers` its processes, `direct`: the clients connect to each
    room's owner (`Server.websocket`)."""

    label: str
    source: str | None
    workers: int
    direct: bool = False


class Bench:
    """What every run shares: the database (`db`: a URL given, else a new one per
    server: a SQLite file, or with `postgres` a database of the PostgreSQL
    server the benchmark started) and the `--load` process, if any."""

    def __init__(self, db: str | None, postgres: Any, load: Load | None) -> None:
        self.db, self.postgres, self.load = db, postgres, load

    def server(self, folder: Path, variant: Variant, profile: Path | None = None) -> Server:
        db = self.db or (self.postgres.database() if self.postgres is not None else None)
        return Server(folder, variant.source, profile, db, variant.workers, variant.direct)

    def groups(self, server: Server) -> dict[str, Callable[[], list[int]]]:
        """The processes whose cores are counted, by group."""
        groups: dict[str, Callable[[], list[int]]] = {
            "server": server.serving,
            "bot_workers": server.helpers,
            "clients": lambda: [os.getpid()],
        }
        if self.postgres is not None:
            groups["postgres"] = lambda: postmaster(self.postgres)
        if self.load is not None:
            groups["load"] = lambda: [self.load.process.pid] if self.load else []
        return groups


def compare(bench: Bench, variants: list[Variant], runs: int, rooms: int, bot_every: int,
            think: tuple[float, float], seconds: float) -> list[dict[str, Any]]:  # fmt: skip
    """Runs of each variant in turn (A, B, A, B...), `runs` of each, each on a fresh
    server (and a fresh database unless one was given)."""
    results = []
    for index in range(len(variants) * runs):
        variant = variants[index % len(variants)]
        with tempfile.TemporaryDirectory() as data:
            server = bench.server(Path(data), variant)
            try:
                begun = os.getloadavg()
                measured = loop(run(server, bench.groups(server), rooms, bot_every, think, seconds))
            finally:
                server.stop()
        results.append({"run": index + 1, "server": variant.label, "load_before": begun,
                        **measured})  # fmt: skip
    return results


def main(
    rooms: Annotated[int, typer.Option(help="Rooms at once.")] = 200,
    seconds: Annotated[float, typer.Option(help="Length of the human-paced run.")] = 30.0,
    no_think_seconds: Annotated[float, typer.Option(help="Length of the flat-out run.")] = 10.0,
    think: Annotated[tuple[float, float], typer.Option(help="Thinking time range, s.")] = (
        0.5,
        1.5,
    ),
    bot_every: Annotated[int, typer.Option(help="Every Nth room seats bots (0: none).")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    baseline: Annotated[
        str | None, typer.Option(help="A git revision to compare with, flat out.")
    ] = None,
    workers: Annotated[
        list[int] | None,
        typer.Option(
            help="The server's processes (`skyjo serve --workers`; above 1 needs PostgreSQL). "
            "Given twice or more (--workers 1 --workers 2): each count in turn, flat out."
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(help="The server's database URL (default: a new SQLite file per server)."),
    ] = None,
    postgres: Annotated[
        bool,
        typer.Option(
            "--postgres",
            help="Start a PostgreSQL server (Debian's package, as the tests do), "
            "a new database of it per server.",
        ),
    ] = False,
    load: Annotated[
        bool, typer.Option("--load", help="Keep one core busy (a busy loop) during the runs.")
    ] = False,
    paced: Annotated[
        bool, typer.Option("--paced", help="Comparisons: run paced (--seconds), not flat out.")
    ] = False,
    direct: Annotated[
        bool,
        typer.Option(
            "--direct",
            help="Clients connect to each room's owner process, not the shared port "
            "(no relay hop; beside each cluster in a comparison).",
        ),
    ] = False,
    runs: Annotated[int, typer.Option(help="Comparisons: runs of each server.")] = 2,
    profile: Annotated[
        Path | None, typer.Option(help="Run the server under cProfile, its statistics here.")
    ] = None,
) -> None:
    """Measure the web server under many rooms of scripted clients."""
    counts = workers or [1]
    if db is not None and postgres:
        raise typer.BadParameter("give --db URL or --postgres, not both", param_hint="--db")
    if max(counts) > 1 and not postgres and not (db or "").startswith("postgresql"):
        raise typer.BadParameter(
            f"--workers {max(counts)} needs PostgreSQL: --postgres (the benchmark starts one) "
            "or --db postgresql+psycopg://...",
            param_hint="--workers",
        )
    if profile is not None and (max(counts) > 1 or baseline is not None or len(counts) > 1):
        raise typer.BadParameter(
            "--profile runs one server of one process (cProfile sees its own process only)",
            param_hint="--profile",
        )
    if direct and max(counts) == 1:
        raise typer.BadParameter(
            "--direct needs a cluster (--workers 2 or more)", param_hint="--direct"
        )
    started = start_postgres() if postgres else None
    busy = Load() if load else None
    try:
        bench = Bench(db, started, busy)
        results = measure(bench, counts, baseline, runs, rooms, bot_every, think, paced,
                          seconds, no_think_seconds, profile, direct)  # fmt: skip
    finally:
        if busy is not None:
            busy.stop()
        if started is not None:
            started.stop()
    if as_json:
        print(json.dumps({"machine": describe(), **results}))
        return
    for name, result in results.items():
        for each in result if isinstance(result, list) else [result]:
            print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in each.items()))


def measure(bench: Bench, counts: list[int], baseline: str | None, runs: int, rooms: int,
            bot_every: int, think: tuple[float, float], paced: bool, seconds: float,
            no_think_seconds: float, profile: Path | None,
            direct: bool) -> dict[str, Any]:  # fmt: skip
    """A comparison (`baseline`, or several worker counts), else one server's paced
    window then its flat-out one."""
    if baseline is not None or len(counts) > 1:
        with tempfile.TemporaryDirectory() as folder:
            sources: list[tuple[str, str | None]] = [("this tree", None)]
            if baseline is not None:
                sources.insert(0, (baseline, export(baseline, Path(folder) / "baseline")))
            variants = [
                Variant(label if len(counts) == 1 else f"{label}, {w} workers", source, w)
                for label, source in sources
                for w in counts
            ]
            if direct:  # beside each cluster, the same with no relay hop
                variants += [
                    Variant(f"{v.label}, direct", v.source, v.workers, direct=True)
                    for v in variants
                    if v.workers > 1
                ]
            window = (think, seconds) if paced else ((0.0, 0.0), no_think_seconds)
            return {"runs": compare(bench, variants, runs, rooms, bot_every, *window)}
    with tempfile.TemporaryDirectory() as folder:
        server = bench.server(Path(folder), Variant("this tree", None, counts[0], direct), profile)
        try:
            groups = bench.groups(server)
            first = loop(run(server, groups, rooms, bot_every, think, seconds))
            flat = loop(run(server, groups, rooms, bot_every, (0.0, 0.0), no_think_seconds))
        finally:
            server.stop()
    return {"paced": first, "no_think": flat}


if __name__ == "__main__":
    typer.run(main)
