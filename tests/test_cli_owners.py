"""`skyjo.cli` assembles the commands the packages own (`OWNERS`): every command
of a package's Typer app is listed with that package, and a command imports the
package that owns it, none of the others."""

from __future__ import annotations

import json
import subprocess
import sys

import typer.main

from skyjo.cli import OWNERS

#: The packages whose commands `skyjo.cli` assembles.
PACKAGES = ("skyjo.tui", "skyjo.sim", "skyjo.train", "skyjo.web", "skyjo.scorepad")


def test_every_command_a_package_owns_is_listed_with_its_owner() -> None:
    owners = {owner for owner in OWNERS.values()}
    for owner in owners:
        owned = set(typer.main.get_group(owner()).commands)
        listed = {name for name, listed_owner in OWNERS.items() if listed_owner is owner}
        assert owned == listed, owner.__name__


def imported_by(*args: str) -> list[str]:
    """The packages of `PACKAGES` that running `skyjo ARGS` imported."""
    script = (
        "import json, sys\n"
        "from skyjo.cli import app\n"
        "try:\n"
        f"    app({list(args)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(json.dumps([p for p in {PACKAGES!r} if p in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_a_command_imports_the_package_that_owns_it_alone() -> None:
    assert imported_by("score", "grid", "1 2 3 4", "1 2 3 4", "1 2 3 4", "--json") == [
        "skyjo.scorepad"
    ]
    assert imported_by("report", "--help") == ["skyjo.sim"]
    assert imported_by("nosuch") == []


def test_the_help_lists_every_package_s_commands() -> None:
    assert imported_by("--help") == list(PACKAGES)
