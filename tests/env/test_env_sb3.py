"""The Stable-Baselines3 adapter (skyjo.env.sb3) against a small fake of SB3's
`VecEnv` base class: Stable-Baselines3 and sb3-contrib are in the `[train]`
extra, which the test install does not carry. The fake keeps what the adapter
relies on (the constructor's bookkeeping, `seed`, `step` as `step_async` then
`step_wait`, `has_attr` through `get_attr`, `_get_indices`), copied from SB3
2.9's `base_vec_env.py`; `masks_of` is sb3-contrib's `get_action_masks`. A
real MaskablePPO run is in docs/env.md (`bench/env.py --vector` times one)."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from skyjo.engine import NUM_ACTIONS
from skyjo.env import SkyjoVectorEnv


class FakeVecEnv:
    """SB3 2.9's `VecEnv` as far as the adapter uses it."""

    def __init__(self, num_envs: int, observation_space: Any, action_space: Any) -> None:
        self.num_envs = num_envs
        self.observation_space = observation_space
        self.action_space = action_space
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._seeds: list[int | None] = [None for _ in range(num_envs)]
        self._options: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        render_modes = self.get_attr("render_mode")
        self.render_mode = render_modes[0]

    def _reset_seeds(self) -> None:
        self._seeds = [None for _ in range(self.num_envs)]

    def _reset_options(self) -> None:
        self._options = [{} for _ in range(self.num_envs)]

    def seed(self, seed: int | None = None) -> list[int | None]:
        if seed is None:
            seed = 12345  # SB3 draws one; any fixed number serves here
        self._seeds = [seed + idx for idx in range(self.num_envs)]
        return self._seeds

    def step(self, actions: np.ndarray) -> Any:
        self.step_async(actions)  # type: ignore[attr-defined]
        return self.step_wait()  # type: ignore[attr-defined]

    def has_attr(self, attr_name: str) -> bool:
        try:
            self.get_attr(attr_name)  # type: ignore[attr-defined]
            return True
        except AttributeError:
            return False

    def _get_indices(self, indices: Any) -> Any:
        if indices is None:
            indices = range(self.num_envs)
        elif isinstance(indices, int):
            indices = [indices]
        return indices


def masks_of(env: Any) -> np.ndarray:
    """sb3-contrib's `get_action_masks` for a VecEnv."""
    return np.stack(env.env_method("action_masks"))


@pytest.fixture
def sb3(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """`skyjo.env.sb3` imported over the fake SB3 (and forgotten afterwards)."""
    package = types.ModuleType("stable_baselines3")
    common = types.ModuleType("stable_baselines3.common")
    vec_env = types.ModuleType("stable_baselines3.common.vec_env")
    vec_env.VecEnv = FakeVecEnv  # type: ignore[attr-defined]
    for name, module in (
        ("stable_baselines3", package),
        ("stable_baselines3.common", common),
        ("stable_baselines3.common.vec_env", vec_env),
    ):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "skyjo.env.sb3", raising=False)
    yield importlib.import_module("skyjo.env.sb3")
    sys.modules.pop("skyjo.env.sb3", None)


def test_a_rollout_as_maskable_ppo_collects_it(sb3: types.ModuleType) -> None:
    """MaskablePPO's loop (masks from `env_method`, `step`, the terminal
    observation of an ended episode) gives what the vector environment gives
    for the same seeds and actions."""
    envs = sb3.MaskableVecEnv(SkyjoVectorEnv(4, one_round=True))
    assert isinstance(envs, FakeVecEnv) and envs.render_mode is None
    assert envs.has_attr("action_masks") and not envs.has_attr("no_such_thing")
    direct = SkyjoVectorEnv(4, one_round=True)
    envs.seed(7)
    obs = envs.reset()
    expected, info = direct.reset(seed=7)
    np.testing.assert_array_equal(obs, expected)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        masks = masks_of(envs)
        assert masks.shape == (4, NUM_ACTIONS)
        np.testing.assert_array_equal(masks, info["action_mask"])
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, rewards, dones, infos = envs.step(actions)
        expected, expected_rewards, terminated, truncated, info = direct.step(actions)
        np.testing.assert_array_equal(obs, expected)
        assert rewards.dtype == np.float32
        np.testing.assert_array_equal(rewards, expected_rewards.astype(np.float32))
        np.testing.assert_array_equal(dones, terminated | truncated)
        assert len(infos) == 4
        for b in range(4):
            if dones[b]:
                ended += 1
                np.testing.assert_array_equal(
                    infos[b]["terminal_observation"], info["final_obs"][b]
                )
                assert infos[b]["TimeLimit.truncated"] == (truncated[b] and not terminated[b])
            else:
                assert infos[b] == {}
    assert ended > 4
    obs = envs.reset()  # no seed: each table's next game, as the environment's own
    np.testing.assert_array_equal(obs, direct.reset()[0])


def test_the_adapter_needs_same_step_autoreset_and_keeps_to_its_methods(
    sb3: types.ModuleType,
) -> None:
    with pytest.raises(ValueError, match="autoreset_mode must be SAME_STEP, not NEXT_STEP"):
        sb3.MaskableVecEnv(SkyjoVectorEnv(2, autoreset_mode="NextStep"))
    envs = sb3.MaskableVecEnv(SkyjoVectorEnv(3))
    envs.reset()
    assert envs.get_attr("num_envs", indices=1) == [3]
    assert len(envs.env_method("action_masks", indices=[0, 2])) == 2
    with pytest.raises(AttributeError, match="no method 'render'"):
        envs.env_method("render")
    with pytest.raises(AttributeError, match="cannot be set"):
        envs.set_attr("opponents", ["random"])
    assert envs.env_is_wrapped(object) == [False, False, False]
    with pytest.raises(RuntimeError, match="step_async first"):
        envs.step_wait()
