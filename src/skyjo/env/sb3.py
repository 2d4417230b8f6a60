"""Stable-Baselines3's vector API on the vectorized environment, for sb3-contrib's
MaskablePPO (docs/env.md).

    from sb3_contrib import MaskablePPO
    from skyjo.env import SkyjoVectorEnv
    from skyjo.env.sb3 import MaskableVecEnv

    envs = MaskableVecEnv(SkyjoVectorEnv(64, opponents=["greedy"]))
    model = MaskablePPO("MlpPolicy", envs, n_steps=128, batch_size=2048)
    model.learn(1_000_000)

Importing this module imports Stable-Baselines3 (in the `[train]` extra, with
sb3-contrib and PyTorch: `pip install 'skyjo[train]'`); nothing else in skyjo
does. `MaskableVecEnv` is an SB3 `VecEnv` over a `SkyjoVectorEnv` in its
SAME_STEP autoreset mode, which is SB3's own convention: `step_wait` returns
the observations (the next game's first where an episode ended), float32
rewards, `dones` (terminated or truncated) and one info dict per table, with
`terminal_observation` and `TimeLimit.truncated` where an episode ended;
`action_masks()`, and `env_method("action_masks")` as sb3-contrib calls it,
give the legal actions of the observations last returned. Seeds set with
`seed(s)` deal table i the game of seed s + i at the next `reset()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from skyjo.env.vector import SkyjoVectorEnv

#: The method sb3-contrib's MaskablePPO asks every environment for.
MASKS = "action_masks"


class MaskableVecEnv(VecEnv):
    """An SB3 `VecEnv` of the tables of `env` (module docstring)."""

    def __init__(self, env: SkyjoVectorEnv) -> None:
        if env.autoreset_mode != AutoresetMode.SAME_STEP:
            raise ValueError(
                f"SB3 resets an episode at the step that ends it: the environment's "
                f"autoreset_mode must be SAME_STEP, not {env.autoreset_mode.name}"
            )
        self.env = env
        self._actions: np.ndarray | None = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> np.ndarray:
        """A new game at every table: the seeds given to `seed`, else each
        table's next seed."""
        seeds = list(self._seeds)
        obs, _ = self.env.reset(seed=None if all(s is None for s in seeds) else seeds)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_async first")
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for b in np.flatnonzero(dones).tolist():
            infos[b]["terminal_observation"] = info["final_obs"][b]
            infos[b]["TimeLimit.truncated"] = bool(truncated[b] and not terminated[b])
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of the last observations, (num_envs, 39)."""
        return self.env.action_masks()

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: int | Sequence[int] | None = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """`action_masks` per table (what MaskablePPO calls); no other method."""
        if method_name != MASKS:
            raise AttributeError(f"the tables have no method {method_name!r} to call")
        masks = self.env.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def get_attr(self, attr_name: str, indices: int | Sequence[int] | None = None) -> list[Any]:
        """An attribute of the environment, once per table asked."""
        value = getattr(self.env, attr_name)  # AttributeError: has_attr says no
        return [value for _ in self._get_indices(indices)]

    def set_attr(
        self, attr_name: str, value: Any, indices: int | Sequence[int] | None = None
    ) -> None:
        raise AttributeError(f"the tables share their settings: {attr_name} cannot be set")

    def env_is_wrapped(
        self, wrapper_class: type, indices: int | Sequence[int] | None = None
    ) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def close(self) -> None:
        self.env.close()
