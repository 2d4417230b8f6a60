"""The vectorized environment (skyjo.env.vector): Gymnasium 1.x's vector API,
seeds, autoreset, bad actions, the stall rule. The games themselves are
checked against the engine in tests/parity/test_vector.py."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import skyjo.env
from skyjo.engine import DRAW, NUM_ACTIONS, SWAP
from skyjo.env import SkyjoEnv, SkyjoVectorEnv
from skyjo.env.table import ROUND_BOUND
from skyjo.rules import Rules


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action at every table."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def stalling_actions(obs: np.ndarray, masks: np.ndarray, layout) -> np.ndarray:
    """At every table: reveal, then draw and exchange with a face-up card (never
    turn up a face-down one: the round cannot end by this seat)."""
    actions = masks.argmax(axis=1)  # the lowest legal: a reveal, or DRAW
    for b in np.flatnonzero(masks[:, SWAP]).tolist():
        down = obs[b, layout.grid(0, 1)] > 0
        actions[b] = SWAP + int(np.flatnonzero(~down)[0])
    return actions


def test_make_vec_builds_it_from_the_vector_entry_point() -> None:
    envs = gymnasium.make_vec(
        skyjo.env.ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", opponents=["random"]
    )
    assert isinstance(envs, SkyjoVectorEnv) and isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert envs.single_observation_space.shape == (130,)
    assert envs.single_observation_space.dtype == np.float32
    assert envs.observation_space.shape == (3, 130)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([NUM_ACTIONS] * 3)
    obs, info = envs.reset(seed=1)
    assert obs.dtype == np.float32 and envs.observation_space.contains(obs)
    assert info["action_mask"].shape == (3, NUM_ACTIONS) and info["action_mask"].dtype == np.int8
    assert info["action_mask"].any(axis=1).all()  # every table waits for a decision
    assert envs.action_masks() is info["action_mask"]


def test_every_step_returns_new_arrays_in_bounds() -> None:
    envs = SkyjoVectorEnv(4, opponents=["greedy", "random", "greedy"], reward="win")
    obs, info = envs.reset(seed=5)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        before = obs, info["action_mask"]
        obs, rewards, terminated, truncated, info = envs.step(random_actions(before[1], rng))
        assert not any(np.shares_memory(obs, old) for old in before)
        assert envs.observation_space.contains(obs)
        assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
        assert info["action_mask"].any(axis=1).all()  # SAME_STEP: always a live decision
        if "final_obs" in info:
            for final in info["final_obs"][info["_final_obs"]]:
                assert envs.single_observation_space.contains(final)
                assert not np.shares_memory(final, obs)
                ends += 1
    assert ends > 4


def test_the_same_seed_plays_the_same_trajectories() -> None:
    """Two environments, one seed, the same actions: every array equal; table i
    of `reset(seed=s)` is `reset(seed=[s, s + 1, ...])`'s; another seed differs."""
    first, second = SkyjoVectorEnv(4), SkyjoVectorEnv(4)
    obs, info = first.reset(seed=11)
    np.testing.assert_array_equal(second.reset(seed=[11, 12, 13, 14])[0], obs)
    assert not np.array_equal(SkyjoVectorEnv(4).reset(seed=12)[0], obs)
    rng = np.random.default_rng(3)
    for _ in range(200):
        actions = random_actions(info["action_mask"], rng)
        one, two = first.step(actions), second.step(actions)
        for a, b in zip(one[:4], two[:4], strict=True):
            np.testing.assert_array_equal(a, b)
        obs, info = one[0], one[4]
    np.testing.assert_array_equal(first.seats, second.seats)


def test_the_learners_seat_rotates_with_the_seed_or_stays_where_it_is_put() -> None:
    rotating = SkyjoVectorEnv(64, opponents=["greedy", "greedy", "greedy"])
    rotating.reset(seed=0)
    assert set(rotating.seats.tolist()) == {0, 1, 2, 3}
    fixed = SkyjoVectorEnv(8, opponents=["greedy", "greedy"], seat=2)
    fixed.reset(seed=0)
    assert set(fixed.seats.tolist()) == {2}


def test_an_illegal_action_ends_that_tables_episode_with_the_penalty() -> None:
    """Never played, never replaced by a legal action: the table's episode ends
    with `illegal_reward`, `final_info["illegal"]` says so, the next game starts."""
    envs = SkyjoVectorEnv(3, illegal_reward=-9.0)
    _obs, info = envs.reset(seed=2)
    assert not info["action_mask"][:, DRAW].any()  # the opening reveals come first
    legal = info["action_mask"].argmax(axis=1)
    _, rewards, terminated, truncated, info = envs.step([legal[0], DRAW, 39])
    np.testing.assert_array_equal(rewards, [0.0, -9.0, -9.0])
    np.testing.assert_array_equal(terminated, [False, True, True])
    assert not truncated.any()
    np.testing.assert_array_equal(info["_final_obs"], [False, True, True])
    np.testing.assert_array_equal(info["final_info"]["illegal"][1:], [True, True])
    assert info["final_obs"][0] is None
    np.testing.assert_array_equal(info["final_obs"][1], SkyjoVectorEnv(3).reset(seed=2)[0][1])
    default = SkyjoVectorEnv(1, reward="win")
    default.reset(seed=0)
    assert default.step([-1])[1][0] == -1.0


