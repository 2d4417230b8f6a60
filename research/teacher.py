"""Label calm decisions with searches: where `expected` should turn a card up.

`research/calm_potential.py` showed that at calm decisions (no player near the
end of the round) searching with far more playouts than `search` can afford
would gain a few points of win share a game, most of it from discarding a
drawn card and turning one up where `expected` keeps it. This script makes
data to learn such a correction from. It plays `expected` self-play deals,
takes every `--every`-th calm decision with a drawn card in hand (any seat),
and there weighs `expected`'s best exchange against its best discard-and-flip
(`forced`: its valuation with a huge bonus or malus for turning up). Both
are played in the same `--playouts` sampled worlds, `expected` playing every
player after (`search`'s playouts, scored for the game). For each decision
it writes one JSON line: the valuation's value of each move (points, lower
is better), the paired difference of the mover's chance of winning the game
(turning up less exchanging) with its standard error, and what the moves and
the table look like (the card, the kind of place, the column's other cards,
the face-down counts, the turn, the totals).

With `--start` it labels the start of a turn instead, where the discard
would improve the mover's grid: taking it (to the place `expected` would put
it) against drawing, with the valuation's values of both.

    python research/teacher.py --games 200 --every 2 --playouts 400 --workers 2 --out labels.jsonl
    python research/teacher.py --summary --out labels.jsonl

The summary is a calibration table: by bins of the valuation's margin for
the alternative move (turning up, or taking), the win chance that playing it
gained; an unbiased valuation changes sign at a margin of 0. Then what a
bonus of B points on that margin would gain per decision.
"""

from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import time
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from calm_potential import paired_gain, self_play  # beside this script
from machine import describe  # research/machine.py, beside this script

from skyjo.bots.determinize import Sampler
from skyjo.bots.expected import ExpectedBot
from skyjo.bots.search import SearchBot, critical
from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD, Phase, step
from skyjo.kernel import valuation as va
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation, observe
from skyjo.rules import COLUMN_PARTNERS

Z95 = 1.959964
BIG = 1e6  #: a flip bonus that decides between exchanging and turning up


def decisions(
    players: int,
    games: int,
    every: int,
    seed: int,
    start: bool = False,
    lookahead: float = va.DEFAULT_OPTIONS.lookahead,
) -> list[tuple[int, Observation]]:
    """Every `every`-th calm decision with a drawn card in hand (with `start`:
    at the start of a turn, where the discard would improve the grid), any
    seat, in `games` deals of `expected` self-play (deal g: seed `seed + g`;
    its look-ahead weighed `lookahead`), with the mover's count of its own
    turns in the round so far."""
    prior = ExpectedBot(0, lookahead=lookahead)
    spec = f"expected:lookahead={lookahead}"
    found: list[tuple[int, Observation]] = []
    for g in range(games):
        seen = 0
        for turns, obs in self_play(players, seed + g, spec):
            drawn = obs.held is not None and obs.source == "deck"
            wanted = _taking(obs, prior) if start else drawn
            if wanted and not critical(obs):
                seen += 1
                if seen % every == 0:
                    found.append((turns, obs))
    return found


def _taking(obs: Observation, prior: ExpectedBot) -> bool:
    """Whether this is the start of a turn where `prior` would weigh taking
    the discard against drawing (the discard improves its grid)."""
    if obs.phase != Phase.TURNS or obs.held is not None or TAKE_DISCARD not in obs.legal_actions:
        return False
    return bool(prior.decision(obs)[1][0] < 1e17)  # 1e18: not taken


def describe_move(obs: Observation, action: int) -> dict[str, Any]:
    """What a move with the card in hand looks like: its kind, the place's
    card (None: face down), the column's other cards (None: face down)."""
    me = obs.viewer
    assert me is not None
    flip = action >= FLIP
    k = action - (FLIP if flip else SWAP)
    cards, status = obs.cards[me], obs.status[me]
    partners = [o for o in COLUMN_PARTNERS[k] if status[o] != CLEARED]
    others = sorted((cards[o] if status[o] == FACE_UP else 99) for o in partners)
    here = cards[k] if status[k] == FACE_UP else None
    return {
        "kind": "flip" if flip else ("up" if here is not None else "down"),
        "place": here,
        "column": [None if c == 99 else c for c in others],
    }


