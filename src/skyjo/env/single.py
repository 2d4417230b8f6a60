"""Gymnasium's single-agent environment: one learning seat against bots (docs/env.md).

`SkyjoEnv(opponents=("greedy",), rules=None, one_round=False, reward="score",
seat=0, illegal_reward=None, render_mode=None, slots=None,
max_round_turns=2000, engine=None, observation="dict", discount=1.0)`,
registered as `skyjo/Skyjo-v0` by `import skyjo.env` (with the vectorized
environment, `skyjo.env.vector`, as its vector entry point). The table has
`1 + len(opponents)` seats: the agent's (`seat`; None draws it from each
game's seed) and the bots of `skyjo.bots` in the others, in order, each
seeded from the game's seed by `skyjo.seeds.bot_seed` as `skyjo.match`
seeds them. `step` plays the agent's action, then the bots' until the agent
is to act again or the game is over. No rule is written here:

- `engine="kernel"` (the default when every bot is one the kernel plays:
  `random`, `greedy`, `basic`, `expected`, without options) plays the game
  and the bots in compiled code (`skyjo.env.vector.Batch`, one table), with
  the engine's decks and the bots' own random draws;
- `engine="reference"` (the default for any other bot) plays it through
  `skyjo.env.table` (the engine) with the bots of `skyjo.bots`.

Both play the same games from the same seeds (`tests/parity/test_vector.py`).

- Observations: `observation="dict"`: `{"observation": int16 array,
  "action_mask": int8 array}` (the layout of `skyjo.kernel.layout`);
  `observation="float32"`: the array scaled to float32 (`Layout.floats`),
  the vectorized environment's. The mask is also in `info["action_mask"]`
  and `action_masks()`.
- Rewards: those of `skyjo.env.table` for the agent's seat, summed over the
  bots' moves that follow its action (a round a bot ends scores then).
- An illegal action (unmasked, as `check_env` sends them) ends the episode:
  `terminated=True`, the reward is `illegal_reward` (default -1.0 with
  `reward="win"`, -100.0 with `reward="score"`: a round as bad as the default
  target), `info["illegal"] = True` and `info["reason"]` says why (the
  engine's `IllegalActionError`). The action is never replaced by a legal one.
- A round that reaches `max_round_turns` turns (the agent's and the bots')
  ends the episode by the stall rule (`skyjo.env.table.stalled`), its
  penalty grown against `discount` (the agent's learner's discount, 1.0 by
  default) so that stalling does not pay for the discounted return either.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from skyjo.actions import _integral
from skyjo.bots import Bot, factory, make_bot
from skyjo.engine import (
    GAME_INFO,
    NUM_ACTIONS,
    IllegalActionError,
    State,
    legal_actions,
    new_game,
    step,
)
from skyjo.env.aec import observation_space
from skyjo.env.encoding import Encoder
from skyjo.env.table import Masks, Outcome, Settings, Table, settings
from skyjo.env.vector import ILLEGAL_REWARD, Batch, float_space, kernel_policy
from skyjo.kernel import vector as kv
from skyjo.kernel.layout import Layout, to_float
from skyjo.observation import observe
from skyjo.render import render_observation
from skyjo.rules import Rules
from skyjo.seeds import bot_seed

ENV_ID = "skyjo/Skyjo-v0"
ENGINES = ("kernel", "reference")
OBSERVATIONS = ("dict", "float32")


class SkyjoEnv(gymnasium.Env[Any, int]):
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
        engine: str | None = None,
        observation: str = "dict",
        discount: float = 1.0,
    ) -> None:
        if isinstance(opponents, str):
            opponents = [opponents]
        self.opponents = list(opponents)
        for spec in self.opponents:
            factory(spec)  # an unknown bot is an error now, not at the first reset
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be dict or float32, not {observation!r}")
        if engine is None:
            compiled = all(kernel_policy(spec) for spec in self.opponents)
            engine = "kernel" if compiled else "reference"
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        self.render_mode = render_mode
        self.engine = engine
        self.observation = observation
        game = settings(
            1 + len(self.opponents), rules, one_round, reward, max_round_turns, discount
        )
        n = game.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be None or 0 to {n - 1}, not {seat!r}")
        self._fixed_seat = seat
        default = ILLEGAL_REWARD[game.reward]
        self.illegal_reward = default if illegal_reward is None else illegal_reward
        self.layout = Layout(n, slots or 0)
        self._game: KernelSeat | ReferenceSeat
        if engine == "kernel":
            self._game = KernelSeat(game, self.opponents, seat, self.illegal_reward, self.layout)
        else:
            self._game = ReferenceSeat(game, self.opponents, seat, self.layout)
        self._floats = self.layout.floats(game.rules.target_score)
        if observation == "dict":
            self.observation_space = observation_space(self.layout)
        else:
            self.observation_space = float_space(self.layout, game.rules.target_score)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._over = True
        self._mask = np.zeros(NUM_ACTIONS, np.int8)

    @property
    def seat(self) -> int:
        """The agent's seat in the current game (before the first, `seat` or 0)."""
        return self._game.seat

    @property
    def game_state(self) -> State | None:
        """The engine's state of the game (full information: never for the agent)."""
        return self._game.state

    def names(self) -> list[str]:
        """The seats' names: `agent` and each bot's spec."""
        others = iter(self.opponents)
        n = len(self.opponents) + 1
        return ["agent" if p == self.seat else next(others) for p in range(n)]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new game (the engine's `new_game(n, seed=seed)`), then let the
        bots play until the agent is to act."""
        super().reset(seed=seed)
        self._game.reset(seed)
        self._over = False
        return self._observe()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        reward, done, truncated, reason = self._game.play(action)
        if reason is not None:
            reward = float(self.illegal_reward)
        self._over = done or truncated or reason is not None
        observation, info = self._observe()
        info["illegal"] = reason is not None
        if reason is not None:
            info["reason"] = reason
        return observation, reward, done or reason is not None, truncated, info

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions now (int8, 39; zeros once the episode is
        over): sb3-contrib's name for the mask."""
        return self._mask.copy()

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        raw, mask = self._game.observe(not self._over)
        self._mask = mask
        info = {"action_mask": mask.copy(), "illegal": False}
        if self.observation == "dict":
            return {"observation": raw, "action_mask": mask.copy()}, info
        return to_float(raw, *self._floats), info

    def render(self) -> str | None:  # type: ignore[override]
        """The table as the agent sees it (`skyjo.render`), as text."""
        if self.render_mode is None:
            return None
        state = self._game.state
        if state is None:
            return "no game: call reset() first"
        return render_observation(observe(state, self.seat), self.names())

    def close(self) -> None:
        self._game.close()


class KernelSeat:
    """The agent's game on one compiled table (`skyjo.env.vector.Batch`): the
    bots are the kernel's policies; the actions played are logged, so that
    the engine replays the game (`state`) and names an illegal action's fault."""

    def __init__(
        self,
        game: Settings,
        opponents: Sequence[str],
        seat: int | None,
        illegal_reward: float,
        layout: Layout,
    ) -> None:
        self.settings = game
        self._batch = Batch(1, game, opponents, seat, illegal_reward, layout, kv.DISABLED, True)
        self.seat = seat or 0
        self._seed: int | None = None
        self._actions: list[int] = []
        self._replayed: tuple[State | None, int] = (None, 0)
        self._out: kv.Out | None = None

    def reset(self, seed: int | None) -> None:
        self._out = self._batch.reset([seed])
        g = self._batch.g
        self._seed = int(g.seed[0]) if seed is None else seed
        self.seat = int(g.seat[0])
        self._actions = []
        self._replayed = (None, 0)
        self._read_log()

    def _read_log(self) -> None:
        g = self._batch.g
        self._actions += g.log[0, : g.log_len[0]].tolist()
        g.log_len[0] = 0

    def play(self, action: Any) -> tuple[float, bool, bool, str | None]:
        """The agent's action and the bots' moves after it: the agent's reward,
        whether the episode ended (done, truncated), and an illegal action's
        fault (the engine's sentence; nothing was played)."""
        code = _integral(action)
        if code is None or not 0 <= code < NUM_ACTIONS:
            code = -1
        o = self._out = self._batch.step(np.array([code], np.int64))
        if o.illegal[0]:
            return 0.0, True, False, fault(self.state, action)
        self._read_log()
        return float(o.reward[0]), bool(o.terminated[0]), bool(o.truncated[0]), None

    def observe(self, live: bool) -> tuple[np.ndarray, np.ndarray]:
        """The agent's observation (int16) and mask (zeros unless `live`), fresh arrays."""
        assert self._out is not None, "reset() first"
        mask = self._out.mask[0].copy() if live else np.zeros(NUM_ACTIONS, np.int8)
        return self._batch.g.raw[0].copy(), mask

    @property
    def state(self) -> State | None:
        """The engine's state of this game: its seed and actions replayed."""
        if self._seed is None:
            return None
        state, played = self._replayed
        if state is None:
            n, rules = self.settings.num_players, self.settings.rules
            state, played = new_game(n, seed=self._seed, rules=rules), 0
        for action in self._actions[played:]:
            state = step(state, action)
        self._replayed = (state, len(self._actions))
        return state

    def close(self) -> None:
        """Nothing to release."""


def fault(state: State | None, action: Any) -> str:
    """Why the engine refuses `action` in `state` (its `IllegalActionError`)."""
    try:
        step(state, action)  # type: ignore[arg-type]
    except IllegalActionError as error:
        return str(error)
    raise AssertionError(f"the kernel refused {action!r}, which the engine plays")


class ReferenceSeat:
    """The agent's game through the engine (`skyjo.env.table.Table`) against the
    bots of `skyjo.bots`, each seeded with `bot_seed(game seed, seat)`."""

    def __init__(
        self, game: Settings, opponents: Sequence[str], seat: int | None, layout: Layout
    ) -> None:
        self.opponents = list(opponents)
        self._table = Table(game)
        self._fixed_seat = seat
        self.seat = seat or 0
        self._encoder = Encoder(layout, game.rules)
        self._masks = Masks()
        self._bots: dict[int, Bot] = {}

    @property
    def state(self) -> State | None:
        return self._table.state

    def reset(self, seed: int | None) -> None:
        self._close_bots()
        state = self._table.reset(seed)
        n = self._table.num_players
        game_seed = self._table.seed
        assert game_seed is not None
        if self._fixed_seat is None:
            self.seat = random.Random(game_seed).randrange(n)
        others = [p for p in range(n) if p != self.seat]
        names = ["agent" if p == self.seat else "" for p in range(n)]
        for p, spec in zip(others, self.opponents, strict=True):
            names[p] = spec
        for p, spec in zip(others, self.opponents, strict=True):
            bot = self._bots[p] = make_bot(spec, bot_seed(game_seed, p))
            start = getattr(bot, "start", None)
            if callable(start):
                start(p, n, state.rules, players=names)
        self._bots_play()  # no round ends before the agent's first action

    def play(self, action: Any) -> tuple[float, bool, bool, str | None]:
        try:
            outcome = self._table.play(action)
        except IllegalActionError as error:
            self._finish()
            return 0.0, True, False, str(error)
        reward = self._mine(outcome)
        done, truncated = outcome.done, outcome.truncated
        if not (done or truncated):
            more, done, truncated = self._bots_play()
            reward += more
        if done or truncated:
            self._finish()
        return reward, done, truncated, None

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

    def observe(self, live: bool) -> tuple[np.ndarray, np.ndarray]:
        state = self._table.state
        assert state is not None, "reset() first"
        if live and state.player == self.seat:
            mask = self._masks(legal_actions(state))
        else:
            mask = Masks.empty()
        return self._encoder.encode(state, self.seat), mask

    def _finish(self) -> None:
        """The episode is over: tell the bots that listen (as `skyjo.match` does)."""
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

    def close(self) -> None:
        self._close_bots()
