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
`State`; the search deals many from one `Sampler`, with the same `deal`, and
lays each on a table of the rules kernel (`Sampler.load`) to play it out.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from skyjo import kernel
from skyjo.bots.counting import hidden_places, pools
from skyjo.engine import DRAW, REVEAL, TAKE_DISCARD, Game, Phase, State, reshuffle, step
from skyjo.events import History
from skyjo.kernel import Tables
from skyjo.kernel.playouts import lay_world
from skyjo.observation import CLEARED, FACE_DOWN, Observation
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
    which samples a world uniformly; `state` lays out any list made so as an
    engine state, `load` on a table of the rules kernel.
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
                elif s == CLEARED:  # never read (a JSON form without cleared_columns has no value)
                    grid.append(0 if value is None else value)
                    cleared |= 1 << k
                else:
                    assert value is not None
                    grid.append(value)
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
        self._seats = np.array([seat for seat, _ in self.slots], dtype=np.int64)
        self._positions = np.array([k for _, k in self.slots], dtype=np.int64)
        self._template: Tables | None = None

    def deal(self, gen: np.random.Generator) -> np.ndarray:
        """A uniformly random world's `cards`: each part of `pool` shuffled by `gen`."""
        arrays = self._arrays
        if len(arrays) == 1:
            return gen.permutation(arrays[0])
        return np.concatenate((gen.permutation(arrays[0]), gen.permutation(arrays[1])))

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

    def _deal(self, cards: list[int]) -> tuple[list[list[int]], int | None, int]:
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

    def state(self, cards: Any, key: int) -> State:
        """The world dealt from `cards` (laid out as `pool` is; a sequence or an
        array) as an engine `State`; `key` seeds its later shuffles."""
        obs = self.observation
        cards = np.asarray(cards).tolist()
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

    def load(self, t: Tables, b: int, cards: np.ndarray) -> None:
        """Lay the world dealt from `cards` (laid out as `pool` is) on table b of
        the kernel tables `t`, in the turns of its round, to be played out: the
        observation's table (rules, totals, grids, piles, the player to act and
        the ender) with the face-down places, an unseen freshly drawn card and
        the draw pile filled from `cards`; its TURNS slot is 0, its RESHUFFLES
        slot 1 after a reshuffle in the round (as `state` says), else 0."""
        if self._template is None:
            self._template = self._make_template()
        lay_world(self._template, t, b, self._seats, self._positions, cards, self.deal_held)

    def _make_template(self) -> Tables:
        """The table of `load` with nothing dealt: 0 at the face-down places, no
        draw pile, no card in hand when another player's drawn card is unseen."""
        obs = self.observation
        n = obs.num_players
        t = kernel.new_tables(1, n, players=n, rules=obs.rules)
        t.cells[0] = np.array(self.grids, dtype=np.int8)
        t.hidden[0], t.cleared[0] = self.hidden, self.cleared
        t.totals[0] = obs.totals
        t.discard[0, : len(obs.discard_pile)] = obs.discard_pile
        t.discard_len[0] = len(obs.discard_pile)
        t.draw_top[0] = t.draw_end[0] = 0
        t.held[0] = kernel.NO_CARD if obs.held is None else obs.held
        t.source[0] = self.source
        t.player[0] = obs.current_player
        t.ender[0] = -1 if obs.ender is None else obs.ender
        t.phase[0] = int(Phase.FINAL_TURNS if obs.ender is not None else Phase.TURNS)
        t.round[0] = obs.round
        t.starter[0] = -1 if obs.starter is None else obs.starter
        t.reshuffles[0] = len(self.parts) - 1  # one, as `state` says, when there were any
        if obs.results:
            last = obs.results[-1]
            t.last_ender[0] = last.ender
            t.raw[0], t.scores[0], t.doubled[0] = last.raw, last.scores, last.doubled
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
