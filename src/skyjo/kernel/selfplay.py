"""Self-play on the kernel, recording public states for the learned value.

`play_game` plays one whole game at table b of a kernel batch: deals and
reshuffles from the table's xorshift state (`skyjo.kernel.loop`'s fast
shuffles), each seat's actions from its policy code: a compiled
bot of `skyjo.kernel.policies` (EXPECTED...) or VALUE, the expectimax over
a value network (`skyjo.kernel.expectimax`; each VALUE seat plays the
network of its index in `nets`). Every rule is the kernel's (`table.reveal`,
`draw`, `take_discard`, `move`, `hand_on`, `end_round`, `reshuffle_perm`).

While it plays it keeps, with chance `keep` each, the public record
(`skyjo.kernel.value.public`) of the positions met: every decision (the
reveals, the start of a turn, a card in hand) and every table due to be
scored (`table.hand_on`), with the game's number, the round's and the
absolute seat of the record's slot 0 (`Recorder`); each round's scores and
its public record as dealt are kept too, and the game's totals, from which
`skyjo.train.value_data` makes the targets. A round past `max_turns` turns
stalls the game: it is dropped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)
from skyjo.engine import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.kernel import expectimax, table
from skyjo.kernel.loop import _fast_deck, _fast_perm
from skyjo.kernel.policies import EXPECTED, act, below
from skyjo.kernel.table import (
    DISCARD_LEN,
    NO_CARD,
    PENALTY,
    PHASE,
    PLAYER,
    PLAYERS,
    ROUND,
    SCORES,
    TARGET,
    TOTALS,
)
from skyjo.kernel.value import RECORD, public
from skyjo.rules import MAX_PLAYERS

#: The policy code of a seat played by the value network's expectimax.
VALUE = -1
#: Turns a VALUE seat plays in a round, each seat's, before it plays the
#: `expected` bot's choice, which hurries to end it (`policies.EXPECTED_PATIENCE`):
#: two value bots that both see more in going on than in ending would stall
#: the round, and their games would teach nothing.
PATIENCE = 30
#: What `play_game` returns.
OVER, STALLED, FULL = 0, 1, 2
_REVEAL, _ROUND_OVER, _GAME_OVER = int(Phase.REVEAL), int(Phase.ROUND_OVER), int(Phase.GAME_OVER)


class Recorder(NamedTuple):
    """Where `play_game` writes (counts in `counts`: RECORDS, ROUNDS)."""

    records: np.ndarray  #: (M, RECORD) int16: public records
    where: np.ndarray  #: (M, 3) int32: game, round, absolute seat of slot 0
    rounds: np.ndarray  #: (R, 2 + MAX_PLAYERS) int32: game, round, each seat's scores
    totals: np.ndarray  #: (G, 1 + MAX_PLAYERS) int32: game, each seat's final total
    starts: np.ndarray  #: (R, RECORD) int16: each round's public record as dealt
    counts: np.ndarray  #: (3,) int64: records, rounds, games written


RECORDS, ROUNDS, GAMES = 0, 1, 2


def recorder(records: int, games: int) -> Recorder:
    """Room for `records` records and `games` games (20 rounds each at most on average)."""
    return Recorder(
        records=np.zeros((records, RECORD), np.int16),
        where=np.zeros((records, 3), np.int32),
        rounds=np.zeros((games * 20, 2 + MAX_PLAYERS), np.int32),
        totals=np.zeros((games, 1 + MAX_PLAYERS), np.int32),
        starts=np.zeros((games * 20, RECORD), np.int16),
        counts=np.zeros(3, np.int64),
    )


@njit(cache=True)
def _keep(rec, t, b, game, keep, mt, fast, ints):  # type: ignore[no-untyped-def]
    """Record table b's public state with chance `keep`; False when full."""
    if keep < 1.0 and below(mt, fast, b, 0, 1 << 20) >= keep * (1 << 20):
        return True
    i = rec.counts[RECORDS]
    if i >= rec.records.shape[0]:
        return False
    public(t, b, rec.records[i], ints)
    rec.where[i, 0] = game
    rec.where[i, 1] = t.slots[b, ROUND]
    rec.where[i, 2] = t.slots[b, PLAYER]
    rec.counts[RECORDS] = i + 1
    return True


