"""The rules of a Skyjo round on arrays, compiled: the engine's twin for every
fast user (the search's playouts, the batch simulator, the agents' environment).

The engine (`skyjo.engine`) is the reference: these are its rules on NumPy
arrays with a leading batch dimension, so that B tables live side by side and
one compiled loop plays any of them. `tests/parity/test_kernel.py` mirrors
random games of the engine here, at every player count and under every
variant, and checks that both hold the same table after every step (`make
kernel-check` runs it on 2,000 games).

Chance is the caller's, as the engine's `start_round(state, deck)` and
`reshuffle(state, order)` take it: `deal` takes the deck, `reshuffle` the new
draw pile (`reshuffle_perm`: a permutation of the discard pile). A caller that
feeds the engine's decks and reshuffles gets the engine's game.

`Tables` holds B tables of at most P seats in four arrays, so that a compiled
function takes few arguments: `cells` (each seat's 12 cards, row by row:
index row * 4 + col, RULES.md 5; a cleared card keeps its value, as in the
engine), `seats` (per seat: the rows HIDDEN... below), `piles` (the draw pile
top first, the discard pile top last) and `slots` (a table's numbers: the
columns DRAW_TOP... below). Each function works on table b of `t`, and says
which rule it plays; `step` plays one action of the engine's flat action
space, as `engine.step`, and says what happened (OK...). `view` and
`engine_view` give a table and an engine state as the same comparable
`TableView`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)
from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    NUM_ACTIONS,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    Phase,
    State,
)
from skyjo.rules import (
    CARD_VALUES,
    COLS,
    COLUMNS,
    DECK_SIZE,
    ENDER_PENALTIES,
    GRID_SIZE,
    MAX_PLAYERS,
    ROWS,
    VARIANT,
    Rules,
    check_player_count,
)

#: `held` when no card is held; what `draw` returns on an empty draw pile.
NO_CARD = -100
#: What `step` (and `place`, `pass_turn`, `reveal`) return.
OK = 0  #: done; the round goes on
ROUND_ENDED = 1  #: done, and the round was scored (phase ROUND_OVER or GAME_OVER)
NEED_RESHUFFLE = 2  #: DRAW on an empty draw pile: nothing changed
NEED_DEAL = 3  #: NEXT_ROUND: nothing changed; deal the next deck
ILLEGAL = 4  #: not a legal action here: nothing changed
#: `penalty` codes: indices of `rules.ENDER_PENALTIES` (RULES.md 2.10).
POSITIVE = ENDER_PENALTIES.index("positive")
ALWAYS = ENDER_PENALTIES.index("always")
NONE = ENDER_PENALTIES.index("none")
#: The capacity of each pile: every card of the deck.
PILE = DECK_SIZE

_REVEAL, _TURNS, _FINAL_TURNS, _ROUND_OVER, _GAME_OVER = (int(p) for p in Phase)
_ALL = (1 << GRID_SIZE) - 1
_LOWEST = min(CARD_VALUES)
_VALUES = max(CARD_VALUES) - _LOWEST + 1
#: The grid indices of each column, top to bottom (`rules.COLUMNS`), and its mask.
_COLUMN_CELLS = np.array(COLUMNS, dtype=np.int64)
_COLUMN_MASK = np.array([sum(1 << k for k in column) for column in COLUMNS], dtype=np.int64)


#: The rows of `Tables.seats`, per seat: bitmasks (bit k: the card at k) of the
#: face-down and of the cleared positions; the last scored round's raw and
#: final scores; the totals.
HIDDEN, CLEARED, RAW, SCORES, TOTALS = range(5)
NSEATS = 5
#: The rows of `Tables.piles`: the draw pile at [DRAW_TOP, DRAW_END), top first
#: (the engine's draw_pile[draw_top:]); the discard pile at [0, DISCARD_LEN), top last.
DRAW_PILE, DISCARD_PILE = range(2)
#: The columns of `Tables.slots`: a table's numbers. HELD: the card in hand
#: (NO_CARD: none), SOURCE where it came from (engine.DRAW, engine.TAKE_DISCARD,
#: -1); PLAYER to act; ENDER of the round (-1: nobody yet); PHASE, an
#: `engine.Phase`; the rules' PENALTY (a code below) and TARGET score; ROUND
#: from 0 (-1 before the first deal); STARTER (-1 until the reveals are done);
#: LAST_ENDER of the last scored round (-1: none); TURNS finished in the round
#: (a playout's patience counts them) and its RESHUFFLES; DOUBLED: whether the
#: last scored round's ender was.
(DRAW_TOP, DRAW_END, DISCARD_LEN, HELD, SOURCE, PLAYER, ENDER, PHASE, PLAYERS, PENALTY,
 TARGET, ROUND, STARTER, LAST_ENDER, TURNS, RESHUFFLES, DOUBLED) = range(17)  # fmt: skip
NSLOTS = 17
#: The kernel's rules of the variants (`rules.VARIANTS`): the `slots` column each
#: variant's code (`Variant.code`) is kept in, in `start_game`'s order of
#: arguments after `players` (tests/test_variants.py checks it names every variant).
RULE_SLOTS: dict[str, int] = {"ender_penalty": PENALTY, "target_score": TARGET}


class _Part:
    """A named view of one row of a `Tables` array (`t.hidden` is t.seats[:, HIDDEN])."""

    def __init__(self, array: str, index: int) -> None:
        self.array, self.index = array, index

    def __get__(self, t: Any, owner: Any = None) -> Any:
        return self if t is None else getattr(t, self.array)[:, self.index]


class Tables(NamedTuple):
    """B tables of at most P seats, as four arrays (see the module); each part
    has a named view for Python (`t.player[b]`)."""

    cells: np.ndarray  #: (B, P, 12) int8
    seats: np.ndarray  #: (B, NSEATS, P) int32: HIDDEN, CLEARED, RAW, SCORES, TOTALS
    piles: np.ndarray  #: (B, 2, 150) int8: DRAW_PILE, DISCARD_PILE
    slots: np.ndarray  #: (B, NSLOTS) int32

    hidden = _Part("seats", HIDDEN)
    cleared = _Part("seats", CLEARED)
    raw = _Part("seats", RAW)
    scores = _Part("seats", SCORES)
    totals = _Part("seats", TOTALS)
    draw = _Part("piles", DRAW_PILE)
    discard = _Part("piles", DISCARD_PILE)
    draw_top = _Part("slots", DRAW_TOP)
    draw_end = _Part("slots", DRAW_END)
    discard_len = _Part("slots", DISCARD_LEN)
    held = _Part("slots", HELD)
    source = _Part("slots", SOURCE)
    player = _Part("slots", PLAYER)
    ender = _Part("slots", ENDER)
    phase = _Part("slots", PHASE)
    players = _Part("slots", PLAYERS)
    penalty = _Part("slots", PENALTY)
    target = _Part("slots", TARGET)
    round = _Part("slots", ROUND)
    starter = _Part("slots", STARTER)
    last_ender = _Part("slots", LAST_ENDER)
    turns = _Part("slots", TURNS)
    reshuffles = _Part("slots", RESHUFFLES)
    doubled = _Part("slots", DOUBLED)


def new_tables(
    batch: int, seats: int = MAX_PLAYERS, players: int | None = None, rules: Rules | None = None
) -> Tables:
    """B = `batch` empty tables of `seats` seats at most; with `players`, each
    starts a game of that many players under `rules` (before its first deal)."""
    t = Tables(
        cells=np.zeros((batch, seats, GRID_SIZE), np.int8),
        seats=np.zeros((batch, NSEATS, seats), np.int32),
        piles=np.zeros((batch, 2, PILE), np.int8),
        slots=np.zeros((batch, NSLOTS), np.int32),
    )
    t.slots[:, [HELD, SOURCE, ENDER, PHASE, ROUND, STARTER, LAST_ENDER]] = (
        NO_CARD, -1, -1, _ROUND_OVER, -1, -1, -1
    )  # fmt: skip
    if players is not None:
        rules = rules or Rules()
        if check_player_count(players) > seats:
            raise ValueError(f"{players} players do not fit tables of {seats} seats")
        start_game_batch(t, players, *rule_codes(rules))
    return t


def rule_codes(rules: Rules) -> tuple[int, ...]:
    """The codes of `rules`' variants (`Variant.code`), in `RULE_SLOTS`' order:
    `start_game`'s arguments after `players`."""
    return tuple(VARIANT[name].code(getattr(rules, name)) for name in RULE_SLOTS)


