"""The observation array (its layout: `skyjo.kernel.layout`) from the engine.

Two encoders build the same array from the engine:

- `encode_observation(obs, layout)` from the engine's per-seat `Observation`
  (`skyjo.observation.observe`), which never holds a face-down value: the
  reference, clear and slow. It lives in `skyjo.bots.encoding` (a bot may
  encode its observation; a bot may not import an environment), with
  `encode_int16(obs, slots)` and `encode_float32(obs, slots)`, the
  environments' two observations of a seat from its observation alone (for
  the bot protocol), and is named here too;
- `Encoder.encode(state, seat)` from the engine's state directly, with NumPy,
  for speed: it reads the face-down cards only to subtract them from the 150
  (what is face up is everything less what is hidden) and never copies one
  into the array. The tests check that both give the same array on thousands
  of states, so the fast one shows no more than the observation does.

Neither holds a rule: the legal actions, the phases and the scores are the
engine's. The kernel's encoder (`skyjo.kernel.encoding`) builds it again
from a kernel table.
"""

from __future__ import annotations

import struct

import numpy as np

from skyjo.bots.encoding import encode_float32, encode_int16, encode_observation
from skyjo.engine import DRAW, Phase, State
from skyjo.kernel.layout import DTYPE, LOWEST, NUM_VALUES, SLOT_SIZE, Layout, variant_values
from skyjo.rules import CARD_COUNTS, CARD_VALUES, GRID_SIZE, Rules

__all__ = ["Encoder", "encode_float32", "encode_int16", "encode_observation"]

_PHASES = len(Phase)


# --- the fast path -------------------------------------------------------------------

#: Counts per value packed in one int, 16 bits a value (value v in lane v - LOWEST):
#: adding and subtracting packed ints adds and subtracts the counts, and
#: `to_bytes` gives them as int16s, the array's own bytes.
_LANE = {v: 1 << 16 * (v - LOWEST) for v in CARD_VALUES}
_ALL_CARDS = sum(CARD_COUNTS[v] * _LANE[v] for v in CARD_VALUES)
_COUNT_BYTES = 2 * NUM_VALUES
_VALUES = struct.Struct(f"<{GRID_SIZE}h")
_GRID_BYTES = _VALUES.size
_MASKS = range(1 << GRID_SIZE)
#: Per 12-bit mask: its positions; its 12 flags as int16 bytes; an int whose
#: 16-bit lanes are all ones where the mask is clear (the cards shown).
_AT = [tuple(k for k in range(GRID_SIZE) if m >> k & 1) for m in _MASKS]
_FLAGS = [_VALUES.pack(*(m >> k & 1 for k in range(GRID_SIZE))) for m in _MASKS]
_SHOWN = [sum(0xFFFF << 16 * k for k in range(GRID_SIZE) if not m >> k & 1) for m in _MASKS]
_SCALARS = struct.Struct("<8h")
_ROUND = struct.Struct("<h")
_ITEM = np.dtype(DTYPE).itemsize


def _onehot(size: int) -> list[bytes]:
    """The bytes of a one-hot of `size` int16s for each index, and zeros last."""
    rows = [np.eye(size, dtype=DTYPE)[i].tobytes() for i in range(size)]
    return [*rows, bytes(_ITEM * size)]


