"""What the board shows: a `TableView`, built from one viewer's observation.

The board's widgets draw a `TableView` and nothing else. In a game it is
made from `Match.observation(viewer)` (`from_observation`), which never holds
a face-down value nor a card someone else drew: so no screen of the game can
show one. A replay shows everything (it is a record): `from_state` adds the
face-down values as `peek`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from skyjo.engine import Phase, RoundResult, State
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation, observe
from skyjo.rules import GRID_SIZE


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer sees it."""

    name: str
    cards: tuple[int | None, ...]  #: face-up values, None where face down
    status: tuple[int, ...]  #: FACE_DOWN, FACE_UP or CLEARED per position
    total: int
    human: bool = False
    #: the face-down values, only in a replay (None in a game)
    peek: tuple[int, ...] | None = None

    @property
    def shows(self) -> int:
        """The sum of the face-up cards not cleared."""
        return sum(
            v
            for v, st in zip(self.cards, self.status, strict=True)
            if st == FACE_UP and v is not None
        )

    @property
    def face_down(self) -> int:
        return sum(st == FACE_DOWN for st in self.status)

    def cell(self, k: int) -> tuple[int, int | None]:
        """Position k's status and the value shown (a peek for a face-down card in a replay)."""
        status = self.status[k]
        if status == FACE_DOWN:
            return status, None if self.peek is None else self.peek[k]
        if status == CLEARED:
            return status, None
        return status, self.cards[k]


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table as one viewer sees it."""

    viewer: int | None
    seats: tuple[SeatView, ...]
    phase: Phase
    round: int
    current: int  #: the seat to act
    held: int | None  #: the held card, when the viewer may see it
    source: str | None  #: "deck" or "discard" while a card is held
    discard: tuple[int, ...]
    draw_size: int
    ender: int | None
    results: tuple[RoundResult, ...]
    legal: tuple[int, ...]  #: the viewer's legal actions
    target: int
    penalty: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def holding(self) -> bool:
        return self.source is not None

    @property
    def playing(self) -> bool:
        return self.phase in (Phase.REVEAL, Phase.TURNS, Phase.FINAL_TURNS)

    def reveals_left(self) -> int:
        """How many opening cards the current player has still to turn up."""
        return max(0, self.seats[self.current].face_down - (GRID_SIZE - 2))


def from_observation(
    obs: Observation, names: Sequence[str], humans: Sequence[bool] = ()
) -> TableView:
    """The board of `obs.viewer` (a seat, or None for a spectator)."""
    seats = tuple(
        SeatView(
            name=names[seat],
            cards=obs.cards[seat],
            status=obs.status[seat],
            total=obs.totals[seat],
            human=bool(humans and humans[seat]),
        )
        for seat in range(obs.num_players)
    )
    return TableView(
        viewer=obs.viewer,
        seats=seats,
        phase=obs.phase,
        round=obs.round,
        current=obs.current_player,
        held=obs.held,
        source=obs.source,
        discard=obs.discard_pile,
        draw_size=obs.draw_pile_size,
        ender=obs.ender,
        results=obs.results,
        legal=obs.legal_actions,
        target=obs.rules.target_score,
        penalty=obs.rules.ender_penalty,
    )


def from_state(state: State, names: Sequence[str]) -> TableView:
    """Everything `state` holds, face-down values included: for a replay only."""
    view = from_observation(observe(state, state.player), names)
    seats = tuple(
        SeatView(seat.name, seat.cards, seat.status, seat.total, peek=grid)
        for seat, grid in zip(view.seats, state.grids, strict=True)
    )
    return replace(view, seats=seats, held=state.held, viewer=None, legal=())
