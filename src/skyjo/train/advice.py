"""The advice input, with NumPy only: a policy may see, after its
observation, the move a compiled bot would play there (`advice` in the
policy file's meta), as a one-hot of the 39 actions."""

from __future__ import annotations

import numpy as np

from skyjo.engine import NUM_ACTIONS


def with_advice(obs: np.ndarray, advice: np.ndarray) -> np.ndarray:
    """The observations with each row's advised action as a one-hot after them
    (no advice, -1: all zeros)."""
    out = np.zeros((len(obs), obs.shape[1] + NUM_ACTIONS), np.float32)
    out[:, : obs.shape[1]] = obs
    rows = np.flatnonzero(advice >= 0)
    out[rows, obs.shape[1] + advice[rows]] = 1.0
    return out
