"""The observation array (its layout: `skyjo.kernel.layout`, docs/env.md) from
the engine's state, for the environments that play the engine itself
(`skyjo.env.table`'s `ReferenceGame`, `skyjo.env.single`).

The array has two encoders. The compiled one (`skyjo.kernel.encoding`)
writes it from a kernel table. The reference one is a single writer,
`skyjo.bots.encoding.Writer`, the one place of the reference side that knows
the layout's order, fed from two sources:

- `encode_observation(obs, layout)` from a seat's `Observation`
  (`skyjo.observation.observe`), which never holds a face-down value. It
  lives in `skyjo.bots.encoding` (a bot may encode its observation; a bot
  may not import an environment), with `encode_int16(obs, slots)` and
  `encode_float32(obs, slots)`, the environments' two observations of a seat
  from its observation alone (for the bot protocol), and is named here too;
- `Encoder.encode(state, seat)` here, from the engine's state directly, for
  speed: it keeps each seat's block while its cards stay the same, and reads
  the face-down cards only to subtract them from the 150 (what is face up is
  everything less what is hidden), never copying one into the array.

tests/parity/test_encoding.py checks, on thousands of states, that both
sources give the same array and that the compiled encoder gives it too; the
writer's positions are checked against a field-by-field writer
(tests/env/test_reference_writer.py). Neither holds a rule: the legal
actions, the phases and the scores are the engine's.
"""

from __future__ import annotations

import numpy as np

from skyjo.bots.encoding import (
    LANE,
    Writer,
    encode_float32,
    encode_int16,
    encode_observation,
    grid_block,
)
from skyjo.engine import DRAW, State
from skyjo.kernel.layout import Layout
from skyjo.rules import CARD_COUNTS, CARD_VALUES, GRID_SIZE, Rules

__all__ = ["Encoder", "encode_float32", "encode_int16", "encode_observation"]

_ALL_CARDS = sum(CARD_COUNTS[v] * LANE[v] for v in CARD_VALUES)
#: Per 12-bit mask: its positions.
_AT = [tuple(k for k in range(GRID_SIZE) if m >> k & 1) for m in range(1 << GRID_SIZE)]


class Encoder:
    """Builds a fresh observation array from a state, for one table: the
    fields of `encode(state, seat)`, written by `Writer`.

    Equal to `encode_observation(observe(state, seat), layout)`. Each seat's
    block of 36 numbers is kept while its cards and masks stay the same (most
    steps change one seat's block or none), and the counts of face-up cards
    are packed ints (everything less the face-down cards, the draw pile and a
    card someone else drew), with the draw pile's suffix counts computed once
    per deal or reshuffle.
    """

    def __init__(self, layout: Layout, rules: Rules) -> None:
        self.layout = layout
        self._n = layout.num_players
        self._write = Writer(layout, rules).write
        self._seen: tuple[tuple[int, ...], int, int] = ((), -1, -1)
        self._grids: list[bytes] = [b""] * self._n
        self._packs: list[int] = [0] * self._n
        self._keys: list[tuple[tuple[int, ...], int, int]] = [((), -1, -1)] * self._n
        self._down = 0
        self._pile: tuple[int, ...] | None = None
        self._suffix: list[int] = [0]

    def _count_pile(self, pile: tuple[int, ...]) -> None:
        """Item i of `_suffix`: the packed counts of `pile[i:]` (computed once
        per pile object: a deal or a reshuffle)."""
        suffix = [0] * (len(pile) + 1)
        for i in range(len(pile) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + LANE[pile[i]]
        self._pile, self._suffix = pile, suffix

    @staticmethod
    def _block(key: tuple[tuple[int, ...], int, int]) -> tuple[bytes, int]:
        """One seat's block (`grid_block`), and its face-down cards' packed
        counts, for its (cards, face-down mask, cleared mask)."""
        cells, hidden, cleared = key
        return grid_block(cells, hidden, cleared), sum([LANE[cells[k]] for k in _AT[hidden]])

    def _table(self, state: State) -> None:
        """Every seat's block, and the packed counts of all face-down cards: a
        seat whose cards and masks are those of the last state keeps its block."""
        cells, hidden, cleared = state.cells, state.hidden_bits, state.cleared_bits
        last_cells, last_hidden, last_cleared = self._seen
        if cells is last_cells and hidden == last_hidden and cleared == last_cleared:
            return
        same_cells = cells is last_cells
        grids, packs, keys = self._grids, self._packs, self._keys
        for p in range(self._n):
            shift = GRID_SIZE * p
            h, c = hidden >> shift & 0xFFF, cleared >> shift & 0xFFF
            key = keys[p]
            if same_cells:
                if h == key[1] and c == key[2]:
                    continue
                key = (key[0], h, c)
            else:
                key = (cells[shift : shift + GRID_SIZE], h, c)
                if key == keys[p]:
                    continue
            keys[p] = key
            grids[p], packs[p] = self._block(key)
        self._seen = (cells, hidden, cleared)
        self._down = sum(packs)

    def encode(self, state: State, seat: int) -> np.ndarray:
        """What `seat` may see of `state`, as a new array of the layout."""
        self._table(state)
        game, player, held = state.game, state.player, state.held
        starter = game.starter
        pile = state.draw_pile
        if pile is not self._pile:
            self._count_pile(pile)
        in_pile = self._suffix[state.draw_top]
        from_draw = held is not None and state.source == DRAW
        # a card someone else drew, not yet placed (RULES.md 2.5)
        hidden_held = LANE[held] if from_draw and player != seat else 0
        # Face up = the 150 cards less those face down, in the draw pile or
        # drawn by someone else; a cleared column's cards are on the discard pile.
        unseen = in_pile + hidden_held
        return self._write(
            seat,
            self._grids,
            game.totals,
            player,
            state.ender,
            None if starter < 0 else starter,
            _ALL_CARDS - self._down - unseen,
            unseen if game.reshuffles[-1] else None,
            state.discard_pile,
            len(pile) - state.draw_top,
            None if hidden_held else held,
            from_draw,
            held is not None and not from_draw,
            state.phase,
            game.round,
        )