def penalty_code(name: str) -> int:
    """The `penalty` code of an `ender_penalty` variant (RULES.md 2.10)."""
    if name not in ENDER_PENALTIES:
        raise ValueError(f"unknown ender penalty {name!r}: use one of {', '.join(ENDER_PENALTIES)}")
    return VARIANT["ender_penalty"].code(name)


# --- a game and a round ----------------------------------------------------------


@njit(cache=True)
def start_game(t, b, players, penalty, target):  # type: ignore[no-untyped-def]
    """Table b starts a game of `players` seats (RULES.md 1) with the `penalty`
    code and `target_score` (RULES.md 2.10, 3): totals 0, before the first deal."""
    t.slots[b, :] = 0
    t.slots[b, PLAYERS] = players
    t.slots[b, PENALTY] = penalty
    t.slots[b, TARGET] = target
    t.slots[b, HELD] = NO_CARD
    t.slots[b, SOURCE] = -1
    t.slots[b, ENDER] = -1
    t.slots[b, PHASE] = _ROUND_OVER
    t.slots[b, ROUND] = -1
    t.slots[b, STARTER] = -1
    t.slots[b, LAST_ENDER] = -1
    t.seats[b] = 0
    t.cells[b] = 0


@njit(cache=True)
def deal(t, b, deck):  # type: ignore[no-untyped-def]
    """Deal a round from `deck`, 150 cards top first (RULES.md 2.1, 2.2, 5):
    seat i gets deck[12i : 12i+12] face down, row by row, the next card starts
    the discard pile, the rest is the draw pile. Seat 0 reveals first (2.3)."""
    n = t.slots[b, PLAYERS]
    for p in range(n):
        for k in range(GRID_SIZE):
            t.cells[b, p, k] = deck[GRID_SIZE * p + k]
        t.seats[b, HIDDEN, p] = _ALL
        t.seats[b, CLEARED, p] = 0
    dealt = GRID_SIZE * n
    for i in range(DECK_SIZE):
        t.piles[b, DRAW_PILE, i] = deck[i]
    t.piles[b, DISCARD_PILE, 0] = deck[dealt]
    t.slots[b, DRAW_TOP] = dealt + 1
    t.slots[b, DRAW_END] = DECK_SIZE
    t.slots[b, DISCARD_LEN] = 1
    t.slots[b, HELD] = NO_CARD
    t.slots[b, SOURCE] = -1
    t.slots[b, PLAYER] = 0
    t.slots[b, ENDER] = -1
    t.slots[b, PHASE] = _REVEAL
    t.slots[b, ROUND] += 1
    t.slots[b, STARTER] = -1
    t.slots[b, TURNS] = 0
    t.slots[b, RESHUFFLES] = 0


