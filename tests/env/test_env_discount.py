"""The stall rule against a discounted learner (`discount`, issue 52): a guilty
seat's penalty is divided by discount ** k, k bounding its decisions since it
could first have ended the round, so that stalling does not pay for the
discounted return either; the same floats in the compiled environments; and
`discount=1.0` (the default) is the undiscounted rule, bit for bit."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from hypothesis import given, settings
from hypothesis import strategies as st
from test_env_aec import stall  # tests/env/test_env_aec.py
from test_env_vector import stalling_actions  # tests/env/test_env_vector.py

import skyjo.env
from skyjo.engine import FLIP, SWAP, Phase
from skyjo.env import Layout, SkyjoEnv, SkyjoVectorEnv, env, raw_env
from skyjo.env.table import (
    FLOAT32_MAX,
    ROUND_BOUND,
    TURNS_TO_END,
    stall_decisions,
    stalled,
    turns_of,
)
from skyjo.kernel import vector as kv
from skyjo.rules import Rules

DISCOUNTS = [0.9, 0.99, 1.0]


# --- the option ---------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, 0.0, -0.5, 1.0000001, 2, float("nan"), float("inf")])
def test_a_discount_outside_0_to_1_is_refused_by_every_environment(bad: float) -> None:
    for make in (
        lambda: SkyjoEnv(discount=bad),
        lambda: SkyjoEnv(engine="reference", discount=bad),
        lambda: SkyjoVectorEnv(2, discount=bad),
        lambda: raw_env(num_players=2, discount=bad),
        lambda: raw_env(num_players=2, engine="reference", discount=bad),
        lambda: gymnasium.make(skyjo.env.ENV_ID, discount=bad),
    ):
        with pytest.raises(ValueError, match="discount must be in 0 < discount <= 1"):
            make()


@pytest.mark.parametrize("bad", [None, "0.9", True, [0.9]])
def test_a_discount_that_is_no_number_is_refused(bad: object) -> None:
    for make in (SkyjoEnv, lambda **o: SkyjoVectorEnv(1, **o), raw_env):
        with pytest.raises(TypeError, match="discount must be a number"):
            make(discount=bad)


def test_a_discount_whose_penalty_would_overflow_float32_is_refused() -> None:
    """0.9 ** -1982 (the starter's 1,000 turns at the default limit, at 2
    players) is past float32: refused, naming both settings and the way out;
    a lower limit or a higher discount fits, and so does 1.0 at any limit."""
    for make in (SkyjoEnv, lambda **o: SkyjoVectorEnv(1, **o), raw_env):
        with pytest.raises(ValueError, match=r"discount=0\.9 with max_round_turns=2000") as error:
            make(discount=0.9, **({} if make is not raw_env else {"num_players": 2}))
        assert "raise the discount or lower max_round_turns" in str(error.value)
    SkyjoEnv(discount=0.9, max_round_turns=600)
    SkyjoEnv(discount=0.99)  # SB3's default discount at the default limit
    SkyjoEnv(discount=np.float32(0.99))  # NumPy's floats too
    raw_env(num_players=2, discount=0.5, max_round_turns=19)  # no seat can be guilty
    with pytest.raises(ValueError, match="max_round_turns=2147483647"):
        SkyjoEnv(discount=0.999999, max_round_turns=10**20)
    SkyjoEnv(discount=1.0, max_round_turns=10**20)


def test_the_largest_penalty_the_check_allows_fits_float32() -> None:
    """At the edge of the check, the penalty of a total as low as minus the
    target and ROUND_BOUND, at the last turn a seat can have, is a float32."""
    limit, target = 2000, 100
    accepted = refused = 0
    for discount in np.linspace(0.9590, 0.9600, 21):
        try:
            SkyjoEnv(discount=float(discount), max_round_turns=limit)
        except ValueError:
            refused += 1
            continue
        accepted += 1
        outcome = stalled("score", [-(target + ROUND_BOUND), 0], target, limit, 0, None, discount)
        assert outcome.rewards is not None
        assert np.isfinite(np.float32(outcome.rewards[0]))
        assert -outcome.rewards[0] <= FLOAT32_MAX
    assert accepted and refused  # the edge is in the range


def test_gymnasium_forwards_the_discount_to_both_entry_points() -> None:
    single = gymnasium.make(skyjo.env.ENV_ID, discount=0.97, max_round_turns=300)
    assert single.unwrapped._game.settings.discount == 0.97
    envs = gymnasium.make_vec(
        skyjo.env.ENV_ID,
        num_envs=2,
        vectorization_mode="vector_entry_point",
        discount=0.97,
        max_round_turns=300,
    )
    assert envs._batch.g.fconf[kv.DISCOUNT] == 0.97
    assert SkyjoVectorEnv(1)._batch.g.fconf[kv.DISCOUNT] == 1.0


# --- the rule ------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(2, 8),
    turns=st.integers(0, 160),
    data=st.data(),
    win=st.booleans(),
    target=st.integers(1, 1000),
    discount=st.sampled_from([1.0, 0.99, 0.9, 0.5]) | st.floats(0.05, 1.0),
)
def test_the_discounted_stall_rule_grows_each_guilty_seat_s_penalty(
    players: int, turns: int, data: st.DataObject, win: bool, target: int, discount: float
) -> None:
    """`skyjo.env.table.stalled` with a discount (its compiled twin gives the
    same floats: tests/parity/test_vector.py); each guilty seat's penalty is
    the undiscounted one times discount ** -k (k its decisions since its
    TURNS_TO_END-th turn began, two a turn), and with discount 1.0 exactly
    the undiscounted rule."""
    starter = data.draw(st.integers(0, players - 1))
    ender = data.draw(st.none() | st.integers(0, players - 1))
    totals = data.draw(st.lists(st.integers(-60, target - 1), min_size=players, max_size=players))
    reward = "win" if win else "score"
    expected = stalled(reward, totals, target, turns, starter, ender, discount)
    plain = stalled(reward, totals, target, turns, starter, ender)
    assert expected.truncated == plain.truncated and expected.done == plain.done
    if discount == 1.0:
        assert expected == plain
    if plain.rewards is not None:
        for p, (got, undiscounted) in enumerate(zip(expected.rewards, plain.rewards, strict=True)):
            played = turns_of(p, players, turns, starter)
            if played < TURNS_TO_END:  # not guilty
                assert got == undiscounted
                continue
            k = stall_decisions(played)
            assert k == 2 * (played - TURNS_TO_END + 1)
            assert got == pytest.approx(undiscounted * discount**-k, rel=1e-12)
            assert got <= undiscounted
            if not win:
                assert undiscounted == totals[p] - (target + ROUND_BOUND)


def choose(mask: np.ndarray, obs: np.ndarray, layout: Layout, rng: random.Random) -> int:
    """A random legal action, often an exchange with a face-up card (rounds stall)."""
    legal = np.flatnonzero(mask)
    down = obs[layout.grid(0, 1)]
    up = [a for a in legal if SWAP <= a < FLIP and not down[a - SWAP]]
    if up and rng.random() < 0.7:
        return int(rng.choice(up))
    return int(rng.choice(legal))


@pytest.mark.parametrize(
    "options",
    [
        {"max_round_turns": 31, "discount": 0.9, "opponents": ["random", "random"]},
        {"max_round_turns": 29, "discount": 0.95, "reward": "win", "opponents": ["random"]},
        {
            "max_round_turns": 40,
            "discount": 0.99,
            "rules": Rules(target_score=60),
            "opponents": ["random"],
        },
    ],
    ids=["score-3", "win-2", "score-60"],
)
def test_the_vector_environment_pays_the_engines_discounted_penalties(options: dict) -> None:
    """The compiled tables (`SkyjoVectorEnv`) against the engine's
    (`SkyjoEnv(engine="reference")`), the same actions: the same rewards,
    ends and observations, stalls included."""
    tables, seed = 5, 23
    options = {"seat": None, **options}
    vector = SkyjoVectorEnv(tables, **options)
    reference = SyncVectorEnv(
        [lambda: SkyjoEnv(engine="reference", observation="float32", **options)] * tables,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    obs, info = vector.reset(seed=seed)
    expected, _ = reference.reset(seed=seed)
    np.testing.assert_array_equal(obs, expected)
    rng = random.Random(seed)
    stalls = 0
    for _ in range(250):
        masks = info["action_mask"]
        actions = np.array([choose(masks[b], obs[b], vector.layout, rng) for b in range(tables)])
        obs, rewards, terminated, truncated, info = vector.step(actions)
        expected, expected_rewards, ended, cut, _ = reference.step(actions)
        np.testing.assert_array_equal(obs, expected)
        np.testing.assert_array_equal(rewards, expected_rewards)
        np.testing.assert_array_equal(terminated, ended)
        np.testing.assert_array_equal(truncated, cut)
        grown = rewards < (-1.0 if options.get("reward") == "win" else -ROUND_BOUND)
        stalls += int(grown.sum())
    assert stalls  # a grown penalty was paid


@pytest.mark.parametrize("discount", [0.9, 0.99, 1.0])
def test_every_agent_that_could_have_ended_a_stalled_round_pays_it_grown(discount: float) -> None:
    """The AEC environment, both engines: 3 agents stall to a limit of 29
    turns; the first two of the order played 10 turns, so each pays the
    target plus ROUND_BOUND grown by discount ** -2 (its 10th turn, the one
    it could have ended the round in, is its last: two decisions); the
    third (9 turns) pays nothing."""
    totals = []
    for engine in ("kernel", "reference"):
        table = env(
            num_players=3,
            max_round_turns=29,
            engine=engine,
            rules=Rules(target_score=50),
            discount=discount,
        )
        table.reset(seed=5)
        total, terminations, truncations = stall(table)
        state = table.unwrapped.game_state
        assert state.phase == Phase.TURNS and state.ender is None
        late = f"player_{(state.starter + 2) % 3}"
        for agent, reward in total.items():
            grown = -(50 + ROUND_BOUND) * discount**-2
            assert reward == (0.0 if agent == late else pytest.approx(grown, rel=1e-12))
        assert all(terminations.values()) and not any(truncations.values())
        totals.append(total)
    assert totals[0] == totals[1]  # the same floats


# --- stalling does not pay for a discounted return ----------------------------------


def episode(
    learner: str, reward: str, discount: float, one_round: bool, limit: int, seed: int
) -> tuple[list[float], int, bool]:
    """One episode of a learner against a copy of the stalling policy played
    from Python (2 seats): the learner `stall`s too or plays `greedy` (the
    compiled bot's choices). Its rewards, one a decision (the reward that
    followed it); the first decision at which it could have ended round 1
    (the first of its TURNS_TO_END-th turn); whether the episode was cut."""
    layout = Layout(2)
    envs = SkyjoVectorEnv(
        1,
        opponents=lambda obs, mask: stalling_actions(obs, mask, layout),
        one_round=one_round,
        reward=reward,
        max_round_turns=limit,
        discount=discount,
        seat=0,
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    obs, info = envs.reset(seed=seed)
    rewards: list[float] = []
    placed, first = 0, None
    while True:
        if first is None and placed == TURNS_TO_END - 1:
            first = len(rewards)
        if learner == "stall":
            action = int(stalling_actions(obs, info["action_mask"], layout)[0])
        else:
            action = int(envs.teacher_actions("greedy")[0])
        placed += action >= SWAP
        obs, reward, terminated, truncated, info = envs.step([action])
        rewards.append(float(reward[0]))
        if terminated[0] or truncated[0]:
            assert first is not None
            return rewards, first, bool(truncated[0])


def discounted(rewards: list[float], start: int, discount: float) -> float:
    """The return from decision `start`: the rewards that followed it and the
    later decisions, each weighed by discount ** (its distance)."""
    return sum(r * discount**j for j, r in enumerate(rewards[start:]))


@pytest.mark.parametrize("one_round", [True, False], ids=["round", "game"])
@pytest.mark.parametrize("reward", ["score", "win"])
@pytest.mark.parametrize("discount", DISCOUNTS)
def test_stalling_does_not_pay_for_a_discounted_return(
    discount: float, reward: str, one_round: bool
) -> None:
    """A learner that never ends round 1 (2 seats, neither ends it, a limit of
    80 turns: 40 each) gets, discounted back to any of its decisions from the
    first at which it could have ended the round, no more than the
    undiscounted penalty (minus the target and ROUND_BOUND, its total being
    0; or -1), which no game played out goes below; less with a discount
    under 1. A learner that plays greedy in the same deal, and so ends the
    rounds, gets more from that decision on."""
    limit, seed = 80, 11
    rewards, first, cut = episode("stall", reward, discount, one_round, limit, seed)
    assert not cut and not any(rewards[:-1])  # nothing before the stall
    bound = -(100.0 + ROUND_BOUND) if reward == "score" else -1.0
    k = stall_decisions(limit // 2)
    assert rewards[-1] == pytest.approx(bound * discount**-k, rel=1e-12)
    assert len(rewards) - 1 - first <= k - 1  # the penalty's distance, bounded
    for start in range(first, len(rewards)):
        stalling = discounted(rewards, start, discount)
        assert stalling <= bound
        if discount < 1:
            assert stalling < bound
    greedy, greedy_first, greedy_cut = episode("greedy", reward, discount, one_round, limit, seed)
    assert not greedy_cut and greedy_first == first
    playing = discounted(greedy, greedy_first, discount)
    stalling = discounted(rewards, first, discount)
    assert playing >= bound
    if reward == "score" or discount < 1:
        assert playing > stalling
    else:
        assert playing >= stalling  # a loss, no worse than a stall's
    if discount == 1.0:  # undiscounted: today's penalty, exactly
        assert rewards[-1] == bound


def test_without_the_discount_a_discounted_learner_would_stall() -> None:
    """The issue: at the default limit, the undiscounted penalty discounted
    back by 0.99 over the stalling learner's ~2,000 decisions is about
    nothing, better than a round's cost; grown by the rule, it is worse than
    the worst a played-out game can cost."""
    limit, discount = 2000, 0.99
    k = stall_decisions(limit // 2)
    distance = k - 1
    undiscounted = -(100.0 + ROUND_BOUND)
    assert undiscounted * discount**distance > -1e-4  # about nothing: stalling paid
    outcome = stalled("score", [0, 0], 100, limit, 0, None, discount)
    assert outcome.rewards is not None
    assert outcome.rewards[0] * discount**distance <= undiscounted
