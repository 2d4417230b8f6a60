"""Gymnasium's vector API on the kernel: N tables of one learner against
compiled bots, stepped in one compiled call (docs/env.md).

    import gymnasium, skyjo.env
    envs = gymnasium.make_vec("skyjo/Skyjo-v0", num_envs=1024,
                              vectorization_mode="vector_entry_point", opponents=["greedy"])

`SkyjoVectorEnv(num_envs, opponents=("greedy",), rules=None, one_round=False,
reward="score", seat=None, illegal_reward=None, slots=None,
max_round_turns=2000, autoreset_mode=AutoresetMode.SAME_STEP,
discount=1.0)`. Each table is the Gymnasium environment's game
(`skyjo.env.single.SkyjoEnv` with the same options, the stall rule's
`discount` included), played by `skyjo.kernel.vector`: the same seeds give
the same games, which the engine replays (`tests/parity/test_vector.py`).

- Observations: float32, (num_envs, size), the layout of
  `skyjo.kernel.layout` scaled by `Layout.floats` (bounds in
  `single_observation_space`); `info["action_mask"]` (int8, (num_envs, 39))
  and `action_masks()` give the legal actions. Every array a step returns is
  new (never a buffer the environment writes again).
- Rewards (float64), terminated and truncated (bool): the learner's, as the
  Gymnasium environment's, over its action and the bots' moves after it.
- Autoreset: SAME_STEP by default (an ended episode's last observation is in
  `info["final_obs"]`, and the observation returned is the next game's first,
  so every step is a decision with a legal action); NEXT_STEP on request.
- An illegal action ends that table's episode with `illegal_reward` (the
  Gymnasium environment's rule); `final_info["illegal"]` (SAME_STEP) or
  `info["illegal"]` (NEXT_STEP) says which.
- Self-play: an opponent may be a batched callable `policy(obs, mask)` or a
  `skyjo.env.selfplay.TablePolicy` (a `PolicyPool` of snapshots), called
  from Python where its seats are to act (`skyjo.env.selfplay`).

`Batch` is the Python side of the compiled tables, which the Gymnasium
environment also plays on (`engine="kernel"`): with opponents played from
Python, it runs their waves (`skyjo.kernel.vector`: a table stops where such
a seat is to act; the seat's observation and mask go to its policy, whose
checked actions the compiled code plays before going on) until every table
is at its learner's decision.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from skyjo.engine import GAME_INFO, NUM_ACTIONS
from skyjo.env.selfplay import Policy, TablePolicy, policy_actions
from skyjo.env.table import Settings, settings
from skyjo.kernel import RULE_SLOTS, rule_codes
from skyjo.kernel import vector as kv
from skyjo.kernel.layout import Layout
from skyjo.kernel.policies import POLICIES
from skyjo.kernel.twister import generator
from skyjo.seeds import bot_seed
from skyjo.shuffle import KeyChain

#: The penalty of an illegal action per reward kind (`illegal_reward=None`).
ILLEGAL_REWARD = {"win": -1.0, "score": -100.0}
_MODES = {
    AutoresetMode.SAME_STEP: kv.SAME_STEP,
    AutoresetMode.NEXT_STEP: kv.NEXT_STEP,
    AutoresetMode.DISABLED: kv.DISABLED,
}
_SEED_LIMIT = 2**63


def kernel_policy(spec: str) -> str | None:
    """The name of the compiled policy (`skyjo.kernel.policies`) that plays the
    bot `spec` exactly, or None: the built-in `random`, `greedy`, `basic` and
    `expected` without options (as `skyjo.batch.games.batch_policy` says,
    which the environments may not import: tests/test_layers.py)."""
    from skyjo.bots import BotError, factory
    from skyjo.bots.basic import BasicBot
    from skyjo.bots.expected import make_expected
    from skyjo.bots.greedy import GreedyBot
    from skyjo.bots.random_bot import RandomBot

    try:
        name, make, options = factory(spec)
    except BotError:
        return None
    compiled = {"random": RandomBot, "greedy": GreedyBot, "basic": BasicBot}
    compiled["expected"] = make_expected
    return name if compiled.get(name) is make and not options else None


def policy_code(spec: str) -> int:
    """The compiled policy of a bot spec: `random`, `greedy`, `basic` or
    `expected`, without options (ValueError for any other)."""
    name = kernel_policy(spec)
    if name is None:
        known = ", ".join(POLICIES)
        raise ValueError(
            f"the kernel plays the bots {known} (without options), not {spec!r}: "
            "use SkyjoEnv(engine='reference') for the others"
        )
    return POLICIES[name]


#: An opponent: a compiled bot's spec, a batched callable or a `TablePolicy`.
Opponent = str | Policy | TablePolicy


def opponent_code(opponent: Opponent) -> int:
    """The policy code of an opponent: a compiled bot's (`policy_code`), or
    OUTSIDE for one played from Python (a callable or a `TablePolicy`)."""
    if isinstance(opponent, str):
        return policy_code(opponent)
    if isinstance(opponent, TablePolicy) or callable(opponent):
        return kv.OUTSIDE
    raise TypeError(
        "an opponent is a bot spec (random, greedy, basic, expected), a batched callable "
        f"policy(obs, mask) or a TablePolicy, not {opponent!r}"
    )


class Batch:
    """B tables of one learner against compiled bots (`skyjo.kernel.vector`):
    the arrays, their settings, the Python side of seeding, and the waves
    of the opponents played from Python (module docstring)."""

    def __init__(
        self,
        batch: int,
        game: Settings,
        opponents: Sequence[Opponent],
        seat: int | None,
        illegal_reward: float,
        layout: Layout,
        mode: int,
        log: bool = False,
    ) -> None:
        n = game.num_players
        self.size = batch
        self.settings = game
        self.layout = layout
        self.t, self.g = kv.new_games(batch, n, layout.size, log)
        g = self.g
        g.opponents[:] = [opponent_code(opponent) for opponent in opponents]
        #: the policies played from Python, each once, with the opponents' indexes it plays
        groups: dict[int, tuple[Opponent, list[int]]] = {}
        for i, opponent in enumerate(opponents):
            if g.opponents[i] == kv.OUTSIDE:
                groups.setdefault(id(opponent), (opponent, []))[1].append(i)
        self._outside = [(p, np.array(where, np.int64)) for p, where in groups.values()]
        self._aware = [p for p, _ in self._outside if isinstance(p, TablePolicy)]
        #: a wave failed (a policy's error): the tables wait until `reset`
        self.interrupted = False
        g.conf[:] = 0
        g.conf[kv.PLAYERS] = n
        g.conf[kv.ONE_ROUND] = game.one_round
        g.conf[kv.REWARD] = kv.WIN if game.reward == "win" else kv.SCORE
        g.conf[kv.SEAT] = -1 if seat is None else seat
        g.conf[kv.MAX_TURNS] = game.max_round_turns
        g.conf[kv.SLOTS] = layout.slots
        for name, code in zip(RULE_SLOTS, rule_codes(game.rules), strict=True):
            g.conf[kv.RULE_CONF[name]] = code
        g.conf[kv.AUTORESET] = mode
        g.fconf[kv.ILLEGAL_REWARD] = illegal_reward
        g.fconf[kv.DISCOUNT] = game.discount
        g.scale[:], g.low[:], g.high[:] = layout.floats(game.rules.target_score)
        self.g = g = g._replace(clipped=layout.clipped())
        entropy = random.Random()  # a stream of seeds before any seed, as SeedStream's
        for b in range(batch):
            g.stream[b] = generator(random.Random(entropy.getrandbits(64)))
        self._seeds: list[int | None] = [None] * batch
        self._fixed_seat = seat

    def out(self) -> kv.Out:
        return kv.new_out(self.size, self.layout.size)

    def reset(self, seeds: Sequence[int | None]) -> kv.Out:
        """Start a game at every table: table b's from seeds[b] (and its stream
        of later seeds), or the next seed of its stream when None."""
        how = np.full(self.size, kv.FROM_STREAM, np.int64)
        given = np.zeros(self.size, np.int64)
        for b, seed in enumerate(seeds):
            if seed is None:
                continue
            seed = operator.index(seed)  # NumPy's integers too, never a float
            if seed < 0:
                raise ValueError(f"seeds are integers from 0, not {seed}")
            if seed < _SEED_LIMIT:
                how[b], given[b] = kv.FROM_SEED, seed
            else:
                self._deal_in_python(b, seed)
                how[b] = kv.DEALT
        o = self.out()
        self.interrupted = False  # every table starts anew: none waits
        self._waves(o, kv.reset_tables(self.t, self.g, o, how, given))
        return o

    def _deal_in_python(self, b: int, seed: int) -> None:
        """Table b's game of a seed the compiled code does not take (2**63 and
        more), seeded by `random`, `seeds` and `shuffle` themselves."""
        g, n = self.g, self.settings.num_players
        g.stream[b] = generator(random.Random(seed))
        seat = self._fixed_seat
        if seat is None:
            seat = random.Random(seed).randrange(n)
        for p in range(n):
            g.mt[b, p] = generator(random.Random(bot_seed(seed, p)))
        chain = KeyChain(seed)
        deck = np.array(chain.deck(), np.int8)
        g.seed[b] = -1
        kv.start_with(self.t, g, b, seat, np.uint64(chain.key), deck)

    def step(self, actions: np.ndarray) -> kv.Out:
        o = self.out()
        self._waves(o, kv.step_tables(self.t, self.g, o, actions))
        return o

    def _waves(self, o: kv.Out, waiting: int) -> None:
        """The opponents played from Python, wave after wave, until no table
        waits (`waiting`: how many do); the `TablePolicy`s told of the games
        started first. A policy's error leaves the tables as they were
        before its wave (nothing of it played) and `interrupted`."""
        if self._aware:
            self._tell_starts()
        if not waiting:
            return
        self.interrupted = True
        while waiting:
            tables = np.flatnonzero(self.g.wait)
            actions = self._wave_actions(tables)
            waiting = kv.resume_tables(self.t, self.g, o, tables, actions)
            self._tell_starts()
        self.interrupted = False

    def _tell_starts(self) -> None:
        """`new_episodes` to every `TablePolicy` for the games started since last told."""
        started = np.flatnonzero(self.g.started)
        if len(started):
            self.g.started[started] = False
            for policy in self._aware:
                policy.new_episodes(started)

    def _wave_actions(self, tables: np.ndarray) -> np.ndarray:
        """The actions of the seats to act at `tables` (waiting for Python),
        from their policies, each called once with its rows and checked."""
        k = len(tables)
        obs = np.empty((k, self.layout.size), np.float32)
        mask = np.empty((k, NUM_ACTIONS), np.int8)
        seats = np.empty(k, np.int64)
        kv.outside_views(self.t, self.g, tables, obs, mask, seats)
        learner = self.g.seat[tables]
        index = seats - (seats > learner)  # the opponent's place in `opponents`
        actions = np.empty(k, np.int64)
        for policy, where in self._outside:
            rows = np.flatnonzero(np.isin(index, where))
            if not len(rows):
                continue
            at, who = tables[rows], seats[rows]
            if isinstance(policy, TablePolicy):
                chosen = policy.act(obs[rows], mask[rows], at, who)
            else:
                chosen = policy(obs[rows], mask[rows])
            name = f"opponents[{int(where[0])}] ({_short(policy)})"
            actions[rows] = policy_actions(name, chosen, mask[rows], at, who)
        return actions


def _short(policy: Any) -> str:
    """A policy's repr, cut to a line."""
    text = repr(policy)
    return text if len(text) <= 60 else text[:57] + "..."


