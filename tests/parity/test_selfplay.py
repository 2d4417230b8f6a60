"""Self-play in the vectorized environment (`skyjo.env.selfplay`) against the
compiled bots and the engine.

An opponent played from Python that chooses what the compiled bot would
(`kernel.vector.seat_actions`, the seat's generator seeded as that bot's)
must give exactly the games of the compiled bot: every observation, mask,
reward, end and final observation, at reset (the opponents' opening reveals
before the learner's first decision) and after, in both autoreset modes,
alone or beside compiled seats, through a pool too. And the observation an
opponent policy gets is its own seat's, as the engine's environment
(`SkyjoEnv(engine="reference")`) encodes `skyjo.observation.observe` for that
seat, with the legal actions as its mask.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from test_vector import choose  # tests/parity/test_vector.py: random legal, stalling, illegal

import skyjo.env.single
from skyjo.env import SkyjoEnv, SkyjoVectorEnv
from skyjo.env.encoding import encode_observation
from skyjo.env.selfplay import PolicyPool
from skyjo.kernel import vector as kv
from skyjo.kernel.layout import to_float
from skyjo.kernel.policies import POLICIES
from skyjo.kernel.table import PLAYER
from skyjo.rules import Rules


def compiled(envs: list[SkyjoVectorEnv], bot: str, places: set[int]) -> Callable[..., np.ndarray]:
    """A batched callable (it sees only obs and mask) playing what the compiled
    `bot` plays for the seat to act, at the tables of envs[0] where one of the
    opponents `places` (indexes in `opponents`) is to act: those of its wave."""
    code = POLICIES[bot]

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        batch = envs[0]._batch
        tables = np.flatnonzero(batch.g.wait)
        seats = batch.t.slots[tables, PLAYER]
        index = seats - (seats > batch.g.seat[tables])
        tables = tables[np.isin(index, list(places))]
        assert len(tables) == len(obs) == len(mask)
        out = np.empty(len(tables), np.int64)
        kv.seat_actions(batch.t, batch.g, code, tables, out)
        return out

    return policy


def lineups(kind: str, bot: str, holder: list[SkyjoVectorEnv]) -> tuple[list[Any], list[str]]:
    """The opponents played from Python for `kind`, and the compiled ones they copy."""
    if kind == "one":
        return [compiled(holder, bot, {0})], [bot]
    if kind == "mixed":  # a compiled seat, then one played from Python
        return [bot, compiled(holder, bot, {1})], [bot, bot]
    if kind == "mixed-first":
        return [compiled(holder, bot, {0}), bot], [bot, bot]
    if kind == "shared":  # one callable for two seats: one call a wave
        policy = compiled(holder, bot, {0, 1})
        return [policy, policy], [bot, bot]
    if kind == "two":  # two callables, each its own seat
        return [compiled(holder, bot, {0}), compiled(holder, bot, {1})], [bot, bot]
    if kind == "pool":  # one snapshot: it plays every seat of the pool
        pool = PolicyPool([compiled(holder, bot, {0, 1})], seed=1)
        return [pool, pool], [bot, bot]
    raise AssertionError(kind)


def side_by_side(
    kind: str,
    mode: AutoresetMode,
    bot: str = "greedy",
    tables: int = 6,
    steps: int = 300,
    seed: int = 7,
    **options: Any,
) -> dict[str, int]:
    """Step the environment with opponents played from Python and the one with
    the compiled bots they copy; every array of every step equal. Counts of
    what happened, to check the cover."""
    holder: list[SkyjoVectorEnv] = []
    outside, inside = lineups(kind, bot, holder)
    selfplay = SkyjoVectorEnv(tables, opponents=outside, autoreset_mode=mode, **options)
    holder.append(selfplay)
    reference = SkyjoVectorEnv(tables, opponents=inside, autoreset_mode=mode, **options)
    obs, info = selfplay.reset(seed=seed)
    expected, expected_info = reference.reset(seed=seed)
    np.testing.assert_array_equal(obs, expected)
    np.testing.assert_array_equal(info["action_mask"], expected_info["action_mask"])
    np.testing.assert_array_equal(selfplay.seats, reference.seats)
    rng = random.Random(seed)
    seen = {"ended": 0, "truncated": 0, "illegal": 0, "won": 0}
    for _ in range(steps):
        masks = info["action_mask"]
        live = masks.any(axis=1)
        actions = np.array(
            [
                choose(masks[b], obs[b], selfplay.layout, rng) if live[b] else 0
                for b in range(tables)
            ]
        )
        obs, rewards, terminated, truncated, info = selfplay.step(actions)
        expected, expected_rewards, ended, cut, expected_info = reference.step(actions)
        np.testing.assert_array_equal(obs, expected)
        np.testing.assert_array_equal(rewards, expected_rewards)
        np.testing.assert_array_equal(terminated, ended)
        np.testing.assert_array_equal(truncated, cut)
        np.testing.assert_array_equal(info["action_mask"], expected_info["action_mask"])
        assert info.keys() == expected_info.keys()
        done = np.flatnonzero(terminated | truncated)
        if mode == AutoresetMode.SAME_STEP and len(done):
            for b in done.tolist():
                np.testing.assert_array_equal(info["final_obs"][b], expected_info["final_obs"][b])
            illegal = info["final_info"]["illegal"]
            np.testing.assert_array_equal(illegal, expected_info["final_info"]["illegal"])
        elif len(done):
            illegal = info["illegal"]
            np.testing.assert_array_equal(illegal, expected_info["illegal"])
        for b in done.tolist():
            seen["ended"] += 1
            seen["truncated"] += bool(truncated[b])
            seen["illegal"] += bool(illegal[b])
            seen["won"] += rewards[b] > 0
        np.testing.assert_array_equal(selfplay.seats, reference.seats)
    return seen


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
@pytest.mark.parametrize("kind", ["one", "mixed", "mixed-first", "shared", "two", "pool"])
def test_a_callable_playing_greedy_plays_the_compiled_greedys_games(
    kind: str, mode: AutoresetMode
) -> None:
    """2 players ("one") and 3 (the others), whole games to 40, the learner's
    seat drawn from each game's seed: the same arrays at every step."""
    seen = side_by_side(kind, mode, seat=None, rules=Rules(target_score=40))
    assert seen["ended"] > 6 and seen["illegal"]


