"""The observation array from the engine (skyjo.env.encoding): exactly what the seat may
see. That both encoders and the kernel's agree: tests/parity/test_encoding.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from played_states import states  # tests/played_states.py

from skyjo.engine import DRAW, new_game
from skyjo.env.encoding import Encoder
from skyjo.kernel.layout import Layout
from skyjo.observation import FACE_DOWN, observe
from skyjo.rules import GRID_SIZE, Rules

DOCS = Path(__file__).resolve().parents[2] / "docs" / "env.md"


def test_face_down_cards_never_show() -> None:
    """Deal the face-down cards and the draw pile's cards otherwise (a card
    drawn by another seat included): the seat sees the same array."""
    played = [s for s in states(3, 1, seed=5) if s.held is not None and s.source == DRAW]
    state = next(s for s in played if s.player != 0)
    down = [i for i in range(len(state.cells)) if state.hidden_bits >> i & 1]
    cells = list(state.cells)
    for i, j in zip(down, down[1:] + down[:1], strict=True):
        cells[j] = state.cells[i]
    pile = list(state.draw_pile)
    pile[state.draw_top], held = state.held, pile[state.draw_top]
    other = state._replace(cells=tuple(cells), draw_pile=tuple(pile), held=held)
    assert sorted(cells) == sorted(state.cells) and cells != list(state.cells)
    layout = Layout(3)
    np.testing.assert_array_equal(
        Encoder(layout, state.rules).encode(state, 0), Encoder(layout, state.rules).encode(other, 0)
    )
    # and the drawer sees its own card
    mine = Encoder(layout, state.rules).encode(state, state.player)
    assert mine[layout.start("held_value")] == state.held
    assert mine[layout.start("held_known")] == 1


def test_the_viewer_comes_first_and_grids_hold_what_the_observation_shows() -> None:
    state = states(3, 1, seed=4)[40]
    layout = Layout(3)
    for seat in range(3):
        array = Encoder(layout, state.rules).encode(state, seat)
        view = observe(state, seat)
        for slot in range(3):
            shown = (seat + slot) % 3
            values = array[layout.grid(slot, 0)]
            down = array[layout.grid(slot, 1)]
            for k in range(GRID_SIZE):
                assert down[k] == (view.status[shown][k] == FACE_DOWN)
                assert values[k] == (view.cards[shown][k] if down[k] == 0 else 0) or (
                    array[layout.grid(slot, 2)][k] == 1 and values[k] == 0
                )
        assert list(array[layout.offsets["totals"]]) == [
            state.totals[(seat + j) % 3] for j in range(3)
        ]


def test_padding_slots_are_absent() -> None:
    layout = Layout(2, 8)
    array = Encoder(layout, Rules()).encode(new_game(2, seed=1), 0)
    assert list(array[layout.offsets["present"]]) == [1, 1, 0, 0, 0, 0, 0, 0]
    assert not array[layout.grid(2).start : layout.start("present")].any()


def test_every_field_is_documented() -> None:
    text = DOCS.read_text()
    for name, _, _ in Layout(4).fields():
        assert f"`{name}`" in text, name
