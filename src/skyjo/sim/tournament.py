"""Tournaments between bots: many seeded games, seats rotated, in parallel.

Seating. `--bots` is cycled to fill the `--players` seats: with `a,b` and 4
players the *lineup* is `a, b, a, b` (two copies of each); to play one bot
against three copies of another, name every seat: `--bots a,b,b,b` (4 players
by default, one seat per bot given). Without `--players` there is one seat per
bot given, at least 2 (`--bots a` is `a` against itself); with `a,b,c` and 2
players it is an error (a bot would never play). Game `g` rotates the lineup
by `g mod players`: seat `s` plays `lineup[(s + g) % players]`. Over any
multiple of `players` games, every lineup entry sits in every seat equally
often, so no bot profits from its seat. Results are reported per bot *label*:
its `name=` option if it has one (`external:command=./bot,name=mine` is
`mine`), else its spec as given (such as `search:turns=20000`), adding up the
seats that share a label. The same spec given twice is one bot with several
seats; two different specs with one label are refused.

Determinism. Game `g` is a pure function of `(seed, g)` and the lineup: the
deal's seed is the first word of NumPy's `SeedSequence(seed, spawn_key=(g,))`,
and the bot at seat `s` is seeded with `skyjo.seeds.bot_seed(deal seed, s)`, a
one-way hash: a bot (an external program is sent its seed) learns nothing of
the deal from it. A tournament given no seed draws one with
`skyjo.seeds.fresh_seed()`, which nobody can guess, and shows it (in the
table, the `--json` summary and the results file) so that `--seed` replays
it. Games are played in chunks by any number of worker processes (or Ray
tasks, see `skyjo.sim.ray_backend`), then put back in game order before any
statistic or rating is computed, so the same seed gives the same results
whatever the number of workers or the backend.

Per-turn data. After the deal and after each of its own turns, a seat's
*grid value* is recorded: the sum of its cards that are not in a cleared
column, face-down ones included (what the seat would score if every card were
turned up now; after the round's last turn, its raw score). The mean curve
per bot (by own-turn number) is computed from every game; the raw
trajectories are kept in the results file for the first `turn_sample` games
only, so that a 10,000-game file stays a few megabytes (about 2.5 MB with 4
players).

Results files (`--out`): see `skyjo.sim.results`, where the types of a
tournament's settings and results live.

Engines. The games are played by the reference engine (`skyjo.match`
driving `skyjo.engine`, any bot), or by the batch simulator (`skyjo.batch`:
compiled games on the rules kernel, for a lineup of `random`, `greedy`,
`basic` and `expected` without options), which plays the same games from the same seed:
the same deals, reshuffles, bot generators and so the same results, game for
game (`tests/parity/test_batch.py`). By default (`engine=None`) a tournament uses
the batch engine when every bot of its lineup allows it.

Stalled games. The rules set no bound on a round's length, and bots may
legally stall one (both exchanging a card for their own face-up card of the
same value, forever). A round that reaches `MAX_ROUND_TURNS` turns stops its
game: the game is kept as stalled (its seats, the round, the totals of the
rounds finished before) and the tournament goes on. A stalled game counts
neither as a win nor as a loss: it is left out of every statistic and rating
(`skyjo.sim.stats`), and the summary counts and lists the stalled games.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from skyjo.bots import BotError, BotFactory, build, factory, split_specs
from skyjo.engine import (
    GAME_INFO,
    IllegalActionError,
    Phase,
    State,
)
from skyjo.match import Match, Seat
from skyjo.names import MAX_NAME
from skyjo.rules import GRID_SIZE, MAX_PLAYERS, MIN_PLAYERS, Rules
from skyjo.seeds import bot_seed, fresh_seed
from skyjo.sim.ray_backend import ray_module, run_ray
from skyjo.sim.results import (
    DEFAULT_TURN_SAMPLE,
    FORMAT,
    STUDY_FORMAT,
    GameResult,
    Incident,
    ProgressCallback,
    StudyResult,
    TournamentConfig,
    TournamentError,
    TournamentResult,
    load_results,
    save_results,
)
from skyjo.sim.stats import TurnCurves, summarize

#: The backends that can play a tournament.
BACKENDS = ("local", "ray")
#: The engines that can play its games (see the module docstring).
ENGINES = ("reference", "batch")
#: Turns after which a round is taken to be stalled, and its game stopped (see
#: `GameResult.stalled_round`): the one limit every driver applies, declared in
#: `GAME_INFO` (the rules set no bound).
MAX_ROUND_TURNS = GAME_INFO.max_round_turns

_GAME_OVER = int(Phase.GAME_OVER)
_ROUND_OVER = int(Phase.ROUND_OVER)
_SEED_MASK = (1 << 63) - 1
_CELL_MASK = (1 << GRID_SIZE) - 1


# --------------------------------------------------------------------------
# Settings, seats and seeds
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A bot spec resolved once in the parent process: its label, factory and options.

    Workers receive these (the factory is pickled by reference), so a bot
    registered at run time plays in worker processes too. `spec` is what
    `--bots` gave (the label when empty).
    """

    label: str
    make: BotFactory
    options: tuple[tuple[str, Any], ...]
    spec: str = ""

    def new(self, seed: int) -> Any:
        """A fresh bot for one seat of one game."""
        return build(self.spec or self.label, self.make, seed, dict(self.options))


