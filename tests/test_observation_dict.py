"""An observation's JSON form (`Observation.to_dict`, what the bot protocol sends) reads
back (`Observation.from_dict`) to the same observation, so a program outside can encode
it as the environments do; a form that is not one is refused, naming the field."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from played_states import states  # tests/played_states.py

from skyjo.engine import EngineError
from skyjo.env.encoding import encode_observation
from skyjo.kernel.layout import Layout
from skyjo.observation import CLEARED, Observation, ObservationError, observe, observe_views


def _without_cleared_values(obs: Observation) -> Observation:
    """`obs` as its JSON form tells it: a cleared cell ("x") holds no value."""
    cards = tuple(
        tuple(None if s == CLEARED else c for c, s in zip(row, status, strict=True))
        for row, status in zip(obs.cards, obs.status, strict=True)
    )
    return replace(obs, cards=cards)


@pytest.mark.parametrize(("players", "games"), [(2, 2), (3, 2), (5, 1), (8, 3)])
def test_every_observation_reads_back_and_encodes_the_same(players: int, games: int) -> None:
    played = states(players, games, seed=players)
    assert any(s.reshuffles[-1] for s in played)
    assert players == 5 or any(s.cleared_bits for s in played)  # a cleared column ("x")
    layout = Layout(players)
    for state in played[:: max(1, len(played) // 300)]:
        for viewer in (*range(players), None):
            obs = observe(state, viewer)
            sent = json.loads(json.dumps(obs.to_dict()))  # as it crosses the protocol
            read = Observation.from_dict(sent)
            assert read == _without_cleared_values(obs)
            if viewer is not None:
                assert np.array_equal(
                    encode_observation(read, layout), encode_observation(obs, layout)
                )


def _sent() -> dict[str, Any]:
    state = states(2, 1, seed=9)[40]
    return json.loads(json.dumps(observe(state, 0).to_dict()))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("num_players", 9),
        ("num_players", True),
        ("viewer", 2),
        ("phase", "dancing"),
        ("held", 13),
        ("source", "sleeve"),
        ("grids", [[[1, 2, 3, 4]] * 3]),
        ("grids", [[[1, 2, 3]] * 3] * 2),
        ("discard_pile", [-3]),
        ("totals", [0]),
        ("legal_actions", [39]),
        ("rules", {"colour": 1}),
        ("results", [{"ender": 0, "raw": [1, 2], "scores": [1, 2]}]),
        ("draw_pile_known", "all"),
        ("round", -1),
    ],
)
def test_a_form_that_is_not_an_observation_names_its_field(field: str, value: Any) -> None:
    sent = _sent()
    sent[field] = value
    with pytest.raises(ObservationError) as refused:
        Observation.from_dict(sent)
    failure = refused.value
    reported = "grids" if field == "num_players" and value is True else field
    assert failure.kind == "observation_field"
    assert failure.params["field"] in (field, reported), failure.params
    assert str(failure).startswith(f"an observation's {failure.params['field']} must be")


def test_a_missing_field_or_a_non_object_is_refused() -> None:
    sent = _sent()
    del sent["draw_pile_size"]
    with pytest.raises(ObservationError, match="draw_pile_size must be a whole number"):
        Observation.from_dict(sent)
    with pytest.raises(ObservationError, match="whole must be an object"):
        Observation.from_dict([])


@pytest.mark.parametrize(("players", "games"), [(2, 2), (4, 2), (8, 1)])
def test_every_viewer_s_view_made_at_once_is_its_own(players: int, games: int) -> None:
    """`observe_views` (what a server sends every viewer after a step, the shared
    parts made once) gives each viewer exactly `observe(state, viewer).to_dict()`:
    held cards, legal actions and what a reshuffled pile holds stay each viewer's."""
    played = states(players, games, seed=players + 10)
    assert any(s.reshuffles[-1] and s.held is not None for s in played)
    viewers = [None, *range(players)]
    for state in played[:: max(1, len(played) // 400)]:
        for order in (viewers, viewers[::-1], [state.player]):
            views = observe_views(state, order)
            assert list(views) == order
            for viewer in order:
                assert views[viewer] == observe(state, viewer).to_dict(), (viewer, state.player)
    assert observe_views(played[0], []) == {}
    with pytest.raises(EngineError, match="there is no seat"):
        observe_views(played[0], [players])
