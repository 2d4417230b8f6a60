"""The `skyjo` command (RULES.md 6: the command-line contract).

Every command accepts `--json` and then prints exactly one JSON document on
standard output; without it, it prints a readable Rich table.

Bad input, whether it is caught by our code (a `ValueError`, see `user_input`)
or by the argument parser (a missing argument, an unknown option, a bad choice),
ends with exit status 2, exactly one line `skyjo: error: <reason>` on standard
error, and nothing on standard output (RULES.md 6). `SkyjoGroup` enforces that
for every command of `app`, so commands added later get it for free: keep
their bodies short, do the work in library code, and wrap it in `user_input()`.
"""

from __future__ import annotations

import functools
import io
import json
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from skyjo.bots import bot_names
from skyjo.engine import DRAW
from skyjo.render import visible
from skyjo.replayer import Replay, replay, replay_summary
from skyjo.rules import ENDER_PENALTIES, MAX_PLAYERS, MIN_PLAYERS, Rules
from skyjo.scoring import CLEARED, GridScore, RoundScore, score_grid, score_round

if TYPE_CHECKING:  # Rich is imported when a command prints a table (`skyjo serve` never does)
    from rich.console import Console
    from rich.table import Table

#: What the --bots options' help says of the bots (docs/bots.md): the ladder, weakest
#: first, and `external` (a program of your own).
BOTS_HELP = f"The bots: {', '.join(bot_names())} (docs/bots.md)."

PROG = "skyjo"
#: Exit status for bad input (RULES.md 6).
BAD_INPUT = 2


# --------------------------------------------------------------------------
# Error handling shared by every command
# --------------------------------------------------------------------------


class BadInput(typer.TyperException):
    """Bad input found by a command: reported as one line, exit status 2 (RULES.md 6)."""

    exit_code = BAD_INPUT


def fail(reason: str) -> NoReturn:
    """Stop the command: bad input, reported as `skyjo: error: <reason>` (RULES.md 6)."""
    raise BadInput(reason)


@contextmanager
def user_input() -> Iterator[None]:
    """Turn any `ValueError` raised inside the block into the bad-input exit (RULES.md 6).

    Library code (scoring, rules, engine, records) reports bad input with
    `ValueError` subclasses whose message names what is wrong; this is the one
    place that turns them into the command-line contract.
    """
    try:
        yield
    except ValueError as error:
        raise BadInput(str(error) or type(error).__name__) from error


def _one_line(text: str) -> str:
    """`text` with every run of whitespace, newlines included, made one space."""
    return " ".join(text.split())


#: The longest word an error line echoes in full; a longer one (a pasted number,
#: a wrong argument) is cut in the middle by `_cut`.
MAX_ECHO = 200


def _cut(word: str) -> str:
    """`word`, or if longer than `MAX_ECHO` its start and end around its length:
    `'y99999...(5004 characters)...99999':`."""
    if len(word) <= MAX_ECHO:
        return word
    return f"{word[: MAX_ECHO // 2]}...({len(word)} characters)...{word[-MAX_ECHO // 4 :]}"


def report_error(error: typer.TyperException) -> None:
    """Print a bad-input or usage error as the single line of RULES.md 6.

    The line is safe to echo whatever the input: whitespace runs are one space,
    a very long word is cut (`_cut`), and control characters are shown escaped
    (`render.visible`: ESC as `\\x1b`), never sent to the terminal.
    """
    reason = _one_line(error.format_message()) or "bad input"
    ctx = getattr(error, "ctx", None)  # usage errors know the command they concern
    if ctx is not None and not isinstance(error, BadInput):
        reason = f"{reason.rstrip('.')} (see '{ctx.command_path} --help')"
    reason = visible(" ".join(_cut(word) for word in reason.split(" ")))
    sys.stdout.flush()
    sys.stderr.write(f"{PROG}: error: {reason}\n")
    sys.stderr.flush()