def resolve_bot(spec: str, check: bool = False, label: str | None = None) -> BotEntry:
    """Resolve a bot spec (`name` or `name:key=value,...`), labelled `label`
    (by default `bot_label(spec)`).

    Raises `BotError` (a `ValueError`) for an unknown bot; with `check`, also
    builds one bot so that bad options fail now, in the parent process,
    rather than in every worker.
    """
    spec = spec.strip()
    if not spec:
        raise BotError("empty bot name in --bots")
    _, make, options = factory(spec)
    entry = BotEntry(label or bot_label(spec), make, tuple(sorted(options.items())), spec)
    if check:
        _close(entry.new(0))
    return entry


def bot_label(spec: str) -> str:
    """How a bot is called in tables and results: its `name=` option when the
    spec has one (`external:command=./bot,name=mine` is `mine`), else the spec."""
    _, _, rest = spec.strip().partition(":")
    for item in rest.split(","):
        key, sep, value = item.partition("=")
        if sep and key.strip() == "name":
            if not value.strip():
                raise TournamentError(f"an empty name= in bot {spec.strip()!r}")
            return value.strip()
    return spec.strip()


def bot_labels(specs: Iterable[str]) -> dict[str, str]:
    """Each distinct spec and its label (`bot_label`), in order. The same spec
    given twice is one bot in several seats; two specs with one label are a
    `TournamentError`, as results could not tell them apart."""
    labels: dict[str, str] = {}
    owners: dict[str, str] = {}
    for spec in dict.fromkeys(s.strip() for s in specs):
        label = bot_label(spec)
        if label in owners:
            raise TournamentError(
                f"two bots are labelled {label!r} ({owners[label]!r} and {spec!r}): "
                "give each its own name="
            )
        owners[label] = spec
        labels[spec] = label
    return labels


def _close(bot: Any) -> None:
    """Release what a bot holds (an external program, say) if it has a `close`."""
    close = getattr(bot, "close", None)
    if callable(close):
        close()


def parse_bots(bots: str | Sequence[str]) -> list[str]:
    """The bot specs of `--bots`: a comma-separated string or a list, read as
    every command reads it (`skyjo.bots.split_specs`: a part holding `=` but no
    `:` continues the spec before it). `TournamentError` for an empty list."""
    try:
        return split_specs(bots)
    except BotError:
        raise TournamentError("give at least one bot with --bots") from None


def make_lineup(bots: Sequence[str], players: int | None = None) -> list[str]:
    """`bots` cycled to fill `players` seats (default: one seat per bot, at least 2)."""
    bots = list(bots)
    if not bots:
        raise TournamentError("give at least one bot with --bots")
    if players is None:
        players = max(len(bots), MIN_PLAYERS)
    check_players(players)
    if len(bots) > players:
        raise TournamentError(
            f"{len(bots)} bots cannot share {players} seats: give at most {players} bots "
            "or more --players"
        )
    return [bots[i % len(bots)] for i in range(players)]


def check_seed(seed: Any) -> int:
    """`seed` if it is a valid seed, a fresh one for None, else `TournamentError`."""
    if seed is None:
        return fresh_seed()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TournamentError(f"the seed must be a whole number >= 0, not {seed!r} (--seed)")
    return seed


