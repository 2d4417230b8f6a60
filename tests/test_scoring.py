"""Scoring: RULES.md 2.6, 2.9, 2.10, 3 and every worked example of RULES.md 4."""

from __future__ import annotations

import ast
import dataclasses
import itertools
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from skyjo import scoring as scoring_module
from skyjo.rules import CARD_COUNTS
from skyjo.scoring import (
    CLEARED,
    MAX_ROUND_SCORE,
    MIN_ROUND_SCORE,
    RoundScore,
    Scoresheet,
    ScoringError,
    column_clears,
    ender_is_doubled,
    is_game_over,
    round_facts,
    round_scores,
    score_grid,
    score_round,
    winners,
)

X = CLEARED

# ---------------------------------------------------------------- RULES.md 4


def test_example_grid_worth_14_with_column_of_7s_cleared() -> None:
    grid = score_grid(
        [
            [7, 5, 2, 4],
            [7, -1, 3, 1],
            [7, 0, -2, 2],
        ]
    )
    assert [c.cleared for c in grid.columns] == [True, False, False, False]
    assert [c.score for c in grid.columns] == [0, 4, 3, 7]
    assert grid.total == 14
    assert [c.explanation for c in grid.columns] == [
        "three 7s, cleared, so 0",
        "5 + -1 + 0 = 4",
        "2 + 3 + -2 = 3",
        "4 + 1 + 2 = 7",
    ]
    assert grid.columns[0].cards == (7, 7, 7)
    assert [c.index for c in grid.columns] == [0, 1, 2, 3]


def test_example_cleo_ends_with_14_ana_has_9_cleo_writes_28() -> None:
    result = score_round({"Ana": 9, "Ben": 20, "Cleo": 14}, ender="Cleo")
    assert result.scores == {"Ana": 9, "Ben": 20, "Cleo": 28}
    assert result.raw == {"Ana": 9, "Ben": 20, "Cleo": 14}
    assert result.doubled is True
    assert result.reason == (
        "Cleo ended with 14 and Ana has 9, which is not higher: Cleo's score is doubled to 28"
    )


def test_example_ana_ends_with_3_single_lowest_nothing_changes() -> None:
    result = score_round({"Ana": 3, "Ben": 4, "Cleo": 20}, ender="Ana")
    assert result.scores == {"Ana": 3, "Ben": 4, "Cleo": 20}
    assert result.doubled is False
    assert result.reason == "Ana ended with 3, the single lowest score: not doubled"


def test_example_ben_ends_with_5_tie_with_cleo_ben_writes_10() -> None:
    result = score_round({"Ana": 9, "Ben": 5, "Cleo": 5}, ender="Ben")
    assert result.scores == {"Ana": 9, "Ben": 10, "Cleo": 5}
    assert result.doubled is True
    assert "Cleo has 5, which is not higher" in result.reason


def test_example_ana_ends_with_minus_3_cleo_minus_5_ana_keeps_minus_3() -> None:
    result = score_round({"Ana": -3, "Cleo": -5}, ender="Ana")
    assert result.scores == {"Ana": -3, "Cleo": -5}
    assert result.doubled is False
    assert result.reason == "Ana ended with -3: a score of 0 or below is never doubled"


def test_example_a_ends_with_10_b_24_c_10_a_writes_20() -> None:
    result = score_round({"A": 10, "B": 24, "C": 10}, ender="A")
    assert result.scores == {"A": 20, "B": 24, "C": 10}
    assert result.doubled is True


def test_example_three_minus_2s_cleared_lose_their_minus_6() -> None:
    grid = score_grid(
        [
            [-2, 5, 2, 4],
            [-2, -1, 3, 1],
            [-2, 0, 1, 2],
        ]
    )
    assert grid.columns[0].cleared is True
    assert grid.columns[0].score == 0
    assert grid.columns[0].explanation == "three -2s, cleared, so 0"
    assert grid.total == 4 + 6 + 7  # not 4 + 6 + 7 - 6