def checked_actions(actions: Any, count: int) -> np.ndarray:
    """The actions as int64, one a table: a TypeError for anything but integers
    (a float is never rounded into an action), a ValueError for another shape."""
    array = np.asarray(actions)
    if array.shape != (count,):
        raise ValueError(f"actions must be {count} integers, one a table, not shape {array.shape}")
    if array.dtype.kind not in "iu":
        raise TypeError(f"actions must be integers, not {array.dtype}")
    return array.astype(np.int64, copy=False)


def float_space(layout: Layout, target_score: int) -> spaces.Box:
    """The space of one float32 observation (`Layout.floats`)."""
    _, low, high = layout.floats(target_score)
    return spaces.Box(low, high, (layout.size,), np.float32)


class SkyjoVectorEnv(VectorEnv):
    """N tables of one learner against compiled bots or policies played from
    Python (module docstring; docs/env.md)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "autoreset_mode": None}

    def __init__(
        self,
        num_envs: int = 1,
        opponents: Opponent | Sequence[Opponent] = ("greedy",),
        rules: Any = None,
        one_round: bool = False,
        reward: str = "score",
        seat: int | None = None,
        illegal_reward: float | None = None,
        slots: int | None = None,
        max_round_turns: int = GAME_INFO.max_round_turns,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        render_mode: str | None = None,
        discount: float = 1.0,
    ) -> None:
        count = operator.index(num_envs)
        if count < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs!r}")
        if render_mode is not None:
            raise ValueError(f"the vector environment renders nothing: render_mode={render_mode!r}")
        mode = AutoresetMode(autoreset_mode)
        if mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be SAME_STEP or NEXT_STEP, not DISABLED")
        if isinstance(opponents, (str, TablePolicy)) or callable(opponents):
            opponents = [opponents]
        self.opponents: list[Opponent] = list(opponents)  # type: ignore[arg-type]
        game = settings(
            1 + len(self.opponents), rules, one_round, reward, max_round_turns, discount
        )
        n = game.num_players
        if seat is not None and not (type(seat) is int and 0 <= seat < n):
            raise ValueError(f"seat must be None or 0 to {n - 1}, not {seat!r}")
        default = ILLEGAL_REWARD[game.reward]
        self.illegal_reward = default if illegal_reward is None else float(illegal_reward)
        self.layout = Layout(n, slots or 0)
        self.num_envs = count
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.render_mode = None
        self._batch = Batch(
            count, game, self.opponents, seat, self.illegal_reward, self.layout, _MODES[mode]
        )
        self.single_observation_space = float_space(self.layout, game.rules.target_score)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, count)
        self.action_space = batch_space(self.single_action_space, count)
        self._mask: np.ndarray | None = None

    @property
    def seats(self) -> np.ndarray:
        """Each table's learner seat in its current game (a copy)."""
        return self._batch.g.seat.copy()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the last observation, (num_envs, 39) int8: the
        array of the last `info["action_mask"]` (sb3-contrib's name)."""
        if self._mask is None:
            raise RuntimeError("no observation yet: call reset() first")
        return self._mask

    def teacher_actions(self, teacher: str = "expected") -> np.ndarray:
        """What the compiled bot `teacher` (`random`, `greedy`, `basic` or
        `expected`) would play in each table's learner seat now, (num_envs,)
        int64 (-1 where the learner is not to act: a NEXT_STEP table about to
        reset): labels for imitation learning. It plays nothing."""
        if self._mask is None:
            raise RuntimeError("no observation yet: call reset() first")
        out = np.empty(self.num_envs, np.int64)
        kv.teacher_actions(self._batch.t, self._batch.g, policy_code(teacher), out)
        return out

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game at every table: with `seed` an int s, table i plays
        the game of seed s + i (as Gymnasium's `SyncVectorEnv` seeds its
        copies); a sequence gives each table's (None: the next of its stream);
        no seed, each table's next game."""
        if options:
            raise ValueError(f"reset takes no options, not {sorted(options)}")
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} tables")
        o = self._batch.reset(seeds)
        self._mask = o.mask
        return o.obs, {"action_mask": o.mask}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self._mask is None:
            raise RuntimeError("no game yet: call reset() first")
        if self._batch.interrupted:
            raise RuntimeError(
                "the last step stopped at an opponent policy's error (the tables wait "
                "for that opponent): call reset() to deal new games"
            )
        o = self._batch.step(checked_actions(actions, self.num_envs))
        self._mask = o.mask
        info: dict[str, Any] = {"action_mask": o.mask}
        ended = np.flatnonzero(o.ended)
        if len(ended):
            if self.autoreset_mode == AutoresetMode.SAME_STEP:
                final = np.full(self.num_envs, None, object)
                for b in ended.tolist():
                    final[b] = o.final[b]
                info["final_obs"], info["_final_obs"] = final, o.ended
                info["final_info"] = {"illegal": o.illegal, "_illegal": o.ended}
                info["_final_info"] = o.ended
            else:
                info["illegal"], info["_illegal"] = o.illegal, o.ended
        return o.obs, o.reward, o.terminated, o.truncated, info

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: no process, file or window."""