def check_players(players: Any) -> int:
    """`players` if it is a valid player count (RULES.md 1), else `TournamentError`."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise TournamentError(f"the number of players must be an integer, not {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise TournamentError(
            f"Skyjo takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} (--players)"
        )
    return players


def seat_lineup(lineup: Sequence[str], game: int) -> list[str]:
    """Who sits where in game `game`: seat `s` plays `lineup[(s + game) % players]`."""
    n = len(lineup)
    return [lineup[(s + game) % n] for s in range(n)]


def deal_seed(seed: int, game: int) -> int:
    """The seed of game `game`'s deal: the first word of NumPy's
    `SeedSequence(seed, spawn_key=(game,))`, from `(seed, game)` only."""
    np = _numpy()
    word = np.random.SeedSequence(seed, spawn_key=(game,)).generate_state(1, dtype=np.uint64)[0]
    return int(word) & _SEED_MASK


def game_seeds(seed: int, game: int, players: int) -> tuple[int, list[int]]:
    """The deal's seed and each seat's bot seed (`skyjo.seeds.bot_seed`, as the
    match driver seeds its bots) of game `game`, for the batch engine."""
    deal = deal_seed(seed, game)
    return deal, [bot_seed(deal, seat) for seat in range(players)]


@cache
def _numpy() -> Any:
    """NumPy, imported on first use."""
    import numpy

    return numpy


def make_config(
    bots: str | Sequence[str],
    players: int | None = None,
    games: int = 1000,
    seed: int | None = None,
    rules: Rules | None = None,
    turn_sample: int = DEFAULT_TURN_SAMPLE,
    lineup: Sequence[str] | None = None,
) -> TournamentConfig:
    """Check the settings and build a `TournamentConfig` (`TournamentError` if bad).

    `lineup` (one spec per seat) overrides the cycling of `bots` over `players`.
    Without a `seed`, a fresh one is drawn (`skyjo.seeds.fresh_seed`); it is
    the config's `seed`, so the tournament can be played again.
    """
    specs = parse_bots(bots)
    labels = bot_labels([*specs, *(lineup or ())])
    for spec, label in labels.items():
        resolve_bot(spec, check=True, label=label)
    seats = list(lineup) if lineup is not None else make_lineup(specs, players)
    check_players(len(seats))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TournamentError(f"a tournament plays at least 1 game, not {games!r} (--games)")
    seed = check_seed(seed)
    if turn_sample < 0:
        raise TournamentError(f"--turn-sample must be >= 0, not {turn_sample}")
    return TournamentConfig(
        bots=tuple(labels.values()),
        lineup=tuple(labels[s.strip()] for s in seats),
        games=games,
        seed=seed,
        rules=rules or Rules(),
        turn_sample=turn_sample,
        specs=tuple(labels),
    )


# --------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------


def _grid_value(state: State, seat: int) -> int:
    """The sum of the seat's cards outside cleared columns, face-down ones included."""
    shift = GRID_SIZE * seat
    cells = state.cells[shift : shift + GRID_SIZE]
    cleared = state.cleared_bits >> shift & _CELL_MASK
    if not cleared:
        return sum(cells)
    return sum(v for k, v in enumerate(cells) if not cleared >> k & 1)


def play_game(
    entries: Sequence[BotEntry], index: int, seed: int, rules: Rules | None = None
) -> GameResult:
    """Play game `index` of a tournament: `entries[s]` plays seat `s` (already rotated).

    The game runs on the match driver (`skyjo.match.Match`), which seeds each
    bot with `bot_seed(deal seed, seat)`, greets the bots that listen (`start`,
    with the seats' names), shows them the end (`game_over`), closes them,
    and stops a round at the round limit. The loop here only notes each
    seat's grid value after its turns.
    """
    by_label = {entry.label: entry for entry in entries}
    labels = [entry.label for entry in entries]
    seats = [Seat(name, label) for name, label in zip(seat_names(labels), labels, strict=True)]
    with Match(
        seats,
        rules,
        deal_seed(seed, index),
        make=lambda label, bot_seed: by_label[label].new(bot_seed),
        record_events=False,
    ) as match:
        record = _play(match, labels, index)
        incidents = _incidents(match)
    return replace(record, incidents=incidents) if incidents else record