# ---------------------------------------------------------------- grids


def test_column_of_three_0s_is_cleared() -> None:
    grid = score_grid(
        [
            [0, 5, 2, 4],
            [0, 6, 3, 1],
            [0, 8, 1, 2],
        ]
    )
    assert grid.columns[0].cleared is True
    assert grid.columns[0].explanation == "three 0s, cleared, so 0"
    assert grid.total == 19 + 6 + 7


def test_two_columns_cleared_at_once_at_final_reveal() -> None:
    grid = score_grid(
        [
            [9, 5, 9, 12],
            [9, 6, 9, 12],
            [9, 8, 9, 11],
        ]
    )
    assert [c.cleared for c in grid.columns] == [True, False, True, False]
    assert grid.total == 19 + 35


def test_column_cleared_earlier_scores_0() -> None:
    grid = score_grid(
        [
            [X, 5, 2, X],
            [X, 6, 3, X],
            [X, 8, 1, X],
        ]
    )
    assert grid.columns[0].cleared is True
    assert grid.columns[0].cards == (None, None, None)
    assert grid.columns[0].explanation == "cleared earlier, so 0"
    assert grid.total == 19 + 6


def test_every_column_cleared_earlier_is_worth_0() -> None:
    assert score_grid([[X] * 4] * 3).total == 0


def test_grid_to_dict_is_rules_section_6_shape() -> None:
    grid = score_grid(
        [
            [7, 5, X, 4],
            [7, -1, X, 1],
            [7, 0, X, 2],
        ]
    )
    document = json.loads(json.dumps(grid.to_dict()))
    assert document == {
        "columns": [
            {
                "cards": [7, 7, 7],
                "cleared": True,
                "score": 0,
                "explanation": "three 7s, cleared, so 0",
            },
            {"cards": [5, -1, 0], "cleared": False, "score": 4, "explanation": "5 + -1 + 0 = 4"},
            {
                "cards": [None, None, None],
                "cleared": True,
                "score": 0,
                "explanation": "cleared earlier, so 0",
            },
            {"cards": [4, 1, 2], "cleared": False, "score": 7, "explanation": "4 + 1 + 2 = 7"},
        ],
        "total": 11,
    }


