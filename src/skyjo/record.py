"""Game records: write, read, validate and replay them (RULES.md 5).

A game record is the JSON document of RULES.md 5. This module turns an engine
`State` into one (`write_record`), parses and checks the shape of one
(`read_record`, `load_record`), replays it through the engine, checking every
turn (`replay`), and sums it up in the `skyjo replay --json` shape of
RULES.md 6 (`replay_summary`).

Every problem with a record raises `RecordError` (a `ValueError`), whose
message is one line naming the round, the turn and the reason, with the
players' names, e.g. ``round 2, turn 7 (Ben): Ben cannot flip [0, 1]: that
card is already face up``. Rounds and turns are counted from 1.

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
- When a record has a seed and a deck (or a reshuffle) is exactly what the
  engine would have shuffled from its key, the replay lets the engine shuffle,
  so that the replayed state, the key included, equals the state of the game
  that was played; a game resumed from its record thus goes on as it would
  have.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from skyjo import engine
from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    IllegalActionError,
    Phase,
    RoundResult,
    State,
)
from skyjo.rules import (
    COLS,
    GRID_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROWS,
    Rules,
    check_deck,
    index_of,
    position,
)
from skyjo.scoring import winners

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "Record",
    "RecordError",
    "Replay",
    "RoundRecord",
    "RoundSummary",
    "Turn",
    "load_record",
    "read_record",
    "replay",
    "replay_summary",
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


class RecordError(ValueError):
    """A game record that is malformed or does not replay (RULES.md 5, 6).

    `round` is the round concerned (from 1) or None for the record as a whole;
    `turn` the turn within that round (from 1), ``"reveals"`` for the opening
    reveals (RULES.md 2.3), or None; `player` the name of the player concerned
    (the one to act, or the one the turn names), if known. `str()` is one line:
    ``round 2, turn 7 (Ben): <reason>``.
    """

    def __init__(
        self,
        reason: str,
        round: int | None = None,
        turn: int | str | None = None,
        player: str | None = None,
    ) -> None:
        self.reason = " ".join(reason.split())
        self.round = round
        self.turn = turn
        self.player = player
        super().__init__(self._message())

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

    def error(self, reason: str) -> RecordError:
        return RecordError(reason, self.round, self.turn, self.player)

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
            f"the game has {state.num_players} players but {len(names)} names were given"
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
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from error
    return read_record(data)


def read_record(data: str | bytes | Mapping[str, Any]) -> Record:
    """Parse a game record and check its shape (RULES.md 5).

    `data` is JSON text (str or bytes) or the already parsed object. Checks the
    format, the players (2 to 8 different names), the rules, the seed, and for
    every round its deck (the 150 cards, RULES.md 1; or a seed to shuffle it),
    its reveals (two different positions per player, RULES.md 2.3), its turns
    (one of the three moves of RULES.md 2.5) and its reshuffles. Whether the
    turns are legal is checked by `replay`. Raises `RecordError`.
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
            f"({MAX_RECORD_BYTES // (1024 * 1024)} MB)"
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
            f"column {error.colno}"
        ) from error
    except UnicodeDecodeError as error:
        raise RecordError(
            f"the record is not valid JSON: it is not UTF-8 text ({error})"
        ) from error
    except (ValueError, RecursionError) as error:
        raise RecordError(f"the record is not valid JSON: {error}") from error


def _read_document(document: Any) -> Record:
    """Check the top level of a record (RULES.md 5) and read its rounds."""
    at = _At()
    if not isinstance(document, Mapping):
        raise at.error(f"a game record must be a JSON object, not {_kind(document)}")
    unknown = [key for key in document if key not in _RECORD_KEYS]
    if unknown:
        raise at.error(
            f"unknown key {_keys(unknown)} in the record (a record has {', '.join(_RECORD_KEYS)})"
        )
    if "format" not in document:
        raise at.error(f'the record has no "format": expected "{FORMAT}"')
    if document["format"] != FORMAT:
        raise at.error(f'unknown record format {_show(document["format"])}: expected "{FORMAT}"')
    if "players" not in document:
        raise at.error('the record has no "players"')
    players = _check_players(document["players"], at)
    try:
        rules = Rules.from_dict(document.get("rules"))
    except (ValueError, TypeError) as error:
        raise at.error(f"bad rules: {error}") from error
    seed = document.get("seed")
    if seed is not None and not _is_int(seed):
        raise at.error(f"the seed must be an integer, not {_show(seed)}")
    rounds = document.get("rounds")
    if rounds is None:
        raise at.error('the record has no "rounds"')
    if not _is_list(rounds) or not rounds:
        raise at.error(f"rounds must be a list of at least one round, not {_show(rounds)}")
    read = tuple(
        _read_round(value, number, players, seed, number == len(rounds))
        for number, value in enumerate(rounds, start=1)
    )
    return Record(players, rules, seed, read)


