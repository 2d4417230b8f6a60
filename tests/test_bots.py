"""The bots: every registered bot plays legal, reproducible games from what it may
see; the `greedy`, `basic` and `expected` strategies on positions drawn as rows of
cards (`deck_for` in tests/helpers.py); `expected` beats `random` by a wide margin.

Seats are named Ana (0) and Ben (1). Unless said otherwise, the positions are
built after the default reveals ([0, 0] and [0, 1] face up) with the face-down
cards chosen per test, and with Ana to play.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import Grid, Pos, at, deal, empty_draw_pile, reveal_all, swap, with_face_down

from skyjo.bots import Bot, bot_names, make_bot
from skyjo.bots.counting import draw_pile_cards, face_down_cards, pools, unseen_cards
from skyjo.bots.expected import ExpectedBot, counts
from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    SWAP,
    TAKE_DISCARD,
    Phase,
    State,
    cards_in_play,
    history,
    legal_actions,
    new_game,
    step,
)
from skyjo.observation import observe
from skyjo.rules import DECK, GRID_SIZE, Rules

ANA, BEN = 0, 1
# One round ends a game to 1 point: complete games stay short for slow bots.
ONE_ROUND = Rules(target_score=1)


EXAMPLE_BOT = Path(__file__).resolve().parent.parent / "examples" / "bots" / "random_bot.py"
#: Bots that need options, or that are slow at their defaults, play these specs here.
TEST_SPECS = {
    "external": f"external:command=python {EXAMPLE_BOT}",
    "search": "search:turns=400",
}


def make(name: str, seed: int = 0) -> Bot:
    """A new bot of every registered kind, at a test budget (see TEST_SPECS)."""
    return make_bot(TEST_SPECS.get(name, name), seed)


def choose(name: str, state: State) -> int:
    """A fresh bot's choice for the player to act, checked to be legal."""
    bot = make(name, 3)
    observation = observe(state, state.player)
    action = bot.choose(observation)
    assert action in observation.legal_actions
    return action


def twin(state: State, seed: int) -> State:
    """The same table with the cards no one can see (every face-down grid card and
    the draw pile) dealt among those places in another order: the 150 cards stay."""
    hidden = [i for i in range(len(state.cells)) if state.hidden_bits >> i & 1]
    rest = list(state.draw_pile[state.draw_top :])
    unseen = [state.cells[i] for i in hidden] + rest
    random.Random(seed).shuffle(unseen)
    cells = list(state.cells)
    for i, value in zip(hidden, unseen, strict=False):
        cells[i] = value
    pile = state.draw_pile[: state.draw_top] + tuple(unseen[len(hidden) :])
    other = state._replace(cells=tuple(cells), draw_pile=pile)
    assert sorted(cards_in_play(other)) == sorted(cards_in_play(state))
    return other


def play_game(names: Sequence[str], seed: int, rules: Rules | None = None) -> State:
    """A complete game, checking that every action is legal."""
    bots = [make(name, seed * 100 + seat) for seat, name in enumerate(names)]
    state = new_game(len(names), seed=seed, rules=rules)
    while state.phase != Phase.GAME_OVER:
        observation = observe(state, state.player)
        action = bots[state.player].choose(observation)
        assert action in observation.legal_actions, (names[state.player], action)
        state = step(state, action)
    return state


# --- every registered bot --------------------------------------------------------


#: Every bot of the ladder at 2, 4 and 8 players.
TABLE_SIZES = [(name, players) for name in bot_names() for players in (2, 4, 8)]


@pytest.mark.parametrize(("name", "players"), TABLE_SIZES)
def test_plays_complete_legal_games(name: str, players: int) -> None:
    state = play_game([name] * players, seed=players, rules=ONE_ROUND)
    assert state.phase == Phase.GAME_OVER


@pytest.mark.parametrize("name", bot_names())
def test_reveals_two_cards_and_deals_the_next_round(name: str) -> None:
    state = new_game(2, seed=3)
    for _ in range(4):
        state = step(state, choose(name, state))
    assert state.phase == Phase.TURNS
    assert [bin(h).count("1") for h in state.hidden] == [GRID_SIZE - 2] * 2
    assert choose(name, state._replace(phase=Phase.ROUND_OVER)) == NEXT_ROUND


@pytest.mark.parametrize("name", ["greedy", "basic", "expected"])
def test_plays_a_whole_game_to_100(name: str) -> None:
    state = play_game([name, name], seed=21)
    assert state.phase == Phase.GAME_OVER
    assert len(state.results) >= 2