def test_actions_must_be_integers_one_a_table() -> None:
    envs = SkyjoVectorEnv(2)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step([0, 0])
    envs.reset(seed=0)
    with pytest.raises(TypeError, match="actions must be integers, not float64"):
        envs.step([0.0, 1.0])
    with pytest.raises(ValueError, match=r"2 integers, one a table, not shape \(3,\)"):
        envs.step([0, 1, 2])
    with pytest.raises(TypeError, match="not bool"):
        envs.step([True, False])


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="the kernel plays the bots random, greedy, basic"):
        SkyjoVectorEnv(2, opponents=["search"])
    with pytest.raises(ValueError, match="not 'expected:lookahead=0'"):
        SkyjoVectorEnv(2, opponents=["expected:lookahead=0"])
    with pytest.raises(ValueError, match="num_envs must be at least 1"):
        SkyjoVectorEnv(0)
    with pytest.raises(ValueError, match="SAME_STEP or NEXT_STEP"):
        SkyjoVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match="seat must be None or 0 to 1"):
        SkyjoVectorEnv(2, seat=2)
    with pytest.raises(ValueError, match="reset takes no options"):
        SkyjoVectorEnv(2).reset(options={"reset_mask": [True, False]})
    with pytest.raises(ValueError, match="3 seeds for 2 tables"):
        SkyjoVectorEnv(2).reset(seed=[1, 2, 3])


def test_next_step_autoreset_resets_at_the_step_after_the_end() -> None:
    """NEXT_STEP: the terminal observation is returned (its mask all zeros), and
    the next step, whatever its action, deals the next game: reward 0, no end."""
    envs = SkyjoVectorEnv(2, autoreset_mode="NextStep", one_round=True)
    obs, info = envs.reset(seed=0)
    obs, rewards, terminated, *_, info = envs.step([DRAW, info["action_mask"][1].argmax()])
    assert terminated[0] and not info["action_mask"][0].any() and info["illegal"][0]
    obs, rewards, terminated, truncated, info = envs.step([38, info["action_mask"][1].argmax()])
    assert rewards[0] == 0.0 and not terminated[0] and not truncated[0]
    assert info["action_mask"][0].any()
    single = SkyjoEnv(one_round=True, seat=None, observation="float32")
    single.reset(seed=0)
    expected, _ = single.reset()  # the next game of seed 0's stream
    np.testing.assert_array_equal(obs[0], expected)


def test_a_learner_that_never_ends_a_round_gets_the_stall_penalty() -> None:
    """The stall rule in the vector environment: a learner that never turns a
    card up after the opening, against `random` with a limit of 20 turns (10
    each): whenever the round reaches the limit, the learner pays the target
    plus ROUND_BOUND (round 1: its total is 0), worse than any round."""
    envs = SkyjoVectorEnv(64, opponents=["random"], one_round=True, max_round_turns=20)
    obs, info = envs.reset(seed=0)
    stalled = 0
    for _ in range(60):
        actions = stalling_actions(obs, info["action_mask"], envs.layout)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for b in np.flatnonzero(terminated).tolist():
            assert rewards[b] > -ROUND_BOUND or rewards[b] == -(100 + ROUND_BOUND)
            stalled += rewards[b] == -(100 + ROUND_BOUND)
    assert stalled > 20


def test_gymnasiums_vector_wrappers_take_it() -> None:
    """`RecordEpisodeStatistics` reads the autoreset mode from the metadata."""
    envs = RecordEpisodeStatistics(SkyjoVectorEnv(8, one_round=True))
    _obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(200):
        *_, info = envs.step(random_actions(info["action_mask"], rng))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert (info["episode"]["r"][info["_episode"]] < 0).all()  # round scores
    assert episodes > 8


def test_the_single_environment_on_the_kernel_passes_check_env() -> None:
    for observation in ("dict", "float32"):
        table = SkyjoEnv(opponents=["greedy", "expected"], observation=observation)
        assert table.engine == "kernel"
        check_env(table, skip_render_check=True)
    assert SkyjoEnv(opponents=["search"]).engine == "reference"
    with pytest.raises(ValueError, match="the kernel plays the bots"):
        SkyjoEnv(opponents=["search"], engine="kernel")
    with pytest.raises(ValueError, match="observation must be dict or float32"):
        SkyjoEnv(observation="int")


def test_the_single_environments_float_observation_and_masks() -> None:
    table = SkyjoEnv(observation="float32", rules=Rules(target_score=50))
    obs, info = table.reset(seed=3)
    assert obs.dtype == np.float32 and table.observation_space.contains(obs)
    np.testing.assert_array_equal(table.action_masks(), info["action_mask"])
    vector = SkyjoVectorEnv(1, seat=0, rules=Rules(target_score=50))
    np.testing.assert_array_equal(vector.reset(seed=3)[0][0], obs)
