"""The engine's interface: action ids and names, the legal mask, observations,
events and the checks on bad arguments."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from helpers import (
    at,
    deal,
    deck_for,
    draw_and_flip,
    empty_draw_pile,
    flip,
    play,
    reveal,
    reveal_all,
    rows,
    swap,
    with_face_down,
)

from skyjo.engine import (
    ACTION_NAMES,
    DRAW,
    FLIP,
    GAME_INFO,
    NEXT_ROUND,
    NUM_ACTIONS,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    EngineError,
    IllegalActionError,
    Phase,
    action_from_name,
    action_name,
    history,
    legal_action_mask,
    legal_actions,
    new_game,
    reshuffle,
    start_round,
    step,
    step_with_events,
    why_illegal,
)
from skyjo.errors import SkyjoError
from skyjo.events import Event, visible_event
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, observe
from skyjo.rules import CARD_COUNTS, DECK, Rules

# Ana reveals [0, 0] and [1, 0] (5 + 5), Ben [0, 0] and [1, 1] (2 + 1): Ana starts.
ANA = [
    [5, 3, 8, 1],
    [5, 9, 2, 6],
    [11, 9, 4, 10],
]
BEN = [
    [2, 7, 10, 4],
    [6, 1, 3, 12],
    [0, 7, 11, 2],
]
OPENING = [((0, 0), (1, 0)), ((0, 0), (1, 1))]


def table(draw=(), ana=ANA, ben=BEN, discard_top=6, rules=None):
    return reveal_all(deal([ana, ben], discard_top, draw, rules=rules), OPENING)


# ------------------------------------------------------------------ actions


def test_the_action_space_layout():
    assert NUM_ACTIONS == 39 == GAME_INFO.num_actions
    assert (REVEAL, DRAW, TAKE_DISCARD, SWAP, FLIP, NEXT_ROUND) == (0, 12, 13, 14, 26, 38)
    assert len(ACTION_NAMES) == NUM_ACTIONS


def test_game_info():
    assert GAME_INFO.min_players == 2
    assert GAME_INFO.max_players == 8
    assert GAME_INFO.grid_size == 12
    assert GAME_INFO.deck_size == 150
    assert GAME_INFO.max_game_length is None


@pytest.mark.parametrize(
    ("action", "name"),
    [
        (REVEAL, "reveal [0, 0]"),
        (reveal(1, 2), "reveal [1, 2]"),
        (REVEAL + 11, "reveal [2, 3]"),
        (DRAW, "draw"),
        (TAKE_DISCARD, "take discard"),
        (SWAP, "exchange [0, 0]"),
        (swap(2, 1), "exchange [2, 1]"),
        (FLIP, "discard and flip [0, 0]"),
        (flip(1, 3), "discard and flip [1, 3]"),
        (FLIP + 11, "discard and flip [2, 3]"),
        (NEXT_ROUND, "next round"),
    ],
)
def test_action_names(action, name):
    assert action_name(action) == name
    assert action_from_name(name) == action


def test_every_action_name_is_distinct_and_reads_back():
    names = [action_name(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert [action_from_name(n) for n in names] == list(range(NUM_ACTIONS))


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 100])
def test_action_name_of_no_action(action):
    with pytest.raises(ValueError, match="no action"):
        action_name(action)


@pytest.mark.parametrize("name", ["", "Draw", "flip [0, 0]", "exchange [3, 0]", "reveal 0 0"])
def test_action_from_an_unknown_name(name):
    with pytest.raises(ValueError, match="no action named"):
        action_from_name(name)


# --------------------------------------------------------------------- mask


def test_the_mask_agrees_with_the_legal_actions_through_whole_games():
    rng = random.Random(4)
    seen_phases = set()
    for seed in range(3):
        state = new_game(3, seed=seed, rules=Rules(target_score=150))
        while True:
            mask = legal_action_mask(state)
            legal = legal_actions(state)
            seen_phases.add((Phase(state.phase), state.held is not None))
            assert len(mask) == NUM_ACTIONS
            assert all(type(m) is bool for m in mask)
            assert tuple(a for a in range(NUM_ACTIONS) if mask[a]) == legal
            if not legal:
                break
            state = step(state, rng.choice(legal))
        assert state.phase == Phase.GAME_OVER
    assert {p for p, _ in seen_phases} == set(Phase)


# ------------------------------------------------------------ observations


def test_an_observation_shows_the_face_up_cards_and_nothing_face_down():
    state = table()
    for viewer in (0, 1):
        obs = observe(state, viewer)
        assert obs.viewer == viewer
        assert obs.num_players == 2
        assert rows(obs.cards[0]) == [
            [5, None, None, None],
            [5, None, None, None],
            [None, None, None, None],
        ]
        assert rows(obs.cards[1]) == [
            [2, None, None, None],
            [None, 1, None, None],
            [None, None, None, None],
        ]
        assert rows(obs.status[1]) == [
            [FACE_UP, FACE_DOWN, FACE_DOWN, FACE_DOWN],
            [FACE_DOWN, FACE_UP, FACE_DOWN, FACE_DOWN],
            [FACE_DOWN] * 4,
        ]
        assert obs.discard_pile == (6,)
        assert obs.draw_pile_size == 150 - 2 * 12 - 1
        assert (obs.round, obs.phase, obs.current_player) == (0, Phase.TURNS, 0)
        assert (obs.starter, obs.ender, obs.held, obs.source) == (0, None, None, None)
        assert obs.totals == (0, 0)
        assert obs.round_scores == ()
        assert obs.rules == Rules()
    assert observe(state, 0).legal_actions == (DRAW, TAKE_DISCARD)
    assert observe(state, 1).legal_actions == ()  # not Ben's turn


def test_an_observation_before_the_reveals_shows_no_card_and_no_starter():
    state = deal([ANA, BEN], 6)
    obs = observe(state, 1)
    assert obs.cards == ((None,) * 12, (None,) * 12)
    assert obs.starter is None
    assert obs.phase == Phase.REVEAL
    assert observe(state, 0).legal_actions == tuple(range(12))


def test_a_drawn_card_is_seen_by_the_drawer_only_until_it_is_placed():
    state = step(table(draw=[12, 7]), DRAW)
    assert (observe(state, 0).held, observe(state, 0).source) == (12, "deck")
    assert (observe(state, 1).held, observe(state, 1).source) == (None, "deck")
    assert observe(state, 0).draw_pile_size == 150 - 25 - 1
    state = step(state, swap(2, 3))
    assert observe(state, 1).cards[0][at(2, 3)] == 12  # placed: seen by everyone
    assert observe(state, 1).discard_pile == (6, 10)


def test_a_card_taken_from_the_discard_is_seen_by_everyone():
    state = step(table(), TAKE_DISCARD)
    for viewer in (0, 1):
        obs = observe(state, viewer)
        assert (obs.held, obs.source) == (6, "discard")
        assert obs.discard_pile == ()


def test_an_observation_does_not_depend_on_face_down_cards_or_the_draw_pile_order():
    # The same face-up cards, with every face-down card and the draw pile
    # in another order: no player can tell the two tables apart.
    ana_b = [
        [5, 9, 4, 10],
        [5, 11, 2, 6],
        [1, 9, 8, 3],
    ]
    ben_b = [
        [2, 12, 0, 7],
        [11, 1, 2, 3],
        [4, 7, 6, 10],
    ]
    a = table(draw=[1, 2, 3])
    b = table(draw=[3, 2, 1], ana=ana_b, ben=ben_b)
    assert a != b
    for viewer in (0, 1):
        assert observe(a, viewer) == observe(b, viewer)
        assert observe(a, viewer).to_dict() == observe(b, viewer).to_dict()
    # after a draw, only the drawer tells them apart
    a, b = step(a, DRAW), step(b, DRAW)
    assert observe(a, 1) == observe(b, 1)
    assert observe(a, 0).held == 1 != observe(b, 0).held


def test_observation_to_dict_is_json_with_null_for_face_down_and_x_for_cleared():
    state = play(table(draw=[5, 8]), DRAW, swap(2, 0))  # Ana clears her 5s
    state = step(state, DRAW)  # Ben holds an 8
    data = observe(state, 0).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["grids"][0] == [
        ["x", None, None, None],
        ["x", None, None, None],
        ["x", None, None, None],
    ]
    assert data["grids"][1] == [
        [2, None, None, None],
        [None, 1, None, None],
        [None, None, None, None],
    ]
    assert data["held"] is None  # Ben's drawn card
    assert data["source"] == "deck"
    assert data["phase"] == "turns"
    assert data["current_player"] == 1
    assert data["discard_pile"] == [6, 11, 5, 5, 5]
    assert data["draw_pile_size"] == 150 - 25 - 2
    assert data["legal_actions"] == []
    assert data["rules"] == {"target_score": 100, "ender_penalty": "positive"}
    assert data["totals"] == [0, 0]
    assert observe(state, 1).to_dict()["held"] == 8
    assert observe(state, 0).status[0][at(1, 0)] == CLEARED


def test_a_finished_round_shows_every_card_and_the_scores():
    state = table(draw=[12, 12, 12], rules=Rules(target_score=500))
    state = with_face_down(state, [[(2, 3)], [(2, 2), (2, 3)]])
    state = draw_and_flip(state, 2, 3)  # Ana ends
    state = draw_and_flip(state, 2, 2)  # Ben's last turn; his [2, 3] is still down
    obs = observe(state, 1)
    assert obs.phase == Phase.ROUND_OVER
    assert [rows(c) for c in obs.cards] == [ANA, BEN]
    assert obs.ender == 0
    ana_raw, ben_raw = sum(map(sum, ANA)), sum(map(sum, BEN))
    assert (ana_raw, ben_raw) == (73, 65)
    assert obs.round_scores == ((146, 65),)  # Ana, not the lowest, is doubled
    assert obs.totals == (ana_raw * 2, ben_raw)
    assert observe(state, 0).legal_actions == (NEXT_ROUND,)
    assert observe(state, 1).legal_actions == ()


# ------------------------------------------------------------------ events


def test_events_of_the_reveals_and_of_taking_the_discard():
    state = deal([ANA, BEN], 6)
    state, events = step_with_events(state, reveal(1, 2))
    assert events == (Event("revealed", 0, 2, at(1, 2)),)
    state = reveal_all(
        play(state, reveal(0, 0)), [((0, 0), (1, 1))]
    )  # Ana 5 + 2 = 7 > Ben 3: Ana starts
    state, events = step_with_events(state, TAKE_DISCARD)
    assert events == (Event("took_discard", 0, 6),)
    assert visible_event(events[0], 1) == events[0]  # everyone sees it
    state, events = step_with_events(state, swap(0, 0))
    assert events == (Event("exchanged", 0, 6, at(0, 0), (5,)),)


def test_events_of_draw_and_flip_and_a_drawn_card_hidden_from_others():
    state, events = step_with_events(table(draw=[7]), DRAW)
    assert events == (Event("drew", 0, 7),)
    assert visible_event(events[0], 0) == Event("drew", 0, 7)
    hidden = visible_event(events[0], 1)
    assert hidden == Event("drew", 0)
    assert hidden.card is None
    assert "card" not in hidden.to_dict()
    state, events = step_with_events(state, flip(2, 1))
    assert events == (Event("discarded", 0, 7), Event("flipped", 0, 9, at(2, 1)))
    assert [visible_event(e, 1) for e in events] == list(events)


def test_events_of_a_cleared_column():
    state = step(table(draw=[5]), DRAW)
    state, events = step_with_events(state, swap(2, 0))
    assert [e.kind for e in events] == ["exchanged", "column_cleared"]
    cleared = events[1]
    assert (cleared.player, cleared.card, cleared.cards) == (0, 5, (5, 5, 5))
    assert cleared.to_dict()["position"][1] == 0  # column 0
    assert events[0] == Event("exchanged", 0, 5, at(2, 0), (11,))


def test_events_of_a_reshuffle_show_no_card_of_the_new_pile():
    state = empty_draw_pile(table())
    state, events = step_with_events(state, DRAW)
    assert [e.kind for e in events] == ["reshuffled", "drew"]
    shuffled = events[0]
    assert shuffled.card is None and shuffled.cards is None
    assert events[1] == Event("drew", state.player, state.held)


def test_events_of_the_end_of_a_round_and_of_the_game():
    # RULES.md 4: Ana ends with 14 (her 7s clear on her last flip), Ben has 9.
    ana = [
        [7, 5, 2, 4],
        [7, -1, 3, 1],
        [7, 0, -2, 2],
    ]
    ben = [
        [1, 0, 2, 1],
        [0, 1, 0, 1],
        [1, 0, 2, 0],
    ]
    state = reveal_all(deal([ana, ben], 11, draw=[12, 10], rules=Rules(target_score=20)))
    state = with_face_down(state, [[(2, 0)], [(1, 1), (1, 2), (2, 2)]])
    state = step(state, DRAW)
    state, events = step_with_events(state, flip(2, 0))
    assert events == (
        Event("discarded", 0, 12),
        Event("flipped", 0, 7, at(2, 0)),
        Event("column_cleared", 0, 7, 0, (7, 7, 7)),
        Event("final_turns", 0),
    )
    state = step(state, DRAW)
    state, events = step_with_events(state, flip(1, 1))
    assert [e.kind for e in events] == [
        "discarded",
        "flipped",
        "revealed",
        "round_ended",
        "ender_doubled",
        "game_over",
    ]
    assert events[2] == Event("revealed", 1, None, None, (0, 2))  # Ben's last two cards
    assert events[3] == Event("round_ended", 0, scores=(28, 9))
    assert events[4] == Event("ender_doubled", 0, 28)
    assert events[5].kind == "game_over"
    assert events[5].scores == (28, 9) == state.totals
    for event in events:
        assert json.loads(json.dumps(event.to_dict()))["kind"] == event.kind


def test_events_of_a_final_reveal_that_clears_and_of_the_next_deal():
    ben = [
        [8, 3, 12, -1],
        [8, 4, 5, -1],
        [8, 6, 7, -1],
    ]
    state = table(draw=[10, 10, 10], ben=ben, rules=Rules(target_score=500))
    assert state.player == 1  # Ben shows 8 + 4: he starts
    state = with_face_down(state, [[(2, 3)], [(1, 0), (2, 3)]])
    state = play(state, DRAW, swap(0, 2))  # Ben: a 10 for his 12
    state = draw_and_flip(state, 2, 3)  # Ana ends
    state = step(state, DRAW)
    state, events = step_with_events(state, swap(0, 2))  # Ben's last turn
    kinds = [e.kind for e in events]
    assert kinds == [
        "exchanged",
        "revealed",
        "column_cleared",
        "column_cleared",
        "round_ended",
        "ender_doubled",
    ]
    assert events[1] == Event("revealed", 1, None, None, (8, -1))
    assert [(e.player, e.card, e.cards) for e in events[2:4]] == [
        (1, 8, (8, 8, 8)),
        (1, -1, (-1, -1, -1)),
    ]
    assert state.results[-1].raw == (73, 3 + 4 + 6 + 10 + 5 + 7)
    assert events[4].scores == state.results[-1].scores == (146, 35)
    state, events = step_with_events(state, NEXT_ROUND)
    assert events == (Event("dealt"),)


def test_step_appends_the_same_events_to_a_given_list():
    state = table(draw=[5])
    events: list[Event] = []
    after = step(step(state, DRAW, events), swap(2, 0), events)
    first, e1 = step_with_events(state, DRAW)
    second, e2 = step_with_events(first, swap(2, 0))
    assert events == list(e1 + e2)
    assert after == second


def test_event_to_dict_writes_positions_as_row_and_column():
    event = Event("exchanged", 1, 4, at(2, 1), (9,))
    assert event.to_dict() == {
        "kind": "exchanged",
        "player": 1,
        "card": 4,
        "position": [2, 1],
        "cards": [9],
    }
    assert Event("dealt").to_dict() == {"kind": "dealt"}


# ------------------------------------------------------------ bad arguments


@pytest.mark.parametrize("players", [0, 1, 9, -2])
def test_new_game_takes_two_to_eight_players(players):
    with pytest.raises(ValueError, match="2 to 8 players"):
        new_game(players, seed=1)


@pytest.mark.parametrize("players", [2.0, "3", True, None])
def test_new_game_needs_an_integer_number_of_players(players):
    with pytest.raises(ValueError, match="must be an integer"):
        new_game(players, seed=1)


def test_new_game_needs_a_seed_or_a_deck():
    with pytest.raises(ValueError, match="explicit seed"):
        new_game(2)


@pytest.mark.parametrize("seed", ["1", 1.5, True])
def test_new_game_needs_an_integer_seed(seed):
    with pytest.raises(ValueError, match="seed must be an integer"):
        new_game(2, seed=seed)


def test_seeds_do_not_alias():
    """Different seeds give different games, or a seed out of range is refused."""
    for a, b in [(0, 1 << 63), (1, 1 + (1 << 64)), (5, 5 - (1 << 63))]:
        try:
            deck_b = new_game(2, seed=b).decks[0]
        except ValueError:
            continue
        assert new_game(2, seed=a).decks[0] != deck_b, (a, b)


@pytest.mark.parametrize(
    "deck",
    [
        list(DECK[:-1]),  # 149 cards
        [*DECK, 0],  # 151 cards
        [5, *DECK[1:]],  # a -2 replaced by a 5
        [*DECK[:-1], 13],  # no such card
        [*DECK[:-1], "12"],
        [*DECK[:-1], 12.0],
        "not a deck",
        {1: 2},
    ],
)
def test_new_game_refuses_a_deck_that_is_not_the_150_cards(deck):
    with pytest.raises(ValueError):
        new_game(2, deck=deck)
    with pytest.raises(ValueError):
        start_round(over_round(), deck)


def over_round():
    state = table(draw=[12], rules=Rules(target_score=500))
    state = with_face_down(state, [[(2, 3)], [(2, 2)]])
    state = draw_and_flip(draw_and_flip(state, 2, 3), 2, 2)
    assert state.phase == Phase.ROUND_OVER
    return state


def test_start_round_deals_a_given_deck_only_once_a_round_is_over():
    deck = deck_for([BEN, ANA], 0)
    with pytest.raises(IllegalActionError, match="once a round is over"):
        start_round(table(), deck)
    state = start_round(over_round(), deck)
    assert [rows(g) for g in state.grids] == [BEN, ANA]
    assert state.round == 1
    assert Counter(state.decks[1]) == CARD_COUNTS


@pytest.mark.parametrize("seat", [-1, 2, 8])
def test_observe_a_seat_that_is_not_at_the_table(seat):
    with pytest.raises(ValueError, match=f"no seat {seat}"):
        observe(table(), seat)


def phases():
    """A state in each phase where some action is legal, by name."""
    start = deal([ANA, BEN], 6)
    turns = table(draw=[7])
    return {
        "reveal": start,
        "turn": turns,
        "drawn": step(turns, DRAW),
        "taken": step(turns, TAKE_DISCARD),
        "round over": over_round(),
    }


PHASES = phases()


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 10**6])
def test_an_action_out_of_range_is_illegal(phase, action):
    state = PHASES[phase]
    with pytest.raises(IllegalActionError, match=f"there is no action {action}"):
        step(state, action)


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize(
    "action",
    # each one equal to, or usable as, a legal action id in some phase
    ["draw", None, 1.0, float(DRAW), float(TAKE_DISCARD), float(SWAP), float(NEXT_ROUND), True],
    ids=repr,
)
def test_an_action_that_is_not_an_int_is_illegal(phase, action):
    state = PHASES[phase]
    with pytest.raises(IllegalActionError, match="an action is an integer"):
        step(state, action)


@pytest.mark.parametrize("phase", PHASES)
def test_a_numpy_integer_action_is_the_same_action(phase):
    import numpy as np

    state = PHASES[phase]
    for action in legal_actions(state):
        assert step(state, np.int64(action)) == step(state, action)
        assert type(history(step(state, np.int16(action)))[-1]) is int


@pytest.mark.parametrize("seat", [True, 1.0, "1", None])
def test_observe_takes_an_integer_seat_or_none_for_a_spectator(seat):
    state = step(table(draw=[7]), DRAW)
    if seat is None:
        view = observe(state, None)
        assert view.viewer is None and view.held is None and view.legal_actions == ()
        assert observe(state, 1).held is None  # a spectator sees what a non-drawer sees
        assert view.cards == observe(state, 1).cards
        return
    with pytest.raises(ValueError, match="a seat is an integer"):
        observe(state, seat)


@pytest.mark.parametrize("action", [1.5, True, "draw", None])
def test_action_name_of_what_is_not_an_integer(action):
    with pytest.raises(ValueError, match="an action is an integer"):
        action_name(action)


@pytest.mark.parametrize("rules", ["positive", {"ender_penalty": "always"}, 100])
def test_new_game_refuses_rules_that_are_not_rules(rules):
    with pytest.raises(ValueError, match=r"rules must be a skyjo\.Rules"):
        new_game(2, seed=1, rules=rules)


#: Every kind an illegal action may have (`why_illegal`).
ILLEGAL_KINDS = {
    "action_not_integer",
    "action_unknown",
    "game_over",
    "round_over",
    "reveal_first",
    "reveal_face_up",
    "take_first",
    "not_a_first_step",
    "must_place",
    "discard_not_put_back",
    "flip_cleared",
    "flip_face_up",
    "exchange_cleared",
    "place_held",
}


@pytest.mark.parametrize("phase", PHASES)
def test_an_illegal_action_carries_its_kind_and_params(phase):
    """Each refusal of `step` is a `SkyjoError` whose kind and JSON-ready
    params come with its sentence (`why_illegal`), for every illegal action."""
    state = PHASES[phase]
    legal = legal_actions(state)
    for action in [a for a in range(-1, NUM_ACTIONS + 1) if a not in legal] + [1.5, "draw"]:
        with pytest.raises(IllegalActionError) as caught:
            step(state, action)
        error = caught.value
        assert isinstance(error, SkyjoError)
        assert error.kind in ILLEGAL_KINDS
        assert json.loads(json.dumps(error.params)) == error.params
        assert (error.kind, error.params, str(error)) == tuple(why_illegal(state, action))


def test_the_params_of_an_illegal_action_name_its_seat_and_position():
    drawn = PHASES["drawn"]
    k = next(k for k in range(12) if not drawn.hidden[drawn.player] >> k & 1)
    reason = why_illegal(drawn, FLIP + k)
    assert reason.kind == "flip_face_up"
    assert reason.params == {"seat": drawn.player, "position": list(divmod(k, 4))}
    named = why_illegal(drawn, FLIP + k, who="Ana")
    assert named.sentence.startswith("Ana cannot flip") and named.params == reason.params
    assert why_illegal(PHASES["taken"], FLIP + k).kind == "discard_not_put_back"
    assert why_illegal(PHASES["round over"], DRAW).kind == "round_over"


@pytest.mark.parametrize(
    ("call", "kind"),
    [
        (lambda: new_game(2), "seed_missing"),
        (lambda: new_game(2, seed="1"), "seed_not_integer"),
        (lambda: new_game(2, seed=1, rules="positive"), "rules_not_rules"),
        (lambda: action_name(NUM_ACTIONS), "action_unknown"),
        (lambda: action_name(None), "action_not_integer"),
        (lambda: action_from_name("jump"), "action_name_unknown"),
        (lambda: observe(table(), 5), "seat_unknown"),
        (lambda: observe(table(), "1"), "seat_not_integer"),
    ],
)
def test_a_bad_argument_to_the_engine_carries_its_kind(call, kind):
    with pytest.raises(EngineError) as caught:
        call()
    assert caught.value.kind == kind
    assert json.loads(json.dumps(caught.value.params)) == caught.value.params


def test_start_round_and_reshuffle_refusals_carry_their_kind():
    with pytest.raises(IllegalActionError) as caught:
        start_round(table(), deck_for([BEN, ANA], 0))
    assert caught.value.kind == "round_not_over"
    with pytest.raises(IllegalActionError) as caught:
        reshuffle(table())
    assert caught.value.kind == "draw_pile_not_empty"
    empty = empty_draw_pile(table())
    with pytest.raises(IllegalActionError) as caught:
        reshuffle(empty, [5])
    assert caught.value.kind == "reshuffle_not_discard_pile"


def test_the_history_grows_in_place_along_a_game_and_copies_when_it_branches():
    state = new_game(2, seed=3)
    first = step(state, REVEAL)
    second = step(first, REVEAL + 1)
    assert first.history._buffer is second.history._buffer  # shared: constant-time growth
    branch = step(first, REVEAL + 2)  # another move from an older state
    assert branch.history._buffer is not second.history._buffer
    assert history(second) == [REVEAL, REVEAL + 1]
    assert history(branch) == [REVEAL, REVEAL + 2]
    assert history(first) == [REVEAL]
    assert history(state) == []


def test_after_a_reshuffle_everyone_knows_which_values_the_draw_pile_holds():
    before = empty_draw_pile(table())
    assert observe(before, 0).draw_pile_known is None
    state = step(before, DRAW)  # reshuffles, then seat draws
    drawer, other = state.player, 1 - state.player
    pile = sorted(state.draw_pile[state.draw_top :])
    assert list(observe(state, drawer).draw_pile_known) == pile
    # the others do not know the drawn card yet: for them it may still be in the pile
    assert list(observe(state, other).draw_pile_known) == sorted([*pile, state.held])
    assert list(observe(state, None).draw_pile_known) == sorted([*pile, state.held])
    assert observe(state, 0).to_dict()["draw_pile_known"] is not None
    placed = step(state, SWAP + 1)
    assert list(observe(placed, other).draw_pile_known) == pile


def test_an_observation_holds_the_results_of_past_rounds():
    state = over_round()
    view = observe(state, 1)
    assert view.results == state.results
    data = view.to_dict()["results"]
    assert data == [
        {"ender": r.ender, "raw": list(r.raw), "scores": list(r.scores), "doubled": r.doubled}
        for r in state.results
    ]