@njit(cache=True)
def reveal(t, b, k):  # type: ignore[no-untyped-def]
    """The player to act turns up position k in the opening (RULES.md 2.3); once
    they have two face up play passes on, and after the last seat the starter
    plays (2.4): round 1 the highest total of the two face-up cards, the
    lowest seat on a tie; later rounds the last round's ender. OK."""
    p = t.slots[b, PLAYER]
    h = t.seats[b, HIDDEN, p] & ~(1 << k)
    t.seats[b, HIDDEN, p] = h
    up = 0
    for i in range(GRID_SIZE):
        up += 1 - ((h >> i) & 1)
    if up == 2:
        following = p + 1
        if following == t.slots[b, PLAYERS]:
            if t.slots[b, LAST_ENDER] >= 0:
                following = t.slots[b, LAST_ENDER]
            else:
                following = 0
                best = -1000
                for q in range(t.slots[b, PLAYERS]):
                    total = 0
                    for i in range(GRID_SIZE):
                        if not (t.seats[b, HIDDEN, q] >> i) & 1:
                            total += t.cells[b, q, i]
                    if total > best:
                        best, following = total, q
            t.slots[b, PHASE] = _TURNS
            t.slots[b, STARTER] = following
        t.slots[b, PLAYER] = following
    return OK


# --- a turn ---------------------------------------------------------------------


@njit(cache=True, inline="always")
def draw(t, b):  # type: ignore[no-untyped-def]
    """Draw the top card of the draw pile into the player's hand and return it
    (RULES.md 2.5); NO_CARD, nothing changed, when the draw pile is empty: then
    `reshuffle` and draw again (2.7)."""
    top = t.slots[b, DRAW_TOP]
    if top == t.slots[b, DRAW_END]:
        return NO_CARD
    card = t.piles[b, DRAW_PILE, top]
    t.slots[b, DRAW_TOP] = top + 1
    t.slots[b, HELD] = card
    t.slots[b, SOURCE] = DRAW
    return card


