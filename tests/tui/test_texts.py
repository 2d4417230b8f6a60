"""The terminal game's words and cards, without a terminal: the colours by
value, the log's explanations, the winners, the seats' names."""

from __future__ import annotations

import re

import pytest

from skyjo.engine import RoundResult, new_game
from skyjo.events import Event
from skyjo.match import MatchError
from skyjo.observation import observe
from skyjo.rules import Rules
from skyjo.tui import cards
from skyjo.tui.lineup import bot_names, lineup
from skyjo.tui.narrate import event_lines
from skyjo.tui.screens import winners_line
from skyjo.tui.view import from_observation


def test_each_value_band_has_its_colour_and_shows_its_number() -> None:
    bands = {value: cards.band_name(value) for value in range(-2, 13)}
    assert {bands[-2], bands[-1]} == {"dark blue"}
    assert bands[0] == "light blue"
    assert {bands[v] for v in range(1, 5)} == {"green"}
    assert {bands[v] for v in range(5, 9)} == {"yellow"}
    assert {bands[v] for v in range(9, 13)} == {"red"}
    colours = {cards.card_style(v).bgcolor for v in (-2, 0, 3, 7, 11)}
    assert len(colours) == 5 and cards.BACK_STYLE.bgcolor not in colours
    for value in range(-2, 13):
        assert cards.face_up(value).plain == f" {value:>2} "  # the number, always
    assert cards.face_down().plain == " ▒▒ " and cards.face_down(cursor=True).plain == "[▒▒]"
    assert cards.face_up(7, width=6, cursor=True).plain == "[  7 ]"


def test_the_log_explains_clears_reshuffles_and_the_enders_penalty() -> None:
    names = ["Ana", "Ben"]
    before = new_game(2, seed=1)
    result = RoundResult(ender=1, raw=(9, 14), scores=(9, 28), doubled=True)
    events = [
        Event("column_cleared", 0, 5, 2, (5, 5, 5)),
        Event("reshuffled", count=40),
        Event("final_turns", 1),
        Event("round_ended", 1, scores=(9, 28)),
        Event("ender_doubled", 1, 28),
    ]
    lines = [line.plain for line in event_lines(events, names, before, [result])]
    assert lines[0] == (
        "Ana cleared column 3 (three 5s): the three cards go on the discard pile, "
        "the column scores nothing"
    )
    assert "discard pile but its top card was shuffled into a new draw pile of 40" in lines[1]
    assert lines[2] == "Ben turned up every card: everyone else plays once more"
    assert lines[3] == "Round 1 over: Ana 9, Ben 28 (doubled)"
    assert lines[4] == (
        "Ben ended with 14 and Ana has 9, which is not higher: Ben's score is doubled to 28"
    )
    assert len(lines) == 5  # the doubling said once, by its reason


def test_a_name_starting_in_lower_case_stays_so() -> None:
    lines = event_lines([Event("final_turns", 0)], ["ana", "Ben"], None)
    assert lines[0].plain.startswith("ana turned up every card")


def test_after_a_colon_the_default_human_is_written_in_lower_case() -> None:
    """Issue 29: "Round over: Your face-down cards..." had a capital after the
    colon. A name other than "You" stays as written."""
    event = Event("revealed", 0, None, None, (4, -2))
    you = event_lines([event], ["You", "Ben"], None)
    assert you[0].plain == "Round over: your face-down cards were turned up: 4, -2"
    ana = event_lines([event], ["Ana", "Ben"], None)
    assert ana[0].plain == "Round over: Ana's face-down cards were turned up: 4, -2"


def test_winners_share_a_tie() -> None:
    state = new_game(3, seed=2)._replace(totals=(40, 40, 55))
    view = from_observation(observe(state, None), ["Ana", "Ben", "Cleo"])
    assert winners_line(view).plain == "Ana and Ben share the win with 40"
    alone = from_observation(observe(state._replace(totals=(41, 40, 55)), None), ["A", "You", "C"])
    assert winners_line(alone).plain == "you win with 40"  # after "Game over: "


def test_seats_humans_first_then_bots_named_by_level() -> None:
    seats = lineup("Ana,Ben", "greedy,greedy,search:turns=100")
    assert [(s.name, s.bot) for s in seats] == [
        ("Ana", None),
        ("Ben", None),
        ("Greedy 1", "greedy"),
        ("Greedy 2", "greedy"),
        ("Search", "search:turns=100"),
    ]
    assert bot_names(["expected"], ["Expected"]) == ["Expected (bot)"]
    assert [s.name for s in lineup(None, None)] == ["You", "Greedy", "Expected", "Search"]
    assert [s.bot for s in lineup("A,B", None)] == [None, None]
    with pytest.raises(MatchError, match=re.escape("2 to 8 seats, not 1 (1 human and 0 bots)")):
        lineup("Ana", "")


def test_rules_reach_the_view() -> None:
    state = new_game(2, seed=3, rules=Rules(target_score=50, ender_penalty="always"))
    view = from_observation(observe(state, 0), ["Ana", "Ben"])
    assert (view.target, view.penalty, view.viewer) == (50, "always", 0)
    assert all(seat.peek is None for seat in view.seats)  # a game never peeks


def test_the_default_human_you_is_worded_as_you() -> None:
    """Issue 46: "You's score is doubled to 94" and "Enter: You deals round 2"."""
    from skyjo.scoring import score_round
    from skyjo.wording import agree

    doubled = score_round({"You": 14, "Ben": 9}, "You", "positive").reason
    assert (
        doubled
        == "You ended with 14 and Ben has 9, which is not higher: your score is doubled to 28"
    )
    rival = score_round({"Ben": 14, "You": 9}, "Ben", "positive").reason
    assert (
        rival
        == "Ben ended with 14 and you have 9, which is not higher: Ben's score is doubled to 28"
    )
    assert f"You {agree('You', 'deals', 'deal')} round 2" == "You deal round 2"
    assert f"Ana {agree('Ana', 'deals', 'deal')} round 2" == "Ana deals round 2"
