"""The array kernel (`skyjo.kernel`): its differential check against the engine
on many games, and its throughput against the engine's.

- The check plays `--games` games (2,000 by default; `make kernel-check`) on
  the engine and, mirrored action by action, on a kernel table, with the
  test's long-round, column-clearing random players (`play_mirrored` of
  `tests/parity/kernel_mirror.py`, the copy the tests run), cycling through 2 to 8
  players and the three `ender_penalty` variants; any difference stops it with the game's
  parameters. It prints what the games went through: rounds, reshuffles,
  column clears during rounds and at the final reveal, doubled enders.
- The throughput: whole games (to 100) between uniformly random legal
  players, on one core, as `bench/engine.py` plays them: on the engine in
  Python, and on a batch of `--batch` kernel tables in one compiled loop (the
  random player, the decks and the reshuffle orders drawn outside the kernel's
  rules functions); steps (actions) per second and turns per second. Then
  playouts of the rest of a round from one copied mid-round table
  (`copy_table`, then steps to the round's end): by random legal players, and
  by the search bot's playouts (`skyjo.kernel.playouts` with its greedy policy,
  reshuffles included).

    python bench/kernel.py                     # check 2,000 games, then throughput
    python bench/kernel.py --games 0           # throughput only
    python bench/kernel.py --games 200 --seconds 1 --json
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from machine import describe  # bench/machine.py, beside this script
from numba import njit
from rich.console import Console
from rich.table import Table

from skyjo import kernel
from skyjo.engine import DRAW, NUM_ACTIONS, TAKE_DISCARD, Phase, legal_actions, new_game, step
from skyjo.kernel.playouts import Playouts
from skyjo.rules import DECK, ENDER_PENALTIES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "parity"))
from kernel_mirror import play_mirrored  # tests/parity/kernel_mirror.py: the check's one copy

GAME_OVER = int(Phase.GAME_OVER)
_DECK = np.array(DECK, np.int8)


def check(games: int, seed: int) -> tuple[Counter[str], float]:
    """Play `games` mirrored games; what they went through, and the time taken."""
    seen: Counter[str] = Counter()
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed + i)
        game = {
            "players": 2 + i % 7,
            "seed": seed + i,
            "penalty": ENDER_PENALTIES[i // 7 % 3],
            "target": rng.randint(1, 150),
            "draw": rng.uniform(0.5, 1.0),
            "stall": rng.uniform(0.0, 0.97),
            "seek": rng.uniform(0.0, 1.0),
        }
        try:
            seen.update(play_mirrored(**game))
        except AssertionError:
            print(f"the kernel differs from the engine in game {game}", file=sys.stderr)
            raise
        if (i + 1) % 200 == 0:
            print(f"  {i + 1:,} games checked", file=sys.stderr)
    return seen, time.perf_counter() - start


# --- throughput -----------------------------------------------------------------------


def engine_games(players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Whole random games on the engine for `seconds`: (steps, turns, elapsed)."""
    choose = random.Random(seed).random
    steps = turns = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(players, seed=seed + games)
        while state.phase != GAME_OVER:
            actions = legal_actions(state)
            state = step(state, actions[int(choose() * len(actions))])
            steps += 1
        turns += state.history.count(DRAW) + state.history.count(TAKE_DISCARD)
        games += 1
    return steps, turns, time.perf_counter() - start


@njit(cache=True)
def _random_action(t, b, mask):  # type: ignore[no-untyped-def]
    """A uniformly random legal action at table b (the bench's player, not a rule)."""
    kernel.legal_mask(t, b, mask)
    count = 0
    for a in range(NUM_ACTIONS):
        count += mask[a]
    pick = np.random.randint(count)
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True)
def _play(t, b, mask, until_round_end):  # type: ignore[no-untyped-def]
    """Random legal actions at table b to the end of the game (or of the round);
    decks and reshuffle orders from NumPy's generator. (steps, turns)."""
    steps = turns = 0
    while t.slots[b, kernel.PHASE] != GAME_OVER:
        action = _random_action(t, b, mask)
        status = kernel.step(t, b, action)
        if status == kernel.NEED_RESHUFFLE:
            kernel.reshuffle_perm(t, b, np.random.permutation(t.slots[b, kernel.DISCARD_LEN] - 1))
            status = kernel.step(t, b, action)
        elif status == kernel.NEED_DEAL:
            kernel.deal(t, b, np.random.permutation(_DECK))
        steps += 1
        turns += action == DRAW or action == TAKE_DISCARD
        if status == kernel.ROUND_ENDED and until_round_end:
            break
    return steps, turns


@njit(cache=True)
def _games(t, seed):  # type: ignore[no-untyped-def]
    """A whole random game at every table of the batch: (steps, turns)."""
    np.random.seed(seed)
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    steps = turns = 0
    for b in range(t.slots.shape[0]):
        kernel.deal(t, b, np.random.permutation(_DECK))
        s, u = _play(t, b, mask, False)
        steps += s
        turns += u
    return steps, turns


@njit(cache=True)
def _playouts(world, scratch, count, seed):  # type: ignore[no-untyped-def]
    """`count` playouts of the rest of world 0's round, each from a fresh copy
    in scratch 0: (steps, turns)."""
    np.random.seed(seed)
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    steps = turns = 0
    for _ in range(count):
        kernel.copy_table(world, 0, scratch, 0)
        s, u = _play(scratch, 0, mask, True)
        steps += s
        turns += u
    return steps, turns


