"""PettingZoo's AEC environment of Skyjo: every seat an agent (docs/env.md).

`raw_env(num_players=4, rules=None, one_round=False, reward="score",
render_mode=None, slots=None, max_round_turns=2000, engine="kernel",
discount=1.0)` plays the whole game to the target score (RULES.md 3), or
one round with `one_round=True`. This module holds no rule. With
`engine="kernel"` (the default) the game is played on a compiled kernel table
(`skyjo.env.kernel_game`: `skyjo.kernel`'s rules, which a test checks
against the engine's, and the engine's decks and reshuffles); with
`engine="reference"` by the engine itself (`skyjo.env.table`). Both play the
same game from the same seed, and a test compares them step for step. The
agents are `player_0` .. `player_{n-1}`, seat i being `player_i`; the agent
to act is the engine's player to act (RULES.md 2.3-2.5: the opening reveals
in seat order, then turns of two actions each, DRAW or TAKE_DISCARD then
where to put the card). The next round is dealt by the environment, so
`NEXT_ROUND` is never legal in an observation.

- `observe(agent)`: `{"observation": int16 array (skyjo.kernel.layout's
  layout), "action_mask": int8 array of the 39 engine actions}`, a fresh
  array each time; the mask is all zeros for an agent who is not to act.
- Rewards: `reward="score"` gives each agent minus its round score at each
  round's end; `reward="win"` gives at the game's end +1 to each winner (a
  shared win gives +1 to each of them, RULES.md 3) and -1 to the others.
- An illegal action (None included, from an agent still playing) raises the
  engine's `IllegalActionError` (its message names the action and the
  reason) and changes nothing: the agent may act again. Nothing is ever
  replaced by a legal action. PettingZoo's `TerminateIllegalWrapper` over
  `raw_env()` gives the classic games' other convention (the game ends, the
  offender gets a penalty).
- A round that reaches `max_round_turns` turns without ending ends the game
  by the stall rule (`skyjo.env.table.stalled`): every agent that could have
  ended the round pays a penalty, grown against `discount` (the agents'
  learners' discount, 1.0 by default); when none could have, every agent
  is truncated (`truncations`).
- `render()` with `render_mode="ansi"` returns `skyjo.render`'s text view of
  the table as the agent to act sees it (face-down cards as `#`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from skyjo.engine import GAME_INFO, NUM_ACTIONS, State
from skyjo.env.kernel_game import KernelGame
from skyjo.env.ordering import Ordered
from skyjo.env.table import NOTHING, Outcome, ReferenceGame, settings
from skyjo.kernel.layout import DTYPE, Layout
from skyjo.observation import observe
from skyjo.render import render_observation
from skyjo.rules import Rules

NAME = "skyjo_v0"


def env(**kwargs: Any) -> AECEnv:
    """`raw_env(**kwargs)` in PettingZoo's `OrderEnforcingWrapper` (which refuses
    a step or an observation before `reset`), as the classic games are; its
    subclass `Ordered` runs the same checks at a fraction of the cost."""
    return Ordered(raw_env(**kwargs))


def observation_space(layout: Layout) -> spaces.Dict:
    """The space of one agent's observation: the array and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(layout.low, layout.high, (layout.size,), DTYPE),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


#: The games an environment plays on: `engine=` of `raw_env`.
ENGINES = {"kernel": KernelGame, "reference": ReferenceGame}


class raw_env(AECEnv):
    """Skyjo for 2 to 8 agents (module docstring; docs/env.md)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 4,
        rules: Rules | None = None,
        one_round: bool = False,
        reward: str = "score",
        render_mode: str | None = None,
        slots: int | None = None,
        max_round_turns: int = GAME_INFO.max_round_turns,
        engine: str = "kernel",
        discount: float = 1.0,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        self.render_mode = render_mode
        game = settings(num_players, rules, one_round, reward, max_round_turns, discount)
        self.layout = Layout(num_players, slots or 0)
        self._game = ENGINES[engine](game, self.layout)
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = observation_space(self.layout)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        action = spaces.Discrete(NUM_ACTIONS)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._rewarded = False

    @property
    def game_state(self) -> State | None:
        """The engine's state of the game (full information: never for an agent)."""
        return self._game.state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: the engine's `new_game(num_players, seed=seed)`."""
        self._game.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._rewarded = False
        self.agent_selection = self.agents[self._game.player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._game.observe(self._seats[agent], not self.terminations.get(agent, True))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        outcome = self._game.play(action)  # IllegalActionError: nothing changed
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        if outcome is not NOTHING:
            self._end(outcome)
        else:
            self.agent_selection = self.possible_agents[self._game.player]

    def _end(self, outcome: Outcome) -> None:
        """A round's or the game's end: rewards, terminations, truncations."""
        if outcome.rewards is not None:
            for agent, reward in zip(self.possible_agents, outcome.rewards, strict=True):
                self.rewards[agent] = reward
            self._rewarded = True
            self._accumulate_rewards()
        if outcome.done:
            self.terminations = dict.fromkeys(self.agents, True)
        if outcome.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self._game.player]

    def render(self) -> str | None:
        """The table as the agent to act sees it (`skyjo.render`), as text."""
        if self.render_mode is None:
            return None
        state = self._game.state
        if state is None:
            return "no game: call reset() first"
        return render_observation(observe(state, state.player), self.possible_agents)

    def close(self) -> None:
        """Nothing to release: the environment holds no process, file or window."""
