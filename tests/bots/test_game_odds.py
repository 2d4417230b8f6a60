"""A two-player game's odds between rounds (`skyjo.kernel.game_odds`), the script
that computes its table and the search's `odds` option."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from skyjo import kernel
from skyjo.bots.search import SearchBot, Valuer
from skyjo.engine import new_game
from skyjo.kernel import game_odds
from skyjo.kernel.game_odds import LOW, REFERENCE, SIZE, chance, solve
from skyjo.observation import observe
from skyjo.rules import Rules

RESEARCH = Path(__file__).parents[2] / "research"


def _at(table: np.ndarray, mine: int, other: int) -> float:
    return float(table[mine - LOW, other - LOW])


def test_a_player_who_always_scores_less_always_wins() -> None:
    """Every round the first player scores 5 and the second 10 (RULES.md 3):
    from level totals the second reaches the target first, with the higher
    total; from 99 against 0, the first ends the game at once and loses; from
    95 against 90, both reach 100."""
    table = solve(np.array([[5, 10]]), np.array([1.0]))
    assert _at(table, 0, 0) == 1.0
    assert _at(table, 99, 0) == 0.0
    assert _at(table, 95, 90) == 0.5  # 100 against 100: the game ends level


def test_a_tie_at_the_end_is_half_a_win() -> None:
    """Both always score 10: the game ends level from level totals."""
    table = solve(np.array([[10, 10]]), np.array([1.0]))
    assert _at(table, 0, 0) == 0.5
    assert _at(table, 0, 5) == 1.0
    assert _at(table, 5, 0) == 0.0


def test_a_fair_coin_of_rounds_gives_symmetric_odds() -> None:
    """Rounds that favour either player alike: level totals are even, and
    the two players' chances add up to 1, the leader's above a half."""
    table = solve(np.array([[0, 4], [4, 0], [2, 2]]), np.array([1.0, 1.0, 2.0]))
    assert _at(table, 30, 30) == pytest.approx(0.5, abs=1e-6)
    assert _at(table, 30, 50) + _at(table, 50, 30) == pytest.approx(1.0, abs=1e-6)
    assert _at(table, 30, 50) > 0.9
    assert _at(table, 90, 98) > _at(table, 30, 38)  # the same lead is worth more near the end


def test_solve_refuses_empty_or_mismatched_outcomes() -> None:
    with pytest.raises(ValueError, match="round outcomes"):
        solve(np.zeros((0, 2), np.int64), np.zeros(0))
    with pytest.raises(ValueError, match="round outcomes"):
        solve(np.array([[1, 2]]), np.array([1.0, 2.0]))


def test_the_shipped_table_is_a_fair_and_ordered_game() -> None:
    """The shipped table: level totals are even, the two players' chances add
    up to 1, a lower own total or a higher other total never hurts (within
    its 16-bit rounding), and it is less sure of a 20-point lead at 60
    against 80 than the normal model (0.87)."""
    table = game_odds.shipped()
    assert table.shape == (SIZE, SIZE)
    assert np.allclose(np.diag(table), 0.5, atol=1e-3)
    assert np.allclose(table + table.T, 1.0, atol=1e-3)
    assert (np.diff(table, axis=0) <= 1e-3).all()  # a higher own total
    assert (np.diff(table, axis=1) >= -1e-3).all()  # a higher other total
    assert 0.7 < chance(table, 60, 80, REFERENCE) < 0.83


def test_chance_shifts_to_the_target_and_holds_low_totals() -> None:
    """Only the totals relative to the target count; totals below the
    table's lowest move up together, keeping their difference."""
    table = game_odds.shipped()
    assert chance(table, 150, 170, 200) == chance(table, 50, 70, 100)
    assert chance(table, 10.4, 29.6, 100) == chance(table, 10, 30, 100)
    assert chance(table, LOW - 40, LOW - 30, 100) == chance(table, LOW, LOW + 10, 100)
    assert chance(table, 40, 45, 50) == chance(table, 90, 95, 100)


def test_the_search_scores_a_two_player_round_with_the_table() -> None:
    """`Valuer` with `odds`: a scored round that does not end the game is
    worth the table's chance at two players under the default ender's
    penalty, and the normal model's under another penalty."""
    obs = observe(new_game(2, seed=1), 0)
    t = kernel.new_tables(1, 2, players=2)
    t.totals[0] = [60, 80]
    out = np.zeros(1)
    Valuer(obs, 1, 1)(t, np.arange(1), out)
    assert out[0] == chance(game_odds.shipped(), 60, 80, 100)
    normal = np.zeros(1)
    Valuer(obs, 1, 0)(t, np.arange(1), normal)
    assert normal[0] > 0.85  # the normal model: surer of the lead
    t.slots[0, kernel.PENALTY] = kernel.ALWAYS
    Valuer(obs, 1, 1)(t, np.arange(1), out)
    assert out[0] == normal[0]


@pytest.mark.parametrize("odds", [-1, 2, True, "x"])
def test_search_refuses_a_bad_odds_option(odds: object) -> None:
    with pytest.raises(ValueError, match="odds must be 0 or 1"):
        SearchBot(1, odds=odds)  # type: ignore[arg-type]


def test_the_script_counts_round_scores_in_both_seat_orders() -> None:
    """`research/game_odds.py`: every pair of round scores is counted as (x, y)
    and as (y, x), so a table solved from them is symmetric."""
    sys.path.insert(0, str(RESEARCH))
    try:
        import game_odds as script  # research/game_odds.py
    finally:
        sys.path.remove(str(RESEARCH))
    counts = script.round_scores(30, seed=2)
    assert sum(counts.values()) == 60
    assert all(counts[x, y] == counts[y, x] for x, y in counts)
    assert Rules().target_score == REFERENCE
