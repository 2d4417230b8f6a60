"""Many tables, each one learner's game against compiled bots, stepped in one
compiled call: the vectorized environment's game (`skyjo.env.vector`, and the
Gymnasium environment's on the kernel, `skyjo.env.single`).

Table b of a batch holds one game of `conf[PLAYERS]` seats: the learner at
`g.seat[b]`, the bots of `g.opponents` (policy codes of
`skyjo.kernel.policies`) in the other seats, in order. `step_tables` plays
each table's learner action, then the bots' actions (`policies.act`, each
seat with its own `random.Random` generator) until the learner is to act
again or the episode is over, and writes the learner's next observation
(`encoding.encode_table`, scaled to float32 by the layout's factors,
`layout.Layout.floats`), its action mask, its reward over the stretch and
whether the episode ended. No rule is written here: every action is the
kernel's (`table.reveal`, `draw`, `take_discard`, `place`, `reshuffle_perm`,
`end_round`), and what the environment adds is the same as the engine-driven
environment's (`skyjo.env.table.Table`): it deals each next round itself,
turns a round's end into the learner's reward (minus its round score, or at
the episode's end +1 for a win, shared wins included, and -1 for a loss),
and applies the stall rule at the turn limit (`stalled`).

Chance is the engine's (RULES.md 5), in compiled code (`skyjo.kernel.chance`):
a game of seed s deals `shuffle.KeyChain(s)`'s decks and reshuffles; its
learner's seat (unless fixed) is `random.Random(s).randrange(n)` and the bot
at seat p plays with `random.Random(seeds.bot_seed(s, p))`, as the
Gymnasium environment seeds them; each table's next game takes its seed from
the table's stream (`random.Random(first seed).getrandbits(63)`, the
environment's `SeedStream`). So a table plays exactly the game that the
engine-driven environment plays from the same seeds and learner actions.

Seats played from Python (self-play: `skyjo.env.vector`'s policy callables)
have the policy code OUTSIDE: `bots` stops where such a seat is to act, the
table waits (`g.wait[b]`: WAITING_IN_STEP within the learner's stretch,
WAITING_TO_OPEN before the learner's first decision of a new episode), and
`step_tables` and `reset_tables` return the number of waiting tables. The
caller reads the waiting seats' views (`outside_views`), chooses their
actions, and `resume_tables` plays them and goes on exactly where the table
stopped (the compiled bots again, to the learner's decision, the episode's
end and its reset, or the next outside seat): the learner's reward,
terminated, truncated, autoreset and final observation are those of the
whole stretch, as if every seat were compiled. The float observations
(`o.obs`, `o.final`) are written once no table waits.

One step of play is `move` (the action, a reshuffle from the chain's key,
the round's end and the turn limit, reported), which `play` wraps with the
learner's reward and the next deal; `play_outside` drives it for the AEC
environment's one table (`skyjo.env.kernel_game`), every seat played from
Python. The rewards, the stall rule's included, are the reference's arithmetic
(`skyjo.rewards`), compiled here as it is.

An illegal learner action (out of range, or not legal: the mask forbids it)
changes nothing and ends the episode with the reward `fconf[ILLEGAL_REWARD]`,
the Gymnasium environment's rule. An episode that ends is reset in the same
step (SAME_STEP: the terminal observation goes to `o.final`), at the next
step whatever the action (NEXT_STEP), or not at all (DISABLED, for a caller
that resets itself).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)
from skyjo.engine import DRAW, FLIP, NEXT_ROUND, NUM_ACTIONS, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.kernel import chance, table, twister
from skyjo.kernel.encoding import encode_table
from skyjo.kernel.policies import act
from skyjo.kernel.table import (
    DISCARD_LEN,
    ENDER,
    NO_CARD,
    PHASE,
    PLAYER,
    ROUND_ENDED,
    SCORES,
    STARTER,
    TOTALS,
    TURNS,
    Tables,
)
from skyjo.rewards import TURNS_TO_END
from skyjo.rewards import game_reward as _game_reward
from skyjo.rewards import round_reward as _round_reward
from skyjo.rewards import stall_decisions as _stall_decisions
from skyjo.rewards import stall_growth as _stall_growth
from skyjo.rewards import stall_reward as _stall_reward
from skyjo.rewards import turns_of as _turns_of
from skyjo.rules import DECK_SIZE

#: The columns of `conf`: the players, one round (1) or the game (0), the
#: reward (SCORE, WIN), the learner's fixed seat (-1: drawn from each game's
#: seed), the turn limit, the observation's seat slots, the rules' penalty code
#: and target, the autoreset mode (SAME_STEP...).
PLAYERS, ONE_ROUND, REWARD, SEAT, MAX_TURNS, SLOTS, PENALTY, TARGET, AUTORESET = range(9)
NCONF = 9
#: The `conf` column of each rule variant (`table.RULE_SLOTS`' names): its code
#: (`table.rule_codes`), which `start_game` is given.
RULE_CONF: dict[str, int] = {"ender_penalty": PENALTY, "target_score": TARGET}
SCORE, WIN = 0, 1
SAME_STEP, NEXT_STEP, DISABLED = 0, 1, 2
#: The columns of `fconf`: the reward of an illegal action, the learner's
#: discount (the stall rule's, `_stalled`: 1.0 unless set).
ILLEGAL_REWARD, DISCOUNT = range(2)
NFCONF = 2
#: What a stretch of play led to (WAITS: a seat played from Python is to act).
GOES_ON, OVER, CUT, WAITS = 0, 1, 2, 3
#: What one action led to (`move`).
MOVED, ROUND_DONE, AT_LIMIT = 0, 1, 2
#: The policy code of a seat played from Python (the module docstring).
OUTSIDE = -1
#: `g.wait[b]`: table b waits for no one, for an outside seat within the
#: learner's stretch, or for one before the learner's first decision.
NOT_WAITING, WAITING_IN_STEP, WAITING_TO_OPEN = 0, 1, 2
#: How `reset_tables` starts table b: from `seeds[b]` (0 <= seed < 2**63), from
#: the next seed of its stream, or as already dealt from Python (`start_with`).
FROM_SEED, FROM_STREAM, DEALT = 0, 1, 2
#: The actions a table logs between two learner decisions at most (`g.log`):
#: the learner's, the others' turns and reveals, a NEXT_ROUND (8 seats: 30).
LOG_SIZE = 64

_REVEAL, _TURNS, _FINAL_TURNS, _ROUND_OVER, _GAME_OVER = (int(p) for p in Phase)
_WORDS = twister.WORDS


class Games(NamedTuple):
    """The games of B tables of at most P seats, beside their `Tables`."""

    mt: np.ndarray  #: (B, P, WORDS) int64: each seat's bot generator
    stream: np.ndarray  #: (B, WORDS) int64: the table's stream of game seeds
    key: np.ndarray  #: (B,) uint64: the game's chain key, the next shuffle's
    seed: np.ndarray  #: (B,) int64: the game's seed (-1: seeded in Python)
    seat: np.ndarray  #: (B,) int64: the learner's seat
    pending: np.ndarray  #: (B,) bool: NEXT_STEP: reset at the next step
    wait: np.ndarray  #: (B,) int8: NOT_WAITING, WAITING_IN_STEP or WAITING_TO_OPEN
    started: np.ndarray  #: (B,) bool: a game started since the caller cleared it
    log: np.ndarray  #: (B, LOG_SIZE or 0) int8: the actions played since the caller read them
    log_len: np.ndarray  #: (B,) int64
    raw: np.ndarray  #: (B, size) int16: the learner's last observation, as integers
    final_raw: np.ndarray  #: (B, size) int16: SAME_STEP: an ended episode's last one
    opponents: np.ndarray  #: (P - 1,) int64: the other seats' policy codes (or OUTSIDE), in order
    conf: np.ndarray  #: (NCONF,) int64
    fconf: np.ndarray  #: (NFCONF,) float64
    scale: np.ndarray  #: (size,) float32: the float observation's factors
    low: np.ndarray  #: (size,) float32: and its bounds
    high: np.ndarray  #: (size,) float32
    clipped: np.ndarray  #: int64: the entries that may need clipping to their bounds
    deck: np.ndarray  #: (DECK_SIZE,) int8: work space
    order: np.ndarray  #: (DECK_SIZE,) int64: work space
    fast: np.ndarray  #: (1,) uint64: unused (the policies' fast mode)


class Out(NamedTuple):
    """What a step writes, per table."""

    obs: np.ndarray  #: (B, size) float32: the learner's observation
    mask: np.ndarray  #: (B, NUM_ACTIONS) int8: its legal actions
    reward: np.ndarray  #: (B,) float64
    terminated: np.ndarray  #: (B,) bool
    truncated: np.ndarray  #: (B,) bool
    final: np.ndarray  #: (B, size) float32: SAME_STEP: an ended episode's last observation
    ended: np.ndarray  #: (B,) bool: the episode ended at this step
    illegal: np.ndarray  #: (B,) bool: it ended on an illegal action


def new_games(batch: int, seats: int, size: int, log: bool = False) -> tuple[Tables, Games]:
    """The arrays of B = `batch` tables of `seats` seats and an observation of
    `size` entries; `conf`, `fconf`, `opponents` and the scales to be filled."""
    t = table.new_tables(batch, seats)
    g = Games(
        mt=np.zeros((batch, seats, _WORDS), np.int64),
        stream=np.zeros((batch, _WORDS), np.int64),
        key=np.zeros(batch, np.uint64),
        seed=np.full(batch, -1, np.int64),
        seat=np.zeros(batch, np.int64),
        pending=np.zeros(batch, np.bool_),
        wait=np.zeros(batch, np.int8),
        started=np.zeros(batch, np.bool_),
        log=np.zeros((batch, LOG_SIZE if log else 0), np.int8),
        log_len=np.zeros(batch, np.int64),
        raw=np.zeros((batch, size), np.int16),
        final_raw=np.zeros((batch, size), np.int16),
        opponents=np.zeros(seats - 1, np.int64),
        conf=np.zeros(NCONF, np.int64),
        fconf=np.array([0.0, 1.0], np.float64),  # ILLEGAL_REWARD, DISCOUNT
        scale=np.ones(size, np.float32),
        low=np.zeros(size, np.float32),
        high=np.ones(size, np.float32),
        clipped=np.zeros(0, np.int64),
        deck=np.zeros(DECK_SIZE, np.int8),
        order=np.zeros(DECK_SIZE, np.int64),
        fast=np.ones(1, np.uint64),
    )
    return t, g


def new_out(batch: int, size: int) -> Out:
    """Fresh output arrays (`np.empty`: a step writes every entry it reports)."""
    return Out(
        obs=np.empty((batch, size), np.float32),
        mask=np.empty((batch, NUM_ACTIONS), np.int8),
        reward=np.empty(batch, np.float64),
        terminated=np.empty(batch, np.bool_),
        truncated=np.empty(batch, np.bool_),
        final=np.empty((batch, size), np.float32),
        ended=np.empty(batch, np.bool_),
        illegal=np.empty(batch, np.bool_),
    )


@intrinsic
def borrowed(typingctx, arr):  # type: ignore[no-untyped-def]
    """The array `arr` without its reference count (no meminfo): compiled code
    then passes it to a function without the atomic increments and decrements
    of its count, which cost more than a kernel call's work. The caller keeps
    the array alive (the arrays of `step_tables` or `loop.advance` are held by
    their caller)."""
    sig = arr(arr)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ary = make_array(arr)(context, builder, value=args[0])
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()

    return sig, codegen


# --- a game -------------------------------------------------------------------------


@njit(cache=True)
def start_with(t, g, b, seat, key, deck):  # type: ignore[no-untyped-def]
    """Table b starts a game with the learner at `seat` and deals `deck`, the
    chain's key after it being `key` (the bots' generators are set)."""
    g.seat[b] = seat
    g.key[b] = key
    g.started[b] = True
    table.start_game(t, b, g.conf[PLAYERS], g.conf[PENALTY], g.conf[TARGET])
    table.deal(t, b, deck)


@njit(cache=True)
def start(t, g, b, seed):  # type: ignore[no-untyped-def]
    """Table b starts the game of `seed` (0 <= seed < 2**63), seeded as the
    module says: the learner's seat, each bot's generator, the first deck."""
    n = g.conf[PLAYERS]
    seat = g.conf[SEAT]
    if seat < 0:
        scratch = np.empty(_WORDS, np.int64)
        chance.seed_twister(scratch, seed)
        seat = twister.below(scratch, n)
    for p in range(n):  # the learner's too: `teacher_actions` plays as its bot would
        chance.seed_twister(g.mt[b, p], chance.bot_seed(seed, p))
    g.seed[b] = seed
    key = chance.shuffled_deck(np.uint64(seed), g.deck)
    start_with(t, g, b, seat, key, g.deck)


@njit(cache=True, inline="always")
def _log(g, b, action):  # type: ignore[no-untyped-def]
    if g.log.shape[1]:
        g.log[b, g.log_len[b]] = action
        g.log_len[b] += 1


@njit(cache=True, inline="always")
def move(t, b, action, key, order, conf):  # type: ignore[no-untyped-def]
    """The seat to act at table b plays `action` (legal): a reveal, a draw (the
    discard pile reshuffled first when the draw pile is empty, RULES.md 2.7,
    from the chain's key `key[b]`, `order` its work space), a take, or a
    placement. MOVED; ROUND_DONE when the placement ended the round (it is
    scored); AT_LIMIT when it left the round going at `conf[MAX_TURNS]` turns.
    Every step of play goes through here: the batch's (`play`) and a table's
    played from Python (`play_outside`)."""
    if action < DRAW:
        table.reveal(t, b, action - REVEAL)
        return MOVED
    if action == DRAW:
        if table.draw(t, b) == NO_CARD:
            size = t.slots[b, DISCARD_LEN] - 1
            key[b] = chance.shuffled_order(key[b], size, order)
            table.reshuffle_perm(t, b, order)
            table.draw(t, b)
        return MOVED
    if action == TAKE_DISCARD:
        table.take_discard(t, b)
        return MOVED
    if action < FLIP:
        status = table.place(t, b, action - SWAP, False)
    else:
        status = table.place(t, b, action - FLIP, True)
    if status == ROUND_ENDED:
        return ROUND_DONE
    if t.slots[b, TURNS] >= conf[MAX_TURNS]:
        return AT_LIMIT
    return MOVED


@njit(cache=True, inline="always")
def episode_over(t, b, conf):  # type: ignore[no-untyped-def]
    """Whether a round just scored at table b ends the episode: the game is
    over (RULES.md 3), or the episode is one round."""
    return t.slots[b, PHASE] == _GAME_OVER or conf[ONE_ROUND] != 0


@njit(cache=True, inline="always")
def deal_next(t, b, key, deck):  # type: ignore[no-untyped-def]
    """Deal table b's next round from the chain's key `key[b]` (`deck`: work space)."""
    key[b] = chance.shuffled_deck(key[b], deck)
    table.deal(t, b, deck)


@njit(cache=True, inline="always")
def play(t, g, o, b, action):  # type: ignore[no-untyped-def]
    """The seat to act at table b plays `action` (legal, `move`), logged; a
    round's end is scored (`_scored`), the turn limit applied (`_stalled`).
    The learner's reward goes to o.reward[b]. GOES_ON, OVER or CUT."""
    _log(g, b, action)
    event = move(t, b, action, g.key, g.order, g.conf)
    if event == ROUND_DONE:
        return _scored(t, g, o, b)
    if event == AT_LIMIT:
        return _stalled(t, g, o, b)
    return GOES_ON


@njit(cache=True, inline="always")
def _lowest(t, b, n, skip):  # type: ignore[no-untyped-def]
    """The lowest total of the seats whose bit in `skip` is clear (a large
    number when none is)."""
    lowest = 1 << 40
    for p in range(n):
        if not (skip >> p) & 1 and t.seats[b, TOTALS, p] < lowest:
            lowest = t.seats[b, TOTALS, p]
    return lowest


@njit(cache=True)
def _scored(t, g, o, b):  # type: ignore[no-untyped-def]
    """A round was scored: the learner's reward (minus its round score; or, at
    the episode's end, +1 for a lowest total, shared or not, else -1); the
    next round dealt from the chain unless the episode is over."""
    n = g.conf[PLAYERS]
    seat = g.seat[b]
    over = episode_over(t, b, g.conf)
    if g.conf[REWARD] == SCORE:
        o.reward[b] += round_reward(t.seats[b, SCORES, seat])
    elif over:
        o.reward[b] += game_reward(t.seats[b, TOTALS, seat] == _lowest(t, b, n, 0))
    if over:
        return OVER
    deal_next(t, b, g.key, g.deck)
    _log(g, b, NEXT_ROUND)
    return GOES_ON


#: The rewards' arithmetic, the reference's own (`skyjo.rewards`), compiled.
round_reward = njit(cache=True)(_round_reward)
game_reward = njit(cache=True)(_game_reward)
stall_reward = njit(cache=True)(_stall_reward)
stall_growth = njit(cache=True)(_stall_growth)
stall_decisions = njit(cache=True)(_stall_decisions)
turns_of = njit(cache=True)(_turns_of)


@njit(cache=True)
def _stalled(t, g, o, b):  # type: ignore[no-untyped-def]
    """The turn limit (`skyjo.env.table.stalled`, the stall rule): every seat
    that has played TURNS_TO_END turns while nobody ended the round pays
    (SCORE: its total made the target plus ROUND_BOUND; WIN: a loss, the
    lowest totals of the others winning), its penalty times
    `stall_growth(fconf[DISCOUNT], its decisions since it could end the
    round)` (`skyjo.rewards`' arithmetic); OVER, or CUT when no seat could
    have ended the round."""
    n = g.conf[PLAYERS]
    seat = g.seat[b]
    turns, starter = t.slots[b, TURNS], t.slots[b, STARTER]
    guilty = 0
    if t.slots[b, ENDER] < 0:
        for p in range(n):
            if turns_of(p, n, turns, starter) >= TURNS_TO_END:
                guilty |= 1 << p
    if guilty == 0:
        return CUT
    mine = (guilty >> seat) & 1 != 0
    total = t.seats[b, TOTALS, seat]
    growth = 1.0
    if mine:
        decisions = stall_decisions(turns_of(seat, n, turns, starter))
        growth = stall_growth(g.fconf[DISCOUNT], decisions)
    won = not mine and total == _lowest(t, b, n, guilty)
    score = g.conf[REWARD] == SCORE
    o.reward[b] += stall_reward(score, total, g.conf[TARGET], mine, won, growth)
    return OVER


@njit(cache=True, inline="always")
def bots(t, g, o, b):  # type: ignore[no-untyped-def]
    """The bots play at table b until the learner is to act or the episode is
    over: GOES_ON, OVER or CUT; or WAITS for a seat played from Python."""
    seat = g.seat[b]
    while t.slots[b, PLAYER] != seat:
        p = t.slots[b, PLAYER]
        code = g.opponents[p - 1 if p > seat else p]
        if code == OUTSIDE:
            return WAITS
        event = play(t, g, o, b, act(code, t, b, p, g.mt, g.fast))
        if event != GOES_ON:
            return event
    return GOES_ON


@njit(cache=True, inline="always")
def observe(t, g, o, b, live, raw):  # type: ignore[no-untyped-def]
    """The learner's view of table b as integers into `raw` (a row of `g.raw`
    or `g.final_raw`), its legal actions into o.mask[b] when `live` (else
    zeros). `floats` scales it afterwards: reading the integers back right
    after writing them would stall the processor (its vector loads cannot
    take the values from its pending scalar stores), so the batch writes
    every table's first, then converts them all."""
    encode_table(
        t.cells, t.seats, t.piles, t.slots, b, g.seat[b], live, g.conf[SLOTS], raw, o.mask[b]
    )


@njit(cache=True)
def floats(g, raw, out):  # type: ignore[no-untyped-def]
    """`out` (float32) gets `raw` (an integer observation) times its factors,
    clipped to the bounds where they are a clip (`layout.to_float`)."""
    scale = g.scale
    for i in range(raw.shape[0]):
        out[i] = np.float32(raw[i]) * scale[i]
    for i in g.clipped:  # the others cannot leave their bounds
        out[i] = min(max(out[i], g.low[i]), g.high[i])


# --- the batch ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def step_one(t, g, o, b, action):  # type: ignore[no-untyped-def]
    """Table b's step (the module): the learner's action, the bots' moves, the
    episode's end and its reset, the next observation."""
    o.reward[b] = 0.0
    o.illegal[b] = False
    if g.pending[b]:  # NEXT_STEP: the episode ended at the last step
        g.pending[b] = False
        o.terminated[b] = o.truncated[b] = o.ended[b] = False
        start(t, g, b, chance.getrandbits63(g.stream[b]))
        opening(t, g, o, b)
        return
    if (
        0 <= action < NUM_ACTIONS
        and t.slots[b, PLAYER] == g.seat[b]
        and table.legal(t, b, np.int64(action))
    ):
        event = play(t, g, o, b, np.int64(action))
        if event == GOES_ON:
            event = bots(t, g, o, b)
    else:
        o.reward[b] = g.fconf[ILLEGAL_REWARD]
        o.illegal[b] = True
        event = OVER
    stretch(t, g, o, b, event)


@njit(cache=True, inline="always")
def stretch(t, g, o, b, event):  # type: ignore[no-untyped-def]
    """What the learner's stretch at table b led to: its ends, the next
    observation, the reset (SAME_STEP) or its promise (NEXT_STEP); or the
    wait for a seat played from Python."""
    if event == WAITS:
        g.wait[b] = WAITING_IN_STEP
        return
    o.terminated[b] = event == OVER
    o.truncated[b] = event == CUT
    o.ended[b] = event != GOES_ON
    if event == GOES_ON:
        observe(t, g, o, b, True, g.raw[b])
    elif g.conf[AUTORESET] == SAME_STEP:
        observe(t, g, o, b, False, g.final_raw[b])
        start(t, g, b, chance.getrandbits63(g.stream[b]))
        opening(t, g, o, b)
    else:
        observe(t, g, o, b, False, g.raw[b])
        g.pending[b] = g.conf[AUTORESET] == NEXT_STEP


@njit(cache=True)
def opening(t, g, o, b):  # type: ignore[no-untyped-def]
    """The bots play to the learner's first decision of a new game (no round
    ends before it: the learner's opening reveals come first) and it is
    observed; or the table waits for a seat played from Python."""
    if bots(t, g, o, b) == WAITS:
        g.wait[b] = WAITING_TO_OPEN
    else:
        observe(t, g, o, b, True, g.raw[b])


@njit(cache=True)
def _borrow(t, g, o):  # type: ignore[no-untyped-def]
    """The three groups of arrays, borrowed (`borrowed`: no reference
    counts, which compiled calls would otherwise change atomically for every
    array of every group they pass on); the caller keeps them alive."""
    bt = Tables(borrowed(t.cells), borrowed(t.seats), borrowed(t.piles), borrowed(t.slots))
    bg = Games(
        borrowed(g.mt), borrowed(g.stream), borrowed(g.key), borrowed(g.seed),
        borrowed(g.seat), borrowed(g.pending), borrowed(g.wait), borrowed(g.started),
        borrowed(g.log), borrowed(g.log_len),
        borrowed(g.raw), borrowed(g.final_raw), borrowed(g.opponents), borrowed(g.conf),
        borrowed(g.fconf), borrowed(g.scale), borrowed(g.low), borrowed(g.high),
        borrowed(g.clipped), borrowed(g.deck), borrowed(g.order), borrowed(g.fast),
    )  # fmt: skip
    bo = Out(
        borrowed(o.obs), borrowed(o.mask), borrowed(o.reward), borrowed(o.terminated),
        borrowed(o.truncated), borrowed(o.final), borrowed(o.ended), borrowed(o.illegal),
    )  # fmt: skip
    return bt, bg, bo


@njit(cache=True)
def step_tables(t, g, o, actions):  # type: ignore[no-untyped-def]
    """`step_one` at every table b with actions[b]; the number of tables left
    waiting for a seat played from Python (`resume_tables`)."""
    bt, bg, bo = _borrow(t, g, o)
    waiting = 0
    for b in range(t.slots.shape[0]):
        step_one(bt, bg, bo, b, actions[b])
        waiting += bg.wait[b] != NOT_WAITING
    if waiting == 0:
        _convert(bg, bo)
    return waiting


@njit(cache=True)
def resume_tables(t, g, o, tables, actions):  # type: ignore[no-untyped-def]
    """The waiting seat at each table tables[i] plays actions[i] (legal: the
    caller checks it against `outside_views`' mask), and the table goes on
    where it stopped, into the same step's `o`; the number of tables still
    waiting (the float observations are written once none is)."""
    bt, bg, bo = _borrow(t, g, o)
    for i in range(tables.shape[0]):
        b = tables[i]
        kind = bg.wait[b]
        bg.wait[b] = NOT_WAITING
        event = play(bt, bg, bo, b, np.int64(actions[i]))
        if event == GOES_ON:
            event = bots(bt, bg, bo, b)
        if kind == WAITING_IN_STEP:
            stretch(bt, bg, bo, b, event)
        elif event == WAITS:  # WAITING_TO_OPEN: the opening goes on (GOES_ON)
            bg.wait[b] = WAITING_TO_OPEN
        else:
            observe(bt, bg, bo, b, True, bg.raw[b])
    waiting = 0
    for b in range(t.slots.shape[0]):
        waiting += bg.wait[b] != NOT_WAITING
    if waiting == 0:
        _convert(bg, bo)
    return waiting


@njit(cache=True)
def outside_views(t, g, tables, obs, mask, seats):  # type: ignore[no-untyped-def]
    """For each waiting table tables[i]: the seat to act into seats[i], its
    observation into obs[i] (float32, encoded for that seat exactly as the
    learner's is for the learner) and its legal actions into mask[i]."""
    raw = np.empty(g.raw.shape[1], np.int16)
    for i in range(tables.shape[0]):
        b = tables[i]
        p = t.slots[b, PLAYER]
        seats[i] = p
        encode_table(t.cells, t.seats, t.piles, t.slots, b, p, True, g.conf[SLOTS], raw, mask[i])
        floats(g, raw, obs[i])


@njit(cache=True)
def _convert(g, o):  # type: ignore[no-untyped-def]
    """Every table's observation, and each ended episode's last (SAME_STEP), as floats."""
    for b in range(g.raw.shape[0]):
        floats(g, g.raw[b], o.obs[b])
        if o.ended[b] and g.conf[AUTORESET] == SAME_STEP:
            floats(g, g.final_raw[b], o.final[b])


@njit(cache=True)
def teacher_actions(t, g, code, out):  # type: ignore[no-untyped-def]
    """out[b]: the action compiled policy `code` would take in table b's
    learner seat, where the learner is to act (else -1): a teacher's labels
    for imitation. It plays nothing; a random choice draws on the learner
    seat's own generator, seeded as a bot in that seat would be."""
    for b in range(t.slots.shape[0]):
        seat = g.seat[b]
        if g.pending[b] or t.slots[b, PLAYER] != seat:
            out[b] = -1
        else:
            out[b] = act(code, t, b, seat, g.mt, g.fast)


@njit(cache=True)
def seat_actions(t, g, code, tables, out):  # type: ignore[no-untyped-def]
    """out[i]: the action compiled policy `code` would take for the seat to
    act at table tables[i], whichever it is, drawing a random choice from that
    seat's generator, seeded as a bot's there (a compiled bot played from
    Python, as a self-play test's opponent)."""
    for i in range(tables.shape[0]):
        b = tables[i]
        out[i] = act(code, t, b, t.slots[b, PLAYER], g.mt, g.fast)


@njit(cache=True)
def reset_tables(t, g, o, how, seeds):  # type: ignore[no-untyped-def]
    """Start a game at every table b (`how[b]`: FROM_SEED `seeds[b]`, its
    stream seeded with it too; FROM_STREAM; DEALT by `start_with`), let the
    bots play to the learner's first decision and observe it; the number of
    tables waiting for a seat played from Python (`resume_tables`)."""
    t, g, o = _borrow(t, g, o)
    waiting = 0
    for b in range(t.slots.shape[0]):
        if how[b] == FROM_SEED:
            chance.seed_twister(g.stream[b], seeds[b])
            start(t, g, b, seeds[b])
        elif how[b] == FROM_STREAM:
            start(t, g, b, chance.getrandbits63(g.stream[b]))
        g.pending[b] = False
        g.wait[b] = NOT_WAITING
        o.reward[b] = 0.0
        o.terminated[b] = o.truncated[b] = o.ended[b] = o.illegal[b] = False
        opening(t, g, o, b)
        waiting += g.wait[b] != NOT_WAITING
    if waiting == 0:
        _convert(g, o)
    return waiting


# --- one table whose every seat is played from Python (the AEC environment) -------

#: What `play_outside` says happened, packed with the seat to act then: code *
#: BASE + seat. STEPPED: the game goes on (the seat's observation is written);
#: SCORED: a round was scored, and the next dealt unless the episode is over;
#: STALLED: the turn limit (the stall rule, `skyjo.env.table.stalled`);
#: REFUSED: an illegal action, nothing played.
STEPPED, SCORED, STALLED, REFUSED = range(4)
BASE = 16  #: more than the seats of a table (RULES.md 1: 8 at most)
#: `play_outside`'s `work`: a deck's or a reshuffle's room, then the chain's key.
KEY_AT = DECK_SIZE
WORK_SIZE = DECK_SIZE + 1


@njit(cache=True)
def play_outside(cells, seats, piles, slots, conf, work, action, out, mask):  # type: ignore[no-untyped-def]
    """The seat to act at table 0 plays `action` (`move`; the next round dealt
    from the chain, `deal_next`, unless the episode is over), for a caller
    that plays every seat (`skyjo.env.kernel_game`): what happened and the
    seat to act, packed (STEPPED... above); when STEPPED, `out` and `mask`
    get that seat's observation and legal actions (`encode_table`), the one
    the caller is asked for next. The arrays come one by one, not as
    `Games`, whose many arrays would cost microseconds to pass from Python,
    and as few as can be: `work` (int64, WORK_SIZE) holds the chain's key
    (at KEY_AT, its bits) before the work space of a reshuffle's order or a
    deal's deck."""
    key = borrowed(work[KEY_AT:].view(np.uint64))
    work = borrowed(work[:KEY_AT])
    t = Tables(borrowed(cells), borrowed(seats), borrowed(piles), borrowed(slots))  # `_borrow`
    if not (0 <= action < NUM_ACTIONS and table.legal(t, 0, np.int64(action))):
        return REFUSED * BASE + slots[0, PLAYER]
    event = move(t, 0, np.int64(action), key, work, conf)
    if event == MOVED:
        player = slots[0, PLAYER]
        cells, seats, piles, slots = t
        encode_table(
            cells, seats, piles, slots, 0, player, True, conf[SLOTS], borrowed(out), borrowed(mask)
        )
        return STEPPED * BASE + player
    if event == AT_LIMIT:
        return STALLED * BASE + slots[0, PLAYER]
    if not episode_over(t, 0, conf):
        deal_next(t, 0, key, work)
    return SCORED * BASE + slots[0, PLAYER]
