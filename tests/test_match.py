"""The match driver (skyjo.match): seats, humans and bots, views, limits, saving."""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import pytest

from skyjo.bots import make_bot
from skyjo.engine import DRAW, GAME_INFO, SWAP, TAKE_DISCARD, IllegalActionError, Phase
from skyjo.match import (
    FORMAT,
    MAX_NAME,
    STAND_IN,
    Match,
    MatchError,
    MatchOver,
    NotYourTurn,
    Seat,
    check_name,
    check_seats,
    name_key,
)
from skyjo.observation import FACE_DOWN, Observation, observe
from skyjo.rules import MAX_TARGET_SCORE, Rules, RulesError, check_deck
from skyjo.seeds import bot_seed


def humans_and_bots(*players: str | None) -> list[Seat]:
    return [Seat(f"P{i}", bot) for i, bot in enumerate(players)]


def play_humans(match: Match, rng: random.Random, until: int | None = None) -> list[int]:
    """Play the game on: humans choose at random (from `rng`), bots as they do.
    Returns every action played, in order."""
    played = []
    while not match.over and (until is None or match.steps < until):
        seat = match.to_move
        assert seat is not None
        if match.seats[seat].human:
            action = rng.choice(match.observation(seat).legal_actions)
            update = match.play(seat, action)
        else:
            update = match.play_bot()
        assert update is not None
        played.append(update.action)
    return played


def test_a_game_of_bots_and_scripted_humans_to_the_end() -> None:
    match = Match(humans_and_bots(None, "greedy", None), Rules(target_score=60), seed=5)
    rng = random.Random(1)
    while not match.over:
        updates = match.advance()
        assert all(match.seats[u.seat].bot for u in updates)  # advance plays bots only
        if match.over:
            break
        assert match.waiting_for_human
        seat = match.to_move
        assert seat is not None
        match.play(seat, rng.choice(match.observation(seat).legal_actions))
    assert match.state.phase == Phase.GAME_OVER
    assert max(match.state.totals) >= 60
    assert match.winners() == tuple(
        s for s, t in enumerate(match.state.totals) if t == min(match.state.totals)
    )


def test_bad_moves_are_refused_and_change_nothing() -> None:
    match = Match(humans_and_bots(None, None), seed=3)
    before = match.state
    with pytest.raises(NotYourTurn, match="it is P0's turn, not P1's"):
        match.play(1, 0)
    with pytest.raises(IllegalActionError, match="must first turn up two cards"):
        match.play(0, DRAW)
    with pytest.raises(MatchError, match="no seat 5"):
        match.play(5, 0)
    with pytest.raises(MatchError, match="a seat is an integer"):
        match.play(True, 0)
    with pytest.raises(IllegalActionError, match="an action is an integer"):
        match.play(0, "draw")
    assert match.state is before and match.steps == 0


def test_a_move_after_the_game_is_over_is_refused() -> None:
    match = Match(humans_and_bots("greedy", "greedy"), Rules(target_score=1), seed=2)
    match.advance()
    assert match.over and match.to_move is None
    with pytest.raises(MatchOver, match="the game is over"):
        match.play(0, 0)
    with pytest.raises(MatchOver):
        match.play_bot()


def test_a_human_cannot_move_a_seat_a_bot_plays() -> None:
    match = Match(humans_and_bots("greedy", None), seed=4)
    with pytest.raises(NotYourTurn, match="played by a bot"):
        match.play(0, 0)


def test_names_are_checked() -> None:
    with pytest.raises(MatchError, match="repeated"):
        Match([Seat("Ana"), Seat("Ana")], seed=1)
    with pytest.raises(MatchError, match=f"at most {MAX_NAME}"):
        Match([Seat("A" * (MAX_NAME + 1)), Seat("B")], seed=1)
    for bad in ("", "   ", "a\x1bb", "\ud800"):
        with pytest.raises(MatchError):
            Match([Seat(bad), Seat("B")], seed=1)
    with pytest.raises(ValueError, match="2 to 8 players"):
        Match([Seat("A")], seed=1)
    match = Match([Seat("Zoë 🃏"), Seat("<img src=x onerror=alert(1)>")], seed=1)
    assert match.names == ("Zoë 🃏", "<img src=x onerror=alert(1)>")


