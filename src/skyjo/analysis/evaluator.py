"""The coach's evaluator: every option of a decision valued by the learned
value, from what the deciding player sees.

An option's worth is its expected round points and chance to win the game
for the player to act, by the one-ply expectimax of the `best` bot
(`skyjo.kernel.expectimax`) over the shipped learned value
(`skyjo.kernel.value`), the start of a turn at the `FULL` depth (drawing is
worth the mean, over the unseen cards, of the best placement of the card
drawn). The table it reads is built from the player's observation alone
(`best.load_observation`): face-down cards and the deck are placeholders the
expectimax never reads, so no evaluation can depend on a hidden card.

Options alike by the rules' symmetries (two face-down positions in columns
of one kind, say) have one value; `option` values any legal action, alike or
not.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from skyjo import kernel
from skyjo.bots.best import load_observation, load_value
from skyjo.kernel import expectimax, value
from skyjo.observation import Observation
from skyjo.rules import MAX_PLAYERS

#: The objective's weight of the round points against the win (points per 100
#: off the win chance): so large that options are ranked by their points, the
#: win chance breaking ties. The review's unit is the round point (RULES.md 6).
POINTS_FIRST = 1e4


@dataclass(frozen=True, slots=True)
class Worth:
    """What an option is worth to the player to act: the chance to win the game
    (0 to 1) and the expected points of the round in play (after the ender's
    penalty, RULES.md 2.10)."""

    win: float
    points: float


class Evaluator:
    """Values options and positions for the coach (see the module). `path`: a
    value file (`skyjo train`); default: the shipped one."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.net = load_value(path)
        self._work = value.work(self.net)
        self._tables, self._record, self._ints, self._win, self._pts, self._values = (
            expectimax.make_scratch(MAX_PLAYERS)
        )
        self._table = kernel.new_tables(1, MAX_PLAYERS)
        self._shown: Observation | None = None  #: the observation the table shows
        self._seats = np.zeros((MAX_PLAYERS, 2))

    def _load(self, observation: Observation) -> kernel.Tables:
        """The table showing `observation`, laid once for the calls about it (the
        searches only read it)."""
        if observation is not self._shown:
            load_observation(self._table, observation)
            self._shown = observation
        return self._table

    def options(self, observation: Observation) -> dict[int, Worth]:
        """Each option of the decision of the player to act (one action of each
        kind of alike options), with its worth."""
        t = self._load(observation)
        expectimax.decide(
            self.net, t, 0, self._tables, self._record, self._ints, self._work, self._win,
            self._pts, POINTS_FIRST, expectimax.FULL, self._values,
        )  # fmt: skip
        return {int(a): Worth(float(w), float(p)) for w, p, a in self._values.tolist() if a >= 0}

    def option(self, observation: Observation, action: int) -> Worth:
        """The worth of one legal action at the decision `options` valued last,
        for this observation (an action alike to one valued is valued now)."""
        t = self._load(observation)
        w, p = expectimax.option_value(
            self.net, t, 0, self._tables, self._record, self._ints, self._work, self._win,
            self._pts, action, self._values,
        )  # fmt: skip
        return Worth(float(w), float(p))

    def standing(self, observation: Observation) -> list[Worth]:
        """Each seat's worth at the observation's position, before its decision."""
        t = self._load(observation)
        expectimax.seat_values(
            self.net, t, 0, self._record, self._ints, self._work, self._win, self._pts, self._seats
        )
        n = observation.num_players
        return [Worth(float(w), float(p)) for w, p in self._seats[:n].tolist()]

    def known(self, observation: Observation, action: int, card: int) -> list[Worth]:
        """Each seat's worth just after the player to act plays `action` (a reveal
        or a placement) when the face-down card it turns up is `card`: the
        chance of that decision resolved (for a face-up position `card` is
        not read)."""
        t = self._load(observation)
        expectimax.known_values(
            self.net, t, 0, self._tables, self._record, self._ints, self._work, self._win,
            self._pts, action, card, self._seats,
        )  # fmt: skip
        n = observation.num_players
        return [Worth(float(w), float(p)) for w, p in self._seats[:n].tolist()]
