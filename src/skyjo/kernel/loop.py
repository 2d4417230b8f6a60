"""The batch simulator's game loop: whole games on kernel tables, compiled.

`advance` plays every table of a batch on: each table's game, deal to
reveals to turns to reshuffles to round ends to the next round to the game's
end, in one compiled call, the players' actions from the compiled policies
(`skyjo.kernel.policies`), every rule from the kernel (`skyjo.kernel.table`:
`deal`, `reveal`, `draw`, `take_discard`, `place` with its column clears
and turn passing, `reshuffle_perm`, `end_round`). Nothing here is a rule: the
loop only asks who acts and what they choose, and hands it to the kernel.

Chance is an input (RULES.md 5: a round's deck, each reshuffle's new draw
pile). In the *seeded* mode (a non-empty `mt`) a table stops when it needs
one, with its `status`: NEED_DEAL (fill `deck[b]`, 150 cards top first) or
NEED_RESHUFFLE (fill `perm[b]`, the new draw pile as a permutation of the
discard pile less its top, `kernel.reshuffle_perm`); the caller fills it
from the game's seed exactly as the engine would (`skyjo.batch.games`) and
calls `advance` again, which deals or reshuffles (and draws) and goes on. In
the *fast* mode (an empty `mt`), decks and reshuffles are shuffled here from
the table's xorshift state (`fast[b]`), and a finished game is followed by a
new one until the table has played `games` games: no Python in the loop.

The round limit (`GAME_INFO.max_round_turns`, as `skyjo.match` applies it):
a round that reaches `max_turns` turns still in play stops its game
(STALLED).

The log (seeded mode; none when `log` has no columns), per table, of
int32 entries since the caller last emptied it (`log_len[b] = 0`):
DEALT then each seat's grid value after the deal; per turn the
seat and its grid value after it (`seat << 12 | value + 1024`); ROUND then
the ender, whether doubled, the columns cleared in the round (every seat's,
the final reveal's included), the n raw scores and the n round scores. A grid
value is the sum of the seat's cards outside cleared columns, face-down ones
included (`skyjo.sim.tournament`'s per-turn data).

`counts[b]`: TURNS_IN_ROUND, TURNS (every turn of every game), GAMES
(games finished: over or stalled), ROUNDS (rounds dealt).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

from skyjo.engine import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.kernel import table
from skyjo.kernel.policies import act, below
from skyjo.kernel.table import (
    CLEARED,
    DISCARD_LEN,
    DOUBLED,
    ENDER,
    NO_CARD,
    PENALTY,
    PHASE,
    PLAYER,
    PLAYERS,
    RAW,
    ROUND_ENDED,
    SCORES,
    TARGET,
    Tables,
)
from skyjo.rules import COLS, DECK, DECK_SIZE, GRID_SIZE

#: `status` of a table.
RUNNING, NEED_DEAL, NEED_RESHUFFLE, OVER, STALLED = range(5)
#: Log markers, and the offset of a turn's grid value.
DEALT, ROUND = -1, -2
VALUE_OFFSET = 1024
#: Columns of `counts`.
TURNS_IN_ROUND, TURNS, GAMES, ROUNDS = range(4)
NCOUNTS = 4
#: Log entries a table writes between two stops at most, beyond its turns.
LOG_SLACK = 64

_TURNS, _FINAL_TURNS = int(Phase.TURNS), int(Phase.FINAL_TURNS)
_ROUND_OVER, _GAME_OVER, _REVEAL = int(Phase.ROUND_OVER), int(Phase.GAME_OVER), int(Phase.REVEAL)
#: The 150 cards in order, which the fast mode shuffles (RULES.md 1).
SORTED_DECK = np.array(DECK, np.int8)


@intrinsic
def borrowed(typingctx, arr):  # type: ignore[no-untyped-def]
    """The array `arr` without its reference count (no meminfo): compiled code
    then passes it to a function without the atomic increments and decrements
    of its count, which cost more than a kernel call's work. The caller keeps
    the array alive (`advance`'s arguments are held by its caller)."""
    sig = arr(arr)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ary = make_array(arr)(context, builder, value=args[0])
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()

    return sig, codegen


@njit(cache=True, inline="always")
def grid_value(t, b, p):  # type: ignore[no-untyped-def]
    """Seat p's cards outside cleared columns, face-down ones included."""
    cleared = t.seats[b, CLEARED, p]
    total = 0
    for k in range(GRID_SIZE):
        if not (cleared >> k) & 1:
            total += t.cells[b, p, k]
    return total


@njit(cache=True)
def _log_deal(t, b, log, log_len):  # type: ignore[no-untyped-def]
    i = log_len[b]
    log[b, i] = DEALT
    n = t.slots[b, PLAYERS]
    for p in range(n):
        log[b, i + 1 + p] = grid_value(t, b, p)
    log_len[b] = i + 1 + n


@njit(cache=True)
def _log_round(t, b, log, log_len):  # type: ignore[no-untyped-def]
    i = log_len[b]
    n = t.slots[b, PLAYERS]
    log[b, i] = ROUND
    log[b, i + 1] = t.slots[b, ENDER]
    log[b, i + 2] = t.slots[b, DOUBLED]
    cleared = 0
    for p in range(n):
        log[b, i + 4 + p] = t.seats[b, RAW, p]
        log[b, i + 4 + n + p] = t.seats[b, SCORES, p]
        mask = t.seats[b, CLEARED, p]
        for k in range(COLS):
            cleared += (mask >> k) & 1
    log[b, i + 3] = cleared
    log_len[b] = i + 4 + 2 * n


@njit(cache=True)
def _fast_deck(mt, fast, b, deck):  # type: ignore[no-untyped-def]
    """deck[b]: the 150 cards shuffled (Fisher-Yates) from the fast state."""
    out = deck[b]
    for i in range(DECK_SIZE):
        out[i] = SORTED_DECK[i]
    for i in range(DECK_SIZE - 1, 0, -1):
        j = below(mt, fast, b, 0, i + 1)
        out[i], out[j] = out[j], out[i]


@njit(cache=True)
def _fast_perm(mt, fast, b, perm, size):  # type: ignore[no-untyped-def]
    """perm[b][:size]: a permutation of range(size) from the fast state."""
    out = perm[b]
    for i in range(size):
        out[i] = i
    for i in range(size - 1, 0, -1):
        j = below(mt, fast, b, 0, i + 1)
        out[i], out[j] = out[j], out[i]


@njit(cache=True)
def _deal(t, b, deck, log, log_len, counts):  # type: ignore[no-untyped-def]
    table.deal(t, b, deck[b])
    counts[b, TURNS_IN_ROUND] = 0
    counts[b, ROUNDS] += 1
    if log.shape[1]:
        _log_deal(t, b, log, log_len)


@njit(cache=True, inline="always")
def _place(t, b, p, action, log, log_len, counts):  # type: ignore[no-untyped-def]
    """Finish the turn (`kernel.place`), log it; whether the round ended."""
    if action >= FLIP:
        ended = table.place(t, b, action - FLIP, True) == ROUND_ENDED
    else:
        ended = table.place(t, b, action - SWAP, False) == ROUND_ENDED
    counts[b, TURNS_IN_ROUND] += 1
    counts[b, TURNS] += 1
    if log.shape[1]:
        log[b, log_len[b]] = p << 12 | (grid_value(t, b, p) + VALUE_OFFSET)
        log_len[b] += 1
        if ended:
            _log_round(t, b, log, log_len)
    return ended


@njit(cache=True)
def _play(t, b, pol, mt, fast, deck, perm, status, log, log_len, counts, max_turns):  # type: ignore[no-untyped-def]
    """Play table b until its game needs chance from the caller, is over or
    stalls: the new status (see the module)."""
    fastmode = mt.shape[0] == 0
    st = status[b]
    if st == NEED_DEAL:
        if fastmode:
            _fast_deck(mt, fast, b, deck)
        _deal(t, b, deck, log, log_len, counts)
    elif st == NEED_RESHUFFLE:
        table.reshuffle_perm(t, b, perm[b])
        table.draw(t, b)
    while True:
        phase = t.slots[b, PHASE]
        if phase == _GAME_OVER:
            return OVER
        p = t.slots[b, PLAYER]
        action = act(pol[b, p], t, b, p, mt, fast)  # the one decision site
        if phase == _REVEAL:
            table.reveal(t, b, action - REVEAL)
        elif phase == _ROUND_OVER:  # NEXT_ROUND (random draws for it too)
            if not fastmode:
                return NEED_DEAL
            _fast_deck(mt, fast, b, deck)
            _deal(t, b, deck, log, log_len, counts)
        elif action == DRAW:
            if table.draw(t, b) == NO_CARD:
                if not fastmode:
                    return NEED_RESHUFFLE
                _fast_perm(mt, fast, b, perm, t.slots[b, DISCARD_LEN] - 1)
                table.reshuffle_perm(t, b, perm[b])
                table.draw(t, b)
        elif action == TAKE_DISCARD:
            table.take_discard(t, b)
        elif (
            not _place(t, b, p, action, log, log_len, counts)
            and counts[b, TURNS_IN_ROUND] >= max_turns
        ):
            phase = t.slots[b, PHASE]
            if phase == _TURNS or phase == _FINAL_TURNS:
                return STALLED


@njit(cache=True)
def advance(t, pol, mt, fast, deck, perm, status, log, log_len, counts, max_turns, games):  # type: ignore[no-untyped-def]
    """`_advance` on the same arrays, borrowed (`borrowed`)."""
    _advance(
        Tables(borrowed(t.cells), borrowed(t.seats), borrowed(t.piles), borrowed(t.slots)),
        borrowed(pol),
        borrowed(mt),
        borrowed(fast),
        borrowed(deck),
        borrowed(perm),
        borrowed(status),
        borrowed(log),
        borrowed(log_len),
        borrowed(counts),
        max_turns,
        games,
    )


@njit(cache=True)
def _advance(t, pol, mt, fast, deck, perm, status, log, log_len, counts, max_turns, games):  # type: ignore[no-untyped-def]
    """Play every table whose game goes on until it stops (see the module):
    `status[b]` says why. In the fast mode a table whose game ends starts a
    new one (same players and rules) until `counts[b, GAMES]` reaches `games`."""
    for b in range(t.slots.shape[0]):
        if status[b] == OVER or status[b] == STALLED:
            continue
        if mt.shape[0] != 0:
            status[b] = _play(
                t, b, pol, mt, fast, deck, perm, status, log, log_len, counts, max_turns
            )
            continue
        while True:
            st = _play(t, b, pol, mt, fast, deck, perm, status, log, log_len, counts, max_turns)
            counts[b, GAMES] += 1
            if counts[b, GAMES] >= games:
                status[b] = st
                break
            table.start_game(t, b, t.slots[b, PLAYERS], t.slots[b, PENALTY], t.slots[b, TARGET])
            status[b] = NEED_DEAL