def test_grid_results_are_frozen() -> None:
    grid = score_grid([[1, 2, 3, 4]] * 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        grid.total = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("rows", "message", "kind", "params"),
    [
        ([[1, 2, 3, 4]] * 2, "a grid has 3 rows, not 2", "grid_rows", {"rows": 3, "count": 2}),
        ([[1, 2, 3, 4]] * 4, "a grid has 3 rows, not 4", "grid_rows", {"rows": 3, "count": 4}),
        (
            [[1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4]],
            "row 2 has 3 cards instead of 4",
            "row_length",
            {"row": 1, "count": 3, "size": 4},
        ),
        (
            [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4, 5]],
            "row 3 has 5 cards instead of 4",
            "row_length",
            {"row": 2, "count": 5, "size": 4},
        ),
        (
            [[1, 2, 3, 4], [1, 2, 13, 4], [1, 2, 3, 4]],
            "the card at row 2, column 3 is 13, but cards go from -2 to 12",
            "card_out_of_range",
            {"row": 1, "column": 2, "card": 13, "min": -2, "max": 12},
        ),
        (
            [[-3, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]],
            "the card at row 1, column 1 is -3, but cards go from -2 to 12",
            "card_out_of_range",
            {"row": 0, "column": 0, "card": -3, "min": -2, "max": 12},
        ),
        (
            [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, "4"]],
            "row 3, column 4 is '4', not a number",
            "card_not_number",
            {"row": 2, "column": 3, "card": "'4'"},
        ),
        (
            [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 2.5]],
            "row 3, column 4 is 2.5, not a number",
            "card_not_number",
            {"row": 2, "column": 3, "card": "2.5"},
        ),
        (
            [[True, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]],
            "row 1, column 1 is True, not a number",
            "card_not_number",
            {"row": 0, "column": 0, "card": "True"},
        ),
        (
            [[X, 2, 3, 4], [1, 2, 3, 4], [X, 2, 3, 4]],
            "column 1 is partly cleared (2 of its 3 cards",
            "column_partly_cleared",
            {"column": 0, "cleared": 2, "size": 3},
        ),
        (
            [[-2, -2, -2, 4], [-2, -2, -2, 4], [1, 2, 3, 4]],
            "the grid holds 6 cards of -2 but the deck has only 5",
            "grid_too_many",
            {"count": 6, "value": -2, "deck": 5},
        ),
        (
            [[12, 12, 12, 12], [12, 12, 12, 12], [12, 12, 12, 12]],
            "the grid holds 12 cards of 12 but the deck has only 10",
            "grid_too_many",
            {"count": 12, "value": 12, "deck": 10},
        ),
        (
            "1 2 3 4",
            "a grid is a list of 3 rows, not str",
            "grid_not_list",
            {"rows": 3, "type": "str"},
        ),
        (
            ["1 2 3 4", "1 2 3 4", "1 2 3 4"],
            "row 1 must be a list of 4 cards",
            "grid_row_not_list",
            {"row": 0, "size": 4, "value": "'1 2 3 4'"},
        ),
    ],
)
def test_bad_grids_raise_scoring_error_naming_the_problem(
    rows: object, message: str, kind: str, params: dict[str, object]
) -> None:
    """The message is for a person: rows and columns counted from 1 ("row 1,
    column 1" is the top left card); the kind and params (positions from 0, as
    RULES.md writes them) are for an interface that writes its own sentence."""
    with pytest.raises(ScoringError) as caught:
        score_grid(rows)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert (caught.value.kind, caught.value.params) == (kind, params)
    assert json.loads(json.dumps(caught.value.params)) == params  # JSON-ready


@st.composite
def grids(draw: st.DrawFn) -> list[list[int | None]]:
    """Grids whose columns are random, three of a kind, or cleared earlier."""
    columns: list[list[int | None]] = []
    for _ in range(4):
        kind = draw(st.sampled_from(["cards", "triple", "cleared"]))
        column: list[int | None]
        if kind == "cards":
            column = list(draw(st.lists(st.integers(-2, 12), min_size=3, max_size=3)))
        elif kind == "triple":
            column = [draw(st.integers(-2, 12))] * 3
        else:
            column = [None] * 3
        columns.append(column)
    cards = [card for column in columns for card in column if card is not None]
    assume(all(cards.count(v) <= n for v, n in CARD_COUNTS.items()))
    return [[columns[c][r] for c in range(4)] for r in range(3)]


@given(grids(), st.permutations(range(4)))
def test_total_is_sum_of_uncleared_columns_whatever_the_column_order(
    rows: list[list[int | None]], order: list[int]
) -> None:
    columns = [[rows[r][c] for r in range(3)] for c in range(4)]
    uncleared = [
        [card for card in col if card is not None]
        for col in columns
        if None not in col and not (col[0] == col[1] == col[2])
    ]
    grid = score_grid(rows)
    assert grid.total == sum(sum(col) for col in uncleared)
    assert grid.total == sum(column.score for column in grid.columns)
    shuffled = [[row[c] for c in order] for row in rows]
    assert score_grid(shuffled).total == grid.total


# ---------------------------------------------------------------- lean rules


@pytest.mark.parametrize("value", range(-2, 13))
def test_three_equal_cards_clear_for_every_value(value: int) -> None:
    assert column_clears(value, value, value) is True


@pytest.mark.parametrize("cards", [(1, 1, 2), (2, 1, 1), (1, 2, 1), (-2, -2, 2), (0, 0, -1)])
def test_unequal_cards_do_not_clear(cards: tuple[int, int, int]) -> None:
    assert column_clears(*cards) is False


