"""Tournament statistics: Wilson intervals, shared wins, tallies, ratings, turn curves."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

import pytest

from skyjo.engine import RoundResult
from skyjo.sim import make_config, run_tournament
from skyjo.sim.stats import (
    TurnCurves,
    incident_counts,
    ratings,
    seat_win_rates,
    shared_wins,
    summarize,
    tally,
    wilson_interval,
)
from skyjo.sim.tournament import GameResult, Incident, TournamentConfig, seat_lineup

# The `test-low` bot (far better than random), registered while a test runs.
from test_tournament import registered_test_bots  # isort: skip


@pytest.fixture(autouse=True)
def _test_bots() -> Iterator[None]:
    with registered_test_bots():
        yield


# --------------------------------------------------------------------------
# Wilson score interval
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Statistics in Medicine 17, table II: method 3 (Wilson score).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # textbook values
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_interval_known_values(successes: int, trials: int, low: float, high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    # symmetric around one half, narrower with more trials
    low, high = wilson_interval(30, 100)
    assert wilson_interval(70, 100) == pytest.approx((1 - high, 1 - low))
    assert wilson_interval(300, 1000)[1] - wilson_interval(300, 1000)[0] < high - low
    # a fractional count (shared wins) lies between its neighbours
    assert wilson_interval(4, 10)[0] < wilson_interval(4.5, 10)[0] < wilson_interval(5, 10)[0]


# --------------------------------------------------------------------------
# Hand-made games
# --------------------------------------------------------------------------


def record(
    index: int,
    seats: tuple[str, ...],
    totals: tuple[int, ...],
    rounds: tuple[RoundResult, ...] = (),
    trajectories: tuple[tuple[tuple[int, ...], ...], ...] | None = None,
) -> GameResult:
    """A game record written by hand: one round scoring the totals unless given."""
    if not rounds:
        rounds = (RoundResult(0, totals, totals, False),)
    return GameResult(index, seats, totals, rounds, turns=10, trajectories=trajectories)


def config_for(bots: tuple[str, ...], lineup: tuple[str, ...], games: int) -> TournamentConfig:
    return TournamentConfig(bots=bots, lineup=lineup, games=games, seed=1)


def test_tied_winners_share_the_win_as_fractions() -> None:
    games = [
        record(0, ("a", "b", "c"), (10, 10, 20)),  # a and b share: 1/2 each
        record(1, ("b", "c", "a"), (5, 5, 5)),  # three-way tie: 1/3 each
        record(2, ("c", "a", "b"), (30, 20, 40)),  # a alone
    ]
    wins = shared_wins(games)
    assert wins == {"a": Fraction(11, 6), "b": Fraction(5, 6), "c": Fraction(1, 3)}
    assert sum(wins.values()) == len(games)
    summary = summarize(config_for(("a", "b", "c"), ("a", "b", "c"), 3), games)
    by_bot = {b["bot"]: b for b in summary["bots"]}
    assert by_bot["a"]["wins"] == pytest.approx(11 / 6)
    assert by_bot["a"]["win_rate"] == pytest.approx(11 / 18)
    assert by_bot["c"]["wins"] == pytest.approx(1 / 3)
    assert seat_win_rates(games, 3) == pytest.approx(
        [(1 / 2 + 1 / 3) / 3, (1 / 2 + 1 / 3 + 1) / 3, 1 / 9]
    )


def test_copies_of_a_bot_add_up() -> None:
    games = [record(0, ("a", "b", "a"), (10, 20, 10))]
    t = tally(games)
    assert t["a"].seats == 2 and t["a"].wins == 1 and t["b"].wins == 0
    summary = summarize(config_for(("a", "b"), ("a", "b", "a"), 1), games)
    a = summary["bots"][0]
    assert a["win_rate"] == 0.5  # one win over two seats: the fair share is 1/3 a seat
    assert a["mean_game_score"] == 10


def test_round_statistics() -> None:
    rounds = (
        RoundResult(0, (10, 4), (20, 4), True),  # a ends and is doubled
        RoundResult(1, (6, 2), (6, 2), False),  # b ends
        RoundResult(0, (-3, 5), (-3, 5), False),  # a ends, not doubled
    )
    games = [record(0, ("a", "b"), (23, 11), rounds)]
    summary = summarize(config_for(("a", "b"), ("a", "b"), 1), games)
    a, b = summary["bots"]
    assert (a["rounds"], a["rounds_ended"], a["doubled"]) == (3, 2, 1)
    assert a["ended_rate"] == pytest.approx(2 / 3)
    assert a["doubled_rate"] == 0.5
    assert a["mean_round_score"] == pytest.approx(23 / 3, abs=1e-4)
    assert (b["rounds_ended"], b["doubled"], b["doubled_rate"]) == (1, 0, 0.0)
    assert summary["rounds"] == 3 and summary["mean_rounds_per_game"] == 3


def test_stalled_games_count_neither_as_a_win_nor_as_a_loss() -> None:
    played = [
        record(0, ("a", "b"), (10, 20), trajectories=(((30, 10), (30, 20)),)),
        record(1, ("b", "a"), (15, 30)),
    ]
    stalled = replace(
        record(2, ("a", "b"), (50, 0), trajectories=(((40, 50), (40, 0)),)), stalled_round=2
    )
    assert stalled.stalled and stalled.winners == ()
    config = config_for(("a", "b"), ("a", "b"), 3)
    with_stalled = summarize(config, [*played, stalled])
    without = summarize(config, played)
    assert with_stalled["bots"] == without["bots"]  # seats, wins, scores, ratings alike
    assert with_stalled["bots"][0]["seats"] == 2
    assert with_stalled["seat_win_rates"] == without["seat_win_rates"] == [1.0, 0.0]
    assert with_stalled["turn_curves"] == without["turn_curves"]
    assert with_stalled["mean_rounds_per_game"] == without["mean_rounds_per_game"]
    assert (with_stalled["games"], with_stalled["stalled_games"]) == (3, 1)
    assert (without["games"], without["stalled_games"], without["stalled"]) == (2, 0, [])
    assert with_stalled["stalled"] == [
        {"game": 2, "round": 2, "seats": ["a", "b"], "totals": [50, 0]}
    ]
    assert tally([stalled]) == {} and ratings([stalled], ["a"]) == ratings([], ["a"])


def test_incidents_are_counted_per_bot_and_kind() -> None:
    crash = Incident(1, 0, "crashed", "exited with status 2")
    late = Incident(0, 4, "timeout", "no answer within 1 s")
    games = [
        replace(record(0, ("a", "b"), (10, 20)), incidents=(crash,)),
        replace(record(1, ("b", "a"), (15, 30)), incidents=(late, late, Incident(1, 9, "odd", ""))),
        replace(record(2, ("a", "b"), (5, 0)), stalled_round=1, incidents=(crash,)),
    ]
    assert incident_counts(games) == {"b": {"timeout": 2, "crashed": 2}, "a": {"odd": 1}}
    assert list(incident_counts(games)["b"]) == ["timeout", "crashed"]  # INCIDENT_KINDS order
    summary = summarize(config_for(("a", "b"), ("a", "b"), 3), games)
    assert [b["incidents"] for b in summary["bots"]] == [
        {"odd": 1},
        {"timeout": 2, "crashed": 2},  # stalled games' incidents count too
    ]
    clean = summarize(config_for(("a", "b"), ("a", "b"), 1), [record(0, ("a", "b"), (1, 2))])
    assert [b["incidents"] for b in clean["bots"]] == [{}, {}]


def test_statistics_do_not_depend_on_the_order_games_arrive() -> None:
    games = [record(i, ("a", "b"), (10 + i % 3, 12 - i % 5)) for i in range(12)]
    config = config_for(("a", "b"), ("a", "b"), 12)
    assert summarize(config, games) == summarize(config, list(reversed(games)))


# --------------------------------------------------------------------------
# Ratings
# --------------------------------------------------------------------------


def test_ratings_follow_the_results() -> None:
    points = {"a": 5, "b": 20, "c": 40}  # a always beats b, which always beats c
    games = []
    for i in range(15):
        seats = tuple(seat_lineup(["a", "b", "c"], i))
        games.append(record(i, seats, tuple(points[s] for s in seats)))
    rated = ratings(games, ["a", "b", "c"])
    assert rated["a"]["mu"] > rated["b"]["mu"] > rated["c"]["mu"]
    assert all(r["sigma"] < 25 / 3 for r in rated.values())
    ordinal = rated["a"]["mu"] - 3 * rated["a"]["sigma"]
    assert rated["a"]["ordinal"] == pytest.approx(ordinal, abs=1e-3)


def test_equal_totals_leave_equal_ratings() -> None:
    games = [record(i, ("a", "b"), (7, 7)) for i in range(4)]
    rated = ratings(games, ["a", "b"])
    assert rated["a"] == rated["b"]


def test_lopsided_tournament_rates_the_stronger_bot_first() -> None:
    config = make_config("test-low,random", players=2, games=10, seed=4)
    summary = run_tournament(config, workers=1).summary
    low, rnd = summary["bots"]
    assert low["rating"]["mu"] > 25 > rnd["rating"]["mu"]
    assert low["rating"]["ordinal"] > rnd["rating"]["ordinal"]
    assert low["win_rate_ci95"][0] > 0.5 > rnd["win_rate_ci95"][1]


# --------------------------------------------------------------------------
# Turn curves
# --------------------------------------------------------------------------


def test_turn_curves_average_by_own_turn() -> None:
    curves = TurnCurves()
    curves.add(
        record(0, ("a", "b"), (1, 2), trajectories=(((50, 40, 30), (60, 60)), ((20,), (10, 5))))
    )
    curves.add(record(1, ("b", "a"), (1, 2), trajectories=(((30, 20, 10), (40, 30, 20)),)))
    curves.add(record(2, ("a", "b"), (1, 2)))  # no trajectories: adds nothing
    doc = curves.to_dict()
    assert doc["a"]["count"] == [3, 2, 2]
    assert doc["a"]["mean"] == pytest.approx([(50 + 20 + 40) / 3, 35, 25], abs=1e-4)
    assert doc["b"]["count"] == [3, 3, 1]
    assert doc["b"]["mean"] == pytest.approx([(60 + 10 + 30) / 3, (60 + 5 + 20) / 3, 10], abs=1e-4)
    # a turn reached by too few rounds is left out
    assert curves.to_dict(min_share=0.5)["b"]["count"] == [3, 3]
