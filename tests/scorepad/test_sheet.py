"""The scoresheet model against `skyjo.scoring` (RULES.md 2.9, 2.10, 3, 4)."""

from __future__ import annotations

import ast
import contextlib
import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from i18n_js import render, sentence_tables

from skyjo.match import NAME_KINDS
from skyjo.scorepad import entries as entries_module
from skyjo.scorepad import exports as exports_module
from skyjo.scorepad import sheet as sheet_module
from skyjo.scorepad.entries import parse_entry
from skyjo.scorepad.exports import export_csv, export_json, import_json
from skyjo.scorepad.sheet import FORMAT, Sheet, SheetError
from skyjo.scoring import GRID_KINDS, Scoresheet, round_facts, score_grid, score_round

GRID_14 = "7 5 2 4 / 7 -1 3 1 / 7 0 -2 2"  # RULES.md 4: column 0 is three 7s, cleared


def sheet_of(*players: str, **rules: object) -> Sheet:
    return Sheet.new(list(players), "test", **rules)  # type: ignore[arg-type]


def one_round(sheet: Sheet, ender: str, **entries: object) -> dict[str, object]:
    """The summary of `sheet` after one round."""
    return sheet.add_round({"ender": ender, "entries": entries}).summary()["rounds"][-1]


# ------------------------------------------------------- RULES.md 4, one by one


def test_the_grid_of_section_4_entered_as_cards_scores_14_column_by_column() -> None:
    played = one_round(sheet_of("Ana", "Ben"), "Ben", Ana=GRID_14, Ben=20)
    ana = played["players"]["Ana"]
    assert ana["raw"] == ana["score"] == 14
    expected = score_grid([[7, 5, 2, 4], [7, -1, 3, 1], [7, 0, -2, 2]])
    assert ana["grid"] == expected.to_dict()
    assert ana["explanation"].startswith("three 7s, cleared, so 0; 5 + -1 + 0 = 4")
    assert ana["entry"] == {"cards": [[7, 5, 2, 4], [7, -1, 3, 1], [7, 0, -2, 2]]}


def test_a_column_cleared_earlier_is_entered_as_x_and_scores_nothing() -> None:
    played = one_round(sheet_of("Ana", "Ben"), "Ben", Ana="x 5 2 4 x -1 3 1 x 0 -2 2", Ben=20)
    assert played["players"]["Ana"]["raw"] == 14
    assert played["players"]["Ana"]["grid"]["columns"][0]["explanation"] == (
        "cleared earlier, so 0"
    )


def test_cleo_ends_with_14_while_ana_has_9_and_writes_28() -> None:
    played = one_round(sheet_of("Ana", "Ben", "Cleo"), "Cleo", Ana=9, Ben=20, Cleo=14)
    assert {p: v["score"] for p, v in played["players"].items()} == {
        "Ana": 9,
        "Ben": 20,
        "Cleo": 28,
    }
    assert played["doubled"] is True
    assert played["reason"] == score_round({"Ana": 9, "Ben": 20, "Cleo": 14}, "Cleo").reason
    # and as facts, for a page to say in its language: Cleo (seat 2) doubled, Ana had 9
    assert played["explain"] == round_facts([9, 20, 14], 2, "positive")
    assert (played["explain"]["kind"], played["explain"]["rival"]) == ("doubled", 0)


def test_ana_ending_with_the_single_lowest_3_changes_nothing() -> None:
    played = one_round(sheet_of("Ana", "Ben"), "Ana", Ana=3, Ben=4)
    assert played["players"]["Ana"]["score"] == 3
    assert played["doubled"] is False
    assert "single lowest" in played["reason"]


def test_ben_ending_with_5_as_cleo_has_5_writes_10() -> None:
    played = one_round(sheet_of("Ana", "Ben", "Cleo"), "Ben", Ana=9, Ben=5, Cleo=5)
    assert played["players"]["Ben"]["score"] == 10
    assert played["reason"].startswith("Ben ended with 5 and Cleo has 5")
    assert played["reason"].endswith("doubled to 10")


