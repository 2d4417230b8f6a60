"""The bot protocol's encoder (skyjo.env.encoding.encode_int16 / encode_float32): an
observation read back from the protocol's JSON (`Observation.from_dict` of an `act`
message's `observation`) encodes to exactly what the environments give the seat, so
a policy trained on them plays over the protocol."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest

import skyjo.env
from skyjo.engine import new_game
from skyjo.env import SkyjoEnv, encode_float32, encode_int16
from skyjo.kernel.layout import Layout
from skyjo.observation import Observation, observe
from skyjo.rules import Rules


def _sent(state: object, seat: int) -> Observation:
    """The seat's observation as an `act` message carries it, read back."""
    wire = json.dumps(observe(state, seat).to_dict())  # type: ignore[arg-type]
    return Observation.from_dict(json.loads(wire))


@pytest.mark.parametrize("engine", ["reference", "kernel"])
@pytest.mark.parametrize(
    ("players", "rules"),
    [
        (2, Rules(target_score=60)),
        (3, Rules(target_score=40, ender_penalty="always")),
        (4, Rules(target_score=30, ender_penalty="none")),
    ],
)
@pytest.mark.parametrize("observation", ["float32", "dict"])
def test_the_encoder_gives_the_environments_observation_in_whole_games(
    engine: str, players: int, rules: Rules, observation: str
) -> None:
    table = gymnasium.make(
        skyjo.env.ENV_ID,
        opponents=["greedy", "random", "greedy"][: players - 1],
        rules=rules,
        seat=None,  # drawn from each game's seed: every seat plays
        slots=8,
        engine=engine,
        observation=observation,
    )
    env: SkyjoEnv = table.unwrapped  # type: ignore[assignment]
    rng = np.random.default_rng(players)
    compared, seats = 0, set()
    for game in range(3):
        obs, info = table.reset(seed=100 * players + game)
        seats.add(env.seat)
        over = False
        while True:
            read = _sent(env.game_state, env.seat)
            if observation == "float32":
                assert obs.dtype == np.float32
                np.testing.assert_array_equal(encode_float32(read, slots=8), obs)
            else:
                np.testing.assert_array_equal(encode_int16(read, slots=8), obs["observation"])
            compared += 1
            if over:
                break
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, done, truncated, info = table.step(action)
            over = done or truncated
    assert compared > 100 and len(seats) > 1, (compared, seats)
    table.close()


def test_the_float_observation_is_the_integer_one_scaled_for_the_target() -> None:
    """Totals are in targets: the same table at two targets differs only there."""
    state = new_game(3, seed=4, rules=Rules(target_score=50))
    view = observe(state, 1)
    low = encode_float32(view, slots=4)
    assert low.shape == (Layout(3, 4).size,) and low.dtype == np.float32
    raw = encode_int16(view, slots=4)
    assert raw.dtype == np.int16 and raw.shape == low.shape
    assert raw[Layout(3, 4).offsets["present"]].tolist() == [1, 1, 1, 0]
    target = Layout(3, 4).start("target_score")
    assert raw[target] == 50 and low[target] == np.float32(50 / 1000)
    # by default, one slot a seat
    assert encode_int16(view).shape == (Layout(3).size,)


def test_a_spectator_or_too_few_slots_is_refused() -> None:
    state = new_game(4, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        encode_float32(observe(state, None))
    with pytest.raises(ValueError, match="3 slots cannot hold 4 players"):
        encode_float32(observe(state, 0), slots=3)
    with pytest.raises(ValueError, match="3 slots cannot hold 4 players"):
        encode_int16(observe(state, 0), slots=3)
