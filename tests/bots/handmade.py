"""Observations built by hand, for the bots' tests: a table written as rows of
cards, with no game state behind it.

A grid is three rows of four cells: a value is a face-up card, None a face-down
card, "x" a cleared position.
"""

from __future__ import annotations

from collections.abc import Sequence

from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD, Phase
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation
from skyjo.rules import GRID_SIZE, Rules

Cell = int | str | None
Rows = Sequence[Sequence[Cell]]


def grid(rows: Rows) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
    """The cards (None unless face up) and status of a grid drawn as rows."""
    cells = [cell for row in rows for cell in row]
    assert len(rows) == 3 and len(cells) == GRID_SIZE, rows
    cards = tuple(c if isinstance(c, int) else None for c in cells)
    status = tuple(CLEARED if c == "x" else FACE_DOWN if c is None else FACE_UP for c in cells)
    return cards, status


def observation(
    grids: Sequence[Rows],
    discard: Sequence[int],
    draw_pile_size: int = 100,
    held: int | None = None,
    source: str | None = None,
    ender: int | None = None,
    draw_pile_known: Sequence[int] | None = None,
    rules: Rules | None = None,
    viewer: int = 0,
) -> Observation:
    """Seat `viewer`'s observation on its turn: holding `held` (from `source`,
    "deck" or "discard") or about to take a card; its legal actions follow."""
    cards, status = zip(*(grid(rows) for rows in grids), strict=True)
    mine = status[viewer]
    if held is None:
        legal: tuple[int, ...] = (DRAW, TAKE_DISCARD)
    else:
        legal = tuple(SWAP + k for k in range(GRID_SIZE) if mine[k] != CLEARED)
        if source == "deck":
            legal += tuple(FLIP + k for k in range(GRID_SIZE) if mine[k] == FACE_DOWN)
    n = len(grids)
    return Observation(
        viewer=viewer,
        num_players=n,
        round=0,
        phase=Phase.TURNS if ender is None else Phase.FINAL_TURNS,
        current_player=viewer,
        held=held,
        source=source,
        cards=tuple(cards),
        status=tuple(status),
        discard_pile=tuple(discard),
        draw_pile_size=draw_pile_size,
        starter=0,
        ender=ender,
        totals=(0,) * n,
        round_scores=(),
        legal_actions=legal,
        rules=rules or Rules(),
        draw_pile_known=None if draw_pile_known is None else tuple(sorted(draw_pile_known)),
    )
