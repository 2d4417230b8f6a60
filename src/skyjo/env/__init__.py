"""Environments for agents: PettingZoo's AEC API and Gymnasium's (docs/env.md).

    from skyjo.env import env, raw_env      # every seat an agent (PettingZoo AEC)
    import gymnasium, skyjo.env
    gymnasium.make("skyjo/Skyjo-v0", opponents=["greedy", "expected"])  # one seat
    gymnasium.make_vec("skyjo/Skyjo-v0", num_envs=1024,    # one seat at each of
                       vectorization_mode="vector_entry_point")  # 1,024 tables

Both drive the engine (`skyjo.engine`) and hold no rule of their own; the
observation array is `skyjo.kernel.layout`'s. Importing this package registers
`skyjo/Skyjo-v0` with Gymnasium.
"""

from __future__ import annotations

import gymnasium

from skyjo.env.aec import env, raw_env
from skyjo.env.encoding import encode_float32, encode_int16, encode_observation
from skyjo.env.single import ENV_ID, SkyjoEnv
from skyjo.env.vector import SkyjoVectorEnv
from skyjo.kernel.layout import DTYPE, Layout

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="skyjo.env.single:SkyjoEnv",
        vector_entry_point="skyjo.env.vector:SkyjoVectorEnv",
    )

__all__ = [
    "DTYPE",
    "ENV_ID",
    "Layout",
    "SkyjoEnv",
    "SkyjoVectorEnv",
    "encode_float32",
    "encode_int16",
    "encode_observation",
    "env",
    "raw_env",
]