@njit(cache=True, inline="always")
def take_discard(t, b):  # type: ignore[no-untyped-def]
    """Take the top card of the discard pile into the hand and return it (RULES.md 2.5)."""
    size = t.slots[b, DISCARD_LEN] - 1
    card = t.piles[b, DISCARD_PILE, size]
    t.slots[b, DISCARD_LEN] = size
    t.slots[b, HELD] = card
    t.slots[b, SOURCE] = TAKE_DISCARD
    return card


@njit(cache=True)
def reshuffle(t, b, order):  # type: ignore[no-untyped-def]
    """The draw pile is empty: the discard pile less its top card becomes the
    draw pile, in `order` (its values, top first); the top card stays (RULES.md
    2.7), as `engine.reshuffle(state, order)`. ValueError, nothing changed,
    when the draw pile is not empty or `order` is not those cards."""
    if t.slots[b, DRAW_TOP] != t.slots[b, DRAW_END]:
        raise ValueError("the draw pile is not empty: there is nothing to reshuffle")
    size = t.slots[b, DISCARD_LEN] - 1
    if len(order) != size:
        raise ValueError("the reshuffled draw pile is not the discard pile less its top card")
    counts = np.zeros(_VALUES, np.int64)
    for i in range(size):
        counts[t.piles[b, DISCARD_PILE, i] - _LOWEST] += 1
    for i in range(size):
        v = order[i] - _LOWEST
        if v < 0 or v >= _VALUES or counts[v] == 0:
            raise ValueError("the reshuffled draw pile is not the discard pile less its top card")
        counts[v] -= 1
    for i in range(size):
        t.piles[b, DRAW_PILE, i] = order[i]
    _reshuffled(t, b, size)


@njit(cache=True)
def reshuffle_perm(t, b, perm):  # type: ignore[no-untyped-def]
    """`reshuffle` with the new draw pile given as a permutation of the discard
    pile less its top: card i of the new pile (top first) is discard[perm[i]].
    The caller makes sure that the draw pile is empty and perm is a permutation
    of range(discard_len - 1)."""
    size = t.slots[b, DISCARD_LEN] - 1
    for i in range(size):
        t.piles[b, DRAW_PILE, i] = t.piles[b, DISCARD_PILE, perm[i]]
    _reshuffled(t, b, size)


@njit(cache=True)
def _reshuffled(t, b, size):  # type: ignore[no-untyped-def]
    t.slots[b, DRAW_TOP] = 0
    t.slots[b, DRAW_END] = size
    t.piles[b, DISCARD_PILE, 0] = t.piles[b, DISCARD_PILE, size]
    t.slots[b, DISCARD_LEN] = 1
    t.slots[b, RESHUFFLES] += 1


@njit(cache=True, inline="always")
def place(t, b, k, flip):  # type: ignore[no-untyped-def]
    """Finish the turn at position k (RULES.md 2.5): `move`, then the turn
    passes (`pass_turn`, 2.8): ROUND_ENDED if that ended the round, else OK.
    The caller has checked that the move is legal (`legal`)."""
    move(t, b, k, flip)
    return pass_turn(t, b)


@njit(cache=True, inline="always")
def move(t, b, k, flip):  # type: ignore[no-untyped-def]
    """The card play of a turn at position k (RULES.md 2.5): exchange the held
    card with k, face up or face down, the old card going face up on the
    discard pile; or (`flip`, a drawn card only) discard the held card and turn
    up k. Then the column of k clears if it holds three equal face-up cards
    (2.6). The turn has not passed yet (`pass_turn`, or `hand_on` for a caller
    that looks at the table before a round is scored)."""
    p = t.slots[b, PLAYER]
    held = t.slots[b, HELD]
    t.slots[b, HELD] = NO_CARD
    t.slots[b, SOURCE] = -1
    t.seats[b, HIDDEN, p] &= ~(1 << k)
    size = t.slots[b, DISCARD_LEN]
    if flip:
        t.piles[b, DISCARD_PILE, size] = held
    else:
        t.piles[b, DISCARD_PILE, size] = t.cells[b, p, k]
        t.cells[b, p, k] = held
    t.slots[b, DISCARD_LEN] = size + 1
    clear_column(t, b, p, k % COLS)
    t.slots[b, TURNS] += 1


