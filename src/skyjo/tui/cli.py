"""The terminal games' commands: `skyjo play` (humans against bots, the
full-screen game of `skyjo.tui.game`) and `skyjo watch` (bots told a line a
move, `skyjo.tui.watch`). RULES.md 6."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from skyjo.bots import bots_help
from skyjo.commandline import console, fail, make_app, user_input
from skyjo.rules import MAX_PLAYERS, MIN_PLAYERS, VARIANT, Rules

#: What the --bots options' help says of the bots.
BOTS_HELP = bots_help()

#: The terminal games' commands, `skyjo play` and `skyjo watch`.
commands = make_app()


#: The longest pause `skyjo watch --pace` or `skyjo play --pause` takes, in seconds.
MAX_PACE = 60.0


def check_pace(pace: float, option: str = "--pace") -> None:
    """Fail unless `option` is a number of seconds from 0 to `MAX_PACE` (not NaN)."""
    if not 0 <= pace <= MAX_PACE:
        fail(f"{option} takes 0 to {MAX_PACE:g} seconds, not {pace:g}")


def check_record_path(path: Path, option: str = "--record") -> None:
    """Fail before the game rather than after it if `option` names a folder or
    a file in a folder that does not exist: the check of `skyjo tournament --out`."""
    from skyjo.paths import check_writable

    with user_input():
        check_writable(path, option)


SeedOption = Annotated[
    int | None,
    typer.Option(
        help="Seed of the game (deals and bots); default: a fresh random one, shown at "
        "the end. A bot's author who knows the seed can work out the deals."
    ),
]
PenaltyOption = Annotated[
    str | None,
    typer.Option(help="The ender_penalty variant: positive (default), always or none."),
]
TargetOption = Annotated[
    int | None, typer.Option(help="Target score that ends the game (default 100).")
]


#: The option of each rule variant (`skyjo.rules.VARIANTS`) in the commands that take
#: the rules (`play`, `watch`), by variant: tests/test_variants.py checks each takes all.
VARIANT_OPTIONS: dict[str, str] = {"target_score": "--target", "ender_penalty": "--ender-penalty"}


def game_rules(**given: Any) -> Rules:
    """The rules of the variants' options (`VARIANT_OPTIONS`), by variant; one not
    given (None, or an empty word) is its default (RULES.md 2.10, 3)."""
    chosen = {name: value for name, value in given.items() if value not in ("", None)}
    return Rules.from_dict(chosen)


@commands.command("play")
def play_command(
    humans: Annotated[
        str | None,
        typer.Option(
            help="The human players' names, comma-separated (1 to 8, taking turns at this "
            "terminal), e.g. Ana,Ben. Default: one, You.",
            show_default=False,
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bot specs, one a seat after the humans, e.g. expected,search. Default: "
            "greedy,expected,search against one human, no bot for several; '' for none. "
            + BOTS_HELP,
            show_default=False,
        ),
    ] = None,
    seed: SeedOption = None,
    target: TargetOption = None,
    ender_penalty: PenaltyOption = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Keep the game in this file, written after every move."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Go on with the game saved in this file (by --save), and keep saving it "
            "there (or to --save)."
        ),
    ] = None,
    pause: Annotated[
        float, typer.Option(help=f"Seconds a bot waits before each move (0 to {MAX_PACE:g}).")
    ] = 0.6,
) -> None:
    """Play Skyjo in the terminal: 1 to 8 humans (hot-seat) against bots."""
    from skyjo.tui.game import GameApp
    from skyjo.tui.lineup import save_match

    with user_input():
        check_pace(pause, "--pause")
        variants = {"target_score": target, "ender_penalty": ender_penalty}
        match, path = new_or_resumed(humans, bots, seed, variants, save, resume)
        if path is not None:
            save_match(match, path)
    with match:
        GameApp(match, save=path, pause=pause).run()
    out = console()
    for line in game_summary(match, path):
        out.print(line, soft_wrap=True)


def new_or_resumed(
    humans: str | None,
    bots: str | None,
    seed: int | None,
    variants: dict[str, Any],
    save: Path | None,
    resume: Path | None,
) -> tuple[Any, Path | None]:
    """The match of `skyjo play` and the file to save it in (checked writable);
    `variants` holds the rule variants' options, by variant (None: not given)."""
    from skyjo.match import Match
    from skyjo.tui.lineup import lineup, load_match

    if resume is not None:
        given = [
            option
            for option, value in (
                ("--humans", humans),
                ("--bots", bots),
                ("--seed", seed),
                *((VARIANT_OPTIONS[name], value) for name, value in variants.items()),
            )
            if value is not None
        ]
        if given:
            fail(f"--resume goes on with the saved game's seats and rules: drop {given[0]}")
        path = save or resume
        check_record_path(path, "--save" if save else "--resume")
        return load_match(resume), path
    if save is not None:
        check_record_path(save, "--save")
    rules = game_rules(**variants)
    return Match(lineup(humans, bots), rules, seed), save


def game_summary(match: Any, path: Path | None) -> list[str]:
    """What `skyjo play` prints once the game's window is closed."""
    from skyjo.wording import agree

    names = match.names
    totals = ", ".join(
        f"{name} {total}" for name, total in zip(names, match.state.totals, strict=True)
    )
    if match.winners():
        best = " and ".join(names[seat] for seat in match.winners())
        verb = "share the win" if len(match.winners()) > 1 else agree(best, "wins", "win")
        lines = [f"Game over: {best} {verb}"]
        lines.append(f"Totals: {totals}")
        lines.append(f"Seed {match.secret} (play the same deals again with --seed {match.secret})")
        return lines
    lines = [f"The game is not finished (totals {totals})."]
    if match.stalled:
        lines = [f"The game stopped: {match.stalled}."]
    elif path is not None:
        lines.append(f"It is saved in {path}: skyjo play --resume {path} goes on with it.")
    return lines


@commands.command("watch")
def watch_command(
    bots: Annotated[
        str,
        typer.Option(
            help="Bot specs, one per seat, comma-separated (e.g. greedy,random). " + BOTS_HELP
        ),
    ] = "expected,greedy,basic,random",
    seed: SeedOption = None,
    target: Annotated[int, typer.Option(help="Target score that ends the game.")] = VARIANT[
        "target_score"
    ].default,  # type: ignore[assignment]
    ender_penalty: Annotated[str, typer.Option(help="positive, always or none.")] = VARIANT[
        "ender_penalty"
    ].default,  # type: ignore[assignment]
    pace: Annotated[
        float, typer.Option(help=f"Seconds to pause after each turn (0 to {MAX_PACE:g}).")
    ] = 0.0,
    record: Annotated[
        Path | None, typer.Option(help="Write the game record (RULES.md 5) to this file.")
    ] = None,
) -> None:
    """Watch bots play a whole game in the terminal, told a line a move."""
    from skyjo.bots import split_specs
    from skyjo.seeds import fresh_seed
    from skyjo.tui.watch import watch  # imports the bots only when needed

    with user_input():
        check_pace(pace)
        if record is not None:
            check_record_path(record)
        specs = split_specs(bots)
        rules = game_rules(target_score=target, ender_penalty=ender_penalty)
        if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
            fail(f"--bots takes {MIN_PLAYERS} to {MAX_PLAYERS} bots (one a seat), not {len(specs)}")
        match = watch(specs, fresh_seed() if seed is None else seed, rules, console(), pace)
    if record is not None:
        record.write_text(json.dumps(match.record()) + "\n")
