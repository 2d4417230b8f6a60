"""The `best` bot: a one-ply expectimax over a learned value of the public
state, guarding the `expected` bot's choice.

    best                          the shipped value, skyjo/bots/data/value.npz
    best:path=my-value.npz        a value file of your own (`skyjo train`)
    best:depth=full,margin=0      a deeper search of the draw, no guard

At each decision the bot values every option by the learned value
(`skyjo.kernel.value`: each seat's chance to win the game and its expected
round points, from what every seat sees) of the states it leads to, each
card value that chance may bring weighted by its count among the unseen
cards (`skyjo.kernel.expectimax`; Skyjo has no private information that
matters here, so that belief is exact). It plays the `expected` bot's
choice (its prior) unless an option's chance to win is higher by more than
`margin`: the value decides where it sees a clear difference, the prior's
exact card arithmetic everywhere else. Its opening reveals are the value's.
After `selfplay.PATIENCE` turns of its own in a round it plays the prior's
choice, which hurries to end the round (as in the self-play it learned from).

`options(observation)` is the values per option, for the coach and any
outside tool: each legal option's (or one of each kind of alike options)
expected round points and chance to win for the player to act.

The value file (format `skyjo-value/1`, `skyjo.kernel.value.load`) is read
once per process for each path; playing needs NumPy and Numba only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from skyjo import kernel
from skyjo.bots.base import BotError
from skyjo.bots.determinize import Sampler
from skyjo.bots.expected import ExpectedBot
from skyjo.engine import Phase
from skyjo.kernel import expectimax, selfplay, value
from skyjo.observation import Observation
from skyjo.rules import MAX_PLAYERS

#: How much more chance to win an option must promise than the prior's choice.
MARGIN = 0.03
DEPTHS = {"shallow": expectimax.SHALLOW, "full": expectimax.FULL}


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One option of a decision, for the player to act: its first action (the
    engine's id), its chance to win the game and its expected round points."""

    action: int
    win: float
    points: float


@lru_cache(maxsize=8)
def _load(path: str, mtime: float) -> value.Net:
    try:
        return value.load(Path(path))[0]
    except ValueError as error:
        raise BotError(str(error)) from None


def load_value(path: str | os.PathLike[str] | None = None) -> value.Net:
    """The value network of a file (default: the shipped one), read once per process."""
    resolved = Path(path or value.SHIPPED).expanduser().resolve()
    try:
        mtime = resolved.stat().st_mtime
    except OSError as error:
        raise BotError(f"cannot read value file {resolved}: {error.strerror}") from None
    return _load(str(resolved), mtime)


def load_observation(t: kernel.Tables, observation: Observation) -> kernel.Tables:
    """Table 0 of `t` showing what the observation shows; every face-down
    card and the draw pile hold placeholders that the expectimax never reads."""
    sampler = Sampler(observation)
    kernel.load_state(t, 0, sampler.state(np.array(sampler.pool), 0))
    return t


class BestBot:
    """See the module. Options: `path` (a value file), `depth` (`shallow` or
    `full`: how the start of a turn values a draw, `skyjo.kernel.expectimax`),
    `margin` (how much more chance to win than the prior's choice an option
    must promise; a negative margin: no guard), `points` (round points per
    100 taken off the win chance in the objective; 0: the win alone)."""

    name = "best"

    def __init__(
        self,
        seed: int,
        path: str | None = None,
        depth: str = "shallow",
        margin: float = MARGIN,
        points: float = 0.0,
    ) -> None:
        if depth not in DEPTHS:
            raise ValueError(f"depth must be one of {', '.join(DEPTHS)}, not {depth!r}")
        for option, number in {"margin": margin, "points": points}.items():
            if isinstance(number, bool) or not isinstance(number, int | float):
                raise ValueError(f"{option} must be a number, not {number!r}")
        self.net = load_value(path)
        self._work = value.work(self.net)
        self._depth = DEPTHS[depth]
        self._margin = float(margin)
        self._weight = float(points)
        self._prior = ExpectedBot(seed)
        self._tables, self._record, self._ints, self._win, self._pts, self._values = (
            expectimax.make_scratch(MAX_PLAYERS)
        )
        self._table = kernel.new_tables(1, MAX_PLAYERS)
        self._round, self._turns = -1, 0

    def choose(self, observation: Observation) -> int:
        """The chosen legal action for the bot's turn."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        prior = -1
        if observation.phase != Phase.REVEAL:
            prior = self._prior.choose(observation)  # asked every turn: it counts them
            if observation.held is None:
                if observation.round != self._round:
                    self._round, self._turns = observation.round, 0
                self._turns += 1
            if self._turns > selfplay.PATIENCE:
                return prior  # it hurries to end a long round
        t = self._load(observation)
        best = self._decide(t)
        if self._margin >= 0 and prior >= 0 and prior != best:
            best = expectimax.guarded_choice(
                self.net, t, 0, self._tables, self._record, self._ints, self._work,
                self._win, self._pts, self._weight, self._values, best, prior, self._margin,
            )  # fmt: skip
        assert best in legal
        return int(best)

    def options(self, observation: Observation) -> list[OptionValue]:
        """Each option of the player to act's decision (one of each kind of
        alike options, by its lowest action id), with its chance to win and
        expected round points, best first."""
        if not observation.legal_actions or observation.phase in (
            Phase.ROUND_OVER,
            Phase.GAME_OVER,
        ):
            return []
        t = self._load(observation)
        self._decide(t)
        found = [
            OptionValue(int(a), float(w), float(p)) for w, p, a in self._values.tolist() if a >= 0
        ]
        return sorted(found, key=lambda o: (-(o.win - self._weight * o.points / 100), o.action))

    def _load(self, observation: Observation) -> kernel.Tables:
        return load_observation(self._table, observation)

    def _decide(self, t: kernel.Tables) -> int:
        action = expectimax.decide(
            self.net, t, 0, self._tables, self._record, self._ints, self._work, self._win,
            self._pts, self._weight, self._depth, self._values,
        )  # fmt: skip
        return int(action)
