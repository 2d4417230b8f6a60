"""Card counting from a player's observation (RULES.md 1).

Every card the player cannot see is somewhere among the face-down grid cards,
the draw pile and, just after another player drew, that player's hand. What
it can see: the face-up cards of every grid (cleared columns excluded: their
cards lie on the discard pile, or were reshuffled into the draw pile), the
discard pile, and a card in hand that was taken from the discard pile or that
it drew itself.
"""

from __future__ import annotations

from collections import Counter

from skyjo.engine import CLEARED, FACE_UP, Observation
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


def hidden_places(observation: Observation) -> int:
    """How many cards the player cannot see: face-down grid cards, the draw
    pile, and another player's freshly drawn card."""
    face_down = sum(s != FACE_UP and s != CLEARED for status in observation.status for s in status)
    in_hand = observation.source == "deck" and observation.held is None
    return face_down + observation.draw_pile_size + in_hand