@pytest.mark.parametrize(
    ("ender_raw", "others", "penalty", "expected"),
    [
        (14, [9, 20], "positive", True),
        (3, [4, 20], "positive", False),
        (5, [5], "positive", True),
        (-3, [-5], "positive", False),
        (0, [-5], "positive", False),
        (1, [1], "positive", True),
        (-3, [-5], "always", True),
        (-3, [-2], "always", False),
        (3, [4, 20], "always", False),
        (14, [9], "always", True),
        (14, [9], "none", False),
        (-3, [-5], "none", False),
    ],
)
def test_ender_is_doubled(ender_raw: int, others: list[int], penalty: str, expected: bool) -> None:
    assert ender_is_doubled(ender_raw, iter(others), penalty) is expected


def test_ender_is_doubled_rejects_unknown_penalty() -> None:
    with pytest.raises(ScoringError, match="unknown ender penalty 'sometimes'"):
        ender_is_doubled(5, [1], "sometimes")


def test_round_scores_by_seat() -> None:
    assert round_scores([9, 20, 14], 2, "positive") == ([9, 20, 28], True)
    assert round_scores([3, 4, 20], 0, "positive") == ([3, 4, 20], False)
    assert round_scores([-3, -5], 0, "always") == ([-6, -5], True)
    assert round_scores([14, 9], 0, "none") == ([14, 9], False)


def test_round_scores_does_not_modify_its_input() -> None:
    raw = [9, 20, 14]
    round_scores(raw, 2, "positive")
    assert raw == [9, 20, 14]


@pytest.mark.parametrize("ender", [-1, 3])
def test_round_scores_rejects_a_seat_off_the_table(ender: int) -> None:
    with pytest.raises(ScoringError, match="seat"):
        round_scores([9, 20, 14], ender, "positive")


def test_is_game_over_when_a_total_reaches_the_target() -> None:
    assert is_game_over([99, 40], 100) is False
    assert is_game_over([100, 40], 100) is True
    assert is_game_over([40, 130], 100) is True
    assert is_game_over([49], 50) is False


def test_winners_lowest_total_ties_share_in_mapping_order() -> None:
    assert winners({"Ana": 80, "Ben": 101, "Cleo": 60}) == ["Cleo"]
    assert winners({"Cleo": 60, "Ana": 80, "Ben": 60}) == ["Cleo", "Ben"]
    assert winners({0: -4, 1: 7}) == [0]
    assert winners({}) == []


# ---------------------------------------------------------------- score_round


def test_always_variant_doubles_a_negative_score_that_is_not_lowest() -> None:
    result = score_round({"Ana": -3, "Cleo": -5}, ender="Ana", penalty="always")
    assert result.scores == {"Ana": -6, "Cleo": -5}
    assert result.doubled is True
    assert "doubled to -6" in result.reason
    assert '"always"' in result.reason


def test_always_variant_does_not_double_the_single_lowest() -> None:
    result = score_round({"Ana": -5, "Cleo": -3}, ender="Ana", penalty="always")
    assert result.scores == {"Ana": -5, "Cleo": -3}
    assert result.doubled is False
    assert "single lowest" in result.reason


def test_none_variant_never_doubles() -> None:
    result = score_round({"Ana": 9, "Cleo": 14}, ender="Cleo", penalty="none")
    assert result.scores == {"Ana": 9, "Cleo": 14}
    assert result.doubled is False
    assert '"none"' in result.reason


def test_round_to_dict_is_rules_section_6_shape() -> None:
    result = score_round({"Ana": 9, "Ben": 20, "Cleo": 14}, ender="Cleo")
    assert json.loads(json.dumps(result.to_dict())) == {
        "raw": {"Ana": 9, "Ben": 20, "Cleo": 14},
        "scores": {"Ana": 9, "Ben": 20, "Cleo": 28},
        "doubled": True,
        "ender": "Cleo",
        "reason": result.reason,
    }


