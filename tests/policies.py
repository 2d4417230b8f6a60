"""Small random policy files of format `skyjo-policy/1` (skyjo.bots.learned), written
as the trainer writes them, for the tests of the `learned` bot. A plain module,
imported as `policies` (as `helpers` is)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from skyjo.engine import DRAW, FLIP, NUM_ACTIONS
from skyjo.kernel.layout import Layout
from skyjo.rules import GRID_SIZE


def policy_arrays(
    slots: int = 4,
    hidden: Sequence[int] = (24, 16),
    activation: str = "tanh",
    seed: int = 0,
    players: Sequence[int] | None = None,
    **meta: Any,
) -> dict[str, np.ndarray]:
    """The arrays of a random network: `meta`, then `w0, b0, ...` (float32), and a
    value head `vw0, vb0` the bot ignores. `meta` adds or replaces meta's keys."""
    rng = np.random.default_rng(seed)
    sizes = [Layout(slots, slots).size, *hidden, NUM_ACTIONS]
    info = {
        "format": "skyjo-policy/1",
        "slots": slots,
        "activation": activation,
        "players": list(players or range(2, slots + 1)),
        "description": f"random test network, seed {seed}",
        **meta,
    }
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(info))}
    for i, (inputs, outputs) in enumerate(itertools.pairwise(sizes)):
        arrays[f"w{i}"] = rng.normal(0, 1.5 / np.sqrt(inputs), (inputs, outputs)).astype(np.float32)
        arrays[f"b{i}"] = rng.normal(0, 0.2, outputs).astype(np.float32)
    arrays["vw0"] = rng.normal(0, 0.1, (sizes[0], 1)).astype(np.float32)
    arrays["vb0"] = np.zeros(1, np.float32)
    return arrays


def brisk_arrays(slots: int = 8, seed: int = 0) -> dict[str, np.ndarray]:
    """A random network whose last layer favours drawing, then discarding the card and
    turning one up (which of them: the network's), so its rounds end: a random
    network alone may exchange cards back and forth forever, as the rules allow."""
    arrays = policy_arrays(slots=slots, seed=seed)
    last = f"b{sum(1 for name in arrays if name[0] == 'b' and name[1:].isdigit()) - 1}"
    arrays[last] = arrays[last].copy()
    arrays[last][DRAW] += 20.0
    arrays[last][FLIP : FLIP + GRID_SIZE] += 10.0
    return arrays


def write_policy(path: Path, arrays: dict[str, np.ndarray] | None = None, **options: Any) -> Path:
    """Save `arrays` (default: `policy_arrays(**options)`) to `path` with np.savez."""
    np.savez(path, **(policy_arrays(**options) if arrays is None else arrays))
    return path
