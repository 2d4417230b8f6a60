"""Self-play in the vectorized environment (`skyjo.env.selfplay`): opponents as
batched callables and `TablePolicy`s, their errors, the snapshot pool's rule,
seeds and episodes. Their games against the compiled bots and the engine are
in tests/parity/test_selfplay.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from test_env_vector import stalling_actions  # tests/env/test_env_vector.py

from skyjo.engine import DRAW, NEXT_ROUND, NUM_ACTIONS, REVEAL
from skyjo.env import Layout, SkyjoVectorEnv
from skyjo.env.selfplay import PolicyPool, TablePolicy
from skyjo.env.table import ROUND_BOUND
from skyjo.rules import Rules

DOCS = Path(__file__).resolve().parents[2] / "docs" / "env.md"


def lowest(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A batched policy: the lowest legal action of each row."""
    return mask.argmax(axis=1)


def highest(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A batched policy: the highest legal action of each row."""
    return NUM_ACTIONS - 1 - mask[:, ::-1].argmax(axis=1)


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


class Calls:
    """A batched callable that writes down what it is given and plays `lowest`,
    or, once `bad` is set, answers `bad(obs, mask)` instead."""

    def __init__(self) -> None:
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []
        self.bad: Any = None

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> Any:
        self.calls.append((obs, mask))
        return lowest(obs, mask) if self.bad is None else self.bad(obs, mask)


def test_a_callable_is_called_once_a_wave_with_its_seats_views_at_reset_and_steps() -> None:
    """The learner in seat 1: the callable (seat 0) reveals first, in one call
    for every table at reset; each call has float32 (k, size) and int8 (k, 39)
    legal masks, one row a table waiting for it; the learner's arrays stay
    the environment's own."""
    policy = Calls()
    envs = SkyjoVectorEnv(4, opponents=policy, seat=1)  # one callable: a list of one
    assert envs.opponents == [policy]
    obs, info = envs.reset(seed=0)
    assert len(policy.calls) == 2  # seat 0's two reveals (RULES.md 2.3), a wave each
    for views, masks in policy.calls:
        assert views.dtype == np.float32 and views.shape == (4, envs.layout.size)
        assert masks.dtype == np.int8 and masks.shape == (4, NUM_ACTIONS)
        assert masks[:, REVEAL : REVEAL + 12].any(axis=1).all() and not masks[:, DRAW].any()
        assert all(envs.single_observation_space.contains(row) for row in views)
    rng = np.random.default_rng(0)
    for _ in range(100):
        before = len(policy.calls)
        obs, *_, info = envs.step(random_actions(info["action_mask"], rng))
        assert envs.observation_space.contains(obs) and info["action_mask"].any(axis=1).all()
        for views, masks in policy.calls[before:]:
            assert 1 <= len(views) == len(masks) <= 4
            assert masks.any(axis=1).all() and not masks[:, NEXT_ROUND].any()
    assert len(policy.calls) > 100  # about one wave a step: a turn is two decisions


class Starts(TablePolicy):
    """A `TablePolicy` that writes down the episodes it is told of and the rows
    it plays (the lowest legal action)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, list[int], list[int]]] = []

    def new_episodes(self, tables: np.ndarray) -> None:
        self.events.append(("new", tables.tolist(), []))

    def act(self, obs: np.ndarray, mask: np.ndarray, tables: np.ndarray, seats: np.ndarray) -> Any:
        assert len(obs) == len(mask) == len(tables) == len(seats)
        assert (np.diff(tables) > 0).all()  # increasing, a table once
        self.events.append(("act", tables.tolist(), seats.tolist()))
        return lowest(obs, mask)


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
def test_a_table_policy_is_told_each_episode_before_it_plays_in_it(mode: AutoresetMode) -> None:
    """`new_episodes`: every table at reset, then each table whose next game
    starts (SAME_STEP: at the step that ends one; NEXT_STEP: at the step
    after); `act`: the seats to act are the opponents' (never the learner's),
    and a table plays only in an episode it was told of."""
    policy = Starts()
    envs = SkyjoVectorEnv(6, opponents=[policy, "greedy"], autoreset_mode=mode, one_round=True)
    _, info = envs.reset(seed=3)
    assert policy.events[0] == ("new", list(range(6)), [])
    assert not any(kind == "new" for kind, *_ in policy.events[1:])
    rng = np.random.default_rng(1)
    ended = np.zeros(6, bool)  # NEXT_STEP: ended at the last step
    starts = acts = 0
    for _ in range(150):
        seat = envs.seats  # each table's learner, until it is told of a new game
        policy.events.clear()
        actions = random_actions(info["action_mask"], rng)
        _, _, terminated, truncated, info = envs.step(actions)
        now = terminated | truncated
        told: list[int] = []
        for kind, tables, at in policy.events:
            if kind == "new":
                told += tables
                seat[tables] = envs.seats[tables]
            else:
                assert not (np.array(at) == seat[tables]).any()
                acts += len(tables)
        expected = now if mode == AutoresetMode.SAME_STEP else ended
        assert sorted(told) == np.flatnonzero(expected).tolist()
        starts += len(told)
        ended = now
    assert starts > 6 and acts > 150


def test_an_illegal_action_from_a_callable_is_refused_before_anything_is_played() -> None:
    """The ValueError names the opponent, the table, the seat, the action and
    the legal ones; the wave is not played (the tables as the callable saw
    them); the next step asks for a reset, after which the games go on."""
    policy = Calls()
    envs = SkyjoVectorEnv(3, opponents=["greedy", policy], seat=0)
    _, info = envs.reset(seed=1)
    batch = envs._batch
    seen: list[tuple[np.ndarray, ...]] = []

    def draws_at_table_1(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen.append(tuple(a.copy() for a in batch.t))
        actions = lowest(obs, mask)
        actions[np.flatnonzero(batch.g.wait) == 1] = DRAW  # where DRAW is not legal
        return actions

    policy.bad = draws_at_table_1
    actions = info["action_mask"].argmax(axis=1)
    _, _, _, _, info = envs.step(actions)  # the learner's first reveal
    message = (
        r"^opponents\[1\] \(<.*Calls object at .*>\) played action 12 at table 1, seat 2, "
        r"which is not legal there \(legal: \[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11\]\)$"
    )
    with pytest.raises(ValueError, match=message):
        envs.step(info["action_mask"].argmax(axis=1))  # its second, then the others' reveals
    for now, then in zip(batch.t, seen[-1], strict=True):
        np.testing.assert_array_equal(now, then)  # not a card moved by the failed wave
    with pytest.raises(RuntimeError, match=r"opponent policy's error .*: call reset\(\)"):
        envs.step(actions)
    policy.bad = None
    obs, info = envs.reset(seed=1)
    fresh = SkyjoVectorEnv(3, opponents=["greedy", lowest], seat=0)
    np.testing.assert_array_equal(obs, fresh.reset(seed=1)[0])
    for _ in range(30):
        actions = info["action_mask"].argmax(axis=1)
        obs, reward, *_, info = envs.step(actions)
        expected, expected_reward, *_ = fresh.step(actions)
        np.testing.assert_array_equal(obs, expected)
        np.testing.assert_array_equal(reward, expected_reward)


SHORT = r"must return 3 actions, one an observation, not shape \(2,\)"
NEGATIVE = r"played action -1 at table 0, seat 0, which is not legal there .* \(and 2 more\)$"


@pytest.mark.parametrize(
    ("answer", "error", "message"),
    [
        (lambda obs, mask: lowest(obs, mask)[:-1], ValueError, SHORT),
        (lambda obs, mask: lowest(obs, mask)[:, None], ValueError, r"not shape \(3, 1\)"),
        (lambda obs, mask: 0, ValueError, r"not shape \(\)"),
        (lambda obs, mask: lowest(obs, mask) * 1.0, TypeError, "integer actions, not float64"),
        (lambda obs, mask: mask.any(axis=1), TypeError, "integer actions, not bool"),
        (lambda obs, mask: [NUM_ACTIONS] * len(obs), ValueError, "played action 39 at table 0"),
        (lambda obs, mask: np.full(len(obs), -1), ValueError, NEGATIVE),
        (lambda obs, mask: 1 // 0, ZeroDivisionError, "by zero"),  # its own error
    ],
    ids=["short", "column", "scalar", "floats", "bools", "too-high", "negative", "raises"],
)
def test_a_callables_answer_must_be_one_legal_integer_action_a_row(
    answer: Any, error: type[Exception], message: str
) -> None:
    """The answer refused (or the policy's own error passed on) at reset, where
    seat 0 reveals first; the environment then needs a reset that deals new
    games (not one refused for its seeds)."""
    policy = Calls()
    policy.bad = answer
    envs = SkyjoVectorEnv(3, opponents=policy, seat=1)
    with pytest.raises(error, match=message):
        envs.reset(seed=0)
    with pytest.raises(RuntimeError, match="call reset"):
        envs.step([0, 0, 0])
    with pytest.raises(ValueError, match="seeds are integers from 0, not -1"):
        envs.reset(seed=[0, -1, 0])
    with pytest.raises(RuntimeError, match="call reset"):
        envs.step([0, 0, 0])
    policy.bad = None
    _, info = envs.reset(seed=0)
    envs.step(info["action_mask"].argmax(axis=1))


def test_an_opponent_is_a_bot_spec_a_callable_or_a_table_policy() -> None:
    with pytest.raises(TypeError, match=r"an opponent is a bot spec .* or a TablePolicy, not 3"):
        SkyjoVectorEnv(2, opponents=[3])
    with pytest.raises(ValueError, match="the kernel plays the bots"):
        SkyjoVectorEnv(2, opponents=[lowest, "search"])
    pool = PolicyPool([lowest])
    assert SkyjoVectorEnv(2, opponents=pool).opponents == [pool]


def test_the_pool_draws_by_its_rule() -> None:
    """With probability `latest` the newest snapshot, else one of the last
    `window` uniformly: frequencies over 20,000 draws within 0.02 of it."""
    pool = PolicyPool([lowest] * 5, window=3, latest=0.3, seed=0)
    counts = np.bincount(pool.draw(20_000), minlength=5) / 20_000
    np.testing.assert_allclose(counts, [0, 0, 0.7 / 3, 0.7 / 3, 0.3 + 0.7 / 3], atol=0.02)
    uniform = np.bincount(PolicyPool([lowest] * 4, seed=1).draw(20_000), minlength=4) / 20_000
    np.testing.assert_allclose(uniform, [0.25] * 4, atol=0.02)
    assert set(PolicyPool([lowest] * 4, latest=1.0, seed=2).draw(100).tolist()) == {3}
    assert set(PolicyPool([lowest] * 4, window=1, seed=2).draw(100).tolist()) == {3}
    with pytest.raises(ValueError, match=r"holds no policy yet: add\(\) one"):
        PolicyPool().draw(1)
    with pytest.raises(ValueError, match="window must be None or at least 1, not 0"):
        PolicyPool(window=0)
    with pytest.raises(ValueError, match=r"latest must be a probability from 0 to 1, not 1\.5"):
        PolicyPool(latest=1.5)
    with pytest.raises(TypeError, match="a snapshot is a batched callable"):
        PolicyPool().add("greedy")


def constant(action: int) -> Any:
    """A snapshot that plays `action` at every row (a reveal: any is legal below)."""
    return lambda obs, mask: np.full(len(obs), action)


def test_the_pool_keeps_each_seats_snapshot_for_its_episode() -> None:
    """`act` dispatches each (table, seat) to the snapshot it drew at its first
    decision of the episode and keeps it; `new_episodes` makes those tables
    draw again, from the snapshots held then."""
    pool = PolicyPool([constant(REVEAL + i) for i in range(4)], seed=5)
    obs = np.zeros((6, 10), np.float32)
    mask = np.zeros((6, NUM_ACTIONS), np.int8)
    mask[:, REVEAL : REVEAL + 12] = 1
    tables, seats = np.array([0, 1, 2, 3, 5, 7]), np.array([1, 1, 0, 2, 1, 3])
    pool.new_episodes(np.arange(8))
    first = pool.act(obs, mask, tables, seats)
    assigned = [pool.assigned(t, s) for t, s in zip(tables, seats, strict=True)]
    assert first.tolist() == [REVEAL + a for a in assigned]
    assert len(set(assigned)) > 1 and pool.assigned(0, 0) is None and pool.assigned(9, 9) is None
    for _ in range(5):
        np.testing.assert_array_equal(pool.act(obs, mask, tables, seats), first)
    pool.add(constant(REVEAL + 11))
    pool.latest = 1.0  # the new draws: the newest
    np.testing.assert_array_equal(pool.act(obs, mask, tables, seats), first)  # kept
    pool.new_episodes(np.array([1, 5]))
    assert pool.assigned(1, 1) is None
    again = pool.act(obs, mask, tables, seats)
    assert again.tolist() == [
        REVEAL + 11 if t in (1, 5) else f for t, f in zip(tables, first, strict=True)
    ]


def test_a_pool_snapshots_bad_answer_names_the_snapshot() -> None:
    pool = PolicyPool([lowest, constant(NEXT_ROUND)], latest=1.0)
    envs = SkyjoVectorEnv(2, opponents=pool, seat=1)
    with pytest.raises(
        ValueError, match=r"^snapshot 1 of the pool played action 38 at table 0, seat 0"
    ):
        envs.reset(seed=0)


def pool_run(seed: int | None, steps: int = 80) -> tuple[list[list[int | None]], np.ndarray]:
    """Three players against a pool of four snapshots (lowest/highest legal
    actions) at 4 tables: each step's assignments and the rewards."""
    pool = PolicyPool([lowest, highest, lowest, highest], seed=seed)
    envs = SkyjoVectorEnv(4, opponents=[pool, pool], one_round=True, rules=Rules(target_score=50))
    _, info = envs.reset(seed=9)
    rng = np.random.default_rng(4)
    trace, rewards = [], []
    for _ in range(steps):
        _, reward, *_, info = envs.step(random_actions(info["action_mask"], rng))
        trace.append([pool.assigned(b, s) for b in range(4) for s in range(3)])
        rewards.append(reward)
    return trace, np.array(rewards)


def test_a_seeded_pool_makes_the_same_draws_and_games() -> None:
    trace, rewards = pool_run(11)
    again, same = pool_run(11)
    assert trace == again
    np.testing.assert_array_equal(rewards, same)
    assert pool_run(12)[0] != trace


def test_in_the_environment_a_table_keeps_its_snapshots_until_its_episode_ends() -> None:
    """Three players, the pool at both opponent seats: a seat's snapshot, once
    drawn, never changes within the episode; the learner's seat never has one;
    at each new episode every seat draws again (both snapshots are drawn)."""
    pool = PolicyPool([lowest, highest, lowest], seed=3)
    envs = SkyjoVectorEnv(8, opponents=[pool, pool], one_round=True)
    _, info = envs.reset(seed=2)
    rng = np.random.default_rng(0)
    held = {(b, s): pool.assigned(b, s) for b in range(8) for s in range(3)}
    changes, episodes = 0, 0
    for _ in range(200):
        _, _, terminated, truncated, info = envs.step(random_actions(info["action_mask"], rng))
        ended = terminated | truncated
        episodes += int(ended.sum())
        for b in range(8):
            learner = envs.seats[b]
            for s in range(3):
                now = pool.assigned(b, s)
                if s == learner:
                    assert now is None
                elif not ended[b]:
                    assert held[b, s] is None or now == held[b, s]
                changes += ended[b] and now != held[b, s]
                held[b, s] = now
    assert episodes > 8 and changes > 4


@pytest.mark.parametrize("reward", ["score", "win"])
def test_a_learner_and_its_copy_that_never_end_a_round_both_pay(reward: str) -> None:
    """Self-play's trap (docs/env.md): the learner and a callable copy of it
    never turn a card up after the opening; every round reaches the limit of
    30 turns, where both could have ended it (15 turns each): each episode
    ends with the stall rule, the learner paying the target plus ROUND_BOUND
    (round 1: its total is 0), or losing (nobody wins)."""
    layout = Layout(2)
    envs = SkyjoVectorEnv(
        16,
        opponents=lambda obs, mask: stalling_actions(obs, mask, layout),
        one_round=True,
        max_round_turns=30,
        reward=reward,
    )
    obs, info = envs.reset(seed=0)
    ended = 0
    for _ in range(80):
        actions = stalling_actions(obs, info["action_mask"], layout)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        assert (rewards[terminated] == (-(100 + ROUND_BOUND) if reward == "score" else -1)).all()
        assert not rewards[~terminated].any()
        ended += int(terminated.sum())
    assert ended > 16


def test_the_docs_self_play_example_runs() -> None:
    """docs/env.md's "Self-play" example, as it is written there."""
    text = DOCS.read_text()
    section = text[text.index("## Self-play") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    scope: dict[str, Any] = {}
    exec(compile(code.group(1), str(DOCS), "exec"), scope)
    assert scope["pool"] and len(scope["pool"]) >= 2
