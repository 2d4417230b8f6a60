"""The vectorized environment (`skyjo.env.vector`) and the Gymnasium environment
on the kernel against the engine: the same games from the same seeds.

The reference is Gymnasium's own `SyncVectorEnv` over copies of
`SkyjoEnv(engine="reference")`: the engine (`skyjo.env.table`) with the
Python bots of `skyjo.bots`, seeded as the vectorized environment says
(table i of `reset(seed=s)` plays the game of seed s + i, the next games the
seeds of its stream). Both are stepped with the same learner actions: random
legal ones, now and then an exchange with a face-up card (rounds last, the
draw pile runs out) and, rarely, an illegal one; every observation, mask,
reward, termination, truncation and final observation is compared, at 2, 3
and 4 players, with one-round and whole-game episodes and every option.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from hypothesis import given, settings
from hypothesis import strategies as st

from skyjo.engine import FLIP, SWAP, Phase
from skyjo.env import SkyjoEnv, SkyjoVectorEnv
from skyjo.env.table import stalled
from skyjo.kernel import vector as kv
from skyjo.rules import Rules


def choose(mask: np.ndarray, obs: np.ndarray, layout, rng: random.Random) -> int:
    """A random legal action; often an exchange with a face-up card (a stall);
    once in 150 decisions an illegal one."""
    legal = np.flatnonzero(mask)
    if rng.random() < 1 / 150:
        return int(rng.choice(np.flatnonzero(mask == 0)))
    down = obs[layout.grid(0, 1)]
    up = [a for a in legal if SWAP <= a < FLIP and not down[a - SWAP]]
    if up and rng.random() < 0.6:
        return int(rng.choice(up))
    return int(rng.choice(legal))


def side_by_side(
    tables: int, steps: int, seed: int, mode: AutoresetMode = AutoresetMode.SAME_STEP, **options
) -> dict[str, int]:
    """Step the vector environment and the engine's, compare every step; counts
    of what happened, to check the cover."""
    options.setdefault("seat", None)
    vector = SkyjoVectorEnv(tables, autoreset_mode=mode, **options)
    reference = SyncVectorEnv(
        [lambda: SkyjoEnv(engine="reference", observation="float32", **options)] * tables,
        autoreset_mode=mode,
    )
    assert vector.single_observation_space == reference.single_observation_space
    obs, info = vector.reset(seed=seed)
    expected, expected_info = reference.reset(seed=seed)
    np.testing.assert_array_equal(obs, expected)
    np.testing.assert_array_equal(info["action_mask"], expected_info["action_mask"])
    rng = random.Random(seed)
    layout = vector.layout
    phases = layout.offsets["phase"]
    seen = {"ended": 0, "truncated": 0, "illegal": 0, "stalled": 0, "won": 0}
    for _ in range(steps):
        masks = info["action_mask"]
        live = masks.any(axis=1)  # NEXT_STEP: a table after its episode's end
        actions = np.array(
            [choose(masks[b], obs[b], layout, rng) if live[b] else 0 for b in range(tables)]
        )
        obs, rewards, terminated, truncated, info = vector.step(actions)
        expected, expected_rewards, ended, cut, expected_info = reference.step(actions)
        np.testing.assert_array_equal(obs, expected)
        assert obs.dtype == np.float32 and vector.observation_space.contains(obs)
        np.testing.assert_array_equal(rewards, expected_rewards)
        np.testing.assert_array_equal(terminated, ended)
        np.testing.assert_array_equal(truncated, cut)
        np.testing.assert_array_equal(info["action_mask"], expected_info["action_mask"])
        np.testing.assert_array_equal(vector.action_masks(), info["action_mask"])
        done = np.flatnonzero(terminated | truncated)
        if not len(done):
            continue
        if mode == AutoresetMode.SAME_STEP:
            for b in done:
                np.testing.assert_array_equal(info["final_obs"][b], expected_info["final_obs"][b])
            last, illegal = info["final_obs"], info["final_info"]["illegal"]
            expected_illegal = expected_info["final_info"]["illegal"]
        else:
            last, illegal, expected_illegal = obs, info["illegal"], expected_info["illegal"]
        np.testing.assert_array_equal(illegal[done], expected_illegal[done])
        for b in done.tolist():
            seen["ended"] += 1
            seen["truncated"] += bool(truncated[b])
            seen["illegal"] += bool(illegal[b])
            seen["won"] += rewards[b] > 0
            playing = last[b][phases][[Phase.TURNS, Phase.FINAL_TURNS]].any()  # stopped in play
            seen["stalled"] += bool(terminated[b] and not illegal[b] and playing)
    np.testing.assert_array_equal(
        vector.seats, [env.unwrapped.seat for env in reference.envs]
    )  # the seats drawn from the games' seeds
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_vector_environment_plays_the_engines_games(players: int) -> None:
    opponents = ["greedy", "random", "greedy"][: players - 1]
    seen = side_by_side(6, 400, players, opponents=opponents, rules=Rules(target_score=60))
    assert seen["ended"] > 6 and seen["illegal"]


@pytest.mark.parametrize(
    "options",
    [
        {"one_round": True, "opponents": ["greedy", "basic"]},
        {"reward": "win", "rules": Rules(ender_penalty="always", target_score=50)},
        {"seat": 1, "slots": 4, "rules": Rules(ender_penalty="none", target_score=40)},
        {"max_round_turns": 31, "opponents": ["random", "random"]},
        {"max_round_turns": 29, "reward": "win", "opponents": ["random", "random"]},
        {"max_round_turns": 5, "illegal_reward": -7.5},
        {"rules": Rules(target_score=5), "opponents": ["random"]},
    ],
    ids=[
        "one-round",
        "win-always",
        "seat-padded-none",
        "stalls",
        "stalls-win",
        "truncated",
        "clipped-totals",  # totals past 4 targets: the float observation clips them
    ],
)
def test_every_option_plays_the_same_way(options: dict) -> None:
    seen = side_by_side(5, 250, 17, **options)
    assert seen["ended"] > 5
    limit = options.get("max_round_turns")
    if limit == 5:
        assert seen["truncated"]
    elif limit:
        assert seen["stalled"]


def test_next_step_autoreset_plays_the_same_way() -> None:
    """NEXT_STEP: the step after an episode's end resets that table, whatever
    its action, as Gymnasium's `SyncVectorEnv` does."""
    seen = side_by_side(5, 300, 4, AutoresetMode.NEXT_STEP, one_round=True)
    assert seen["ended"] > 5