def test_ana_ending_with_minus_3_keeps_it_though_cleo_has_minus_5() -> None:
    played = one_round(sheet_of("Ana", "Cleo"), "Ana", Ana="\u22123", Cleo=-5)
    assert played["players"]["Ana"]["score"] == -3
    assert played["doubled"] is False
    assert "0 or below is never doubled" in played["reason"]


def test_a_ends_with_10_b_has_24_c_has_10_and_a_writes_20() -> None:
    played = one_round(sheet_of("A", "B", "C"), "A", A=10, B=24, C=10)
    assert played["players"]["A"]["score"] == 20


def test_three_minus_2_in_a_column_clear_and_take_their_minus_6_with_them() -> None:
    played = one_round(sheet_of("Ana", "Ben"), "Ben", Ana="-2 1 1 2 / -2 3 1 2 / -2 1 0 3", Ben=9)
    ana = played["players"]["Ana"]
    assert ana["raw"] == 14  # 5 + 2 + 7, not 8: the -6 is gone with the column
    assert ana["grid"]["columns"][0]["explanation"] == "three -2s, cleared, so 0"


def test_the_variants_come_from_the_sheet_rules() -> None:
    always = one_round(sheet_of("Ana", "Cleo", ender_penalty="always"), "Ana", Ana=-3, Cleo=-5)
    assert always["players"]["Ana"]["score"] == -6
    never = one_round(sheet_of("Ana", "Cleo", ender_penalty="none"), "Ana", Ana=14, Cleo=9)
    assert never["players"]["Ana"]["score"] == 14


# ------------------------------------------------------- a whole game


def game() -> Sheet:
    """Three rounds to a target of 50: Ana 67, Ben 52, Cleo 47, so Cleo wins."""
    sheet = sheet_of("Ana", "Ben", "Cleo", target_score=50)
    sheet = sheet.add_round({"ender": "Cleo", "entries": {"Ana": 9, "Ben": 20, "Cleo": 14}})
    sheet = sheet.add_round({"ender": "Ben", "entries": {"Ana": GRID_14, "Ben": 5, "Cleo": 5}})
    return sheet.add_round({"ender": "Ana", "entries": {"Ana": 22, "Ben": 22, "Cleo": 14}})


def test_running_totals_leader_distance_and_winner_match_scoring_scoresheet() -> None:
    sheet = game()
    rounds = [
        score_round({"Ana": 9, "Ben": 20, "Cleo": 14}, "Cleo"),
        score_round({"Ana": 14, "Ben": 5, "Cleo": 5}, "Ben"),
        score_round({"Ana": 22, "Ben": 22, "Cleo": 14}, "Ana"),
    ]
    reference = Scoresheet(("Ana", "Ben", "Cleo"), 50, tuple(rounds))
    summary = sheet.summary()
    assert summary["totals"] == reference.totals == {"Ana": 67, "Ben": 52, "Cleo": 47}
    assert [r["totals"] for r in summary["rounds"]] == reference.running_totals
    assert summary["finished"] is True
    assert summary["winners"] == reference.winners == ["Cleo"]
    assert summary["leaders"] == ["Cleo"]
    assert summary["to_target"] == {"Ana": -17, "Ben": -2, "Cleo": 3}


def test_before_the_end_there_is_a_leader_and_no_winner() -> None:
    sheet = game().undo()
    summary = sheet.summary()
    assert summary["finished"] is False and summary["winners"] == []
    assert summary["leaders"] == ["Ana"]  # 23 against 30 and 33
    assert summary["to_target"] == {"Ana": 27, "Ben": 20, "Cleo": 17}


def test_equal_lowest_totals_share_the_win() -> None:
    sheet = sheet_of("Ana", "Ben", "Cleo", target_score=10)
    sheet = sheet.add_round({"ender": "Cleo", "entries": {"Ana": 4, "Ben": 4, "Cleo": 12}})
    assert sheet.finished and sheet.winners == ["Ana", "Ben"]


def test_no_round_is_added_after_the_game_is_over() -> None:
    with pytest.raises(SheetError, match="the game is over"):
        game().add_round({"ender": "Ana", "entries": {"Ana": 1, "Ben": 1, "Cleo": 1}})


