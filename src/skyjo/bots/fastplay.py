"""Playouts: the rest of a round played on the rules kernel by a playout policy.

The search bot values a candidate move by playing it in a sampled world, then
the rest of the round with a fast policy for every player. The rules of those
rounds are the kernel's (`skyjo.kernel`: `draw`, `take_discard`, `place`
with its column clears and turn passing, `reshuffle`, `end_round` with the
raw scores and the ender's penalty); this module is only the loop that asks a
policy for each action and applies it, compiled with Numba. The policies
live apart (`skyjo.bots.playout_policy`: `choose(t, b, prm, floats, ints) ->
action`, which reads only what the player to act may see).

- `play_out(t, b, ...)` plays table b to the end of its round; `first_move`
  plays a candidate move (a forced first turn) before it; `play_moves` plays
  one candidate at each of several tables, each a copy of one sampled world.
  `Playouts` calls them from Python.
- A playout ends with the round (the kernel has scored it: the table's RAW
  and SCORES rows hold the raw and final round scores, TOTALS the totals,
  ENDER the ender, TURNS the turns played). A policy that would never end a
  round (say, one that takes every discard and never turns a card) is stopped
  after `give_up` turns a player, the round scored as it lies, with the player
  to act as the ender if there is none.
- When the draw pile is empty, the discard pile but its top card is shuffled
  into a new draw pile (RULES.md 2.7, `kernel.reshuffle`) by the playouts'
  generator: the state of a `random.Random` (a Mersenne Twister), stepped in
  compiled code exactly as `random.Random.shuffle` would step it on the
  pile, bottom first, whose last card becomes the top. So a seeded search is
  deterministic, and plays as it did when Python shuffled.

A second policy plugs in with a code (`GREEDY`...) and one branch in
`_choose`: it takes the same table and arrays (its knobs in `prm`, its work
space in `floats` and `ints`, which `scratch` sizes for every policy).

The TURNS slot of a table counts the turns played since the playout began: a
world to play out starts with 0 (the policies' patience counts from there).
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from skyjo import kernel
from skyjo.bots import playout_expected, playout_policy
from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.kernel import (
    DISCARD_LEN,
    DISCARD_PILE,
    ENDER,
    HELD,
    NO_CARD,
    OK,
    PLAYER,
    PLAYERS,
    ROUND_ENDED,
    TURNS,
    Tables,
)
from skyjo.rules import CARD_VALUES

#: The playout policies, by code: the greedy one of `skyjo.bots.playout_policy`,
#: the `expected` bot's choice of `skyjo.bots.playout_expected`.
GREEDY = 0
EXPECTED = 1
#: Turns per player after which a playout stops, scored as it lies with the
#: player to act as the ender if there is none: only a policy with odd knobs
#: (say, taking every discard and never turning a card) gets there.
GIVE_UP = 200
#: A `placing` array (see `first_move`) holds card c's action at c - LOWEST_CARD.
LOWEST_CARD = min(CARD_VALUES)
PLACING_SIZE = max(CARD_VALUES) - LOWEST_CARD + 1


def scratch() -> tuple[np.ndarray, np.ndarray]:
    """Work arrays (floats, ints) large enough for every policy."""
    floats = max(playout_policy.FLOATS, playout_expected.FLOATS)
    ints = max(playout_policy.INTS, playout_expected.INTS)
    return np.zeros(floats), np.zeros(ints, dtype=np.int64)


def no_placing() -> np.ndarray:
    """A `placing` array that leaves every drawn card to the policy."""
    return np.full(PLACING_SIZE, -1, dtype=np.int64)


# --- the generator: random.Random's Mersenne Twister ----------------------------------

#: The words of a Mersenne Twister's state; `mt[_N]` holds the index of the next.
_N, _M = 624, 397


@njit(cache=True)
def _twist(mt):  # type: ignore[no-untyped-def]
    """The next 624 words of MT19937's state (CPython's `genrand_uint32`)."""
    for k in range(_N):
        y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
        word = mt[(k + _M) % _N] ^ (y >> 1)
        if y & 1:
            word ^= 0x9908B0DF
        mt[k] = word


@njit(cache=True)
def _next32(mt):  # type: ignore[no-untyped-def]
    """The generator's next 32-bit output, tempered."""
    i = mt[_N]
    if i >= _N:
        _twist(mt)
        i = 0
    mt[_N] = i + 1
    y = mt[i]
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)