@njit(cache=True)
def swap(t, b, k):  # type: ignore[no-untyped-def]
    """`place` by exchange: the engine's SWAP + k."""
    return place(t, b, k, False)


@njit(cache=True)
def flip(t, b, k):  # type: ignore[no-untyped-def]
    """`place` by discard and flip: the engine's FLIP + k."""
    return place(t, b, k, True)


@njit(cache=True, inline="always")
def clear_column(t, b, p, col):  # type: ignore[no-untyped-def]
    """If seat p's column `col` is not cleared and holds three face-up cards of
    one value, its cards go on top of the discard pile, top to bottom, and the
    column is cleared (RULES.md 2.6: any value, -2 and 0 included). Whether it
    cleared."""
    mask = _COLUMN_MASK[col]
    if (t.seats[b, HIDDEN, p] | t.seats[b, CLEARED, p]) & mask:
        return False
    v = t.cells[b, p, _COLUMN_CELLS[col, 0]]
    if t.cells[b, p, _COLUMN_CELLS[col, 1]] != v or t.cells[b, p, _COLUMN_CELLS[col, 2]] != v:
        return False
    t.seats[b, CLEARED, p] |= mask
    size = t.slots[b, DISCARD_LEN]
    for i in range(ROWS):
        t.piles[b, DISCARD_PILE, size + i] = v
    t.slots[b, DISCARD_LEN] = size + ROWS
    return True


@njit(cache=True, inline="always")
def pass_turn(t, b):  # type: ignore[no-untyped-def]
    """The end of a turn (RULES.md 2.8): a player with no face-down card left
    ends the round if nobody has yet (the others then have one more turn each);
    play passes to the next seat (RULES.md 1), and when it comes back to the
    ender the round is scored (`end_round`): ROUND_ENDED, else OK."""
    if hand_on(t, b):
        end_round(t, b)
        return ROUND_ENDED
    return OK


@njit(cache=True, inline="always")
def hand_on(t, b):  # type: ignore[no-untyped-def]
    """`pass_turn` but the scoring: the ender is set if this turn ended the
    round, play passes to the next seat, and whether the round is now due to
    be scored (play came back to the ender: `end_round`). A table left due
    shows what everyone sees just before the final reveal (RULES.md 2.9)."""
    p = t.slots[b, PLAYER]
    if t.slots[b, ENDER] < 0 and t.seats[b, HIDDEN, p] == 0:
        t.slots[b, ENDER] = p
        t.slots[b, PHASE] = _FINAL_TURNS
    following = p + 1
    if following == t.slots[b, PLAYERS]:
        following = 0
    t.slots[b, PLAYER] = following
    return following == t.slots[b, ENDER]


# --- the end of a round -----------------------------------------------------------


@njit(cache=True)
def end_round(t, b):  # type: ignore[no-untyped-def]
    """Score the round (RULES.md 2.9, 2.10, 3): every face-down card is turned
    up; in seat order, then column order, each column of three equal cards is
    cleared onto the discard pile (this counts); each raw score is the sum of
    the cards left; the ender's penalty (`round_scores`) gives the round
    scores, added to the totals; the game is over when a total reaches the
    target. The ender (who must be set) is then the player to act."""
    n = t.slots[b, PLAYERS]
    for p in range(n):
        t.seats[b, HIDDEN, p] = 0
        for col in range(COLS):
            clear_column(t, b, p, col)
        t.seats[b, RAW, p] = final_raw(t, b, p)
    ender = t.slots[b, ENDER]
    t.slots[b, DOUBLED] = round_scores(
        t.seats[b, RAW], n, ender, t.slots[b, PENALTY], t.seats[b, SCORES]
    )
    over = False
    for p in range(n):
        t.seats[b, TOTALS, p] += t.seats[b, SCORES, p]
        if t.seats[b, TOTALS, p] >= t.slots[b, TARGET]:
            over = True
    t.slots[b, PHASE] = _GAME_OVER if over else _ROUND_OVER
    t.slots[b, PLAYER] = ender
    t.slots[b, LAST_ENDER] = ender


