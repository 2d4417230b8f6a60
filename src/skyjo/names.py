"""The names of the seats of a table: what a name may hold, how it is written
(`check_name`), and when two names are the same (`name_key`).

The rules of a name are shared by everything that seats players: a match
(`skyjo.match`, which refuses a bad name with a `MatchError`), the web app's
rooms and the scorepad's sheets. They sit here, below all of them, so that a
score sheet needs neither the match nor the bots to check its players' names.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any, ClassVar

from skyjo.errors import SkyjoError

#: The longest seat name, in characters.
MAX_NAME = 40


class NameRefused(SkyjoError):
    """A name refused: `kind` names why (`name_empty`, `name_too_long`,
    `name_surrogate`, `name_control`, `name_invisible`, `name_combining`,
    `name_repeated`) and `params` the values its sentence names."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "name_empty": ("name",),
        "name_surrogate": ("name",),
        "name_too_long": ("max", "length"),
        "name_control": ("name",),
        "name_invisible": ("name", "code"),
        "name_combining": ("name", "code"),
        "name_repeated": ("names",),
    }


#: Characters that show nothing yet are letters or symbols (not format characters):
#: the Hangul fillers, the Mongolian vowel separator and the blank braille pattern.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u180e\u2800")


def check_name(name: Any) -> str:
    """A seat's name, normalised: NFC, without the spaces around it. Refused (a
    `NameRefused` whose `kind` names why) when it is not a string or empty once
    trimmed (`name_empty`), longer than `MAX_NAME` characters (`name_too_long`),
    or when it holds a lone surrogate (`name_surrogate`), a control character
    (Unicode Cc: `name_control`), a format or invisible character (Cf, such as
    U+200B or the right-to-left override U+202E; the line and paragraph
    separators Zl and Zp; `INVISIBLE`: `name_invisible`), or a combining mark
    with nothing before it to combine with (at the start, or after a space:
    `name_combining`)."""
    if not isinstance(name, str) or not name.strip():
        shown = f"{name!r:.60}"
        raise NameRefused(
            f"a seat's name must be a non-empty string, not {shown}", "name_empty", {"name": shown}
        )
    for char in name:
        if unicodedata.category(char) == "Cs":
            shown = f"{name!r:.60}"
            raise NameRefused(
                f"the name {shown} holds a lone surrogate: it is not text",
                "name_surrogate",
                {"name": shown},
            )
    name = unicodedata.normalize("NFC", name.strip())
    if len(name) > MAX_NAME:
        raise NameRefused(
            f"a seat's name has at most {MAX_NAME} characters, not {len(name)}",
            "name_too_long",
            {"max": MAX_NAME, "length": len(name)},
        )
    before = " "
    for char in name:
        category = unicodedata.category(char)
        if category == "Cc":
            raise NameRefused(
                f"the name {name!r} holds a control character", "name_control", {"name": repr(name)}
            )
        if category in ("Cf", "Zl", "Zp") or char in INVISIBLE:
            code = f"U+{ord(char):04X}"
            raise NameRefused(
                f"the name {name!r} holds an invisible or format character ({code})",
                "name_invisible",
                {"name": repr(name), "code": code},
            )
        if category.startswith("M") and unicodedata.category(before).startswith("Z"):
            code = f"U+{ord(char):04X}"
            raise NameRefused(
                f"the name {name!r} holds a combining mark ({code}) with nothing to combine with",
                "name_combining",
                {"name": repr(name), "code": code},
            )
        before = char
    return name


def name_key(name: str) -> str:
    """What two names are compared by: case-folded, compatibility forms
    merged (NFKC: "Ana" written in full-width letters is "ana") and runs of spaces made one,
    so that two seats of a table never look alike."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def check_names(names: Sequence[Any]) -> tuple[str, ...]:
    """Each name checked (`check_name`, normalised), and no two the same by
    `name_key` (`name_repeated`, naming the clashing spellings)."""
    checked = tuple(check_name(name) for name in names)
    groups: dict[str, list[str]] = {}
    for name in checked:
        groups.setdefault(name_key(name), []).append(name)
    clashes = [group for group in groups.values() if len(group) > 1]
    if clashes:
        shown = ", ".join(" / ".join(dict.fromkeys(group)) for group in clashes)
        raise NameRefused(
            f"each seat has its own name, but {shown} is repeated",
            "name_repeated",
            {"names": shown},
        )
    return checked


__all__ = ["INVISIBLE", "MAX_NAME", "NameRefused", "check_name", "check_names", "name_key"]