@njit(cache=True)
def _below(mt, n):  # type: ignore[no-untyped-def]
    """A random integer in [0, n), 0 < n < 2**32, as `random.Random._randbelow`:
    getrandbits(k) for k the bit length of n, again while it is not below n."""
    k = 0
    while n >> k:
        k += 1
    r = _next32(mt) >> (32 - k)
    while r >= n:
        r = _next32(mt) >> (32 - k)
    return r


@njit(cache=True)
def _reshuffle(t, b, mt):  # type: ignore[no-untyped-def]
    """Table b's draw pile is empty: reshuffle (`kernel.reshuffle`) the discard
    pile but its top, in the order `random.Random.shuffle` of the pile (bottom
    first) would give with the generator `mt`, its last card on top."""
    size = t.slots[b, DISCARD_LEN] - 1
    pile = t.piles[b, DISCARD_PILE, :size].copy()
    for i in range(size - 1, 0, -1):
        j = _below(mt, i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    kernel.reshuffle(t, b, pile[::-1])


@njit(cache=True)
def shuffle(mt, values):  # type: ignore[no-untyped-def]
    """`random.Random.shuffle(values)` in place, with the generator `mt` (for tests)."""
    for i in range(len(values) - 1, 0, -1):
        j = _below(mt, i + 1)
        values[i], values[j] = values[j], values[i]


def generator(rng: random.Random) -> np.ndarray:
    """The state of `rng` as the compiled generator takes it: 624 words, then
    the index of the next (its own copy: `rng` does not move)."""
    version, words, _ = rng.getstate()
    if version != 3 or len(words) != _N + 1:
        raise ValueError("not the state of a Mersenne Twister of random.Random")
    return np.array(words, dtype=np.int64)


def as_random(mt: np.ndarray) -> random.Random:
    """A `random.Random` in the state of the compiled generator `mt`."""
    rng = random.Random()
    rng.setstate((3, tuple(mt.tolist()), None))
    return rng


# --- the compiled loop --------------------------------------------------------------


@njit(cache=True)
def _choose(policy, t, b, prm, floats, ints):  # type: ignore[no-untyped-def]
    """The action of `policy` for the player to act at table b."""
    if policy == GREEDY:
        return playout_policy.choose(t, b, prm, floats, ints)
    if policy == EXPECTED:
        return playout_expected.choose(t, b, prm, floats, ints)
    raise ValueError("unknown playout policy")


@njit(cache=True)
def _draw(t, b, mt):  # type: ignore[no-untyped-def]
    """Draw (`kernel.draw`), reshuffling the discard pile first when the draw
    pile is empty (RULES.md 2.7); the card."""
    card = kernel.draw(t, b)
    if card == NO_CARD:
        _reshuffle(t, b, mt)
        card = kernel.draw(t, b)
    return card


@njit(cache=True)
def _place(t, b, action):  # type: ignore[no-untyped-def]
    """Finish the turn with a SWAP or FLIP action (`kernel.place`)."""
    if action >= FLIP:
        return kernel.place(t, b, action - FLIP, True)
    return kernel.place(t, b, action - SWAP, False)


@njit(cache=True)
def play_out(t, b, policy, prm, floats, ints, mt, give_up):  # type: ignore[no-untyped-def]
    """Play table b (in the turns of a round) to the end of its round with
    `policy`, a card in hand placed first; reshuffles from the generator `mt`."""
    # -1 as an int64, not a literal: the one compiled play_turns serves both
    play_turns(t, b, policy, prm, floats, ints, mt, give_up, np.int64(-1))


@njit(cache=True)
def play_turns(t, b, policy, prm, floats, ints, mt, give_up, limit):  # type: ignore[no-untyped-def]
    """`play_out`, stopped after `limit` turns (-1: none) if the round has not
    ended by then: ROUND_ENDED when it has, else OK."""
    n = t.slots[b, PLAYERS]
    while limit != 0:
        limit -= 1
        if t.slots[b, HELD] == NO_CARD:
            if _choose(policy, t, b, prm, floats, ints) == DRAW:
                _draw(t, b, mt)
            else:
                kernel.take_discard(t, b)
        if _place(t, b, _choose(policy, t, b, prm, floats, ints)) == ROUND_ENDED:
            return ROUND_ENDED
        if t.slots[b, TURNS] >= give_up * n:
            if t.slots[b, ENDER] < 0:
                t.slots[b, ENDER] = t.slots[b, PLAYER]
            kernel.end_round(t, b)
            return ROUND_ENDED
    return OK


@njit(cache=True)
def first_move(t, b, action, arg, placing, policy, prm, floats, ints, mt):  # type: ignore[no-untyped-def]
    """Play one move at table b: (DRAW, _): draw, then put the card where
    `placing[card - LOWEST_CARD]` says (a SWAP or FLIP action), or where the
    policy would when that is -1; (TAKE_DISCARD, a): take the discard and make
    the SWAP action a; or (a, _): place the card in hand by the SWAP or FLIP
    action a. OK (then `play_out` the rest) or ROUND_ENDED."""
    if action == DRAW:
        placed = placing[_draw(t, b, mt) - LOWEST_CARD]
        if placed < 0:
            placed = _choose(policy, t, b, prm, floats, ints)
    elif action == TAKE_DISCARD:
        kernel.take_discard(t, b)
        placed = arg
    else:
        placed = action
    return _place(t, b, placed)


@njit(cache=True)
def play_moves(
    world, t, order, actions, args, placing, policy, prm, floats, ints, mt, give_up, limit=-1
):  # type: ignore[no-untyped-def]
    """For each b of `order` in turn, play candidate move b (`actions[b]`,
    `args[b]`: a move of `first_move`) at table b of `t`, a copy of table 0 of
    `world`, then the rest of its round, or `limit` more turns (-1: no limit)."""
    for j in range(len(order)):
        b = order[j]
        kernel.copy_table(world, 0, t, b)
        if (
            first_move(t, b, actions[b], args[b], placing, policy, prm, floats, ints, mt)
            != ROUND_ENDED
        ):
            play_turns(t, b, policy, prm, floats, ints, mt, give_up, limit)


# --- Python ------------------------------------------------------------------------


class Playouts:
    """What the playouts of a search share: a policy (its code and knobs), its
    work arrays, the limit of a round's turns, and the generator of the
    reshuffles, started in the state of `rng` (which does not move; `rng`
    gives the generator's state as a `random.Random`)."""

    def __init__(
        self,
        rng: random.Random,
        policy: int = GREEDY,
        prm: np.ndarray | None = None,
        give_up: int = GIVE_UP,
    ) -> None:
        self.mt = generator(rng)
        self.policy = policy
        if prm is None:
            prm = playout_expected.params() if policy == EXPECTED else playout_policy.params()
        self.prm = prm
        self.floats, self.ints = scratch()
        self.give_up = give_up

    @property
    def rng(self) -> random.Random:
        """The reshuffles' generator as it now stands."""
        return as_random(self.mt)

    def action(self, t: Tables, b: int) -> int:
        """The policy's action for the player to act at table b."""
        return int(_choose(self.policy, t, b, self.prm, self.floats, self.ints))

    def play_out(self, t: Tables, b: int) -> None:
        """Play table b to the end of its round (`play_out`)."""
        play_out(t, b, self.policy, self.prm, self.floats, self.ints, self.mt, self.give_up)

    def play_move(
        self, t: Tables, b: int, move: tuple[int, int], placing: np.ndarray | None = None
    ) -> None:
        """Play `move` at table b (`first_move`), then the rest of the round."""
        placing = no_placing() if placing is None else placing
        work = (self.policy, self.prm, self.floats, self.ints, self.mt)
        if first_move(t, b, *move, placing, *work) != ROUND_ENDED:
            self.play_out(t, b)

    def play_moves(
        self,
        world: Tables,
        t: Tables,
        order: np.ndarray,
        actions: np.ndarray,
        args: np.ndarray,
        placing: np.ndarray,
        limit: int = -1,
    ) -> None:
        """Play candidate move b at table b of `t`, a copy of table 0 of
        `world`, then the rest of its round (or `limit` more turns), for each
        b of `order` (`play_moves`)."""
        work = (self.policy, self.prm, self.floats, self.ints, self.mt, self.give_up)
        play_moves(world, t, order, actions, args, placing, *work, limit)

    def play_turns(self, t: Tables, b: int, limit: int) -> bool:
        """Play table b for `limit` turns, or to the end of its round if it ends
        sooner (`play_turns`): whether it ended."""
        work = (self.policy, self.prm, self.floats, self.ints, self.mt, self.give_up)
        return bool(play_turns(t, b, *work, limit) == ROUND_ENDED)