@pytest.mark.parametrize("name", bot_names())
def test_same_seed_same_game(name: str) -> None:
    first = play_game([name, name, "random"], seed=11, rules=ONE_ROUND)
    again = play_game([name, name, "random"], seed=11, rules=ONE_ROUND)
    assert history(first) == history(again)


@pytest.mark.parametrize("name", bot_names())
def test_never_uses_hidden_information(name: str) -> None:
    """Two bots with the same seed play the same seat; one sees the real game,
    the other the same game with its hidden cards dealt differently at every
    decision. Their observations are equal, and so must be their choices."""
    seed = 5
    rules = ONE_ROUND
    bots = [make(name, seed), make("greedy", 1), make("random", 2)]
    shadow = make(name, seed)
    state = new_game(3, seed=seed, rules=rules)
    decisions = 0
    while state.phase != Phase.GAME_OVER:
        seat = state.player
        observation = observe(state, seat)
        action = bots[seat].choose(observation)
        if seat == 0:
            other = twin(state, decisions)
            assert other != state or not state.hidden_bits
            seen = observe(other, seat)
            assert seen == observation
            assert shadow.choose(seen) == action
            decisions += 1
        state = step(state, action)
    assert decisions > 10


# --- positions ------------------------------------------------------------------


def position(
    grids: Sequence[Grid],
    discard_top: int,
    draw: Sequence[int] = (),
    face_down: Sequence[Sequence[Pos]] | None = None,
    rules: Rules | None = None,
) -> State:
    """The dealt grids after the default reveals, Ana to play; `face_down` lists,
    per seat, the positions still face down (by default all but [0, 0] and [0, 1])."""
    state = reveal_all(deal(grids, discard_top, draw, rules))
    if face_down is not None:
        state = state._replace(hidden=[sum(1 << at(r, c) for r, c in seat) for seat in face_down])
    return state._replace(player=ANA)


def after(state: State, action: int) -> State:
    assert action in legal_actions(state)
    return step(state, action)


LOW_ANA = [[8, 9, 4, 3], [2, 1, 5, 6], [7, 0, 3, 4]]
BEN_GRID = [[10, 11, 4, 3], [2, 1, 5, 6], [7, 0, 3, 4]]


@pytest.mark.parametrize("name", ["greedy", "basic", "expected"])
def test_takes_a_low_discard_in_place_of_the_highest_card(name: str) -> None:
    # Ana shows 8 and 9; the discard is a -1.
    state = position([LOW_ANA, BEN_GRID], discard_top=-1)
    assert choose(name, state) == TAKE_DISCARD
    assert choose(name, after(state, TAKE_DISCARD)) == swap(0, 1)  # the 9


@pytest.mark.parametrize("name", ["greedy", "basic", "expected"])
def test_discards_a_high_drawn_card_and_turns_up_a_card(name: str) -> None:
    # Ana shows 1 and 0; the discard is an 11 and she draws a 12.
    grid = [[1, 0, 4, 3], [2, 1, 5, 6], [7, 0, 3, 4]]
    state = position([grid, BEN_GRID], discard_top=11, draw=[12])
    assert choose(name, state) == DRAW
    drawn = after(state, DRAW)
    action = choose(name, drawn)
    assert FLIP <= action < NEXT_ROUND
    assert action - FLIP not in (at(0, 0), at(0, 1))


def test_basic_takes_a_discard_lower_than_its_highest_face_up_card() -> None:
    # A 9 is not low, but Ana shows an 11: basic takes it and replaces the 11.
    grid = [[11, 2, 4, 3], [2, 1, 5, 6], [7, 0, 3, 4]]
    state = position([grid, BEN_GRID], discard_top=9)
    assert choose("basic", state) == TAKE_DISCARD
    assert choose("basic", after(state, TAKE_DISCARD)) == swap(0, 0)


def test_basic_keeps_a_drawn_card_below_5_on_a_face_down_card() -> None:
    # Ana shows 1 and 2, draws a 4: lower than 5 but not than her cards.
    grid = [[1, 2, 4, 3], [2, 1, 5, 6], [7, 0, 3, 4]]
    state = position([grid, BEN_GRID], discard_top=8, draw=[4])
    assert choose("basic", state) == DRAW
    action = choose("basic", after(state, DRAW))
    assert SWAP <= action < FLIP
    assert action - SWAP not in (at(0, 0), at(0, 1))


