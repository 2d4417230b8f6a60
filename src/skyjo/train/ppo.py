"""A lean PPO with action masks over the vector environment (PyTorch).

The learner is an actor-critic pair of MLPs over the environments' float32
observation. Training has two stages (docs/model-card.md):

1. Imitation (DAgger): tables play the current policy (at first the teacher
   itself), every decision is labelled with what the compiled teacher bot
   (`expected`) would play there (`SkyjoVectorEnv.teacher_actions`), and the
   policy learns the labels by cross-entropy; the critic learns the returns.
2. PPO (clipped objective, generalized advantage estimation, masked
   categorical policy) against the compiled opponents.

The reward is the environment's `reward="win"` (+1 for a win, shared wins
too, -1 for a loss, the stall rule's penalty), plus a potential-based term
from the totals the learner sees: the change of (the lowest rival total
minus its own) in targets, times `margin`. Over a game it adds up to the
final margin, so a game won by more is worth a little more; a round's
points are felt the round they are scored.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from skyjo.engine import NUM_ACTIONS
from skyjo.kernel.layout import Layout

#: A logit that no legal action comes near: illegal actions' logits are set to it.
MASKED = -1e9


def mlp(size: int, hidden: tuple[int, ...], out: int) -> nn.Sequential:
    """Linear layers with tanh between them."""
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(size, width), nn.Tanh()]
        size = width
    layers.append(nn.Linear(size, out))
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """The policy (39 logits) and the critic (a value), two separate MLPs."""

    def __init__(self, size: int, hidden: tuple[int, ...] = (256, 256)) -> None:
        super().__init__()
        self.hidden = hidden
        self.policy = mlp(size, hidden, NUM_ACTIONS)
        self.value = mlp(size, hidden, 1)
        for stack, gain in ((self.policy, 0.01), (self.value, 1.0)):
            last = stack[-1]
            assert isinstance(last, nn.Linear)
            nn.init.orthogonal_(last.weight, gain)
            nn.init.zeros_(last.bias)

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.policy(obs).masked_fill(mask == 0, MASKED)

    def layers(self, stack: nn.Sequential) -> list[tuple[np.ndarray, np.ndarray]]:
        """A stack's (weight (in, out), bias) pairs as NumPy arrays, for the policy file."""
        return [
            (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
            for m in stack
            if isinstance(m, nn.Linear)
        ]


@dataclass(frozen=True)
class Potential:
    """Where the totals sit in the observation: the shaping's potential."""

    totals: slice
    present: slice

    @classmethod
    def of(cls, layout: Layout) -> Potential:
        return cls(layout.offsets["totals"], layout.offsets["present"])

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """The lowest rival total minus the learner's, in targets, per row."""
        totals = obs[:, self.totals]
        rivals = np.where(obs[:, self.present][:, 1:] > 0, totals[:, 1:], np.inf)
        return (rivals.min(axis=1) - totals[:, 0]).astype(np.float32)


def advantages(
    rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, last: np.ndarray,
    gamma: float, lam: float,
) -> np.ndarray:  # fmt: skip
    """Generalized advantage estimates of (T, B) rollouts; `dones[t]` ends the
    episode after step t, `last` the values after the last step."""
    out = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[1], np.float32)
    following = last
    for t in range(len(rewards) - 1, -1, -1):
        going = 1.0 - dones[t]
        delta = rewards[t] + gamma * following * going - values[t]
        running = delta + gamma * lam * going * running
        out[t] = running
        following = values[t]
    return out