def test_the_stall_rule_and_the_turn_limit_at_a_seat_played_from_python() -> None:
    """`random` copied from Python, a turn limit of 29 and 5: the round that
    reaches it at an outside seat's turn is scored (the stall rule) or cut as
    the compiled bots' is."""
    seen = side_by_side(
        "mixed", AutoresetMode.SAME_STEP, "random", max_round_turns=29, reward="win", seed=3
    )
    assert seen["ended"] > 6
    cut = side_by_side("one", AutoresetMode.NEXT_STEP, "random", max_round_turns=5, seed=4)
    assert cut["truncated"]


def test_expected_copied_from_python_plays_the_same_way() -> None:
    seen = side_by_side("one", AutoresetMode.SAME_STEP, "expected", steps=120, one_round=True)
    assert seen["ended"]


class Tagged(gymnasium.Wrapper):
    """A reference table that says it is the one playing (`NOW[0]`), so that a
    bot's decision is filed under its table."""

    def __init__(self, env: gymnasium.Env, table: int) -> None:
        super().__init__(env)
        self.table = table

    def reset(self, **kwargs: Any) -> Any:
        NOW[0] = self.table
        return self.env.reset(**kwargs)

    def step(self, action: Any) -> Any:
        NOW[0] = self.table
        return self.env.step(action)


NOW = [0]


@pytest.mark.parametrize("players", [2, 3])
def test_a_callable_sees_its_own_seats_observation_and_legal_actions(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's environment with Python's greedy bots beside the vectorized
    one with greedy played from Python: every decision of every opponent seat,
    table by table in order, gets the observation that `encode_observation`
    makes of `observe(state, seat)` (as floats) and the mask of its legal
    actions; the reset's opening decisions included."""
    rules = Rules(target_score=40)
    layout = skyjo.env.Layout(players)
    floats = layout.floats(rules.target_score)
    tables = 5
    decisions: list[list[tuple[int, np.ndarray, np.ndarray]]] = [[] for _ in range(tables)]
    made = skyjo.env.single.make_bot

    class Seen:
        """A Python bot whose decisions are written down, the table's by the table."""

        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def choose(self, observation: Any) -> int:
            mask = np.zeros(39, np.int8)
            mask[list(observation.legal_actions)] = 1
            array = to_float(encode_observation(observation, layout), *floats)
            decisions[NOW[0]].append((observation.viewer, array, mask))
            return int(self.bot.choose(observation))

    monkeypatch.setattr(skyjo.env.single, "make_bot", lambda *a, **k: Seen(made(*a, **k)))
    reference = SyncVectorEnv(
        [
            (lambda b=b: Tagged(SkyjoEnv(engine="reference", observation="float32",
                                         opponents=["greedy"] * (players - 1), seat=None,
                                         rules=rules), b))
            for b in range(tables)
        ],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )  # fmt: skip
    holder: list[SkyjoVectorEnv] = []
    greedy = compiled(holder, "greedy", set(range(players - 1)))
    called: list[list[tuple[int, np.ndarray, np.ndarray]]] = [[] for _ in range(tables)]

    def seeing(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        batch = holder[0]._batch
        waiting = np.flatnonzero(batch.g.wait)
        for i, b in enumerate(waiting.tolist()):
            called[b].append((int(batch.t.slots[b, PLAYER]), obs[i], mask[i]))
        return greedy(obs, mask)

    vector = SkyjoVectorEnv(tables, opponents=[seeing] * (players - 1), seat=None, rules=rules)
    holder.append(vector)
    obs, info = vector.reset(seed=21)
    expected, _ = reference.reset(seed=21)
    np.testing.assert_array_equal(obs, expected)
    for b, seat in enumerate(vector.seats.tolist()):  # the reveals in seat order (RULES.md 2.3)
        assert len(called[b]) == 2 * seat  # the opponents' before the learner's first decision
    assert vector.seats.any()
    rng = random.Random(2)
    for _ in range(150):
        masks = info["action_mask"]
        actions = [choose(masks[b], obs[b], vector.layout, rng) for b in range(tables)]
        obs, *_, info = vector.step(actions)
        expected, *_ = reference.step(np.array(actions))
        np.testing.assert_array_equal(obs, expected)
    for b in range(tables):
        assert len(called[b]) == len(decisions[b]) > 100
        for (seat, array, mask), (viewer, expected_array, legal) in zip(
            called[b], decisions[b], strict=True
        ):
            assert seat == viewer
            np.testing.assert_array_equal(array, expected_array)
            np.testing.assert_array_equal(mask, legal)
