"""The kernel's environment (`engine="kernel"`, the default) against the engine's
(`engine="reference"`): the same games from the same seeds, step for step."""

from __future__ import annotations

import random

import numpy as np
import pytest

from skyjo.engine import FLIP, SWAP, IllegalActionError, Phase
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


def refusals(table, obs: dict[str, np.ndarray]) -> list[str]:
    """The error of every action the mask forbids (each changes nothing)."""
    said = []
    for action in np.flatnonzero(obs["action_mask"] == 0):
        with pytest.raises(IllegalActionError) as error:
            table.step(int(action))
        said.append(str(error.value))
    return said


def both_ways(players: int, games: int, stall_steps: int = 0, **options) -> dict[str, int]:
    """Play `games` games on both engines with the same seeds and actions and
    assert every step agrees; counts of what happened, to check the cover."""
    kernel = raw_env(num_players=players, render_mode="ansi", **options)
    reference = raw_env(num_players=players, engine="reference", render_mode="ansi", **options)
    seen = {"steps": 0, "reshuffles": 0, "rounds": 0, "truncated": 0, "stalled": 0}
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
                phase = reference.game_state.phase
                seen["stalled"] += terminated and phase in (Phase.TURNS, Phase.FINAL_TURNS)
                kernel.step(None)
                reference.step(None)
                continue
            if seen["steps"] % 50 == 7:  # now and then, every illegal action and the view
                assert refusals(kernel, obs) == refusals(reference, expected[0])
                assert kernel.game_state == reference.game_state
                assert kernel.render() == reference.render()
            stall = seen["steps"] < stall_steps and kernel.game_state.round == 0
            action = choose(reference.unwrapped, expected[0], rng, stall)
            kernel.step(action)
            reference.step(action)
            seen["steps"] += 1
            assert kernel.rewards == reference.rewards
            assert kernel._cumulative_rewards == reference._cumulative_rewards
        state, other_state = kernel.game_state, reference.game_state
        assert state == other_state  # the replay is the reference's game
        assert kernel.render() == reference.render()
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
        {"max_round_turns": 1},
        {"max_round_turns": 0},
        {"max_round_turns": 29, "reward": "win"},
        {"max_round_turns": 31, "rules": Rules(target_score=60)},
    ],
    ids=[
        "win-always",
        "one-round-padded-none",
        "truncated",
        "one-turn",
        "no-turn",
        "stalled-win",
        "stalled-score",
    ],
)
def test_every_option_plays_the_same_way(options: dict) -> None:
    limit = options.get("max_round_turns", 2000)
    seen = both_ways(3, 3, stall_steps=700 if limit > 5 else 0, **options)
    if limit <= 5:
        assert seen["truncated"]
    elif limit < 2000:  # the stall rule: ended, with a penalty
        assert seen["stalled"] and not seen["truncated"]


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


def test_an_unknown_engine_and_a_turn_limit_that_is_no_integer_are_refused() -> None:
    with pytest.raises(ValueError, match="engine must be one of kernel, reference"):
        raw_env(engine="fast")
    for limit in (None, 2.5, True):
        with pytest.raises(TypeError, match="max_round_turns must be an integer"):
            raw_env(max_round_turns=limit)
    for limit in (10**20, np.int64(2**40)):  # as good as no limit: the kernel's int32
        assert raw_env(max_round_turns=limit)._game.settings.max_round_turns == 2**31 - 1


def test_a_shared_win_rewards_every_winner_on_both_engines() -> None:
    """A 4-player game of random play that ends in a shared win (seed 24, found
    by a search), played both ways."""
    options = {"num_players": 4, "reward": "win", "rules": Rules(target_score=40)}
    totals = play_randomly(raw_env(**options), 24)
    assert list(totals.values()).count(1.0) > 1, "no shared win: search another seed"
    assert play_randomly(raw_env(engine="reference", **options), 24) == totals


def play_randomly(table, seed: int) -> dict[str, float]:
    """A game of random legal actions: each agent's summed rewards."""
    rng = random.Random(seed)
    table.reset(seed=seed)
    total = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        total[agent] += reward
        live = not (terminated or truncated)
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))) if live else None)
    return total
