"""PettingZoo's order checks, without their cost on every step.

`OrderEnforcingWrapper` (which the classic games' `env()` applies) makes sure
nothing is stepped, observed or read before `reset`; but it reaches every
attribute of the environment through `__getattr__`, about eight times a step
in PettingZoo's loop (`agent_iter`, `last`, `step`), a third of the time of a
step. `Ordered` keeps every check of the wrapper and sends `last`, `step` and
the iteration straight to the environment once it has been reset; `last`,
whose one check is the reset, is then the environment's own method.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper


class Ordered(OrderEnforcingWrapper):
    """`OrderEnforcingWrapper`, with direct calls once the environment is reset."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed, options)
        self.last = self.env.last  # type: ignore[method-assign]  # reset now: no check left

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)  # the wrapper's error or warning

    def agent_iter(self, max_iter: int = 2**63) -> Iterator:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return Iterator(self, max_iter)


class Iterator:
    """`agent_iter`'s iterator: the agent to act until none is left, checking
    (as PettingZoo's does) that each agent is stepped before the next."""

    def __init__(self, wrapper: Ordered, max_iter: int) -> None:
        self._wrapper = wrapper
        self._env: AECEnv = wrapper.env
        self._left = max_iter

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> str:
        env = self._env
        if not env.agents or self._left <= 0:
            raise StopIteration
        self._left -= 1
        wrapper = self._wrapper
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection
