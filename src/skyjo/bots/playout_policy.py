"""The greedy playout policy (`skyjo.kernel.playout_greedy`) as a bot, and its
action in an engine state: a baseline, and the tests' way to the policy."""

from __future__ import annotations

import random

import numpy as np

from skyjo import kernel
from skyjo.engine import Phase, State
from skyjo.kernel.playout_greedy import DEFAULT_POLICY, Policy, choose, params, scratch
from skyjo.observation import Observation


def policy_action(state: State, policy: Policy = DEFAULT_POLICY, turns: int = 0) -> int:
    """The policy's action in an engine state of the turns of a round, `turns`
    turns into a playout (its patience counts those). It reads only what the
    player to act may see, so it may be given any determinization."""
    t = kernel.new_tables(1, state.num_players)
    kernel.load_state(t, 0, state)
    t.turns[0] = turns
    return int(choose(t, 0, params(policy), *scratch()))


class PolicyBot:
    """The playout policy as a bot (a greedy baseline): the opening reveals two
    cards of different columns at random."""

    name = "policy"

    def __init__(self, seed: int, policy: Policy = DEFAULT_POLICY) -> None:
        self._rng = random.Random(seed)
        self._params = params(policy)
        self._scratch = scratch()

    def choose(self, observation: Observation) -> int:
        """The policy's action in any sampled world; no face-down card it deals is
        read."""
        from skyjo.bots.determinize import Sampler, opening_reveal

        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if observation.phase == Phase.REVEAL:
            return opening_reveal(observation, self._rng)
        sampler = Sampler(observation)
        t = kernel.new_tables(1, observation.num_players)
        sampler.load(t, 0, np.array(sampler.pool, dtype=np.int64))
        return int(choose(t, 0, self._params, *self._scratch))