def seat_names(labels: Sequence[str]) -> list[str]:
    """A name for each seat of a game, from the bots' labels: the label itself
    when it is short enough (`skyjo.names.MAX_NAME`) and sits once, else the
    label shortened in the middle and followed by its seat number (from 1)."""
    names = []
    for seat, label in enumerate(labels):
        if len(label) <= MAX_NAME and labels.count(label) == 1:
            names.append(label)
        else:
            suffix = f" #{seat + 1}"
            names.append(shorten(label, MAX_NAME - len(suffix)) + suffix)
    return names


def shorten(text: str, width: int) -> str:
    """`text` cut to `width` characters by an ellipsis in the middle (its start and
    its end are what tell bot specs apart)."""
    if len(text) <= width:
        return text
    keep = max(width - 1, 0)
    head = (keep + 1) // 2
    return text[:head] + "…" + text[len(text) - (keep - head) :]


def _incidents(match: Match) -> tuple[Incident, ...]:
    """What the bots that keep `incidents` (external ones) reported, seat by seat."""
    found = []
    for seat, incidents in sorted(match.incidents.items()):
        for incident in incidents:
            kind, detail = str(incident.get("kind")), str(incident.get("detail", ""))
            found.append(Incident(seat, int(incident.get("turn") or 0), kind, detail))
    return tuple(found)


def _play(match: Match, labels: Sequence[str], index: int) -> GameResult:
    """The bots play `match` to its end, through the driver; each seat's grid
    value is noted after the deal and after each of its turns."""
    state = match.state
    n = len(labels)
    rounds: list[tuple[tuple[int, ...], ...]] = []
    current = [[_grid_value(state, s)] for s in range(n)]
    turns = 0
    while not match.over:
        seat = state.player
        try:
            match.play_bot()
        except IllegalActionError as error:
            raise IllegalActionError(
                f"bot {labels[seat]!r} (seat {seat}, game {index}) "
                f"chose an illegal action: {error}",
                error.kind,
                {**error.params, "bot": labels[seat], "game": index},
            ) from None
        before, state = state, match.state
        if before.held is not None:  # a placement: the end of a turn
            turns += 1
            current[seat].append(_grid_value(state, seat))
        if state.phase == _ROUND_OVER or state.phase == _GAME_OVER:
            rounds.append(tuple(tuple(seat_values) for seat_values in current))
        elif before.phase == _ROUND_OVER:  # the next round was dealt
            current = [[_grid_value(state, s)] for s in range(n)]
    stalled_round = state.round + 1 if match.stalled else None
    return GameResult(
        index=index,
        seats=tuple(labels),
        totals=state.totals,
        rounds=state.results,
        turns=turns,
        trajectories=tuple(rounds),
        stalled_round=stalled_round,
    )


@dataclass(frozen=True, slots=True)
class Chunk:
    """A run of consecutive games, the unit of work of a worker or a Ray task."""

    start: int
    stop: int
    lineup: tuple[BotEntry, ...]
    seed: int
    rules: Rules
    engine: str = "reference"


def play_chunk(chunk: Chunk) -> list[GameResult]:
    """Play games `chunk.start` to `chunk.stop - 1`, each with its seats rotated,
    on the chunk's engine."""
    if chunk.engine == "batch":
        return play_batch_chunk(chunk)
    return [
        play_game(seat_lineup(chunk.lineup, g), g, chunk.seed, chunk.rules)
        for g in range(chunk.start, chunk.stop)
    ]


def play_batch_chunk(chunk: Chunk) -> list[GameResult]:
    """`play_chunk` on the batch engine: the games `play_game` plays, all at once
    (`skyjo.batch.play_seeded`, from the same deal and bot seeds)."""
    from skyjo.batch import play_seeded  # compiled code: imported when used

    games = range(chunk.start, chunk.stop)
    n = len(chunk.lineup)
    seats = [seat_lineup(chunk.lineup, g) for g in games]
    seeds = [game_seeds(chunk.seed, g, n) for g in games]
    played = play_seeded(
        [[_policy(entry) for entry in entries] for entries in seats],
        [deal for deal, _ in seeds],
        [bots for _, bots in seeds],
        chunk.rules,
        MAX_ROUND_TURNS,
    )
    return [
        GameResult(
            index=g,
            seats=tuple(entry.label for entry in entries),
            totals=game.totals,
            rounds=game.rounds,
            turns=game.turns,
            trajectories=game.trajectories,
            stalled_round=game.stalled_round,
        )
        for g, entries, game in zip(games, seats, played, strict=True)
    ]


