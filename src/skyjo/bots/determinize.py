"""Sampling a full game state consistent with what one player sees.

In Skyjo nobody knows a face-down card, its owner included, nor the order of
the draw pile: the only private fact is the card a player has just drawn,
until it is placed. So, for the player about to act, every arrangement of the
unseen cards (`unseen_cards`) over the face-down grid positions, the draw
pile and another player's freshly drawn card is equally likely, and a
uniform shuffle of that pool samples the true posterior. After a reshuffle in
the round, the draw pile's values are known (`Observation.draw_pile_known`:
they were all face up on the discard pile), so there are two pools, each
shuffled on its own: the known cards make the draw pile (and another
player's freshly drawn card), the rest of the unseen cards the face-down
grid cards (`counting.pools`). `determinize` builds such a world as an engine
`State`; the search deals many from one `Sampler`, with the same `deal`.
"""

from __future__ import annotations

import random

import numpy as np

from skyjo.bots.counting import hidden_places, pools
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
    State,
    reshuffle,
    step,
)
from skyjo.rules import COLS, GRID_SIZE

_SOURCES = {"deck": DRAW, "discard": TAKE_DISCARD, None: -1}


def determinize(observation: Observation, rng: random.Random) -> State:
    """A full `State` consistent with `observation`, the unseen cards dealt
    uniformly at random (from `rng`) to every face-down grid position, the
    draw pile (in a random order) and, when another player has just drawn, to
    that player's hand; after a reshuffle in the round, the draw pile and
    that hand from the known draw pile, the face-down positions from the
    other unseen cards (see `Sampler`).

    Cleared positions keep their values and cleared bits. The state's `game`
    carries the observation's rules, round, starter, totals and the results
    of the past rounds (enders, raw and final scores); what the observation
    does not tell is made up and harmless for the rest of the round: the seed
    (None), the decks dealt (none), the reshuffles (none in past rounds; in
    this one, after a reshuffle, a single one, of the draw pile as dealt with
    another player's freshly drawn card on top), and the key of later
    shuffles (drawn from `rng`). `history` is empty.
    """
    sampler = Sampler(observation)
    gen = np.random.Generator(np.random.PCG64(rng.getrandbits(64)))
    return sampler.state(sampler.deal(gen), rng.getrandbits(63))


class Sampler:
    """The fixed part of an observation, to deal many worlds from it fast.

    A world is dealt from `cards`, a list of the unseen cards in dealing
    order: its first cards fill the face-down positions (`slots`: seat by
    seat, row by row), the next one another player's freshly drawn card if
    there is one (`deal_held`), and the rest make the draw pile, top first.
    `pool` is such a list, each of its `parts` sorted: one part (every unseen
    card) before any reshuffle of the round, else two (the face-down cards'
    pool, then the known draw pile's). `deal` shuffles each part on its own,
    which samples a world uniformly; `state` and `table` lay out any list
    made so.
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        down, pile = pools(observation)
        parts = [sorted(down.elements())]
        if pile is not None:
            parts.append(sorted(pile.elements()))
        #: each part of the pool, shuffled apart by `deal`
        self.parts: tuple[tuple[int, ...], ...] = tuple(tuple(p) for p in parts)
        self.pool: tuple[int, ...] = tuple(v for p in self.parts for v in p)
        self._arrays = [np.array(p, dtype=np.int64) for p in self.parts]
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
        if len(self.pool) != hidden_places(observation):
            raise ValueError(
                f"inconsistent observation: {len(self.pool)} unseen cards for "
                f"{hidden_places(observation)} places to fill"
            )
        if pile is not None and len(self.parts[0]) != len(self.slots):
            raise ValueError(
                f"inconsistent observation: {len(self.parts[0])} unseen cards off the "
                f"known draw pile for {len(self.slots)} face-down cards"
            )
        #: where the draw pile starts in `cards`
        self.pile_start = len(self.slots) + self.deal_held

    def deal(self, gen: np.random.Generator) -> list[int]:
        """A uniformly random world's `cards`: each part of `pool` shuffled by `gen`."""
        arrays = self._arrays
        if len(arrays) == 1:
            return gen.permutation(arrays[0]).tolist()
        return [*gen.permutation(arrays[0]).tolist(), *gen.permutation(arrays[1]).tolist()]

    def drawable(self) -> list[int]:
        """The values the player to act (holding no card) may draw, sorted: those
        of the draw pile's pool, or of the discard pile but its top when the draw
        pile is empty (a draw reshuffles it first)."""
        obs = self.observation
        if obs.draw_pile_size == 0:
            return sorted(set(obs.discard_pile[:-1]))
        return sorted(set(self.parts[-1]))  # every unseen card, or the known pile's

    def drawn(self, card: int) -> State:
        """A world (the sorted `pool`, shuffles keyed 0) in which the player to
        act has just drawn `card`, one of `drawable()`."""
        obs = self.observation
        cards = list(self.pool)
        if obs.draw_pile_size == 0:
            below = sorted(obs.discard_pile[:-1])
            below.remove(card)
            return step(reshuffle(self.state(cards, 0), [card, *below]), DRAW)
        # one pool: any copy of the card may go on top; two: one of the known pile
        start = 0 if len(self.parts) == 1 else len(self.slots)
        cards.pop(cards.index(card, start))
        cards.insert(self.pile_start, card)
        return step(self.state(cards, 0), DRAW)

    def _deal(self, cards: list[int] | tuple[int, ...]) -> tuple[list[list[int]], int | None, int]:
        """Lay `cards` on the face-down places, then in the freshly drawn hand
        when it is unseen: the grids, the held card, and how many cards that
        used (the rest is the draw pile)."""
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
        """The world dealt from `cards` (laid out as `pool` is) as an engine
        `State`; `key` seeds its later shuffles."""
        obs = self.observation
        grids, held, used = self._deal(cards)
        reshuffles: tuple[tuple[tuple[int, ...], ...], ...] = ((),) * (obs.round + 1)
        if len(self.parts) > 1:  # the round had a reshuffle: say one, of the pile as dealt
            reshuffles = (*reshuffles[:-1], (tuple(cards[len(self.slots) :]),))
        game = Game(
            rules=obs.rules,
            seed=None,
            round=obs.round,
            starter=-1 if obs.starter is None else obs.starter,
            totals=obs.totals,
            results=obs.results,
            key=key,
            decks=(),
            reshuffles=reshuffles,
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
        """The world dealt from `cards` (laid out as `pool` is; consumed) as a
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


def opening_reveal(observation: Observation, rng: random.Random) -> int:
    """A simple opening (RULES.md 2.3): a random card, then a random card of
    another column. Which cards are turned up makes no difference to what
    they are worth; cards in two columns give two columns a known card."""
    mine = observation.status[observation.viewer]
    down = [k for k in range(GRID_SIZE) if mine[k] == FACE_DOWN]
    up_columns = {k % COLS for k in range(GRID_SIZE) if mine[k] != FACE_DOWN}
    choices = [k for k in down if k % COLS not in up_columns] or down
    return REVEAL + rng.choice(choices)