def test_round_keeps_seat_order_and_copies_input() -> None:
    raw = {"Cleo": 14, "Ana": 9}
    result = score_round(raw, ender="Cleo")
    raw["Cleo"] = 0
    assert list(result.scores) == ["Cleo", "Ana"]
    assert result.raw == {"Cleo": 14, "Ana": 9}


@pytest.mark.parametrize(
    ("raw", "ender", "penalty", "message", "kind"),
    [
        ({"Ana": 9}, "Ana", "positive", "2 to 8 players, not 1", "player_count"),
        ({f"P{i}": i for i in range(9)}, "P0", "positive", "2 to 8 players, not 9", "player_count"),
        (
            {"Ana": 9, "Ben": 3},
            "Dan",
            "positive",
            "the ender 'Dan' is not one of the players",
            "ender_not_player",
        ),
        (
            {"Ana": 9, "Ben": 3},
            "Ana",
            "double",
            "unknown ender penalty 'double'",
            "unknown_penalty",
        ),
        (
            {"Ana": "9", "Ben": 3},
            "Ana",
            "positive",
            "Ana's score must be a whole number",
            "score_not_integer",
        ),
        (
            {"Ana": 9.0, "Ben": 3},
            "Ana",
            "positive",
            "Ana's score must be a whole number",
            "score_not_integer",
        ),
        (
            {"Ana": True, "Ben": 3},
            "Ana",
            "positive",
            "Ana's score must be a whole number",
            "score_not_integer",
        ),
        (
            {"": 9, "Ben": 3},
            "Ben",
            "positive",
            "a player's name must be a non-empty string",
            "name_not_text",
        ),
    ],
)
def test_bad_rounds_raise_scoring_error(
    raw: dict[str, int], ender: str, penalty: str, message: str, kind: str
) -> None:
    with pytest.raises(ScoringError) as caught:
        score_round(raw, ender, penalty)
    assert message in str(caught.value)
    assert caught.value.kind == kind
    assert json.loads(json.dumps(caught.value.params)) == caught.value.params


def test_every_scoring_error_raised_names_its_kind() -> None:
    """Every `ScoringError(...)` of the module gives a message and a constant kind."""
    tree = ast.parse(Path(scoring_module.__file__).read_text(encoding="utf-8"))
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ScoringError"
    ]
    assert len(calls) >= 20
    for call in calls:
        assert len(call.args) >= 2, ast.unparse(call)
        kind = call.args[1]
        assert isinstance(kind, ast.Constant) and re.fullmatch("[a-z_]+", kind.value), ast.unparse(
            call
        )


# ---------------------------------------------------------------- round score bounds


def test_the_extreme_grids_score_the_bounds() -> None:
    lowest = score_grid([[-2, -2, -2, -2], [-2, -1, -1, -1], [-1, -1, -1, -1]])
    assert lowest.total == MIN_ROUND_SCORE == -17
    highest = score_grid([[12, 12, 12, 12], [12, 12, 12, 12], [11, 11, 11, 11]])
    assert highest.total == MAX_ROUND_SCORE == 140


def _grid_totals(values: tuple[int, ...]) -> set[int]:
    """The totals of every grid made of `values` only, within the deck's copies."""
    columns = list(itertools.combinations_with_replacement(values, 3))
    totals = set()
    for grid in itertools.combinations_with_replacement(columns, 4):
        counts = Counter(card for column in grid for card in column)
        if all(n <= CARD_COUNTS[v] for v, n in counts.items()):
            rows = [[column[r] for column in grid] for r in range(3)]
            totals.add(score_grid(rows).total)
    return totals


