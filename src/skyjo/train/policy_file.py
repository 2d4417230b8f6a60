"""The policy file, format "skyjo-policy/1": what `skyjo train` writes and the
`learned` bot reads (docs/model-card.md), with NumPy only.

A NumPy `.npz` holding `meta` (a JSON string: the format, the seat `slots`
of the observation layout, the hidden layers' `activation`, the player
counts it was trained on, a description) and the layers `w0, b0, ... ,
w{k-1}, b{k-1}` (float32; `w_i` is (in, out)): hidden layers apply the
activation, the last gives the 39 actions' logits. The input is the
environments' float32 observation (`skyjo.kernel.layout.Layout(n, slots)`
scaled by `Layout.floats`). Other arrays (the critic's, `vw0, vb0, ...`)
may follow; a player ignores them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from skyjo.bots.learned import ACTIVATIONS, FORMAT


def write_policy(
    path: str | Path,
    layers: Sequence[tuple[np.ndarray, np.ndarray]],
    meta: dict[str, Any],
    critic: Sequence[tuple[np.ndarray, np.ndarray]] = (),
) -> None:
    """Write a policy file: `layers` (weight (in, out), bias (out,)) in order,
    `meta` with at least `slots` and `activation`; the critic's layers too
    when given (as vw_i, vb_i)."""
    if meta.get("activation") not in ACTIVATIONS:
        raise ValueError(
            f"activation must be one of {tuple(ACTIVATIONS)}, not {meta.get('activation')!r}"
        )
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps({**meta, "format": FORMAT}))}
    for prefix, stack in (("", layers), ("v", critic)):
        for i, (weight, bias) in enumerate(stack):
            arrays[f"{prefix}w{i}"] = np.asarray(weight, np.float32)
            arrays[f"{prefix}b{i}"] = np.asarray(bias, np.float32)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial.npz")
    np.savez_compressed(partial, **arrays)
    partial.replace(target)  # a reader never sees half a file