def test_expected_opponents_play_the_same_way() -> None:
    """The compiled `expected` (the slowest bot of the engine: a few games)."""
    seen = side_by_side(3, 120, 9, opponents=["expected"], one_round=True)
    assert seen["ended"]


def test_seeds_the_compiled_code_does_not_take_are_dealt_in_python() -> None:
    """Seeds of 2**63 and more (any Python int seeds the engine): the first
    game is dealt in Python, the next ones compiled; a negative seed is
    refused, as Gymnasium refuses it."""
    vector = SkyjoVectorEnv(2, one_round=True)
    reference = [SkyjoEnv(engine="reference", observation="float32", one_round=True, seat=None)
                 for _ in range(2)]  # fmt: skip
    with pytest.raises(ValueError, match="seeds are integers from 0, not -5"):
        vector.reset(seed=[3, -5])
    seeds = [2**63, 2**70 + 3]
    obs, _ = vector.reset(seed=seeds)
    for b, env in enumerate(reference):
        np.testing.assert_array_equal(obs[b], env.reset(seed=seeds[b])[0])
    rng = random.Random(0)
    for _ in range(120):
        masks = vector.action_masks()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, rewards, *_, info = vector.step(actions)
        for b, env in enumerate(reference):
            expected, reward, done, cut, _ = env.step(actions[b])
            if done or cut:
                np.testing.assert_array_equal(info["final_obs"][b], expected)
                expected, _ = env.reset()  # the next seed of its stream
            np.testing.assert_array_equal(obs[b], expected)
            assert rewards[b] == reward


