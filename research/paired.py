"""Paired games: how much a bot gains over a baseline bot, deal by deal.

Each game is played twice on the same deal, with the same rivals (same
specs, same seeds): once with `--bot` in the measured seat, once with
`--baseline` there (the seat rotates with the game's number). The figure is
the mean difference of the seat's win share (ties share the win) between
the two games, with a 95% interval from the paired differences; and the
same for the seat's margin (its final total less the mean of the others'
totals: lower is better), which is less noisy than the win share and
screens a variant sooner.

A bot that plays as its baseline except at a few decisions (`search` plays
the new `expected`'s moves wherever it does not search) gives the same game
as the baseline until its first different move, and often the same result:
the differences are then far less spread than two independent matches,
and a few hundred deals show what a tournament needs thousands of games for.
The baseline's results are the same for every bot measured against it, so
`--cache` keeps every bot's results (the measured one's too, which may be the
next run's baseline) in a JSON file for the next run.

Games are played by the match driver (`skyjo.match.Match`, as a tournament
plays them), with this script's bot seeds: a game whose round reaches the
match's turn limit stalls (bots may exchange cards back and forth forever:
`expected:singles=0` does on deal 472 of seed 41), and its deal is left
out of both figures, with a count of such deals.

    python research/paired.py --bot search --baseline expected --games 400
    python research/paired.py --bot search:focus=10 --players 4 --games 200 --workers 2
"""

from __future__ import annotations

import json
import math
import multiprocessing
import time
from pathlib import Path
from typing import Annotated

import typer
from machine import describe  # research/machine.py, beside this script

from skyjo.bots import make_bot
from skyjo.match import Match, Seat
from skyjo.seeds import bot_seed

Z95 = 1.959964


def seat_result(
    spec: str, rivals: str, players: int, game: int, seed: int
) -> tuple[float, float] | None:
    """The win share and the margin (its total less the others' mean total) of
    the measured seat (`game % players`), played by `spec`, in game `game`;
    None when the game stalled (a round reached the match's turn limit,
    `skyjo.match`). The deal and every bot's seed depend on (`seed`, `game`)
    only, so the rivals play alike whoever sits in the seat."""
    seat = game % players
    deal = seed * 1_000_003 + game
    specs = [spec if s == seat else rivals for s in range(players)]
    # the bots' seeds of this script (deal * 16 + seat), not the match's hashed ones
    ours = {bot_seed(deal, s): deal * 16 + s for s in range(players)}
    match = Match(
        [Seat(f"seat {s}", specs[s]) for s in range(players)],
        seed=deal,
        make=lambda bot, hashed: make_bot(bot, ours[hashed]),
        record_events=False,
    )
    with match:
        match.advance()
    if match.stalled is not None:
        return None
    totals = match.state.totals
    others = [t for s, t in enumerate(totals) if s != seat]
    margin = totals[seat] - sum(others) / len(others)
    best = match.winners()
    return (1.0 / len(best) if seat in best else 0.0), margin


def _play(job: tuple[str, str, int, int, int]) -> tuple[float, float] | None:
    return seat_result(*job)


def results(
    spec: str, rivals: str, players: int, games: int, seed: int, workers: int
) -> list[tuple[float, float] | None]:
    """`seat_result` of every game, on `workers` processes."""
    jobs = [(spec, rivals, players, g, seed) for g in range(games)]
    if workers == 1:
        return [_play(job) for job in jobs]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return pool.map(_play, jobs, chunksize=4)


def paired_difference(ours: list[float], theirs: list[float]) -> tuple[float, float]:
    """The mean of the paired differences and the half-width of its 95% interval."""
    n = len(ours)
    diffs = [a - b for a, b in zip(ours, theirs, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
    return mean, Z95 * math.sqrt(var / n)


def main(
    bot: Annotated[str, typer.Option(help="the bot measured")] = "search",
    baseline: Annotated[str, typer.Option(help="the bot it is compared with")] = "expected",
    rivals: Annotated[str, typer.Option(help="the bot in the other seats")] = "expected",
    players: Annotated[int, typer.Option(help="seats per game")] = 2,
    games: Annotated[int, typer.Option(help="deals")] = 400,
    seed: Annotated[int, typer.Option()] = 1,
    workers: Annotated[int, typer.Option(help="processes")] = 1,
    cache: Annotated[str | None, typer.Option(help="JSON file of baseline results")] = None,
) -> None:
    """Play every deal with `bot` and with `baseline` in the measured seat and
    print the paired differences of win shares and of margins."""
    start = time.perf_counter()
    saved = json.loads(Path(cache).read_text()) if cache and Path(cache).exists() else {}

    def cached(spec: str) -> list[tuple[float, float] | None]:
        """`spec`'s results, from the cache if it holds them; else played, and
        saved to the cache."""
        key = f"{spec}|{rivals}|{players}|{games}|{seed}|margin"  # |margin: (share, margin)
        if key in saved:
            return [None if r is None else (float(r[0]), float(r[1])) for r in saved[key]]
        saved[key] = found = results(spec, rivals, players, games, seed, workers)
        if cache:
            Path(cache).write_text(json.dumps(saved))
        return found

    both = [(a, b) for a, b in zip(cached(bot), cached(baseline), strict=True) if a and b]
    ours = [a for a, _ in both]
    theirs = [b for _, b in both]
    stalled = games - len(both)
    played = len(both)
    win, win_half = paired_difference([r[0] for r in ours], [r[0] for r in theirs])
    margin, margin_half = paired_difference([r[1] for r in ours], [r[1] for r in theirs])
    same = sum(a[0] == b[0] for a, b in both)
    left_out = f" ({stalled} left out: a game of theirs stalled)" if stalled else ""
    print(
        f"{bot} against {baseline} in one seat, {players - 1} x {rivals}, "
        f"{played} deals{left_out} (seed {seed}; {describe()}):\n"
        f"  win share {sum(r[0] for r in ours) / played:.3f} against "
        f"{sum(r[0] for r in theirs) / played:.3f}, paired difference {win:+.3f} "
        f"[{win - win_half:+.3f}, {win + win_half:+.3f}], {same} deals with the same result;\n"
        f"  margin (total less the others' mean; lower is better) paired difference "
        f"{margin:+.2f} [{margin - margin_half:+.2f}, {margin + margin_half:+.2f}]; "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    typer.run(main)