def forced(bot: ExpectedBot, obs: Observation, bonus: float) -> tuple[int, float]:
    """`expected`'s best move and its value (points, lower is better) with
    `bonus` points credited to every discard-and-flip: a huge one gives its
    best discard-and-flip, a hugely negative one its best exchange."""
    params = bot.options()
    params[va.FLIP_BONUS] = bonus
    out = np.zeros(3)
    action = int(va.decide(*bot.arguments(obs), params, out))
    return action, float(out[0]) + (bonus if action >= FLIP else 0.0)


Job = tuple[int, int, Observation, int, float]  #: index, turns, table, playouts, look-ahead


def searcher(job: Job) -> SearchBot:
    """The search that plays a job's moves out (`search`'s playouts), its prior
    `expected` with the job's look-ahead weight."""
    index, _, _, playouts, lookahead = job
    prior = ExpectedBot(1_000_003 + index, lookahead=lookahead)
    return SearchBot(1_000_003 + index, calm=1, iterations=2 * playouts, confidence=0, prior=prior)


def label(job: Job) -> dict[str, Any] | None:
    """One decision's row (`label_start` or `label_hand`), None where there is
    no choice to label."""
    return label_start(job) if job[2].held is None else label_hand(job)


def _table(index: int, turns: int, obs: Observation) -> dict[str, Any]:
    """What the table looks like to the mover."""
    me = obs.viewer
    downs = [row.count(FACE_DOWN) for row in obs.status]
    return {
        "decision": index,
        "players": obs.num_players,
        "turns": turns,
        "down": downs[me],
        "others_down": min(d for p, d in enumerate(downs) if p != me),
        "total": obs.totals[me],
        "others_total": min(t for p, t in enumerate(obs.totals) if p != me),
    }


def label_start(job: Job) -> dict[str, Any] | None:
    """One start of a turn's row: `expected`'s values of taking the discard (to
    the place it would put it) and of drawing (points), and the paired
    difference of the mover's win chance between them (taking less drawing)."""
    index, turns, obs, _, _ = job
    me = obs.viewer
    bot = searcher(job)
    values = bot.prior.decision(obs)[1]
    sampler = Sampler(obs)
    taken = step(sampler.state(sampler.pool, 0), TAKE_DISCARD)
    place = bot.prior.choose(observe(taken, me))
    diff, error = paired_gain(bot, sampler, [(DRAW,), (TAKE_DISCARD, place)])
    return {
        **_table(index, turns, obs),
        "top": obs.discard_pile[-1],
        "take": describe_move(observe(taken, me), place),
        "take_value": float(values[0]),
        "draw_value": float(values[1]),
        "diff": diff,
        "error": error,
    }


def label_hand(job: Job) -> dict[str, Any] | None:
    """One decision's row: `expected`'s best exchange and best discard-and-flip
    (its values, in points), and the paired difference of the mover's win
    chance between them (flip less exchange) over the same sampled worlds."""
    index, turns, obs, _, _ = job
    me = obs.viewer
    assert me is not None and obs.held is not None
    bot = searcher(job)
    prior = bot.prior
    keep, keep_value = forced(prior, obs, -BIG)
    flip, flip_value = forced(prior, obs, BIG)
    if keep < SWAP or keep >= FLIP or flip < FLIP:
        return None  # no face-down card left to turn up
    diff, error = paired_gain(bot, Sampler(obs), [(keep,), (flip,)])
    return {
        **_table(index, turns, obs),
        "held": obs.held,
        "keep": describe_move(obs, keep),
        "flip": describe_move(obs, flip),
        "keep_value": keep_value,
        "flip_value": flip_value,
        "diff": diff,
        "error": error,
    }


#: Bins of the valuation's margin (points) in `summary`.
BINS = (-99, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 99)