def test_no_grid_of_the_lowest_or_highest_cards_passes_the_bounds() -> None:
    # Enough: the lowest grid holds only -2, -1 and 0 (putting one of the 15
    # zeros for a card above 0 never raises a column that does not clear, and a
    # cleared column counts 0, more than -1 -1 0); likewise the highest holds
    # only 10, 11 and 12 (a card of at most 9 can give way to one of them that
    # does not clear its column: the deck has 30 of them).
    assert min(_grid_totals((-2, -1, 0))) == MIN_ROUND_SCORE
    assert max(_grid_totals((10, 11, 12))) == MAX_ROUND_SCORE


@pytest.mark.parametrize("score", [MIN_ROUND_SCORE, MAX_ROUND_SCORE])
def test_a_round_takes_the_bounds(score: int) -> None:
    assert score_round({"Ana": score, "Ben": 3}, "Ben").raw["Ana"] == score


@pytest.mark.parametrize("score", [MIN_ROUND_SCORE - 1, MAX_ROUND_SCORE + 1, 999, -(10**6)])
def test_a_round_refuses_a_score_no_grid_makes(score: int) -> None:
    with pytest.raises(ScoringError) as caught:
        score_round({"Ana": 3, "Ben": score}, "Ana")
    assert f"Ben's score is {score}, but no grid scores that" in str(caught.value)
    assert "from -17 to 140" in str(caught.value)


# ---------------------------------------------------------------- Scoresheet


def _round(raw: dict[str, int], ender: str) -> RoundScore:
    return score_round(raw, ender)


def test_scoresheet_running_totals() -> None:
    sheet = Scoresheet(("Ana", "Ben", "Cleo"))
    assert sheet.totals == {"Ana": 0, "Ben": 0, "Cleo": 0}
    assert sheet.running_totals == []
    sheet = sheet.add_round(_round({"Ana": 9, "Ben": 20, "Cleo": 14}, "Cleo"))
    sheet = sheet.add_round(_round({"Ana": 3, "Ben": 4, "Cleo": 20}, "Ana"))
    assert sheet.running_totals == [
        {"Ana": 9, "Ben": 20, "Cleo": 28},
        {"Ana": 12, "Ben": 24, "Cleo": 48},
    ]
    assert sheet.totals == {"Ana": 12, "Ben": 24, "Cleo": 48}
    assert sheet.finished is False
    assert sheet.winners == []


def test_scoresheet_is_immutable_add_round_returns_a_new_sheet() -> None:
    empty = Scoresheet(("Ana", "Ben"))
    one = empty.add_round(_round({"Ana": 9, "Ben": 20}, "Ana"))
    assert empty.rounds == ()
    assert len(one.rounds) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.target_score = 5  # type: ignore[misc]


def test_scoresheet_game_over_when_target_reached_lowest_wins() -> None:
    sheet = Scoresheet(("Ana", "Ben", "Cleo"), target_score=30)
    sheet = sheet.add_round(_round({"Ana": 9, "Ben": 20, "Cleo": 14}, "Cleo"))
    assert sheet.finished is False
    assert sheet.winners == []
    assert sheet.totals == {"Ana": 9, "Ben": 20, "Cleo": 28}
    sheet = sheet.add_round(_round({"Ana": 1, "Ben": 10, "Cleo": 2}, "Ana"))
    assert sheet.totals == {"Ana": 10, "Ben": 30, "Cleo": 30}
    assert sheet.finished is True
    assert sheet.winners == ["Ana"]


def test_scoresheet_default_target_is_100() -> None:
    sheet = Scoresheet(("Ana", "Ben"))
    sheet = sheet.add_round(_round({"Ana": 99, "Ben": 0}, "Ben"))
    assert sheet.finished is False
    sheet = sheet.add_round(_round({"Ana": 1, "Ben": 0}, "Ben"))
    assert sheet.totals == {"Ana": 100, "Ben": 0}
    assert sheet.finished is True
    assert sheet.winners == ["Ben"]


