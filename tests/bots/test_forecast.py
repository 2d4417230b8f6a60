"""The forecast of round scores (`skyjo.kernel.forecast`), the short playouts that
end on it (`playouts.play_turns`) and the search's `horizon` option."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from test_search_bot import _positions, _turns  # tests/bots/, beside this file

from skyjo import kernel
from skyjo.bots.determinize import Sampler
from skyjo.bots.search import SearchBot, Valuer, critical
from skyjo.engine import Phase
from skyjo.kernel import forecast
from skyjo.kernel.playouts import EXPECTED, Playouts
from skyjo.observation import observe
from skyjo.rules import MAX_PLAYERS

RESEARCH = Path(__file__).parents[2] / "research"


def _world(state, seed: int = 1) -> kernel.Tables:  # type: ignore[no-untyped-def]
    """A table dealt from one sampled world of what the player to act sees."""
    sampler = Sampler(observe(state, state.player))
    t = kernel.new_tables(1, state.num_players)
    sampler.load(t, 0, sampler.deal(np.random.Generator(np.random.PCG64(seed))))
    return t


def _features(t: kernel.Tables) -> np.ndarray:
    out = np.zeros((MAX_PLAYERS, forecast.NFEATURES))
    forecast.features(t, 0, np.zeros(200, np.int64), out)
    return out[: t.players[0]]


@pytest.mark.parametrize("players", [2, 4])
def test_the_features_never_peek(players: int) -> None:
    """Worlds that differ only in what nobody can see (face-down cards, the draw
    pile's order) give the same features, and so the same forecast."""
    checked = 0
    for state in [s for s in _turns(_positions(3, players)) if s.held is None][::4]:
        first = _features(_world(state, 1))
        for seed in (2, 3):
            assert (_features(_world(state, seed)) == first).all()
        checked += 1
    assert checked > 5


def test_the_features_say_what_they_name() -> None:
    """Face-down counts, the fewest at the table, whose turn is next, the ender."""
    state = [s for s in _turns(_positions(4, 3)) if s.held is None][6]
    t = _world(state)
    f = _features(t)
    names = {name: i for i, name in enumerate(forecast.NAMES)}
    downs = [bin(int(t.hidden[0, p]) & ~int(t.cleared[0, p])).count("1") for p in range(3)]
    assert f[:, names["down"]].tolist() == downs
    assert (f[:, names["fewest"]] == min(downs)).all()
    lags = [(p - state.player) % 3 for p in range(3)]
    assert f[:, names["lag"]].tolist() == lags
    assert (f[:, names["one"]] == 1).all() and (f[:, names["ended"]] == 0).all()
    assert (f[:, names["expected"]] > 0).all()


def test_the_shipped_weights_load_and_a_foreign_file_is_refused(tmp_path: Path) -> None:
    weights = forecast.load_weights()
    assert weights.shape == (MAX_PLAYERS + 1, forecast.NFEATURES)
    assert (weights[2:] != 0).any(axis=1).all()  # a fitted row for every table size
    data = json.loads(forecast.WEIGHTS_FILE.read_text())
    data["features"] = data["features"][::-1]
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="not this module's"):
        forecast.load_weights(other)


def test_play_turns_stops_after_its_limit_or_with_the_round() -> None:
    """`play_turns` plays exactly `limit` turns when the round lasts longer, and
    with no limit plays the round out as `play_out` does, card for card."""
    state = _turns(_positions(4, 2))[0]
    for limit in (1, 3):
        t = _world(state)
        assert not Playouts(random.Random(1), EXPECTED).play_turns(t, 0, limit)
        assert t.turns[0] == limit and t.phase[0] in (Phase.TURNS, Phase.FINAL_TURNS)
    whole, turned = _world(state), _world(state)
    Playouts(random.Random(1), EXPECTED).play_out(whole, 0)
    assert Playouts(random.Random(1), EXPECTED).play_turns(turned, 0, -1)
    for part in ("cells", "seats", "piles", "slots"):
        assert (getattr(whole, part) == getattr(turned, part)).all()


def test_an_unfinished_round_is_valued_on_its_forecast() -> None:
    """`Valuer` with the forecast: a table still in play is valued as if the
    totals were the totals plus the forecast scores; a scored one as without."""
    state = [s for s in _turns(_positions(4, 2)) if s.held is None][5]
    obs = observe(state, state.player)
    t = _world(state)
    value = Valuer(obs, 1)
    out = np.zeros(1)
    value(t, np.arange(1), out, True)
    predicted = np.zeros(MAX_PLAYERS)
    forecast.predict(t, 0, forecast.WEIGHTS, np.zeros(200, np.int64), np.zeros((8, 16)), predicted)
    shifted = kernel.new_tables(1, 2, players=2)  # scored: its totals count as they are
    shifted.totals[0] = [0, 0]
    base = np.zeros(1)
    value(shifted, np.arange(1), base, True)
    assert base[0] == pytest.approx(0.5)
    me, other = obs.viewer, 1 - obs.viewer
    lead = state.totals[other] + predicted[other] - state.totals[me] - predicted[me]
    assert (out[0] > 0.5) == (lead > 0)
    assert out[0] != pytest.approx(0.5)
    plain = np.zeros(1)
    value(t, np.arange(1), plain, False)  # without the forecast: the totals alone
    assert plain[0] != out[0]


def test_search_with_a_horizon_plays_short_playouts_at_calm_decisions() -> None:
    """`horizon=2`: a calm decision is searched with playouts of two turns a
    player past the candidate move; a critical one is played out to the end."""
    states = [s for s in _turns(_positions(4, 2)) if s.held is not None]
    calm = [s for s in states if not critical(observe(s, s.player))]
    tense = [s for s in states if critical(observe(s, s.player))]
    short = SearchBot(1, iterations=40, calm=1.0, horizon=2)
    long_ = SearchBot(1, iterations=40, calm=1.0)
    for state in calm[:3]:
        obs = observe(state, state.player)
        short.choose(obs)
        long_.choose(obs)
        turns, playouts, _ = short.last_stats
        assert playouts and turns <= playouts * 5  # the move, then 2 x 2 turns at most
        assert long_.last_stats[0] > long_.last_stats[1] * 5
    assert short._limit(observe(tense[0], tense[0].player)) == -1


@pytest.mark.parametrize("horizon", [-1, 1.5, True, "x"])
def test_search_refuses_a_bad_horizon(horizon: object) -> None:
    with pytest.raises(ValueError, match="horizon must be a whole number of turns"):
        SearchBot(1, horizon=horizon)  # type: ignore[arg-type]


def test_the_training_script_samples_every_turn_with_its_round_score() -> None:
    """`research/forecast.py`'s sample: one row per player per turn's start, each
    with that player's final score of the round (equal for the rows of one
    player in one round); a fit on them beats the grid's expected score."""
    sys.path.insert(0, str(RESEARCH))
    try:
        import forecast as script  # research/forecast.py
    finally:
        sys.path.remove(str(RESEARCH))
    x, y = script.sample(2, 40, seed=3)
    assert x.shape == (len(y), forecast.NFEATURES) and len(y) % 2 == 0
    assert (x[:, 0] == 1).all()
    weights = script.fit(x, y)
    fitted = float(np.mean((x @ weights - y) ** 2))
    assert fitted < float(np.mean((x[:, 1] - y) ** 2)) / 4
