"""The `expected` bot: one-turn decisions on the exact expected score of a grid.

Strategy (the valuation itself is `skyjo.kernel.valuation`, compiled):

- exact card counting: the unseen cards are the 150 less every card in sight
  (face-up grid cards, the discard pile, which holds the removed columns, the
  card in hand); after a reshuffle the known draw pile is a pool of its own
  for drawn cards, the rest for face-down cards (`skyjo.bots.counting`). A
  card is priced from its pool: its mean and the exact chance of each value;
- a placement is worth the change of the grid's expected final score,
  column clears included: a pair over a face-down card clears with the
  chance of that value, a card over two face-down ones with the chance that
  both have it (about that chance squared);
- a one-draw look-ahead: a grid is also worth what the next card drawn is
  expected to save (`lookahead` times, for each value with its chance, its
  best improvement), which is what makes turning a card up worth something
  and keeps a pair of high cards alive;
- beyond the next card, the potential of equal cards: a pair (or one card
  over two face-down ones) is worth `pairs` (`singles`) times the chance of
  meeting its third card (both missing cards) in the turns the round should
  still last, times what clearing the column would remove;
- taking the discard is compared with the exact expectation of drawing: for
  each value of the draw pool with its chance, the best of every exchange
  and every discard-and-flip; the discard is taken only when it improves the
  grid;
- denial: the card each move leaves on the discard pile costs `denial` times
  what it would save the next player beyond a draw, shared among the others;
- ending the round (turning up one's last card) is priced by the score with
  the ender's penalty (RULES.md 2.10), doubled with the chance that someone
  else's likely score (face-down cards at the pool's mean, less what their
  last turn should save) is as low, less `end_others` times what the others
  would have saved by playing on; and, with `tempo`, a player nearest to
  ending who gains less per turn than the others prefers moves that bring
  the end nearer. In its last turn after another player ended, it minimises
  its expected score, counting the chance of doubling the ender;
- never an exchange that changes nothing (taking a discarded 2 to put it in
  place of a face-up 2): that let two bots stall a round forever. After
  `patience` turns in a round, no card, drawn or taken, is placed where it
  leaves the grid no better (a drawn one is discarded and a card turned up
  instead), so that two bots cannot trade cards back and forth forever.

Every idea has an option that switches it off, for the ablation in docs/bots.md
(`counting=0`: the whole deck's counts instead of the unseen cards;
`clears=0`, `lookahead=0`, `pairs=0,singles=0`, `exact_draw=0`: drawing
priced as the grid less one card's expected saving, `denial=0`, `ending=0`:
an ending priced at its raw score, `tempo=0`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np

from skyjo.bots.base import Bot
from skyjo.bots.counting import draw_pile_cards, pools
from skyjo.engine import NEXT_ROUND, REVEAL, TAKE_DISCARD, Phase
from skyjo.kernel import valuation as va
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation
from skyjo.rules import CARD_COUNTS, COLS, GRID_SIZE, VARIANT

_DECK_COUNTS = np.array([CARD_COUNTS[v + va.LOWEST] for v in range(va.VALUES)], np.int64)


def counts(cards: Counter[int]) -> np.ndarray:
    """A pool as `skyjo.kernel.valuation` takes it: the count of each value."""
    out = np.zeros(va.VALUES, np.int64)
    for value, count in cards.items():
        if count > 0:
            out[value - va.LOWEST] = count
    return out


def table(obs: Observation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The observation's grids as arrays: cells (face-down ones 0), and per
    seat the bitmasks of face-down and of cleared positions."""
    n = obs.num_players
    cells = np.zeros((n, GRID_SIZE), np.int64)
    hidden = np.zeros(n, np.int64)
    cleared = np.zeros(n, np.int64)
    for p, (values, status) in enumerate(zip(obs.cards, obs.status, strict=True)):
        h = c = 0
        for k, s in enumerate(status):
            if s == FACE_UP:
                cells[p, k] = values[k]
            elif s == FACE_DOWN:
                h |= 1 << k
            elif s == CLEARED:
                c |= 1 << k
        hidden[p], cleared[p] = h, c
    return cells, hidden, cleared


