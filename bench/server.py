"""Web server load: many rooms of scripted clients over real WebSockets on localhost.

Starts `skyjo serve` in a subprocess (a temporary SQLite file, bots without
pause), creates rooms of four seats (most of four humans; every `--bot-every`
room two humans, a `greedy` and a `search` bot), connects one WebSocket per
human seat, and lets every client answer like a quick human (0.5 to 1.5 s of
thinking before each move, `--think`). A room whose game ends starts another.
Prints rooms, connections, moves/s, the 50th and 99th percentile of move
latency (a client sends a move until it sees its update) and errors; then the
same with no thinking time (`--no-think-seconds`), the greatest moves/s.

    python bench/server.py                       # 200 rooms, 30 s, then 10 s flat out
    python bench/server.py --rooms 50 --seconds 10 --json

Everything stays on 127.0.0.1, and every loop ends at its deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import httpx2
import typer
from machine import describe  # bench/machine.py, beside this script
from websockets.asyncio.client import connect

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

    def summary(self, rooms: int, seconds: float) -> dict[str, Any]:
        cuts = statistics.quantiles(self.latencies, n=100) if len(self.latencies) > 1 else [0] * 99
        return {
            "rooms": rooms,
            "connections": self.connections,
            "seconds": round(seconds, 1),
            "moves": self.moves,
            "moves_per_s": round(self.moves / seconds, 1),
            "p50_ms": round(cuts[49] * 1000, 1),
            "p99_ms": round(cuts[98] * 1000, 1),
            "games_finished": self.games,
            "errors": len(self.errors),
            "first_errors": self.errors[:5],
        }


class Server:
    """`skyjo serve` on a free port with a temporary database."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {**os.environ, "SKYJO_BOT_DELAY": "0", "SKYJO_RATE": "1000"}
        db = f"sqlite:///{folder / 'bench.db'}"
        command = [sys.executable, "-m", "skyjo", "serve", "--port", str(self.port), "--db", db]
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx2.TransportError):
                if httpx2.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


async def client(url: str, token: str, think: tuple[float, float], deadline: float,
                 tally: Tally, rng: random.Random) -> bool:  # fmt: skip
    """One seat: answer every turn after thinking; True when its game ended."""
    async with connect(url, max_size=2**20) as ws:
        tally.connections += 1
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seat, sent = None, None
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            kind = message["type"]
            if kind == "error":
                tally.errors.append(f"{message['code']}: {message['message']}")
                continue
            if kind not in ("state", "update"):
                continue
            if kind == "state":
                seat = message["you"]
            elif sent is not None and message["seat"] == seat:
                tally.latencies.append(time.monotonic() - sent)
                tally.moves += 1
                sent = None
            obs = message["observation"]
            if obs["phase"] == "game_over":
                return True
            if obs["legal_actions"] and sent is None:
                if think[1] > 0:
                    await asyncio.sleep(rng.uniform(*think))
                sent = time.monotonic()
                action = rng.choice(obs["legal_actions"])
                await ws.send(json.dumps({"type": "move", "action": action}))
    return False


async def room(http: httpx2.AsyncClient, base: str, index: int, bot_every: int,
               think: tuple[float, float], deadline: float, tally: Tally) -> None:  # fmt: skip
    """Rooms one after the other, until the deadline."""
    rng = random.Random(index)
    while time.monotonic() < deadline:
        seats = WITH_BOTS if bot_every and index % bot_every == 0 else HUMANS
        created = (await http.post(f"{base}/api/rooms", json={"seats": seats})).json()
        tokens = [created["token"]]
        for _ in range(sum(1 for s in seats if "bot" not in s) - 1):
            joined = await http.post(f"{base}/api/rooms/{created['code']}/join")
            tokens.append(joined.json()["token"])
        url = base.replace("http", "ws") + f"/ws/{created['code']}"
        ended = await asyncio.gather(
            *(client(url, token, think, deadline, tally, rng) for token in tokens)
        )
        if any(ended):
            tally.games += 1


async def run(base: str, rooms: int, bot_every: int, think: tuple[float, float],
              seconds: float) -> dict[str, Any]:  # fmt: skip
    tally = Tally()
    limits = httpx2.Limits(max_connections=50)
    async with httpx2.AsyncClient(timeout=30, limits=limits) as http:
        start = time.monotonic()
        deadline = start + seconds
        await asyncio.gather(
            *(room(http, base, i, bot_every, think, deadline, tally) for i in range(rooms))
        )
    return tally.summary(rooms, time.monotonic() - start)


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
) -> None:
    """Measure the web server under many rooms of scripted clients."""
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        try:
            paced = asyncio.run(run(server.base, rooms, bot_every, think, seconds))
            flat = asyncio.run(run(server.base, rooms, bot_every, (0.0, 0.0), no_think_seconds))
        finally:
            server.stop()
    results = {"machine": describe(), "paced": paced, "no_think": flat}
    if as_json:
        print(json.dumps(results))
        return
    for name, result in (("paced (0.5-1.5 s thinking)", paced), ("no thinking", flat)):
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in result.items()))


if __name__ == "__main__":
    typer.run(main)
