"""The `basic` bot: the strongest public rule of thumb for Skyjo, played exactly.

The rule:

1. Take the discard when it is lower than the bot's highest face-up card, or
   at most 5. Exchange it with that highest face-up card when it is lower than
   it, otherwise with a face-down card.
2. Otherwise draw. Keep the drawn card when it is lower than the highest
   face-up card, or below 5: exchange it with the highest face-up card when it
   is lower than it, otherwise with a face-down card.
3. Otherwise discard the drawn card and turn up a face-down card.

Where the rule is silent the bot chooses simply, with its seeded random
generator: the two opening cards are two random positions, "a face-down card"
is a random face-down card, and equal highest face-up cards are chosen among
at random. It never looks at columns, the other players or the round's end.
"""

from __future__ import annotations

import random

from skyjo.engine import DRAW, FLIP, NEXT_ROUND, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.observation import FACE_DOWN, FACE_UP, Observation
from skyjo.rules import GRID_SIZE


class BasicBot:
    """Take or keep a card lower than the highest face-up card or low; else flip."""

    name = "basic"

    #: The discard is taken at or below this value (rule 1).
    take_at_most = 5
    #: A drawn card is kept below this value (rule 2).
    keep_below = 5

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> int:
        obs = observation
        if obs.phase == Phase.ROUND_OVER:
            return NEXT_ROUND
        me = obs.viewer
        cards, status = obs.cards[me], obs.status[me]
        down = [k for k in range(GRID_SIZE) if status[k] == FACE_DOWN]
        if obs.phase == Phase.REVEAL:
            return REVEAL + self._rng.choice(down)
        up = [k for k in range(GRID_SIZE) if status[k] == FACE_UP]
        highest = max((v for k in up if (v := cards[k]) is not None), default=None)
        held = obs.held
        if held is None:  # rule 1, or draw
            top = obs.discard_pile[-1] if obs.discard_pile else None
            if top is not None and (
                (highest is not None and top < highest) or top <= self.take_at_most
            ):
                return TAKE_DISCARD
            return DRAW
        if highest is not None and held < highest:  # exchange with the highest face-up card
            return SWAP + self._rng.choice([k for k in up if cards[k] == highest])
        if obs.source == "deck" and held >= self.keep_below and down:  # rule 3
            return FLIP + self._rng.choice(down)
        if down:  # a taken discard at most 5, or a drawn card below 5
            return SWAP + self._rng.choice(down)
        # No face-down card left (never at the start of a turn): the highest face-up card.
        assert highest is not None
        return SWAP + self._rng.choice([k for k in up if cards[k] == highest])