def _check_players(value: Any, at: _At) -> tuple[str, ...]:
    """Players: a list of 2 to 8 different non-empty names (RULES.md 1)."""
    if not _is_list(value):
        raise at.error(f"players must be a list of names, not {_show(value)}")
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise at.error(f"Skyjo takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(value)}")
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise at.error(f"a player's name must be a non-empty string, not {_show(name)}")
        if not _is_text(name):
            raise at.error(
                f"the player's name {_show(name)} holds a lone surrogate: it is not Unicode text"
            )
    repeated = sorted({name for name in value if value.count(name) > 1})
    if repeated:
        raise at.error(f"each player appears once, but {', '.join(repeated)} is repeated")
    return tuple(value)


def _read_round(
    value: Any, number: int, players: tuple[str, ...], seed: int | None, is_last: bool
) -> RoundRecord:
    """Check one round's shape: deck, reveals, turns, reshuffles (RULES.md 5)."""
    at = _At(round=number)
    if not isinstance(value, Mapping):
        raise at.error(
            f"a round must be an object with deck, reveals and turns, not {_kind(value)}"
        )
    unknown = [key for key in value if key not in _ROUND_KEYS]
    if unknown:
        raise at.error(
            f"unknown key {_keys(unknown)} in the round (a round has {', '.join(_ROUND_KEYS)})"
        )
    deck: tuple[int, ...] | None = None
    if "deck" in value:
        try:
            deck = check_deck(value["deck"])
        except ValueError as error:
            raise at.error(str(error)) from error
    elif seed is None:
        raise at.error("the round has no deck, and the record has no seed to shuffle one")
    turns_data = value.get("turns", [])
    if not _is_list(turns_data):
        raise at.error(f"turns must be a list of turns, not {_show(turns_data)}")
    reveals = _read_reveals(value.get("reveals", []), at, players, bool(turns_data), is_last)
    turns = tuple(
        _read_turn(turn, at.but(turn=t), players) for t, turn in enumerate(turns_data, start=1)
    )
    for t, turn in enumerate(turns[:-1] if is_last else turns, start=1):
        if turn.half:
            raise at.but(turn=t, player=turn.player).error(
                'the turn neither exchanges nor flips: give "swap": [row, col] or "flip" '
                "(only the very last turn of a record may be a half turn)"
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
        raise at.error(f"reveals must be a list with two positions per player, not {_show(value)}")
    if len(value) > len(players):
        raise at.error(f"the reveals list {len(value)} players, but the game has {len(players)}")
    reveals = []
    for seat, pair in enumerate(value):
        name = players[seat]
        here = at.but(player=name)
        if not _is_list(pair) or not 1 <= len(pair) <= _REVEALS_PER_PLAYER:
            raise here.error(
                f"{name} must turn up two positions, as [[row, col], [row, col]], not {_show(pair)}"
            )
        positions = tuple(_read_position(p, here, f"{name}'s revealed position") for p in pair)
        if len(positions) == 2 and positions[0] == positions[1]:
            raise here.error(f"{name} turns up {_where(positions[0])} twice")
        if len(positions) < _REVEALS_PER_PLAYER and seat + 1 < len(value):
            raise here.error(f"{name} turns up one card only, yet the next player reveals")
        reveals.append(positions)
    complete = len(reveals) == len(players) and all(len(p) == 2 for p in reveals)
    if not complete and (has_turns or not is_last):
        done = sum(len(p) == 2 for p in reveals)
        after = "turns follow" if has_turns else "a later round follows"
        raise at.error(
            f"only {done} of the {len(players)} players turned up their two cards, yet {after}"
        )
    return tuple(reveals)


def _read_turn(value: Any, at: _At, players: tuple[str, ...]) -> Turn:
    """A turn: take the discard and exchange, or draw and exchange, or draw,
    discard and flip (RULES.md 2.5, 5), optionally naming its player."""
    if not isinstance(value, Mapping):
        raise at.error(
            f'a turn must be an object like {{"take": "deck", "swap": [0, 1]}}, not {_kind(value)}'
        )
    unknown = [key for key in value if key not in _TURN_KEYS]
    if unknown:
        raise at.error(
            f"unknown key {_keys(unknown)} in a turn (a turn has {', '.join(_TURN_KEYS)})"
        )
    player = value.get("player")
    if "player" in value:
        if not isinstance(player, str) or player not in players:
            raise at.error(f"unknown player {_show(player)} (the players are {', '.join(players)})")
        at = at.but(player=player)
    if "take" not in value:
        raise at.error('the turn does not say what it takes: "take": "deck" or "discard"')
    if not isinstance(value["take"], str) or value["take"] not in _TAKES:
        raise at.error(f'unknown take {_show(value["take"])}: a turn takes "deck" or "discard"')
    take: Literal["deck", "discard"] = "deck" if value["take"] == "deck" else "discard"
    if "swap" in value and "flip" in value:
        raise at.error("the turn both exchanges and flips: a turn does one or the other")
    if take == "discard" and "flip" in value:
        raise at.error(
            "the turn takes the discard and flips: a card taken from the discard pile "
            "must be exchanged, it may not be put back"
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
        raise at.error(f"{what} must be [row, col], two integers, not {_show(value)}")
    row, col = value
    if not (0 <= row < ROWS and 0 <= col < COLS):
        raise at.error(
            f"{what} [{row}, {col}] is off the grid (rows 0 to {ROWS - 1}, columns 0 to {COLS - 1})"
        )
    return index_of(row, col)


def _read_reshuffles(value: Any, at: _At) -> tuple[tuple[int, ...], ...]:
    """Reshuffles: one list of card values per reshuffle, top first (RULES.md 2.7, 5)."""
    if not _is_list(value):
        raise at.error(f"reshuffles must be a list of lists of cards, not {_show(value)}")
    piles = []
    for number, pile in enumerate(value, start=1):
        if not _is_list(pile):
            raise at.error(f"reshuffle {number} must be a list of cards, not {_show(pile)}")
        for card in pile:
            if not _is_int(card):
                raise at.error(f"reshuffle {number} holds {_show(card)}, not a card value")
        piles.append(tuple(pile))
    return tuple(piles)


# --- replaying ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """How a round of a replay stands (RULES.md 6): its ender (a seat, None until
    someone ends it, RULES.md 2.8) and, once scored, its result (RULES.md 2.9, 2.10)."""

    ender: int | None
    result: RoundResult | None


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the record, the engine's final `state` and each round's summary."""

    record: Record
    state: State
    rounds: tuple[RoundSummary, ...]

    @property
    def finished(self) -> bool:
        """Whether the game is over: a total reached the target (RULES.md 3)."""
        return self.state.phase == Phase.GAME_OVER


def replay(record: Record | str | bytes | Mapping[str, Any]) -> Replay:
    """Replay a game record through the engine, checking every move (RULES.md 2, 5).

    Deals each round from its deck (or from the seed), applies the reveals and
    then each turn as its two engine actions. Before a draw from an empty draw
    pile (RULES.md 2.7), the record's next reshuffle becomes the draw pile; if
    the record gives none, the engine shuffles from the seed (an error without
    one). Raises `RecordError` naming the round, the turn and the reason for an
    illegal move, a turn by the wrong player, a turn after the round ended, a
    round after the game is over or before the previous one is finished, a
    wrong or unused reshuffle. The record may stop anywhere (a game in progress).
    """
    if not isinstance(record, Record):
        record = read_record(record)
    names = record.players
    seed = record.seed
    state: State | None = None
    for number, rnd in enumerate(record.rounds, start=1):
        at = _At(round=number)
        if state is None:
            state = _first_deal(record, rnd, at)
        else:
            state = _next_deal(state, record, rnd, at)
        state = _replay_reveals(state, rnd, at, names)
        used = 0
        for t, turn in enumerate(rnd.turns, start=1):
            state, used = _replay_turn(state, turn, rnd, used, seed, at.but(turn=t), names)
        if used < len(rnd.reshuffles):
            given = len(rnd.reshuffles)
            raise at.error(
                f"the record gives {given} reshuffle{'s' if given != 1 else ''} but the draw "
                f"pile {_ran_out(used)}: reshuffle {used + 1} is never used"
            )
    assert state is not None
    return Replay(record, state, _summaries(state))


def _first_deal(record: Record, rnd: RoundRecord, at: _At) -> State:
    """Deal round 1 (RULES.md 2.1-2.2) from its deck, or from the seed."""
    n, seed, rules = len(record.players), record.seed, record.rules
    try:
        if rnd.deck is None or (seed is not None and engine.shuffled_deck(seed)[0] == rnd.deck):
            return engine.new_game(n, seed, rules)
        return engine.new_game(n, seed, rules, deck=rnd.deck)
    except ValueError as error:
        raise at.error(str(error)) from error


def _next_deal(state: State, record: Record, rnd: RoundRecord, at: _At) -> State:
    """Deal a later round, once the previous one is over and the game is not (RULES.md 3)."""
    names = record.players
    previous = at.round - 1 if at.round is not None else 0
    if state.phase == Phase.GAME_OVER:
        totals = ", ".join(f"{n} {t}" for n, t in zip(names, state.totals, strict=True))
        raise at.error(
            f"the game is over after round {previous} (totals {totals}; target "
            f"{record.rules.target_score}): no round may follow"
        )
    if state.phase != Phase.ROUND_OVER:
        raise at.error(
            f"round {previous} is unfinished, so no new round can start: {_stand(state, names)}"
        )
    try:
        if rnd.deck is None or (
            record.seed is not None and engine.shuffled_deck(state.key)[0] == rnd.deck
        ):
            return engine.step(state, NEXT_ROUND)
        return engine.start_round(state, rnd.deck)
    except ValueError as error:
        raise at.error(str(error)) from error


def _replay_reveals(state: State, rnd: RoundRecord, at: _At, names: tuple[str, ...]) -> State:
    """Apply the opening reveals, two per player in seat order (RULES.md 2.3)."""
    for seat, pair in enumerate(rnd.reveals):
        here = at.but(turn="reveals", player=names[seat])
        for k in pair:
            if state.phase != Phase.REVEAL or state.player != seat:
                raise here.error(f"it is not {names[seat]}'s turn to reveal")
            state = _apply(state, REVEAL + k, here, names)
    return state


def _replay_turn(
    state: State,
    turn: Turn,
    rnd: RoundRecord,
    used: int,
    seed: int | None,
    at: _At,
    names: tuple[str, ...],
) -> tuple[State, int]:
    """Apply one turn (RULES.md 2.5), reshuffling first if it draws from an empty
    pile (RULES.md 2.7). Returns the new state and the number of reshuffles used."""
    if state.phase not in (Phase.TURNS, Phase.FINAL_TURNS):
        raise at.but(player=turn.player).error(_no_turn_now(state, names))
    who = names[state.player]
    at = at.but(player=who)
    if turn.player is not None and turn.player != who:
        raise at.error(f"the turn names {turn.player}, but it is {who}'s turn")
    actions = turn.actions()
    if actions[0] == DRAW and state.draw_top == len(state.draw_pile):
        if used < len(rnd.reshuffles):
            state = _apply_reshuffle(state, rnd.reshuffles[used], used + 1, seed, at)
            used += 1
        elif seed is None:
            raise at.error(
                f"{who} draws from an empty draw pile, and the record gives no "
                f"reshuffle {used + 1} (nor a seed to shuffle one)"
            )
    for action in actions:
        state = _apply(state, action, at, names)
    return state, used


def _apply_reshuffle(
    state: State, order: tuple[int, ...], number: int, seed: int | None, at: _At
) -> State:
    """Make the discard pile, less its top card, the draw pile in `order` (RULES.md 2.7)."""
    if seed is not None:
        shuffled = engine.reshuffle(state)  # as the engine would have: keeps the key in step
        if shuffled.draw_pile == order:
            return shuffled
    expected = Counter(state.discard_pile[:-1])
    given = Counter(order)
    if given != expected:
        wrong = next(
            f"{given[v]} of {v} instead of {expected[v]}"
            for v in sorted(set(given) | set(expected))
            if given[v] != expected[v]
        )
        raise at.error(
            f"reshuffle {number} is not the discard pile less its top card: it gives "
            f"{len(order)} cards for {len(state.discard_pile) - 1}, {wrong}"
        )
    try:
        return engine.reshuffle(state, order)
    except IllegalActionError as error:  # pragma: no cover - checked just above
        raise at.error(f"reshuffle {number}: {error}") from error


def _apply(state: State, action: int, at: _At, names: tuple[str, ...]) -> State:
    """One engine step; an illegal action becomes a `RecordError` with names."""
    try:
        return engine.step(state, action)
    except IllegalActionError:
        raise at.error(_why_illegal(state, action, names)) from None


def _why_illegal(state: State, action: int, names: tuple[str, ...]) -> str:
    """Why a reveal or a placement of a record is illegal (RULES.md 2.3, 2.5, 2.6),
    with the player's name; other cases fall back on the engine's reason."""
    who = names[state.player]
    if REVEAL <= action < REVEAL + GRID_SIZE and state.phase == Phase.REVEAL:
        k = action - REVEAL
        return f"{who} cannot reveal {_where(k)}: that card is already face up"
    if state.held is not None and SWAP <= action < FLIP + GRID_SIZE:
        k = (action - SWAP) % GRID_SIZE
        bit = 1 << k
        if action >= FLIP and state.source == TAKE_DISCARD:
            return f"{who} took the discard and must exchange it: it may not be put back"
        if state.cleared[state.player] & bit:
            verb = "flip" if action >= FLIP else "exchange"
            return f"{who} cannot {verb} {_where(k)}: that column is cleared"
        if action >= FLIP and not state.hidden[state.player] & bit:
            return f"{who} cannot flip {_where(k)}: that card is already face up"
    return engine.why_illegal(state, action).replace(f"seat {state.player}", who)


def _no_turn_now(state: State, names: tuple[str, ...]) -> str:
    """Why no turn can be played in `state` (the round is over or the reveals are not)."""
    if state.phase == Phase.REVEAL:
        return f"{names[state.player]} has not turned up two cards yet: no turn can be played"
    ender = names[state.ender] if state.ender is not None else "nobody"
    if state.phase == Phase.GAME_OVER:
        return (
            f"the round is over ({ender} ended it and every other player had one more "
            "turn) and so is the game: no turn may follow"
        )
    return (
        f"the round is over ({ender} ended it and every other player had one more turn): "
        "no turn may follow"
    )


def _stand(state: State, names: tuple[str, ...]) -> str:
    """Where an unfinished round stands, in words."""
    if state.phase == Phase.REVEAL:
        return f"{names[state.player]} has not turned up two cards yet"
    if state.ender is not None:
        return f"{names[state.ender]} ended it, but it is still {names[state.player]}'s last turn"
    return f"nobody has ended it yet and it is {names[state.player]}'s turn"


def _summaries(state: State) -> tuple[RoundSummary, ...]:
    """Each round's ender and result, from the final state (RULES.md 2.8-2.10)."""
    rounds = []
    for number in range(state.round + 1):
        if number < len(state.results):
            result = state.results[number]
            rounds.append(RoundSummary(result.ender, result))
        else:
            rounds.append(RoundSummary(state.ender, None))
    return tuple(rounds)


def replay_summary(replay: Replay, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The `skyjo replay --json` document of RULES.md 6.

    ``{"rounds": [{"ender": "Cleo", "raw": {...}, "scores": {...}}], "totals":
    {...}, "finished": bool, "winners": [...]}``: a round in progress has only
    its ender (null until someone ends it, RULES.md 2.8); `winners` is empty
    until the game is over and lists every player with the lowest total
    (RULES.md 3). `players` defaults to the record's names.
    """
    names = tuple(players) if players is not None else replay.record.players
    if len(names) != replay.state.num_players:
        raise RecordError(
            f"the game has {replay.state.num_players} players but {len(names)} names were given"
        )
    rounds: list[dict[str, Any]] = []
    for summary in replay.rounds:
        if summary.result is None:
            rounds.append({"ender": None if summary.ender is None else names[summary.ender]})
        else:
            result = summary.result
            rounds.append(
                {
                    "ender": names[result.ender],
                    "raw": dict(zip(names, result.raw, strict=True)),
                    "scores": dict(zip(names, result.scores, strict=True)),
                }
            )
    totals = dict(zip(names, replay.state.totals, strict=True))
    finished = replay.finished
    return {
        "rounds": rounds,
        "totals": totals,
        "finished": finished,
        "winners": winners(totals) if finished else [],
    }


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


def _ran_out(count: int) -> str:
    if count == 0:
        return "never ran out"
    return "ran out only once" if count == 1 else f"ran out only {count} times"
