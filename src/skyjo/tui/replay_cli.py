"""The records' commands: `skyjo replay` (a game record's scores, or with
`--watch` the game step by step on the terminal game's board) and `skyjo
review` (every decision of a game rated, `skyjo.analysis.review`). RULES.md 6."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from skyjo.commandline import (
    JsonFlag,
    console,
    fail,
    make_app,
    print_json,
    progress_bar,
    user_input,
)
from skyjo.engine import DRAW
from skyjo.replayer import Replay, replay, replay_summary

if TYPE_CHECKING:  # Rich is imported when a command prints a table
    from rich.table import Table

#: The records' commands, `skyjo replay` and `skyjo review`.
commands = make_app()


def replay_tables(summary: dict[str, Any]) -> list[Table | str]:
    """What `skyjo replay` prints (RULES.md 6): a table per round (ender, raw and
    final score of each player), then the totals, whether the game is over and
    the winners. `summary` is the `replay --json` document."""
    from rich.table import Table

    shown: list[Table | str] = []
    for number, rnd in enumerate(summary["rounds"], start=1):
        ender = rnd["ender"]
        if "scores" not in rnd:
            who = f"{ender} has ended it, last turns" if ender else "nobody has ended it yet"
            shown.append(f"Round {number}: in progress ({who})")
            continue
        table = Table(title=f"Round {number}, ended by {ender}")
        table.add_column("Player")
        table.add_column("Raw", justify="right")
        table.add_column("Score", justify="right")
        table.add_column("")
        for player, raw in rnd["raw"].items():
            score = rnd["scores"][player]
            note = ("ender, doubled" if score != raw else "ender") if player == ender else ""
            table.add_row(player, str(raw), str(score), note)
        shown.append(table)
    totals = Table(title="Totals")
    totals.add_column("Player")
    totals.add_column("Total", justify="right")
    totals.add_column("")
    for player, total in summary["totals"].items():
        totals.add_row(player, str(total), "winner" if player in summary["winners"] else "")
    shown.append(totals)
    shown.append(f"Finished: {'yes' if summary['finished'] else 'no, the game is in progress'}")
    shown.append(f"Winners: {', '.join(summary['winners']) or 'none yet'}")
    return shown


@commands.command("replay")
def replay_command(
    path: Annotated[
        str,
        typer.Argument(
            metavar="GAME.json", help="A game record (RULES.md 5); - reads standard input."
        ),
    ],
    as_json: JsonFlag = False,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Replay it step by step on the game's board (forward, back, a round); "
            "a game saved by skyjo play --save replays too.",
        ),
    ] = False,
    review: Annotated[
        bool,
        typer.Option(
            "--review",
            help="With --watch: rate every decision first (skyjo review) and mark each "
            "step with its label.",
        ),
    ] = False,
) -> None:
    """Replay a game record and show each round's scores, the totals and the winners."""
    if watch:
        watch_replay(path, as_json, review)
        return
    if review:
        fail("--review marks the steps of --watch; for the review alone: skyjo review GAME.json")
    from skyjo.match import load_game

    with user_input():
        replayed = replay(load_game(path))
        summary = replay_summary(replayed)
    if as_json:
        print_json(summary)
    else:
        out = console()
        for shown in replay_tables(summary):
            out.print(shown, soft_wrap=True)
        held = half_turn(replayed)
        if held:
            out.print(held, soft_wrap=True)


def watch_replay(path: str, as_json: bool, review: bool = False) -> None:
    """`skyjo replay --watch`: the record, step by step, in the terminal game's
    board; with `review`, each decision rated first (a progress bar) and marked."""
    from skyjo.match import load_game
    from skyjo.tui.replay import ReplayApp

    with user_input():
        if as_json:
            fail("--watch shows the game on the screen: it prints no JSON (drop --json)")
        if path == "-":
            fail("--watch reads the keyboard: give the record's file, not - (standard input)")
        record = load_game(path)
        reviewed = None
        if review:
            from skyjo.analysis.review import review as rate

            with progress_bar("Reviewing", unit="decisions") as bar:
                reviewed = rate(record, progress=bar)
        replay_app = ReplayApp(record, review=reviewed)
    replay_app.run()


def half_turn(replayed: Replay) -> str:
    """The sentence for a record that ends with a half turn (RULES.md 5), else ""."""
    state = replayed.state
    if state.held is None:
        return ""
    who = replayed.record.players[state.player]
    source = "the deck" if state.source == DRAW else "the discard pile"
    return f"{who} holds the {state.held} taken from {source}, not yet placed"


@commands.command("review")
def review_command(
    path: Annotated[
        str,
        typer.Argument(
            metavar="GAME.json",
            help="A game record (RULES.md 5) or a game saved by skyjo play --save; "
            "- reads standard input.",
        ),
    ],
    seat: Annotated[
        list[str] | None,
        typer.Option("--seat", metavar="NAME", help="Review this player only (repeat for more)."),
    ] = None,
    worlds: Annotated[
        int,
        typer.Option(
            help="Most sampled worlds per playout check of a choice worse than good "
            "(0: no checks).",
            min=0,
        ),
    ] = 200,
    as_json: JsonFlag = False,
) -> None:
    """Rate every decision of a game from the deciding player's view, with a
    label, the points lost and a reason; each player's accuracy and luck."""
    from skyjo.analysis.review import review
    from skyjo.analysis.tables import review_tables
    from skyjo.match import load_game

    with user_input():
        record = load_game(path)
        seats = None
        if seat:
            unknown = [name for name in seat if name not in record.players]
            if unknown:
                fail(
                    f"--seat {unknown[0]!r} is not a player of this game "
                    f"(players: {', '.join(record.players)})"
                )
            seats = [record.players.index(name) for name in seat]
        show = False if as_json else None
        with progress_bar("Reviewing", show=show, unit="decisions") as bar:
            reviewed = review(record, seats, worlds=worlds, progress=bar)
    if as_json:
        print_json(reviewed.to_dict())
        return
    out = console()
    for shown in review_tables(reviewed):
        out.print(shown, soft_wrap=True)
