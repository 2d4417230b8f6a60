"""The `greedy` bot: a few fixed thresholds, no look-ahead.

Strategy. It turns up two random cards in different columns. On its turn it
takes the discard when the card is low (at most `low`, 3 by default) or when it
completes a column or joins a face-up card of the same value whose column holds
a higher known card to replace; otherwise it draws. A held card goes, in this
order of preference: where it completes a column of three equal cards (when
that removes more than it costs), next to an equal card in place of a higher
one, in place of its highest known card when that is higher than the held card,
onto a face-down card when the held card is low; otherwise a drawn card is
discarded and a face-down card turned up. Every remaining choice (which
face-down card, equal highest cards) is made by its seeded random generator.
"""

from __future__ import annotations

import random

from skyjo.engine import DRAW, FLIP, NEXT_ROUND, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.observation import FACE_DOWN, FACE_UP, Observation
from skyjo.rules import COLS, GRID_SIZE, ROWS

#: The grid positions of each column, top to bottom.
COLUMNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c + COLS * r for r in range(ROWS)) for c in range(COLS)
)
#: What a face-down card is assumed to be worth when deciding whether a column is worth completing.
_FACE_DOWN_GUESS = 5


class GreedyBot:
    """Threshold rules: take or keep low cards, replace the highest known card."""

    name = "greedy"

    def __init__(self, seed: int, low: int = 3) -> None:
        self._rng = random.Random(seed)
        self.low = low

    def choose(self, observation: Observation) -> int:
        legal = observation.legal_actions
        if observation.phase == Phase.ROUND_OVER:
            return NEXT_ROUND
        if observation.phase == Phase.REVEAL:
            return self._reveal(observation)
        if observation.held is None:
            return self._source(observation)
        action = self._placement(observation, observation.held)
        return action if action in legal else self._rng.choice(legal)

    # --- the opening ------------------------------------------------------------

    def _reveal(self, obs: Observation) -> int:
        """A random face-down card, in a column with no face-up card if possible."""
        me = obs.viewer
        status = obs.status[me]
        down = [k for k in range(GRID_SIZE) if status[k] == FACE_DOWN]
        used = {k % COLS for k in range(GRID_SIZE) if status[k] == FACE_UP}
        fresh = [k for k in down if k % COLS not in used]
        return REVEAL + self._rng.choice(fresh or down)

    # --- a turn -----------------------------------------------------------------

    def _source(self, obs: Observation) -> int:
        """Take the discard when it is low or fits a column, else draw."""
        top = obs.discard_pile[-1] if obs.discard_pile else None
        if top is not None and TAKE_DISCARD in obs.legal_actions:
            me = obs.viewer
            cards, status = obs.cards[me], obs.status[me]
            if (
                top <= self.low
                or _completing(cards, status, top) is not None
                or _extending(cards, status, top) is not None
            ):
                return TAKE_DISCARD
        return DRAW

    def _placement(self, obs: Observation, held: int) -> int:
        """Where the held card goes (see the module docstring for the order)."""
        me = obs.viewer
        cards, status = obs.cards[me], obs.status[me]
        down = [k for k in range(GRID_SIZE) if status[k] == FACE_DOWN]
        target = _completing(cards, status, held)
        if target is None:
            target = _extending(cards, status, held)
        if target is not None:
            return SWAP + target
        up = [k for k in range(GRID_SIZE) if status[k] == FACE_UP]
        if up:
            highest = max(_value(cards, k) for k in up)
            if highest > held:
                return SWAP + self._rng.choice([k for k in up if cards[k] == highest])
        if down and held <= self.low:
            return SWAP + self._rng.choice(down)
        if down and obs.source == "deck":
            return FLIP + self._rng.choice(down)
        if down:
            return SWAP + self._rng.choice(down)
        highest = max(_value(cards, k) for k in up)
        return SWAP + self._rng.choice([k for k in up if cards[k] == highest])


def _value(cards: tuple[int | None, ...], k: int) -> int:
    value = cards[k]
    assert value is not None
    return value


def _completing(cards: tuple[int | None, ...], status: tuple[int, ...], held: int) -> int | None:
    """The position where `held` makes a column of three equal face-up cards, when
    clearing it removes more than the card there is worth (a face-down card
    counts as 5)."""
    for column in COLUMNS:
        if status[column[0]] not in (FACE_UP, FACE_DOWN):
            continue  # cleared
        equal = [k for k in column if status[k] == FACE_UP and cards[k] == held]
        if len(equal) == 2:
            (other,) = (k for k in column if k not in equal)
            worth = cards[other] if status[other] == FACE_UP else _FACE_DOWN_GUESS
            assert worth is not None
            if 2 * held + worth > 0:
                return other
    return None


def _extending(cards: tuple[int | None, ...], status: tuple[int, ...], held: int) -> int | None:
    """A face-up card higher than `held` in a column holding a face-up `held`."""
    best = None
    for column in COLUMNS:
        if not any(status[k] == FACE_UP and cards[k] == held for k in column):
            continue
        for k in column:
            value = cards[k]
            if (
                status[k] == FACE_UP
                and value is not None
                and value > held
                and (best is None or value > _value(cards, best))
            ):
                best = k
    return best
