"""Playouts: the rest of a round played on the kernel's tables by a playout policy.

The search bot values a candidate move by playing it in a sampled world, then
the rest of the round with a fast policy for every player. The rules are the
table's (`skyjo.kernel.table`); this module is only the loop that asks a
policy for each action and hands it on. The policies live apart
(`playout_greedy`, `playout_expected`: `choose(t, b, prm, floats, ints) ->
action`, reading only what the player to act may see); another plugs in with
a code and one branch in `_choose`.

- A playout ends with the round: the table then holds its raw and final
  scores, totals, ender and turns. A policy that would never end a round is
  stopped after `give_up` turns a player, the round scored as it lies.
- A reshuffle (RULES.md 2.7) shuffles the discard pile but its top with the
  playouts' own `random.Random` generator, stepped in compiled code exactly
  as `random.Random.shuffle` steps it (`skyjo.kernel.twister`): a seeded
  search is deterministic, and plays as it did when Python shuffled.
- The TURNS slot counts the turns since the playout began (a world starts
  with 0): the policies' patience counts from there.
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.kernel import playout_expected, playout_greedy, table, twister
from skyjo.kernel.table import (
    DISCARD_LEN,
    DISCARD_PILE,
    DRAW_END,
    DRAW_PILE,
    DRAW_TOP,
    ENDER,
    HELD,
    NO_CARD,
    OK,
    PLAYER,
    PLAYERS,
    ROUND_ENDED,
    TOTALS,
    TURNS,
    Tables,
)
from skyjo.rules import CARD_VALUES

#: The playout policies, by code: `playout_greedy`'s and `playout_expected`'s.
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
    floats = max(playout_greedy.FLOATS, playout_expected.FLOATS)
    ints = max(playout_greedy.INTS, playout_expected.INTS)
    return np.zeros(floats), np.zeros(ints, dtype=np.int64)


def no_placing() -> np.ndarray:
    """A `placing` array that leaves every drawn card to the policy."""
    return np.full(PLACING_SIZE, -1, dtype=np.int64)


# --- the reshuffles ----------------------------------------------------------------


@njit(cache=True)
def _reshuffle(t, b, mt):  # type: ignore[no-untyped-def]
    """Table b's draw pile is empty: reshuffle (`table.reshuffle`) the discard
    pile but its top, in the order `random.Random.shuffle` of the pile (bottom
    first) would give with the generator `mt`, its last card on top."""
    pile = t.piles[b, DISCARD_PILE, : t.slots[b, DISCARD_LEN] - 1].copy()
    twister.shuffle(mt, pile)
    table.reshuffle(t, b, pile[::-1])


# --- the compiled loop --------------------------------------------------------------


@njit(cache=True)
def _choose(policy, t, b, prm, floats, ints):  # type: ignore[no-untyped-def]
    """The action of `policy` for the player to act at table b."""
    if policy == GREEDY:
        return playout_greedy.choose(t, b, prm, floats, ints)
    if policy == EXPECTED:
        return playout_expected.choose(t, b, prm, floats, ints)
    raise ValueError("unknown playout policy")


@njit(cache=True)
def _draw(t, b, mt):  # type: ignore[no-untyped-def]
    """Draw (`table.draw`), reshuffling the discard pile first when the draw
    pile is empty (RULES.md 2.7); the card."""
    card = table.draw(t, b)
    if card == NO_CARD:
        _reshuffle(t, b, mt)
        card = table.draw(t, b)
    return card


@njit(cache=True)
def _place(t, b, action):  # type: ignore[no-untyped-def]
    """Finish the turn with a SWAP or FLIP action (`table.place`)."""
    if action >= FLIP:
        return table.place(t, b, action - FLIP, True)
    return table.place(t, b, action - SWAP, False)


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
                table.take_discard(t, b)
        if _place(t, b, _choose(policy, t, b, prm, floats, ints)) == ROUND_ENDED:
            return ROUND_ENDED
        if t.slots[b, TURNS] >= give_up * n:
            if t.slots[b, ENDER] < 0:
                t.slots[b, ENDER] = t.slots[b, PLAYER]
            table.end_round(t, b)
            return ROUND_ENDED
    return OK


@njit(cache=True)
def play_copies(world, t, count, policy, prm, floats, ints, mt, give_up):  # type: ignore[no-untyped-def]
    """`count` playouts of the rest of world table 0's round, each from a fresh
    copy at table 0 of `t` (`play_out`): the turns they played (each counted
    from world's TURNS slot) and the points they added to the seats' totals,
    summed (a checksum: two versions of the code played the same playouts)."""
    n = world.slots[0, PLAYERS]
    turns = 0
    points = 0
    for _ in range(count):
        table.copy_table(world, 0, t, 0)
        play_out(t, 0, policy, prm, floats, ints, mt, give_up)
        turns += t.slots[0, TURNS]
        for p in range(n):
            points += t.seats[0, TOTALS, p] - world.seats[0, TOTALS, p]
    return turns, points


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
        table.take_discard(t, b)
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
        table.copy_table(world, 0, t, b)
        if (
            first_move(t, b, actions[b], args[b], placing, policy, prm, floats, ints, mt)
            != ROUND_ENDED
        ):
            play_turns(t, b, policy, prm, floats, ints, mt, give_up, limit)


@njit(cache=True)
def lay_world(template, t, b, seats, positions, cards, deal_held):  # type: ignore[no-untyped-def]
    """A sampled world at table b of `t` (`skyjo.bots.determinize.Sampler.load`):
    table 0 of `template`, then cards[i] at (seats[i], positions[i]), the next
    card in hand if `deal_held`, the rest as the draw pile, top first."""
    table.copy_table(template, 0, t, b)
    used = len(seats)
    for i in range(used):
        t.cells[b, seats[i], positions[i]] = cards[i]
    if deal_held:
        t.slots[b, HELD] = cards[used]
        used += 1
    for i in range(used, len(cards)):
        t.piles[b, DRAW_PILE, i - used] = cards[i]
    t.slots[b, DRAW_TOP] = 0
    t.slots[b, DRAW_END] = len(cards) - used


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
        self.mt = twister.generator(rng)
        self.policy = policy
        if prm is None:
            prm = playout_expected.params() if policy == EXPECTED else playout_greedy.params()
        self.prm = prm
        self.floats, self.ints = scratch()
        self.give_up = give_up

    @property
    def rng(self) -> random.Random:
        """The reshuffles' generator as it now stands."""
        return twister.as_random(self.mt)

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

    def play_copies(self, world: Tables, t: Tables, count: int) -> tuple[int, int]:
        """`count` playouts from copies of world table 0 at table 0 of `t`
        (`play_copies`): (turns, points added to the totals)."""
        work = (self.policy, self.prm, self.floats, self.ints, self.mt, self.give_up)
        turns, points = play_copies(world, t, count, *work)
        return int(turns), int(points)
