"""The Gymnasium environment (skyjo.env.single): one seat against bots."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import skyjo.env
from skyjo.bots import BotError
from skyjo.engine import DRAW, Phase
from skyjo.env import SkyjoEnv
from skyjo.rules import Rules


def test_check_env_passes() -> None:
    check_env(SkyjoEnv(opponents=["greedy", "expected"]), skip_render_check=True)


def test_registered_by_importing_skyjo_env() -> None:
    assert skyjo.env.ENV_ID == "skyjo/Skyjo-v0"
    made = gymnasium.make("skyjo/Skyjo-v0", opponents=["random", "greedy", "greedy"])
    observation, info = made.reset(seed=3)
    assert observation["observation"].shape == (212,)
    np.testing.assert_array_equal(observation["action_mask"], info["action_mask"])
    assert not np.shares_memory(observation["action_mask"], info["action_mask"])


def play(table: SkyjoEnv, seed: int) -> tuple[float, list[bool]]:
    """A whole episode of masked random actions: summed reward, illegal flags."""
    rng = random.Random(seed)
    observation, info = table.reset(seed=seed)
    total, flags, over = 0.0, [], False
    while not over:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = table.step(action)
        total += reward
        flags.append(info["illegal"])
        over = terminated or truncated
    return total, flags


def test_score_rewards_sum_to_minus_the_agents_total() -> None:
    table = SkyjoEnv(opponents=["greedy"], seat=1)
    total, flags = play(table, seed=4)
    state = table.game_state
    assert state.phase == Phase.GAME_OVER and not any(flags)
    assert total == -state.totals[1]


def test_win_reward_and_same_seed_same_game() -> None:
    first = SkyjoEnv(opponents=["greedy", "random"], reward="win", seat=None)
    second = SkyjoEnv(opponents=["greedy", "random"], reward="win", seat=None)
    total, _ = play(first, seed=8)
    assert play(second, seed=8)[0] == total
    assert first.game_state == second.game_state and first.seat == second.seat
    totals = first.game_state.totals
    assert total == (1.0 if totals[first.seat] == min(totals) else -1.0)


def test_one_round() -> None:
    table = SkyjoEnv(opponents=["greedy"], one_round=True, rules=Rules(target_score=1000))
    total, _ = play(table, seed=2)
    assert len(table.game_state.results) == 1
    assert total == -table.game_state.results[0].scores[0]


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    table = SkyjoEnv(opponents=["greedy"])
    observation, _ = table.reset(seed=1)
    assert not observation["action_mask"][DRAW]  # the opening reveals come first
    observation, reward, terminated, truncated, info = table.step(DRAW)
    assert (reward, terminated, truncated, info["illegal"]) == (-100.0, True, False, True)
    assert "must first turn up two cards" in info["reason"]
    assert not info["action_mask"].any() and not observation["action_mask"].any()
    assert len(table.game_state.history) == 0  # nothing was played in its place
    with pytest.raises(RuntimeError, match="reset"):
        table.step(0)
    win = SkyjoEnv(opponents=["greedy"], reward="win", illegal_reward=-5)
    win.reset(seed=1)
    assert win.step(38)[1] == -5


def test_unknown_bots_and_seats_are_refused() -> None:
    with pytest.raises(BotError):
        SkyjoEnv(opponents=["nobody"])
    with pytest.raises(ValueError, match="seat"):
        SkyjoEnv(opponents=["greedy"], seat=2)


def test_ansi_render_is_the_agents_view() -> None:
    table = SkyjoEnv(opponents=["greedy"], render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert "agent (you)" in text and "greedy" in text and "#" in text