def kernel_games(players: int, seconds: float, seed: int, batch: int) -> tuple[int, int, float]:
    """Whole random games on batches of kernel tables for `seconds`."""
    steps = turns = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        t = kernel.new_tables(batch, players, players=players)
        s, u = _games(t, seed + rounds)
        steps, turns, rounds = steps + s, turns + u, rounds + 1
    return steps, turns, time.perf_counter() - start


def mid_round(players: int, seed: int) -> kernel.Tables:
    """A kernel table 4 turns per player into the turns of a random round."""
    for game in itertools.count(seed):
        state = new_game(players, seed=game)
        rng = random.Random(game)
        while state.phase != GAME_OVER:
            ready = state.phase == Phase.TURNS and state.held is None
            if ready and kernel.engine_view(state).turns >= 4 * players:
                world = kernel.new_tables(1, players)
                kernel.load_state(world, 0, state)
                return world
            state = step(state, rng.choice(legal_actions(state)))
    raise AssertionError("unreachable")


def kernel_playouts(players: int, seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Random playouts of a round's rest from a copied table: (playouts, steps, turns, elapsed)."""
    world, scratch = mid_round(players, seed), kernel.new_tables(1, players)
    count = playouts = steps = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s, u = _playouts(world, scratch, 1000, seed + count)
        playouts, steps, turns, count = playouts + 1000, steps + s, turns + u, count + 1
    return playouts, steps, turns, time.perf_counter() - start


def policy_playouts(players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """The search's playouts of a round's rest from a copied table: (playouts, turns, elapsed)."""
    world, scratch = mid_round(players, seed), kernel.new_tables(1, players)
    world.turns[0] = 0  # a playout counts its turns from its start
    play = Playouts(random.Random(seed))
    playouts = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns += play.play_copies(world, scratch, 1000)[0]
        playouts += 1000
    return playouts, turns, time.perf_counter() - start


def main(
    games: Annotated[int, typer.Option(help="mirrored games to check (0: none)")] = 2000,
    players: Annotated[list[int] | None, typer.Option(help="player counts")] = None,
    seconds: Annotated[float, typer.Option(help="time per measure")] = 3.0,
    batch: Annotated[int, typer.Option(help="kernel tables per batch")] = 64,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
) -> None:
    console = Console(width=120)
    if games:
        seen, elapsed = check(games, seed)
        result = {
            "checked_games": games,
            "seconds": round(elapsed, 1),
            **dict(sorted(seen.items())),
        }
        if as_json:
            print(json.dumps(result))
        else:
            console.print(
                f"kernel = engine in {games:,} games ({elapsed:.0f} s): {seen['steps']:,} steps, "
                f"{seen['rounds']:,} rounds, {seen['reshuffles']:,} reshuffles, "
                f"{seen['clears']:,} column clears in turns and {seen['final_clears']:,} at "
                f"final reveals, {seen['doubled']:,} doubled enders, {seen['stalled']} stalled"
            )
        for what in ("reshuffles", "clears", "final_clears", "doubled"):
            assert seen[what] > 0, f"no {what} in {games} games"
    if seconds <= 0:
        return
    kernel_games(2, 0.01, seed, 2)  # warm up: compile or load the cache
    kernel_playouts(2, 0.01, seed)
    policy_playouts(2, 0.01, seed)
    engine_games(2, 0.2, seed)
    rows = []
    for n in players or [2, 4, 8]:
        e_steps, e_turns, e_time = engine_games(n, seconds, seed)
        k_steps, k_turns, k_time = kernel_games(n, seconds, seed, batch)
        playouts, p_steps, _, p_time = kernel_playouts(n, seconds, seed)
        searches, s_turns, s_time = policy_playouts(n, seconds, seed)
        rows.append(
            {
                "players": n,
                "engine_steps_per_s": round(e_steps / e_time),
                "engine_turns_per_s": round(e_turns / e_time),
                "kernel_steps_per_s": round(k_steps / k_time),
                "kernel_turns_per_s": round(k_turns / k_time),
                "speedup": round(k_steps / k_time / (e_steps / e_time), 1),
                "playout_us": round(p_time / playouts * 1e6, 2),
                "playout_steps": round(p_steps / playouts, 1),
                "search_playout_us": round(s_time / searches * 1e6, 2),
                "search_playout_turns": round(s_turns / searches, 1),
            }
        )
    if as_json:
        for row in rows:
            print(json.dumps(row))
        return
    table = Table(
        title="random legal players, one core: the engine against the kernel "
        f"(batches of {batch} tables), and kernel playouts of a round's rest "
        "(random players, and the search's policy)",
        caption=describe(),
    )
    heads = ("players", "engine steps/s", "kernel steps/s", "speedup", "engine turns/s",
             "kernel turns/s", "playout µs", "steps/playout", "search playout µs",
             "turns/search playout")  # fmt: skip
    for head in heads:
        table.add_column(head, justify="right")
    for row in rows:
        table.add_row(
            str(row["players"]),
            f"{row['engine_steps_per_s']:,}",
            f"{row['kernel_steps_per_s']:,}",
            f"{row['speedup']}x",
            f"{row['engine_turns_per_s']:,}",
            f"{row['kernel_turns_per_s']:,}",
            f"{row['playout_us']}",
            f"{row['playout_steps']}",
            f"{row['search_playout_us']}",
            f"{row['search_playout_turns']}",
        )
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
