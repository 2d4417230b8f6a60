"""The work behind `skyjo tournament` and `skyjo report`.

The command functions in `skyjo.sim.cli` only parse options, call
`tournament_command` / `report_command` inside `user_input()` (so a
`ValueError` becomes the one-line error of RULES.md 6) and print what these
return: a JSON document for `--json`, else Rich tables.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from skyjo.commandline import progress_bar
from skyjo.paths import check_writable
from skyjo.rules import MAX_PLAYERS
from skyjo.sim.report import format_wins, incidents_text
from skyjo.sim.stats import CI_METHOD, RATING_MODEL
from skyjo.sim.tournament import (
    BACKENDS,
    ENGINES,
    MAX_ROUND_TURNS,
    STUDIES,
    StudyResult,
    TournamentError,
    TournamentResult,
    choose_engine,
    default_workers,
    luck_configs,
    make_config,
    run_luck_study,
    run_tournament,
    save_results,
    shorten,
)


@dataclass(frozen=True)
class Outcome:
    """What `skyjo tournament` ran: the results, their summary and the time it took."""

    document: TournamentResult | StudyResult
    summary: dict[str, Any]
    seconds: float
    workers: int
    backend: str
    engine: str = "reference"


def tournament_command(
    bots: str,
    players: int | None = None,
    games: int = 1000,
    seed: int | None = None,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    out: str | None = None,
    study: str | None = None,
    turn_sample: int = 100,
    show_progress: bool | None = None,
    engine: str | None = None,
) -> Outcome:
    """Check the options, play the tournament (or the study), write `out`.

    Without a `seed`, a fresh one is drawn; it is in the results (and shown by
    `tournament_tables`), so `--seed` can play the same games again. `engine`
    (reference or batch, default: batch when every bot allows it) plays the
    games; both give the same results (`skyjo.sim.tournament.choose_engine`).
    """
    if engine is not None and engine not in ENGINES:
        raise TournamentError(f"unknown engine {engine!r} (--engine {'|'.join(ENGINES)})")
    if backend not in BACKENDS:
        raise TournamentError(f"unknown backend {backend!r} (--backend {'|'.join(BACKENDS)})")
    if address and backend != "ray":
        raise TournamentError("--address is for --backend ray")
    if workers is not None and workers < 1:
        raise TournamentError(f"--workers must be at least 1, not {workers}")
    if backend == "ray":
        from skyjo.sim.ray_backend import ray_module

        ray_module()  # one line saying what to install, before any work
    if out is not None:
        check_writable(out, "--out")
    workers = workers or default_workers()
    start = time.perf_counter()
    document: TournamentResult | StudyResult
    if study is not None:
        if study not in STUDIES:
            raise TournamentError(f"unknown study {study!r} (--study {'|'.join(STUDIES)})")
        configs = luck_configs(bots, games, seed, MAX_PLAYERS if players is None else players)
        with progress_bar(f"luck study, n = 2..{configs[-1].players}", show_progress) as step:
            document = run_luck_study(configs, workers, backend, address, step, engine)
        summary = document.summary()
        used = choose_engine(configs[0], engine)
    else:
        config = make_config(bots, players, games, seed, turn_sample=turn_sample)
        with progress_bar(f"{config.players} players", show_progress) as step:
            document = run_tournament(config, workers, backend, address, step, engine)
        summary = document.summary
        used = choose_engine(config, engine)
    seconds = time.perf_counter() - start
    if out is not None:
        save_results(document, out)
    return Outcome(document, summary, seconds, workers, backend, used)


def tournament_tables(outcome: Outcome, out: str | None = None) -> list[RenderableType]:
    """What `skyjo tournament` prints without `--json`."""
    doc = outcome.document
    shown: list[RenderableType] = []
    if isinstance(doc, StudyResult):
        table = Table(title=f"Luck versus skill: {doc.strong} against n-1 x {doc.weak}")
        for name in ("players", "games", "wins", "win rate", "95% CI", "fair share", "edge"):
            table.add_column(name, justify="left" if name == "players" else "right")
        for p in doc.points:
            low, high = p["win_rate_ci95"]
            table.add_row(
                str(p["players"]),
                str(p["games"]),
                format_wins(p["wins"]),
                f"{100 * p['win_rate']:.1f}%",
                f"{100 * low:.1f}% - {100 * high:.1f}%",
                f"{100 * p['fair_share']:.1f}%",
                f"{p['edge']:.2f}",
            )
        shown.append(table)
        games = doc.games * len(doc.points)
    else:
        summary = doc.summary
        table = BotTable(summary)
        shown.append(table)
        seats = ", ".join(f"{100 * r:.1f}%" for r in summary["seat_win_rates"])
        shown.append(f"Win rate by seat (0 first): {seats}")
        if summary.get("stalled_games"):
            shown.append(stalled_line(summary))
        if incidents := incidents_text(summary):
            shown.append(incidents)
        games = summary["games"]
    if not isinstance(doc, StudyResult):
        shown.append(
            "round, game: mean round and game scores; ends %: rounds it ended; dbl %: its "
            "endings that were doubled; rating: mu±sigma."
        )
        shown.append(f"Win % interval: {CI_METHOD}. Rating: {RATING_MODEL}.")
    else:
        shown.append(f"Win rate interval: {CI_METHOD}. Edge: win rate / fair share.")
    rate = games / outcome.seconds if outcome.seconds > 0 else float("inf")
    shown.append(
        f"{games} games in {outcome.seconds:.1f} s ({rate:.1f} games/s, "
        f"{outcome.backend} backend, {outcome.engine} engine, workers: {outcome.workers})"
    )
    if out:
        shown.append(f"Results written to {out}")
    seed = doc.seed if isinstance(doc, StudyResult) else doc.config.seed
    shown.append(f"Seed {seed}: --seed {seed} plays the same games again.")
    return shown


#: How many stalled games the table output names, at most.
STALLED_SHOWN = 5


def stalled_line(summary: dict[str, Any]) -> str:
    """One line on the stalled games: how many, the first few, how they are counted."""
    stalled = summary["stalled"]
    named = ", ".join(f"game {s['game']} (round {s['round']})" for s in stalled[:STALLED_SHOWN])
    if len(stalled) > STALLED_SHOWN:
        named += f" and {len(stalled) - STALLED_SHOWN} more"
    return (
        f"Stalled: {summary['stalled_games']} of {summary['games']} games, a round with no end "
        f"after {MAX_ROUND_TURNS} turns: {named}. They are left out of the figures above "
        "(neither won nor lost)."
    )


#: The per-bot columns in the terminal (percentages without the % sign, to fit 80 columns).
TERMINAL_HEADER = (
    "bot",
    "seats",
    "wins",
    "win %",
    "95% CI",
    "round",
    "game",
    "ends %",
    "dbl %",
    "rating",
)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def bot_cells(bot: dict[str, Any]) -> list[str]:
    """One bot's numbers in the terminal table, after its label (see `TERMINAL_HEADER`)."""
    low, high = bot["win_rate_ci95"]
    rating = bot["rating"]
    return [
        str(bot["seats"]),
        format_wins(bot["wins"]),
        f"{100 * bot['win_rate']:.1f}",
        f"{100 * low:.1f}-{100 * high:.1f}",
        _num(bot["mean_round_score"]),
        _num(bot["mean_game_score"]),
        f"{100 * bot['ended_rate']:.1f}",
        f"{100 * bot['doubled_rate']:.1f}",
        f"{rating['mu']:.1f}±{rating['sigma']:.1f}",
    ]