class ExpectedBot:
    """One-turn decisions on the exact expected score of a grid (see the
    module's description). Options (`skyjo.kernel.valuation.Options` holds
    their defaults; `counting` and `reveal_same_column` are the bot's own):

    - `lookahead`: weight of the one-draw look-ahead (0: none; 1.25 by default);
    - `pairs`, `singles`: weights of the potential of a pair, of one card over
      two face-down ones; `see_rate`: cards of a value it expects to be
      offered per turn, per copy unseen; `turns_rate`: turns left per
      face-down card of the player nearest to ending;
    - `down_bias`: points added to the mean for its own face-down cards;
    - `counting`, `clears`, `exact_draw`, `ending`: 1 on, 0 off;
    - `denial`: weight of what a discarded card gives the next player;
    - `end_others`: weight of the others' gain cut short by ending the round;
    - `spread`: spread (points) of what another player's last turn changes;
    - `tempo`: weight of ending sooner when the others gain more per turn;
    - `patience`: its turns in a round before it stops placing a card where
      it leaves its grid no better;
    - `reveal_same_column`: turn up the two opening cards in one column;
    - `flip_bonus`: points a discard-and-flip is credited beyond its expected
      score (0, off: an experiment; docs/bots.md);
    - `down_cost`: points each of its own face-down cards costs, so that moves
      that turn cards up are preferred (0, off: an experiment; docs/bots.md).
    """

    name = "expected"

    def __init__(
        self, seed: int, counting: int = 1, reveal_same_column: int = 0, **options: Any
    ) -> None:
        self._rng = random.Random(seed)
        self.counting = counting
        self.reveal_same_column = reveal_same_column
        settings = va.Options(**options)
        self.patience = settings.patience
        self._params = settings.params()
        self._hurried = settings.params(hurried=True)
        self._round = -1
        self._turns = 0  # its turns so far in the round

    def choose(self, observation: Observation) -> int:
        obs = observation
        if obs.phase == Phase.ROUND_OVER:
            return NEXT_ROUND
        if obs.phase == Phase.REVEAL:
            return self._reveal(obs)
        if obs.held is None:
            if obs.round != self._round:
                self._round, self._turns = obs.round, 0
            self._turns += 1
        return self.decision(obs)[0]

    def options(self) -> np.ndarray:
        """A copy of its options as `skyjo.kernel.valuation.decide` takes them
        (`params`, indexed by LOOKAHEAD...), before a long round hurries it."""
        return self._params.copy()

    def decision(self, obs: Observation) -> tuple[int, np.ndarray]:
        """The action `choose` plays at a decision of a turn (not the opening
        reveal) with the values it weighed (see `skyjo.kernel.valuation.decide`:
        at the start of a turn, taking the discard's and drawing's), without
        counting a turn: a caller that uses it after `choose` in the same
        decision gets the same choice."""
        params = self._hurried if self._turns > self.patience else self._params
        out = np.zeros(3)
        return int(va.decide(*self.arguments(obs), params, out)), out

    def pools(self, obs: Observation) -> tuple[np.ndarray, np.ndarray]:
        """The counts per value of the pool a face-down card comes from and of
        the pool the next card drawn comes from (the whole deck's counts for
        both with `counting=0`)."""
        if not self.counting:
            return _DECK_COUNTS, _DECK_COUNTS
        split = pools(obs)
        down = counts(split[0])
        drawn = draw_pile_cards(obs, split)
        draw = down if drawn is split[0] else counts(drawn)
        if not draw.any():  # nothing left to draw from (never in a game): the other pool
            draw = down
        if not down.any():
            down = draw
        return down, draw

    def arguments(self, obs: Observation) -> tuple[Any, ...]:
        """The arguments of `skyjo.kernel.valuation.choose` for this observation,
        but the options: the table, the seat, the ender, the penalty, the pools,
        the discard's top (when it may be taken), the card in hand, whether drawn."""
        me = obs.viewer
        assert me is not None
        cells, hidden, cleared = table(obs)
        down, draw = self.pools(obs)
        top = va.NO_CARD
        if obs.held is None and TAKE_DISCARD in obs.legal_actions and obs.discard_pile:
            top = obs.discard_pile[-1]
        return (
            cells,
            hidden,
            cleared,
            me,
            -1 if obs.ender is None else obs.ender,
            VARIANT["ender_penalty"].code(obs.rules.ender_penalty),
            down,
            draw,
            top,
            va.NO_CARD if obs.held is None else obs.held,
            obs.source == "deck",
        )

    def _reveal(self, obs: Observation) -> int:
        """Two random cards, in different columns (or the same column when
        `reveal_same_column` is set)."""
        status = obs.status[obs.viewer]
        down = [k for k in range(GRID_SIZE) if status[k] == FACE_DOWN]
        up_columns = {k % COLS for k in range(GRID_SIZE) if status[k] == FACE_UP}
        if self.reveal_same_column:
            choice = [k for k in down if k % COLS in up_columns]
        else:
            choice = [k for k in down if k % COLS not in up_columns]
        return REVEAL + self._rng.choice(choice or down)


def make_expected(seed: int, **options: Any) -> Bot:
    """The `expected` bot of a spec: the registry's factory, by which
    `skyjo.batch` knows the bot it plays in compiled code."""
    return ExpectedBot(seed, **options)
