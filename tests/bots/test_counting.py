"""Card counting (skyjo.bots.counting) on hand-built observations: the unseen
pool is the 150 cards less every card in sight, counted by hand here, and the
`expected` bot prices its cards from exactly those pools."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import numpy as np
import pytest
from handmade import observation

from skyjo.bots import make_bot
from skyjo.bots.counting import (
    draw_pile_cards,
    face_down_cards,
    hidden_places,
    pools,
    seen_cards,
    unseen_cards,
)
from skyjo.bots.expected import ExpectedBot
from skyjo.observation import Observation

# Ana (seat 0, to play) shows 12, 12 and 0 and holds a 9 she drew; Ben shows 7
# and -2 and cleared his column of 5s, which lie on the discard pile under its
# top 7; the 3 was the first discard.
ANA = [[12, 12, None, None], [None, None, None, None], [None, None, None, 0]]
BEN = [["x", 7, None, None], ["x", None, None, -2], ["x", None, None, None]]
DISCARD = [3, 5, 5, 5, 7]
#: The 150 cards less those eleven, value by value (-2 to 12), counted by hand.
UNSEEN = {-2: 4, -1: 10, 0: 14, 1: 10, 2: 10, 3: 9, 4: 10, 5: 7, 6: 10, 7: 8}
UNSEEN |= {8: 10, 9: 9, 10: 10, 11: 10, 12: 8}


def table(**changes: Any) -> Observation:
    """Ana's observation, holding the 9 she drew (unless `changes` say otherwise)."""
    options: dict[str, Any] = {"held": 9, "source": "deck", "draw_pile_size": 123}
    options.update(changes)
    return observation([ANA, BEN], DISCARD, **options)


def test_the_unseen_pool_is_the_deck_less_every_card_in_sight() -> None:
    obs = table()
    assert sum(UNSEEN.values()) == 139
    assert seen_cards(obs) == Counter({12: 2, 0: 1, 7: 2, -2: 1, 3: 1, 5: 3, 9: 1})
    assert unseen_cards(obs) == Counter(UNSEEN)
    # 9 + 7 face-down cards and a draw pile of 123: every unseen card has a place
    assert hidden_places(obs) == 139
    # before a reshuffle one pool serves face-down cards and drawn cards alike
    assert pools(obs) == (Counter(UNSEEN), None)
    assert face_down_cards(obs) == draw_pile_cards(obs) == Counter(UNSEEN)


def test_a_card_in_another_players_hand_is_unseen_until_placed() -> None:
    # Ben drew a card: Ana does not see it, so it is still among the unseen cards
    obs = observation([ANA, BEN], DISCARD, draw_pile_size=123)
    obs = dataclasses.replace(obs, current_player=1, source="deck", legal_actions=())
    unseen = Counter(UNSEEN)
    unseen[9] += 1  # Ana holds no 9 here
    assert unseen_cards(obs) == unseen
    assert hidden_places(obs) == 16 + 123 + 1 == sum(unseen.values())


def test_after_a_reshuffle_drawn_cards_and_face_down_cards_have_their_own_pools() -> None:
    pile = [1, 1, 4, 11, 11, 11]
    obs = table(draw_pile_size=len(pile), draw_pile_known=pile)
    down, known = pools(obs)
    assert known == Counter({1: 2, 4: 1, 11: 3})
    assert down == Counter(UNSEEN) - Counter(pile)
    assert down[11] == 7 and down[1] == 8 and down[4] == 9
    assert draw_pile_cards(obs) == known and face_down_cards(obs) == down


def test_an_empty_draw_pile_is_drawn_from_the_discard_pile_but_its_top() -> None:
    obs = table(draw_pile_size=0)
    assert draw_pile_cards(obs) == Counter({3: 1, 5: 3})
    assert face_down_cards(obs) == Counter(UNSEEN)


def test_a_known_pile_holding_a_seen_card_is_refused() -> None:
    with pytest.raises(ValueError, match="inconsistent"):
        pools(table(draw_pile_size=10, draw_pile_known=[3] * 10))  # only 9 unseen 3s


def test_the_expected_bot_prices_its_cards_from_those_pools() -> None:
    bot = make_bot("expected", 1)
    assert isinstance(bot, ExpectedBot)
    by_value = [UNSEEN[v] for v in range(-2, 13)]
    down, draw = bot.pools(table())
    assert down.tolist() == draw.tolist() == by_value
    pile = [1, 1, 4, 11, 11, 11]
    down, draw = bot.pools(table(draw_pile_size=len(pile), draw_pile_known=pile))
    assert draw.tolist() == [0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0]
    assert (down + draw).tolist() == by_value
    down, draw = bot.pools(table(draw_pile_size=0))
    assert draw.tolist() == [0, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0]
    # with counting off: the whole deck, whatever is in sight
    blind = make_bot("expected:counting=0", 1)
    assert isinstance(blind, ExpectedBot)
    down, draw = blind.pools(table())
    assert down.tolist() == draw.tolist() == [5, 10, 15] + [10] * 12
    assert isinstance(down, np.ndarray)
