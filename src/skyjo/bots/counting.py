"""Card counting from a player's observation (RULES.md 1).

Every card the player cannot see is somewhere among the face-down grid cards,
the draw pile and, just after another player drew, that player's hand. What
it can see: the face-up cards of every grid (cleared columns excluded: their
cards lie on the discard pile, or were reshuffled into the draw pile), the
discard pile, and a card in hand that was taken from the discard pile or that
it drew itself.

After a reshuffle (RULES.md 2.7) the draw pile is made of cards that were all
face up on the discard pile, so a player with a good memory knows which
values it holds (`Observation.draw_pile_known`, another player's freshly
drawn card counted as still in it): the unseen cards then fall into two
pools, the draw pile's (`draw_pile_cards`) and the face-down cards'
(`face_down_cards`, the rest). Before any reshuffle of the round both are
all the unseen cards.
"""

from __future__ import annotations

from collections import Counter

from skyjo.observation import CLEARED, FACE_UP, Observation
from skyjo.rules import CARD_COUNTS


def seen_cards(observation: Observation) -> Counter[int]:
    """The cards the player can see now, each counted once."""
    seen: Counter[int] = Counter(observation.discard_pile)
    for cards, status in zip(observation.cards, observation.status, strict=True):
        seen.update(v for v, s in zip(cards, status, strict=True) if s == FACE_UP)
    if observation.held is not None:
        seen[observation.held] += 1
    return seen


def unseen_cards(observation: Observation) -> Counter[int]:
    """The 150 cards less the seen ones: the pool the hidden cards come from."""
    unseen = Counter(CARD_COUNTS)
    unseen.subtract(seen_cards(observation))
    return +unseen


def pools(observation: Observation) -> tuple[Counter[int], Counter[int] | None]:
    """The unseen cards split as the player knows them: the face-down grid
    cards' pool, and the draw pile's (with another player's freshly drawn
    card) when it is known after a reshuffle, else None (one pool for all).

    Raises ValueError when the known draw pile holds a card that is not unseen
    (an observation no game can give)."""
    unseen = unseen_cards(observation)
    if observation.draw_pile_known is None:
        return unseen, None
    pile = Counter(observation.draw_pile_known)
    unseen.subtract(pile)
    if any(n < 0 for n in unseen.values()):
        raise ValueError(
            "inconsistent observation: the known draw pile holds cards that are seen elsewhere"
        )
    return +unseen, pile


def face_down_cards(observation: Observation) -> Counter[int]:
    """The pool a face-down grid card comes from: the unseen cards, less the
    known draw pile after a reshuffle."""
    return pools(observation)[0]


def draw_pile_cards(
    observation: Observation, split: tuple[Counter[int], Counter[int] | None] | None = None
) -> Counter[int]:
    """The pool the next card drawn comes from: the known draw pile after a
    reshuffle, the discard pile but its top when the draw pile is empty (a
    draw reshuffles it first), else every unseen card. `split` is
    `pools(observation)` when already computed (then returned as it is, not
    copied, when it is the answer)."""
    if observation.draw_pile_size == 0:
        return Counter(observation.discard_pile[:-1])
    down, pile = pools(observation) if split is None else split
    return down if pile is None else pile


def hidden_places(observation: Observation) -> int:
    """How many cards the player cannot see: face-down grid cards, the draw
    pile, and another player's freshly drawn card."""
    face_down = sum(s != FACE_UP and s != CLEARED for status in observation.status for s in status)
    in_hand = observation.source == "deck" and observation.held is None
    return face_down + observation.draw_pile_size + in_hand
