"""The scoresheet of a physical game: players, rules, rounds, and their history.

Everything a page or a terminal needs goes in and out as plain, JSON-ready
values, and every number is scored by `skyjo.scoring` (`score_grid`,
`score_round`, `Scoresheet`): this module checks and keeps what people enter,
it does not score a second time.

A round is an ender and one entry per player (`skyjo.scorepad.entries`: a
round total or 12 cards, or text as a person types them). Exports (JSON and
CSV) and imports are `skyjo.scorepad.exports`'.

A `Sheet` is immutable. Its rounds are what its changes (add a round, edit
round n, delete round n) made of its first rounds (`base`, the rounds of an
imported sheet): `undo` drops the last change and everything is recomputed,
game over and the winners included. Every change is checked in full before
it counts; a mistake raises `SheetError` (a `skyjo.errors.SkyjoError`, defined
with the entries) naming the round, the player and what is wrong, and leaves
the sheet as it was.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skyjo.names import NameRefused, check_names
from skyjo.rules import CARD_COUNTS, VARIANTS, Rules, RulesError, check_player_count
from skyjo.scorepad.entries import SheetError, check_entry, entry_score, grid_explanation
from skyjo.scoring import (
    CLEARED,
    GridScore,
    RoundScore,
    Scoresheet,
    score_round,
    winners,
)

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_TITLE",
    "Round",
    "ScoredRound",
    "Sheet",
    "SheetError",
    "check_title",
    "make_rules",
]

#: The `format` and `version` of an exported sheet (JSON).
FORMAT = "skyjo-scoresheet"
FORMAT_VERSION = 1
#: The longest title of a sheet, in characters.
MAX_TITLE = 100


# --------------------------------------------------------------------------
# A round
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Round:
    """One checked round: who ended it and every player's canonical entry, in seat order."""

    ender: str
    entries: dict[str, dict[str, Any]] = field(hash=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"ender": "Ben", "entries": {"Ana": {"total": 9}, ...}}``, JSON-ready (copies)."""
        return {"ender": self.ender, "entries": json.loads(json.dumps(self.entries))}


@dataclass(frozen=True, slots=True)
class ScoredRound:
    """A round with its scores: `score` from `skyjo.scoring.score_round`, grids by player."""

    round: Round
    score: RoundScore
    grids: dict[str, GridScore] = field(hash=False)


# --------------------------------------------------------------------------
# The sheet
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Sheet:
    """A scoresheet: players in seat order, rules, title, first rounds and changes.

    Build one with `Sheet.new` (or `Sheet.from_dict` for an exported sheet);
    each change returns a new sheet. `rounds`, `scored` and `scoresheet` are
    computed from `base` and `changes` when the sheet is made.
    """

    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    title: str = ""
    base: tuple[Round, ...] = ()
    changes: tuple[dict[str, Any], ...] = ()
    #: A sheet read from a store: its players' names were checked when it was made,
    #: by the rules of that day (`check_name` has grown stricter since), and stay as written.
    saved: bool = field(default=False, compare=False, repr=False)
    rounds: tuple[Round, ...] = field(init=False, compare=False)
    scored: tuple[ScoredRound, ...] = field(init=False, compare=False, repr=False)
    scoresheet: Scoresheet = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", _check_players(self.players, self.saved))
        object.__setattr__(self, "title", check_title(self.title, self.saved))
        if not isinstance(self.rules, Rules):
            raise SheetError.of("rules_type", value=f"{self.rules!r:.40}")
        scored = tuple(self._score(r.to_dict(), n) for n, r in enumerate(self.base, start=1))
        scored = self._settle(scored)
        for change in self.changes:
            scored = self._apply(scored, change)
        object.__setattr__(self, "scored", scored)
        object.__setattr__(self, "rounds", tuple(s.round for s in scored))
        scores = tuple(s.score for s in scored)
        sheet = Scoresheet(self.players, self.rules.target_score, scores)
        object.__setattr__(self, "scoresheet", sheet)

    # --- making a sheet ---------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        title: str = "",
        *values: Any,
        **variants: Any,
    ) -> Sheet:
        """A sheet with no round yet: 2 to 8 different names, a title, the rules
        (`make_rules`: the variants' values in order, or by name)."""
        return cls(tuple(players), make_rules(*values, **variants), title)

    @classmethod
    def from_dict(cls, data: Any) -> Sheet:
        """The sheet of an exported JSON document (`to_dict`); its `summary` is
        recomputed, not read. The imported rounds have no history to undo."""
        if not isinstance(data, Mapping):
            raise SheetError.of("not_an_object", type=type(data).__name__)
        if data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise SheetError.of("not_a_scoresheet", format=FORMAT, version=FORMAT_VERSION)
        known = {"format", "version", "title", "players", "rules", "rounds", "summary"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SheetError.of("unknown_key", key=repr(unknown[0]))
        rules = data.get("rules") or {}
        if not isinstance(rules, Mapping):
            raise SheetError.of("rules_not_object")
        rounds = data.get("rounds", [])
        if not isinstance(rounds, list):
            raise SheetError.of("rounds_not_list")
        sheet = cls.new(
            _players_list(data.get("players")),
            data.get("title", ""),
            **{variant.name: rules[variant.name] for variant in VARIANTS if variant.name in rules},
        )
        base = tuple(sheet.check_round(r, n) for n, r in enumerate(rounds, start=1))
        return cls(sheet.players, sheet.rules, sheet.title, base)

    # --- changes ------------------------------------------------------------

    def add_round(self, data: Any) -> Sheet:
        """The sheet with one more round (see `check_round` for `data`)."""
        return self._changed({"op": "add", "round": data})

    def edit_round(self, number: int, data: Any) -> Sheet:
        """The sheet with round `number` (1-based) replaced; the rest is recomputed."""
        return self._changed({"op": "edit", "number": number, "round": data})

    def delete_round(self, number: int) -> Sheet:
        """The sheet without round `number` (1-based); later rounds move up one."""
        return self._changed({"op": "delete", "number": number})

    def undo(self) -> Sheet:
        """The sheet as it was before its last change."""
        if not self.changes:
            raise SheetError.of("nothing_to_undo")
        return self._with(self.changes[:-1])

    def redo(self, change: dict[str, Any]) -> Sheet:
        """The sheet with `change`, a change `undo` took off, made again (checked
        again in full: a sheet edited since may refuse it)."""
        return self._changed(change)

    def renamed(self, title: str) -> Sheet:
        """The same sheet under another title (not a change to undo)."""
        return Sheet(self.players, self.rules, title, self.base, self.changes, self.saved)

    @property
    def can_undo(self) -> bool:
        return bool(self.changes)

    def _changed(self, change: dict[str, Any]) -> Sheet:
        """The sheet with `change` (checked in full) as its last change."""
        scored = self._apply(self.scored, change)  # raises before anything counts
        canonical = dict(change)
        if "round" in change:
            canonical["round"] = scored[_index(change, scored)].round.to_dict()
        return self._with((*self.changes, canonical))

    def _with(self, changes: tuple[dict[str, Any], ...]) -> Sheet:
        return Sheet(self.players, self.rules, self.title, self.base, changes, self.saved)

    def _apply(self, scored: tuple[ScoredRound, ...], change: Any) -> tuple[ScoredRound, ...]:
        """`scored` after one change: ``add``, ``edit`` (number) or ``delete`` (number)."""
        if not isinstance(change, Mapping) or change.get("op") not in ("add", "edit", "delete"):
            raise SheetError.of("change_shape", value=f"{change!r:.60}")
        op = change["op"]
        rounds = list(scored)
        if op == "add":
            if self._finished(scored):
                raise SheetError.of("game_over", target=self.rules.target_score)
            rounds.append(self._score(change.get("round"), len(rounds) + 1))
            return tuple(rounds)
        number = _round_number(change.get("number"), len(rounds))
        if op == "edit":
            rounds[number - 1] = self._score(change.get("round"), number)
        else:
            del rounds[number - 1]
        return self._settle(tuple(rounds), number)

    def _settle(
        self, scored: tuple[ScoredRound, ...], changed: int | None = None
    ) -> tuple[ScoredRound, ...]:
        """`scored`, unless the game is over before its last round (`changed`:
        the round whose change made `scored`, None for imported rounds)."""
        totals = dict.fromkeys(self.players, 0)
        for number, one in enumerate(scored, start=1):
            if number > 1 and any(t >= self.rules.target_score for t in totals.values()):
                after = number - 1  # the round the game ends with: the one to point at
                if changed is None:
                    raise SheetError.of("over_before_round", round=after, after=after, next=number)
                raise SheetError.of(
                    "change_ends_game", round=after, changed=changed, after=after, next=number
                )
            for player, score in one.score.scores.items():
                totals[player] += score
        return scored

    def _finished(self, scored: Sequence[ScoredRound]) -> bool:
        totals = [sum(s.score.scores[p] for s in scored) for p in self.players]
        return any(total >= self.rules.target_score for total in totals)

    # --- checking a round ---------------------------------------------------

    def check_round(self, data: Any, number: int | None = None) -> Round:
        """`data` (``{"ender": name, "entries": {name: entry}}``) checked as
        round `number` of this sheet: every entry (`check_entry`), an ender
        who is a player with an entry, an entry for every player, and no more
        of a value in the round's cards than the deck holds."""
        return self._score(data, number).round

    def preview(self, data: Any, number: int | None = None) -> ScoredRound:
        """`data` checked as round `number` (`check_round`) and scored, for a
        form to show the round's scores and the ender's penalty before saving."""
        return self._score(data, number)

    def _score(self, data: Any, number: int | None) -> ScoredRound:
        """`data` checked (`check_round`) and scored by `score_round` and `score_grid`."""
        where = f"round {number}: " if number else ""
        try:
            return self._score_checked(data)
        except SheetError as error:
            params = {**error.params, "round": number} if number else error.params
            raise SheetError(
                f"{where}{error}",
                round=number,
                player=error.player,
                kind=error.kind,
                params=params,
            ) from error

    def _score_checked(self, data: Any) -> ScoredRound:
        if not isinstance(data, Mapping) or set(data) - {"ender", "entries"}:
            raise SheetError.of("round_shape")
        given = data.get("entries") or {}
        if not isinstance(given, Mapping):
            raise SheetError.of("entries_shape")
        given = {_as_name(name): entry for name, entry in given.items()}
        for name in given:
            if name not in self.players:
                raise SheetError.of("not_a_player", name=f"{name!r:.60}")
        entries = {p: check_entry(given.get(p), p) for p in self.players}
        ender = _as_name(data.get("ender"))
        if ender is None or ender == "":
            raise SheetError.of("no_ender")
        if ender not in self.players:
            raise SheetError.of("ender_not_player", name=f"{ender!r:.60}")
        if entries[ender] is None:
            raise SheetError.of("ender_no_entry", player=ender)
        for player, entry in entries.items():
            if entry is None:
                raise SheetError.of("no_entry", player=player)
        return self._scored_round(Round(ender, entries))  # type: ignore[arg-type]

    def _scored_round(self, one: Round) -> ScoredRound:
        grids: dict[str, GridScore] = {}
        raw: dict[str, int] = {}
        for player, entry in one.entries.items():
            raw[player], grid = entry_score(entry, player)
            if grid is not None:
                grids[player] = grid
        _check_round_cards(grids)
        # names, totals, the ender and the rules are checked: `score_round` takes them
        score = score_round(raw, one.ender, self.rules.ender_penalty)
        return ScoredRound(one, score, grids)

    # --- reading ------------------------------------------------------------

    @property
    def totals(self) -> dict[str, int]:
        return self.scoresheet.totals

    @property
    def finished(self) -> bool:
        return self._finished(self.scored)

    @property
    def winners(self) -> list[str]:
        return self.scoresheet.winners

    @property
    def leaders(self) -> list[str]:
        """The players with the lowest total so far (none before the first round)."""
        return winners(self.totals) if self.scored else []

    def to_target(self) -> dict[str, int]:
        """Per player, the points left before reaching the target (0 or less: reached)."""
        return {p: self.rules.target_score - t for p, t in self.totals.items()}

    def summary(self) -> dict[str, Any]:
        """Everything a page shows, JSON-ready: each round with every player's
        entry, raw and final score, grid explained column by column, the
        ender's penalty in words and the running totals; then the totals, the
        leaders, the distance to the target, game over and the winners."""
        running = self.scoresheet.running_totals
        return {
            "rounds": [
                _round_summary(n, s, totals)
                for n, (s, totals) in enumerate(zip(self.scored, running, strict=True), start=1)
            ],
            "totals": self.totals,
            "leaders": self.leaders,
            "to_target": self.to_target(),
            "finished": self.finished,
            "winners": self.winners,
        }

    def to_dict(self) -> dict[str, Any]:
        """The exported sheet (JSON-ready): what `from_dict` reads back, plus its summary."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "title": self.title,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "rounds": [one.to_dict() for one in self.rounds],
            "summary": self.summary(),
        }


def _round_summary(number: int, scored: ScoredRound, totals: dict[str, int]) -> dict[str, Any]:
    """One round of `Sheet.summary`."""
    score = scored.score
    players = {}
    for player, entry in scored.round.entries.items():
        grid = scored.grids.get(player)
        players[player] = {
            "entry": json.loads(json.dumps(entry)),
            "raw": score.raw[player],
            "score": score.scores[player],
            "grid": None if grid is None else grid.to_dict(),
            "explanation": "" if grid is None else grid_explanation(grid),
        }
    return {
        "number": number,
        "ender": score.ender,
        "doubled": score.doubled,
        "reason": score.reason,
        "explain": score.facts,
        "players": players,
        "totals": totals,
    }


def _check_round_cards(grids: Mapping[str, GridScore]) -> None:
    """The round's grids come from one deck: no more of a value than it holds (RULES.md 1)."""
    counts = Counter(
        card
        for grid in grids.values()
        for column in grid.columns
        for card in column.cards
        if card is not CLEARED
    )
    for value, count in sorted(counts.items()):
        if count > CARD_COUNTS[value]:
            raise SheetError.of("round_too_many", count=count, value=value, deck=CARD_COUNTS[value])


def _index(change: Mapping[str, Any], scored: Sequence[ScoredRound]) -> int:
    """The index in `scored` of the round a checked add or edit wrote."""
    return len(scored) - 1 if change["op"] == "add" else change["number"] - 1


def _round_number(number: Any, count: int) -> int:
    """A round number from 1 to `count`."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= count:
        if count:
            raise SheetError.of("no_such_round", number=f"{number!r:.20}", count=count)
        raise SheetError.of("no_round_yet", number=f"{number!r:.20}")
    return number


# --------------------------------------------------------------------------
# Players, title, rules
# --------------------------------------------------------------------------


def _players_list(players: Any) -> list[str]:
    if not isinstance(players, list | tuple):
        raise SheetError.of("players_not_list", value=f"{players!r:.40}")
    return list(players)


def _check_players(players: Sequence[Any], saved: bool = False) -> tuple[str, ...]:
    """2 to 8 different names, each a valid seat name, normalised
    (`skyjo.names.check_names`: no two the same once case-folded, nor alike by
    their UTS #39 skeletons); `saved`: the
    names of a stored sheet, kept as written once they are 2 to 8 different
    strings (they were checked when the sheet was made)."""
    players = tuple(_players_list(players))
    try:
        check_player_count(len(players))
    except RulesError as error:  # player_count
        raise SheetError(str(error), kind=error.kind, params=error.params) from error
    names_as_written = all(isinstance(p, str) and p.strip() for p in players)
    if saved and names_as_written and len(set(players)) == len(players):
        return players
    try:
        return check_names(players)
    except NameRefused as error:  # one of NAME_KINDS
        message = str(error)
        if error.kind == "name_repeated":
            message = f"each player has their own name, but {error.params['names']} is repeated"
        elif error.kind == "name_confusable":
            name, other = error.params["name"], error.params["other"]
            message = (
                f"the name {name} looks like {other}, another player's: "
                "choose one that cannot be mistaken for it"
            )
        raise SheetError(message, kind=error.kind, params=error.params) from error


def _as_name(name: Any) -> Any:
    """A name as a form or a file gives it, written as `check_name` keeps names
    (NFC, no spaces around), so that it finds its player."""
    return unicodedata.normalize("NFC", name.strip()) if isinstance(name, str) else name


def check_title(title: Any, saved: bool = False) -> str:
    """A title: text of at most `MAX_TITLE` characters once trimmed, without a
    control character (Cc), a lone surrogate, a format character (Cf: a
    right-to-left override, a zero-width space) or a line or paragraph
    separator (Zl, Zp); `saved`: a stored sheet's title, checked as when it was
    made (Cc and surrogates only)."""
    if not isinstance(title, str):
        raise SheetError.of("title_not_text", value=f"{title!r:.40}")
    title = title.strip()
    if len(title) > MAX_TITLE:
        raise SheetError.of("title_too_long", max=MAX_TITLE, length=len(title))
    refused = ("Cc", "Cs") if saved else ("Cc", "Cs", "Cf", "Zl", "Zp")
    if any(unicodedata.category(char) in refused for char in title):
        raise SheetError.of("title_control", title=f"{title!r:.60}")
    return title


def make_rules(*values: Any, **variants: Any) -> Rules:
    """`Rules` of the variants' `values`, in `skyjo.rules.VARIANTS`' order, and of
    `variants` by name (a variant not given: its default), or a `SheetError` saying why not."""
    try:
        if len(values) > len(VARIANTS):
            raise TypeError(f"{len(values)} values for {len(VARIANTS)} rule variants")
        named = {variant.name: value for variant, value in zip(VARIANTS, values, strict=False)}
        return Rules.from_dict(named | variants)
    except RulesError as error:
        raise SheetError(str(error), kind=error.kind, params=error.params) from error