@njit(cache=True)
def _scored(rec, t, b, game, start):  # type: ignore[no-untyped-def]
    """Keep the round's scores and its public record as dealt (`start`)."""
    i = rec.counts[ROUNDS]
    if i >= rec.rounds.shape[0]:
        return False
    rec.rounds[i, 0] = game
    rec.rounds[i, 1] = t.slots[b, ROUND]
    for p in range(t.slots[b, PLAYERS]):
        rec.rounds[i, 2 + p] = t.seats[b, SCORES, p]
    rec.starts[i] = start
    rec.counts[ROUNDS] = i + 1
    return True


@njit(cache=True)
def play_game(  # type: ignore[no-untyped-def]
    t,
    b,
    pol,
    nets,
    weight,
    depth,
    margin,
    mt,
    fast,
    deck,
    perm,
    s,
    wk,
    scratch,
    rec,
    game,
    keep,
    max_turns,
):
    """Play a new game at table b (players, penalty and target as the table
    has them) to its end: OVER, STALLED (a round passed `max_turns` turns), or
    FULL (the recorder ran out of room; the game is incomplete). pol[p]: seat
    p's policy code; a VALUE seat p plays nets[p] (`expectimax.decide`, at
    `weight` and `depth`, guarding `expected`'s choice by `margin` unless it
    is negative; `expected` itself after PATIENCE turns of its own in a
    round). `s` and `scratch` are `expectimax.make_scratch`'s tables and
    (record, ints, win, points, values); `wk` the work of each net."""
    srec, ints, win, pts, values = scratch
    start = np.zeros(RECORD, np.int16)
    turns = 0
    table.start_game(t, b, t.slots[b, PLAYERS], t.slots[b, PENALTY], t.slots[b, TARGET])
    while True:
        phase = t.slots[b, PHASE]
        if phase == _GAME_OVER:
            break
        if phase == _ROUND_OVER:
            _fast_deck(mt, fast, b, deck)
            table.deal(t, b, deck[b])
            public(t, b, start, ints)
            turns = 0
            continue
        if not _keep(rec, t, b, game, keep, mt, fast, ints):
            return FULL
        p = t.slots[b, PLAYER]
        if pol[p] == VALUE and turns < PATIENCE * t.slots[b, PLAYERS]:
            if margin >= 0.0 and phase != _REVEAL:
                prior = act(EXPECTED, t, b, p, mt, fast)
                action = expectimax.guarded(
                    nets[p], t, b, s, srec, ints, wk[p], win, pts, weight, depth, values,
                    prior, margin,
                )  # fmt: skip
            else:
                action = expectimax.decide(
                    nets[p], t, b, s, srec, ints, wk[p], win, pts, weight, depth, values
                )
        else:
            action = act(EXPECTED if pol[p] == VALUE else pol[p], t, b, p, mt, fast)
        if phase == _REVEAL:
            table.reveal(t, b, action - REVEAL)
        elif action == DRAW:
            if table.draw(t, b) == NO_CARD:
                _fast_perm(mt, fast, b, perm, t.slots[b, DISCARD_LEN] - 1)
                table.reshuffle_perm(t, b, perm[b])
                table.draw(t, b)
        elif action == TAKE_DISCARD:
            table.take_discard(t, b)
        else:
            flip = action >= FLIP
            table.move(t, b, action - (FLIP if flip else SWAP), flip)
            turns += 1
            if table.hand_on(t, b):
                if not _keep(rec, t, b, game, keep, mt, fast, ints):
                    return FULL
                table.end_round(t, b)
                if not _scored(rec, t, b, game, start):
                    return FULL
            elif turns >= max_turns:
                return STALLED
    g = rec.counts[GAMES]
    if g >= rec.totals.shape[0]:
        return FULL
    rec.totals[g, 0] = game
    for p in range(t.slots[b, PLAYERS]):
        rec.totals[g, 1 + p] = t.seats[b, TOTALS, p]
    rec.counts[GAMES] = g + 1
    return OVER
