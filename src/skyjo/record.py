"""Game records: write, read and validate them (RULES.md 5).

A game record is the JSON document of RULES.md 5. This module turns an engine
`State` into one (`write_record`) and parses and checks the shape of one
(`read_record`, `load_record`). Replaying one through the engine, checking
every turn, is `skyjo.replayer` (`steps`, `replay`, `replay_summary`).

Every problem with a record raises `RecordError` (a `SkyjoError`, so a
`ValueError`), whose message is one line naming the round, the turn and the
reason, with the players' names, e.g. ``round 2, turn 7 (Ben): Ben cannot
flip [0, 1]: that card is already face up``, and whose `kind` and `params`
name the reason. Rounds and turns are counted from 1.

Decisions where RULES.md 5 is silent:

- Turns are numbered from 1 within each round; an error in the opening
  reveals says ``reveals`` instead of a turn number.
- Unknown keys are an error at every level (record, round, turn, rules).
- ``reveals`` and ``turns`` may be left out of a round (meaning none yet);
  ``seed`` may be ``null`` (meaning no seed). A record holds at least one round.
- A record may stop in the reveals: then the reveals of its last round list
  fewer players, and the last of them may turn up one position only; such a
  round has no turns and no round follows it.
- Player names are non-empty strings, not only whitespace, all different.
- Documents above `MAX_RECORD_BYTES` are refused before parsing; JSON with
  duplicate keys or with NaN/Infinity is malformed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Literal

from skyjo import engine
from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    EngineError,
    IllegalActionError,
    State,
)
from skyjo.errors import SkyjoError
from skyjo.names import NameRefused
from skyjo.rules import (
    COLS,
    GRID_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROWS,
    Rules,
    RulesError,
    check_deck,
    index_of,
    position,
)

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "Record",
    "RecordError",
    "RoundRecord",
    "Turn",
    "load_record",
    "read_record",
    "write_record",
]

#: The value of a record's `format` field (RULES.md 5).
FORMAT = "skyjo-record/1"
#: The largest record accepted, in bytes of JSON text (5 MB).
MAX_RECORD_BYTES = 5 * 1024 * 1024

#: The most digits a number of a record may have (a seed below 2**63 has 19).
MAX_NUMBER_DIGITS = 30
_RECORD_KEYS = ("format", "players", "rules", "seed", "rounds")
_ROUND_KEYS = ("deck", "reveals", "turns", "reshuffles")
_TURN_KEYS = ("player", "take", "swap", "flip")
_TAKES = ("deck", "discard")
_REVEALS_PER_PLAYER = 2


class RecordError(SkyjoError):
    """A game record that is malformed or does not replay (RULES.md 5, 6).

    `round` is the round concerned (from 1) or None for the record as a whole;
    `turn` the turn within that round (from 1), ``"reveals"`` for the opening
    reveals (RULES.md 2.3), or None; `player` the name of the player concerned
    (the one to act, or the one the turn names), if known. `str()` is one line:
    ``round 2, turn 7 (Ben): <reason>``. `kind` and `params` name the reason
    (`skyjo.errors`); each raise of this module gives them, and an illegal
    move carries the engine's (`engine.why_illegal`). `kind` is
    ``record_invalid`` only for an error built without one.
    """

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        # carried on: the rules' and the deck's (`RulesError`), the names'
        # (`NameRefused`), the engine's arguments (`EngineError`) and illegal moves
        # (`IllegalActionError`, from `engine.why_illegal`)
        **RulesError.KINDS,
        **NameRefused.KINDS,
        **EngineError.KINDS,
        **IllegalActionError.KINDS,
        # built without a kind, or a refusal without one (its sentence as `detail`)
        "record_invalid": (),
        "rules_invalid": ("detail",),
        "deck_invalid": ("detail",),
        "deal_refused": ("detail",),
        # reading: the file, the JSON and the document's shape (RULES.md 5)
        "file_unreadable": ("path", "detail"),
        "record_too_large": ("limit",),
        "json_invalid": ("detail",),
        "json_not_utf8": ("detail",),
        "record_not_object": ("type",),
        "record_unknown_key": ("keys", "known"),
        "format_missing": ("expected",),
        "format_unknown": ("format", "expected"),
        "players_missing": (),
        "players_not_list": ("value",),
        "seed_not_integer": ("value",),
        "rounds_missing": (),
        "rounds_not_list": ("value",),
        "round_not_object": ("type",),
        "round_unknown_key": ("keys", "known"),
        "deck_missing": (),
        "turns_not_list": ("value",),
        "half_turn_not_last": (),
        "reveals_not_list": ("value",),
        "reveals_too_many": ("count", "players"),
        "reveal_not_pair": ("player", "value"),
        "reveal_twice": ("player", "position"),
        "reveal_one_only": ("player",),
        "reveals_unfinished": ("done", "players", "followed_by"),
        "turn_not_object": ("type",),
        "turn_unknown_key": ("keys", "known"),
        "player_unknown": ("player", "players"),
        "take_missing": (),
        "take_unknown": ("take",),
        "swap_and_flip": (),
        "discard_not_put_back": (),
        "position_shape": ("value",),
        "position_off_grid": ("position", "rows", "columns"),
        "reshuffles_not_list": ("value",),
        "reshuffle_not_list": ("reshuffle", "value"),
        "reshuffle_not_card": ("reshuffle", "value"),
        # replaying (skyjo.replayer)
        "not_your_reveal": ("player",),
        "reveals_not_done": ("player",),
        "not_your_turn": ("named", "player"),
        "turn_after_round_over": ("ender",),
        "turn_after_game_over": ("ender",),
        "round_unfinished": ("round", "phase", "player", "ender"),
        "round_after_game_over": ("round", "totals", "target"),
        "reshuffle_missing": ("player", "reshuffle"),
        "reshuffle_unused": ("given", "used"),
        "reshuffle_not_discard_pile": (
            "reshuffle",
            "given",
            "expected",
            "card",
            "card_given",
            "card_expected",
        ),
        "reshuffle_refused": ("reshuffle", "detail"),
        "names_count": ("players", "names"),
    }
    #: `json_invalid` names the line and column when the parser knows them;
    #: `discard_not_put_back` names the seat when the engine refuses the move in
    #: play (a `Turn` built as a value), not when a record is read.
    EXTRA: ClassVar[frozenset[str]] = frozenset({"line", "column", "seat"})

    def __init__(
        self,
        reason: str,
        round: int | None = None,
        turn: int | str | None = None,
        player: str | None = None,
        *,
        kind: str = "record_invalid",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.reason = " ".join(reason.split())
        self.round = round
        self.turn = turn
        self.player = player
        super().__init__(self._message(), kind, params)

    def _message(self) -> str:
        where = []
        if self.round is not None:
            where.append(f"round {self.round}")
        if self.turn is not None:
            where.append(self.turn if isinstance(self.turn, str) else f"turn {self.turn}")
        place = ", ".join(where)
        if self.player is not None:
            place = f"{place} ({self.player})" if place else f"{self.player}"
        return f"{place}: {self.reason}" if place else self.reason

    def __str__(self) -> str:
        return self._message()


@dataclass(frozen=True, slots=True)
class _At:
    """Where in a record something is: builds `RecordError`s."""

    round: int | None = None
    turn: int | str | None = None
    player: str | None = None

    def error(self, reason: str, kind: str, params: Mapping[str, Any] | None = None) -> RecordError:
        return RecordError(reason, self.round, self.turn, self.player, kind=kind, params=params)

    def but(self, **changes: Any) -> _At:
        return replace(self, **changes)


# --- the record, as values --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a record (RULES.md 2.5, 5): what is taken, and where it goes.

    `take` is ``"deck"`` or ``"discard"``; exactly one of `swap` (exchange the
    card with that grid index) and `flip` (discard the drawn card and turn up
    that grid index, only after taking from the deck) is set, or neither in a
    *half turn*: the card is taken and not yet placed, which only the last
    turn of a record may be (RULES.md 5). `player`, when given, is checked
    against the player to act.
    """

    take: Literal["deck", "discard"]
    swap: int | None = None
    flip: int | None = None
    player: str | None = None

    @property
    def half(self) -> bool:
        """Whether the card is taken and not yet placed (RULES.md 5)."""
        return self.swap is None and self.flip is None

    def actions(self) -> tuple[int, ...]:
        """The engine actions of the turn: two, or one for a half turn."""
        source = DRAW if self.take == "deck" else TAKE_DISCARD
        if self.swap is not None:
            return source, SWAP + self.swap
        if self.flip is not None:
            return source, FLIP + self.flip
        return (source,)

    def to_dict(self) -> dict[str, Any]:
        """The turn as in RULES.md 5: ``{"take": "deck", "swap": [0, 2]}``."""
        data: dict[str, Any] = {}
        if self.player is not None:
            data["player"] = self.player
        data["take"] = self.take
        if self.swap is not None:
            data["swap"] = list(position(self.swap))
        if self.flip is not None:
            data["flip"] = list(position(self.flip))
        return data


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round of a record (RULES.md 5).

    `deck` is the 150 cards, top first (None: shuffled from the seed);
    `reveals` the grid indices each player turns up, in seat order; `turns`
    the turns in play order; `reshuffles` each new draw pile, top first.
    """

    deck: tuple[int, ...] | None
    reveals: tuple[tuple[int, ...], ...] = ()
    turns: tuple[Turn, ...] = ()
    reshuffles: tuple[tuple[int, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The round as in RULES.md 5 (`deck` left out when it is not known)."""
        data: dict[str, Any] = {}
        if self.deck is not None:
            data["deck"] = list(self.deck)
        data["reveals"] = [[list(position(k)) for k in pair] for pair in self.reveals]
        data["turns"] = [turn.to_dict() for turn in self.turns]
        data["reshuffles"] = [list(pile) for pile in self.reshuffles]
        return data