#: The narrowest the label column gets, however long the labels.
MIN_LABEL_WIDTH = 8


class BotTable:
    """The per-bot table of a tournament's summary, fitted to the console's width
    when it is printed (80 columns included): the numbers are never cut; labels
    too long for the room they leave are shortened in the middle (`shorten`) and
    given in full below the table, or wrapped if shortening made two alike."""

    def __init__(self, summary: dict[str, Any]) -> None:
        self.summary = summary

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.render(options.max_width)

    def render(self, width: int) -> list[RenderableType]:
        """The table (and any full labels under it) for a console `width` columns wide."""
        labels = [b["bot"] for b in self.summary["bots"]]
        rows = [bot_cells(b) for b in self.summary["bots"]]
        numbers = sum(
            max(len(name), *(len(row[k]) for row in rows)) if rows else len(name)
            for k, name in enumerate(TERMINAL_HEADER[1:])
        )
        columns = len(TERMINAL_HEADER) - 1
        longest = max(map(len, labels), default=0)
        gap = 2 if longest + numbers + 2 * columns <= width else 1
        room = max(MIN_LABEL_WIDTH, width - numbers - gap * columns)
        shown = [shorten(label, room) for label in labels]
        wrap = len(set(shown)) < len(shown)
        table = self._table(gap, room if wrap else None)
        for label, short, row in zip(labels, shown, rows, strict=True):
            table.add_row(label if wrap else short, *row)
        notes = [] if wrap else [f"{s} = {f}" for s, f in zip(shown, labels, strict=True) if s != f]
        return [table, *(Text(note) for note in notes)]

    def _table(self, gap: int, wrap_width: int | None) -> Table:
        """An empty table with the columns, `gap` spaces apart; the label column
        wraps at `wrap_width` if given, else is never wrapped."""
        summary = self.summary
        table = Table(
            title=f"{summary['games']} games, {summary['players']} players, seed {summary['seed']}",
            box=None,
            pad_edge=False,
            padding=(0, 1) if gap == 2 else (0, 1, 0, 0),
        )
        if wrap_width is None:
            table.add_column(TERMINAL_HEADER[0], no_wrap=True)
        else:
            table.add_column(TERMINAL_HEADER[0], width=wrap_width, overflow="fold")
        for name in TERMINAL_HEADER[1:]:
            table.add_column(name, justify="right", no_wrap=True)
        return table


def report_command(paths: list[str], out_dir: str) -> list[Path]:
    """Write the report of `paths` in `out_dir` (see `skyjo.sim.report`)."""
    if not paths:
        raise TournamentError("give a results file (skyjo tournament --out results.json)")
    from skyjo.sim.report import write_report

    return write_report(paths, out_dir)


__all__ = [
    "BotTable",
    "Outcome",
    "bot_cells",
    "progress_bar",
    "report_command",
    "shorten",
    "tournament_command",
    "tournament_tables",
]