def test_basic_takes_a_5_but_draws_on_a_6() -> None:
    grid = [[1, 2, 4, 3], [2, 1, 5, 6], [7, 0, 3, 4]]
    assert choose("basic", position([grid, BEN_GRID], discard_top=5)) == TAKE_DISCARD
    assert choose("basic", position([grid, BEN_GRID], discard_top=6)) == DRAW


@pytest.mark.parametrize("name", ["greedy", "expected"])
def test_completes_a_column_with_the_third_card(name: str) -> None:
    # Ana shows 7 and 7 in column 0 ([0, 0] and [1, 0]); the discard is a 7.
    grid = [[7, 1, 4, 3], [7, 1, 5, 6], [2, 0, 3, 4]]
    down = [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)]
    state = position([grid, BEN_GRID], discard_top=7, face_down=[down, down])
    assert choose(name, state) == TAKE_DISCARD
    taken = after(state, TAKE_DISCARD)
    action = choose(name, taken)
    assert action == swap(2, 0)
    assert after(taken, action).cleared[ANA] == 0b000100010001


# Ana's last face-down card is [2, 3]; her other cards show 21.
ANA_NEARLY_DONE = [[3, 2, 4, 1], [0, 2, 3, 1], [2, 0, 3, 12]]
ANA_LAST = [[(2, 3)]]


def test_expected_does_not_end_the_round_when_it_would_be_doubled() -> None:
    # Ben shows -2s and 0s with two face-down cards: he will be far below Ana's 21.
    ben = [[-2, -2, 0, 0], [-1, -1, 0, 0], [-2, 0, -1, 5]]
    ben_down = [(2, 2), (2, 3)]
    state = position(
        [ANA_NEARLY_DONE, ben], discard_top=11, draw=[4], face_down=[*ANA_LAST, ben_down]
    )
    drawn = after(state, DRAW)
    action = choose("expected", drawn)
    assert action not in (swap(2, 3), FLIP + at(2, 3))  # either would end the round
    assert action != swap(0, 2)  # nor the 4 in place of the other 4: that changes nothing


def test_expected_ends_the_round_when_clearly_lowest() -> None:
    # Ana shows -2s, -1s and 0s; Ben shows 12s with four face-down cards.
    ana = [[-2, -1, 0, 0], [-1, 0, -2, -1], [0, 1, -1, 12]]
    ben = [[12, 12, 11, 11], [10, 10, 9, 9], [12, 11, 10, 9]]
    ben_down = [(1, 0), (1, 1), (2, 0), (2, 1)]
    state = position([ana, ben], discard_top=8, draw=[1], face_down=[*ANA_LAST, ben_down])
    drawn = after(state, DRAW)
    assert choose("expected", drawn) == swap(2, 3)  # ends with -6 + 1


def test_expected_ending_respects_the_rules_variant() -> None:
    # Ana shows 26 in small cards over her face-down 12 and draws a 0: ending at 26
    # beats keeping a face-down card, unless she is doubled, as she would be
    # against Ben's low cards under the default rules.
    ana = [[3, 2, 2, 3], [2, 3, 3, 2], [3, 2, 1, 12]]
    ben = [[-2, -2, 0, 0], [-1, -1, 0, 0], [-2, 0, -1, 5]]
    faces = [*ANA_LAST, [(2, 2), (2, 3)]]
    for penalty, ends in (("none", True), ("positive", False), ("always", False)):
        rules = Rules(ender_penalty=penalty)
        state = position([ana, ben], discard_top=11, draw=[0], face_down=faces, rules=rules)
        action = choose("expected", after(state, DRAW))
        assert (action == swap(2, 3)) == ends, penalty


def test_expected_in_its_last_turn_minimises_its_own_score() -> None:
    # Ben ended the round with 21 face up; Ana has four face-down cards and shows a
    # 12: she takes the 2 and puts it on the 12.
    ana = [[12, 4, 5, 6], [3, 1, 5, 6], [7, 0, 3, 4]]
    ben = [[3, 2, 4, 1], [0, 2, 3, 1], [2, 0, 3, 0]]
    ana_down = [(1, 0), (1, 1), (2, 0), (2, 1)]
    state = position([ana, ben], discard_top=2, face_down=[ana_down, []])
    state = state._replace(ender=BEN, phase=Phase.FINAL_TURNS)
    assert choose("expected", state) == TAKE_DISCARD
    assert choose("expected", after(state, TAKE_DISCARD)) == swap(0, 0)


def test_expected_beats_random_by_far() -> None:
    wins = 0
    for game in range(40):
        names = ["expected", "random"] if game % 2 else ["random", "expected"]
        state = play_game(names, seed=1000 + game)
        seat = names.index("expected")
        wins += state.totals[seat] == min(state.totals)
    assert wins >= 36