def test_scoresheet_equal_lowest_totals_share_the_win() -> None:
    sheet = Scoresheet(("Ana", "Ben", "Cleo"), target_score=20)
    sheet = sheet.add_round(_round({"Ana": 3, "Ben": 10, "Cleo": 8}, "Ana"))
    sheet = sheet.add_round(_round({"Ana": 5, "Ben": 12, "Cleo": 0}, "Cleo"))
    assert sheet.totals == {"Ana": 8, "Ben": 22, "Cleo": 8}
    assert sheet.finished is True
    assert sheet.winners == ["Ana", "Cleo"]


def test_scoresheet_add_round_after_game_over_raises() -> None:
    sheet = Scoresheet(("Ana", "Ben"), target_score=10)
    sheet = sheet.add_round(_round({"Ana": 12, "Ben": 3}, "Ben"))
    assert sheet.finished is True
    with pytest.raises(ScoringError, match="the game is over"):
        sheet.add_round(_round({"Ana": 1, "Ben": 3}, "Ben"))
    with pytest.raises(ScoringError, match="the game was over after round 1"):
        Scoresheet(("Ana", "Ben"), 10, (*sheet.rounds, _round({"Ana": 1, "Ben": 3}, "Ben")))


def test_scoresheet_add_round_with_other_players_raises() -> None:
    sheet = Scoresheet(("Ana", "Ben"))
    with pytest.raises(ScoringError, match="the players are Ana, Ben"):
        sheet.add_round(_round({"Ana": 1, "Cleo": 3}, "Cleo"))
    with pytest.raises(ScoringError, match="the players are Ana, Ben"):
        sheet.add_round(_round({"Ana": 1, "Ben": 3, "Cleo": 3}, "Cleo"))


@pytest.mark.parametrize(
    ("players", "target", "message"),
    [
        (("Ana",), 100, "2 to 8 players, not 1"),
        (("Ana", "Ana"), 100, "Ana is repeated"),
        (("Ana", "Ben"), 0, "at least 1"),
        (("Ana", ""), 100, "non-empty string"),
    ],
)
def test_bad_scoresheets_raise(players: tuple[str, ...], target: int, message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        Scoresheet(players, target)


def test_scoresheet_to_dict() -> None:
    sheet = Scoresheet(("Ana", "Ben"), target_score=20)
    first = _round({"Ana": 14, "Ben": 9}, "Ana")
    sheet = sheet.add_round(first)
    document = json.loads(json.dumps(sheet.to_dict()))
    assert document == {
        "players": ["Ana", "Ben"],
        "target_score": 20,
        "rounds": [first.to_dict()],
        "running_totals": [{"Ana": 28, "Ben": 9}],
        "totals": {"Ana": 28, "Ben": 9},
        "finished": True,
        "winners": ["Ben"],
    }


def test_round_facts_say_why_as_facts_by_seat() -> None:
    """The facts an interface words in its own language (the web client does): the
    kind, the seats and the numbers, the same outcome as `score_round`'s sentence."""
    assert round_facts([14, 9, 9], 0) == {
        "kind": "doubled",
        "ender": 0,
        "raw": 14,
        "score": 28,
        "rival": 1,  # the first of the lowest others
        "other": 9,
        "penalty": "positive",
    }
    assert round_facts([5, 9], 0)["kind"] == "lowest"
    assert round_facts([0, -2], 0)["kind"] == "not_positive"
    assert round_facts([-1, -2], 0, "always") | {"penalty": None} == {
        "kind": "doubled",
        "ender": 0,
        "raw": -1,
        "score": -2,
        "rival": 1,
        "other": -2,
        "penalty": None,
    }
    assert round_facts([20, 3], 0, "none") == {
        "kind": "no_penalty",
        "ender": 0,
        "raw": 20,
        "score": 20,
        "penalty": "none",
    }
    names = {"Ana": 14, "Ben": 9}
    assert "Ben has 9" in score_round(names, "Ana").reason  # the sentence of the same facts