@dataclass(frozen=True, slots=True)
class Record:
    """A parsed, shape-checked game record (RULES.md 5). Build it with `read_record`."""

    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    seed: int | None = None
    rounds: tuple[RoundRecord, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of RULES.md 5 (`seed` only when there is one)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
        }
        if self.seed is not None:
            data["seed"] = self.seed
        data["rounds"] = [r.to_dict() for r in self.rounds]
        return data


# --- writing ------------------------------------------------------------------------


def write_record(state: State, players: Sequence[str]) -> dict[str, Any]:
    """The game record of `state` (RULES.md 5), with `players` as the names of the seats.

    Walks the engine's history: per round, the reveals (two per seat, in seat
    order), then each turn as its two actions; `NEXT_ROUND` separates rounds.
    Always writes `format`, `players`, `rules`, `seed` (when the state has one)
    and, per round, `deck`, `reveals`, `turns` and `reshuffles` (even empty),
    so that a replay never depends on a random number generator.

    A turn in progress (a card held between the two actions of a turn) is
    written as a half turn, with only its `take` (RULES.md 5), together with
    the reshuffle its draw caused, if any: replaying the record gives the
    player the same card to place.
    """
    names = _check_players(list(players) if not isinstance(players, str) else players, _At())
    if len(names) != state.num_players:
        raise RecordError(
            f"the game has {state.num_players} players but {len(names)} names were given",
            kind="names_count",
            params={"players": state.num_players, "names": len(names)},
        )
    per_round: list[list[int]] = [[]]
    for action in engine.history(state):
        if action == NEXT_ROUND:
            per_round.append([])
        else:
            per_round[-1].append(action)
    rounds = []
    for number, actions in enumerate(per_round):
        reveals_end = 0
        while reveals_end < len(actions) and REVEAL <= actions[reveals_end] < REVEAL + GRID_SIZE:
            reveals_end += 1
        opening = [a - REVEAL for a in actions[:reveals_end]]
        reveals = tuple(
            tuple(opening[i : i + _REVEALS_PER_PLAYER])
            for i in range(0, len(opening), _REVEALS_PER_PLAYER)
        )
        moves = actions[reveals_end:]
        turns = tuple(_turn_of(moves[i : i + 2]) for i in range(0, len(moves), 2))
        rounds.append(RoundRecord(state.decks[number], reveals, turns, state.reshuffles[number]))
    record = Record(tuple(names), state.rules, state.seed, tuple(rounds))
    return record.to_dict()


