"""What one player may see of a game: `observe(state, viewer)` (RULES.md 2).

An `Observation` holds every face-up card, the discard pile, the size of the
draw pile, whose turn, the scores and the public history a player at the
table remembers; never a face-down value, the deck order, or a card drawn by
someone else before it is placed (RULES.md 2.5). `observe(state, None)` is a
spectator's view. This module reads `skyjo.engine`'s states; the engine does
not import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, TypeVar

from skyjo.engine import (
    _BIT,
    ALL_POSITIONS,
    DRAW,
    NEXT_ROUND,
    TAKE_DISCARD,
    EngineError,
    Phase,
    RoundResult,
    State,
    _integral,
    _positions,
    _shown,
    current_player,
    legal_actions,
)
from skyjo.errors import SkyjoError, params_of
from skyjo.rules import CARD_VALUES, COLS, GRID_SIZE, MAX_PLAYERS, MIN_PLAYERS, Rules

#: What `Observation.status` holds for a grid position.
FACE_DOWN, FACE_UP, CLEARED = 0, 1, 2
#: What `to_dict` calls each `Phase`, and `from_dict` reads back.
PHASES = {phase.name.lower(): phase for phase in Phase}
SOURCES = (None, "deck", "discard")
T = TypeVar("T")
#: One seat's grid as read back: its cards (None when face down) and their status.
ReadGrid = tuple[tuple[int | None, ...], tuple[int, ...]]


class ObservationError(SkyjoError):
    """An observation's JSON form (`Observation.from_dict`) that is not one: the
    field and what it must be."""

    MESSAGES: ClassVar[dict[str, str]] = {
        "observation_field": "an observation's {field} must be {expected}",
    }
    KINDS = params_of(MESSAGES)


@dataclass(frozen=True, slots=True)
class Observation:
    """What one player may see (RULES.md 2): every face-up card, the discard
    pile, the size of the draw pile, whose turn, the scores. Never a face-down
    value, the deck order, or a card drawn by someone else before it is placed.

    `cards[seat][k]` is the value at grid index k when face up, else None;
    `status[seat][k]` is FACE_DOWN, FACE_UP or CLEARED.
    """

    viewer: int | None  #: the seat, or None for a spectator
    num_players: int
    round: int
    phase: Phase
    current_player: int
    held: int | None  #: the card in the current player's hand, if the viewer may see it
    source: str | None  #: "deck" or "discard" while the current player holds a card
    cards: tuple[tuple[int | None, ...], ...]
    status: tuple[tuple[int, ...], ...]
    discard_pile: tuple[int, ...]
    draw_pile_size: int
    starter: int | None
    ender: int | None
    totals: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    legal_actions: tuple[int, ...]  #: the viewer's legal actions (empty when not its turn)
    rules: Rules
    #: every finished round: its ender, raw and final scores (public history)
    results: tuple[RoundResult, ...] = ()
    #: after a reshuffle in this round, the values the draw pile holds, sorted
    #: (never its order): each was face up on the discard pile, so a player
    #: with a good memory knows them; None before any reshuffle of the round
    draw_pile_known: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form; grid cells are a value, null (face down) or "x" (cleared),
        and `cleared_columns` holds each cleared column's card (RULES.md 2.6), so
        that `from_dict` reads back this very observation."""
        private = self.private_dict()
        return {
            "viewer": private["viewer"],
            "num_players": self.num_players,
            "round": self.round,
            "phase": self.phase.name.lower(),
            "current_player": self.current_player,
            "held": private["held"],
            "source": self.source,
            "grids": [
                [
                    [
                        "x" if state == CLEARED else value
                        for value, state in zip(
                            values[start : start + COLS], status[start : start + COLS], strict=True
                        )
                    ]
                    for start in range(0, GRID_SIZE, COLS)
                ]
                for values, status in zip(self.cards, self.status, strict=True)
            ],
            "cleared_columns": [
                [_cleared_card(values, status, col) for col in range(COLS)]
                for values, status in zip(self.cards, self.status, strict=True)
            ],
            "discard_pile": list(self.discard_pile),
            "draw_pile_size": self.draw_pile_size,
            "starter": self.starter,
            "ender": self.ender,
            "totals": list(self.totals),
            "round_scores": [list(s) for s in self.round_scores],
            "legal_actions": private["legal_actions"],
            "rules": self.rules.to_dict(),
            "results": [
                {
                    "ender": r.ender,
                    "raw": list(r.raw),
                    "scores": list(r.scores),
                    "doubled": r.doubled,
                }
                for r in self.results
            ],
            "draw_pile_known": private["draw_pile_known"],
        }

    def private_dict(self) -> dict[str, Any]:
        """The keys of `to_dict` whose values depend on the viewer: `viewer`,
        `held`, `legal_actions`, `draw_pile_known` (`observe_views`)."""
        known = self.draw_pile_known
        return {
            "viewer": self.viewer,
            "held": self.held,
            "legal_actions": list(self.legal_actions),
            "draw_pile_known": None if known is None else list(known),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Observation:
        """The observation of `to_dict`'s JSON form, as the bot protocol sends it
        (docs/bot-protocol.md, `act`), so that a program outside reads it back (and
        encodes it as the environments do: `skyjo.env.encoding`). A cleared cell
        ("x") holds the card of `cleared_columns`; in a form without that field
        (the engine's before it was added) its card is None. `ObservationError`
        names the first field that is not what `to_dict` writes."""
        if not isinstance(data, dict):
            raise ObservationError.of("observation_field", field="whole", expected="an object")
        n = _read(data, "num_players", _count, "an integer from 2 to 8")
        grids = _read(data, "grids", lambda v: _grids(v, n), f"{n} grids of 3 rows of 4 cells")
        if "cleared_columns" in data:
            grids = _read(
                data,
                "cleared_columns",
                lambda v: _with_cleared(grids, v),
                f'{n} lists of 4: a card for each column of "x" cells, else null',
            )
        return cls(
            viewer=_read(data, "viewer", lambda v: _seat(v, n, True), "a seat or null"),
            num_players=n,
            round=_read(data, "round", _natural, "a whole number"),
            phase=_read(data, "phase", PHASES.__getitem__, " or ".join(PHASES)),
            current_player=_read(data, "current_player", lambda v: _seat(v, n), "a seat"),
            held=_read(data, "held", lambda v: _card(v, True), "a card or null"),
            source=_read(data, "source", _source, "deck, discard or null"),
            cards=tuple(cards for cards, _ in grids),
            status=tuple(status for _, status in grids),
            discard_pile=_read(data, "discard_pile", _cards, "a list of cards"),
            draw_pile_size=_read(data, "draw_pile_size", _natural, "a whole number"),
            starter=_read(data, "starter", lambda v: _seat(v, n, True), "a seat or null"),
            ender=_read(data, "ender", lambda v: _seat(v, n, True), "a seat or null"),
            totals=_read(data, "totals", lambda v: _numbers(v, n), f"{n} integers"),
            round_scores=_read(
                data,
                "round_scores",
                lambda v: tuple(_numbers(r, n) for r in _list(v)),
                f"a list of {n} integers a round",
            ),
            legal_actions=_read(data, "legal_actions", _actions, "a list of action ids"),
            rules=_read(data, "rules", Rules.from_dict, "the rules' object"),
            results=_read(
                data,
                "results",
                lambda v: tuple(_result(r, n) for r in _list(v)),
                "a list of {ender, raw, scores, doubled}",
            ),
            draw_pile_known=_read(
                data, "draw_pile_known", lambda v: None if v is None else _cards(v), "cards or null"
            ),
        )


def _read(data: dict[str, Any], field: str, read: Callable[[Any], T], expected: str) -> T:
    """`read(data[field])`, or the `ObservationError` of `field` when it is missing
    or `read` refuses it."""
    try:
        return read(data[field])
    except (KeyError, TypeError, ValueError, IndexError):
        raise ObservationError.of("observation_field", field=field, expected=expected) from None


def _integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def _natural(value: Any) -> int:
    if _integer(value) < 0:
        raise ValueError(value)
    return int(value)


def _count(value: Any) -> int:
    if not MIN_PLAYERS <= _integer(value) <= MAX_PLAYERS:
        raise ValueError(value)
    return int(value)


def _seat(value: Any, n: int, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not 0 <= _integer(value) < n:
        raise ValueError(value)
    return value


def _card(value: Any, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if _integer(value) not in CARD_VALUES:
        raise ValueError(value)
    return int(value)


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(value)
    return value


def _cards(value: Any) -> tuple[int, ...]:
    return tuple(int(_card(v)) for v in _list(value))  # type: ignore[arg-type]


def _numbers(value: Any, n: int) -> tuple[int, ...]:
    numbers = tuple(_integer(v) for v in _list(value))
    if len(numbers) != n:
        raise ValueError(value)
    return numbers


def _actions(value: Any) -> tuple[int, ...]:
    actions = tuple(_natural(v) for v in _list(value))
    if any(a > NEXT_ROUND for a in actions):
        raise ValueError(value)
    return actions


def _source(value: Any) -> str | None:
    if value not in SOURCES:
        raise ValueError(value)
    return value  # type: ignore[no-any-return]


def _grids(value: Any, n: int) -> list[ReadGrid]:
    """Each seat's cards and status from its 3 rows of 4 cells."""
    grids = _list(value)
    if len(grids) != n:
        raise ValueError(value)
    read = []
    for rows in grids:
        cells = [cell for row in _list(rows) for cell in _list(row)]
        if len(_list(rows)) != GRID_SIZE // COLS or len(cells) != GRID_SIZE:
            raise ValueError(rows)
        cards = tuple(None if c is None or c == "x" else _card(c) for c in cells)
        status = tuple(CLEARED if c == "x" else FACE_DOWN if c is None else FACE_UP for c in cells)
        read.append((cards, status))
    return read


def _cleared_card(values: tuple[int | None, ...], status: tuple[int, ...], col: int) -> int | None:
    """The card column `col` of one grid was cleared with (its three are equal,
    RULES.md 2.6), or None when it is not cleared."""
    return values[col] if status[col] == CLEARED else None


def _with_cleared(grids: list[ReadGrid], value: Any) -> list[ReadGrid]:
    """`grids` with the card of each cleared column of `value` (per seat, a card
    or None per column) in its three cells; a column is cleared ("x" in its three
    cells) exactly when it has a card."""
    seats = _list(value)
    if len(seats) != len(grids):
        raise ValueError(value)
    read = []
    for (cards, status), columns in zip(grids, seats, strict=True):
        cleared = [_card(c, True) for c in _list(columns)]
        if len(cleared) != COLS:
            raise ValueError(columns)
        if any((s == CLEARED) != (cleared[k % COLS] is not None) for k, s in enumerate(status)):
            raise ValueError(columns)
        filled = (cleared[k % COLS] if status[k] == CLEARED else c for k, c in enumerate(cards))
        read.append((tuple(filled), status))
    return read


def _result(value: Any, n: int) -> RoundResult:
    if not isinstance(value, dict) or not isinstance(value.get("doubled"), bool):
        raise TypeError(value)
    return RoundResult(
        _seat(value["ender"], n),
        _numbers(value["raw"], n),
        _numbers(value["scores"], n),
        value["doubled"],
    )


_POSITIONS = tuple(_positions(m) for m in range(1 << GRID_SIZE))  # per 12-bit mask


@cache
def _status_row(hidden: int, cleared: int) -> tuple[int, ...]:
    """One grid's FACE_DOWN / FACE_UP / CLEARED per position, from its two masks."""
    return tuple(
        CLEARED if cleared & bit else FACE_DOWN if hidden & bit else FACE_UP for bit in _BIT
    )


def observe(state: State, viewer: int | None) -> Observation:
    """What `viewer` may see of `state`: a seat, or None for a spectator, who
    sees only what is face up (a drawn card only once it is placed)."""
    viewer = _checked_viewer(state, viewer)
    return Observation(**_public(state), **_private(state, viewer))


def observe_views(state: State, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """`observe(state, v).to_dict()` for each of `viewers`, the parts every viewer
    sees alike (the grids, the piles, the scores) made once: a server sends every
    viewer of a table its own view after each step. The dicts share those parts:
    read them, do not change them."""
    viewers = list(viewers)
    public = _public(state) if viewers else {}
    shared: dict[str, Any] | None = None
    views: dict[int | None, dict[str, Any]] = {}
    for viewer in viewers:
        observation = Observation(**public, **_private(state, _checked_viewer(state, viewer)))
        if shared is None:
            shared = observation.to_dict()
            views[viewer] = shared
        else:
            views[viewer] = {**shared, **observation.private_dict()}
    return views


def _checked_viewer(state: State, viewer: Any) -> int | None:
    """`viewer` as a seat of `state` (None: a spectator), else `EngineError`."""
    if viewer is None:
        return None
    seat = _integral(viewer)
    if seat is None:
        raise EngineError(
            f"a seat is an integer (or None for a spectator), not {_shown(viewer)}",
            "seat_not_integer",
            {"value": _shown(viewer)},
        )
    if not 0 <= seat < state.num_players:
        raise EngineError(
            f"there is no seat {seat} in a {state.num_players}-player game",
            "seat_unknown",
            {"seat": seat, "players": state.num_players},
        )
    return seat


def _public(state: State) -> dict[str, Any]:
    """The fields of an observation every viewer of `state` sees alike."""
    cards, status = [], []
    cells, hidden_bits, cleared_bits = state.cells, state.hidden_bits, state.cleared_bits
    for shift in range(0, GRID_SIZE * state.num_players, GRID_SIZE):
        hidden = hidden_bits >> shift & ALL_POSITIONS
        status.append(_status_row(hidden, cleared_bits >> shift & ALL_POSITIONS))
        grid = cells[shift : shift + GRID_SIZE]
        if hidden:
            shown = list(grid)
            for k in _POSITIONS[hidden]:
                shown[k] = None
            grid = tuple(shown)
        cards.append(grid)
    return {
        "num_players": state.num_players,
        "round": state.round,
        "phase": Phase(state.phase),
        "current_player": state.player,
        "source": {DRAW: "deck", TAKE_DISCARD: "discard"}.get(state.source),
        "cards": tuple(cards),
        "status": tuple(status),
        "discard_pile": state.discard_pile,
        "draw_pile_size": len(state.draw_pile) - state.draw_top,
        "starter": state.starter if state.starter >= 0 else None,
        "ender": state.ender,
        "totals": state.totals,
        "round_scores": tuple(r.scores for r in state.results),
        "rules": state.rules,
        "results": state.results,
    }


def _private(state: State, viewer: int | None) -> dict[str, Any]:
    """The fields of an observation that depend on its viewer (a checked seat or
    None): a card drawn from the deck is seen by its drawer alone, the legal
    actions are the player's to move, and what a reshuffled pile holds counts
    the card someone else holds (`Observation.private_dict`)."""
    held = state.held
    if held is not None and state.source == DRAW and viewer != state.player:
        held = None
    return {
        "viewer": viewer,
        "held": held,
        "legal_actions": legal_actions(state)
        if viewer is not None and viewer == current_player(state)
        else (),
        "draw_pile_known": _draw_pile_known(state, viewer),
    }


def _draw_pile_known(state: State, viewer: int | None) -> tuple[int, ...] | None:
    """The values of a reshuffled draw pile as `viewer` knows them (RULES.md 2.7):
    the pile at the reshuffle less the cards drawn from it since, each seen
    once placed; a card someone else holds, drawn and not yet placed, is still
    unknown to the viewer, so it counts as in the pile. None before a reshuffle."""
    if not state.reshuffles or not state.reshuffles[-1]:
        return None
    known = list(state.draw_pile[state.draw_top :])
    if state.held is not None and state.source == DRAW and viewer != state.player:
        known.append(state.held)
    return tuple(sorted(known))
