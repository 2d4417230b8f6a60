"""A room's round end (skyjo.web.round_end) and its clocks (skyjo.web.timers), as plain
state: who is awaited, who is ready, what is saved and restored, when the next
automatic move is due; and the chat's checks (skyjo.web.chat)."""

from __future__ import annotations

import random

import pytest

from skyjo.engine import Phase
from skyjo.match import Match, Seat
from skyjo.rules import Rules
from skyjo.web.chat import check_line
from skyjo.web.protocol import ProtocolError
from skyjo.web.round_end import RoundEnd
from skyjo.web.timers import Clock


def _at_round_end(*bots: str | None) -> Match:
    """A match of humans (None) and bots at its first round's end (humans play at random)."""
    seats = [Seat(f"P{i}", bot) for i, bot in enumerate(bots)]
    match = Match(seats, Rules(target_score=1000), seed=4)
    rng = random.Random(2)
    while match.state.phase != Phase.ROUND_OVER:
        seat = match.to_move
        assert seat is not None
        if match.seats[seat].human:
            match.play(seat, rng.choice(match.observation(seat).legal_actions))
        else:
            match.play_bot()
    return match


@pytest.fixture(scope="module")
def ended() -> Match:
    return _at_round_end(None, None, "greedy", None)


def test_a_round_end_awaits_the_connected_humans_until_they_are_ready(ended: Match) -> None:
    wait = RoundEnd()
    assert wait.waiting(ended, [0, 1, 3]) == [0, 1, 3]
    assert wait.waiting(ended, [1]) == [1]  # the absent are not awaited
    wait.say_ready(ended, 1)
    assert wait.waiting(ended, [0, 1, 3]) == [0, 3]
    assert wait.record(ended, [0, 1]) == {"step": ended.steps, "waiting": [0], "ready": [1]}


def test_outside_a_round_end_nobody_is_awaited_and_nobody_can_be_ready() -> None:
    match = Match([Seat("A", None), Seat("B", None)], seed=1)
    wait = RoundEnd()
    assert wait.waiting(match, [0, 1]) == [] and wait.record(match, [0, 1]) is None
    with pytest.raises(ProtocolError) as refusal:
        wait.say_ready(match, 0)
    assert (refusal.value.code, refusal.value.kind) == ("not_round_end", "not_round_end")
    assert wait.ready == set()


def test_the_ready_message_is_announced_once_per_change(ended: Match) -> None:
    wait = RoundEnd()
    assert wait.announcement(ended, [0, 1]) == {"type": "ready", "ready": [], "waiting": [0, 1]}
    assert wait.announcement(ended, [0, 1]) is None
    wait.say_ready(ended, 0)
    assert wait.announcement(ended, [0, 1]) == {"type": "ready", "ready": [0], "waiting": [1]}
    assert wait.announcement(ended, [0]) == {"type": "ready", "ready": [0], "waiting": []}


def test_a_restart_waits_again_for_the_seats_saved_until_they_connect(ended: Match) -> None:
    saved = {"step": ended.steps, "waiting": [0, 3], "ready": [1, 2]}
    wait = RoundEnd()
    wait.restore(saved, ended, joined=[0, 1, 3], until=50.0)
    assert wait.ready == {1} and wait.owed == {0: 50.0, 3: 50.0}  # the bot's seat is no human's
    assert wait.waiting(ended, []) == [0, 3]
    wait.connected(3)
    assert wait.waiting(ended, []) == [0] and wait.waiting(ended, [3]) == [0, 3]
    assert wait.lapse(49.0) == [] and wait.lapse(50.0) == [0]
    assert wait.waiting(ended, []) == []


def test_a_wait_saved_by_an_older_version_awaits_every_human_seat_someone_held(
    ended: Match,
) -> None:
    for saved in (None, {"step": ended.steps - 1, "waiting": [0], "ready": []}):
        wait = RoundEnd()
        wait.restore(saved, ended, joined=[1, 2, 3], until=9.0)
        assert wait.owed == {1: 9.0, 3: 9.0} and wait.ready == set()


def test_a_restore_outside_a_round_end_awaits_nobody() -> None:
    match = Match([Seat("A", None), Seat("B", None)], seed=1)
    wait = RoundEnd()
    wait.restore({"step": 0, "waiting": [0, 1], "ready": []}, match, [0, 1], 5.0)
    assert wait.owed == {} and wait.ready == set()


def test_a_step_out_of_the_round_end_starts_the_next_wait_afresh(ended: Match) -> None:
    wait = RoundEnd()
    wait.restore(None, ended, [0, 1], 5.0)
    wait.say_ready(ended, 0)
    wait.stepped(Phase.ROUND_OVER)
    assert wait.ready == {0} and wait.owed == {0: 5.0, 1: 5.0}
    assert wait.waiting(ended, []) == [1]
    wait.stepped(Phase.REVEAL)  # the next round dealt
    assert wait.ready == set() and wait.owed == {}


