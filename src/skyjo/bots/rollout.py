"""A fast playout of the rest of a Skyjo round, for the search bot.

Inside a sampled world (see `skyjo.bots.determinize`) every card is known, so
a playout may run on plain mutable lists rather than on the engine's
immutable `State`: a `Table` is built once from a state and played to the
end of the round by a greedy policy. The search packs it into one array
(`Table.pack`) and plays each candidate move from a copy of that, in the
compiled kernel of `skyjo.bots.fastplay`; the methods here are the policy's
reference in plain Python, which the kernel follows move for move. The policy
never peeks: it reads only what its player could see (its own face-up cards,
the card it holds, the top of the discard pile, the other grids' face-up
cards), and prices every face-down card at a constant value. So the
simulated players play as sensible humans would, not as cheats.

The policy, for the player to act:

- price each exchange of a card `h` at position k by what it saves now
  (the card there, or the expected value for a face-down one, less `h`), plus
  the whole column when it completes three of a kind, plus a bonus for making
  a pair in a column whose third card is face down (and less one for breaking
  such a pair);
- take the discard when its best exchange saves at least `take_threshold`,
  else draw, then exchange where it saves most, or discard and flip when no
  exchange saves more than `flip_value`;
- before a move that would end the round, estimate its own score and the
  lowest of the others' (face-up cards plus the expected value of their
  face-down ones, less what a last turn usually saves): a move that would
  likely be doubled is charged the doubling; a safe one earns `end_bonus`.
- on a last turn (someone else ended the round) only the points count.

After `_PATIENCE` turns per player a playout's players no longer avoid ending
the round, so that every playout ends (and after `_GIVE_UP` it is stopped, for
policies that would never end it). `PolicyBot` plays the same policy as a
bot, from an observation (a baseline: it loses to the `expected` bot).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skyjo.bots import fastplay
from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD, Observation, Phase, State
from skyjo.rules import COLS, DECK, GRID_SIZE

#: The mean of the 150 cards: what a face-down card is worth before any is seen.
MEAN_CARD = sum(DECK) / len(DECK)

_ALL = (1 << GRID_SIZE) - 1
#: For each position, the two other positions of its column.
_OTHERS = tuple(((k + COLS) % GRID_SIZE, (k + 2 * COLS) % GRID_SIZE) for k in range(GRID_SIZE))
#: For each position, the mask of its column.
_COLUMN_OF = tuple(
    (1 << (k % COLS)) | (1 << (k % COLS + COLS)) | (1 << (k % COLS + 2 * COLS))
    for k in range(GRID_SIZE)
)
#: For each 12-bit mask, the positions it holds.
_POSITIONS = tuple(tuple(k for k in range(GRID_SIZE) if m >> k & 1) for m in range(1 << GRID_SIZE))
#: For each cleared mask, the positions still in play.
_OPEN = tuple(_POSITIONS[_ALL & ~m] for m in range(1 << GRID_SIZE))
#: Turns per player after which a playout's players stop avoiding the end of
#: the round (players who all refuse to end it could play forever).
_PATIENCE = 30
#: Turns per player after which a playout stops, scored as it lies with the
#: player to act as the ender if there is none: only a policy with odd knobs
#: (say, taking every discard and never turning a card) gets there.
_GIVE_UP = 200
#: The four columns, as position triples.
_COLUMNS = tuple((c, c + COLS, c + 2 * COLS) for c in range(COLS))


@dataclass(frozen=True, slots=True)
class Policy:
    """The greedy policy's knobs, in card points (tuned by 2-player self-play
    on round scores)."""

    hidden_value: float = 4.5  #: what a face-down card is taken to be worth
    take_threshold: float = 3.5  #: take the discard when it saves at least this much
    flip_value: float = 1.5  #: what discarding the drawn card and flipping is worth
    pair_bonus: float = 3.0  #: for a pair in a column whose third card is face down
    end_margin: float = 3.0  #: end the round only this much below the others' estimate
    end_bonus: float = 0.0  #: for ending the round safely
    last_turn_gain: float = 5.0  #: what a last turn is expected to save the others


DEFAULT_POLICY = Policy()


#: A grid as the policy sees it (see `Table._analyse`): the price of each
#: position (its card, or the expected value of a face-down card, less a pair
#: bonus for breaking a pair), the positions where a given card value earns a
#: bonus (completing a column, or making a pair), the best-priced position and
#: its price, and the position to flip with what flipping it is worth.
_Grid = tuple[list[float], dict[int, list[tuple[int, float]]], float, int, int, float]


def _best(grid: _Grid, h: int) -> tuple[int, float]:
    """Where card `h` saves most in an analysed grid, and how much."""
    base, matches, best, best_k, _, _ = grid
    gain = best - h
    for k, extra in matches.get(h, ()):
        g = base[k] - h + extra
        if g > gain:
            gain, best_k = g, k
    return best_k, gain


class Table:
    """A round in play as mutable lists, for fast playouts.

    `vals[p]` holds seat p's 12 cards, `hid[p]` and `clr[p]` its face-down and
    cleared positions as 12-bit masks; `draw` is the draw pile with its top
    last (popped), `disc` the discard pile, top last. `ender` is -1 until
    someone ends the round. Reshuffles draw from `rng`.
    """

    __slots__ = (
        "clr",
        "disc",
        "draw",
        "ender",
        "held",
        "hid",
        "n",
        "penalty",
        "player",
        "policy",
        "rng",
        "source",
        "turns",
        "vals",
    )

    n: int
    vals: list[list[int]]
    hid: list[int]
    clr: list[int]
    draw: list[int]
    disc: list[int]
    player: int
    ender: int
    held: int | None
    source: int
    turns: int
    penalty: str
    policy: Policy
    rng: random.Random

    @classmethod
    def from_state(cls, state: State, rng: random.Random, policy: Policy = DEFAULT_POLICY) -> Table:
        """The table of a state in the turns of a round (phase TURNS or FINAL_TURNS)."""
        t = cls.__new__(cls)
        n = t.n = state.num_players
        cells = state.cells
        t.vals = [list(cells[GRID_SIZE * p : GRID_SIZE * p + GRID_SIZE]) for p in range(n)]
        hb, cb = state.hidden_bits, state.cleared_bits
        t.hid = [hb >> (GRID_SIZE * p) & _ALL for p in range(n)]
        t.clr = [cb >> (GRID_SIZE * p) & _ALL for p in range(n)]
        t.draw = list(state.draw_pile[state.draw_top :])
        t.draw.reverse()
        t.disc = list(state.discard_pile)
        t.player = state.player
        t.ender = -1 if state.ender is None else state.ender
        t.held = state.held
        t.source = state.source
        t.turns = 0
        t.penalty = state.game.rules.ender_penalty
        t.policy = policy
        t.rng = rng
        return t

    def copy(self, rng: random.Random) -> Table:
        """An independent copy that reshuffles from `rng`."""
        t = Table.__new__(Table)
        t.n = self.n
        t.vals = [v[:] for v in self.vals]
        t.hid = self.hid[:]
        t.clr = self.clr[:]
        t.draw = self.draw[:]
        t.disc = self.disc[:]
        t.player = self.player
        t.ender = self.ender
        t.held = self.held
        t.source = self.source
        t.turns = self.turns
        t.penalty = self.penalty
        t.policy = self.policy
        t.rng = rng
        return t

    # --- the moves -----------------------------------------------------------

    def take(self) -> None:
        """Take the top of the discard pile."""
        self.held = self.disc.pop()
        self.source = TAKE_DISCARD

    def draw_card(self) -> None:
        """Draw the top of the draw pile, reshuffling the discard pile first when
        the draw pile is empty (RULES.md 2.7)."""
        if not self.draw:
            disc = self.disc
            pile = disc[:-1]
            self.rng.shuffle(pile)
            self.draw = pile
            self.disc = disc[-1:]
        self.held = self.draw.pop()
        self.source = DRAW

    def place(self, k: int, flip: bool) -> bool:
        """Exchange the held card with position k, or discard it and flip k; clear
        a completed column; pass the turn. True when the round is over."""
        p = self.player
        vals = self.vals[p]
        held = self.held
        assert held is not None
        self.held = None
        self.source = -1
        self.turns += 1
        hid = self.hid[p] = self.hid[p] & ~(1 << k)
        if flip:
            self.disc.append(held)
        else:
            self.disc.append(vals[k])
            vals[k] = held
        a, b = _OTHERS[k]
        v = vals[k]
        if not (hid >> a & 1 or hid >> b & 1) and vals[a] == v and vals[b] == v:
            self.clr[p] |= _COLUMN_OF[k]
            self.disc += (v, v, v)
        if self.ender < 0 and not hid:
            self.ender = p
        following = p + 1 if p + 1 < self.n else 0
        self.player = following
        return following == self.ender

    def raw_scores(self) -> list[int]:
        """Every seat's raw round score once all cards are turned up (RULES.md 2.9)."""
        scores = []
        for p in range(self.n):
            vals = self.vals[p]
            clr = self.clr[p]
            score = 0
            for a, b, c in _COLUMNS:
                if clr >> a & 1:
                    continue
                va, vb, vc = vals[a], vals[b], vals[c]
                if not (va == vb == vc):
                    score += va + vb + vc
            scores.append(score)
        return scores

    # --- the policy ------------------------------------------------------------

    def play_out(self) -> list[int]:
        """Play the round to its end with the policy; the raw scores. The same as
        `play_out_reference`, move for move, but compiled (`skyjo.bots.fastplay`)."""
        return fastplay.play_out(self, _PATIENCE, _GIVE_UP)

    def pack(self) -> fastplay.Packed:
        """The table as the compiled kernel's arrays, to play moves from
        (`fastplay.play_move`)."""
        return fastplay.Packed(self, _PATIENCE, _GIVE_UP)

    def play_out_reference(self) -> list[int]:
        """Play the round to its end with the policy, in plain Python; the raw scores."""
        if self.held is not None and self.place_held():
            return self.raw_scores()
        while not self.play_turn():
            if self.turns >= _GIVE_UP * self.n:
                self.ender = self.player if self.ender < 0 else self.ender
                break
        return self.raw_scores()

    def play_turn(self) -> bool:
        """One whole turn of the player to act. True when the round is over."""
        p = self.player
        hid = self.hid[p]
        if self.ender < 0 and hid and not hid & (hid - 1):  # the move may end the round
            k, gain, flip = self.choose(p, self.disc[-1], False)
            if gain >= self.policy.take_threshold:
                self.take()
                return self.place(k, False)
            self.draw_card()
            held = self.held
            assert held is not None
            k, gain, flip = self.choose(p, held, True)
            return self.place(k, flip)
        grid = self._analyse(p)
        k, gain = _best(grid, self.disc[-1])
        if gain >= self.policy.take_threshold:
            self.held = self.disc.pop()
            self.source = TAKE_DISCARD
            return self.place(k, False)
        self.draw_card()
        held = self.held
        assert held is not None
        k, gain = _best(grid, held)
        if hid and gain < grid[5]:
            return self.place(grid[4], True)
        return self.place(k, False)

    def place_held(self) -> bool:
        """Place the held card as the policy would. True when the round is over."""
        held = self.held
        assert held is not None
        k, _, flip = self.choose(self.player, held, self.source == DRAW)
        return self.place(k, flip)

    def _analyse(self, p: int) -> _Grid:
        """What the policy needs of seat p's grid to price any card fast, when no
        move of p can end the round: see `_Grid`."""
        pol = self.policy
        vals = self.vals[p]
        hid = self.hid[p]
        ev = pol.hidden_value
        pair = 0.0 if self.ender >= 0 else pol.pair_bonus
        base = [0.0] * GRID_SIZE
        matches: dict[int, list[tuple[int, float]]] = {}
        best = -1e9
        best_k = -1
        flip_k = -1
        flip_gain = pol.flip_value
        clr = self.clr[p]
        for a, b, c in _COLUMNS:
            if clr >> a & 1:
                continue
            ha, hb, hc = hid >> a & 1, hid >> b & 1, hid >> c & 1
            down = ha + hb + hc
            if down == 3:
                base[a] = ev
                if ev > best:
                    best, best_k = ev, a
                if flip_k < 0:
                    flip_k = a
                continue
            va, vb, vc = vals[a], vals[b], vals[c]
            if down == 0:
                base[a], base[b], base[c] = va, vb, vc
                for k, v in ((a, va), (b, vb), (c, vc)):
                    if v > best:
                        best, best_k = v, k
                if va == vb:
                    matches.setdefault(va, []).append((c, 3 * va))
                elif va == vc:
                    matches.setdefault(va, []).append((b, 3 * va))
                elif vb == vc:
                    matches.setdefault(vb, []).append((a, 3 * vb))
                continue
            if down == 2:
                k1, v1 = (a, va) if not ha else (b, vb) if not hb else (c, vc)
                d = b if k1 == a else a
                base[k1] = v1
                base[d] = ev
                if v1 > best:
                    best, best_k = v1, k1
                if ev > best:
                    best, best_k = ev, d
                matches.setdefault(v1, []).append((d, pair))
                if flip_k < 0:
                    flip_k = d
                continue
            # one card face down: d, two face up: k1, k2
            if ha:
                d, k1, v1, k2, v2 = a, b, vb, c, vc
            elif hb:
                d, k1, v1, k2, v2 = b, a, va, c, vc
            else:
                d, k1, v1, k2, v2 = c, a, va, b, vb
            base[d] = ev
            if ev > best:
                best, best_k = ev, d
            if v1 == v2:
                base[k1] = base[k2] = v1 - pair
                if v1 - pair > best:
                    best, best_k = v1 - pair, k1
                matches.setdefault(v1, []).append((d, 3 * v1))
                flip_k = d
                flip_gain = pol.flip_value + 0.1
            else:
                base[k1], base[k2] = v1, v2
                if v1 > best:
                    best, best_k = v1, k1
                if v2 > best:
                    best, best_k = v2, k2
                matches.setdefault(v1, []).append((k2, pair))
                matches.setdefault(v2, []).append((k1, pair))
                if flip_k < 0:
                    flip_k = d
        return base, matches, best, best_k, flip_k, flip_gain

    def choose(self, p: int, h: int, drawn: bool) -> tuple[int, float, bool]:
        """The policy's best place for card `h` in seat p's grid: the position,
        what it saves, and whether it is a discard-and-flip (only when drawn)."""
        hid = self.hid[p]
        if not (self.ender < 0 and hid and not hid & (hid - 1)):
            grid = self._analyse(p)
            k, gain = _best(grid, h)
            if drawn and hid and gain < grid[5]:
                return grid[4], grid[5], True
            return k, gain, False
        return self._choose_near_end(p, h, drawn)

    def _choose_near_end(self, p: int, h: int, drawn: bool) -> tuple[int, float, bool]:
        """`choose` when seat p has one face-down card left, at d, so that placing
        there or flipping it ends the round."""
        pol = self.policy
        vals = self.vals[p]
        hid = self.hid[p]
        ev = pol.hidden_value
        pair = pol.pair_bonus
        d = _POSITIONS[hid][0]
        shown = 0  # p's face-up cards
        best = -1e9
        best_k = -1
        for k in _OPEN[self.clr[p]]:
            if k == d:
                continue
            v = vals[k]
            shown += v
            g = v - h
            a, b = _OTHERS[k]
            if a == d or b == d:  # the other one is face up
                other = vals[b if a == d else a]
                if other == h:
                    g += pair
                elif v == other:
                    g -= pair
            elif vals[a] == h and vals[b] == h:
                g += 3 * h
            if g > best:
                best = g
                best_k = k
        # ending the round: exchange at d, or flip d
        a, b = _OTHERS[d]
        completes = vals[a] == h and vals[b] == h
        mine = shown - 2 * h if completes else shown + h
        g = ev - h + (3 * h if completes else 0) + self._ending(p, mine)
        if g > best:
            best = g
            best_k = d
        if drawn:
            g = pol.flip_value + self._ending(p, shown + ev)
            if g > best:
                return d, g, True
        return best_k, best, False

    def _ending(self, p: int, mine: float) -> float:
        """What ending the round with (about) `mine` points is worth to seat p,
        beyond the points the move saves: minus the expected doubling when p is
        unlikely to be the single lowest, else `end_bonus`."""
        pol = self.policy
        if self.turns > _PATIENCE * self.n:  # no more stalling: rounds must end
            return pol.end_bonus
        if self.penalty == "none" or (self.penalty == "positive" and mine <= 0):
            return pol.end_bonus
        ev = pol.hidden_value
        lowest = 1e9
        for o in range(self.n):
            if o == p:
                continue
            hid = self.hid[o]
            ov = self.vals[o]
            est = ev * hid.bit_count() - pol.last_turn_gain
            for j in _OPEN[hid | self.clr[o]]:
                est += ov[j]
            if est < lowest:
                lowest = est
        if mine < lowest - pol.end_margin:
            return pol.end_bonus
        return -mine


