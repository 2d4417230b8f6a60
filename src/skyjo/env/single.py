"""Gymnasium's single-agent environment: one learning seat against bots (docs/env.md).

`SkyjoEnv(opponents=("greedy",), rules=None, one_round=False, reward="score",
seat=0, illegal_reward=None, render_mode=None, slots=None,
max_round_turns=2000)`, registered as
`skyjo/Skyjo-v0` by `import skyjo.env`. The table has `1 + len(opponents)`
seats: the agent's (`seat`; None draws it from each game's seed) and the
bots of `skyjo.bots` in the others, in order, each seeded from the game's
seed by `skyjo.seeds.bot_seed` as `skyjo.match` seeds them. The game runs
through `skyjo.env.table` (the engine; no rule here): `step` plays the
agent's action, then the bots' until the agent is to act again or the game
is over.

- Observations: `{"observation": int16 array, "action_mask": int8 array}`
  (the layout of `skyjo.kernel.layout`), the mask also in `info["action_mask"]`.
- Rewards: those of `skyjo.env.table` for the agent's seat, summed over the
  bots' moves that follow its action (a round a bot ends scores then).
- An illegal action (unmasked, as `check_env` sends them) ends the episode:
  `terminated=True`, the reward is `illegal_reward` (default -1.0 with
  `reward="win"`, -100.0 with `reward="score"`: a round as bad as the default
  target), `info["illegal"] = True` and `info["reason"]` says why (the
  engine's `IllegalActionError`). The action is never replaced by a legal one.
- A round that reaches `max_round_turns` turns (the agent's and the bots')
  without ending stops the episode: `truncated=True`, as `skyjo.match` stops.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from skyjo.bots import Bot, factory, make_bot
from skyjo.engine import GAME_INFO, NUM_ACTIONS, IllegalActionError, State, legal_actions
from skyjo.env.aec import observation_space
from skyjo.env.encoding import Encoder
from skyjo.env.table import Masks, Outcome, Table, settings
from skyjo.kernel.layout import Layout
from skyjo.observation import observe
from skyjo.render import render_observation
from skyjo.rules import Rules
from skyjo.seeds import bot_seed

ENV_ID = "skyjo/Skyjo-v0"
#: The penalty of an illegal action per reward kind (`illegal_reward=None`).
ILLEGAL_REWARD = {"win": -1.0, "score": -100.0}


class SkyjoEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One agent's seat at a table of bots (module docstring; docs/env.md)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        opponents: Sequence[str] = ("greedy",),
        rules: Rules | None = None,
        one_round: bool = False,
        reward: str = "score",
        seat: int | None = 0,
        illegal_reward: float | None = None,
        render_mode: str | None = None,
        slots: int | None = None,
        max_round_turns: int = GAME_INFO.max_round_turns,
    ) -> None:
        if isinstance(opponents, str):
            opponents = [opponents]
        self.opponents = list(opponents)
        for spec in self.opponents:
            factory(spec)  # an unknown bot is an error now, not at the first reset
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        game = settings(1 + len(self.opponents), rules, one_round, reward, max_round_turns)
        self._table = Table(game)
        n = self._table.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be None or 0 to {n - 1}, not {seat!r}")
        self._fixed_seat = seat
        self.seat = seat or 0
        default = ILLEGAL_REWARD[self._table.settings.reward]
        self.illegal_reward = default if illegal_reward is None else illegal_reward
        self.layout = Layout(n, slots or 0)
        self._encoder = Encoder(self.layout, self._table.rules)
        self._masks = Masks()
        self.observation_space = observation_space(self.layout)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._bots: dict[int, Bot] = {}
        self._over = True

    @property
    def game_state(self) -> State | None:
        """The engine's state of the game (full information: never for the agent)."""
        return self._table.state

    def names(self) -> list[str]:
        """The seats' names: `agent` and each bot's spec."""
        others = iter(self.opponents)
        n = self._table.num_players
        return ["agent" if p == self.seat else next(others) for p in range(n)]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new game (the engine's `new_game(n, seed=seed)`), then let the
        bots play until the agent is to act."""
        super().reset(seed=seed)
        self._close_bots()
        state = self._table.reset(seed)
        n = self._table.num_players
        game_seed = self._table.seed
        assert game_seed is not None
        if self._fixed_seat is None:
            self.seat = random.Random(game_seed).randrange(n)
        names = self.names()
        for p, spec in zip((p for p in range(n) if p != self.seat), self.opponents, strict=True):
            bot = self._bots[p] = make_bot(spec, bot_seed(game_seed, p))
            start = getattr(bot, "start", None)
            if callable(start):
                start(p, n, state.rules, players=names)
        self._over = False
        self._bots_play()  # no round ends before the agent's first action
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            outcome = self._table.play(action)
        except IllegalActionError as error:
            self._finish()
            info = self._info(illegal=True)
            info["reason"] = str(error)
            return self._observation(), float(self.illegal_reward), True, False, info
        reward = self._mine(outcome)
        done, truncated = outcome.done, outcome.truncated
        if not (done or truncated):
            more, done, truncated = self._bots_play()
            reward += more
        if done or truncated:
            self._finish()
        return self._observation(), reward, done, truncated, self._info()

    def _bots_play(self) -> tuple[float, bool, bool]:
        """Bots' moves until the agent is to act or the episode ends: the agent's
        rewards meanwhile, and whether it ended (done, truncated)."""
        table, reward = self._table, 0.0
        while True:
            state = table.state
            assert state is not None
            if state.player == self.seat:
                return reward, False, False
            bot = self._bots[state.player]
            outcome = table.play(bot.choose(observe(state, state.player)))
            reward += self._mine(outcome)
            if outcome.done or outcome.truncated:
                return reward, outcome.done, outcome.truncated

    def _mine(self, outcome: Outcome) -> float:
        return 0.0 if outcome.rewards is None else outcome.rewards[self.seat]

    def _finish(self) -> None:
        """The episode is over: tell the bots that listen (as `skyjo.match` does)."""
        self._over = True
        state = self._table.state
        for p, bot in self._bots.items():
            game_over = getattr(bot, "game_over", None)
            if callable(game_over):
                game_over(observe(state, p))
        self._close_bots()

    def _close_bots(self) -> None:
        for bot in self._bots.values():
            close = getattr(bot, "close", None)
            if callable(close):
                close()
        self._bots = {}

    def _mask(self) -> np.ndarray:
        state = self._table.state
        if self._over or state is None or state.player != self.seat:
            return Masks.empty()
        return self._masks(legal_actions(state))

    def _observation(self) -> dict[str, np.ndarray]:
        state = self._table.state
        assert state is not None
        return {"observation": self._encoder.encode(state, self.seat), "action_mask": self._mask()}

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        return {"action_mask": self._mask(), "illegal": illegal}

    def render(self) -> str | None:  # type: ignore[override]
        """The table as the agent sees it (`skyjo.render`), as text."""
        if self.render_mode is None:
            return None
        state = self._table.state
        if state is None:
            return "no game: call reset() first"
        return render_observation(observe(state, self.seat), self.names())

    def close(self) -> None:
        self._close_bots()