def _policy(entry: BotEntry) -> str:
    from skyjo.batch import batch_policy

    policy = batch_policy(entry.spec or entry.label)
    if policy is None:
        raise TournamentError(f"the batch engine cannot play bot {entry.label!r}")
    return policy


def choose_engine(config: TournamentConfig, engine: str | None = None) -> str:
    """The engine that plays `config`'s games: `engine`, or by default the batch
    one when every bot of the lineup allows it (`skyjo.batch.batch_policy`), else
    the reference. `TournamentError` for an unknown engine, or the batch one
    with a bot it cannot play."""
    if engine is not None and engine not in ENGINES:
        raise TournamentError(f"unknown engine {engine!r} (--engine {'|'.join(ENGINES)})")
    if engine == "reference":
        return engine
    from skyjo.batch import batch_policy

    unplayable = [
        label for label in dict.fromkeys(config.lineup) if batch_policy(config.spec(label)) is None
    ]
    if engine == "batch" and unplayable:
        raise TournamentError(
            f"the batch engine plays random, greedy, basic and expected without options, not "
            f"{', '.join(map(repr, unplayable))}: use --engine reference"
        )
    if engine is None:
        return "reference" if unplayable else "batch"
    return engine


def make_chunks(config: TournamentConfig, workers: int, engine: str = "reference") -> list[Chunk]:
    """Split the games into chunks: several per worker, so that the load balances
    (larger ones on the batch engine, which plays a chunk at once)."""
    entries = {
        label: resolve_bot(config.spec(label), label=label)
        for label in dict.fromkeys(config.lineup)
    }
    lineup = tuple(entries[label] for label in config.lineup)
    largest = 1024 if engine == "batch" else 64
    size = max(1, min(largest, config.games // (4 * max(1, workers))))
    return [
        Chunk(start, min(start + size, config.games), lineup, config.seed, config.rules, engine)
        for start in range(0, config.games, size)
    ]


# --------------------------------------------------------------------------
# Running a tournament
# --------------------------------------------------------------------------


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _context() -> multiprocessing.context.BaseContext:
    """Worker processes start from a fork server (spawn where there is none): never a
    plain fork of a parent that may run threads (the progress bar's)."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["skyjo.sim.tournament"])
        return ctx
    return multiprocessing.get_context("spawn")


def run_local(
    chunks: Sequence[Chunk], workers: int, progress: ProgressCallback | None = None
) -> Iterator[list[GameResult]]:
    """Play the chunks on `workers` processes (in this process for 1); yield each
    chunk's games as it finishes, in no particular order."""
    total = sum(c.stop - c.start for c in chunks)
    done = 0
    if workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            games = play_chunk(chunk)
            done += len(games)
            if progress:
                progress(done, total)
            yield games
        return
    if any(chunk.engine == "batch" for chunk in chunks):
        from skyjo.batch import compile_loop  # compiled code: imported when used

        compile_loop()  # once here, then the workers load it from Numba's cache
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=_context()) as pool:
        pending: set[Future[list[GameResult]]] = {pool.submit(play_chunk, c) for c in chunks}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    games = future.result()
                    done += len(games)
                    if progress:
                        progress(done, total)
                    yield games
        finally:
            for future in pending:
                future.cancel()


def run_tournament(
    config: TournamentConfig,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: ProgressCallback | None = None,
    engine: str | None = None,
) -> TournamentResult:
    """Play every game of `config` and summarize them (see `skyjo.sim.stats`).

    `workers` processes play chunks of games (default: every core); with
    `backend="ray"` the chunks are Ray tasks on the cluster at `address` (or
    the running / a new local Ray instance); `engine` plays them (see
    `choose_engine`). The result depends on none of them: only on the config.
    """
    engine = choose_engine(config, engine)
    if backend not in BACKENDS:
        raise TournamentError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise TournamentError(f"--workers must be at least 1, not {workers!r}")
    if backend == "ray":
        ray_module()  # fail before any work if Ray is missing
        chunks = make_chunks(config, max(workers, 8), engine)
        produced: Iterable[list[GameResult]] = run_ray(play_chunk, chunks, address, progress)
    else:
        chunks = make_chunks(config, workers, engine)
        produced = run_local(chunks, workers, progress)
    curves = TurnCurves()
    games: list[GameResult] = []
    for chunk_games in produced:
        for game in chunk_games:
            curves.add(game)  # integer sums: the same in any order
            if game.index >= config.turn_sample:
                game = replace(game, trajectories=None)
            games.append(game)
    games.sort(key=lambda g: g.index)
    return TournamentResult(config, tuple(games), summarize(config, games, curves))


# --------------------------------------------------------------------------
# The luck-versus-skill study
# --------------------------------------------------------------------------

#: The studies `skyjo tournament --study` runs.
STUDIES = ("luck",)


def luck_configs(
    bots: str | Sequence[str],
    games: int,
    seed: int | None = None,
    max_players: int = MAX_PLAYERS,
    rules: Rules | None = None,
) -> list[TournamentConfig]:
    """One tournament per player count n = 2..max_players: the first bot of `bots`
    (taken as the stronger) against n-1 copies of the second, all with `seed`
    (without one, a fresh seed drawn once for them all)."""
    specs = parse_bots(bots)
    if len(specs) != 2:
        raise TournamentError(
            f"the luck study takes two bots, the stronger first (--bots strong,weak), "
            f"not {len(specs)}"
        )
    strong, weak = specs
    if strong == weak:
        raise TournamentError("the luck study needs two different bots")
    check_players(max_players)
    seed = check_seed(seed)
    return [
        make_config(specs, games=games, seed=seed, rules=rules, lineup=[strong] + [weak] * (n - 1))
        for n in range(MIN_PLAYERS, max_players + 1)
    ]


def run_luck_study(
    configs: Sequence[TournamentConfig],
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: ProgressCallback | None = None,
    engine: str | None = None,
) -> StudyResult:
    """Play the tournaments of `luck_configs` and collect the stronger bot's win rates."""
    total = sum(c.games for c in configs)
    before = 0
    points = []
    for config in configs:

        def step_progress(done: int, _: int, offset: int = before) -> None:
            if progress:
                progress(offset + done, total)

        result = run_tournament(config, workers, backend, address, step_progress, engine)
        before += config.games
        strong = next(b for b in result.summary["bots"] if b["bot"] == config.lineup[0])
        n = config.players
        points.append(
            {
                "players": n,
                "games": config.games,
                "wins": strong["wins"],
                "win_rate": strong["win_rate"],
                "win_rate_ci95": strong["win_rate_ci95"],
                "fair_share": 1 / n,
                "edge": strong["win_rate"] * n,
                "summary": result.summary,
            }
        )
    first = configs[0]
    return StudyResult(first.lineup[0], first.lineup[1], first.games, first.seed, tuple(points))


def stronger_first(points: Iterable[dict[str, Any]]) -> bool:
    """Whether the bot given first did win more than its fair share at every count."""
    return all(p["win_rate"] > p["fair_share"] for p in points)


__all__ = [
    "BACKENDS",
    "DEFAULT_TURN_SAMPLE",
    "ENGINES",
    "FORMAT",
    "MAX_ROUND_TURNS",
    "STUDIES",
    "STUDY_FORMAT",
    "BotEntry",
    "Chunk",
    "GameResult",
    "Incident",
    "StudyResult",
    "TournamentConfig",
    "TournamentError",
    "TournamentResult",
    "bot_label",
    "bot_labels",
    "check_players",
    "check_seed",
    "choose_engine",
    "deal_seed",
    "default_workers",
    "game_seeds",
    "load_results",
    "luck_configs",
    "make_chunks",
    "make_config",
    "make_lineup",
    "parse_bots",
    "play_batch_chunk",
    "play_chunk",
    "play_game",
    "resolve_bot",
    "run_local",
    "run_luck_study",
    "run_tournament",
    "save_results",
    "seat_lineup",
    "stronger_first",
]