def test_the_deck_helper_keeps_the_150_cards() -> None:
    state = position([LOW_ANA, BEN_GRID], discard_top=-1)
    assert sorted(cards_in_play(state)) == sorted(DECK)


# --- card counting after a reshuffle ----------------------------------------------


def reshuffled(num_players: int, seed: int) -> State:
    """A round after the reveals where every player draws and exchanges the card
    with its face-up [0, 0] (no column clears, no one ends the round) until the
    draw pile has been reshuffled and a few cards drawn from it; the next player
    to act holds no card."""
    state = reveal_all(new_game(num_players, seed=seed))
    while not state.reshuffles[-1] or state.draw_top < 4:
        state = step(step(state, DRAW), swap(0, 0))
    return state


def test_after_a_reshuffle_cards_are_counted_in_two_pools() -> None:
    state = reshuffled(3, seed=4)
    pile = Counter(state.draw_pile[state.draw_top :])
    face_down = Counter(
        v
        for seat, grid in enumerate(state.grids)
        for k, v in enumerate(grid)
        if state.hidden[seat] >> k & 1
    )
    obs = observe(state, state.player)
    assert pools(obs) == (face_down, pile)
    assert face_down_cards(obs) == face_down and draw_pile_cards(obs) == pile
    assert face_down + pile == unseen_cards(obs)
    # another player's freshly drawn card: for the others, still in the pile
    drawn = step(state, DRAW)
    other = observe(drawn, (drawn.player + 1) % 3)
    assert draw_pile_cards(other) == pile and face_down_cards(other) == face_down
    mine = observe(drawn, drawn.player)
    assert draw_pile_cards(mine) == pile - Counter([drawn.held])
    # before any reshuffle: one pool, every unseen card
    fresh = observe(reveal_all(new_game(3, seed=4)), 0)
    assert pools(fresh) == (unseen_cards(fresh), None)
    assert draw_pile_cards(fresh) == face_down_cards(fresh) == unseen_cards(fresh)


def test_with_an_empty_draw_pile_the_next_card_drawn_comes_from_the_discard_pile() -> None:
    state = empty_draw_pile(reveal_all(new_game(2, seed=6)))
    obs = observe(state, state.player)
    assert obs.draw_pile_size == 0 and obs.draw_pile_known is None
    assert draw_pile_cards(obs) == Counter(obs.discard_pile[:-1])
    assert face_down_cards(obs) == unseen_cards(obs)


def test_expected_prices_a_drawn_card_from_the_known_pile() -> None:
    """After a reshuffle, `expected`'s draw is priced over the known draw pile and
    a face-down card over the other unseen cards; some of its choices in
    reshuffled rounds change when it is not told the pile."""
    state = reshuffled(8, seed=2)
    obs = observe(state, state.player)
    down, draw = ExpectedBot(1).pools(obs)
    assert (draw == counts(Counter(obs.draw_pile_known))).all()
    assert (down == counts(face_down_cards(obs))).all() and (down != draw).any()
    changed = 0
    for seed in range(3):
        state = reshuffled(8, seed)
        for _ in range(60):  # greedy plays on; expected is asked at every decision
            obs = observe(state, state.player)
            if state.phase not in (Phase.TURNS, Phase.FINAL_TURNS):
                break
            blind = dataclasses.replace(obs, draw_pile_known=None)
            changed += ExpectedBot(1).choose(obs) != ExpectedBot(1).choose(blind)
            state = step(state, make_bot("greedy", seed).choose(obs))
    assert changed > 0


def test_expected_in_its_last_turn_when_its_face_down_cards_are_known() -> None:
    """After a reshuffle, the face-down pool may be one known card (spread 0):
    `expected` still chooses (once, it divided by that spread)."""
    state = reshuffled(3, seed=0)  # seat 0 ends with 62, seat 2 may double it
    state = with_face_down(state, [[], [], [(2, 3)]])
    state = state._replace(phase=Phase.FINAL_TURNS, ender=0, player=2)
    obs = observe(state, 2)
    assert sum(face_down_cards(obs).values()) == 1
    for penalty in ("always", "positive"):
        rules = dataclasses.replace(obs.rules, ender_penalty=penalty)
        view = dataclasses.replace(obs, rules=rules)
        assert ExpectedBot(1).choose(view) in obs.legal_actions
        held = observe(step(state, DRAW), 2)
        assert ExpectedBot(1).choose(dataclasses.replace(held, rules=rules)) in held.legal_actions