def policy_action(state: State, rng: random.Random, policy: Policy = DEFAULT_POLICY) -> int:
    """The policy's action in a state of the turns of a round. It reads only what
    the player to act may see, so it may be given any determinization."""
    return table_action(Table.from_state(state, rng, policy))


def table_action(t: Table) -> int:
    """The policy's action for the player to act at a table (in its turns)."""
    p = t.player
    if t.held is None:
        _, gain, _ = t.choose(p, t.disc[-1], False)
        return TAKE_DISCARD if gain >= t.policy.take_threshold else DRAW
    k, _, flip = t.choose(p, t.held, t.source == DRAW)
    return (FLIP if flip else SWAP) + k


class PolicyBot:
    """The playout policy as a bot (a greedy baseline): the opening reveals two
    cards of different columns at random."""

    name = "policy"

    def __init__(self, seed: int, policy: Policy = DEFAULT_POLICY) -> None:
        self._rng = random.Random(seed)
        self._policy = policy

    def choose(self, observation: Observation) -> int:
        """The policy's action; the face-down cards it is dealt are never read."""
        from skyjo.bots.determinize import Sampler, opening_reveal

        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if observation.phase == Phase.REVEAL:
            return opening_reveal(observation, self._rng)
        sampler = Sampler(observation)
        return table_action(sampler.table(list(sampler.pool), self._rng, self._policy))
