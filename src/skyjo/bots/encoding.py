"""A seat's observation as the agents' environments encode it (`skyjo.env`), from
nothing but its `Observation`: what a policy trained on them reads.

- `encode_observation(obs, layout)`: the integer array of `layout`
  (`skyjo.kernel.layout.Layout`, docs/env.md), the reference encoder: the
  environments' fast one (`skyjo.env.encoding.Encoder`, from the engine's
  state) and the kernel's give the same arrays (tests/parity/test_encoding.py);
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

from collections import Counter
from functools import cache

import numpy as np

from skyjo.kernel.layout import DTYPE, LOWEST, Layout, to_float, variant_values
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation
from skyjo.rules import GRID_SIZE, VARIANTS, Rules


def encode_observation(obs: Observation, layout: Layout) -> np.ndarray:
    """The array of `obs` (the viewer's `Observation`), from nothing but `obs`."""
    if obs.viewer is None:
        raise ValueError("a spectator has no seat to encode from")
    out = np.zeros(layout.size, DTYPE)
    at = layout.start
    n = obs.num_players
    visible: Counter[int] = Counter(obs.discard_pile)
    for slot in range(n):
        seat = (obs.viewer + slot) % n
        values, down, gone = (layout.grid(slot, plane).start for plane in range(3))
        for k in range(GRID_SIZE):
            status, value = obs.status[seat][k], obs.cards[seat][k]
            if status == FACE_UP:
                assert value is not None
                out[values + k] = value
                visible[value] += 1
            out[down + k] = status == FACE_DOWN
            out[gone + k] = status == CLEARED
        out[at("present") + slot] = 1
        out[at("totals") + slot] = obs.totals[seat]
    out[at("to_act") + (obs.current_player - obs.viewer) % n] = 1
    for name, seat in (("ender", obs.ender), ("starter", obs.starter)):
        if seat is not None:
            out[at(name) + (seat - obs.viewer) % n] = 1
    if obs.held is not None:
        visible[obs.held] += 1
        out[at("held_value")] = obs.held
        out[at("held_known")] = 1
    out[at("held_from_draw")] = obs.source == "deck"
    out[at("held_from_discard")] = obs.source == "discard"
    for value, count in visible.items():
        out[at("visible_counts") + value - LOWEST] = count
    if obs.draw_pile_known is not None:
        out[at("reshuffled")] = 1
        for value, count in Counter(obs.draw_pile_known).items():
            out[at("draw_known_counts") + value - LOWEST] = count
    if obs.discard_pile:
        out[at("discard_top")] = obs.discard_pile[-1]
    out[at("discard_size")] = len(obs.discard_pile)
    out[at("draw_size")] = obs.draw_pile_size
    out[at("phase") + int(obs.phase)] = 1
    out[at("round")] = obs.round
    _encode_rules(out, layout, obs.rules)
    return out


def _encode_rules(out: np.ndarray, layout: Layout, rules: Rules) -> None:
    values = variant_values(rules)
    start = layout.start(VARIANTS[0].name)
    out[start : start + len(values)] = values


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


__all__ = ["encode_float32", "encode_int16", "encode_observation"]
