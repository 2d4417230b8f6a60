"""The kernel's environment (`engine="kernel"`, the default) against the engine's
(`engine="reference"`): the same games from the same seeds, step for step."""

from __future__ import annotations

import random

import numpy as np
import pytest

from skyjo.engine import FLIP, SWAP, IllegalActionError
from skyjo.env import raw_env
from skyjo.rules import Rules


def choose(table, obs: dict[str, np.ndarray], rng: random.Random, stall: bool) -> int:
    """A random legal action; when `stall`, an exchange with a face-up card
    when there is one, so that rounds last and the draw pile runs out."""
    legal = np.flatnonzero(obs["action_mask"])
    if stall:
        state = table.game_state
        up = [
            a
            for a in legal
            if SWAP <= a < FLIP and not state.hidden[state.player] >> int(a - SWAP) & 1
        ]
        if up:
            return int(rng.choice(up))
    return int(rng.choice(legal))


def both_ways(players: int, games: int, stall_steps: int = 0, **options) -> dict[str, int]:
    """Play `games` games on both engines with the same seeds and actions and
    assert every step agrees; counts of what happened, to check the cover."""
    kernel = raw_env(num_players=players, **options)
    reference = raw_env(num_players=players, engine="reference", **options)
    seen = {"steps": 0, "reshuffles": 0, "rounds": 0, "truncated": 0}
    for game in range(games):
        rng = random.Random(game)
        kernel.reset(seed=100 + game)
        reference.reset(seed=100 + game)
        for agent, other in zip(kernel.agent_iter(), reference.agent_iter(), strict=True):
            assert agent == other
            obs, reward, terminated, truncated, _ = kernel.last()  # made by the last step
            expected = reference.last()
            assert (reward, terminated, truncated) == expected[1:4]
            np.testing.assert_array_equal(obs["observation"], expected[0]["observation"])
            np.testing.assert_array_equal(obs["action_mask"], expected[0]["action_mask"])
            for each in kernel.possible_agents:  # every seat's view, not only the actor's
                mine, theirs = kernel.observe(each), reference.observe(each)
                np.testing.assert_array_equal(mine["observation"], theirs["observation"])
                np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])
                assert mine["action_mask"].dtype == np.int8
            if terminated or truncated:
                seen["truncated"] += truncated
                kernel.step(None)
                reference.step(None)
                continue
            stall = seen["steps"] < stall_steps and kernel.game_state.round == 0
            action = choose(reference.unwrapped, expected[0], rng, stall)
            kernel.step(action)
            reference.step(action)
            seen["steps"] += 1
            assert kernel.rewards == reference.rewards
            assert kernel._cumulative_rewards == reference._cumulative_rewards
        state, other_state = kernel.game_state, reference.game_state
        assert state == other_state  # the replay is the reference's game
        seen["reshuffles"] += sum(len(r) for r in state.reshuffles)
        seen["rounds"] += state.round + 1
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_the_kernel_plays_the_engines_game_step_for_step(players: int) -> None:
    target = 120 if players < 8 else 250  # several rounds a game at every size
    seen = both_ways(players, 3, stall_steps=700, rules=Rules(target_score=target))
    assert seen["reshuffles"] and seen["rounds"] > 3


@pytest.mark.parametrize(
    "options",
    [
        {"reward": "win", "rules": Rules(ender_penalty="always", target_score=80)},
        {"one_round": True, "slots": 6, "rules": Rules(ender_penalty="none")},
        {"max_round_turns": 5},
    ],
    ids=["win-always", "one-round-padded-none", "truncated"],
)
def test_every_option_plays_the_same_way(options: dict) -> None:
    seen = both_ways(3, 3, **options)
    if "max_round_turns" in options:
        assert seen["truncated"]


def test_an_illegal_action_gets_the_engines_error_and_changes_nothing() -> None:
    table = raw_env(num_players=2)
    table.reset(seed=3)
    before = table.game_state
    observed = table.observe("player_0")
    for action in (37, 39, -1, None, 2.0, True, "5"):
        with pytest.raises(IllegalActionError):
            table.step(action)
    assert table.game_state is before
    np.testing.assert_array_equal(table.observe("player_0")["observation"], observed["observation"])
    table.step(np.int64(0))  # NumPy's integers are actions
    assert table.game_state.hidden[0] == 0xFFF & ~1


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="engine must be one of kernel, reference"):
        raw_env(engine="fast")