def test_the_single_environment_on_the_kernel_plays_the_engines_games() -> None:
    """`SkyjoEnv()` on the kernel (the default for compiled bots) against
    `engine="reference"`: the same observations, masks, rewards, ends, games
    (`game_state`) and illegal actions' reasons."""
    for seed, options in enumerate(
        [
            {"opponents": ["greedy", "random"], "seat": None},
            {"opponents": ["basic"], "reward": "win", "max_round_turns": 30},
            {"opponents": ["random", "random", "greedy"], "one_round": True, "seat": 2},
        ]
    ):
        kernel = SkyjoEnv(**options)
        reference = SkyjoEnv(engine="reference", **options)
        assert kernel.engine == "kernel"
        rng = random.Random(seed)
        for game in range(4):
            obs, info = kernel.reset(seed=seed * 10 + game)
            expected, expected_info = reference.reset(seed=seed * 10 + game)
            over = False
            while not over:
                for key in ("observation", "action_mask"):
                    np.testing.assert_array_equal(obs[key], expected[key])
                np.testing.assert_array_equal(info["action_mask"], expected_info["action_mask"])
                assert kernel.seat == reference.seat
                action = choose(obs["action_mask"], obs["observation"], kernel.layout, rng)
                obs, reward, done, cut, info = kernel.step(action)
                expected, *ends, expected_info = reference.step(action)
                assert (reward, done, cut) == tuple(ends)
                assert info == {**expected_info, "action_mask": info["action_mask"]}
                over = done or cut
            assert kernel.game_state == reference.game_state


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(2, 8),
    turns=st.integers(0, 120),
    data=st.data(),
    win=st.booleans(),
    target=st.integers(1, 1000),
    discount=st.sampled_from([1.0, 0.99, 0.9, 0.5]) | st.floats(0.05, 1.0),
)
def test_the_compiled_stall_rule_is_the_python_one(
    players: int, turns: int, data: st.DataObject, win: bool, target: int, discount: float
) -> None:
    """`skyjo.kernel.vector._stalled` against `skyjo.env.table.stalled` on any
    table at the limit: every seat's reward, and whether the episode is cut."""
    starter = data.draw(st.integers(0, players - 1))
    ender = data.draw(st.none() | st.integers(0, players - 1))
    totals = data.draw(st.lists(st.integers(-60, target - 1), min_size=players, max_size=players))
    reward = "win" if win else "score"
    expected = stalled(reward, totals, target, turns, starter, ender, discount)
    t, g = kv.new_games(1, players, 10)
    g.conf[kv.PLAYERS], g.conf[kv.TARGET] = players, target
    g.conf[kv.REWARD] = kv.WIN if win else kv.SCORE
    g.fconf[kv.DISCOUNT] = discount
    t.totals[0, :players] = totals
    t.turns[0], t.starter[0], t.ender[0] = turns, starter, -1 if ender is None else ender
    for seat in range(players):
        g.seat[0] = seat
        o = kv.new_out(1, 10)
        o.reward[0] = 0.0
        event = kv._stalled(t, g, o, 0)
        assert (event == kv.CUT) == expected.truncated
        assert o.reward[0] == (0.0 if expected.rewards is None else expected.rewards[seat])


@pytest.mark.parametrize("teacher", ["greedy", "expected"])
def test_teacher_actions_are_the_python_bots_choices(teacher: str) -> None:
    """`teacher_actions` gives what the Python bot, seeded as a bot in the
    learner's seat would be, plays there at every decision of each table's
    first game; it plays nothing, so the game goes on as the engine's."""
    from skyjo.bots import make_bot
    from skyjo.observation import observe
    from skyjo.seeds import bot_seed

    tables = 4
    vector = SkyjoVectorEnv(tables, opponents=["greedy"], one_round=True)
    reference = [
        SkyjoEnv(engine="reference", observation="float32", one_round=True, seat=None)
        for _ in range(tables)
    ]
    obs, info = vector.reset(seed=3)
    for b, env in enumerate(reference):
        env.reset(seed=3 + b)
    bots = [make_bot(teacher, seed=bot_seed(3 + b, env.seat)) for b, env in enumerate(reference)]
    first = [True] * tables
    compared = 0
    while any(first):
        actions = vector.teacher_actions(teacher)
        assert (info["action_mask"][np.arange(tables), actions] == 1).all()
        for b, env in enumerate(reference):
            if first[b]:
                assert actions[b] == bots[b].choose(observe(env.game_state, env.seat))
                compared += 1
        obs, _, terminated, truncated, info = vector.step(actions)
        for b, env in enumerate(reference):
            expected, _, ended, cut, _ = env.step(int(actions[b]))
            assert (ended, cut) == (terminated[b], truncated[b])
            if ended or cut:
                first[b] = False
                expected, _ = env.reset()
            np.testing.assert_array_equal(obs[b], expected)
    assert compared > 60
