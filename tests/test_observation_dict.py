"""An observation's JSON form (`Observation.to_dict`, what the bot protocol sends) reads
back (`Observation.from_dict`) to the same observation, a cleared column's card
included, so a program outside can encode it as the environments do and every bot
plays from it the moves it plays from the original; a form that is not one is
refused, naming the field."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from played_states import states  # tests/played_states.py

from skyjo.bots import bot_names, make_bot
from skyjo.engine import EngineError, Phase, new_game, step
from skyjo.env.encoding import encode_observation
from skyjo.kernel.layout import Layout
from skyjo.observation import CLEARED, Observation, ObservationError, observe, observe_views
from skyjo.rules import Rules

EXAMPLE_BOT = Path(__file__).resolve().parent.parent / "examples" / "bots" / "random_bot.py"
#: Bots that need options, or that are slow at their defaults, play these specs here.
SPECS = {
    "external": f"external:command=python {EXAMPLE_BOT}",
    "search": "search:turns=150",
}


def _sent_over(obs: Observation) -> Observation:
    """`obs` as a program at the other end of the protocol reads it back."""
    return Observation.from_dict(json.loads(json.dumps(obs.to_dict())))


def _without_cleared_values(obs: Observation) -> Observation:
    """`obs` as the JSON form without `cleared_columns` tells it: a cleared cell
    ("x") holds no value."""
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
            read = _sent_over(obs)
            assert read == obs
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


def _with_a_cleared_column() -> dict[str, Any]:
    """The JSON form of an observation in which a column is cleared."""
    state = next(s for s in states(3, 2, seed=3) if s.cleared_bits)
    return observe(state, 0).to_dict()


def test_a_cleared_column_s_card_is_sent_and_read_back() -> None:
    sent = _with_a_cleared_column()
    seat, col = next(
        (seat, col)
        for seat, grid in enumerate(sent["grids"])
        for col in range(4)
        if grid[0][col] == "x"
    )
    card = sent["cleared_columns"][seat][col]
    assert isinstance(card, int)
    read = Observation.from_dict(sent)
    assert [read.cards[seat][row * 4 + col] for row in range(3)] == [card] * 3
    assert all(
        sent["cleared_columns"][s][c] is None
        for s, grid in enumerate(sent["grids"])
        for c in range(4)
        if grid[0][c] != "x"
    )


def test_the_form_without_cleared_columns_still_reads() -> None:
    """A program that writes the form of before `cleared_columns` (or drops it) is
    still read: a cleared cell then holds no value."""
    sent = _with_a_cleared_column()
    original = Observation.from_dict(sent)
    del sent["cleared_columns"]
    assert Observation.from_dict(sent) == _without_cleared_values(original)


@pytest.mark.parametrize(
    "change",
    [
        "a card for a column that is not cleared",
        "no card for a cleared column",
        "a card that is not one",
        "three columns",
        "one seat",
    ],
)
def test_cleared_columns_that_do_not_match_the_grids_are_refused(change: str) -> None:
    sent = _with_a_cleared_column()
    columns = sent["cleared_columns"]
    seat, col = next((s, c) for s, row in enumerate(columns) for c, v in enumerate(row) if v)
    free = next((s, c) for s, row in enumerate(columns) for c, v in enumerate(row) if v is None)
    if change == "a card for a column that is not cleared":
        columns[free[0]][free[1]] = 5
    elif change == "no card for a cleared column":
        columns[seat][col] = None
    elif change == "a card that is not one":
        columns[seat][col] = 13
    elif change == "three columns":
        columns[seat] = columns[seat][:3]
    else:
        sent["cleared_columns"] = columns[:1]
    with pytest.raises(ObservationError) as refused:
        Observation.from_dict(sent)
    assert refused.value.params["field"] == "cleared_columns"
    assert 'a card for each column of "x" cells, else null' in str(refused.value)


@pytest.mark.parametrize("name", bot_names())
def test_every_bot_plays_the_same_game_from_the_observations_sent_over(name: str) -> None:
    """A whole game of `name` against two `greedy` (who clear columns often): every
    observation of every viewer reads back exactly, and at each decision a twin of
    the seat's bot (same seed) fed the observation as read back picks the action
    the bot picks from the original."""
    specs = [SPECS.get(name, name), "greedy", "greedy"]
    bots = [make_bot(spec, seat) for seat, spec in enumerate(specs)]
    twins = [make_bot(spec, seat) for seat, spec in enumerate(specs)]
    state = new_game(3, seed=5, rules=Rules(target_score=30))
    seen_cleared = 0
    while state.phase != Phase.GAME_OVER:
        for viewer in (None, 0, 1, 2):
            assert _sent_over(observe(state, viewer)) == observe(state, viewer)
        obs = observe(state, state.player)
        action = bots[state.player].choose(obs)
        assert twins[state.player].choose(_sent_over(obs)) == action, len(state.history)
        seen_cleared += state.player == 0 and bool(state.cleared_bits)
        state = step(state, action)
    for bot in (*bots, *twins):
        getattr(bot, "close", lambda: None)()
    assert seen_cleared >= 5, seen_cleared  # the bot chose beside cleared columns