@njit(cache=True, inline="always")
def final_raw(t, b, p):  # type: ignore[no-untyped-def]
    """Seat p's raw round score if the round ended now (RULES.md 2.9): the sum
    of its uncleared cards, face-down ones included, a column of three equal
    cards (which the final reveal clears) counting 0."""
    score = 0
    cleared = t.seats[b, CLEARED, p]
    for col in range(COLS):
        if cleared & _COLUMN_MASK[col]:
            continue
        va = t.cells[b, p, _COLUMN_CELLS[col, 0]]
        vb = t.cells[b, p, _COLUMN_CELLS[col, 1]]
        vc = t.cells[b, p, _COLUMN_CELLS[col, 2]]
        if not (va == vb and vb == vc):
            score += va + vb + vc
    return score


@njit(cache=True)
def round_scores(raw, n, ender, penalty, scores):  # type: ignore[no-untyped-def]
    """The ender's penalty (RULES.md 2.10, `scoring.round_scores`): `scores[:n]`
    gets `raw[:n]`, the ender's doubled when some other raw score is equal or
    lower and, under POSITIVE, the ender's is above 0 (ALWAYS: whatever its
    sign; NONE: never). Whether it was doubled."""
    mine = raw[ender]
    doubled = False
    if penalty == ALWAYS or (penalty == POSITIVE and mine > 0):
        for p in range(n):
            if p != ender and raw[p] <= mine:
                doubled = True
    for p in range(n):
        scores[p] = raw[p]
    if doubled:
        scores[ender] = 2 * mine
    return doubled


# --- actions ---------------------------------------------------------------------


@njit(cache=True, inline="always")
def legal(t, b, action):  # type: ignore[no-untyped-def]
    """Whether `action` (the engine's action space) is legal at table b, as in
    `engine.legal_actions`."""
    p = t.slots[b, PLAYER]
    phase = t.slots[b, PHASE]
    if t.slots[b, HELD] != NO_CARD:
        if SWAP <= action < FLIP:
            return ((t.seats[b, CLEARED, p] >> (action - SWAP)) & 1) == 0
        if FLIP <= action < NEXT_ROUND:
            return (
                t.slots[b, SOURCE] == DRAW and ((t.seats[b, HIDDEN, p] >> (action - FLIP)) & 1) == 1
            )
        return False
    if phase == _TURNS or phase == _FINAL_TURNS:
        return action == DRAW or action == TAKE_DISCARD
    if phase == _REVEAL:
        return REVEAL <= action < DRAW and ((t.seats[b, HIDDEN, p] >> (action - REVEAL)) & 1) == 1
    if phase == _ROUND_OVER:
        return action == NEXT_ROUND
    return False


@njit(cache=True)
def legal_mask(t, b, out):  # type: ignore[no-untyped-def]
    """`out[a]` (NUM_ACTIONS booleans): whether action a is legal at table b,
    as `legal` says (in one pass)."""
    for a in range(NUM_ACTIONS):
        out[a] = False
    p = t.slots[b, PLAYER]
    phase = t.slots[b, PHASE]
    if t.slots[b, HELD] != NO_CARD:
        cleared, hidden = t.seats[b, CLEARED, p], t.seats[b, HIDDEN, p]
        drawn = t.slots[b, SOURCE] == DRAW
        for k in range(GRID_SIZE):
            out[SWAP + k] = ((cleared >> k) & 1) == 0
            out[FLIP + k] = drawn and ((hidden >> k) & 1) == 1
    elif phase == _TURNS or phase == _FINAL_TURNS:
        out[DRAW] = True
        out[TAKE_DISCARD] = True
    elif phase == _REVEAL:
        hidden = t.seats[b, HIDDEN, p]
        for k in range(GRID_SIZE):
            out[REVEAL + k] = ((hidden >> k) & 1) == 1
    elif phase == _ROUND_OVER:
        out[NEXT_ROUND] = True


@njit(cache=True)
def step(t, b, action):  # type: ignore[no-untyped-def]
    """Apply one action of the engine's space at table b, as `engine.step`:
    OK, ROUND_ENDED, NEED_RESHUFFLE, NEED_DEAL or ILLEGAL (see the module)."""
    if not legal(t, b, action):
        return ILLEGAL
    if action < DRAW:
        return reveal(t, b, action - REVEAL)
    if action == DRAW:
        if draw(t, b) == NO_CARD:
            return NEED_RESHUFFLE
        return OK
    if action == TAKE_DISCARD:
        take_discard(t, b)
        return OK
    if action < FLIP:
        return place(t, b, action - SWAP, False)
    if action < NEXT_ROUND:
        return place(t, b, action - FLIP, True)
    return NEED_DEAL


