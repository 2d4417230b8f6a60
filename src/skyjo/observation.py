"""What one player may see of a game: `observe(state, viewer)` (RULES.md 2).

An `Observation` holds every face-up card, the discard pile, the size of the
draw pile, whose turn, the scores and the public history a player at the
table remembers; never a face-down value, the deck order, or a card drawn by
someone else before it is placed (RULES.md 2.5). `observe(state, None)` is a
spectator's view. This module reads `skyjo.engine`'s states; the engine does
not import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from skyjo.engine import (
    _BIT,
    ALL_POSITIONS,
    DRAW,
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
from skyjo.rules import COLS, GRID_SIZE, Rules

#: What `Observation.status` holds for a grid position.
FACE_DOWN, FACE_UP, CLEARED = 0, 1, 2


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
        """A JSON-ready form; grid cells are a value, null (face down) or "x" (cleared)."""

        def cell(value: int | None, status: int) -> int | str | None:
            return "x" if status == CLEARED else value

        return {
            "viewer": self.viewer,
            "num_players": self.num_players,
            "round": self.round,
            "phase": self.phase.name.lower(),
            "current_player": self.current_player,
            "held": self.held,
            "source": self.source,
            "grids": [
                [
                    [cell(values[r * COLS + c], status[r * COLS + c]) for c in range(COLS)]
                    for r in range(GRID_SIZE // COLS)
                ]
                for values, status in zip(self.cards, self.status, strict=True)
            ],
            "discard_pile": list(self.discard_pile),
            "draw_pile_size": self.draw_pile_size,
            "starter": self.starter,
            "ender": self.ender,
            "totals": list(self.totals),
            "round_scores": [list(s) for s in self.round_scores],
            "legal_actions": list(self.legal_actions),
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
            "draw_pile_known": None if self.draw_pile_known is None else list(self.draw_pile_known),
        }


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
    if viewer is not None:
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
        viewer = seat
    held = state.held
    if held is not None and state.source == DRAW and viewer != state.player:
        held = None
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
    source = {DRAW: "deck", TAKE_DISCARD: "discard"}.get(state.source)
    return Observation(
        viewer=viewer,
        num_players=state.num_players,
        round=state.round,
        phase=Phase(state.phase),
        current_player=state.player,
        held=held,
        source=source,
        cards=tuple(cards),
        status=tuple(status),
        discard_pile=state.discard_pile,
        draw_pile_size=len(state.draw_pile) - state.draw_top,
        starter=state.starter if state.starter >= 0 else None,
        ender=state.ender,
        totals=state.totals,
        round_scores=tuple(r.scores for r in state.results),
        legal_actions=legal_actions(state)
        if viewer is not None and viewer == current_player(state)
        else (),
        rules=state.rules,
        results=state.results,
        draw_pile_known=_draw_pile_known(state, viewer),
    )


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
