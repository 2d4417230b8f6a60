"""The engine against every rule of RULES.md section 2 (a round) and 3 (the game).

Each test deals a position drawn as rows of cards (`deck_for` in tests/helpers.py), so
the reader sees the table. Seats are named Ana (0), Ben (1), Cleo (2), Dan (3).
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from helpers import (
    at,
    deal,
    deck_for,
    draw_and_flip,
    empty_draw_pile,
    finish_round,
    flip,
    play,
    reveal,
    reveal_all,
    rows,
    swap,
    with_face_down,
)

from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    NUM_ACTIONS,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    IllegalActionError,
    Phase,
    action_name,
    cards_in_play,
    legal_actions,
    new_game,
    raw_score,
    reshuffle,
    start_round,
    step,
)
from skyjo.observation import observe
from skyjo.rules import CARD_COUNTS, DECK_SIZE, Rules
from skyjo.scoring import winners

ALL = tuple(range(12))
COLUMN = {c: {c, c + 4, c + 8} for c in range(4)}


def mask(*cols: int) -> int:
    """The cleared-mask bits of whole columns."""
    return sum(1 << k for c in cols for k in COLUMN[c])


def turn_ids(base: int, positions: set[int] | tuple[int, ...]) -> tuple[int, ...]:
    return tuple(base + k for k in sorted(positions))


def top(state) -> int:
    return state.discard_pile[-1]


# A two-player table used by the turn tests. Ana reveals [0, 0] and [1, 0]
# (5 + 5 = 10), Ben [0, 0] and [1, 1] (2 + 1 = 3): Ana starts.
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


def table(draw: list[int], ana=ANA, opening=OPENING, discard_top: int = 6):
    return reveal_all(deal([ana, BEN], discard_top, draw), opening)


# ------------------------------------------------------------- 2.1-2.2 dealing


def test_deal_gives_each_seat_twelve_cards_row_by_row_then_the_discard_then_the_draw_pile():
    ana = [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
    ]
    ben = [
        [-2, -1, 0, 1],
        [2, 3, 4, 5],
        [6, 7, 8, 9],
    ]
    cleo = [
        [12, 11, 10, 9],
        [8, 7, 6, 5],
        [4, 3, 2, 1],
    ]
    deck = deck_for([ana, ben, cleo], discard_top=0, draw=[-2, 12, 7])
    state = new_game(3, deck=deck)

    assert [rows(grid) for grid in state.grids] == [ana, ben, cleo]
    assert state.hidden == (0xFFF,) * 3  # all face down
    assert state.cleared == (0, 0, 0)
    assert state.discard_pile == (0,)
    pile = state.draw_pile[state.draw_top :]
    assert pile == tuple(deck[37:])
    assert pile[:3] == (-2, 12, 7)
    assert len(pile) == DECK_SIZE - 3 * 12 - 1
    assert (state.phase, state.player, state.held, state.round) == (Phase.REVEAL, 0, None, 0)
    assert state.decks == (tuple(deck),)

    # The draw pile is drawn top first: Ben (highest reveal) draws -2, then Cleo 12.
    state = reveal_all(state, [((0, 0), (0, 1)), ((2, 0), (2, 1)), ((2, 2), (2, 3))])
    assert state.player == 1
    state = step(state, DRAW)
    assert state.held == -2
    state = play(state, flip(0, 0), DRAW)
    assert (state.player, state.held) == (2, 12)


def test_a_seeded_deal_deals_its_shuffled_deck_in_the_same_way():
    state = new_game(4, seed=7)
    (deck,) = state.decks
    assert Counter(deck) == CARD_COUNTS
    assert state.grids == tuple(deck[12 * i : 12 * i + 12] for i in range(4))
    assert state.discard_pile == (deck[48],)
    assert state.draw_pile[state.draw_top :] == deck[49:]


# -------------------------------------------------------------- 2.3 reveals

THREE = [
    [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
    ],
    [
        [2, 3, 4, 5],
        [6, 7, 8, 9],
        [10, 11, 12, 1],
    ],
    [
        [3, 4, 5, 6],
        [7, 8, 9, 10],
        [11, 12, 1, 2],
    ],
]


def test_every_player_turns_up_two_cards_in_seat_order():
    state = deal(THREE, 0)
    for seat in range(3):
        assert state.phase == Phase.REVEAL
        assert state.player == seat
        assert legal_actions(state) == turn_ids(REVEAL, ALL)
        state = step(state, reveal(1, 2))
        assert state.player == seat  # still this player's reveals
        assert legal_actions(state) == turn_ids(REVEAL, set(ALL) - {at(1, 2)})
        state = step(state, reveal(2, 3))
        seen = observe(state, seat).cards[seat]
        assert rows(seen) == [
            [None, None, None, None],
            [None, None, THREE[seat][1][2], None],
            [None, None, None, THREE[seat][2][3]],
        ]
    assert state.phase == Phase.TURNS
    assert [bin(h).count("1") for h in state.hidden] == [10, 10, 10]


def test_a_card_cannot_be_revealed_twice():
    state = step(deal(THREE, 0), reveal(0, 2))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match=r"cannot reveal \[0, 2\].*already face up"):
        step(state, reveal(0, 2))
    assert state == before


@pytest.mark.parametrize("action", [DRAW, TAKE_DISCARD, swap(0, 0), flip(0, 0), NEXT_ROUND])
@pytest.mark.parametrize("done", [0, 1, 3])
def test_nothing_but_reveals_while_the_players_turn_up_their_cards(action, done):
    state = deal(THREE, 0)
    for k in range(done):  # seat 0 reveals two, then seat 1 one
        state = step(state, REVEAL + k % 2)
    with pytest.raises(IllegalActionError, match="must first turn up two cards"):
        step(state, action)
    assert all(REVEAL <= a < REVEAL + 12 for a in legal_actions(state))


# ------------------------------------------------------------ 2.4 who starts

FOUR = [
    [
        [5, 5, -2, 12],
        [0, 0, 0, 0],
        [1, 1, 1, 1],
    ],
    [
        [10, 0, -1, 7],
        [2, 2, 2, 2],
        [3, 3, 3, 3],
    ],
    [
        [4, 6, 12, -2],
        [4, 4, 4, 4],
        [6, 6, 6, 6],
    ],
    [
        [9, 1, 8, 2],
        [7, 7, 7, 7],
        [8, 8, 8, 8],
    ],
]


@pytest.mark.parametrize(
    ("reveals", "totals", "starter"),
    [
        # the highest total starts, wherever it sits
        (
            [((0, 0), (0, 2)), ((0, 0), (0, 3)), ((0, 1), (0, 2)), ((0, 0), (0, 2))],
            (3, 17, 18, 17),
            2,
        ),
        (
            [((0, 2), (1, 0)), ((0, 1), (0, 2)), ((0, 3), (1, 0)), ((0, 0), (0, 3))],
            (-2, -1, 2, 11),
            3,
        ),
        (
            [((0, 0), (0, 3)), ((0, 1), (0, 2)), ((0, 3), (1, 0)), ((0, 0), (0, 1))],
            (17, -1, 2, 10),
            0,
        ),
        # only the two face-up cards count: Ana's hidden 12 and Cleo's 12s do not
        (
            [((0, 2), (1, 0)), ((0, 2), (2, 0)), ((0, 3), (1, 0)), ((0, 1), (0, 3))],
            (-2, 2, 2, 3),
            3,
        ),
        # ties (Decision): the tied player in the lowest seat starts
        ([((0, 0), (0, 1))] * 4, (10, 10, 10, 10), 0),
        (
            [((0, 1), (0, 2)), ((0, 0), (0, 1)), ((0, 0), (0, 1)), ((0, 0), (0, 1))],
            (3, 10, 10, 10),
            1,
        ),
        (
            [((0, 0), (0, 2)), ((0, 1), (0, 2)), ((0, 0), (0, 1)), ((0, 0), (0, 1))],
            (3, -1, 10, 10),
            2,
        ),
        (
            [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 0), (0, 3)), ((0, 0), (0, 1))],
            (10, -1, 2, 10),
            0,
        ),
    ],
)
def test_first_round_the_highest_two_card_total_starts_lowest_seat_on_a_tie(
    reveals, totals, starter
):
    state = reveal_all(deal(FOUR, 11), reveals)
    shown = tuple(sum(FOUR[seat][r][c] for r, c in reveals[seat]) for seat in range(4))
    assert shown == totals  # the table reads as the test says
    assert state.phase == Phase.TURNS
    assert state.starter == starter
    assert state.player == starter
    assert legal_actions(state) == (DRAW, TAKE_DISCARD)


# ----------------------------------------------------------------- 2.5 a turn


def test_taking_the_discard_it_must_be_exchanged_and_may_not_be_put_back():
    state = table(draw=[])
    state = step(state, TAKE_DISCARD)
    assert (state.player, state.held, state.source) == (0, 6, TAKE_DISCARD)
    assert state.discard_pile == ()
    # any of the twelve cards, face up or face down; never a flip
    assert legal_actions(state) == turn_ids(SWAP, ALL)
    for k in ALL:
        with pytest.raises(IllegalActionError):  # the message: see the illegal-action test
            step(state, FLIP + k)
    for action in (DRAW, TAKE_DISCARD):
        with pytest.raises(IllegalActionError, match="already holds a card"):
            step(state, action)
    with pytest.raises(IllegalActionError, match="must place the held card"):
        step(state, NEXT_ROUND)

    # exchanged with a face-up card: the 5 at [0, 0] goes on the discard pile
    state = step(state, swap(0, 0))
    assert rows(state.grids[0])[0] == [6, 3, 8, 1]
    assert state.discard_pile == (5,)
    assert (state.player, state.held) == (1, None)


def test_draw_then_exchange_with_a_face_down_card_puts_that_card_face_up_on_the_discard():
    state = table(draw=[12, 4])
    assert state.draw_pile[state.draw_top] == 12
    state = step(state, DRAW)
    assert (state.held, state.source) == (12, DRAW)
    assert state.draw_pile[state.draw_top :][0] == 4  # the 12 has left the pile
    face_down = set(ALL) - {at(0, 0), at(1, 0)}
    assert legal_actions(state) == turn_ids(SWAP, ALL) + turn_ids(FLIP, face_down)

    state = step(state, swap(2, 0))  # the face-down 11, never looked at
    assert rows(state.grids[0]) == [
        [5, 3, 8, 1],
        [5, 9, 2, 6],
        [12, 9, 4, 10],
    ]
    assert not state.hidden[0] & 1 << at(2, 0)  # the 12 lies face up
    assert state.discard_pile == (6, 11)  # the 11 face up on the pile
    assert observe(state, 1).cards[0][at(2, 0)] == 12
    assert state.player == 1


def test_draw_then_discard_and_flip():
    state = table(draw=[10])
    state = play(state, DRAW, flip(1, 1))
    assert state.grids[0] == tuple(v for row in ANA for v in row)  # nothing exchanged
    assert state.discard_pile == (6, 10)  # the drawn card, face up on the pile
    assert not state.hidden[0] & 1 << at(1, 1)
    assert observe(state, 1).cards[0][at(1, 1)] == 9  # Ben sees the flipped 9
    assert state.player == 1


def test_discard_and_flip_needs_a_face_down_card():
    state = step(table(draw=[10]), DRAW)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError):
        step(state, flip(1, 0))
    assert state == before


# -------------------------------------------------------- 2.6 clearing a column


def test_exchange_completing_a_column_clears_it_onto_the_discard_pile_on_top():
    state = table(draw=[5])
    before = raw_score(state, 0)
    state = play(state, DRAW, swap(2, 0))  # 5 over the face-down 11: column 0 is 5 5 5
    assert state.cleared[0] == mask(0)
    # the 11 put there first, the three 5s on top of it
    assert state.discard_pile == (6, 11, 5, 5, 5)
    assert top(state) == 5
    assert raw_score(state, 0) == before - 11 - 5 - 5
    assert observe(state, 1).status[0][at(0, 0)] == 2  # CLEARED
    assert Counter(cards_in_play(state)) == CARD_COUNTS


def test_flip_completing_a_column_clears_it_onto_the_discard_pile_on_top():
    ana = [
        [4, 9, 8, 1],
        [5, 9, 2, 6],
        [11, 9, 4, 10],
    ]
    state = table(draw=[3], ana=ana, opening=[((0, 1), (1, 1)), ((0, 0), (1, 1))])
    state = play(state, DRAW, flip(2, 1))
    assert state.cleared[0] == mask(1)
    assert state.discard_pile == (6, 3, 9, 9, 9)  # the discarded 3, then the 9s
    assert raw_score(state, 0) == sum(map(sum, ana)) - 27


def test_a_column_of_minus_twos_clears_and_the_player_loses_the_minus_six():
    ana = [
        [12, -2, 3, 4],
        [6, -2, 5, 7],
        [8, -2, 9, 10],
    ]
    state = table(draw=[1, 4, 0], ana=ana, opening=[((0, 0), (0, 1)), ((0, 0), (1, 1))])
    assert raw_score(state, 0) == 58
    state = draw_and_flip(state, 1, 1)  # two -2s up, the third still face down
    assert state.cleared[0] == 0  # only face-up cards clear
    state = draw_and_flip(state, 2, 3)  # Ben
    state = draw_and_flip(state, 2, 1)
    assert state.cleared[0] == mask(1)
    assert state.discard_pile[-4:] == (0, -2, -2, -2)
    assert raw_score(state, 0) == 64


def test_a_column_of_zeros_clears():
    ana = [
        [0, 3, 4, 5],
        [0, 6, 7, 8],
        [9, 10, 11, 12],
    ]
    # Ana shows 0, Ben 3: Ben starts, draws a 0 and discards it.
    state = table(draw=[0], ana=ana, opening=[((0, 0), (1, 0)), ((0, 0), (1, 1))])
    assert state.player == 1
    state = draw_and_flip(state, 2, 3)
    assert top(state) == 0
    state = play(state, TAKE_DISCARD, swap(2, 0))  # the 0 over the face-down 9
    assert state.cleared[0] == mask(0)
    assert state.discard_pile[-4:] == (9, 0, 0, 0)
    assert raw_score(state, 0) == sum(map(sum, ana)) - 9


def test_rows_never_clear():
    ana = [
        [4, 4, 4, 4],
        [1, 2, 3, 5],
        [6, 7, 8, 9],
    ]
    state = table(draw=[], ana=ana, opening=[((0, 0), (0, 1)), ((0, 0), (1, 1))])
    state = draw_and_flip(state, 0, 2)
    state = draw_and_flip(state, 2, 3)  # Ben
    state = draw_and_flip(state, 0, 3)
    assert observe(state, 0).cards[0][:4] == (4, 4, 4, 4)  # the whole row face up
    assert state.cleared[0] == 0
    assert raw_score(state, 0) == sum(map(sum, ana))


def test_a_cleared_column_can_no_longer_be_exchanged_into_or_flipped():
    state = table(draw=[5, 8, 7])
    state = play(state, DRAW, swap(2, 0))  # clears Ana's column 0
    state = draw_and_flip(state, 2, 3)  # Ben
    state = step(state, DRAW)
    gone = COLUMN[0]
    face_down = set(ALL) - gone  # Ana's two face-up cards were in column 0
    assert legal_actions(state) == turn_ids(SWAP, set(ALL) - gone) + turn_ids(FLIP, face_down)
    for k in gone:
        with pytest.raises(IllegalActionError):
            step(state, SWAP + k)
        with pytest.raises(IllegalActionError):
            step(state, FLIP + k)
    state = step(state, swap(0, 1))  # Ana puts the 7 elsewhere
    state = draw_and_flip(state, 2, 2)  # Ben
    state = step(state, TAKE_DISCARD)  # a card taken from the discard cannot go there either
    assert legal_actions(state) == turn_ids(SWAP, set(ALL) - gone)


def test_the_next_player_can_take_the_just_cleared_value_from_the_discard_pile():
    state = table(draw=[5])
    state = play(state, DRAW, swap(2, 0))  # Ana clears three 5s
    assert state.player == 1
    state = step(state, TAKE_DISCARD)
    assert state.held == 5
    assert state.discard_pile == (6, 11, 5, 5)
    state = step(state, swap(0, 1))
    assert rows(state.grids[1])[0] == [2, 5, 10, 4]
    assert state.discard_pile == (6, 11, 5, 5, 7)


# ------------------------------------------------------- 2.7 empty draw pile


def run_down_the_draw_pile(seed: int | None):
    """Both players draw and exchange with their face-up [0, 0] until the draw
    pile is empty (Ana's column 0 keeps a face-down card, so nothing clears)."""
    deck = deck_for([ANA, BEN], 6)
    return empty_draw_pile(reveal_all(new_game(2, seed=seed, deck=deck), OPENING))


def test_an_empty_draw_pile_is_made_again_from_the_discard_pile_less_its_top_card():
    state = run_down_the_draw_pile(seed=None)
    assert len(state.discard_pile) == 1 + (150 - 25)
    assert state.reshuffles == ((),)

    # nothing happens until someone draws: the discard can still be taken
    took = play(state, TAKE_DISCARD, swap(0, 0))
    assert took.draw_top == len(took.draw_pile)
    assert took.reshuffles == ((),)

    old = state.discard_pile
    state = step(state, DRAW)
    ((pile,),) = state.reshuffles
    assert Counter(pile) == Counter(old[:-1])
    assert pile != old[:-1]  # shuffled
    assert state.discard_pile == old[-1:]  # the top card stays where it is
    assert state.held == pile[0]
    assert state.draw_pile[state.draw_top :] == pile[1:]
    assert Counter(cards_in_play(state)) == CARD_COUNTS


def test_the_same_seed_gives_the_same_reshuffle_and_another_seed_another():
    def reshuffled(seed):
        return step(run_down_the_draw_pile(seed), DRAW).reshuffles[0][0]

    assert reshuffled(None) == reshuffled(None)
    assert reshuffled(5) == reshuffled(5)
    assert reshuffled(5) != reshuffled(6)


def test_a_reshuffle_in_a_given_order_as_a_replay_does():
    state = run_down_the_draw_pile(seed=None)
    with pytest.raises(IllegalActionError, match="not empty"):
        reshuffle(step(table(draw=[]), TAKE_DISCARD))
    old = state.discard_pile
    order = tuple(sorted(old[:-1]))
    state = reshuffle(state, order)
    assert state.draw_pile[state.draw_top :] == order
    assert state.discard_pile == old[-1:]
    assert state.reshuffles == ((order,),)
    assert step(state, DRAW).held == order[0]
    with pytest.raises(IllegalActionError, match="not the discard pile"):
        reshuffle(run_down_the_draw_pile(seed=None), order[1:] + (12,))


# ---------------------------------------------------------- 2.8 ending a round

# Ana 2 + 0, Ben 4 + 2, Cleo 1 + 2 face up after the default reveals: Ben starts.
A10 = [
    [2, 0, 1, 3],
    [0, 2, 1, 0],
    [1, 0, 0, 0],
]
B24 = [
    [4, 2, 3, 1],
    [2, 3, 1, 2],
    [1, 2, 3, 0],
]
C10 = [
    [1, 2, 0, 1],
    [2, 0, 1, 0],
    [0, 1, 2, 0],
]


def three_late(face_down):
    state = reveal_all(deal([A10, B24, C10], 11, draw=[12] * 10))
    assert state.player == 1
    return with_face_down(state, face_down)


def test_after_the_ender_every_other_player_takes_exactly_one_more_turn_in_seat_order():
    state = three_late([[(1, 1), (2, 2)], [(1, 1), (2, 2)], [(1, 1), (2, 2)]])
    state = draw_and_flip(state, 1, 1)  # Ben: one face-down card left
    state = draw_and_flip(state, 1, 1)  # Cleo
    state = draw_and_flip(state, 1, 1)  # Ana
    assert (state.phase, state.ender, state.player) == (Phase.TURNS, None, 1)
    state = draw_and_flip(state, 2, 2)  # Ben turns up his last card: he ends the round
    assert (state.phase, state.ender, state.player) == (Phase.FINAL_TURNS, 1, 2)
    assert legal_actions(state) == (DRAW, TAKE_DISCARD)
    state = play(state, TAKE_DISCARD, swap(0, 0))  # Cleo's last turn
    assert (state.phase, state.player) == (Phase.FINAL_TURNS, 0)
    state = play(state, DRAW, swap(0, 0))  # Ana's last turn
    # back to Ben: the round is over, he does not play again
    assert state.phase == Phase.ROUND_OVER
    assert state.player == 1
    assert legal_actions(state) == (NEXT_ROUND,)
    assert [r.ender for r in state.results] == [1]


def test_a_second_player_turning_up_everything_in_the_final_turns_changes_nothing():
    state = three_late([[(2, 2)], [(2, 2)], [(2, 2)]])
    state = draw_and_flip(state, 2, 2)  # Ben ends
    state = draw_and_flip(state, 2, 2)  # Cleo also has everything up now
    assert (state.phase, state.ender, state.player) == (Phase.FINAL_TURNS, 1, 0)
    state = draw_and_flip(state, 2, 2)  # Ana too
    assert state.phase == Phase.ROUND_OVER
    (result,) = state.results
    assert result.ender == 1
    # Ben (24) is judged as the ender: doubled, though Ana and Cleo finished too
    assert result.raw == (10, 24, 10)
    assert result.scores == (10, 48, 10)


def test_the_last_card_turned_up_can_clear_a_column_and_end_the_round_at_once():
    ana = [
        [7, 5, 2, 4],
        [7, -1, 3, 1],
        [7, 0, -2, 2],
    ]
    state = reveal_all(deal([ana, B24], 11, draw=[12, 12]))  # Ana shows 12, Ben 6
    state = with_face_down(state, [[(2, 0)], [(1, 1), (2, 2)]])
    assert state.player == 0
    state = draw_and_flip(state, 2, 0)
    assert state.cleared[0] == mask(0)
    assert state.discard_pile == (11, 12, 7, 7, 7)
    assert (state.ender, state.phase) == (0, Phase.FINAL_TURNS)


# --------------------------------------------------------- 2.9 final reveal


def test_the_final_reveal_turns_up_every_card_and_clears_columns_two_at_once():
    ana = [
        [2, 0, 1, 3],
        [0, 2, 1, 0],
        [1, 0, 0, 0],
    ]
    ben = [
        [8, 3, 12, -1],
        [8, 4, 5, -1],
        [8, 6, 7, -1],
    ]
    # Ana shows 2 + 0, Ben 3 + 12: Ben starts.
    state = reveal_all(
        deal([ana, ben], 11, draw=[10, 10, 10]), [((0, 0), (0, 1)), ((0, 1), (0, 2))]
    )
    # Later: Ana has only [2, 0] face down; Ben [0, 0], [1, 0], [1, 1] and [2, 3].
    state = with_face_down(state, [[(2, 0)], [(0, 0), (1, 0), (1, 1), (2, 3)]])
    assert state.player == 1
    state = draw_and_flip(state, 1, 1)  # Ben
    state = draw_and_flip(state, 2, 0)  # Ana turns up her last card: she ends
    assert state.ender == 0
    discard_before = Counter(state.discard_pile)
    state = step(state, DRAW)
    assert state.hidden[1] == 1 << at(0, 0) | 1 << at(1, 0) | 1 << at(2, 3)
    state = step(state, flip(0, 0))  # Ben's last turn; [1, 0] and [2, 3] are still down

    assert state.phase == Phase.ROUND_OVER
    assert state.hidden == (0, 0)  # every card face up
    assert all(v is not None for seat in observe(state, 0).cards for v in seat)
    # column 0 (three 8s) and column 3 (three -1s) clear together
    assert state.cleared == (0, mask(0, 3))
    (result,) = state.results
    assert result.raw == (10, 3 + 4 + 6 + 12 + 5 + 7)
    assert Counter(state.discard_pile) - discard_before == Counter([10, 8, 8, 8, -1, -1, -1])
    assert Counter(cards_in_play(state)) == CARD_COUNTS


def test_the_final_reveal_only_clears_three_equal_cards():
    ana = [
        [2, 0, 1, 3],
        [0, 2, 1, 0],
        [1, 0, 0, 0],
    ]
    ben = [
        [8, 3, 12, -1],
        [8, 4, 5, -1],
        [9, 6, 7, -2],
    ]
    state = finish_round(reveal_all(deal([ana, ben], 11)), ender=0)
    assert state.cleared == (0, 0)
    assert state.results[0].raw == (10, sum(map(sum, ben)))


# ---------------------------------------------------------- 2.10 the penalty

G14 = [  # RULES.md 4: column 0 clears, the grid is worth 14
    [7, 5, 2, 4],
    [7, -1, 3, 1],
    [7, 0, -2, 2],
]
G9 = [
    [1, 0, 2, 1],
    [0, 1, 0, 1],
    [1, 0, 2, 0],
]
G3 = [
    [1, 0, 2, 0],
    [0, 1, -1, 1],
    [1, -1, 0, -1],
]
G5 = [
    [2, 0, 1, 0],
    [0, 1, 0, 2],
    [1, -1, 0, -1],
]
G5b = [
    [3, 1, 0, -1],
    [0, 2, -1, 0],
    [1, 0, 0, 0],
]
G0 = [
    [1, -1, 0, 2],
    [-1, 0, 1, 0],
    [0, 1, -2, -1],
]
Gm1 = [
    [-1, 0, 1, 0],
    [0, -1, 0, 1],
    [1, 0, -1, -1],
]
Gm3 = [
    [-1, 1, 0, 0],
    [0, -1, 1, -1],
    [1, 0, -2, -1],
]
Gm5 = [
    [-1, 0, -1, 0],
    [0, -1, 0, 1],
    [-2, 0, 1, -2],
]


@pytest.mark.parametrize(
    ("penalty", "grids", "ender", "raw", "scores"),
    [
        # RULES.md 4: Cleo ends with 14 while Ana has 9: 28
        ("positive", [G9, G14], 1, (9, 14), (9, 28)),
        # the single lowest keeps the score
        ("positive", [G3, G9], 0, (3, 9), (3, 9)),
        # equal is not lower: doubled
        ("positive", [G5, G5b], 0, (5, 5), (10, 5)),
        ("positive", [G5b, G5], 1, (5, 5), (5, 10)),
        # 0 or below is never doubled
        ("positive", [Gm3, Gm5], 0, (-3, -5), (-3, -5)),
        ("positive", [G0, Gm1], 0, (0, -1), (0, -1)),
        # "always": sign does not matter, but the single lowest is still safe
        ("always", [Gm3, Gm5], 0, (-3, -5), (-6, -5)),
        ("always", [G9, G14], 1, (9, 14), (9, 28)),
        ("always", [G3, G9], 0, (3, 9), (3, 9)),
        # "none": never doubled
        ("none", [G9, G14], 1, (9, 14), (9, 14)),
        ("none", [G5, G5b], 0, (5, 5), (5, 5)),
        # RULES.md 4: A ends with 10, B has 24, C has 10: A writes 20
        ("positive", [A10, B24, C10], 0, (10, 24, 10), (20, 24, 10)),
    ],
)
def test_the_enders_penalty_is_applied_by_the_engine(penalty, grids, ender, raw, scores):
    state = reveal_all(deal(grids, 11, rules=Rules(ender_penalty=penalty)))
    state = finish_round(state, ender)
    (result,) = state.results
    assert result.ender == ender
    assert result.raw == raw
    assert result.scores == scores
    assert result.doubled == (scores != raw)
    assert state.totals == scores


# ------------------------------------------------------ 2.4 the next round


def test_the_ender_starts_the_next_round_after_the_reveals():
    state = finish_round(reveal_all(deal([G9, G14], 11)), ender=1)
    assert (state.phase, state.player) == (Phase.ROUND_OVER, 1)
    state = step(state, NEXT_ROUND)
    assert (state.round, state.phase, state.player) == (1, Phase.REVEAL, 0)
    assert Counter(state.decks[1]) == CARD_COUNTS
    assert state.hidden == (0xFFF, 0xFFF)
    assert state.cleared == (0, 0)
    assert state.ender is None
    state = reveal_all(state)
    assert (state.phase, state.starter, state.player) == (Phase.TURNS, 1, 1)


def test_the_ender_starts_the_next_round_even_with_the_lower_reveals():
    state = finish_round(reveal_all(deal([G9, G14], 11)), ender=1)
    high = [
        [12, 12, 0, 0],
        [1, 2, 3, 4],
        [5, 6, 7, 8],
    ]
    low = [
        [-2, -2, 0, 0],
        [1, 2, 3, 4],
        [5, 6, 7, 8],
    ]
    state = start_round(state, deck_for([high, low], 11))
    state = reveal_all(state)  # Ana shows 24, Ben -4
    assert (state.starter, state.player) == (1, 1)
    assert legal_actions(state) == (DRAW, TAKE_DISCARD)


# -------------------------------------------------------------- 3 the game


@pytest.mark.parametrize(("target", "over"), [(24, True), (25, False), (100, False)])
def test_the_game_ends_once_a_total_reaches_the_target(target, over):
    rules = Rules(target_score=target, ender_penalty="none")
    state = finish_round(reveal_all(deal([A10, B24, C10], 11, rules=rules)), ender=0)
    assert state.totals == (10, 24, 10)
    if over:
        assert state.phase == Phase.GAME_OVER
        assert legal_actions(state) == ()
        # equal lowest totals share the win
        assert winners(dict(enumerate(state.totals))) == [0, 2]
        with pytest.raises(IllegalActionError, match="game is over"):
            step(state, NEXT_ROUND)
    else:
        assert state.phase == Phase.ROUND_OVER
        assert legal_actions(state) == (NEXT_ROUND,)


def test_totals_add_up_over_rounds_and_the_lowest_total_wins():
    rules = Rules(target_score=40)
    deck = deck_for([A10, B24, C10], 11)
    state = finish_round(reveal_all(new_game(3, deck=deck, rules=rules)), ender=0)
    assert state.totals == (20, 24, 10)  # Ana doubled: Cleo has 10 too
    assert state.phase == Phase.ROUND_OVER
    state = reveal_all(start_round(state, deck))
    assert state.player == 0  # Ana ended round 1
    state = finish_round(state, ender=2)
    assert [r.scores for r in state.results] == [(20, 24, 10), (10, 24, 20)]
    assert state.totals == (30, 48, 30)
    assert state.phase == Phase.GAME_OVER
    assert winners(dict(enumerate(state.totals))) == [0, 2]


def test_a_single_lowest_total_wins_alone():
    rules = Rules(target_score=20)
    state = finish_round(reveal_all(deal([G9, G14], 11, rules=rules)), ender=1)
    assert state.totals == (9, 28)
    assert state.phase == Phase.GAME_OVER
    assert winners(dict(enumerate(state.totals))) == [0]


# ------------------------------------------------- illegal actions, determinism


def illegal_cases():
    start = deal([ANA, BEN], 6, draw=[5, 5, 12])
    turns = reveal_all(start, OPENING)
    took = step(turns, TAKE_DISCARD)
    over = finish_round(reveal_all(deal([G9, G14], 11)), ender=1)
    finished = finish_round(reveal_all(deal([G9, G14], 11, rules=Rules(target_score=1))), 1)
    drew = step(turns, DRAW)
    cleared = step(play(turns, DRAW, swap(2, 0), DRAW, flip(2, 3)), DRAW)  # Ana's 5s cleared
    return [
        (step(start, reveal(0, 0)), reveal(0, 0), r"cannot reveal \[0, 0\].*already face up"),
        (start, DRAW, "must first turn up two cards"),
        (turns, swap(0, 0), "must first draw or take the discard"),
        (turns, NEXT_ROUND, "not a turn's first step"),
        (took, flip(2, 0), "may not be put back"),
        (took, flip(0, 0), "may not be put back"),
        (drew, flip(0, 0), r"cannot flip \[0, 0\]: that card is already face up"),
        (drew, flip(1, 0), r"cannot flip \[1, 0\]: that card is already face up"),
        (cleared, swap(0, 0), r"cannot exchange \[0, 0\]: that column is cleared"),
        (cleared, swap(2, 0), r"cannot exchange \[2, 0\]: that column is cleared"),
        (cleared, flip(2, 0), r"cannot flip \[2, 0\]: that column is cleared"),
        (turns, flip(2, 3), "must first draw or take the discard"),
        (took, DRAW, "already holds a card"),
        (over, DRAW, "the round is over"),
        (finished, NEXT_ROUND, "the game is over"),
        (turns, 39, "there is no action 39"),
        (turns, -1, "there is no action -1"),
    ]


ILLEGAL = illegal_cases()


@pytest.mark.parametrize(
    ("state", "action", "reason"),
    ILLEGAL,
    ids=[
        f"{k}-{action_name(a) if 0 <= a < NUM_ACTIONS else a}"
        for k, (_, a, _) in enumerate(ILLEGAL)
    ],
)
def test_an_illegal_action_raises_with_the_reason_and_leaves_the_state_untouched(
    state, action, reason
):
    before = copy.deepcopy(state)
    assert action not in legal_actions(state)
    with pytest.raises(IllegalActionError, match=reason):
        step(state, action)
    assert state == before


def test_a_legal_step_returns_a_new_state_and_leaves_the_old_one_untouched():
    state = table(draw=[5])
    before = copy.deepcopy(state)
    after = play(state, DRAW, swap(2, 0))
    assert state == before
    assert after != state


def random_game(seed: int, players: int, choices: int) -> list:
    rng = random.Random(choices)
    state = new_game(players, seed=seed)
    states = [state]
    while state.phase != Phase.GAME_OVER:
        state = step(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


def test_the_same_seed_and_actions_give_the_same_game():
    first = random_game(seed=2024, players=4, choices=1)
    second = random_game(seed=2024, players=4, choices=1)
    assert first == second
    assert len(first[-1].results) >= 1


def test_different_seeds_deal_different_decks():
    decks = {new_game(2, seed=seed).decks[0] for seed in range(30)}
    assert len(decks) == 30
    # and the next round is dealt from a new shuffle
    rules = Rules(target_score=1_000)
    state = finish_round(reveal_all(new_game(2, seed=3, rules=rules)), ender=0)
    state = step(state, NEXT_ROUND)
    assert state.decks[0] != state.decks[1]
    assert Counter(state.decks[1]) == CARD_COUNTS
