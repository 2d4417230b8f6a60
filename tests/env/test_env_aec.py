"""The PettingZoo AEC environment (skyjo.env.aec): the API, seeds, rewards, illegal actions."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from skyjo.engine import (
    DRAW,
    NEXT_ROUND,
    SWAP,
    IllegalActionError,
    Phase,
    legal_actions,
    new_game,
)
from skyjo.env import env, raw_env
from skyjo.env.table import ROUND_BOUND, rewards
from skyjo.rules import Rules


def play(table, seed: int, rng: random.Random) -> dict[str, float]:
    """A whole episode of random legal actions; each agent's summed rewards."""
    table.reset(seed=seed)
    total = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        total[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # dict observations, as the classics
@pytest.mark.parametrize(("players", "engine"), [(2, "kernel"), (4, "kernel"), (2, "reference")])
def test_pettingzoo_api_and_seed_tests_pass(players: int, engine: str) -> None:
    api_test(env(num_players=players, engine=engine), num_cycles=1000)
    seed_test(lambda: env(num_players=players, engine=engine), num_cycles=500)


def test_the_same_seed_deals_the_engines_game() -> None:
    table = env(num_players=3)
    table.reset(seed=42)
    assert table.unwrapped.game_state.decks == new_game(3, seed=42).decks


def test_spaces_are_the_same_objects_on_every_call() -> None:
    table = env(num_players=4)
    for agent in table.possible_agents:
        assert table.observation_space(agent) is table.observation_space(agent)
        assert table.action_space(agent) is table.action_space(agent)
    assert table.observation_space("player_0")["observation"].shape == (212,)
    assert raw_env(num_players=2).observation_space("player_0")["observation"].shape == (130,)
    assert raw_env(num_players=2, slots=8).observation_space("player_0")["observation"].shape == (
        376,
    )


def test_observations_are_fresh_arrays_and_only_the_agent_to_act_has_a_mask() -> None:
    table = env(num_players=4)
    table.reset(seed=1)
    first, again = table.observe("player_0"), table.observe("player_0")
    assert not np.shares_memory(first["observation"], again["observation"])
    assert not np.shares_memory(first["action_mask"], again["action_mask"])
    assert first["action_mask"].dtype == np.int8 and first["action_mask"].shape == (39,)
    state = table.unwrapped.game_state
    acting = table.agent_selection
    assert acting == f"player_{state.player}"
    mask = table.observe(acting)["action_mask"]
    assert list(np.flatnonzero(mask)) == list(legal_actions(state))
    for agent in table.agents:
        if agent != acting:
            assert not table.observe(agent)["action_mask"].any()
    table.step(int(np.flatnonzero(mask)[0]))  # the kernel's step makes the next observation
    made, again = table.observe(table.agent_selection), table.observe(table.agent_selection)
    for name in ("observation", "action_mask"):
        assert not np.shares_memory(made[name], again[name])
        np.testing.assert_array_equal(made[name], again[name])


def test_score_rewards_are_minus_each_round_score() -> None:
    table = env(num_players=3, rules=Rules(target_score=300))
    totals = play(table, seed=7, rng=random.Random(7))
    state = table.unwrapped.game_state
    assert state.phase == Phase.GAME_OVER and len(state.results) >= 2
    assert totals == {f"player_{p}": -float(state.totals[p]) for p in range(3)}


def test_win_rewards_at_the_games_end_only() -> None:
    table = env(num_players=4, reward="win")
    totals = play(table, seed=3, rng=random.Random(3))
    final = table.unwrapped.game_state.totals
    best = min(final)
    assert totals == {f"player_{p}": 1.0 if final[p] == best else -1.0 for p in range(4)}


def test_a_shared_win_gives_plus_one_to_each_winner() -> None:
    scores, totals = (3, 3, 9), (40, 40, 101)
    assert rewards("win", scores, totals, done=True) == (1.0, 1.0, -1.0)
    assert rewards("win", scores, totals, done=False) is None
    assert rewards("score", scores, totals, done=False) == (-3.0, -3.0, -9.0)


def test_one_round_ends_at_the_first_round_end() -> None:
    table = env(num_players=2, one_round=True, rules=Rules(target_score=1000))
    totals = play(table, seed=5, rng=random.Random(5))
    state = table.unwrapped.game_state
    assert state.phase == Phase.ROUND_OVER and len(state.results) == 1
    assert totals == {f"player_{p}": -float(state.results[0].scores[p]) for p in range(2)}


def test_rounds_are_dealt_by_the_environment() -> None:
    table = env(num_players=2)
    table.reset(seed=11)
    rng = random.Random(11)
    rounds_seen = set()
    for _agent in table.agent_iter():
        obs, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        assert not obs["action_mask"][NEXT_ROUND]
        rounds_seen.add(table.unwrapped.game_state.round)
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(rounds_seen) >= 2


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    table = env(num_players=2)
    table.reset(seed=1)
    before = table.unwrapped.game_state
    with pytest.raises(IllegalActionError, match="must first turn up two cards, not draw"):
        table.step(DRAW)
    with pytest.raises(IllegalActionError, match="no action 39"):
        table.step(39)
    with pytest.raises(IllegalActionError, match="an action is an integer, not None"):
        table.step(None)
    assert table.unwrapped.game_state is before
    assert table.agent_selection == "player_0"
    table.step(0)  # the agent may act again


def test_pettingzoos_terminate_illegal_wrapper_gives_the_other_convention() -> None:
    table = TerminateIllegalWrapper(raw_env(num_players=2), illegal_reward=-1)
    table.reset(seed=1)
    table.step(DRAW)
    assert all(table.terminations.values())
    assert table.rewards["player_0"] == -1


def test_ansi_render_shows_the_table_as_the_agent_to_act_sees_it() -> None:
    table = env(num_players=2, render_mode="ansi")
    table.reset(seed=2)
    text = table.render()
    assert text.startswith("round 1, opening reveals: player_0 to turn up 2 cards")
    assert text.count("#") >= 24 and "player_0 (you)" in text
    assert env(num_players=2).unwrapped.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="human")


