"""The `skyjo` command (RULES.md 6: the command-line contract), assembled.

Each package owns its commands as a Typer app (`skyjo.commandline.make_app`):
this module only says which package owns which command (`OWNERS`) and holds the
contract every command keeps. A package's commands are imported when one of
them runs (or `--help` lists them all), so `skyjo serve` imports no bot, no
simulation and no terminal app.

Every command accepts `--json` and then prints exactly one JSON document on
standard output; without it, it prints a readable Rich table.

Bad input, whether it is caught by a command (a `ValueError`, see
`skyjo.commandline.user_input`) or by the argument parser (a missing argument,
an unknown option, a bad choice), ends with exit status 2, exactly one line
`skyjo: error: <reason>` on standard error, and nothing on standard output
(RULES.md 6). `SkyjoGroup` enforces that for every command of `app`, so
commands added later get it for free.
"""

from __future__ import annotations

import functools
import io
import sys
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from typing import Any

import click
import typer
import typer.main
from typer.core import TyperGroup

from skyjo.commandline import APP_SETTINGS, BAD_INPUT, PROG, BadInput, console
from skyjo.render import visible

__all__ = ["OWNERS", "SkyjoGroup", "app", "console"]


# --------------------------------------------------------------------------
# Which package owns which command
# --------------------------------------------------------------------------


def _records() -> typer.Typer:
    from skyjo.tui.replay_cli import commands

    return commands


def _terminal_games() -> typer.Typer:
    from skyjo.tui.cli import commands

    return commands


def _simulations() -> typer.Typer:
    from skyjo.sim.cli import commands

    return commands


def _trainer() -> typer.Typer:
    from skyjo.train.cli import commands

    return commands


def _web_app() -> typer.Typer:
    from skyjo.web.cli import commands

    return commands


def _scorepad() -> typer.Typer:
    from skyjo.scorepad.cli import commands

    return commands


#: Each command of `skyjo`, in the order `skyjo --help` lists them, and the
#: package's commands it is one of (a function that imports them).
OWNERS: dict[str, Callable[[], typer.Typer]] = {
    "replay": _records,
    "play": _terminal_games,
    "watch": _terminal_games,
    "tournament": _simulations,
    "train": _trainer,
    "review": _records,
    "report": _simulations,
    "serve": _web_app,
    "scorepad": _scorepad,
    "score": _scorepad,
}


@functools.cache
def commands_of(owner: Callable[[], typer.Typer]) -> dict[str, click.Command]:
    """The Click commands of a package's Typer app, by name (made once)."""
    return dict(typer.main.get_group(owner()).commands)


class OwnedCommands(MutableMapping[str, click.Command]):
    """The commands of the `skyjo` group, each imported from its package
    (`OWNERS`) when first asked for: listing their names imports nothing."""

    def __init__(self, owners: dict[str, Callable[[], typer.Typer]]) -> None:
        self.owners = owners
        self.added: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name in self.added:
            return self.added[name]
        return commands_of(self.owners[name])[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self.added[name] = command

    def __delitem__(self, name: str) -> None:
        del self.added[name]

    def __iter__(self) -> Iterator[str]:
        yield from self.owners
        yield from (name for name in self.added if name not in self.owners)

    def __len__(self) -> int:
        return len(set(self.owners) | set(self.added))


# --------------------------------------------------------------------------
# Error handling shared by every command
# --------------------------------------------------------------------------


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
    Its commands are the packages' (`OwnedCommands`).
    """

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        owned = OwnedCommands(OWNERS)
        owned.update(self.commands)
        self.commands = owned

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


app = typer.Typer(
    name=PROG,
    help="Skyjo: rules engine, scorekeeper, bots and games (see RULES.md).",
    cls=SkyjoGroup,
    **APP_SETTINGS,
)


@app.callback()
def _main_callback() -> None:
    """Skyjo: rules engine, scorekeeper, bots and games (see RULES.md)."""