@njit(cache=True)
def copy_table(src, sb, dst, db):  # type: ignore[no-untyped-def]
    """Table sb of `src` into table db of `dst` (tables of the same seats): the
    cards of the piles in play, not what lies past them."""
    for p in range(src.cells.shape[1]):
        for k in range(GRID_SIZE):
            dst.cells[db, p, k] = src.cells[sb, p, k]
        for row in range(src.seats.shape[1]):
            dst.seats[db, row, p] = src.seats[sb, row, p]
    for i in range(src.slots[sb, DRAW_TOP], src.slots[sb, DRAW_END]):
        dst.piles[db, DRAW_PILE, i] = src.piles[sb, DRAW_PILE, i]
    for i in range(src.slots[sb, DISCARD_LEN]):
        dst.piles[db, DISCARD_PILE, i] = src.piles[sb, DISCARD_PILE, i]
    for i in range(NSLOTS):
        dst.slots[db, i] = src.slots[sb, i]


# --- batch forms -----------------------------------------------------------------


@njit(cache=True)
def start_game_batch(t, players, penalty, target):  # type: ignore[no-untyped-def]
    """`start_game` at every table."""
    for b in range(t.slots.shape[0]):
        start_game(t, b, players, penalty, target)


@njit(cache=True)
def deal_batch(t, decks):  # type: ignore[no-untyped-def]
    """`deal` at every table b from decks[b]."""
    for b in range(t.slots.shape[0]):
        deal(t, b, decks[b])


@njit(cache=True)
def step_batch(t, actions, status):  # type: ignore[no-untyped-def]
    """`step` at every table b with actions[b]; status[b] gets what happened."""
    for b in range(t.slots.shape[0]):
        status[b] = step(t, b, actions[b])


@njit(cache=True)
def legal_mask_batch(t, out):  # type: ignore[no-untyped-def]
    """`legal_mask` at every table b into out[b] (B x NUM_ACTIONS booleans)."""
    for b in range(t.slots.shape[0]):
        legal_mask(t, b, out[b])


# --- converters ------------------------------------------------------------------


class TableView(NamedTuple):
    """A table's values as plain ints and tuples, the same for a kernel table
    (`view`) and an engine state (`engine_view`), so that they compare."""

    phase: int
    player: int
    held: int | None
    source: int
    grids: tuple[tuple[int, ...], ...]
    hidden: tuple[int, ...]
    cleared: tuple[int, ...]
    draw_pile: tuple[int, ...]  #: top first
    discard_pile: tuple[int, ...]  #: top last
    ender: int | None
    round: int
    starter: int
    turns: int  #: turns finished in this round
    reshuffles: int  #: reshuffles in this round
    totals: tuple[int, ...]
    #: the last scored round: (ender, raw, scores, doubled), or None
    last_result: tuple[int, tuple[int, ...], tuple[int, ...], bool] | None


def view(t: Tables, b: int) -> TableView:
    """Table b's values."""
    n = int(t.players[b])
    held = int(t.held[b])
    ender = int(t.ender[b])
    last = int(t.last_ender[b])
    return TableView(
        phase=int(t.phase[b]),
        player=int(t.player[b]),
        held=None if held == NO_CARD else held,
        source=int(t.source[b]),
        grids=tuple(tuple(row) for row in t.cells[b, :n].tolist()),
        hidden=tuple(t.hidden[b, :n].tolist()),
        cleared=tuple(t.cleared[b, :n].tolist()),
        draw_pile=tuple(t.draw[b, t.draw_top[b] : t.draw_end[b]].tolist()),
        discard_pile=tuple(t.discard[b, : t.discard_len[b]].tolist()),
        ender=None if ender < 0 else ender,
        round=int(t.round[b]),
        starter=int(t.starter[b]),
        turns=int(t.turns[b]),
        reshuffles=int(t.reshuffles[b]),
        totals=tuple(t.totals[b, :n].tolist()),
        last_result=None
        if last < 0
        else (
            last,
            tuple(t.raw[b, :n].tolist()),
            tuple(t.scores[b, :n].tolist()),
            bool(t.doubled[b]),
        ),
    )


