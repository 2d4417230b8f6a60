"""Tournament throughput: games/s on one core and on every core, and search's move time.

Plays `greedy` against `greedy` (`random` against `random` while `greedy` is
not registered) with `skyjo.sim.run_tournament`, first with one worker, then
with one worker per core, and prints games/s and the scaling efficiency
(speed-up divided by the number of workers). Games per CPU second (one worker)
and the load average are printed too: on a busy machine the
wall-clock figures say more about the other work than about the tournament. When the `search` bot is
registered, it also times its moves (`choose` calls) in games against
`greedy`, at 2, 4 and 8 players (`--search-players`: its default budget
grows with the table), and prints the median and the 99th percentile of the
wall-clock time and the median CPU time of this process (less sensitive to
other work on a shared machine).

    python bench/tournament.py                  # a table
    python bench/tournament.py --json           # one JSON object
    python bench/tournament.py --games 400 --players 4 --search-moves 100
"""

from __future__ import annotations

import json
import os
import statistics
import time
from typing import Annotated, Any

import typer
from machine import describe  # bench/machine.py, beside this script
from rich.console import Console
from rich.table import Table

from skyjo.bots import bot_names, make_bot
from skyjo.engine import NEXT_ROUND, Phase, new_game, step
from skyjo.observation import observe
from skyjo.sim import make_config, run_tournament
from skyjo.sim.tournament import default_workers


def games_per_second(
    bot: str, players: int, games: int, workers: int, seed: int
) -> tuple[float, float]:
    """Play a `bot`-only tournament; return its games per wall-clock second (the
    whole run, start-up included) and per CPU second of this process (which
    counts only with one worker: the workers are the fork server's children)."""
    config = make_config(bot, players=players, games=games, seed=seed, turn_sample=0)
    start = time.perf_counter()
    cpu = _cpu_seconds()
    run_tournament(config, workers=workers)
    return games / (time.perf_counter() - start), games / (_cpu_seconds() - cpu)


def _cpu_seconds() -> float:
    """CPU time of this process."""
    return time.process_time()


def search_move_times(
    spec: str, moves: int, seed: int, players: int = 2
) -> tuple[list[float], list[float]]:
    """Seconds per `choose` call of `spec` (seat 0) in games against greedy:
    wall-clock and CPU."""
    rival = "greedy" if "greedy" in bot_names() else "random"
    times: list[float] = []
    cpu: list[float] = []
    game = 0
    while len(times) < moves:
        bots = [make_bot(spec, seed + game)]
        bots += [make_bot(rival, seed + game + p) for p in range(1, players)]
        state = new_game(players, seed=seed + game)
        while state.phase != Phase.GAME_OVER and len(times) < moves:
            if state.phase == Phase.ROUND_OVER:
                state = step(state, NEXT_ROUND)
                continue
            seat = state.player
            observation = observe(state, seat)
            start, start_cpu = time.perf_counter(), _cpu_seconds()
            action = bots[seat].choose(observation)
            if seat == 0:
                times.append(time.perf_counter() - start)
                cpu.append(_cpu_seconds() - start_cpu)
            state = step(state, action)
        game += 1
    return times, cpu


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main(
    games: Annotated[int, typer.Option(help="games per measurement")] = 200,
    players: Annotated[int, typer.Option(help="players per game")] = 2,
    workers: Annotated[int | None, typer.Option(help="workers for 'all cores'")] = None,
    search: Annotated[str, typer.Option(help="the search bot's spec")] = "search",
    search_moves: Annotated[int, typer.Option(help="search moves to time")] = 100,
    search_players: Annotated[
        str, typer.Option(help="table sizes to time search at (its default budget grows with them)")
    ] = "2,4,8",
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    """Measure and print tournament games/s and the search bot's time per move."""
    bot = "greedy" if "greedy" in bot_names() else "random"
    cores = workers or default_workers()
    games_per_second(bot, players, min(games, 20), 1, seed)  # warm up: imports, caches
    one, one_cpu = games_per_second(bot, players, games, 1, seed)
    many, _ = games_per_second(bot, players, games, cores, seed)
    result: dict[str, Any] = {
        "bot": bot,
        "players": players,
        "games": games,
        "machine": describe(),
        "load_average": round(os.getloadavg()[0], 2),  # other work on the machine skews wall time
        "one_core_games_per_s": round(one, 1),
        "workers": cores,
        "all_cores_games_per_s": round(many, 1),
        "speed_up": round(many / one, 2),
        "scaling_efficiency": round(many / one / cores, 2),
        "one_core_games_per_cpu_s": round(one_cpu, 1),
        "search": [],
    }
    if search.partition(":")[0] in bot_names():
        for size in (int(part) for part in search_players.split(",")):
            times, cpu = search_move_times(search, search_moves, seed, size)
            result["search"].append(
                {
                    "spec": search,
                    "players": size,
                    "moves": len(times),
                    "median_ms": round(1000 * statistics.median(times), 3),
                    "p99_ms": round(1000 * percentile(times, 99), 3),
                    "median_cpu_ms": round(1000 * statistics.median(cpu), 3),
                }
            )
    if as_json:
        print(json.dumps(result))
        return
    title = f"skyjo tournament, {bot} vs {bot}, {players} players ({result['machine']})"
    table = Table(title=title)
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("games/s, 1 worker", f"{one:,.1f}")
    table.add_row(f"games/s, {cores} workers", f"{many:,.1f}")
    table.add_row("speed-up", f"{result['speed_up']:.2f}x")
    table.add_row("scaling efficiency", f"{100 * result['scaling_efficiency']:.0f}%")
    table.add_row("games per CPU second, 1 worker", f"{one_cpu:,.1f}")
    table.add_row("load average (1 min)", f"{result['load_average']:.2f}")
    for s in result["search"]:
        move = f"{s['spec']} move, {s['players']}p"
        table.add_row(f"{move}, median", f"{s['median_ms']:.2f} ms")
        table.add_row(f"{move}, 99th percentile", f"{s['p99_ms']:.2f} ms")
        table.add_row(f"{move}, median CPU", f"{s['median_cpu_ms']:.2f} ms")
    if not result["search"]:
        table.add_row(f"{search} move", "not registered")
    Console().print(table)


if __name__ == "__main__":  # worker processes re-import this file: keep the guard
    typer.run(main)