def test_editing_a_past_round_changes_who_won() -> None:
    sheet = game()
    assert sheet.winners == ["Cleo"]
    # Round 1 was misread: Cleo had 17, not 14 (still doubled).
    edited = sheet.edit_round(1, {"ender": "Cleo", "entries": {"Ana": 9, "Ben": 20, "Cleo": 17}})
    assert edited.totals == {"Ana": 67, "Ben": 52, "Cleo": 53}
    assert edited.winners == ["Ben"]
    assert edited.summary()["rounds"][1]["totals"] == {"Ana": 23, "Ben": 30, "Cleo": 39}


def test_deleting_a_past_round_recomputes_game_over() -> None:
    sheet = game().delete_round(1)
    assert [r.ender for r in sheet.rounds] == ["Ben", "Ana"]
    assert sheet.totals == {"Ana": 58, "Ben": 32, "Cleo": 19}
    assert sheet.finished and sheet.winners == ["Cleo"]
    assert game().delete_round(3).finished is False


def test_an_edit_that_ends_the_game_before_later_rounds_is_refused() -> None:
    sheet = game()
    with pytest.raises(SheetError, match="the game is over after round 1, but round 2 follows"):
        sheet.edit_round(1, {"ender": "Cleo", "entries": {"Ana": 9, "Ben": 60, "Cleo": 14}})


def test_undo_steps_back_through_adds_edits_and_deletes() -> None:
    first = game()
    edited = first.edit_round(2, {"ender": "Ben", "entries": {"Ana": 1, "Ben": 5, "Cleo": 5}})
    deleted = edited.delete_round(1)
    assert deleted.undo() == edited
    assert deleted.undo().undo() == first
    assert deleted.undo().undo().undo().rounds == first.rounds[:2]
    empty = first.undo().undo().undo()
    assert empty.rounds == () and not empty.can_undo
    with pytest.raises(SheetError, match="nothing to undo"):
        empty.undo()


def test_a_change_is_kept_in_canonical_form() -> None:
    sheet = sheet_of("Ana", "Ben").add_round(
        {"ender": "Ana", "entries": {"Ana": "3", "Ben": [0] * 12}}
    )
    assert sheet.changes == (
        {
            "op": "add",
            "round": {
                "ender": "Ana",
                "entries": {"Ana": {"total": 3}, "Ben": {"cards": [[0] * 4] * 3}},
            },
        },
    )


# ------------------------------------------------------- mistakes


def refused(sheet: Sheet, data: object, *fragments: str) -> SheetError:
    with pytest.raises(SheetError) as caught:
        sheet.add_round(data)
    for fragment in fragments:
        assert fragment in str(caught.value), (fragment, str(caught.value))
    return caught.value


@pytest.mark.parametrize(
    ("entries", "ender", "fragments", "player"),
    [
        ({"Ana": "13 1 1 1 1 1 1 1 1 1 1 1", "Ben": 2}, "Ana", ("is 13", "-2 to 12"), "Ana"),
        ({"Ana": "-3 1 1 1 1 1 1 1 1 1 1 1", "Ben": 2}, "Ana", ("is -3",), "Ana"),
        ({"Ana": "1 1 a 1 1 1 1 1 1 1 1 1", "Ben": 2}, "Ana", ("'a' is not a card",), "Ana"),
        ({"Ana": "1 2 3", "Ben": 2}, "Ana", ("3 cards written", "12"), "Ana"),
        (
            {"Ana": "-2 -2 -2 -2 -2 -2 0 0 0 0 0 0", "Ben": 2},
            "Ana",
            ("6 cards of -2", "deck has only 5"),
            "Ana",
        ),
        ({"Ana": 1, "Ben": 2}, None, ("no ender is marked",), None),
        ({"Ben": 2}, "Ana", ("Ana ended the round but has no score entered",), "Ana"),
        ({"Ana": 1, "Ben": ""}, "Ana", ("Ben has no score entered",), "Ben"),
        ({"Ana": 1, "Ben": 141}, "Ana", ("Ben's total is 141", "-17 to 140"), "Ben"),
        ({"Ana": 1, "Ben": 2, "Zed": 3}, "Ana", ("'Zed' is not a player",), None),
        ({"Ana": 1, "Ben": 2}, "Zed", ("the ender 'Zed' is not a player",), None),
        ({"Ana": "x 1 2 3 4 5 6 7 8 9 10 11", "Ben": 2}, "Ana", ("partly cleared",), "Ana"),
    ],
)
def test_every_mistake_is_refused_with_its_message_and_nothing_changes(
    entries: dict[str, object], ender: str | None, fragments: tuple[str, ...], player: str | None
) -> None:
    sheet = sheet_of("Ana", "Ben").add_round({"ender": "Ben", "entries": {"Ana": 5, "Ben": 9}})
    before = export_json(sheet)
    error = refused(sheet, {"ender": ender, "entries": entries}, "round 2: ", *fragments)
    assert error.round == 2 and error.player == player
    assert export_json(sheet) == before and len(sheet.changes) == 1


