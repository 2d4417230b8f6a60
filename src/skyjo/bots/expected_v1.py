"""The first `expected` bot, kept as `expected_v1` (or `expected:version=1`):
one-turn expected-value decisions with card counting. The registry's
`expected` is now version 2 (`skyjo.bots.expected`); this class stays
what it was, move for move (tests/bots/test_expected_bot.py replays its
recorded games), and is still the prior of `search_v1`.

Strategy. Cards are counted in two pools (`skyjo.bots.counting.pools`): a
face-down card is worth the mean of the unseen cards less those known to be in
the draw pile after a reshuffle (its own face-down cards count
`face_down_extra` more while the round goes on), and a drawn card comes from
the draw pile's cards: the known pile after a reshuffle, the discard pile but
its top when the draw pile is empty, else every unseen card. Each candidate
placement is scored by the expected value of its grid afterwards, column by
column: a column's chance to clear at the final reveal is counted exactly, and
a pair of equal face-up cards is worth more the more copies of that value
remain to be drawn and the more turns the round is likely to last. Drawing is
valued as the average, over the draw pile's cards, of the best placement of
the drawn card (or of discarding it and turning up a card); a card it
discards is charged for what it would give the next player.
A move that would end the round is scored by its final raw score against the
other players' likely scores (their face-up cards, the mean for their
face-down cards, less what their last turn should gain), with the ender's
penalty of the rules variant (RULES.md 2.10) weighted by the chance of being
doubled, and against how much more the others than itself would still gain if
the round went on. In its last turn after someone else ended, it minimises its
expected score, counting the chance to push the ender into being doubled.

Two rules keep rounds finite: it takes the discard only when that improves its
grid (never a worse card just to avoid drawing, which two such bots could
repeat forever), and after `patience` turns in one round it stops making a
drawn card's placement worse than its grid was, and turns up cards instead.
The default weights were tuned in head-to-head play against other weights.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

from skyjo.bots.counting import draw_pile_cards, pools
from skyjo.engine import DRAW, FLIP, NEXT_ROUND, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.observation import FACE_DOWN, FACE_UP, Observation
from skyjo.rules import CARD_COUNTS, COLS, GRID_SIZE, ROWS

#: A column as three cells, top to bottom: a face-up value, or None when face down.
Column = tuple[int | None, ...]
#: A grid as its columns; None for a cleared column.
Grid = list[Column | None]


class _Pool:
    """The distribution of an unseen card of one pool: each of its cards equally likely."""

    __slots__ = ("counts", "dist", "mu", "n", "var")

    def __init__(self, counts: Counter[int]) -> None:
        if sum(counts.values()) <= 0:  # nothing unseen: fall back on the whole deck
            counts = Counter(CARD_COUNTS)
        self.counts = counts
        self.n = n = sum(counts.values())
        self.dist = tuple((v, c / n) for v, c in sorted(counts.items()))
        self.mu = mu = sum(v * p for v, p in self.dist)
        self.var = sum(p * (v - mu) ** 2 for v, p in self.dist)

    def all_equal(self, value: int, k: int) -> float:
        """The chance that k unseen cards all have this value."""
        count, n, p = self.counts.get(value, 0), self.n, 1.0
        for i in range(k):
            if count - i <= 0 or n - i <= 0:
                return 0.0
            p *= (count - i) / (n - i)
        return p

    def gain(self, target: float) -> float:
        """The expected gain of replacing a card worth `target` by an unseen card, if lower."""
        return sum(p * (target - v) for v, p in self.dist if v < target)


def _phi(z: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _columns(cards: Sequence[int | None], status: Sequence[int]) -> Grid:
    grid: Grid = []
    for c in range(COLS):
        cells = [c + COLS * r for r in range(ROWS)]
        if any(status[k] not in (FACE_UP, FACE_DOWN) for k in cells):
            grid.append(None)
        else:
            grid.append(tuple(cards[k] if status[k] == FACE_UP else None for k in cells))
    return grid


def _with(column: Column, row: int, value: int) -> Column:
    return column[:row] + (value,) + column[row + 1 :]


def _exact(column: Column | None) -> int:
    """The score of a column whose cards are all known."""
    if column is None:
        return 0
    a, b, c = column
    assert a is not None and b is not None and c is not None
    return 0 if a == b == c else a + b + c


def _face_down(grid: Grid) -> int:
    return sum(v is None for column in grid if column is not None for v in column)


def _target(grid: Grid, mu: float) -> float:
    """What a new low card would replace: the highest face-up card, or a face-down card."""
    up = [v for column in grid if column is not None for v in column if v is not None]
    target = max(up, default=-3.0)
    return max(target, mu) if _face_down(grid) else target


class ExpectedBot:
    """Chooses the action with the best expected score after one turn (see the module
    docstring). The options are the tuned weights of its evaluation:

    - `face_down_extra`: added to the mean face-down card for its own face-down cards;
    - `pair_weight`, `single_weight`: how much of the chance-weighted gain of
      clearing a column later counts, from a pair / from a single face-up card;
    - `see_rate`: cards of a value it expects to see per turn, per copy to be drawn;
    - `turns_rate`: turns left in the round per face-down card of the player
      closest to ending it;
    - `gift_weight`: how much of what a discarded card gives the next player counts;
    - `end_turns`: the turns the round would last if it did not end it now;
    - `turn_spread`: the spread (points) of what another player's last turn changes;
    - `reveal_same_column`: turn up the two opening cards in one column;
    - `patience`: its turns in a round before it stops stalling.
    """

    name = "expected"

    def __init__(
        self,
        seed: int,
        face_down_extra: float = 1.0,
        pair_weight: float = 1.2,
        single_weight: float = 0.5,
        see_rate: float = 1.5,
        turns_rate: float = 0.8,
        gift_weight: float = 0.5,
        end_turns: float = 1.0,
        turn_spread: float = 3.0,
        reveal_same_column: int = 0,
        patience: int = 40,
    ) -> None:
        self._rng = random.Random(seed)
        self.face_down_extra = face_down_extra
        self.pair_weight = pair_weight
        self.single_weight = single_weight
        self.see_rate = see_rate
        self.turns_rate = turns_rate
        self.gift_weight = gift_weight
        self.end_turns = end_turns
        self.turn_spread = turn_spread
        self.reveal_same_column = reveal_same_column
        self.patience = patience
        self._round = -1
        self._turns = 0  # its turns so far in the round

    def choose(self, observation: Observation) -> int:
        obs = observation
        if obs.phase == Phase.ROUND_OVER:
            return NEXT_ROUND
        if obs.phase == Phase.REVEAL:
            return self._reveal(obs)
        if obs.held is None:
            if obs.round != self._round:
                self._round, self._turns = obs.round, 0
            self._turns += 1
        return _Turn(self, obs, hurry=self._turns > self.patience).choose()

    def _reveal(self, obs: Observation) -> int:
        """Two random cards, in different columns (or the same column when
        `reveal_same_column` is set)."""
        status = obs.status[obs.viewer]
        down = [k for k in range(GRID_SIZE) if status[k] == FACE_DOWN]
        up_columns = {k % COLS for k in range(GRID_SIZE) if status[k] == FACE_UP}
        if self.reveal_same_column:
            choice = [k for k in down if k % COLS in up_columns]
        else:
            choice = [k for k in down if k % COLS not in up_columns]
        return REVEAL + self._rng.choice(choice or down)


class _Turn:
    """The evaluation of one decision: everything computed from one observation."""

    def __init__(self, bot: ExpectedBot, obs: Observation, hurry: bool = False) -> None:
        self.bot = bot
        self.hurry = hurry
        self.obs = obs
        self.me = me = obs.viewer
        self.n = obs.num_players
        split = pools(obs)
        drawn = draw_pile_cards(obs, split)
        #: a face-down card's pool, and the next drawn card's (one pool before any
        #: reshuffle, unless the draw pile is empty)
        self.down = down = _Pool(split[0])
        self.draw = draw = down if drawn is split[0] else _Pool(drawn)
        self.grids = [_columns(c, s) for c, s in zip(obs.cards, obs.status, strict=True)]
        self.grid = self.grids[me]
        self.final = obs.ender is not None and obs.ender != me
        self.penalty = obs.rules.ender_penalty
        self.others = [p for p in range(self.n) if p != me]
        self._memo: dict[Column, float] = {}
        self._obtained: dict[int, float] = {}
        self._gifts: dict[int, float] = {}
        #: The expected score removed by three face-down cards of a column that clear.
        self._triple = sum(3 * v * down.all_equal(v, 3) for v in down.counts)
        self.colval: Callable[[Column], float] = self._static if self.final else self._normal
        # How many more turns the round should last, for the column potential.
        shortest = min(_face_down(grid) for grid in self.grids)
        self.turns = bot.turns_rate * shortest
        self.face_down_value = down.mu + (0.0 if self.final else bot.face_down_extra)
        # The other players: what their next turn should gain, their likely final score.
        self.other_gain = {p: draw.gain(_target(self.grids[p], down.mu)) for p in self.others}
        self.next = (me + 1) % self.n
        self.next_target = _target(self.grids[self.next], down.mu)
        self.base = [0.0 if col is None else self.colval(col) for col in self.grid]
        self.total = sum(self.base)
        self.face_down = _face_down(self.grid)
        self.known = sum(_exact(col) for col in self.grid if col is None or None not in col)
        if self.final:
            self._setup_final()
        else:
            self._setup_ending()

    # --- column values --------------------------------------------------------------

    def _static(self, column: Column) -> float:
        """The expected score of a column if every card were turned up now."""
        value = self._memo.get(column)
        if value is None:
            value = self._memo[column] = self._column(column, self.down.mu, 0.0, 0.0)
        return value

    def _normal(self, column: Column) -> float:
        """A column's value while the round goes on: its expected score (a face-down
        card worth the mean plus `face_down_extra`), less the chance-weighted gain of
        clearing it later."""
        value = self._memo.get(column)
        if value is None:
            bot = self.bot
            value = self._column(column, self.face_down_value, bot.pair_weight, bot.single_weight)
            self._memo[column] = value
        return value

    def _column(self, column: Column, down_value: float, pair: float, single: float) -> float:
        a, b, c = column
        pool = self.down
        if a is not None and b is not None and c is not None:
            if a == b == c:
                return 0.0
            # A pair with a third card to replace: (x, x, y) in any order.
            if a == b or a == c:
                x, y = a, (c if a == b else b)
            elif b == c:
                x, y = b, a
            else:
                return float(a + b + c)
            return a + b + c - pair * self._obtain(x) * max(0.0, 2 * x + y)
        up = [v for v in column if v is not None]
        if len(up) == 2:
            x, y = up
            value = x + y + down_value
            if x == y:
                value -= 3 * x * pool.all_equal(x, 1)
                value -= pair * self._obtain(x) * max(0.0, 2 * x + pool.mu)
            return value
        if len(up) == 1:
            x = up[0]
            value = x + 2 * down_value - 3 * x * pool.all_equal(x, 2)
            if single:
                value -= single * self._obtain(x) ** 2 * max(0.0, x + 2 * pool.mu)
            return value
        return 3 * down_value - self._triple

    def _obtain(self, value: int) -> float:
        """The chance of getting a card of this value before the round ends."""
        chance = self._obtained.get(value)
        if chance is None:
            pool = self.draw
            per_turn = min(1.0, self.bot.see_rate * pool.counts.get(value, 0) / pool.n)
            chance = self._obtained[value] = 1.0 - (1.0 - per_turn) ** self.turns
        return chance

    # --- the end of the round -----------------------------------------------------

    def _setup_ending(self) -> None:
        """The others' likely final scores if this turn ends the round."""
        pool = self.down
        self.likely: list[tuple[float, float]] = []
        for p in self.others:
            grid = self.grids[p]
            mean = sum(0.0 if col is None else self._static(col) for col in grid)
            spread = _face_down(grid) * pool.var + self.bot.turn_spread**2
            self.likely.append((mean - self.other_gain[p], math.sqrt(spread)))
        others = sum(self.other_gain.values()) / len(self.others)
        mine = self.draw.gain(_target(self.grid, pool.mu))
        # Ending now stops the others gaining more than itself.
        self.end_adjust = self.bot.end_turns * (mine - others)

    def _ending(self, raw: int) -> float:
        """The value of ending the round with this raw score: the expected score
        after the ender's penalty."""
        if self.penalty == "none" or (self.penalty == "positive" and raw <= 0):
            return raw + self.end_adjust
        alone = 1.0
        for mean, spread in self.likely:
            alone *= 1.0 - _phi((raw + 0.5 - mean) / spread)
        return raw * (2.0 - alone) + self.end_adjust

    def _setup_final(self) -> None:
        """The ender's score, and the chance that someone else already doubles it."""
        ender = self.obs.ender
        assert ender is not None
        self.ender_raw = sum(_exact(col) for col in self.grids[ender])
        doubles = self.penalty == "always" or (self.penalty == "positive" and self.ender_raw > 0)
        self.double_gain = 0.0
        if not doubles:
            return
        pool = self.down
        # The seats between the ender and me have played their last turn; those
        # after me have not.
        played, seat = set(), (ender + 1) % self.n
        while seat != self.me:
            played.add(seat)
            seat = (seat + 1) % self.n
        not_doubled = 1.0
        for p in self.others:
            if p == ender:
                continue
            grid = self.grids[p]
            mean = sum(0.0 if col is None else self._static(col) for col in grid)
            spread = _face_down(grid) * pool.var
            if p not in played:
                mean -= self.other_gain[p]
                spread += self.bot.turn_spread**2
            if spread > 0:
                not_doubled *= 1.0 - _phi((self.ender_raw + 0.5 - mean) / math.sqrt(spread))
            elif mean <= self.ender_raw:
                not_doubled = 0.0
        self.double_gain = self.ender_raw * not_doubled / (self.n - 1)

    def _final(self, total: float, unknown: int) -> float:
        """My expected score, less the chance-weighted gain of doubling the ender."""
        if not self.double_gain:
            return total
        spread = unknown * self.down.var  # 0 when the face-down cards are all known
        if spread > 0:
            chance = _phi((self.ender_raw + 0.5 - total) / math.sqrt(spread))
        else:
            chance = 1.0 if total <= self.ender_raw + 1e-9 else 0.0
        return total - chance * self.double_gain

    # --- placements -------------------------------------------------------------------

    def _gift(self, card: int) -> float:
        """What putting `card` on the discard pile gives the next player."""
        gift = self._gifts.get(card)
        if gift is None:
            gain = self.next_target - card - self.other_gain[self.next]
            gift = 0.0 if self.final else self.bot.gift_weight * max(0.0, gain) / (self.n - 1)
            self._gifts[card] = gift
        return gift

    def swap(self, card: int, k: int) -> float:
        """The value of exchanging `card` with grid position k."""
        c, row = k % COLS, k // COLS
        column = self.grid[c]
        assert column is not None
        old = column[row]
        new = _with(column, row, card)
        total = self.total - self.base[c] + self.colval(new)
        down = self.face_down - (old is None)
        gift = 0.0 if old is None else self._gift(old)
        if self.final:
            return self._final(total, down)
        if down:
            return total + gift
        # The last face-down card: this ends the round.
        known_other = self.known - _exact(column if None not in column else None)
        return self._ending(known_other + _exact(new)) + gift

    def flip(self, card: int, k: int) -> float:
        """The value of discarding the drawn `card` and turning up position k."""
        value = self._flips.get(k)
        if value is None:
            value = self._flips[k] = self._flip(k)
        return value + self._gift(card)

    def _flip(self, k: int) -> float:
        c, row = k % COLS, k // COLS
        column = self.grid[c]
        assert column is not None
        dist = self.down.dist
        if self.final:
            total = self.total - self.base[c]
            total += sum(p * self.colval(_with(column, row, v)) for v, p in dist)
            return self._final(total, self.face_down)
        if self.face_down > 1:
            value = sum(p * self.colval(_with(column, row, v)) for v, p in dist)
            return self.total - self.base[c] + value
        # The last face-down card: this ends the round.
        return sum(p * self._ending(self.known + _exact(_with(column, row, v))) for v, p in dist)

    def best_swap(self, card: int) -> float:
        return min(self.swap(card, k) for k in self.swaps)

    def choose(self) -> int:
        obs = self.obs
        legal = obs.legal_actions
        self._flips: dict[int, float] = {}
        if obs.held is None:
            # Any position not cleared takes a card; any face-down one may be turned up.
            self.swaps = [k for k in range(GRID_SIZE) if self.grid[k % COLS] is not None]
            if TAKE_DISCARD in legal and obs.discard_pile:
                take = self.best_swap(obs.discard_pile[-1])
            else:
                take = math.inf
            down = [k for k in range(GRID_SIZE) if obs.status[self.me][k] == FACE_DOWN]
            # The gift of a discarded card does not depend on which card is turned up.
            flip = min((self.flip(0, k) - self._gift(0) for k in down), default=math.inf)
            draw = 0.0
            for card, p in self.draw.dist:
                draw += p * min(self.best_swap(card), flip + self._gift(card))
            # Taking the discard must improve the grid: a worse known card is never
            # taken just to avoid drawing, or two bots could swap cards forever.
            return TAKE_DISCARD if take < min(draw, self.total - 1e-9) else DRAW
        held = obs.held
        self.swaps = [a - SWAP for a in legal if SWAP <= a < FLIP]
        best_action, best_value = legal[0], math.inf
        for action in legal:
            if SWAP <= action < FLIP:
                value = self.swap(held, action - SWAP)
                if self.hurry and obs.source == "deck" and value >= self.total:
                    continue  # a round gone on too long: turn up cards rather than stall
            elif FLIP <= action < NEXT_ROUND:
                value = self.flip(held, action - FLIP)
            else:
                continue
            if value < best_value - 1e-9:
                best_action, best_value = action, value
        return best_action