class Encoder:
    """Builds a fresh observation array from a state, for one table (fast path).

    Equal to `encode_observation(observe(state, seat), layout)`. The array is
    assembled as bytes, and a NumPy array made over a copy of them: each seat's block of 36
    numbers is kept while its cards and masks stay the same (most steps
    change one seat's block or none), and the counts of face-up cards are
    packed ints (everything less the face-down cards, the draw pile and a
    card someone else drew), with the draw pile's suffix counts computed
    once per deal or reshuffle.
    """

    def __init__(self, layout: Layout, rules: Rules) -> None:
        self.layout = layout
        n = self._n = layout.num_players
        pad = layout.slots - n
        self._pad_grids = bytes(_ITEM * SLOT_SIZE * pad)
        self._totals = struct.Struct(f"<{n}h{_ITEM * pad}x")
        self._present = np.array([1] * n + [0] * pad, DTYPE).tobytes()
        self._slot = _onehot(layout.slots)
        self._phase = _onehot(_PHASES)
        self._zero_counts = bytes(_COUNT_BYTES)
        self._rules = variant_values(rules).tobytes()
        self._seen: tuple[tuple[int, ...], int, int] = ((), -1, -1)
        self._grids: list[bytes] = [b""] * n
        self._packs: list[int] = [0] * n
        self._keys: list[tuple[tuple[int, ...], int, int]] = [((), -1, -1)] * n
        self._down = 0
        self._pile: tuple[int, ...] | None = None
        self._suffix: list[int] = [0]

    def _pile_counts(self, pile: tuple[int, ...]) -> list[int]:
        """Item i: the packed counts of `pile[i:]` (computed once per pile object)."""
        if pile is not self._pile:
            suffix = [0] * (len(pile) + 1)
            for i in range(len(pile) - 1, -1, -1):
                suffix[i] = suffix[i + 1] + _LANE[pile[i]]
            self._pile, self._suffix = pile, suffix
        return self._suffix

    @staticmethod
    def _block(key: tuple[tuple[int, ...], int, int]) -> tuple[bytes, int]:
        """One seat's 36 numbers as bytes, and its face-down cards' packed counts,
        for its (cards, face-down mask, cleared mask)."""
        cells, hidden, cleared = key
        values = int.from_bytes(_VALUES.pack(*cells), "little") & _SHOWN[hidden | cleared]
        packed = sum([_LANE[cells[k]] for k in _AT[hidden]])
        block = values.to_bytes(_GRID_BYTES, "little") + _FLAGS[hidden] + _FLAGS[cleared]
        return block, packed

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
        n, game = self._n, state.game
        grids, totals = self._grids, game.totals
        if seat:  # relative seats: the viewer first
            grids = grids[seat:] + grids[:seat]
            totals = totals[seat:] + totals[:seat]
        slot = self._slot
        player, ender, starter = state.player, state.ender, game.starter
        in_pile = self._pile_counts(state.draw_pile)[state.draw_top]
        held = state.held
        hidden_held = 0  # a card someone else drew, not yet placed (RULES.md 2.5)
        held_value = held_known = from_draw = from_discard = 0
        if held is not None:
            if state.source == DRAW:
                from_draw = 1
                if player != seat:
                    hidden_held = _LANE[held]
            else:
                from_discard = 1
            if not hidden_held:
                held_value, held_known = held, 1
        # Face up = the 150 cards less those face down, in the draw pile or
        # drawn by someone else; a cleared column's cards are on the discard pile.
        visible = _ALL_CARDS - self._down - in_pile - hidden_held
        reshuffled = bool(game.reshuffles[-1])
        known = (
            (in_pile + hidden_held).to_bytes(_COUNT_BYTES, "little")
            if reshuffled
            else self._zero_counts
        )
        discard = state.discard_pile
        data = b"".join(
            (
                *grids,
                self._pad_grids,
                self._present,
                self._totals.pack(*totals),
                slot[(player - seat) % n],
                slot[-1] if ender is None else slot[(ender - seat) % n],
                slot[-1] if starter < 0 else slot[(starter - seat) % n],
                visible.to_bytes(_COUNT_BYTES, "little"),
                known,
                _SCALARS.pack(
                    discard[-1] if discard else 0,
                    len(discard),
                    len(state.draw_pile) - state.draw_top,
                    reshuffled,
                    held_value,
                    held_known,
                    from_draw,
                    from_discard,
                ),
                self._phase[state.phase],
                _ROUND.pack(game.round),
                self._rules,
            )
        )
        return np.frombuffer(bytearray(data), DTYPE)  # a buffer of its own
