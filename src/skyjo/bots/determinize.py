"""Sampling a full game state consistent with what one player sees.

In Skyjo nobody knows a face-down card, its owner included, nor the order of
the draw pile: the only private fact is the card a player has just drawn,
until it is placed. So, for the player about to act, every arrangement of the
unseen cards (`unseen_cards`) over the face-down grid positions, the draw
pile and another player's freshly drawn card is equally likely, and a
uniform shuffle of that pool samples the true posterior. `determinize` builds
such a world as an engine `State`, ready for `step` or a fast playout.
"""

from __future__ import annotations

import random

from skyjo.bots.counting import hidden_places, unseen_cards
from skyjo.bots.rollout import DEFAULT_POLICY, Policy, Table
from skyjo.engine import (
    CLEARED,
    DRAW,
    FACE_DOWN,
    REVEAL,
    TAKE_DISCARD,
    Game,
    History,
    Observation,
    Phase,
    RoundResult,
    State,
)
from skyjo.rules import COLS, GRID_SIZE

_SOURCES = {"deck": DRAW, "discard": TAKE_DISCARD, None: -1}


def determinize(observation: Observation, rng: random.Random) -> State:
    """A full `State` consistent with `observation`, the unseen cards dealt
    uniformly at random (from `rng`) to every face-down grid position, the
    draw pile (in a random order) and, when another player has just drawn, to
    that player's hand.

    Cleared positions keep their values and cleared bits. The state's `game`
    carries the observation's rules, round, starter, totals and round scores;
    what the observation does not tell is made up and harmless for the rest
    of the round: the earlier rounds' enders (taken to be the current ender,
    or else the lowest scorer of that round), raw scores (taken equal to the
    scores), the seed (None), the decks dealt (none), and the key of later
    shuffles (drawn from `rng`). `history` is empty.
    """
    sampler = Sampler(observation)
    cards = list(sampler.pool)
    rng.shuffle(cards)
    return sampler.state(cards, rng.getrandbits(63))


class Sampler:
    """The fixed part of an observation, to deal many worlds from it fast.

    `pool` holds the unseen cards. A world is dealt from any ordering of the
    pool: its first cards fill the face-down positions (seat by seat, row by
    row), the next one another player's freshly drawn card if there is one,
    and the rest make the draw pile, top first.
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        pool = sorted(unseen_cards(observation).elements())
        if len(pool) != hidden_places(observation):
            raise ValueError(
                f"inconsistent observation: {len(pool)} unseen cards for "
                f"{hidden_places(observation)} places to fill"
            )
        self.pool: tuple[int, ...] = tuple(pool)
        #: per seat: its 12 values, 0 where face down
        self.grids: list[list[int]] = []
        #: per seat: (seat, position) of each face-down card, in dealing order
        self.slots: list[tuple[int, int]] = []
        self.hidden: list[int] = []
        self.cleared: list[int] = []
        for seat, (values, status) in enumerate(
            zip(observation.cards, observation.status, strict=True)
        ):
            grid = []
            hidden = cleared = 0
            for k, (value, s) in enumerate(zip(values, status, strict=True)):
                if s == FACE_DOWN:
                    grid.append(0)
                    hidden |= 1 << k
                    self.slots.append((seat, k))
                else:
                    assert value is not None
                    grid.append(value)
                    if s == CLEARED:
                        cleared |= 1 << k
            self.grids.append(grid)
            self.hidden.append(hidden)
            self.cleared.append(cleared)
        self.source = _SOURCES[observation.source]
        #: another player's freshly drawn card is dealt from the pool
        self.deal_held = observation.held is None and self.source == DRAW
        scores = observation.round_scores
        enders = [_guess_ender(s) for s in scores]
        if enders and observation.ender is not None and observation.phase >= Phase.ROUND_OVER:
            enders[-1] = observation.ender
        self.results = tuple(
            RoundResult(e, s, s, False) for e, s in zip(enders, scores, strict=True)
        )

    def _deal(self, cards: list[int] | tuple[int, ...]) -> tuple[list[list[int]], int | None, int]:
        """Lay `cards` (an ordering of `pool`) on the face-down places, then in
        the freshly drawn hand when it is unseen: the grids, the held card,
        and how many cards that used (the rest is the draw pile)."""
        grids = [g[:] for g in self.grids]
        for i, (seat, k) in enumerate(self.slots):
            grids[seat][k] = cards[i]
        used = len(self.slots)
        held = self.observation.held
        if self.deal_held:
            held = cards[used]
            used += 1
        return grids, held, used

    def state(self, cards: list[int] | tuple[int, ...], key: int) -> State:
        """The world dealt from `cards` (an ordering of `pool`) as an engine
        `State`; `key` seeds its later shuffles."""
        obs = self.observation
        grids, held, used = self._deal(cards)
        game = Game(
            rules=obs.rules,
            seed=None,
            round=obs.round,
            starter=-1 if obs.starter is None else obs.starter,
            totals=obs.totals,
            results=self.results,
            key=key,
            decks=(),
            reshuffles=((),) * (obs.round + 1),
        )
        return State(
            phase=int(obs.phase),
            player=obs.current_player,
            held=held,
            source=self.source,
            cells=tuple(v for g in grids for v in g),
            hidden_bits=sum(h << (GRID_SIZE * p) for p, h in enumerate(self.hidden)),
            cleared_bits=sum(c << (GRID_SIZE * p) for p, c in enumerate(self.cleared)),
            draw_pile=tuple(cards[used:]),
            draw_top=0,
            discard_pile=obs.discard_pile,
            ender=obs.ender,
            num_players=obs.num_players,
            history=History(),
            game=game,
        )

    def table(self, cards: list[int], rng: random.Random, policy: Policy = DEFAULT_POLICY) -> Table:
        """The world dealt from `cards` (an ordering of `pool`, consumed) as a
        playout `Table`, for a round in its turns; `rng` drives its reshuffles."""
        obs = self.observation
        t = Table.__new__(Table)
        t.n = obs.num_players
        grids, held, used = self._deal(cards)
        draw = cards[used:]
        draw.reverse()
        t.vals = grids
        t.hid = self.hidden[:]
        t.clr = self.cleared[:]
        t.draw = draw
        t.disc = list(obs.discard_pile)
        t.player = obs.current_player
        t.ender = -1 if obs.ender is None else obs.ender
        t.held = held
        t.source = self.source
        t.turns = 0
        t.penalty = obs.rules.ender_penalty
        t.policy = policy
        t.rng = rng
        return t


def _guess_ender(scores: tuple[int, ...]) -> int:
    """A plausible ender for a past round of which only the scores are known."""
    return scores.index(min(scores))


def opening_reveal(observation: Observation, rng: random.Random) -> int:
    """A simple opening (RULES.md 2.3): a random card, then a random card of
    another column. Which cards are turned up makes no difference to what
    they are worth; cards in two columns give two columns a known card."""
    mine = observation.status[observation.viewer]
    down = [k for k in range(GRID_SIZE) if mine[k] == FACE_DOWN]
    up_columns = {k % COLS for k in range(GRID_SIZE) if mine[k] != FACE_DOWN}
    choices = [k for k in down if k % COLS not in up_columns] or down
    return REVEAL + rng.choice(choices)