@pytest.mark.parametrize(
    ("name", "kind", "params"),
    [
        ("", "name_empty", {"name": "''"}),
        (" \u3000 ", "name_empty", {"name": repr(" \u3000 ")}),
        ("A" * 41, "name_too_long", {"max": 40, "length": 41}),
        ("a\x1bb", "name_control", {"name": "'a\\x1bb'"}),
        ("\u200b", "name_invisible", {"name": "'\\u200b'", "code": "U+200B"}),
        (
            "\u200b\u200b\u200b",
            "name_invisible",
            {"name": "'\\u200b\\u200b\\u200b'", "code": "U+200B"},
        ),
        ("Ben\u202edlihc", "name_invisible", {"name": "'Ben\\u202edlihc'", "code": "U+202E"}),
        ("Ana\u2028Ben", "name_invisible", {"name": "'Ana\\u2028Ben'", "code": "U+2028"}),
        ("\u3164", "name_invisible", {"name": repr("\u3164"), "code": "U+3164"}),
        ("\u0301Ana", "name_combining", {"name": repr("\u0301Ana"), "code": "U+0301"}),
        ("Ana \u0301", "name_combining", {"name": repr("Ana \u0301"), "code": "U+0301"}),
    ],
)
def test_a_name_is_refused_with_a_kind_and_the_values_of_its_sentence(
    name: str, kind: str, params: dict[str, object]
) -> None:
    with pytest.raises(MatchError) as refusal:
        check_name(name)
    assert (refusal.value.kind, refusal.value.params) == (kind, params)
    assert str(refusal.value)  # the English sentence, for the terminal


def test_names_are_normalised_and_compared_case_folded() -> None:
    decomposed = "Zoe\u0301"  # e and a combining acute: NFC makes it one character
    assert check_name(f"  {decomposed} ") == "Zo\u00e9"
    assert check_name("Ana\u0308\u0301") == "Ana\u0308\u0301"[:2] + "\u00e4\u0301"  # stacked
    seats = check_seats([Seat(decomposed), Seat("Ben", "greedy")])
    assert [seat.name for seat in seats] == ["Zo\u00e9", "Ben"]
    for pair in (("Ana", "ANA"), ("Zoé", "ZOE\u0301"), ("Ana", "\uff21na"), ("Ana B", "ana  b")):
        with pytest.raises(MatchError) as refusal:
            check_seats([Seat(pair[0]), Seat(pair[1])])
        assert refusal.value.kind == "name_repeated"
    assert name_key("Ana") != name_key("Anna")
    match = Match([Seat(decomposed), Seat("Ben")], seed=1)
    assert match.names == ("Zo\u00e9", "Ben")


def test_a_match_saved_before_names_were_stricter_resumes_under_its_names() -> None:
    saved = Match([Seat("Ana"), Seat("Ben")], seed=3).to_dict()
    old = ["Ana", "ana\u200b"]  # refused today: invisible, and alike once folded
    saved["seats"] = [{"name": name, "bot": None} for name in old]
    saved["record"]["players"] = old
    resumed = Match.from_dict(saved)
    assert resumed.names == tuple(old)
    with pytest.raises(MatchError):
        Match([Seat(name) for name in old], seed=3)


def test_a_seat_is_handed_to_a_bot_and_back_mid_round() -> None:
    match = Match(humans_and_bots(None, "greedy"), seed=8)
    rng = random.Random(2)
    play_humans(match, rng, until=10)
    assert match.state.phase in (Phase.TURNS, Phase.FINAL_TURNS) or match.steps == 10
    match.set_player(0, "greedy")
    assert not match.waiting_for_human
    updates = match.advance(max_steps=6)
    assert {u.seat for u in updates} == {0, 1}
    match.set_player(0, None)
    match.advance()
    assert match.waiting_for_human and match.to_move == 0
    assert match.seats[0] == Seat("P0", None)


def test_every_view_a_spectator_gets_shows_only_face_up_cards() -> None:
    for players, seed in ((2, 1), (4, 2), (8, 3)):
        match = Match(humans_and_bots(*["greedy"] * players), Rules(target_score=40), seed=seed)
        for update in match.advance():
            view = update.view(None)
            json.dumps(view)
            _assert_shows_only_what_is_face_up(view, update.state, None)
            seat_view = update.view(update.seat)
            _assert_shows_only_what_is_face_up(seat_view, update.state, update.seat)
        assert match.over


def _assert_shows_only_what_is_face_up(
    view: dict[str, Any], state: Any, viewer: int | None
) -> None:
    truth = observe(state, 0)  # statuses are public
    for seat, grid in enumerate(view["observation"]["grids"]):
        for k, cell in enumerate(c for row in grid for c in row):
            if truth.status[seat][k] == FACE_DOWN:
                assert cell is None
    for event in view["events"]:
        if event["kind"] == "drew" and event["player"] != viewer:
            assert "card" not in event
    if view["observation"]["source"] == "deck" and state.player != viewer:
        assert view["observation"]["held"] is None