def _turns_in_round(state: State) -> int:
    """Turns finished in the state's round: the exchanges and flips since the
    last NEXT_ROUND of its history."""
    actions = state.history.to_bytes()
    start = actions.rfind(bytes((NEXT_ROUND,))) + 1
    tail = np.frombuffer(actions, np.uint8)[start:]
    return int(np.count_nonzero((tail >= SWAP) & (tail < NEXT_ROUND)))


def engine_view(state: State) -> TableView:
    """An engine state's values, as `view` gives a table's."""
    last = state.results[-1] if state.results else None
    return TableView(
        phase=int(state.phase),
        player=state.player,
        held=state.held,
        source=state.source,
        grids=state.grids,
        hidden=state.hidden,
        cleared=state.cleared,
        draw_pile=state.draw_pile[state.draw_top :],
        discard_pile=state.discard_pile,
        ender=state.ender,
        round=state.round,
        starter=state.starter,
        turns=_turns_in_round(state),
        reshuffles=len(state.reshuffles[-1]) if state.reshuffles else 0,
        totals=state.totals,
        last_result=None
        if last is None
        else (last.ender, tuple(last.raw), tuple(last.scores), last.doubled),
    )


def load_state(t: Tables, b: int, state: State) -> None:
    """Copy an engine state into table b (whose seats must hold its players)."""
    n = state.num_players
    if n > t.cells.shape[1]:
        raise ValueError(f"{n} players do not fit tables of {t.cells.shape[1]} seats")
    start_game(t, b, n, *rule_codes(state.rules))
    if state.cells:
        t.cells[b, :n] = np.array(state.cells, np.int8).reshape(n, GRID_SIZE)
        t.hidden[b, :n] = state.hidden
        t.cleared[b, :n] = state.cleared
    pile = state.draw_pile[state.draw_top :]
    t.draw[b, : len(pile)] = pile
    t.draw_top[b], t.draw_end[b] = 0, len(pile)
    t.discard[b, : len(state.discard_pile)] = state.discard_pile
    t.discard_len[b] = len(state.discard_pile)
    t.held[b] = NO_CARD if state.held is None else state.held
    t.source[b] = state.source
    t.player[b] = state.player
    t.ender[b] = -1 if state.ender is None else state.ender
    t.phase[b] = int(state.phase)
    t.round[b] = state.round
    t.starter[b] = state.starter
    t.turns[b] = _turns_in_round(state)
    t.reshuffles[b] = len(state.reshuffles[-1]) if state.reshuffles else 0
    t.totals[b, :n] = state.totals
    if state.results:
        last = state.results[-1]
        t.last_ender[b] = last.ender
        t.raw[b, :n] = last.raw
        t.scores[b, :n] = last.scores
        t.doubled[b] = last.doubled


def as_deck(cards: Any) -> np.ndarray:
    """A deck (or pile) as the kernel takes it: an int8 array."""
    return np.asarray(cards, dtype=np.int8)


#: What `skyjo.kernel` hands on: the tables and their rules.
__all__ = [
    "ALWAYS", "CLEARED", "DISCARD_LEN", "DISCARD_PILE", "DOUBLED", "DRAW_END", "DRAW_PILE",
    "DRAW_TOP", "ENDER", "HELD", "HIDDEN", "ILLEGAL", "LAST_ENDER", "NEED_DEAL",
    "NEED_RESHUFFLE", "NONE", "NO_CARD", "NSEATS", "NSLOTS", "OK", "PENALTY", "PHASE", "PILE",
    "PLAYER", "PLAYERS", "POSITIVE", "RAW", "RESHUFFLES", "ROUND", "ROUND_ENDED", "RULE_SLOTS",
    "SCORES", "SOURCE", "STARTER", "TARGET", "TOTALS", "TURNS", "TableView", "Tables",
    "as_deck", "clear_column", "copy_table", "deal", "deal_batch", "draw", "end_round",
    "engine_view", "final_raw", "flip", "hand_on", "legal", "legal_mask", "legal_mask_batch",
    "load_state", "move", "new_tables", "pass_turn", "penalty_code", "place", "reshuffle",
    "reshuffle_perm", "reveal", "round_scores", "rule_codes", "start_game", "start_game_batch",
    "step", "step_batch", "swap", "take_discard", "view"
]  # fmt: skip
