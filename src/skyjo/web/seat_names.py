"""The names the server gives the seats of a web table, and the names it keeps
for them, so that a page never shows a made-up person and a bot is never taken
for a person, nor a person for a bot (docs/web-protocol.md, `POST /api/rooms`).

- A human seat nobody has taken is named "Seat N" (`free_name`, N its number
  from 1): the pages show it as "Seat N, free" in their language.
- A person who takes a seat without giving a name is "Player N" (`player_name`),
  unless someone held that seat before (a player the host removed, coming back):
  then the seat keeps its name.
- A bot is named from its level (`bot_name`): "Greedy bot", then "Greedy bot 2"
  and so on, the first that looks like no other name at the table.
- A person may not take a name of the server's (`reserved`): one that looks like
  a free seat's name or the pages' label of one ("Seat 3", "seat3", "Seat 3,
  free", "Platz 3, frei"), or one whose letters and digits begin with
  a bot level and "bot" ("Greedy bot", "greedy-BOT 7", "GreedyBot", "Gr\u0435\u0435dy bot"
  with Cyrillic e): looks compared by their UTS #39 skeletons, case and spaces
  aside. The reverse is allowed: a person named "Greedy" may sit beside "Greedy
  bot", whose name says it is a bot.
"""

from __future__ import annotations

from collections.abc import Iterable

from skyjo.names import clash, name_key, skeleton
from skyjo.rules import MAX_PLAYERS
from skyjo.web.settings import LADDER


def free_name(seat: int) -> str:
    """The name of human seat `seat` (from 0) while nobody has taken it."""
    return f"Seat {seat + 1}"


def player_name(seat: int) -> str:
    """The name of a person who takes seat `seat` (from 0) without giving one."""
    return f"Player {seat + 1}"


def bot_name(level: str, taken: Iterable[str]) -> str:
    """A bot of `level`'s name: "Greedy bot", else "Greedy bot 2", "Greedy bot 3"...,
    the first that looks like none of the names `taken`."""
    taken = tuple(taken)
    base = f"{level.capitalize()} bot"
    for number in range(1, MAX_PLAYERS + len(taken) + 2):
        name = base if number == 1 else f"{base} {number}"
        if clash(name, taken) is None:
            return name
    raise AssertionError("a table has fewer names than that")  # pragma: no cover


def _letters(name: str) -> str:
    """The letters and digits of a name's look: its case-folded skeleton
    (`skyjo.names.skeleton`), folded again, without spaces or punctuation."""
    return "".join(c for c in skeleton(name_key(name)).casefold() if c.isalnum())


#: The beginnings of the bots' names, as `_letters` reads them: "greedybot"...
_BOTS = tuple(_letters(f"{level} bot") for level in LADDER)
#: The names of free seats, as many as a table has.
_FREE = tuple(free_name(seat) for seat in range(MAX_PLAYERS))
#: How the pages label a free seat, in each of their languages (static/i18n.js,
#: "seat.freeName"; a test keeps them in step).
FREE_LABELS = ("Seat {n}, free", "Asiento {n}, libre", "Place {n}, libre", "Platz {n}, frei")
#: The free seats' names and labels, letters and digits alone: "seat3", "seat3free"...
_FREE_LETTERS = frozenset(
    _letters(shown)
    for seat in range(MAX_PLAYERS)
    for shown in (free_name(seat), *(label.format(n=seat + 1) for label in FREE_LABELS))
)


def reserved(name: str) -> bool:
    """Whether `name` (checked: `skyjo.names.check_name`) is the server's: it
    looks like a free seat's name or label in any language of the pages
    ("Seat 4, free", "seat4", "Platz 4 frei"), letters and digits alone, or
    begins as a bot's does."""
    letters = _letters(name)
    if letters in _FREE_LETTERS or clash(name, _FREE) is not None:
        return True
    return any(letters.startswith(bot) for bot in _BOTS)


__all__ = ["bot_name", "free_name", "player_name", "reserved"]