@pytest.mark.parametrize(
    ("cards", "kind", "params"),
    [
        (
            "7 13 2 4 7 -1 3 1 7 0 -2 2",
            "card_out_of_range",
            {"row": 0, "column": 1, "card": 13, "min": -2, "max": 12},
        ),
        (
            [[7, 5, 2, 4], [7, -1, 3, 1], [7, 0, "2", 2]],
            "card_not_number",
            {"row": 2, "column": 2, "card": "'2'"},
        ),
        (
            "7 5 x 4 7 -1 3 1 7 0 x 2",
            "column_partly_cleared",
            {"column": 2, "cleared": 2, "size": 3},
        ),
        ("-2 -2 -2 1 -2 -2 -2 1 3 3 3 1", "grid_too_many", {"count": 6, "value": -2, "deck": 5}),
        ([[1, 2, 3, 4]] * 2, "grid_rows", {"rows": 3, "count": 2}),
        ([[1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4]], "row_length", {"row": 1, "count": 3, "size": 4}),
    ],
)
def test_a_refused_grid_carries_the_kind_and_params_of_scoring(
    cards: object, kind: str, params: dict[str, object]
) -> None:
    """The sheet passes on `ScoringError.kind` and `.params` (rows and columns
    from 0, as RULES.md writes them), with the player and the round."""
    error = refused(sheet_of("Ana", "Ben"), {"ender": "Ben", "entries": {"Ana": cards, "Ben": 5}})
    assert error.kind == kind
    assert error.params == {"player": "Ana", **params, "round": 1}
    assert str(error).startswith("round 1: Ana's cards: ")


def test_the_cards_of_a_round_come_from_one_deck() -> None:
    twelves = "12 12 12 12 / 12 12 12 12 / 11 11 11 1"  # 8 twelves
    more = "12 12 12 1 / 2 2 2 1 / 3 3 3 4"  # 3 more: 11 of the deck's 10
    sheet = sheet_of("Ana", "Ben")
    refused(sheet, {"ender": "Ana", "entries": {"Ana": twelves, "Ben": more}}, "11 cards of 12")


def test_a_sheet_needs_2_to_8_different_valid_names_and_valid_rules() -> None:
    for players, fragment in [
        (["Ana"], "2 to 8"),
        ([f"P{n}" for n in range(9)], "2 to 8"),
        (["Ana", "Ana"], "Ana is repeated"),
        (["Ana", " "], "non-empty"),
        (["Ana", "B\x1bn"], "control character"),
        (["Ana", "x" * 41], "at most 40"),
        (["Ana", "\u200b"], "invisible or format character"),
        (["Ana", "Ben\u202eeno"], "U\\+202E"),
        (["Ana", "ANA"], "Ana / ANA is repeated"),
        (["Ana", "\u0301x"], "combining mark"),
    ]:
        with pytest.raises(SheetError, match=fragment):
            Sheet.new(players)
    with pytest.raises(SheetError, match="target_score must be at most 1000") as refusal:
        Sheet.new(["Ana", "Ben"], target_score=10**30)
    assert (refusal.value.kind, refusal.value.params["max"]) == ("target_too_high", 1000)
    assert Sheet.new([" Zoe\u0301 ", "Ben"]).players == ("Zo\u00e9", "Ben")  # NFC, trimmed
    with pytest.raises(SheetError, match="target_score must be at least 1"):
        Sheet.new(["Ana", "Ben"], target_score=0)
    with pytest.raises(SheetError, match="ender_penalty must be one of"):
        Sheet.new(["Ana", "Ben"], ender_penalty="sometimes")
    with pytest.raises(SheetError, match="holds a control, format"):
        Sheet.new(["Ana", "Ben"], title="a\x07b")
    with pytest.raises(SheetError, match="format or invisible") as refusal:
        Sheet.new(["Ana", "Ben"], title="Friday\u202eyadirF")
    assert refusal.value.kind == "title_control"


