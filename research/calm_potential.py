"""How much could `search` gain by searching calm decisions? An upper bound.

`search` searches only critical decisions (docs/bots.md): at calm ones, whole-round
playouts are too noisy to tell moves apart at its budget. This script asks
what a search with far more playouts would find there. It plays `expected`
self-play deals, takes every `--every`-th calm decision of seat 0 (its turn,
no player with at most 2 face-down cards, the round not ended), and for each:

1. searches it (`search:calm=1`, every candidate, `--playouts` playouts in
   all, successive halving) and takes the candidate with the best mean;
   where that is the prior's own choice, the gain is 0;
2. else plays the prior's move and that candidate again in fresh worlds,
   `--playouts` playouts in all (half each, the same worlds for both):
   their paired difference of the win chance is an unbiased measure of what
   overruling the prior there gains (step 1's maximum alone is biased
   upwards by its noise).

The mean gain per decision, times the calm decisions of one seat in a game,
is what overruling the prior wherever the playouts' best move differs adds
to the seat's win share, the prior playing everywhere after (as the
playouts assume). With many playouts it bounds what any calm search can add;
with few, it shows what searching calm decisions at that budget does (with
no `confidence` margin: `search` asks for 2.5 standard errors).

    python research/calm_potential.py --games 10 --every 4 --playouts 3000 --workers 2
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Iterator
from typing import Annotated, Any

import typer
from machine import describe  # research/machine.py, beside this script

from skyjo.bots import make_bot
from skyjo.bots.determinize import Sampler
from skyjo.bots.search import SearchBot, critical
from skyjo.engine import FLIP, SWAP, TAKE_DISCARD, Phase, new_game, step
from skyjo.observation import Observation, observe

Z95 = 1.959964


class _Recorder(SearchBot):
    """`search` that keeps the candidates of its last search and the index of
    the prior's among them."""

    searched: tuple[list[Any], int] | None = None

    def evaluate(self, sampler, candidates, default=0, share=1.0, cut=-1, halve=True):  # type: ignore[no-untyped-def]
        self.searched = (list(candidates), default)
        return super().evaluate(sampler, candidates, default, share, cut, halve)


def self_play(players: int, deal: int, spec: str = "expected") -> Iterator[tuple[int, Observation]]:
    """Every decision of one deal of `spec` self-play (the deal's seed `deal`,
    seat s's bot seed `deal * 16 + s`): the mover's observation, with its
    count of its own turns in the round so far (this one included)."""
    bots = [make_bot(spec, deal * 16 + s) for s in range(players)]
    state = new_game(players, seed=deal)
    turns = [0] * players
    current = -1
    while state.phase != Phase.GAME_OVER:
        obs = observe(state, state.player)
        if state.round != current:
            current, turns = state.round, [0] * players
        if state.phase == Phase.TURNS and obs.held is None:
            turns[state.player] += 1
        yield turns[state.player], obs
        state = step(state, bots[state.player].choose(obs))


def calm_decisions(players: int, games: int, every: int, seed: int) -> list[Observation]:
    """Every `every`-th calm decision of seat 0 in `games` deals of `expected`
    self-play (deal g: seed `seed + g`)."""
    found: list[Observation] = []
    for g in range(games):
        seen = 0
        for _, obs in self_play(players, seed + g):
            calm = obs.phase == Phase.TURNS and not critical(obs)
            if calm and obs.viewer == 0 and len(obs.legal_actions) > 1:
                seen += 1
                if seen % every == 0:
                    found.append(obs)
    return found


def paired_gain(
    bot: SearchBot, sampler: Sampler, pair: list[tuple[int, ...]]
) -> tuple[float, float]:
    """The second move's mean value less the first's, both played by `bot` in
    the same sampled worlds (its whole budget shared evenly), and the
    difference's standard error."""
    values, margins = bot.evaluate(sampler, pair, 0, 1.0, -1, halve=False)
    diff = values[1] - values[0]
    return diff, abs(diff / margins[1]) if margins[1] else 0.0


def kind(candidate: tuple[int, ...]) -> str:
    """The kind of a candidate move."""
    action = candidate[0]
    if action == TAKE_DISCARD:
        return "take the discard"
    if action >= FLIP:
        return "discard and flip"
    if action >= SWAP:
        return "exchange"
    return "draw"


def gain(job: tuple[int, Observation, int]) -> tuple[float, float, str]:
    """(gain, its standard error, the kind of the overruling move) at one
    decision (see the module's description); (0, 0, "") where the search
    keeps the prior's move."""
    index, obs, playouts = job
    first = _Recorder(index, calm=1, iterations=playouts, confidence=0)
    first.choose(obs)
    if first.searched is None:  # the prior's, unsearched (a clear start of a turn)
        return 0.0, 0.0, ""
    candidates, default = first.searched
    means = [first.last_values[c] for c in candidates]
    best = max(range(len(candidates)), key=means.__getitem__)
    if best == default:
        return 0.0, 0.0, ""
    second = _Recorder(1_000_003 + index, calm=1, iterations=playouts, confidence=0)
    pair = [candidates[default], candidates[best]]
    diff, error = paired_gain(second, Sampler(obs), pair)
    return diff, error, kind(candidates[best])


def main(
    players: Annotated[int, typer.Option(help="seats per game")] = 2,
    games: Annotated[int, typer.Option(help="self-play deals")] = 10,
    every: Annotated[int, typer.Option(help="take every n-th calm decision")] = 4,
    playouts: Annotated[int, typer.Option(help="playouts per search")] = 3000,
    seed: Annotated[int, typer.Option()] = 1,
    workers: Annotated[int, typer.Option(help="processes")] = 1,
) -> None:
    """Print the mean gain per calm decision of always playing the playouts'
    best move, and what that adds up to in a game."""
    start = time.perf_counter()
    decisions = calm_decisions(players, games, every, seed)
    jobs = [(i, obs, playouts) for i, obs in enumerate(decisions)]
    if workers == 1:
        found = [gain(job) for job in jobs]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            found = pool.map(gain, jobs, chunksize=2)
    n = len(found)
    per_game = n * every / games
    print(
        f"{n} calm decisions of seat 0 ({per_game:.0f} a game), {games} deals of "
        f"{players}-player `expected` self-play, seed {seed}, {playouts} playouts a "
        f"search; {describe()}; {time.perf_counter() - start:.0f} s"
    )
    kinds = sorted({k for _, _, k in found if k})
    for label, chosen in [("every decision", None), *[(k, k) for k in kinds]]:
        rows = [(d, e) for d, e, k in found if chosen is None or k == chosen]
        total = sum(d for d, _ in rows)
        half = Z95 * math.sqrt(sum(e * e for _, e in rows))
        overruled = sum(1 for _, e in rows if e > 0)
        low, high = (total - half) / n, (total + half) / n
        print(
            f"  {label}: {overruled} overruled; gain per decision {total / n:+.5f} "
            f"[{low:+.5f}, {high:+.5f}]; per game {100 * total / n * per_game:+.1f} "
            f"points of win share [{100 * low * per_game:+.1f}, {100 * high * per_game:+.1f}]"
        )


if __name__ == "__main__":
    typer.run(main)