class _Staller:
    """Takes the discard and exchanges it for a face-up card: a round never ends."""

    name = "staller"

    def choose(self, observation: Observation) -> int:
        legal = observation.legal_actions
        if TAKE_DISCARD in legal:
            return TAKE_DISCARD
        seat = observation.viewer
        assert seat is not None
        up = [k for k, s in enumerate(observation.status[seat]) if s != FACE_DOWN]
        swaps = [SWAP + k for k in up if SWAP + k in legal]
        return swaps[0] if swaps else legal[0]


def test_a_round_that_reaches_the_limit_stalls_the_match() -> None:
    match = Match(humans_and_bots("staller", "staller"), seed=1, make=lambda spec, s: _Staller())
    match.advance()
    assert match.over and match.stalled is not None
    assert str(GAME_INFO.max_round_turns) in match.stalled
    assert match.state.phase in (Phase.TURNS, Phase.FINAL_TURNS)
    with pytest.raises(MatchOver, match="the match stopped"):
        match.play_bot()


class _Listener:
    """A bot that notes the lifecycle calls the protocol documents."""

    calls: ClassVar[list[tuple[Any, ...]]] = []

    def __init__(self, seed: int) -> None:
        self.inner = make_bot("greedy", seed)
        self.seed = seed
        self.name = "listener"

    def start(self, seat: int, num_players: int, rules: Rules, players: list[str]) -> None:
        self.calls.append(("start", seat, num_players, tuple(players)))

    def choose(self, observation: Observation) -> int:
        return self.inner.choose(observation)

    def game_over(self, observation: Observation) -> None:
        self.calls.append(("result", observation.viewer, observation.phase))

    def close(self) -> None:
        self.calls.append(("close",))


def test_bots_are_started_with_the_names_told_the_result_and_closed() -> None:
    _Listener.calls = []
    seeds = []

    def make(spec: str, seed: int) -> _Listener:
        seeds.append(seed)
        return _Listener(seed)

    with Match([Seat("Ana", "x"), Seat("Ben", "x")], Rules(target_score=1), 9, make=make) as m:
        m.advance()
    assert _Listener.calls == [
        ("start", 0, 2, ("Ana", "Ben")),
        ("start", 1, 2, ("Ana", "Ben")),
        ("result", 0, Phase.GAME_OVER),
        ("result", 1, Phase.GAME_OVER),
        ("close",),
        ("close",),
    ]
    assert seeds == [bot_seed(9, 0), bot_seed(9, 1)]