def test_typed_entries() -> None:
    assert parse_entry(" -3 ") == {"total": -3}
    assert parse_entry("\u22122") == {"total": -2}
    assert parse_entry("") is None
    assert parse_entry("1,2,3,4,5,6,7,8,9,10,11,X") == {
        "cards": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, "x"]]
    }
    with pytest.raises(SheetError, match="not a round total"):
        parse_entry("+3", "Ana")


# ------------------------------------------------------- export, import


def test_export_then_import_gives_the_same_sheet_and_the_same_document() -> None:
    sheet = game().edit_round(2, {"ender": "Ben", "entries": {"Ana": GRID_14, "Ben": 5, "Cleo": 6}})
    sheet = sheet.renamed("Friday [bold]night")
    text = export_json(sheet)
    again = import_json(text)
    assert export_json(again) == text
    assert again.rounds == sheet.rounds and again.players == sheet.players
    assert again.rules == sheet.rules and again.title == sheet.title
    assert again.summary() == sheet.summary() == json.loads(text)["summary"]
    assert not again.can_undo  # an imported sheet starts its own history


def test_import_refuses_what_is_not_an_exported_sheet() -> None:
    good = json.loads(export_json(game()))
    for bad, fragment in [
        ("[", "not JSON"),
        ("[]", "JSON object"),
        (json.dumps({**good, "format": "other"}), "not a scoresheet"),
        (json.dumps({**good, "extra": 1}), "unknown key 'extra'"),
        (
            json.dumps({**good, "rounds": [*good["rounds"], good["rounds"][0]]}),
            "over after round 3",
        ),
        (json.dumps({**good, "players": ["Ana", "Ben"]}), "'Cleo' is not a player"),
    ]:
        with pytest.raises(SheetError, match=fragment):
            import_json(bad)


def test_csv_has_a_line_a_player_a_round() -> None:
    rows = list(csv.reader(io.StringIO(export_csv(game()))))
    assert rows[0] == ["round", "player", "cards", "raw", "score", "total", "ender", "doubled"]
    assert len(rows) == 1 + 3 * 3
    assert rows[3] == ["1", "Cleo", "", "14", "28", "28", "yes", "yes"]
    assert rows[4] == ["2", "Ana", GRID_14, "14", "14", "23", "", ""]
    assert rows[-1] == ["3", "Cleo", "", "14", "14", "47", "", ""]


# ------------------------------------------------------- every refusal has a kind both pages write
#
# Every `SheetError` made while this module's tests run is kept (RAISED); the last test checks
# each one's kind and params against the scorepad page's tables (static/scorepad-i18n.js, read as
# text): both languages hold the kind, its English sentence filled with the params is the message
# exactly (run by node when it is installed), and the Spanish one names only params it was given.

RAISED: list[SheetError] = []
SCOREPAD_I18N = Path(sheet_module.__file__).parents[1] / "web" / "static" / "scorepad-i18n.js"