def test_a_round_past_the_turn_limit_truncates_every_agent() -> None:
    table = env(num_players=2, max_round_turns=3)
    table.reset(seed=np.int64(4))
    rng = random.Random(4)
    turns = 0
    for _agent in table.agent_iter():
        obs, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            assert truncated and not terminated
            table.step(None)
            continue
        held = table.unwrapped.game_state.held is not None
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        turns += held
    assert turns == 3 and table.agents == []


def stalling(obs: dict[str, np.ndarray], layout) -> int:
    """Never end a round: reveal in the opening, then draw and exchange the card
    with a face-up one, so that the face-down cards stay face down."""
    legal = np.flatnonzero(obs["action_mask"])
    if legal[0] < DRAW:
        return int(legal[0])
    if DRAW in legal:
        return DRAW
    down = obs["observation"][layout.grid(0, 1)]
    return int(next(a for a in legal if SWAP <= a < SWAP + 12 and not down[a - SWAP]))


def stall(table) -> tuple[dict[str, float], dict[str, bool], dict[str, bool]]:
    """A game where every agent stalls: the rewards summed, the terminations
    and truncations at the end."""
    layout = table.unwrapped.layout
    total = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        total[agent] += reward
        ended = (dict(table.terminations), dict(table.truncations))
        table.step(None if terminated or truncated else stalling(obs, layout))
    return total, *ended


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_round_stalled_to_the_limit_costs_every_seat_that_could_have_ended_it(
    engine: str,
) -> None:
    """The stall rule: 3 seats, a limit of 29 turns: the first two seats of the
    order have played 10 turns (enough to turn up their ten face-down cards),
    the third 9. Those two pay the penalty: their total becomes the target
    plus ROUND_BOUND, worse than any finished game; the third scores nothing.
    The episode ends (terminated, not truncated: the game is over for a
    trainer, who must not bootstrap it as if it went on)."""
    table = env(num_players=3, max_round_turns=29, engine=engine, rules=Rules(target_score=50))
    table.reset(seed=5)
    total, terminations, truncations = stall(table)
    state = table.unwrapped.game_state
    starter = state.starter
    assert state.phase == Phase.TURNS and state.ender is None  # the round as it stood
    late = f"player_{(starter + 2) % 3}"
    for agent, reward in total.items():
        assert reward == (0.0 if agent == late else -(50.0 + ROUND_BOUND))
    assert all(terminations.values()) and not any(truncations.values())
    assert ROUND_BOUND == 288


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_stalled_round_is_a_loss_for_each_seat_that_could_have_ended_it(engine: str) -> None:
    """With `reward="win"`, at 2 seats and a limit of 19 turns: the starter
    (10 turns) loses, the other (9) wins; at 20 both have had 10 turns and
    both lose: nobody wins a stalled game."""
    for limit, rewards_of in ((19, {0: -1.0, 1: 1.0}), (20, {0: -1.0, 1: -1.0})):
        table = env(num_players=2, max_round_turns=limit, reward="win", engine=engine)
        table.reset(seed=3)
        total, terminations, truncations = stall(table)
        starter = table.unwrapped.game_state.starter
        got = {(int(agent[-1]) - starter) % 2: reward for agent, reward in total.items()}
        assert got == rewards_of, limit
        assert all(terminations.values()) and not any(truncations.values())


def test_a_limit_no_seat_could_end_a_round_in_still_truncates() -> None:
    """2 seats, 18 turns: 9 each, one short of what ending takes: no seat is
    at fault, the episode is cut as before (truncated, no reward)."""
    table = env(num_players=2, max_round_turns=18)
    table.reset(seed=3)
    total, terminations, truncations = stall(table)
    assert all(truncations.values()) and not any(terminations.values())
    assert set(total.values()) == {0.0}


def test_the_order_checks_hold_before_reset_and_in_the_loop() -> None:
    """`env()`'s wrapper (`skyjo.env.ordering.Ordered`) keeps PettingZoo's
    checks, though `last` goes straight to the environment once reset."""
    table = env(num_players=2)
    for call, name in ((table.last, "observe"), (lambda: table.step(0), "step")):
        with pytest.raises(AssertionError, match=f"reset\\(\\) needs to be called before {name}"):
            call()
    with pytest.raises(AssertionError, match="before agent_iter"):
        table.agent_iter()
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        _ = table.agent_selection
    table.reset(seed=1)
    assert table.last()[0]["action_mask"].any()
    loop = iter(table.agent_iter())
    next(loop)
    with pytest.raises(AssertionError, match="need to call step"):
        next(loop)  # the agent of the last iteration did not act