def replace_unencodable_output() -> None:
    """Let stdout and stderr write `?` for what their encoding cannot hold.

    A name may hold characters the terminal's encoding lacks (`Zoë` with
    `PYTHONIOENCODING=ascii`) or none can encode (a lone surrogate from an
    argument that is not valid UTF-8): text output shows a replacement
    character rather than ending with `UnicodeEncodeError`. `--json` output is
    ASCII whatever the names (`json.dumps` escapes the rest), so it stays valid.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


class SkyjoGroup(TyperGroup):
    """The top-level command group: every error becomes one line on stderr (RULES.md 6).

    Click/Typer normally print usage errors over several lines (usage, hint, a
    Rich panel). Here the group runs Typer in non-standalone mode, catches every
    `typer.TyperException` (which includes all Click usage errors and `BadInput`)
    and reports it with `report_error`, exit status 2. `--help` still works.
    Output never fails on a character it cannot encode (`replace_unencodable_output`).
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; exit 2 with one line on stderr on any bad input."""
        run = super().main
        if not standalone_mode:
            return run(args, prog_name, complete_var, False, windows_expand_args, **extra)
        replace_unencodable_output()
        try:
            code = run(args, prog_name or PROG, complete_var, False, windows_expand_args, **extra)
        except typer.TyperException as error:
            report_error(error)
            sys.exit(BAD_INPUT)
        except typer.Abort:
            sys.stderr.write(f"{PROG}: error: aborted\n")
            sys.exit(1)
        # Non-standalone mode returns the command's result (None) or the code of a
        # `typer.Exit` (for example 0 after --help).
        sys.exit(code if isinstance(code, int) else 0)


def make_app(name: str | None = None, help: str | None = None) -> typer.Typer:
    """A Typer app (top level or sub-app) with the project's settings."""
    return typer.Typer(
        name=name,
        help=help,
        cls=SkyjoGroup,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


app = make_app(PROG, "Skyjo: rules engine, scorekeeper, bots and games (see RULES.md).")
score_app = make_app("score", "Score a round of a physical game: one grid, or the round's scores.")
app.add_typer(score_app)


@app.callback()
def _main_callback() -> None:
    """Skyjo: rules engine, scorekeeper, bots and games (see RULES.md)."""


def print_json(document: Any) -> None:
    """Print exactly one JSON document on stdout (RULES.md 6, `--json`)."""
    sys.stdout.write(json.dumps(document) + "\n")


@functools.cache
def plain_console() -> type[Console]:
    """`PlainConsole`, a Rich console that shows control characters of the strings
    it prints escaped (`render.visible`: ESC as `\\x1b`), newlines and tabs
    excepted. (A class made on first use: Rich is imported then.)"""
    from rich.console import Console
    from rich.text import Text

    class PlainConsole(Console):
        def render_str(self, text: str, **options: Any) -> Text:
            """Rich's `render_str` (every string printed, table cells and titles
            included, passes here) of `text` with its control characters made visible."""
            return super().render_str(visible(text, keep="\n\t"), **options)

    return PlainConsole


def console() -> Console:
    """The Rich console every command prints on: the current stdout (tests swap
    it), no highlighting, no markup, no emoji codes and control characters
    escaped (`plain_console`), because names and labels come from the user and
    must show as written (`[/]`, `:smile:`). Style with `rich.text.Text`."""
    return plain_console()(file=sys.stdout, highlight=False, markup=False, emoji=False)


JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON document instead.")]


# --------------------------------------------------------------------------
# skyjo score grid
# --------------------------------------------------------------------------


#: A whole number as a person types it: an optional minus sign, ASCII `-` or the
#: typographic `\u2212` of RULES.md, then ASCII digits.
WHOLE_NUMBER = re.compile("[-\u2212]?[0-9]+")


#: The most digits (leading zeros aside) of a number read by `parse_whole_number`:
#: no card or score comes near, and Python's `int` refuses beyond 4,300.
MAX_DIGITS = 9


def parse_whole_number(text: str, what: str, expected: str) -> int:
    """`text` read as a whole number typed by a person (`WHOLE_NUMBER`), for the
    cards of `score grid` and the scores of `score round` alike.

    Nothing else is taken, though `int` would: no `+`, no `_` between digits, no
    digits of other scripts. Otherwise fail with `<what> is <text>: write
    <expected>`, or `<what> is too long a number` beyond `MAX_DIGITS` digits.
    """
    if not WHOLE_NUMBER.fullmatch(text):
        fail(f"{what} is {text!r}: write {expected}")
    digits = len(text.lstrip("-\u2212").lstrip("0"))
    if digits > MAX_DIGITS:
        fail(f"{what} is too long a number ({digits} digits)")
    return int(text.replace("\u2212", "-"))


def parse_card(text: str, row: int, col: int) -> int | None:
    """One card of a `score grid` row: a whole number, or `x` for a cleared card (RULES.md 6).

    `row` and `col` are the card's position from 0; a message names them from 1,
    as people count ("row 1, column 1" is the top left card).
    """
    if text in ("x", "X"):
        return CLEARED
    where = f"the card at row {row + 1}, column {col + 1}"
    return parse_whole_number(text, where, "a number or x")


def parse_rows(texts: Sequence[str]) -> list[list[int | None]]:
    """The rows of `score grid`, each a string of 4 space-separated cards (RULES.md 6).

    The command lets unknown options through so that a row may start with a
    negative card; a lone `--word` is reported here as the unknown option it is.
    """
    for text in texts:
        if text.startswith("--"):
            fail(f"No such option: {text.partition('=')[0]} (see '{PROG} score grid --help')")
    return [
        [parse_card(card, r, c) for c, card in enumerate(text.split())]
        for r, text in enumerate(texts)
    ]


def grid_table(grid: GridScore) -> Table:
    """A Rich table of a scored grid: one line per column (numbered from 1, as
    people count them), with its explanation."""
    from rich.table import Table

    table = Table(title="Grid score", show_footer=True)
    table.add_column("Column", footer="Total")
    table.add_column("Cards (top to bottom)")
    table.add_column("Cleared")
    table.add_column("Score", justify="right", footer=str(grid.total))
    table.add_column("Why")
    for column in grid.columns:
        cards = " / ".join("x" if card is CLEARED else str(card) for card in column.cards)
        cleared = "yes" if column.cleared else "no"
        table.add_row(str(column.index + 1), cards, cleared, str(column.score), column.explanation)
    return table


@score_app.command(
    "grid",
    context_settings={"ignore_unknown_options": True},  # so a row may start with "-2"
)
def score_grid_command(
    rows: Annotated[
        list[str],
        typer.Argument(
            metavar="ROW",
            help='The 3 rows, top to bottom, each 4 cards in quotes, e.g. "7 5 2 4"; '
            "write a cleared card as x.",
            show_default=False,
        ),
    ],
    as_json: JsonFlag = False,
) -> None:
    """Score one grid at the end of a round: columns of three equal cards clear (RULES.md 2.9)."""
    with user_input():
        grid = score_grid(parse_rows(rows))
    if as_json:
        print_json(grid.to_dict())
    else:
        console().print(grid_table(grid))


# --------------------------------------------------------------------------
# skyjo score round
# --------------------------------------------------------------------------


def parse_scores(pairs: Sequence[str]) -> dict[str, int]:
    """The `NAME=SCORE` arguments of `score round`, in the order given (seat order).

    A score holds no `=`, so a name may (`[link=https://x]y=3`).
    """
    raw: dict[str, int] = {}
    for pair in pairs:
        name, equals, value = pair.rpartition("=")
        name = name.strip()
        if not equals or not name:
            fail(f"{pair!r} is not NAME=SCORE (for example Ana=9)")
        if name in raw:
            fail(f"{name} is given twice")
        raw[name] = parse_whole_number(value.strip(), f"{name}'s score", "a whole number")
    return raw


def the_ender(enders: Sequence[str]) -> str:
    """The one `--ender` of `score round`: a round has one ender, so a second is refused
    rather than silently taking the last."""
    if len(enders) != 1:
        fail(f"--ender is given {len(enders)} times ({', '.join(enders)}): a round has one ender")
    return enders[0]


def round_table(result: RoundScore) -> Table:
    """A Rich table of a round: raw and final score of each player."""
    from rich.table import Table

    table = Table(title="Round score")
    table.add_column("Player")
    table.add_column("Raw", justify="right")
    table.add_column("Score", justify="right")
    table.add_column("")
    for player, raw in result.raw.items():
        note = ""
        if player == result.ender:
            note = "ender, doubled" if result.doubled else "ender"
        table.add_row(player, str(raw), str(result.scores[player]), note)
    return table


@score_app.command("round")
def score_round_command(
    pairs: Annotated[
        list[str],
        typer.Argument(
            metavar="NAME=SCORE",
            help="Each player's raw round score, in seat order, e.g. Ana=9 Ben=20 Cleo=14.",
            show_default=False,
        ),
    ],
    ender: Annotated[
        list[str],
        typer.Option(
            "--ender",
            metavar="NAME",
            help="The player who ended the round (once).",
            show_default=False,
        ),
    ],
    ender_penalty: Annotated[
        str,
        typer.Option(
            "--ender-penalty",
            metavar="|".join(ENDER_PENALTIES),
            help="The ender_penalty variant (RULES.md 2.10).",
        ),
    ] = "positive",
    as_json: JsonFlag = False,
) -> None:
    """Apply the ender's penalty to a round's raw scores (RULES.md 2.10)."""
    with user_input():
        result = score_round(parse_scores(pairs), the_ender(ender), ender_penalty)
    if as_json:
        print_json(result.to_dict())
    else:
        out = console()
        out.print(round_table(result))
        out.print(result.reason, soft_wrap=True)


# --------------------------------------------------------------------------
# skyjo replay
# --------------------------------------------------------------------------


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


@app.command("replay")
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
            from skyjo.sim.commands import progress_bar

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


# --------------------------------------------------------------------------
# skyjo play, skyjo watch (the work is in skyjo.tui)
# --------------------------------------------------------------------------


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


def game_rules(target: int | None, ender_penalty: str | None) -> Rules:
    """The rules of `--target` and `--ender-penalty` (RULES.md 2.10, 3)."""
    return Rules(
        target_score=100 if target is None else target,
        ender_penalty=ender_penalty or "positive",  # type: ignore[arg-type]
    )


@app.command("play")
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
        match, path = new_or_resumed(humans, bots, seed, target, ender_penalty, save, resume)
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
    target: int | None,
    ender_penalty: str | None,
    save: Path | None,
    resume: Path | None,
) -> tuple[Any, Path | None]:
    """The match of `skyjo play` and the file to save it in (checked writable)."""
    from skyjo.match import Match
    from skyjo.tui.lineup import lineup, load_match

    if resume is not None:
        given = [
            option
            for option, value in (
                ("--humans", humans),
                ("--bots", bots),
                ("--seed", seed),
                ("--target", target),
                ("--ender-penalty", ender_penalty),
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
    rules = game_rules(target, ender_penalty)
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


@app.command("watch")
def watch_command(
    bots: Annotated[
        str,
        typer.Option(
            help="Bot specs, one per seat, comma-separated (e.g. greedy,random). " + BOTS_HELP
        ),
    ] = "expected,greedy,basic,random",
    seed: SeedOption = None,
    target: Annotated[int, typer.Option(help="Target score that ends the game.")] = 100,
    ender_penalty: Annotated[str, typer.Option(help="positive, always or none.")] = "positive",
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
        rules = Rules(target_score=target, ender_penalty=ender_penalty)  # type: ignore[arg-type]
        if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
            fail(f"--bots takes {MIN_PLAYERS} to {MAX_PLAYERS} bots (one a seat), not {len(specs)}")
        match = watch(specs, fresh_seed() if seed is None else seed, rules, console(), pace)
    if record is not None:
        record.write_text(json.dumps(match.record()) + "\n")


# --------------------------------------------------------------------------
# skyjo tournament, skyjo report (the work is in skyjo.sim.commands)
# --------------------------------------------------------------------------


@app.command("tournament")
def tournament_command(
    bots: Annotated[
        str,
        typer.Option(
            help="Bot specs, comma-separated, one a seat in order and cycled to fill the "
            "--players seats: A,B with --players 4 seats A, B, A, B (two against two); one "
            "bot against three is A,B,B,B. Seats rotate one place per game. "
            "With --study luck: the stronger bot, then the weaker. " + BOTS_HELP,
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


@app.command("train")
def train_command(
    out: Annotated[str, typer.Option(help="Folder of the run's files.")] = "runs/best",
    players: Annotated[str, typer.Option(help="Table sizes played, comma-separated.")] = "2,3,4",
    base_games: Annotated[
        str, typer.Option(help="Games of `expected` against itself, per table size.")
    ] = "48000,4000,12000",
    iterations: Annotated[int, typer.Option(help="Stages of self-play after them.")] = 1,
    selfplay_games: Annotated[
        str, typer.Option(help="Games of each self-play stage, per table size.")
    ] = "4000,400,1600",
    selfplay_weight: Annotated[
        float, typer.Option(help="Weight of the self-play games' positions in training.")
    ] = 3.0,
    keep: Annotated[float, typer.Option(help="Chance that a position is kept.")] = 0.35,
    hidden: Annotated[int, typer.Option(help="Width of the network's layers.")] = 64,
    base_steps: Annotated[int, typer.Option(help="Minibatches of the first fit.")] = 4000,
    steps: Annotated[int, typer.Option(help="Minibatches of each later fit.")] = 2000,
    batch: Annotated[int, typer.Option(help="Positions a minibatch.")] = 4096,
    lr: Annotated[float, typer.Option(help="Adam's largest learning rate.")] = 2e-3,
    margin: Annotated[
        float, typer.Option(help="The evaluated bot's guard (best:margin=...).")
    ] = 0.03,
    depth: Annotated[str, typer.Option(help="The evaluated bot's depth (shallow, full).")] = (
        "shallow"
    ),
    eval_games: Annotated[int, typer.Option(help="Games of each evaluation (2p).")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the run.")] = 0,
    workers: Annotated[int, typer.Option(help="Processes playing games.")] = 2,
    threads: Annotated[int, typer.Option(help="PyTorch's threads.")] = 2,
    address: Annotated[
        str | None,
        typer.Option(help="A Ray cluster to play the games on ('local': a new local Ray)."),
    ] = None,
    resume: Annotated[bool, typer.Option(help="Go on after the folder's last stage.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Train the `best` bot's value by self-play on the kernel (docs/model-card.md)."""
    with user_input():
        try:
            from skyjo.train.command import train
            from skyjo.train.value_run import ValueConfig
        except ModuleNotFoundError as error:
            if error.name != "torch":
                raise
            raise ValueError("skyjo train needs PyTorch: pip install 'skyjo[train]'") from None

        def counts(text: str, option: str) -> tuple[int, ...]:
            return tuple(
                parse_whole_number(x, option, "whole numbers, comma-separated")
                for x in text.split(",")
            )

        config = ValueConfig(
            out=out,
            players=counts(players, "--players"),
            base_games=counts(base_games, "--base-games"),
            iterations=iterations,
            selfplay_games=counts(selfplay_games, "--selfplay-games"),
            selfplay_weight=selfplay_weight,
            keep=keep,
            hidden=hidden,
            base_steps=base_steps,
            steps=steps,
            batch=batch,
            lr=lr,
            margin=margin,
            depth=depth,
            eval_games=eval_games,
            seed=seed,
            workers=workers,
            threads=threads,
            address=address,
            resume=resume,
        )
        summary = train(config, show=not as_json)
    if as_json:
        print_json(summary)
    else:
        console().print(f"value: {summary['value']}")


@app.command("review")
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
    from skyjo.sim.commands import progress_bar

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


@app.command("report")
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


# --------------------------------------------------------------------------
# skyjo serve (the work is in skyjo.web)
# --------------------------------------------------------------------------


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy database URL (default: $SKYJO_DB, else a SQLite file "
            "in the user's data folder)."
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes sharing the port (PostgreSQL only: docs/deploy.md, "
            '"Several processes").'
        ),
    ] = 1,
) -> None:
    """Start the web app: play Skyjo in the browser, with friends, bots and spectators."""
    from skyjo.web.command import serve

    with user_input():
        serve(host=host, port=port, db=db, workers=workers)


# --------------------------------------------------------------------------
# skyjo scorepad (the work is in skyjo.scorepad)
# --------------------------------------------------------------------------


@app.command("scorepad")
def scorepad_command(
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy database URL (default: $SKYJO_DB, else the games' SQLite "
            "file in the user's data folder)."
        ),
    ] = None,
    sheet: Annotated[str | None, typer.Option(help="Open this scoresheet (its id).")] = None,
    listing: Annotated[bool, typer.Option("--list", help="List the scoresheets and exit.")] = False,
    export: Annotated[
        str | None, typer.Option(metavar="ID", help="Print this scoresheet and exit.")
    ] = None,
    fmt: Annotated[
        str | None, typer.Option("--format", help="With --export: json (default) or csv.")
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option("--import", help="Store a scoresheet exported as JSON; print its id."),
    ] = None,
    share: Annotated[
        str | None,
        typer.Option(
            metavar="ID", help="Print a read-only and an edit link to this scoresheet and exit."
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Keep the score of a game played with real cards: totals or 12 cards a player a round."""
    from skyjo.scorepad.command import open_app, scripted

    with user_input():
        output = scripted(db, listing, export, fmt, source, as_json, share)
        pad = open_app(db, sheet) if output is None else None
    if output is not None:
        sys.stdout.write(output)
    elif pad is not None:
        pad.run()  # type: ignore[attr-defined]