@pytest.fixture(autouse=True)
def _keep_every_sheet_error(monkeypatch: pytest.MonkeyPatch) -> None:
    made = SheetError.__init__

    def keep(self: SheetError, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        RAISED.append(self)

    monkeypatch.setattr(SheetError, "__init__", keep)


def more_mistakes() -> None:
    """The refusals no test above makes, each made once."""
    sheet = sheet_of("Ana", "Ben", target_score=20)
    round_one = {"ender": "Ana", "entries": {"Ana": 1, "Ben": 2}}
    two_rounds = sheet.add_round(round_one).add_round(round_one).to_dict()
    over = {"ender": "Ana", "entries": {"Ana": 1, "Ben": 30}}
    attempts: list[Callable[[], object]] = [
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": "7 5 2 4 7 -1 3 1 7 0 -2"}}),
        lambda: sheet.add_round(
            {"ender": "Ben", "entries": {"Ana": "7 five 2 4 7 -1 3 1 7 0 -2 2"}}
        ),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": {"nope": 1}, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": {"total": 1.5}, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": 141, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": {"cards": 7}, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": {"cards": [7, 1]}, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": [[1, 2, 3, 4]], "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": [[1, 2, 3]] * 3, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": [["a", 2, 3, 4]] * 3}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": "7 13 2 4 7 -1 3 1 7 0 -2 2"}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": "x 5 2 4 x -1 3 1 7 0 -2 2"}}),
        lambda: sheet.add_round(
            {"ender": "Ben", "entries": {"Ana": "-2 -2 -2 1 " * 2 + "3 3 3 1"}}
        ),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": 1, "Ben": 1}, "x": 1}),
        lambda: sheet.add_round({"ender": "Ben", "entries": [1, 2]}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Dan": 1}}),
        lambda: sheet.add_round({"ender": "", "entries": {"Ana": 1, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Dan", "entries": {"Ana": 1, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ben", "entries": {"Ana": 1}}),
        lambda: sheet.add_round({"ender": "Ana", "entries": {"Ana": 1}}),
        lambda: sheet.edit_round(1, {"ender": "Ana", "entries": {"Ana": 1, "Ben": 1}}),
        lambda: sheet.add_round({"ender": "Ana", "entries": {"Ana": 1, "Ben": 1}}).edit_round(
            2, {}
        ),
        lambda: sheet.add_round({"ender": "Ana", "entries": {"Ana": 30, "Ben": 1}}).add_round(
            {"ender": "Ana", "entries": {"Ana": 1, "Ben": 1}}
        ),
        lambda: sheet.undo(),
        lambda: sheet._changed({"op": "move"}),
        lambda: Sheet(("Ana", "Ben"), "rules"),  # type: ignore[arg-type]
        lambda: Sheet.new(["Ana"]),
        lambda: Sheet.new(["Ana", ""]),
        lambda: Sheet.new(["Ana", "B" * 41]),
        lambda: Sheet.new(["Ana", "B\x07"]),
        lambda: Sheet.new(["Ana", "B\u200b"]),
        lambda: Sheet.new(["Ana", "\u0301B"]),
        lambda: Sheet.new(["Ana", "ANA"]),
        lambda: Sheet.new(["Ana", "Ben"], target_score=1001),
        lambda: Sheet.new(["Ana", "B\ud800"]),
        lambda: Sheet.new(["Ana", "Ana", "Ben", "Ben"]),
        lambda: Sheet.new(["Ana", "Ben"], title=7),  # type: ignore[arg-type]
        lambda: Sheet.new(["Ana", "Ben"], title="t" * 101),
        lambda: Sheet.new(["Ana", "Ben"], title="a\x00b"),
        lambda: Sheet.new(["Ana", "Ben"], target_score="100"),
        lambda: Sheet.new(["Ana", "Ben"], target_score=0),
        lambda: Sheet.new(["Ana", "Ben"], ender_penalty="triple"),
        lambda: Sheet.from_dict({"format": FORMAT, "version": 1, "players": "Ana"}),
        lambda: Sheet.from_dict({"format": FORMAT, "version": 1, "rules": [1]}),
        lambda: Sheet.from_dict({"format": FORMAT, "version": 1, "rounds": {}}),
        lambda: import_json("[]"),
        lambda: import_json("[" * 40),
        lambda: import_json("{"),
        lambda: Sheet.from_dict({"format": "scores", "version": 1}),
        lambda: Sheet.from_dict({**two_rounds, "extra": 1}),
        lambda: Sheet.from_dict({**two_rounds, "rounds": [over, *two_rounds["rounds"]]}),
        lambda: Sheet.from_dict(two_rounds).edit_round(1, over),
        lambda: sheet.add_round(
            {
                "ender": "Ben",
                "entries": {"Ana": "-2 -2 -2 " + "1 " * 9, "Ben": "-2 -2 -2 " + "2 " * 9},
            }
        ),
    ]
    for attempt in attempts:
        with pytest.raises(SheetError):
            attempt()
    for value in ("", "1 2", "3 x"):
        with contextlib.suppress(SheetError):
            parse_entry(f"{value} z")
    with pytest.raises(SheetError):
        sheet.delete_round(1)
    with pytest.raises(SheetError):
        sheet.add_round({"ender": "Ana", "entries": {"Ana": 1, "Ben": 1}}).delete_round(3)


def test_every_sheet_error_raised_has_a_kind_both_languages_of_the_page_write() -> None:
    more_mistakes()
    tables = sentence_tables(SCOREPAD_I18N, "mistake")
    kinds = {error.kind for error in RAISED}
    assert None not in kinds, [str(e) for e in RAISED if e.kind is None]
    assert not kinds - set(tables["en"]), kinds - set(tables["en"])
    assert not kinds - set(tables["es"]), kinds - set(tables["es"])
    assert len(kinds) >= 49, sorted(kinds)  # every kind, even when this test runs alone
    assert set(tables["en"]) == set(tables["es"])
    errors = [{"kind": e.kind, "params": e.params, "message": str(e)} for e in RAISED]
    for error in errors:
        assert set(error["params"]) - {"round"} <= set(
            re.findall(r"\{(\w+)\}", tables["en"][error["kind"]])
        ), error
        assert json.loads(json.dumps(error)) == error  # JSON-ready
    english = render(SCOREPAD_I18N, "mistakeText", "en", errors)
    spanish = render(SCOREPAD_I18N, "mistakeText", "es", errors)
    for error, en, es in zip(errors, english, spanish, strict=True):
        # the English page writes the model's own sentence, rows and columns counted
        # from 1 in both (the params, as the API sends them, count from 0)
        assert en == error["message"], error
        if not error["kind"].endswith("_refused"):  # a sentence no pattern read stays English
            assert es != en and not re.search(r"\{[a-z]+\}", es), (error, es)


def _sheet_error(node: ast.AST) -> ast.expr | None:
    """The kind a call makes a `SheetError` of, as written: `SheetError(..., kind=K)`
    or `SheetError.of(K, ...)`; None for any other node."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name) and func.id == "SheetError":
        kind = next((k.value for k in node.keywords if k.arg == "kind"), None)
        assert kind is not None, ast.unparse(node)
        return kind
    if isinstance(func, ast.Attribute) and getattr(func.value, "id", None) == "SheetError":
        assert func.attr == "of" and node.args, ast.unparse(node)
        return node.args[0]
    return None


def test_every_sheet_error_raise_in_the_model_names_its_kind() -> None:
    kinds = [
        kind
        for module in (entries_module, sheet_module, exports_module)
        for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8")))
        if (kind := _sheet_error(node)) is not None
    ]
    assert len(kinds) >= 35
    named: set[str] = set()
    for kind in kinds:
        constants = [n.value for n in ast.walk(kind) if isinstance(n, ast.Constant)]
        named |= {c for c in constants if isinstance(c, str) and re.fullmatch("[a-z_]+", c)}
    assert named <= set(SheetError.kinds()), named - set(SheetError.kinds())
    # the kinds a sheet carries on from skyjo.scoring, skyjo.match and skyjo.rules
    named |= set(SheetError.kinds())
    assert set(GRID_KINDS) | set(NAME_KINDS) <= named
    tables = sentence_tables(SCOREPAD_I18N, "mistake")
    assert not named - set(tables["en"]) and not named - set(tables["es"])