def test_a_round_end_deals_once_nobody_is_awaited_after_the_pause(ended: Match) -> None:
    wait = RoundEnd()
    seat = ended.to_move
    assert wait.due(ended, [0], pause=0.4, timer=None, now=10.0) is None  # waits for a human
    assert wait.due(ended, [0], 0.4, timer=15.0, now=10.0) == (5.0, seat, "deal")
    assert wait.due(ended, [0], 0.4, timer=8.0, now=10.0) == (0.0, seat, "deal")
    wait.say_ready(ended, 0)
    assert wait.due(ended, [0], 0.4, None, 10.0) == (0.4, seat, "deal")
    assert wait.due(ended, [0], -1.0, None, 10.0) == (0.0, seat, "deal")


def test_a_seat_owed_since_a_restart_lapses_at_its_time(ended: Match) -> None:
    wait = RoundEnd()
    wait.restore(None, ended, [1, 3], until=12.0)
    wait.owed[1] = 14.0
    assert wait.due(ended, [], 0.0, None, now=10.0) == (2.0, 3, "lapse")
    assert wait.due(ended, [], 0.0, timer=11.0, now=10.0) == (1.0, ended.to_move, "deal")


# --- the clocks --------------------------------------------------------------------------


def _clock(turn: float | None = None) -> Clock:
    return Clock(3, turn, bot_delay=0.5, absent_after=30.0, now=100.0)


def test_a_bot_moves_after_the_pause_since_the_last_step() -> None:
    match = Match([Seat("Bot", "greedy"), Seat("A", None), Seat("B", None)], seed=1)
    assert match.to_move is not None and match.seats[match.to_move].bot
    clock = _clock()
    assert clock.due(match, set(), now=100.2) == pytest.approx((0.3, match.to_move, "bot"))
    assert clock.due(match, set(), now=101.0) == (0.0, match.to_move, "bot")


def _human_to_move() -> Match:
    match = Match([Seat("A", None), Seat("B", None), Seat("C", None)], seed=1)
    assert match.to_move is not None
    return match


def test_a_present_human_without_a_timer_is_waited_for() -> None:
    match, clock = _human_to_move(), _clock()
    clock.arrived(match.to_move)  # type: ignore[arg-type]
    assert clock.due(match, {0, 1, 2}, now=500.0) is None
    assert clock.timer_left(match, 500.0) is None


def test_an_absent_human_who_held_the_seat_gets_a_stand_in() -> None:
    match, clock = _human_to_move(), _clock()
    seat = match.to_move
    assert clock.due(match, set(), now=100.0) is None  # nobody held it: nobody plays for it
    assert clock.due(match, {seat}, now=110.0) == (20.0, seat, "stand_in")
    assert clock.arrived(seat) and not clock.arrived(seat)  # type: ignore[arg-type]
    clock.left(seat, 200.0)  # type: ignore[arg-type]
    assert clock.due(match, {seat}, now=200.0) == (30.0, seat, "stand_in")


def test_the_turn_timer_runs_from_the_move_awaited() -> None:
    match, clock = _human_to_move(), _clock(turn=10.0)
    seat = match.to_move
    clock.arrived(seat)  # type: ignore[arg-type]
    assert clock.due(match, {seat}, now=104.0) == (6.0, seat, "timer")
    assert clock.timer_left(match, 104.0) == 6.0 and clock.timer_left(match, 120.0) == 0.0
    clock.stepped(new_decision=False, now=105.0)  # a turn's second half: the same timer
    assert clock.deadline() == 110.0 and clock.pause_left(105.0) == 0.5
    clock.stepped(new_decision=True, now=106.0)
    assert clock.deadline() == 116.0
    clock.turn_seconds = None
    assert clock.deadline() is None and clock.due(match, {seat}, now=200.0) is None


def test_a_started_game_starts_the_absent_players_clocks() -> None:
    clock = _clock()
    clock.started(3, {0, None}, now=300.0)
    assert clock.absent == {1: 300.0, 2: 300.0}
    assert clock.last_step == clock.decision_since == 300.0
    clock.renumber({0: 0, 2: 1})
    assert clock.absent == {1: 300.0}


# --- the chat ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "text", "kind"),
    [(None, "hi", "spectator_chat"), (1, "x" * 11, "too_long"), (1, "a\x07b", "chat_control"),
     (1, "a\ud800", "chat_control")],
)  # fmt: skip
def test_a_chat_line_is_refused_from_a_spectator_too_long_or_with_a_control(
    seat: int | None, text: str, kind: str
) -> None:
    with pytest.raises(ProtocolError) as refusal:
        check_line(seat, text, longest=10)
    assert refusal.value.kind == kind


def test_a_chat_line_of_a_seated_player() -> None:
    assert check_line(2, "x" * 10, longest=10) == 2
    assert check_line(0, "¡hola! 🙂", longest=10) == 0