@pytest.mark.parametrize("players, seed", [(2, 11), (4, 12), (8, 13)])
def test_save_and_resume_at_every_step_gives_the_same_game(players: int, seed: int) -> None:
    seats = humans_and_bots(*[None] * players)
    rules = Rules(target_score=30 if players < 8 else 15)
    unbroken = Match(seats, rules, seed=seed)
    actions = play_humans(unbroken, random.Random(seed))
    assert any(unbroken.state.reshuffles) or players < 8
    for cut in range(0, len(actions) + 1, max(1, len(actions) // 40)):
        match = Match(seats, rules, seed=seed)
        for action in actions[:cut]:
            match.play(match.to_move, action)  # type: ignore[arg-type]
        saved = json.loads(json.dumps(match.to_dict()))
        assert saved["format"] == FORMAT
        resumed = Match.from_dict(saved)
        assert resumed.state == match.state and resumed.state.key == match.state.key
        for action in actions[cut:]:
            resumed.play(resumed.to_move, action)  # type: ignore[arg-type]
        assert resumed.state == unbroken.state
        assert resumed.state.results == unbroken.state.results


def test_a_damaged_saved_match_is_refused() -> None:
    match = Match(humans_and_bots(None, None), seed=1)
    saved = match.to_dict()
    with pytest.raises(MatchError, match="not a saved match"):
        Match.from_dict({**saved, "format": "x"})
    with pytest.raises(MatchError, match="damaged"):
        Match.from_dict({**saved, "secret": 2})
    with pytest.raises(MatchError, match="damaged"):
        Match.from_dict({k: v for k, v in saved.items() if k != "seats"})


def test_a_stand_in_plays_a_humans_turn() -> None:
    match = Match(humans_and_bots(None, None), seed=6)
    update = match.play_for(0)
    assert update is not None and update.seat == 0 and match.steps == 1
    with pytest.raises(NotYourTurn):
        match.play_for(1)


def test_stand_ins_and_hints_are_made_by_the_match_s_bot_factory() -> None:
    """A stand-in (`play_for`) and a hint (`Match.advice`) come from the match's own
    `make` (a server's bot workers), seeded as the seat's stand-in; a hint plays nothing,
    is the move a stand-in would play, and its adviser is closed at once."""
    made: list[tuple[str, int]] = []
    closed: list[int] = []

    class Closing:
        def __init__(self, spec: str, seed: int) -> None:
            self.bot, self.seed = make_bot(spec, seed), seed

        def choose(self, observation: Observation) -> int:
            return int(self.bot.choose(observation))

        def close(self) -> None:
            closed.append(self.seed)

    def make(spec: str, seed: int) -> Closing:
        made.append((spec, seed))
        return Closing(spec, seed)

    match = Match(humans_and_bots(None, None), seed=6, make=make)
    hint = match.advice(0)
    seed = bot_seed(6, ~0)
    assert match.steps == 0 and made == [(STAND_IN, seed)] and closed == [seed]
    with pytest.raises(NotYourTurn):
        match.advice(1)
    update = match.play_for(0)
    assert update is not None and update.action == hint
    assert made == [(STAND_IN, seed)] * 2 and len(closed) == 1  # kept for its seat
    match.close()
    assert len(closed) == 2


def test_rules_bound_the_target_score_for_every_interface() -> None:
    assert Rules(target_score=1).target_score == 1
    assert Rules(target_score=MAX_TARGET_SCORE).target_score == 1000
    cases = [
        ({"target_score": 0}, "target_too_low", {"min": 1, "value": 0}),
        ({"target_score": 1001}, "target_too_high", {"max": 1000, "value": "1001"}),
        ({"target_score": 10**30}, "target_too_high", {"max": 1000, "value": "about 10^30"}),
        ({"target_score": 10**5000}, "target_too_high", {"max": 1000, "value": "about 10^5000"}),
        ({"target_score": 1.5}, "target_not_integer", {"value": "1.5"}),
        (
            {"ender_penalty": "x"},
            "penalty_unknown",
            {"choices": "positive, always, none", "value": "'x'"},
        ),
        ({"colour": 1}, "rules_unknown", {"rules": "'colour'"}),
    ]
    for data, kind, params in cases:
        with pytest.raises(RulesError) as refusal:
            Rules.from_dict(data)
        assert (refusal.value.kind, refusal.value.params) == (kind, params), data
        assert len(str(refusal.value)) < 120
    with pytest.raises(RulesError) as refusal:
        Rules.from_dict([1])
    assert (refusal.value.kind, refusal.value.params) == ("rules_shape", {"type": "list"})


def test_a_wrong_deck_is_refused_with_its_count_in_words() -> None:
    """RULES.md 1: a deck is the 150 cards; the refusal counts what was given ("1 card")."""
    for cards, held in (([5], "1 card"), ([5, 5, 5], "3 cards")):
        with pytest.raises(RulesError) as refusal:
            check_deck(cards)
        assert refusal.value.kind == "deck_wrong"
        assert refusal.value.params["count"] == len(cards)
        assert f"({held}; " in str(refusal.value)


def test_restoring_a_checkpoint_undoes_the_steps_since_and_the_game_goes_on_the_same() -> None:
    """Undone steps leave no trace: the match plays on from the checkpoint as if they
    had never been played (the state, its key, the step count, the round's turns, the
    stall)."""
    seats = humans_and_bots(None, None, None)
    unbroken = Match(seats, Rules(target_score=40), seed=21)
    actions = play_humans(unbroken, random.Random(21))
    for cut in range(0, len(actions), max(1, len(actions) // 25)):
        match = Match(seats, Rules(target_score=40), seed=21)
        for action in actions[:cut]:
            match.play(match.to_move, action)  # type: ignore[arg-type]
        mark = match.checkpoint()
        play_humans(match, random.Random(cut), until=cut + 30)  # other moves, then undone
        match.restore(mark)
        assert (match.state, match.steps, match.stalled) == (mark.state, cut, None)
        for action in actions[cut:]:
            match.play(match.to_move, action)  # type: ignore[arg-type]
        assert match.state == unbroken.state and match.steps == unbroken.steps
        assert match.to_dict() == unbroken.to_dict()


def test_a_restored_stall_is_lifted() -> None:
    match = Match(humans_and_bots("staller", "staller"), seed=1, make=lambda spec, s: _Staller())
    mark = match.checkpoint()
    match.advance()
    assert match.stalled is not None
    match.restore(mark)
    assert match.stalled is None and not match.over and match.steps == 0
    match.play_bot()  # moves are taken again
    assert match.steps == 1
