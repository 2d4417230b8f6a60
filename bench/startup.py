"""How soon `skyjo serve` answers after it starts: what a player waits for after
a restart (a crash, a deploy).

Each run starts `python -m skyjo serve` on a free port with a fresh database,
and measures from the moment the process is started (before the fork): the
first 200 of `GET /api/health` (polled every 5 ms), then at once the front
page (`GET /`) and the creation of a room (a human, a `greedy` and a `search`
bot: the page's first level and the strongest), each counted from the same
start. With `--rooms N`, N unfinished rooms are saved beforehand (two
humans, a `greedy` and a `search` bot, 30 to 200 random moves into their
game), as a server that crashed leaves them: the run then also measures when
one of them (the newest) answers `GET /api/rooms/{code}` (a player coming back) and when every
one is back in play (`/api/health` counts them). The server's CPU time up to
its first answer is printed too: on a shared machine it says more than the
wall clock.

    python bench/startup.py                        # 5 runs, a fresh SQLite file each
    python bench/startup.py --rooms 200 --load     # 200 rooms to resume, one core busy
    python bench/startup.py --db postgresql+psycopg://user@host/db --json

`--load` runs a busy loop in another process during the runs (it holds one
core). `--db URL` uses that database for every run (the rooms of `--rooms` are
saved into it once, and each run's new room stays in it); by default each run
has a SQLite file of its own, a copy of one where the rooms were saved. The
server runs with its defaults (bots thinking in worker processes) but for
absent humans, who are not played for (`SKYJO_ABSENT_AFTER`), so that the
saved rooms stay as they were from run to run. Everything stays on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import httpx2
import typer
from machine import describe  # bench/machine.py, beside this script

from skyjo.engine import legal_actions
from skyjo.match import Match, Seat
from skyjo.web.rooms import new_code, new_token, token_hash
from skyjo.web.storage import RoomRecord, Store

#: The room each run creates: what a player starting a game against bots asks for.
NEW_ROOM = {"seats": [{"name": "Ana"}, {"bot": "greedy"}, {"bot": "search"}]}
#: The seats of the saved rooms (bench/server.py's rooms with bots).
SAVED_SEATS = [("Ana", None), ("Ben", None), ("Greedy", "greedy"), ("Search", "search")]
#: How often the server is polled until it answers (seconds).
POLL = 0.005
#: How long a run may take before it is given up.
DEADLINE = 120.0


def save_rooms(url: str, count: int, seed: int = 1) -> list[str]:
    """Save `count` unfinished rooms into the database `url`, each 30 to 200 random
    legal moves into its game (a game over sooner is played again); their codes."""
    rng = random.Random(seed)
    store = Store(url)
    codes: list[str] = []
    try:
        while len(codes) < count:
            index = len(codes)
            match = Match([Seat(name) for name, _ in SAVED_SEATS], seed=rng.getrandbits(63))
            for _ in range(rng.randint(30, 200)):
                if match.over:
                    break
                match.play(match.to_move, rng.choice(legal_actions(match.state)))
            if match.over:
                continue
            saved = match.to_dict()
            for seat, (_, bot) in zip(saved["seats"], SAVED_SEATS, strict=True):
                seat["bot"] = bot
            tokens = {token_hash(new_token()): seat for seat in (0, 1)}
            codes.append(new_code())
            store.save(
                RoomRecord(
                    code=codes[-1],
                    title=f"Saved {index}",
                    listed=index % 2 == 0,
                    host=next(iter(tokens)),
                    tokens=tokens,
                    match=saved,
                    steps=match.steps,
                    created_at=time.time() - count + index,
                    options={"joined": [0, 1]},
                )
            )
    finally:
        store.close()
    return codes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system, seconds) process `pid` used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def until(answer: Any, deadline: float) -> httpx2.Response:
    """Call `answer()` until it gives a response (the port opens), every `POLL` seconds."""
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx2.TransportError):
            return answer()  # type: ignore[no-any-return]
        time.sleep(POLL)
    raise RuntimeError("the server did not answer")


def run(url: str, saved: list[str], env: dict[str, str]) -> dict[str, Any]:
    """One start of the server on the database `url`: the seconds from its start
    to each answer."""
    store = Store(url)
    waiting = len(store.active())  #: unfinished rooms the server is to resume
    store.close()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "skyjo", "serve", "--port", str(port), "--db", url]
    start = time.monotonic()
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    deadline = start + DEADLINE
    got: dict[str, Any] = {}
    try:
        with httpx2.Client(base_url=base, timeout=DEADLINE) as http:
            while (health := until(lambda: http.get("/api/health"), deadline)).status_code != 200:
                time.sleep(POLL)
            got["health_s"] = time.monotonic() - start
            got["cpu_s"] = cpu_seconds(server.pid)
            assert http.get("/").status_code == 200
            got["page_s"] = time.monotonic() - start
            if saved:
                assert http.get(f"/api/rooms/{saved[-1]}").status_code == 200
                got["saved_room_s"] = time.monotonic() - start
            assert http.post("/api/rooms", json=NEW_ROOM).status_code == 201
            got["room_s"] = time.monotonic() - start
            while waiting and health.json()["rooms"] <= waiting:  # and the new room
                if time.monotonic() > deadline:
                    raise RuntimeError("the saved rooms were not all resumed")
                time.sleep(POLL)
                health = http.get("/api/health")
            if waiting:
                got["all_resumed_s"] = time.monotonic() - start
    finally:
        server.terminate()
        server.wait(timeout=30)
    return got


def summary(runs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """min, median and max of each measure over the runs."""
    measures = {key: [r[key] for r in runs if r.get(key) is not None] for key in runs[0]}
    return {
        key: {"min": min(v), "median": statistics.median(v), "max": max(v)}
        for key, v in measures.items()
        if v
    }


def main(
    runs: Annotated[int, typer.Option(help="Starts of the server.")] = 5,
    load: Annotated[bool, typer.Option(help="Hold one core busy meanwhile.")] = False,
    db: Annotated[str | None, typer.Option(help="The database URL for every run.")] = None,
    rooms: Annotated[int, typer.Option(help="Unfinished rooms saved beforehand.")] = 0,
    bot_processes: Annotated[
        int | None, typer.Option(help="The bots' worker processes (the server's default).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Measure how soon a fresh `skyjo serve` answers."""
    env = {**os.environ, "SKYJO_ABSENT_AFTER": "3600", "SKYJO_ROOMS_PER_HOUR": "0"}
    if bot_processes is not None:
        env["SKYJO_BOT_PROCESSES"] = str(bot_processes)
    busy = None
    results = []
    with tempfile.TemporaryDirectory() as folder:
        template = Path(folder) / "template.db"
        saved = save_rooms(db or f"sqlite:///{template}", rooms) if rooms else []
        try:
            if load:
                busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for index in range(runs):
                url = db
                if url is None:
                    path = Path(folder) / f"run{index}.db"
                    if template.exists():
                        shutil.copyfile(template, path)
                    url = f"sqlite:///{path}"
                results.append(run(url, saved, env))
        finally:
            if busy is not None:
                busy.kill()
                busy.wait()
    figures = {
        "machine": describe(),
        "load_avg_1min": round(os.getloadavg()[0], 2),
        "runs": runs,
        "busy_core": load,
        "rooms": len(saved),
        "database": "sqlite (a fresh file a run)" if db is None else db.split("://")[0],
        "seconds": summary(results),
    }
    if as_json:
        print(json.dumps(figures))
        return
    print(", ".join(f"{k} {v}" for k, v in figures.items() if k != "seconds"))
    for key, cut in figures["seconds"].items():
        print(f"{key:>14}: min {cut['min']:.3f}  median {cut['median']:.3f}  max {cut['max']:.3f}")


if __name__ == "__main__":
    typer.run(main)
