"""The simulations' commands: `skyjo tournament` (bots against each other, many
games) and `skyjo report` (plots and a report of its results); the work is in
`skyjo.sim.commands`. RULES.md 6."""

from __future__ import annotations

from typing import Annotated

import typer

from skyjo.bots import bots_help
from skyjo.commandline import JsonFlag, console, make_app, print_json, user_input

#: The simulations' commands, `skyjo tournament` and `skyjo report`.
commands = make_app()


@commands.command("tournament")
def tournament_command(
    bots: Annotated[
        str,
        typer.Option(
            help="Bot specs, comma-separated, one a seat in order and cycled to fill the "
            "--players seats: A,B with --players 4 seats A, B, A, B (two against two); one "
            "bot against three is A,B,B,B. Seats rotate one place per game. "
            "With --study luck: the stronger bot, then the weaker. " + bots_help(),
            show_default=False,
        ),
    ],
    players: Annotated[
        int | None,
        typer.Option(
            help="Seats per game (default: one per bot given, at least 2), filled by "
            "cycling --bots: A,B at 4 players seats A, B, A, B; give every seat, A,B,B,B, "
            "for one bot against three. "
            "With --study luck, the largest player count (default 8)."
        ),
    ] = None,
    games: Annotated[int, typer.Option(help="Games to play (per player count in a study).")] = 1000,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of the whole tournament (default: a fresh one, shown at the end). "
            "A bot's author who knows the seed can work out every deal."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Worker processes (default: every core).")
    ] = None,
    backend: Annotated[str, typer.Option(help="local or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address, for --backend ray.")
    ] = None,
    engine: Annotated[
        str | None,
        typer.Option(
            help="reference or batch (compiled, for random, greedy, basic and expected; the same "
            "results). Default: batch when every bot allows it, else reference."
        ),
    ] = None,
    out: Annotated[
        str | None, typer.Option(help="Write the results (every game) to this JSON file.")
    ] = None,
    study: Annotated[
        str | None,
        typer.Option(help="luck: the stronger bot against n-1 weaker ones, n = 2..8."),
    ] = None,
    turn_sample: Annotated[
        int, typer.Option(help="Games whose per-turn score trajectories --out keeps.")
    ] = 100,
    as_json: JsonFlag = False,
) -> None:
    """Play many games between bots, seats rotated, and compare them (wins, scores, ratings)."""
    from skyjo.sim.commands import tournament_command as run_command
    from skyjo.sim.commands import tournament_tables

    with user_input():
        outcome = run_command(
            bots,
            players,
            games,
            seed,
            workers,
            backend,
            address,
            out,
            study,
            turn_sample,
            engine=engine,
        )
    if as_json:
        print_json(outcome.summary)
    else:
        shown = console()
        for item in tournament_tables(outcome, out):
            shown.print(item, soft_wrap=True)


@commands.command("report")
def report_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="RESULTS.json",
            help="Results of skyjo tournament --out (a tournament and/or a luck study).",
            show_default=False,
        ),
    ],
    out_dir: Annotated[str, typer.Option(help="Folder for the plots and report.md.")] = "report",
    as_json: JsonFlag = False,
) -> None:
    """Write plots (PNG and SVG) and a Markdown report from tournament results."""
    from skyjo.sim.commands import report_command as write

    with user_input():
        written = write(paths, out_dir)
    if as_json:
        print_json({"files": [str(path) for path in written]})
    else:
        console().print(f"Wrote {len(written)} files in {out_dir}: {written[-1]}", soft_wrap=True)
