"""English wording around a player's name, where the name may be "You" (the
terminal game's default human): `Ana wins` but `You win`, `Ana's score` but
`Your score`, so that no sentence reads "You's score" or "You deals"."""

from __future__ import annotations

#: The name that is the reader: the terminal game's default human.
YOU = "You"


def agree(name: str, singular: str, plural: str) -> str:
    """The verb for `name`: `Ana wins`, but `You win`."""
    return plural if name == YOU else singular


def possessive(name: str, *, within: bool = False) -> str:
    """`Ana's`, but `Your` for "You" (`your` `within` a sentence, after a colon)."""
    if name == YOU:
        return "your" if within else "Your"
    return f"{name}'s"


def within(name: str) -> str:
    """`name` inside a sentence: "you" for "You", any other name as written."""
    return "you" if name == YOU else name
