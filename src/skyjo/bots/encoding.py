"""A seat's observation as the agents' environments encode it (`skyjo.env`), from
nothing but its `Observation`: what a policy trained on them reads.

The reference side's one writer of the array (docs/env.md) is here:

- `Writer(layout, rules).write(...)` assembles the integer array of `layout`
  (`skyjo.kernel.layout.Layout`) from its fields' values, as bytes in the
  layout's order: the seat blocks (`grid_block`), the padding, the slots'
  one-hots, the counts (packed ints, `LANE`), the scalars, the phase, the
  round and the rules. No other module of the reference side knows that
  order. It has two sources: `encode_observation` below, and the
  environments' `skyjo.env.encoding.Encoder`, which reads the engine's state
  and keeps what a step leaves unchanged. The kernel's compiled encoder
  (`skyjo.kernel.encoding`) writes the same array on its own, and
  tests/parity/test_encoding.py checks the three agree.
- `encode_observation(obs, layout)`: that array from the viewer's
  `Observation` alone;
- `encode_int16(obs, slots)`: that array at `slots` seat slots, as an
  environment made with `slots` gives the seat (`observation="dict"`);
- `encode_float32(obs, slots)`: the float32 observation (`observation="float32"`
  and the vectorized environment's): the array scaled by `Layout.floats` for
  the table's target score.

An `Observation` read back from the bot protocol's `act` message
(`Observation.from_dict`, docs/bot-protocol.md) encodes to what the
environments gave that seat, so a policy trained on them plays over the
protocol (`examples/bots/policy_bot.py` encodes its input here). It sits
with the bots, which may not import an environment; `skyjo.env` names these
functions too.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import cache, lru_cache

import numpy as np

from skyjo.engine import Phase
from skyjo.kernel.layout import (
    DTYPE,
    LOWEST,
    NUM_VALUES,
    SLOT_SIZE,
    Layout,
    to_float,
    variant_values,
)
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation
from skyjo.rules import CARD_VALUES, GRID_SIZE, Rules

#: Counts per value packed in one int, 16 bits a value (value v in lane v - LOWEST):
#: adding and subtracting packed ints adds and subtracts the counts, and
#: `to_bytes` gives them as int16s, the array's own bytes.
LANE = {v: 1 << 16 * (v - LOWEST) for v in CARD_VALUES}
_COUNT_BYTES = 2 * NUM_VALUES
_NO_COUNTS = bytes(_COUNT_BYTES)
_VALUES = struct.Struct(f"<{GRID_SIZE}h")
_GRID_BYTES = _VALUES.size
_MASKS = range(1 << GRID_SIZE)
#: Per 12-bit mask: its 12 flags as int16 bytes; an int whose 16-bit lanes
#: are all ones where the mask is clear (the cards shown).
_FLAGS = [_VALUES.pack(*(m >> k & 1 for k in range(GRID_SIZE))) for m in _MASKS]
_SHOWN = [sum(0xFFFF << 16 * k for k in range(GRID_SIZE) if not m >> k & 1) for m in _MASKS]
_SCALARS = struct.Struct("<8h")
_ROUND = struct.Struct("<h")
_ITEM = np.dtype(DTYPE).itemsize


def grid_block(cells: Sequence[int], hidden: int, cleared: int) -> bytes:
    """One seat slot of `grids` (docs/env.md) as the array's bytes: the 12
    `cells` shown where neither 12-bit mask, face down (`hidden`) or cleared,
    has its bit (whatever `cells` holds there never shows), then both masks'
    flags."""
    values = int.from_bytes(_VALUES.pack(*cells), "little") & _SHOWN[hidden | cleared]
    return values.to_bytes(_GRID_BYTES, "little") + _FLAGS[hidden] + _FLAGS[cleared]


def _onehot(size: int) -> list[bytes]:
    """The bytes of a one-hot of `size` int16s for each index, and zeros last."""
    rows = [np.eye(size, dtype=DTYPE)[i].tobytes() for i in range(size)]
    return [*rows, bytes(_ITEM * size)]


class Writer:
    """The reference side's one writer of the array of `layout` for a game by
    `rules`: `write` takes each field's value, in seats and packed counts,
    and gives a new array. Its sources: `encode_observation` (an
    `Observation`) and `skyjo.env.encoding.Encoder` (the engine's state)."""

    def __init__(self, layout: Layout, rules: Rules) -> None:
        n = self._n = layout.num_players
        pad = layout.slots - n
        present = np.array([1] * n + [0] * pad, DTYPE).tobytes()
        self._pad_present = bytes(_ITEM * SLOT_SIZE * pad) + present  # padded grids, then present
        self._totals = struct.Struct(f"<{n}h{_ITEM * pad}x")
        self._slot = _onehot(layout.slots)
        self._phase = _onehot(len(Phase))
        self._rules = variant_values(rules).tobytes()

    def write(
        self,
        viewer: int,
        grids: list[bytes],
        totals: tuple[int, ...],
        to_act: int,
        ender: int | None,
        starter: int | None,
        visible: int,
        known: int | None,
        discard: Sequence[int],
        draw_size: int,
        held: int | None,
        from_draw: bool,
        from_discard: bool,
        phase: int,
        round_index: int,
    ) -> np.ndarray:
        """The array `viewer` sees: `grids` (`grid_block`) and `totals` by seat,
        the seats `to_act`, `ender` and `starter` (None: none yet), the packed
        counts (`LANE`) of the face-up cards (`visible`) and of the draw
        pile's known values (`known`, None before a reshuffle, RULES.md 2.7),
        the discard pile, the draw pile's size, the held card when `viewer`
        may see it and where it came from, the phase and the round's index."""
        n, slot = self._n, self._slot
        if viewer:  # relative seats: the viewer first
            grids = grids[viewer:] + grids[:viewer]
            totals = totals[viewer:] + totals[:viewer]
        data = b"".join(
            (
                *grids,
                self._pad_present,
                self._totals.pack(*totals),
                slot[(to_act - viewer) % n],
                slot[-1] if ender is None else slot[(ender - viewer) % n],
                slot[-1] if starter is None else slot[(starter - viewer) % n],
                visible.to_bytes(_COUNT_BYTES, "little"),
                _NO_COUNTS if known is None else known.to_bytes(_COUNT_BYTES, "little"),
                _SCALARS.pack(
                    discard[-1] if discard else 0,
                    len(discard),
                    draw_size,
                    known is not None,
                    0 if held is None else held,
                    held is not None,
                    from_draw,
                    from_discard,
                ),
                self._phase[phase],
                _ROUND.pack(round_index),
                self._rules,
            )
        )
        return np.frombuffer(bytearray(data), DTYPE)  # a buffer of its own


def encode_observation(obs: Observation, layout: Layout) -> np.ndarray:
    """The array of `obs` (the viewer's `Observation`), from nothing but `obs`:
    its fields computed here and written by `Writer`."""
    if obs.viewer is None:
        raise ValueError("a spectator has no seat to encode from")
    if layout.num_players != obs.num_players:
        raise ValueError(
            f"a layout of {layout.num_players} players cannot encode a table of {obs.num_players}"
        )
    lane = LANE.__getitem__
    visible = sum(map(lane, obs.discard_pile))
    grids = []
    for cards, status in zip(obs.cards, obs.status, strict=True):
        hidden, cleared, face_up = _masks(status)
        visible += sum([lane(cards[k]) for k in face_up])
        grids.append(grid_block([card or 0 for card in cards], hidden, cleared))
    if obs.held is not None:
        visible += lane(obs.held)
    known = obs.draw_pile_known
    return _writer(layout.num_players, layout.slots, obs.rules).write(
        obs.viewer,
        grids,
        obs.totals,
        obs.current_player,
        obs.ender,
        obs.starter,
        visible,
        None if known is None else sum(map(lane, known)),
        obs.discard_pile,
        obs.draw_pile_size,
        obs.held,
        obs.source == "deck",
        obs.source == "discard",
        obs.phase,
        obs.round,
    )


@lru_cache(maxsize=4096)
def _masks(status: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
    """A seat's `Observation.status` as its face-down and cleared 12-bit masks,
    and its face-up positions."""
    hidden = sum(1 << k for k, seen in enumerate(status) if seen == FACE_DOWN)
    cleared = sum(1 << k for k, seen in enumerate(status) if seen == CLEARED)
    return hidden, cleared, tuple(k for k, seen in enumerate(status) if seen == FACE_UP)


@cache
def _writer(num_players: int, slots: int, rules: Rules) -> Writer:
    return Writer(_layout(num_players, slots), rules)


def encode_int16(obs: Observation, slots: int | None = None) -> np.ndarray:
    """The environments' integer observation (int16) of `obs`, the viewer's
    `Observation`, padded to `slots` seat slots (None: one a player), as an
    environment made with `slots` gives it to that seat. ValueError for a
    spectator's observation, or fewer slots than the table's players."""
    return encode_observation(obs, _layout(obs.num_players, slots or 0))


def encode_float32(obs: Observation, slots: int | None = None) -> np.ndarray:
    """The environments' float32 observation of `obs` (`observation="float32"`,
    the vectorized environment's): `encode_int16` scaled for the table's target
    score (`Layout.floats`, `skyjo.kernel.layout.to_float`)."""
    n, target = obs.num_players, obs.rules.target_score
    return to_float(encode_int16(obs, slots), *_floats(n, slots or 0, target))


@cache
def _layout(num_players: int, slots: int) -> Layout:
    return Layout(num_players, slots)


@cache
def _floats(num_players: int, slots: int, target: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return _layout(num_players, slots).floats(target)


__all__ = ["LANE", "Writer", "encode_float32", "encode_int16", "encode_observation", "grid_block"]
