"""The batch simulator's game loop: whole games on kernel tables, compiled.

`advance` plays every table of a batch on: each table's game, deal to
reveals to turns to reshuffles to round ends to the next round to the game's
end, in one compiled call, the players' actions from the compiled policies
(`skyjo.kernel.policies`), each action played by the environments' step of
play (`skyjo.kernel.vector.move`: the kernel's rules, a reshuffle from the
chain's key, the round's end, the turn limit) and each next round dealt
from the chain (`vector.deal_next`). Nothing here is a rule: the loop only
asks who acts and what they choose, and hands it to the kernel.

Chance (RULES.md 5: a round's deck, each reshuffle's new draw pile) walks
along each table's chain of keys (`keys[b]`, compiled: `skyjo.kernel.chance`).
In the *seeded* mode (a non-empty `mt`) the caller deals a game's first
round (`deck[b]`, 150 cards top first, with the status NEED_DEAL) and sets
`keys[b]` to the key after it, as `shuffle.KeyChain` gives them from the
game's seed; the loop plays the game on exactly as the engine would
(`skyjo.batch.games`), and stops a table at each round's end (RUNNING) so
that the caller reads its log. In the *fast* mode (an empty `mt`), decks
are shuffled here from the table's xorshift state (`fast[b]`), and a
finished game is followed by a new one until the table has played `games`
games: no Python in the loop.

The round limit (`GAME_INFO.max_round_turns`, as `skyjo.match` applies it):
a round that reaches `max_turns` turns still in play stops its game
(STALLED).

The log (seeded mode; none when `log` has no columns), per table, of
int32 entries since the caller last emptied it (`log_len[b] = 0`):
DEALT then each seat's grid value after the deal; per turn the
seat and its grid value after it (`seat << 12 | value + 1024`); ROUND then
the ender, whether doubled, the columns cleared in the round (every seat's,
the final reveal's included), the round's reshuffles, the n raw scores and
the n round scores. A grid value is the sum of the seat's cards outside
cleared columns, face-down ones included (`skyjo.sim.tournament`'s
per-turn data).

`counts[b]`: TURNS_IN_ROUND, TURNS (every turn of every game), GAMES
(games finished: over or stalled), ROUNDS (rounds dealt).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skyjo.engine import SWAP, Phase
from skyjo.kernel import chance, table
from skyjo.kernel.policies import act, below
from skyjo.kernel.table import (
    CLEARED,
    DOUBLED,
    ENDER,
    PENALTY,
    PHASE,
    PLAYER,
    PLAYERS,
    RAW,
    RESHUFFLES,
    SCORES,
    TARGET,
    Tables,
)
from skyjo.kernel.vector import AT_LIMIT, MAX_TURNS, NCONF, ROUND_DONE, borrowed, move
from skyjo.rules import COLS, DECK, DECK_SIZE, GRID_SIZE

#: `status` of a table.
RUNNING, NEED_DEAL, OVER, STALLED = range(4)
#: Log markers, and the offset of a turn's grid value.
DEALT, ROUND = -1, -2
VALUE_OFFSET = 1024
#: Columns of `counts`.
TURNS_IN_ROUND, TURNS, GAMES, ROUNDS = range(4)
NCOUNTS = 4
#: Log entries a table writes between two stops at most, beyond its turns.
LOG_SLACK = 64

_ROUND_OVER, _GAME_OVER = int(Phase.ROUND_OVER), int(Phase.GAME_OVER)
#: The 150 cards in order, which the fast mode shuffles (RULES.md 1).
SORTED_DECK = np.array(DECK, np.int8)


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
    log[b, i + 4] = t.slots[b, RESHUFFLES]
    cleared = 0
    for p in range(n):
        log[b, i + 5 + p] = t.seats[b, RAW, p]
        log[b, i + 5 + n + p] = t.seats[b, SCORES, p]
        mask = t.seats[b, CLEARED, p]
        for k in range(COLS):
            cleared += (mask >> k) & 1
    log[b, i + 3] = cleared
    log_len[b] = i + 5 + 2 * n


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
    """perm[b][:size]: a permutation of range(size) from the fast state
    (the compiled self-play's reshuffles, `skyjo.kernel.selfplay`)."""
    out = perm[b]
    for i in range(size):
        out[i] = i
    for i in range(size - 1, 0, -1):
        j = below(mt, fast, b, 0, i + 1)
        out[i], out[j] = out[j], out[i]


@njit(cache=True)
def _deal(t, b, mt, fast, keys, deck, log, log_len, counts, first):  # type: ignore[no-untyped-def]
    """Deal table b's next round: in the fast mode shuffled from the fast
    state; in the seeded mode from the chain (`keys[b]`), but its first,
    which the caller laid in deck[b]."""
    if mt.shape[0] == 0:
        _fast_deck(mt, fast, b, deck)
    elif not first:
        keys[b] = chance.shuffled_deck(keys[b], deck[b])
    table.deal(t, b, deck[b])
    counts[b, TURNS_IN_ROUND] = 0
    counts[b, ROUNDS] += 1
    if log.shape[1]:
        _log_deal(t, b, log, log_len)


@njit(cache=True, inline="always")
def _turn(t, b, p, event, log, log_len, counts):  # type: ignore[no-untyped-def]
    """Count and log seat p's turn, and its round's end when `event` says so."""
    counts[b, TURNS_IN_ROUND] += 1
    counts[b, TURNS] += 1
    if log.shape[1]:
        log[b, log_len[b]] = p << 12 | (grid_value(t, b, p) + VALUE_OFFSET)
        log_len[b] += 1
        if event == ROUND_DONE:
            _log_round(t, b, log, log_len)


@njit(cache=True)
def _play(t, b, pol, mt, fast, keys, deck, perm, status, log, log_len, counts, conf):  # type: ignore[no-untyped-def]
    """Play table b until its game is over or stalls, or (with a log) a round
    ends: the new status (see the module)."""
    if status[b] == NEED_DEAL:
        _deal(t, b, mt, fast, keys, deck, log, log_len, counts, True)
    while True:
        phase = t.slots[b, PHASE]
        if phase == _GAME_OVER:
            return OVER
        p = t.slots[b, PLAYER]
        action = act(pol[b, p], t, b, p, mt, fast)  # the one decision site
        if phase == _ROUND_OVER:  # NEXT_ROUND (random draws for it too)
            _deal(t, b, mt, fast, keys, deck, log, log_len, counts, False)
            continue
        event = move(t, b, action, keys, perm[b], conf)
        if action >= SWAP:
            _turn(t, b, p, event, log, log_len, counts)
        if event == AT_LIMIT:
            return STALLED
        if event == ROUND_DONE and log.shape[1] and t.slots[b, PHASE] != _GAME_OVER:
            return RUNNING  # the caller reads the round's log


def settings(max_turns: int) -> np.ndarray:
    """The settings of the step of play (`vector.move`'s `conf`) that the loop
    reads: the round limit `max_turns`."""
    conf = np.zeros(NCONF, np.int64)
    conf[MAX_TURNS] = max_turns
    return conf


@njit(cache=True)
def advance(t, pol, mt, fast, keys, deck, perm, status, log, log_len, counts, conf, games):  # type: ignore[no-untyped-def]
    """`_advance` on the same arrays, borrowed (`vector.borrowed`); `conf`:
    `settings(max_turns)`."""
    _advance(
        Tables(borrowed(t.cells), borrowed(t.seats), borrowed(t.piles), borrowed(t.slots)),
        borrowed(pol),
        borrowed(mt),
        borrowed(fast),
        borrowed(keys),
        borrowed(deck),
        borrowed(perm),
        borrowed(status),
        borrowed(log),
        borrowed(log_len),
        borrowed(counts),
        borrowed(conf),
        games,
    )


@njit(cache=True)
def _advance(t, pol, mt, fast, keys, deck, perm, status, log, log_len, counts, conf, games):  # type: ignore[no-untyped-def]
    """Play every table whose game goes on until it stops (see the module):
    `status[b]` says why. In the fast mode a table whose game ends starts a
    new one (same players and rules) until `counts[b, GAMES]` reaches `games`."""
    for b in range(t.slots.shape[0]):
        if status[b] == OVER or status[b] == STALLED:
            continue
        if mt.shape[0] != 0:
            status[b] = _play(
                t, b, pol, mt, fast, keys, deck, perm, status, log, log_len, counts, conf
            )
            continue
        while True:
            st = _play(t, b, pol, mt, fast, keys, deck, perm, status, log, log_len, counts, conf)
            counts[b, GAMES] += 1
            if counts[b, GAMES] >= games:
                status[b] = st
                break
            table.start_game(t, b, t.slots[b, PLAYERS], t.slots[b, PENALTY], t.slots[b, TARGET])
            status[b] = NEED_DEAL
