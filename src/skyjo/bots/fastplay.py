"""Playouts: the rest of a round played on the rules kernel by a playout policy.

The search bot values a candidate move by playing it in a sampled world, then
the rest of the round with a fast policy for every player. The rules of those
rounds are the kernel's (`skyjo.kernel`: `draw`, `take_discard`, `place`
with its column clears and turn passing, `end_round` with the raw scores and
the ender's penalty); this module is only the loop that asks a policy for
each action and applies it, compiled with Numba. The policies live apart
(`skyjo.bots.playout_policy`: `choose(t, b, prm, floats, ints) -> action`).

- `play_out(t, b, ...)` plays table b to the end of its round; `first_move`
  plays a candidate move (a forced first turn) before it; `play_moves` plays
  one candidate at each of several tables, each a copy of one sampled world.
  `Playouts` calls them from Python, reshuffles included.
- The kernel has no random numbers, nor does this loop: when a player must
  draw from an empty draw pile, the compiled loop stops before that draw
  (NEED_RESHUFFLE, nothing of the turn done), Python shuffles the discard pile
  with the caller's `random.Random` (`reshuffle`, RULES.md 2.7) and the loop
  goes on; the policy, asked again, makes the same choice. So a seeded search
  is deterministic.
- A playout ends with the round (ROUND_ENDED: the kernel has scored it; the
  table's RAW and SCORES rows hold the raw and final round scores, ENDER the
  ender, TURNS the turns played). A policy that would never end a round (say,
  one that takes every discard and never turns a card) is stopped after
  `give_up` turns a player, the round scored as it lies, with the player to
  act as the ender if there is none.

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
from skyjo.bots import playout_policy
from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.kernel import (
    ENDER,
    HELD,
    NEED_RESHUFFLE,
    NO_CARD,
    PLAYER,
    PLAYERS,
    ROUND_ENDED,
    TURNS,
    Tables,
)
from skyjo.rules import CARD_VALUES

#: The playout policies, by code: the greedy one of `skyjo.bots.playout_policy`.
GREEDY = 0
#: Turns per player after which a playout stops, scored as it lies with the
#: player to act as the ender if there is none: only a policy with odd knobs
#: (say, taking every discard and never turning a card) gets there.
GIVE_UP = 200
#: A `placing` array (see `first_move`) holds card c's action at c - LOWEST_CARD.
LOWEST_CARD = min(CARD_VALUES)
PLACING_SIZE = max(CARD_VALUES) - LOWEST_CARD + 1
#: The stages of a table in `play_moves`.
_COPY, _MOVE, _PLAY, _DONE = range(4)


def scratch() -> tuple[np.ndarray, np.ndarray]:
    """Work arrays (floats, ints) large enough for every policy."""
    return np.zeros(playout_policy.FLOATS), np.zeros(playout_policy.INTS, dtype=np.int64)


def no_placing() -> np.ndarray:
    """A `placing` array that leaves every drawn card to the policy."""
    return np.full(PLACING_SIZE, -1, dtype=np.int64)


# --- the compiled loop --------------------------------------------------------------


@njit(cache=True, inline="always")
def _choose(policy, t, b, prm, floats, ints):  # type: ignore[no-untyped-def]
    """The action of `policy` for the player to act at table b."""
    if policy == GREEDY:
        return playout_policy.choose(t, b, prm, floats, ints)
    raise ValueError("unknown playout policy")


@njit(cache=True, inline="always")
def _place(t, b, action):  # type: ignore[no-untyped-def]
    """Finish the turn with a SWAP or FLIP action (`kernel.place`)."""
    if action >= FLIP:
        return kernel.place(t, b, action - FLIP, True)
    return kernel.place(t, b, action - SWAP, False)


@njit(cache=True)
def play_out(t, b, policy, prm, floats, ints, give_up):  # type: ignore[no-untyped-def]
    """Play table b (in the turns of a round) to the end of its round with
    `policy`, a card in hand placed first: ROUND_ENDED, or NEED_RESHUFFLE when
    the player to act would draw from the empty draw pile (nothing of that
    turn done: `reshuffle`, then call again)."""
    n = t.slots[b, PLAYERS]
    while True:
        if t.slots[b, HELD] == NO_CARD:
            if _choose(policy, t, b, prm, floats, ints) == DRAW:
                if kernel.draw(t, b) == NO_CARD:
                    return NEED_RESHUFFLE
            else:
                kernel.take_discard(t, b)
        if _place(t, b, _choose(policy, t, b, prm, floats, ints)) == ROUND_ENDED:
            return ROUND_ENDED
        if t.slots[b, TURNS] >= give_up * n:
            if t.slots[b, ENDER] < 0:
                t.slots[b, ENDER] = t.slots[b, PLAYER]
            kernel.end_round(t, b)
            return ROUND_ENDED


@njit(cache=True)
def first_move(t, b, action, arg, placing, policy, prm, floats, ints):  # type: ignore[no-untyped-def]
    """Play one move at table b: (DRAW, _): draw, then put the card where
    `placing[card - LOWEST_CARD]` says (a SWAP or FLIP action), or where the
    policy would when that is -1; (TAKE_DISCARD, a): take the discard and make
    the SWAP action a; or (a, _): place the card in hand by the SWAP or FLIP
    action a. OK (then `play_out` the rest) or ROUND_ENDED; NEED_RESHUFFLE,
    nothing done, when the move draws from an empty draw pile: `reshuffle`
    and call again."""
    if action == DRAW:
        card = kernel.draw(t, b)
        if card == NO_CARD:
            return NEED_RESHUFFLE
        placed = placing[card - LOWEST_CARD]
        if placed < 0:
            placed = _choose(policy, t, b, prm, floats, ints)
    elif action == TAKE_DISCARD:
        kernel.take_discard(t, b)
        placed = arg
    else:
        placed = action
    return _place(t, b, placed)


@njit(cache=True)
def play_moves(world, t, order, actions, args, placing, policy, prm, floats, ints, give_up, stage):  # type: ignore[no-untyped-def]
    """For each b of `order` in turn, play candidate move b (`actions[b]`,
    `args[b]`: a move of `first_move`) at table b of `t`, a copy of table 0 of
    `world`, then the rest of its round. `stage[j]` says how far the j-th of
    `order` has got (all 0 at first). Returns -1 once every round is over, or
    the j whose table needs a reshuffle before its next draw: `reshuffle`
    table order[j], then call again with the same arrays, and the candidates
    go on from there."""
    for j in range(len(order)):
        b = order[j]
        if stage[j] == _COPY:
            kernel.copy_table(world, 0, t, b)
            stage[j] = _MOVE
        if stage[j] == _MOVE:
            status = first_move(t, b, actions[b], args[b], placing, policy, prm, floats, ints)
            if status == NEED_RESHUFFLE:
                return j
            stage[j] = _DONE if status == ROUND_ENDED else _PLAY
        if stage[j] == _PLAY:
            if play_out(t, b, policy, prm, floats, ints, give_up) == NEED_RESHUFFLE:
                return j
            stage[j] = _DONE
    return -1


# --- Python ------------------------------------------------------------------------


def reshuffle(t: Tables, b: int, rng: random.Random) -> None:
    """Table b's draw pile is empty: the discard pile but its top card, shuffled
    by `rng` (`random.Random.shuffle` of the pile, bottom first, whose last card
    becomes the top), becomes the draw pile (RULES.md 2.7; `kernel.reshuffle`)."""
    pile = t.discard[b, : t.discard_len[b] - 1].tolist()
    rng.shuffle(pile)
    pile.reverse()
    kernel.reshuffle(t, b, kernel.as_deck(pile))


class Playouts:
    """A policy, its knobs and work arrays, and reshuffles from one
    `random.Random`: what the playouts of a search share."""

    def __init__(
        self,
        rng: random.Random,
        policy: int = GREEDY,
        prm: np.ndarray | None = None,
        give_up: int = GIVE_UP,
    ) -> None:
        self.rng = rng
        self.policy = policy
        self.prm = playout_policy.params() if prm is None else prm
        self.floats, self.ints = scratch()
        self.give_up = give_up

    def action(self, t: Tables, b: int) -> int:
        """The policy's action for the player to act at table b."""
        return int(_choose(self.policy, t, b, self.prm, self.floats, self.ints))

    def play_out(self, t: Tables, b: int) -> None:
        """Play table b to the end of its round (`play_out`, with reshuffles)."""
        while (
            play_out(t, b, self.policy, self.prm, self.floats, self.ints, self.give_up)
            == NEED_RESHUFFLE
        ):
            reshuffle(t, b, self.rng)

    def play_move(
        self, t: Tables, b: int, move: tuple[int, int], placing: np.ndarray | None = None
    ) -> None:
        """Play `move` at table b (`first_move`), then the rest of the round."""
        placing = no_placing() if placing is None else placing
        args = (t, b, *move, placing, self.policy, self.prm, self.floats, self.ints)
        status = first_move(*args)
        while status == NEED_RESHUFFLE:
            reshuffle(t, b, self.rng)
            status = first_move(*args)
        if status != ROUND_ENDED:
            self.play_out(t, b)

    def play_moves(
        self,
        world: Tables,
        t: Tables,
        order: np.ndarray,
        actions: np.ndarray,
        args: np.ndarray,
        placing: np.ndarray,
    ) -> None:
        """Play candidate move b at table b of `t`, a copy of table 0 of
        `world`, for each b of `order` (`play_moves`, with reshuffles)."""
        stage = np.zeros(len(order), dtype=np.int64)
        call = (world, t, order, actions, args, placing, self.policy, self.prm)
        rest = (self.floats, self.ints, self.give_up, stage)
        j = play_moves(*call, *rest)
        while j >= 0:
            reshuffle(t, int(order[j]), self.rng)
            j = play_moves(*call, *rest)