def _turn_of(actions: Sequence[int]) -> Turn:
    """The `Turn` of a source action (DRAW, TAKE_DISCARD) and a placement
    action, or of a source action alone (a half turn, RULES.md 5)."""
    take: Literal["deck", "discard"] = "deck" if actions[0] == DRAW else "discard"
    if len(actions) == 1:
        return Turn(take)
    placement = actions[1]
    if SWAP <= placement < SWAP + GRID_SIZE:
        return Turn(take, swap=placement - SWAP)
    return Turn(take, flip=placement - FLIP)


# --- reading ------------------------------------------------------------------------


def load_record(path: str | Path) -> Record:
    """Read and check the game record in the file `path` (RULES.md 5); ``-`` reads stdin."""
    if str(path) == "-":
        return read_record(sys.stdin.buffer.read(MAX_RECORD_BYTES + 1))
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(
            f"cannot read {path}: {error.strerror or error}",
            kind="file_unreadable",
            params={"path": str(path), "detail": str(error.strerror or error)},
        ) from error
    return read_record(data)


def read_record(data: str | bytes | Mapping[str, Any]) -> Record:
    """Parse a game record and check its shape (RULES.md 5).

    `data` is JSON text (str or bytes) or the already parsed object. Checks the
    format, the players (2 to 8 different names), the rules, the seed, and for
    every round its deck (the 150 cards, RULES.md 1; or a seed to shuffle it),
    its reveals (two different positions per player, RULES.md 2.3), its turns
    (one of the three moves of RULES.md 2.5) and its reshuffles. Whether the
    turns are legal is checked by `skyjo.replayer`. Raises `RecordError`.
    """
    if isinstance(data, str | bytes | bytearray):
        return _read_document(_parse_json(data))
    return _read_document(data)