def margin(row: dict[str, Any]) -> float:
    """The valuation's margin (points) for the row's alternative move: turning
    a card up (a card in hand), or taking the discard (the start of a turn);
    `expected` plays it where the margin is positive."""
    if "keep_value" in row:
        return float(row["keep_value"] - row["flip_value"])
    return float(row["draw_value"] - row["take_value"])


def summary(rows: list[dict[str, Any]]) -> None:
    """Calibration: by bins of the valuation's margin for the alternative move
    (turning a card up, or taking the discard), the mean gain in win chance
    that playing it measured, with a 95% interval; a valuation without bias
    has the sign change at 0. Then what a bonus B added to every margin would
    gain per decision (the rows' differences where the choice changes)."""
    if not rows:
        return
    what = "turning up" if "keep_value" in rows[0] else "taking"
    for low, high in itertools.pairwise(BINS):
        found = [r for r in rows if low <= margin(r) < high]
        if len(found) >= 10:
            mean, half = _mean(found)
            print(
                f"  margin for {what} in [{low:+}, {high:+}): {len(found):>5} decisions, "
                f"{what} gains {mean:+.4f} ± {half:.4f}"
            )
    for bonus in (-1.0, 0.5, 1.0, 1.5, 2.0, 3.0):
        changed = [r for r in rows if (margin(r) > 0) != (margin(r) + bonus > 0)]
        sign = 1 if bonus > 0 else -1
        gain = sum(sign * r["diff"] for r in changed) / len(rows)
        half = Z95 * math.sqrt(sum(r["error"] ** 2 for r in changed)) / len(rows)
        print(
            f"  a bonus of {bonus:+} points for {what}: {len(changed)} choices changed, "
            f"{gain:+.5f} ± {half:.5f} win chance a decision"
        )


def _mean(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """The rows' mean difference and its 95% half-interval."""
    n = len(rows)
    mean = sum(r["diff"] for r in rows) / n
    return mean, Z95 * math.sqrt(sum(r["error"] ** 2 for r in rows)) / n


def main(
    players: Annotated[int, typer.Option(help="seats per game")] = 2,
    games: Annotated[int, typer.Option(help="self-play deals")] = 20,
    every: Annotated[int, typer.Option(help="take every n-th calm decision")] = 2,
    playouts: Annotated[int, typer.Option(help="playouts per move")] = 400,
    seed: Annotated[int, typer.Option()] = 1,
    workers: Annotated[int, typer.Option(help="processes")] = 1,
    start: Annotated[bool, typer.Option("--start", help="label starts of turns")] = False,
    lookahead: Annotated[
        float, typer.Option(help="expected's look-ahead weight")
    ] = va.DEFAULT_OPTIONS.lookahead,
    out: Annotated[Path, typer.Option(help="JSON lines, one a decision")] = Path("labels.jsonl"),
    show: Annotated[bool, typer.Option("--summary", help="only summarise --out")] = False,
) -> None:
    """Label calm decisions (see the module's description)."""
    if show:
        summary([json.loads(line) for line in out.read_text().splitlines()])
        return
    began = time.perf_counter()
    found = decisions(players, games, every, seed, start, lookahead)
    jobs = [(seed * 1_000_000 + i, t, obs, playouts, lookahead) for i, (t, obs) in enumerate(found)]
    with out.open("w") as sink:
        if workers == 1:
            rows = map(label, jobs)
            sink.writelines(json.dumps(r) + "\n" for r in rows if r)
        else:
            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                rows = pool.imap(label, jobs, chunksize=4)
                sink.writelines(json.dumps(r) + "\n" for r in rows if r)
    print(
        f"{len(jobs)} decisions, {games} deals of {players}-player `expected` self-play, "
        f"seed {seed}, {playouts} playouts a move; {describe()}; "
        f"{time.perf_counter() - began:.0f} s"
    )
    summary([json.loads(line) for line in out.read_text().splitlines()])


if __name__ == "__main__":
    typer.run(main)
