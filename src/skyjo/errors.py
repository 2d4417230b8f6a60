"""The errors the core raises: each carries its `kind` and `params` where it is raised.

`kind` is a stable snake_case id naming the sentence; `params` holds the facts the
sentence names, JSON-ready. An interface writes the sentence in its own language
from these two and never reads the English message (`str(error)`), which stays
for logs and the command line.

The hierarchy (every class a `SkyjoError`, so a `ValueError`):

- `skyjo.rules.RulesError`: rule options, numbers of players, decks;
- `skyjo.scoring.ScoringError`: grids, rounds and scoresheets that cannot be scored;
- `skyjo.match.MatchError`, with `NotYourTurn` and `MatchOver`: seats, names,
  moves out of turn, saved matches (and `skyjo.tui.lineup.LineupError`: the
  tables `skyjo play` cannot seat from its options);
- `skyjo.scorepad.sheet.SheetError` (with `round` and `player`): what a person
  entered on a scoresheet;
- `skyjo.scorepad.store.StoreError`, with `ConflictError`: sheets not found or
  changed elsewhere, databases this code cannot use.

Each class declares the kinds it raises in `KINDS` (kind -> the names of
its params; a subclass adds to its parents'), and in `EXTRA` the params any
of its kinds may also carry. A kind or params it does not declare are refused
where raised (`TypeError`: a bug, never the user's mistake), so the tables
are the code's own list of every kind, which tests/test_error_kinds.py holds
against the client's sentences and every raise site. A class may keep its
English sentences in `MESSAGES` (kind -> the sentence, its params in braces,
which declares them: `params_of`), and then raises one in a line:
`SheetError.of("title_too_long", max=100, length=120)`.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any, ClassVar, Self


class SkyjoError(ValueError):
    """A refusal of the core: nothing changed. `str()` is the English sentence."""

    #: The kinds this class raises (its subclasses add theirs): kind -> param names.
    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: Params any kind of this class may carry besides its own.
    EXTRA: ClassVar[frozenset[str]] = frozenset()
    #: The English sentence of some of its kinds (`of`), inherited like `KINDS`.
    MESSAGES: ClassVar[dict[str, str]] = {}

    def __init__(self, message: str, kind: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        declared = type(self).kinds()
        if kind not in declared:
            raise TypeError(f"{type(self).__name__} declares no kind {kind!r}")
        given = dict(params or {})
        names = set(declared[kind])
        if not names <= set(given) <= names | type(self).extra():
            raise TypeError(
                f"{type(self).__name__} {kind!r} takes params {sorted(names)}, not {sorted(given)}"
            )
        self.kind = kind
        self.params = given

    @classmethod
    def of(cls, kind: str, **params: Any) -> Self:
        """The error of `kind`, its message `MESSAGES[kind]` written with `params`
        (a missing one left in braces, for the constructor to refuse)."""
        message = cls._message(kind).format_map(_Unfilled(params))
        return cls(message, kind=kind, params=params)

    @classmethod
    def _message(cls, kind: str) -> str:
        for klass in cls.__mro__:
            if kind in klass.__dict__.get("MESSAGES", {}):
                return str(klass.__dict__["MESSAGES"][kind])
        raise TypeError(f"{cls.__name__} has no sentence for {kind!r}")

    @classmethod
    def kinds(cls) -> dict[str, tuple[str, ...]]:
        """Every kind this class may raise: its `KINDS` and its parents'."""
        merged: dict[str, tuple[str, ...]] = {}
        for klass in reversed(cls.__mro__):
            if isinstance(klass, type) and issubclass(klass, SkyjoError):
                merged.update(klass.__dict__.get("KINDS", {}))
        return merged

    @classmethod
    def extra(cls) -> frozenset[str]:
        """The params any kind of this class may carry besides its own (`EXTRA`, inherited)."""
        return frozenset().union(
            *(k.__dict__.get("EXTRA", frozenset()) for k in cls.__mro__ if k is not object)
        )


class _Unfilled(dict[str, Any]):
    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


def params_of(messages: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The `KINDS` a catalogue of sentences declares: each kind's params, the
    names in braces of its sentence, in order."""
    return {
        kind: tuple(
            dict.fromkeys(name for _, name, _, _ in string.Formatter().parse(sentence) if name)
        )
        for kind, sentence in messages.items()
    }
