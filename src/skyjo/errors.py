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

How kinds are declared and checked: each class declares the kinds it raises in
its class-level table `KINDS`, kind -> the names of its params, and may name in
`EXTRA` params any of its kinds may also carry (a sheet's `round`). A subclass
adds its own table to its parents' (`kinds()` merges them up the class tree).
`SkyjoError.__init__` refuses (`TypeError`: a bug, never the user's mistake) a
kind its class does not declare, or params whose keys are not the declared
names (give or take `EXTRA`). So the tables are the code's own list of every
kind: tests/test_error_kinds.py walks every subclass's `KINDS` and checks that
each language of the web client has a sentence for each, naming the same
params (but for the classes no page shows: `ScoringError`, which reaches the
scorepad only as a `SheetError`, `EngineError` and `LineupError`; a
`RecordError`, which the replay upload shows, is written from its own
"record.<kind>" sentences, or for a kind it carries on from another class, from
that class's), and that every raise site in src/ names a declared kind with its
params.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class SkyjoError(ValueError):
    """A refusal of the core: nothing changed. `str()` is the English sentence."""

    #: The kinds this class raises (its subclasses add theirs): kind -> param names.
    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: Params any kind of this class may carry besides its own.
    EXTRA: ClassVar[frozenset[str]] = frozenset()

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
