"""Who sits at a terminal game's table, and saving the game to a file.

`lineup(humans, bots)` makes the seats: the humans first, in the order given,
then the bots, each named after its level (`Greedy`, `Expected`, `Search`,
numbered when repeated). `save_match` writes a match atomically (a temporary
file in the same folder, then `os.replace`), so a game killed at any moment
leaves the last move's file, whole; `load_match` reads it back.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from skyjo.bots import parse_spec, split_specs
from skyjo.match import Match, MatchError, Seat, check_name, check_seats
from skyjo.rules import MAX_PLAYERS, MIN_PLAYERS

#: One human, and three bots of increasing strength: `skyjo play` alone.
DEFAULT_HUMANS = ("You",)
DEFAULT_BOTS = ("greedy", "expected", "search")
MAX_HUMANS = 8


class LineupError(MatchError):
    """A table `skyjo play` cannot seat from its options (`--humans`, `--bots`,
    `--resume`): the terminal's own refusals, which no web page shows."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "humans_none": ("max",),
        "humans_empty_name": ("humans",),
        "humans_too_many": ("max", "count"),
        "table_size": ("min", "max", "count", "humans", "bots"),
        "resume_missing": ("path",),
        "resume_unreadable": ("path", "reason"),
        "resume_not_json": ("path", "reason"),
    }


def split_humans(humans: str) -> list[str]:
    """The names of `--humans`, comma-separated, each checked as a seat's name."""
    names = [name.strip() for name in humans.split(",")]
    if not any(names):
        raise LineupError(
            f"--humans takes 1 to {MAX_HUMANS} names, comma-separated (for example Ana,Ben)",
            "humans_none",
            {"max": MAX_HUMANS},
        )
    if not all(names):
        raise LineupError(
            f"--humans {humans!r} holds an empty name", "humans_empty_name", {"humans": humans}
        )
    if len(names) > MAX_HUMANS:
        raise LineupError(
            f"--humans takes 1 to {MAX_HUMANS} names, not {len(names)}",
            "humans_too_many",
            {"max": MAX_HUMANS, "count": len(names)},
        )
    return [check_name(name) for name in names]


def bot_names(specs: Sequence[str], taken: Sequence[str]) -> list[str]:
    """A name per bot: its level (`Search`), numbered when two bots share one
    (`Greedy 1`, `Greedy 2`), with ` (bot)` when a human has that name."""
    levels = [parse_spec(spec)[0].title() for spec in specs]
    counts = Counter(levels)
    seen: Counter[str] = Counter()
    names = []
    for level in levels:
        seen[level] += 1
        name = f"{level} {seen[level]}" if counts[level] > 1 else level
        names.append(f"{name} (bot)" if name in taken else name)
    return names


def lineup(humans: str | None, bots: str | None) -> list[Seat]:
    """The seats of `skyjo play --humans ... --bots ...` (see the module doc).

    No humans given: one, `You`. No bots given: the three of `DEFAULT_BOTS`
    for a single human, none for several (they play each other); `--bots ""`
    is no bot. 2 to 8 seats in all.
    """
    names = split_humans(humans) if humans is not None else list(DEFAULT_HUMANS)
    if bots is None:
        specs = list(DEFAULT_BOTS) if len(names) == 1 else []
    else:
        specs = split_specs(bots) if bots.strip() else []
    seats = [Seat(name) for name in names]
    seats += [Seat(name, spec) for name, spec in zip(bot_names(specs, names), specs, strict=True)]
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise LineupError(
            f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {len(seats)} "
            f"({_count(len(names), 'human')} and {_count(len(specs), 'bot')})",
            "table_size",
            {
                "min": MIN_PLAYERS,
                "max": MAX_PLAYERS,
                "count": len(seats),
                "humans": len(names),
                "bots": len(specs),
            },
        )
    return list(check_seats(seats))


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def save_match(match: Match, path: Path) -> None:
    """Write `match.to_dict()` to `path` atomically: a whole file or the old one."""
    document = json.dumps(match.to_dict()) + "\n"
    folder = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(document)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load_match(path: Path) -> Match:
    """The match saved in `path` by `save_match`; a `MatchError` names what is
    wrong (a `LineupError` for a file that cannot be read)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LineupError(
            f"--resume: there is no file {str(path)!r}", "resume_missing", {"path": str(path)}
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise LineupError(
            f"--resume: cannot read {str(path)!r}: {error}",
            "resume_unreadable",
            {"path": str(path), "reason": str(error)},
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LineupError(
            f"--resume: {str(path)!r} is not JSON ({error})",
            "resume_not_json",
            {"path": str(path), "reason": str(error)},
        ) from None
    return Match.from_dict(data)