def _parse_json(data: str | bytes | bytearray) -> Any:
    """Parse JSON text, refusing huge documents, duplicate keys and NaN/Infinity."""
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > MAX_RECORD_BYTES:
        raise RecordError(
            f"the record is too large: more than {MAX_RECORD_BYTES} bytes "
            f"({MAX_RECORD_BYTES // (1024 * 1024)} MB)",
            kind="record_too_large",
            params={"limit": MAX_RECORD_BYTES},
        )

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                raise ValueError(f"duplicate key {key!r}")
            obj[key] = value
        return obj

    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    def short_int(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
            raise ValueError(f"a number of {len(digits.lstrip('-'))} digits is too long")
        return int(digits)

    try:
        if not isinstance(data, str):
            data = bytes(data).decode("utf-8")  # strictly: no other encoding, no surrogates
        return json.loads(
            data, object_pairs_hook=no_duplicates, parse_constant=no_constant, parse_int=short_int
        )
    except json.JSONDecodeError as error:
        raise RecordError(
            f"the record is not valid JSON: {error.msg} at line {error.lineno}, "
            f"column {error.colno}",
            kind="json_invalid",
            params={"detail": error.msg, "line": error.lineno, "column": error.colno},
        ) from error
    except UnicodeDecodeError as error:
        raise RecordError(
            f"the record is not valid JSON: it is not UTF-8 text ({error})",
            kind="json_not_utf8",
            params={"detail": str(error)},
        ) from error
    except (ValueError, RecursionError) as error:
        raise RecordError(
            f"the record is not valid JSON: {error}",
            kind="json_invalid",
            params={"detail": str(error)},
        ) from error


def _read_document(document: Any) -> Record:
    """Check the top level of a record (RULES.md 5) and read its rounds."""
    at = _At()
    if not isinstance(document, Mapping):
        raise at.error(
            f"a game record must be a JSON object, not {_kind(document)}",
            "record_not_object",
            {"type": _kind(document)},
        )
    unknown = [key for key in document if key not in _RECORD_KEYS]
    if unknown:
        raise at.error(
            f"unknown key {_keys(unknown)} in the record (a record has {', '.join(_RECORD_KEYS)})",
            "record_unknown_key",
            {"keys": [_show(key) for key in unknown], "known": list(_RECORD_KEYS)},
        )
    if "format" not in document:
        raise at.error(
            f'the record has no "format": expected "{FORMAT}"',
            "format_missing",
            {"expected": FORMAT},
        )
    if document["format"] != FORMAT:
        raise at.error(
            f'unknown record format {_show(document["format"])}: expected "{FORMAT}"',
            "format_unknown",
            {"format": _show(document["format"]), "expected": FORMAT},
        )
    if "players" not in document:
        raise at.error('the record has no "players"', "players_missing")
    players = _check_players(document["players"], at)
    try:
        rules = Rules.from_dict(document.get("rules"))
    except (ValueError, TypeError) as error:
        raise at.error(
            f"bad rules: {error}",
            getattr(error, "kind", "rules_invalid"),
            getattr(error, "params", {"detail": str(error)}),
        ) from error
    seed = document.get("seed")
    if seed is not None and not _is_int(seed):
        raise at.error(
            f"the seed must be an integer, not {_show(seed)}",
            "seed_not_integer",
            {"value": _show(seed)},
        )
    rounds = document.get("rounds")
    if rounds is None:
        raise at.error('the record has no "rounds"', "rounds_missing")
    if not _is_list(rounds) or not rounds:
        raise at.error(
            f"rounds must be a list of at least one round, not {_show(rounds)}",
            "rounds_not_list",
            {"value": _show(rounds)},
        )
    read = tuple(
        _read_round(value, number, players, seed, number == len(rounds))
        for number, value in enumerate(rounds, start=1)
    )
    return Record(players, rules, seed, read)


def _check_players(value: Any, at: _At) -> tuple[str, ...]:
    """Players: a list of 2 to 8 different non-empty names (RULES.md 1)."""
    if not _is_list(value):
        raise at.error(
            f"players must be a list of names, not {_show(value)}",
            "players_not_list",
            {"value": _show(value)},
        )
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise at.error(
            f"Skyjo takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(value)}",
            "player_count",
            {"count": len(value), "min": MIN_PLAYERS, "max": MAX_PLAYERS},
        )
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise at.error(
                f"a player's name must be a non-empty string, not {_show(name)}",
                "name_empty",
                {"name": _show(name)},
            )
        if not _is_text(name):
            raise at.error(
                f"the player's name {_show(name)} holds a lone surrogate: it is not Unicode text",
                "name_surrogate",
                {"name": _show(name)},
            )
    repeated = sorted({name for name in value if value.count(name) > 1})
    if repeated:
        raise at.error(
            f"each player appears once, but {', '.join(repeated)} is repeated",
            "name_repeated",
            {"names": repeated},
        )
    return tuple(value)


def _read_round(
    value: Any, number: int, players: tuple[str, ...], seed: int | None, is_last: bool
) -> RoundRecord:
    """Check one round's shape: deck, reveals, turns, reshuffles (RULES.md 5)."""
    at = _At(round=number)
    if not isinstance(value, Mapping):
        raise at.error(
            f"a round must be an object with deck, reveals and turns, not {_kind(value)}",
            "round_not_object",
            {"type": _kind(value)},
        )
    unknown = [key for key in value if key not in _ROUND_KEYS]
    if unknown:
        raise at.error(
            f"unknown key {_keys(unknown)} in the round (a round has {', '.join(_ROUND_KEYS)})",
            "round_unknown_key",
            {"keys": [_show(key) for key in unknown], "known": list(_ROUND_KEYS)},
        )
    deck: tuple[int, ...] | None = None
    if "deck" in value:
        try:
            deck = check_deck(value["deck"])
        except ValueError as error:
            raise _refused(at, error, "deck_invalid") from error
    elif seed is None:
        raise at.error(
            "the round has no deck, and the record has no seed to shuffle one", "deck_missing"
        )
    turns_data = value.get("turns", [])
    if not _is_list(turns_data):
        raise at.error(
            f"turns must be a list of turns, not {_show(turns_data)}",
            "turns_not_list",
            {"value": _show(turns_data)},
        )
    reveals = _read_reveals(value.get("reveals", []), at, players, bool(turns_data), is_last)
    turns = tuple(
        _read_turn(turn, at.but(turn=t), players) for t, turn in enumerate(turns_data, start=1)
    )
    for t, turn in enumerate(turns[:-1] if is_last else turns, start=1):
        if turn.half:
            raise at.but(turn=t, player=turn.player).error(
                'the turn neither exchanges nor flips: give "swap": [row, col] or "flip" '
                "(only the very last turn of a record may be a half turn)",
                "half_turn_not_last",
            )
    reshuffles = _read_reshuffles(value.get("reshuffles", []), at)
    return RoundRecord(deck, reveals, turns, reshuffles)


def _read_reveals(
    value: Any, at: _At, players: tuple[str, ...], has_turns: bool, is_last: bool
) -> tuple[tuple[int, ...], ...]:
    """Reveals: per player in seat order, two different positions (RULES.md 2.3, 5).

    Only the last round of a record, with no turns, may stop in the middle of
    them: the last player listed may then have turned up one position only.
    """
    at = at.but(turn="reveals")
    if not _is_list(value):
        raise at.error(
            f"reveals must be a list with two positions per player, not {_show(value)}",
            "reveals_not_list",
            {"value": _show(value)},
        )
    if len(value) > len(players):
        raise at.error(
            f"the reveals list {len(value)} players, but the game has {len(players)}",
            "reveals_too_many",
            {"count": len(value), "players": len(players)},
        )
    reveals = []
    for seat, pair in enumerate(value):
        name = players[seat]
        here = at.but(player=name)
        if not _is_list(pair) or not 1 <= len(pair) <= _REVEALS_PER_PLAYER:
            raise here.error(
                f"{name} must turn up two positions, as [[row, col], [row, col]], "
                f"not {_show(pair)}",
                "reveal_not_pair",
                {"player": name, "value": _show(pair)},
            )
        positions = tuple(_read_position(p, here, f"{name}'s revealed position") for p in pair)
        if len(positions) == 2 and positions[0] == positions[1]:
            raise here.error(
                f"{name} turns up {_where(positions[0])} twice",
                "reveal_twice",
                {"player": name, "position": list(position(positions[0]))},
            )
        if len(positions) < _REVEALS_PER_PLAYER and seat + 1 < len(value):
            raise here.error(
                f"{name} turns up one card only, yet the next player reveals",
                "reveal_one_only",
                {"player": name},
            )
        reveals.append(positions)
    complete = len(reveals) == len(players) and all(len(p) == 2 for p in reveals)
    if not complete and (has_turns or not is_last):
        done = sum(len(p) == 2 for p in reveals)
        after = "turns follow" if has_turns else "a later round follows"
        raise at.error(
            f"only {done} of the {len(players)} players turned up their two cards, yet {after}",
            "reveals_unfinished",
            {
                "done": done,
                "players": len(players),
                "followed_by": "turns" if has_turns else "round",
            },
        )
    return tuple(reveals)


def _read_turn(value: Any, at: _At, players: tuple[str, ...]) -> Turn:
    """A turn: take the discard and exchange, or draw and exchange, or draw,
    discard and flip (RULES.md 2.5, 5), optionally naming its player."""
    if not isinstance(value, Mapping):
        raise at.error(
            f'a turn must be an object like {{"take": "deck", "swap": [0, 1]}}, not {_kind(value)}',
            "turn_not_object",
            {"type": _kind(value)},
        )
    unknown = [key for key in value if key not in _TURN_KEYS]
    if unknown:
        raise at.error(
            f"unknown key {_keys(unknown)} in a turn (a turn has {', '.join(_TURN_KEYS)})",
            "turn_unknown_key",
            {"keys": [_show(key) for key in unknown], "known": list(_TURN_KEYS)},
        )
    player = value.get("player")
    if "player" in value:
        if not isinstance(player, str) or player not in players:
            raise at.error(
                f"unknown player {_show(player)} (the players are {', '.join(players)})",
                "player_unknown",
                {"player": _show(player), "players": list(players)},
            )
        at = at.but(player=player)
    if "take" not in value:
        raise at.error(
            'the turn does not say what it takes: "take": "deck" or "discard"', "take_missing"
        )
    if not isinstance(value["take"], str) or value["take"] not in _TAKES:
        raise at.error(
            f'unknown take {_show(value["take"])}: a turn takes "deck" or "discard"',
            "take_unknown",
            {"take": _show(value["take"])},
        )
    take: Literal["deck", "discard"] = "deck" if value["take"] == "deck" else "discard"
    if "swap" in value and "flip" in value:
        raise at.error(
            "the turn both exchanges and flips: a turn does one or the other", "swap_and_flip"
        )
    if take == "discard" and "flip" in value:
        raise at.error(
            "the turn takes the discard and flips: a card taken from the discard pile "
            "must be exchanged, it may not be put back",
            "discard_not_put_back",
        )
    if "swap" in value:
        return Turn(
            take, swap=_read_position(value["swap"], at, "the exchanged position"), player=player
        )
    if "flip" in value:
        return Turn(
            take, flip=_read_position(value["flip"], at, "the flipped position"), player=player
        )
    return Turn(take, player=player)  # a half turn: `_read_round` checks that it is the last


def _read_position(value: Any, at: _At, what: str) -> int:
    """A grid position `[row, col]`, row 0-2, column 0-3 (RULES.md 2.1); its grid index."""
    if not _is_list(value) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise at.error(
            f"{what} must be [row, col], two integers, not {_show(value)}",
            "position_shape",
            {"value": _show(value)},
        )
    row, col = value
    if not (0 <= row < ROWS and 0 <= col < COLS):
        raise at.error(
            f"{what} [{row}, {col}] is off the grid "
            f"(rows 0 to {ROWS - 1}, columns 0 to {COLS - 1})",
            "position_off_grid",
            {"position": [row, col], "rows": ROWS, "columns": COLS},
        )
    return index_of(row, col)


def _read_reshuffles(value: Any, at: _At) -> tuple[tuple[int, ...], ...]:
    """Reshuffles: one list of card values per reshuffle, top first (RULES.md 2.7, 5)."""
    if not _is_list(value):
        raise at.error(
            f"reshuffles must be a list of lists of cards, not {_show(value)}",
            "reshuffles_not_list",
            {"value": _show(value)},
        )
    piles = []
    for number, pile in enumerate(value, start=1):
        if not _is_list(pile):
            raise at.error(
                f"reshuffle {number} must be a list of cards, not {_show(pile)}",
                "reshuffle_not_list",
                {"reshuffle": number, "value": _show(pile)},
            )
        for card in pile:
            if not _is_int(card):
                raise at.error(
                    f"reshuffle {number} holds {_show(card)}, not a card value",
                    "reshuffle_not_card",
                    {"reshuffle": number, "value": _show(card)},
                )
        piles.append(tuple(pile))
    return tuple(piles)


def _refused(at: _At, error: ValueError, fallback: str) -> RecordError:
    """A refusal of another module (a deck, the rules) at `at`, with its kind and
    params when it has them, else `fallback` with the sentence as `detail`."""
    kind = getattr(error, "kind", None)
    if kind is None:
        return at.error(str(error), fallback, {"detail": str(error)})
    return at.error(str(error), kind, getattr(error, "params", {}))


# --- small helpers ----------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: str) -> bool:
    """Whether `value` is Unicode text: no lone surrogate (\\ud800 escapes in JSON)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_list(value: Any) -> bool:
    return isinstance(value, list | tuple)


def _kind(value: Any) -> str:
    """A JSON-ish name for the type of `value`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if _is_list(value):
        return "a list"
    return f"a {type(value).__name__}"


def _show(value: Any, limit: int = 40) -> str:
    """`value` as short JSON for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _keys(keys: Sequence[Any]) -> str:
    return ", ".join(_show(key) for key in keys)


def _where(k: int) -> str:
    row, col = position(k)
    return f"[{row}, {col}]"
