"""The `search` bot: determinized Monte Carlo search, guarding a strong prior.

Nobody in Skyjo knows a face-down card, its owner included, and the only
private fact (another player's freshly drawn card) never matters on one's own
turn: so dealing the unseen cards uniformly at random (`Sampler`; after a
reshuffle, the known draw pile's cards to the draw pile and the others to the
face-down cards) samples the exact posterior, and averaging over such worlds
is sound.

At each decision it searches, the bot lists a few candidate moves: at the
start of a turn, "draw" and "take the discard and exchange it at k" for each
sensible k; with a card in hand, each sensible exchange and each
discard-and-flip. Positions that are alike (face down, in columns that look
the same) are tried once, and exchanges that lose points are left out, except
one that keeps the round from ending. The `expected` bot's choice (its prior,
`skyjo.bots.expected`) is always a candidate: the default. Each candidate is
played in many sampled worlds, the same worlds for every candidate (common
random numbers), then the round is played out to its end on the rules kernel
by the `expected` bot's choice at cheap settings for every player, the bot
included (`skyjo.kernel.playout_expected` through `skyjo.kernel.playouts`; after
a "draw", the drawn card is first placed where the prior would put it). A
playout is scored for the game, not the round: the round's scores with the
ender's penalty applied give new totals; if the game ends there, the bot's
share of the win; otherwise an estimate of its chance to win from those
totals, each opponent's lead taken as normally distributed over the rounds
likely left, at three players or more integrated over the bot's own future
score, which those chances share (`skyjo.kernel.win_chance`). The budget is spread by
successive halving (every candidate gets the same first share of playouts,
then the worse half is dropped, and so on; the default is never dropped), and
a candidate replaces the default only when it beats it by `confidence`
standard errors of their paired difference: playouts decide where they see
clearly (the end of a round, the end of the game), the prior everywhere
else. When the bot takes the discard, it remembers where it meant to put it
and plays that at once on the second step of the turn.

Only *critical* decisions are searched by default (the round has been ended,
or some player has at most `CRITICAL_DOWN` face-down cards, so the round may
end within a turn or two: about a third of the decisions), at `focus` (4)
times the budget; at the others `calm` is 0, and the prior plays them
unsearched. Searching calm decisions mostly overruled the prior by chance:
the noise of whole-round playouts is larger than the differences between
moves there (docs/bots.md).

The default budget counts simulated turns, not seconds, so the bot is
deterministic for a given seed and sequence of observations; `budget` (in
seconds) may be given instead, and is then not reproducible.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np

from skyjo import kernel
from skyjo.bots.determinize import Sampler
from skyjo.bots.expected import ExpectedBot
from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD, Phase, step
from skyjo.kernel import expectimax, forecast, game_odds, playout_expected, win_chance
from skyjo.kernel import value as value_module
from skyjo.kernel.playout_greedy import MEAN_CARD
from skyjo.kernel.playouts import EXPECTED, LOWEST_CARD, Playouts, no_placing, scratch
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation, observe
from skyjo.rules import COLUMN_PARTNERS, GRID_SIZE, MAX_PLAYERS

#: The default budget: simulated turns per decision for each other player (each
#: adds to the spread of a playout's outcome), all candidates together, each
#: turn weighted by (2 + players) / 4 and each playout counted as
#: `PLAYOUT_COST` more turns.
TURNS_PER_OPPONENT = 900
PLAYOUT_COST = 5
#: The start of a turn is searched only when the prior's values of taking the
#: discard and of drawing are within this many points.
GAP = 2.0
#: How many standard errors a move must beat the prior's choice by to replace
#: it: the playouts are few (tens a decision).
CONFIDENCE = 2.5
#: The budget's multipliers at critical decisions and at the others: only
#: critical decisions are searched, at 4 times the budget. Measured with paired
#: games (the same deals, the prior in the bot's seat as the baseline; 400
#: two-player games against `expected`): searching every decision gained +1.5
#: points [-6.7, +9.7], overruling the prior at calm decisions mostly by chance
#: (re-checked with 10 times the playouts, those overrules were worse on
#: average); searching only critical ones gained +1.8 [-2.5, +6.1] at the
#: budget of 1, +5.5 [+2.2, +8.8] at 4, +5.0 [+1.1, +8.9] at 10.
FOCUS = 4.0
CALM = 0.0
#: The spread of the difference of two players' round scores (greedy play).
ROUND_SPREAD = 16.0
#: An exchange into a face-down card is tried when it loses at most this much.
SWAP_SLACK = 2.5
#: Turns of its own in a round after which the bot stops avoiding its end.
STALL_LIMIT = 40
#: A decision is *critical* once the round has been ended or some player has at
#: most this many face-down cards: the round may end within a turn or two.
CRITICAL_DOWN = 2

Candidate = tuple[int, ...]  #: the actions of one candidate move, as played


class SearchBot:
    """Determinized Monte Carlo search (see the module's description). Options:

    - `turns` (by default `TURNS_PER_OPPONENT` for each other player) bounds
      the weighted simulated turns per decision, `iterations` the playouts per
      decision instead, and `budget` the seconds per decision (not
      reproducible), each multiplied by `focus` (4) at critical decisions
      (`critical`: the round has been ended or some player has at most `down`
      face-down cards) and by `calm` (0: the prior plays them) at the others;
    - `confidence`: how many standard errors a move must beat the prior's
      choice by to be played instead;
    - `gap`: the start of a turn is searched only when the prior's values of
      taking the discard and of drawing are within `gap` points;
    - the playouts' `expected` choice (`skyjo.kernel.playout_expected`, cheap
      settings): the look-ahead of weight `lookahead`, exact for the card to
      place only unless `full` is 1, no exact draw expectation unless
      `exact_draw` is 1, `denial`, `end_others` and `patience`. Playouts by
      the prior's own choice (`full=1,exact_draw=1`, five times the cost) and
      a wider critical set (`down=3`) measured no better than the defaults
      (docs/bots.md);
    - `joint` (1): at three players or more, a playout's chance of winning
      the game is integrated over the bot's own future score (`win_chance`);
      `joint=0` multiplies the pairwise chances (which gives a player level
      with three others an eighth of the win, not a quarter). It is the sound
      model; on 240 4-player deals it changed the result of 10 and gained
      nothing measurable (docs/bots.md);
    - `late` (0: off): every decision of a round in which some total is within
      `late` points of the target is searched at `focus`;
    - `horizon` (0: off): with `calm` above 0, a calm decision's playouts stop
      `horizon` turns of every player past the candidate move, each player's
      unfinished round valued by its forecast score (`skyjo.kernel.forecast`,
      learned from self-play), so that they are far less noisy than
      whole-round ones; on 400 2-player deals (`calm=1,horizon=2`) it gained
      nothing measurable (docs/bots.md);
    - `odds` (0: off): at two players, a played-out round that does not end
      the game is worth the chance of winning from its totals by the exact
      recursion over self-play round scores (`skyjo.kernel.game_odds`) instead
      of the normal model, which is too sure of the leader; on 1,200 2-player
      deals it changed the result of 35 and gained nothing measurable
      (docs/bots.md);
    - `value` (none by default): a value file (`skyjo.kernel.value`; `shipped`:
      the `best` bot's) that values a playout stopped after `horizon` turns
      of every player, at every searched decision, instead of playing the
      round out: the learned value at the end of truncated playouts;
    - `prior` (from Python only): the `expected` bot to use as the prior, by
      default one with its default options.
    """

    name = "search"

    def __init__(
        self,
        seed: int,
        iterations: int | None = None,
        turns: int | None = None,
        budget: float | None = None,
        confidence: float = CONFIDENCE,
        focus: float = FOCUS,
        calm: float = CALM,
        gap: float = GAP,
        lookahead: float = 1.0,
        denial: float = 1.0,
        end_others: float = 1.0,
        patience: int = playout_expected.PATIENCE,
        down: int = CRITICAL_DOWN,
        full: int = 0,
        exact_draw: int = 0,
        joint: int = 1,
        late: int = 0,
        horizon: int = 0,
        odds: int = 0,
        value: str | None = None,
        prior: ExpectedBot | None = None,
    ) -> None:
        budgets = {"iterations": iterations, "turns": turns, "budget": budget}
        for option, given in {**budgets, "focus": focus}.items():
            number = isinstance(given, int | float) and not isinstance(given, bool)
            if given is not None and not (number and given > 0):
                raise ValueError(f"{option} must be a positive number, not {given!r}")
        if isinstance(calm, bool) or not (isinstance(calm, int | float) and calm >= 0):
            raise ValueError(f"calm must be a number, 0 or more, not {calm!r}")
        if isinstance(horizon, bool) or not (isinstance(horizon, int) and horizon >= 0):
            raise ValueError(f"horizon must be a whole number of turns, 0 or more, not {horizon!r}")
        if isinstance(late, bool) or not (isinstance(late, int) and late >= 0):
            raise ValueError(f"late must be a whole number of points, 0 or more, not {late!r}")
        if prior is not None and not isinstance(prior, ExpectedBot):
            raise ValueError(f"prior must be an `expected` bot (ExpectedBot), not {prior!r}")
        if joint not in (0, 1) or isinstance(joint, bool):
            raise ValueError(f"joint must be 0 or 1, not {joint!r}")
        if odds not in (0, 1) or isinstance(odds, bool):
            raise ValueError(f"odds must be 0 or 1, not {odds!r}")
        if isinstance(down, bool) or not (isinstance(down, int) and 0 <= down <= GRID_SIZE):
            raise ValueError(f"down must be a whole number from 0 to {GRID_SIZE}, not {down!r}")
        self._rng = random.Random(seed)
        self._iterations = iterations
        self._turns = turns  # None: the default, by the number of players
        self._budget = budget
        self._confidence = confidence
        self._focus = focus
        self._calm = calm
        self._gap = gap
        self._down = down
        self._joint = int(joint)
        self._odds = int(odds)
        self._late = late
        self._horizon = horizon
        self._prior = prior if prior is not None else ExpectedBot(seed)
        self._net = None
        if value is not None:
            from skyjo.bots.best import load_value

            self._net = load_value(None if value == "shipped" else value)
            if not horizon:
                raise ValueError("value needs a horizon: the turns before the value is read")
        #: the playouts' knobs (`playout_expected.params`)
        self._prm = playout_expected.params(
            lookahead=lookahead,
            denial=denial,
            end_others=end_others,
            patience=patience,
            full=full,
            exact_draw=exact_draw,
        )
        self._plan: tuple[Any, int] | None = None
        self._round = -1
        self._turns_in_round = 0
        #: the mean value of each candidate at the last search (for tests and tools)
        self.last_values: dict[Candidate, float] = {}
        #: the last search's simulated turns, playouts and sampled worlds
        self.last_stats: list[int] = []

    @property
    def prior(self) -> ExpectedBot:
        """The bot whose choice is the default at every decision (`expected`)."""
        return self._prior

    # --- choosing ----------------------------------------------------------------

    def choose(self, observation: Observation) -> int:
        """The chosen legal action for the bot's turn."""
        obs = observation
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if obs.phase == Phase.REVEAL:  # the prior's two random cards in two columns
            return self._prior.choose(obs)
        me = obs.viewer
        share = self._share(obs)
        if obs.held is None:
            prior = self._prior.choose(obs)
            if obs.round != self._round:
                self._round, self._turns_in_round = obs.round, 0
            self._turns_in_round += 1
            if not share or self._settled(obs):
                return prior
            sampler = Sampler(obs)
            stall = self._turns_in_round <= STALL_LIMIT
            top = obs.discard_pile[-1]
            candidates: list[Candidate] = [(DRAW,)]
            candidates += [(TAKE_DISCARD, a) for a in placements(obs, me, top, False, stall)]
            if prior == TAKE_DISCARD:
                taken = step(sampler.state(sampler.pool, 0), TAKE_DISCARD)
                default: Candidate = (TAKE_DISCARD, self._prior.choose(observe(taken, me)))
            else:
                default = (DRAW,)
        else:
            plan, self._plan = self._plan, None
            if plan is not None and plan[0] == _plan_key(obs):
                return plan[1]
            if not share:
                return self._prior.choose(obs)
            sampler = Sampler(obs)
            stall = self._turns_in_round <= STALL_LIMIT
            drawn = obs.source == "deck"
            candidates = [(a,) for a in placements(obs, me, obs.held, drawn, stall)]
            default = (self._prior.choose(obs),)
        if default not in candidates:
            candidates.append(default)
        values, margins = self.evaluate(
            sampler, candidates, candidates.index(default), share, self._limit(obs)
        )
        self.last_values = dict(zip(candidates, values, strict=True))
        challenger = max(range(len(candidates)), key=margins.__getitem__)
        best = candidates[challenger] if margins[challenger] > self._confidence else default
        if best[0] == TAKE_DISCARD:
            after = (obs.round, obs.cards, obs.status, obs.discard_pile[:-1], obs.totals)
            self._plan = (after, best[1])
        assert best[0] in legal
        return best[0]

    def _settled(self, obs: Observation) -> bool:
        """The prior's values of taking the discard and of drawing (its last
        `choose`, at the start of this turn) are more than `gap` apart, or the
        discard would not improve its grid."""
        values = self._prior.decision(obs)[1]
        take, draw = float(values[0]), float(values[1])
        return take >= 1e17 or abs(take - draw) > self._gap

    def _share(self, obs: Observation) -> float:
        """The multiplier of the budget at this decision: `focus` at a critical
        one, and with `late` at every decision of a round in which some total
        is within `late` points of the target (the game may end with it: the
        prior minimises its round score, the playouts score the game); `calm`
        at the others (0: the prior plays it, unsearched)."""
        if self._late and max(obs.totals) >= obs.rules.target_score - self._late:
            return self._focus
        return self._focus if critical(obs, self._down) else self._calm

    def _limit(self, obs: Observation) -> int:
        """How many turns a playout plays after the candidate move: at a calm
        decision with a `horizon`, that many turns of every player (then the
        forecast); else -1, to the round's end."""
        if self._net is not None:
            return self._horizon * obs.num_players
        if self._horizon and self._share(obs) == self._calm and not critical(obs, self._down):
            return self._horizon * obs.num_players
        return -1

    def evaluate(
        self,
        sampler: Sampler,
        candidates: list[Candidate],
        default: int = 0,
        share: float = 1.0,
        cut: int = -1,
        halve: bool = True,
    ) -> tuple[list[float], list[float]]:
        """Each candidate's mean value (the bot's estimated chance of winning the
        game) over sampled worlds, by successive halving (candidates dropped
        early keep the mean they had then; the `default` one is never dropped),
        and how far it beats the default one in standard errors of their
        paired difference (0 for the default itself). The budget is multiplied
        by `share`. With a `cut` (not -1), a playout stops after that many turns
        past the candidate move, its unfinished round valued by the forecast
        (`skyjo.kernel.forecast`). `halve` False: no halving, every candidate
        played in every world (for tools that label each candidate)."""
        count = len(candidates)
        if count == 1:
            return [0.0], [0.0]
        placing = drawn_placing(self._prior, sampler) if (DRAW,) in candidates else no_placing()
        moves = [_move(c) for c in candidates]
        actions = np.array([m[0] for m in moves], dtype=np.int64)
        args = np.array([m[1] for m in moves], dtype=np.int64)
        gen = np.random.Generator(np.random.PCG64(self._rng.getrandbits(64)))
        playouts = Playouts(random.Random(self._rng.getrandbits(64)), EXPECTED, self._prm)
        value = Valuer(sampler.observation, self._joint, self._odds)
        learned = LearnedValuer(self._net, sampler.observation.viewer) if self._net else None
        n = len(sampler.grids)
        world = kernel.new_tables(1, n)
        tables = kernel.new_tables(count, n)  # table i: candidate i's playout
        values = np.zeros(count)
        sums = [0.0] * count
        plays = [0] * count
        diffs = [0.0] * count  # sum of (value - default's value) over shared worlds
        squares = [0.0] * count
        active = list(range(count))
        stages = max(1, math.ceil(math.log2(count))) if halve else 1
        start = time.perf_counter()
        stats = [0, 0, 0]
        weight = (2 + n) / 4  # a turn costs more at a bigger table
        limit = self._turns or TURNS_PER_OPPONENT * (n - 1)
        for stage in range(stages):
            turns = 0.0
            played = 0
            order = np.array(active, dtype=np.int64)
            while True:
                sampler.load(world, 0, sampler.deal(gen))
                playouts.play_moves(world, tables, order, actions, args, placing, cut)
                value(tables, order, values, cut >= 0 and self._net is None)
                if learned is not None:
                    learned.values(tables, order, values)
                got = values.tolist()
                simulated = tables.turns.tolist()
                for i in active:
                    turns += simulated[i] * weight + PLAYOUT_COST
                    stats[0] += simulated[i]
                mine = got[default]
                for i in active:
                    v = got[i]
                    sums[i] += v
                    plays[i] += 1
                    d = v - mine
                    diffs[i] += d
                    squares[i] += d * d
                played += len(active)
                stats[1] += len(active)
                stats[2] += 1
                if self._budget is not None:
                    elapsed = time.perf_counter() - start
                    if elapsed >= share * self._budget * (stage + 1) / stages:
                        break
                elif self._iterations is not None:
                    if played * stages >= share * self._iterations:
                        break
                elif turns * stages >= share * limit:
                    break
            if stage + 1 < stages:
                active.sort(key=lambda i: (i != default, -sums[i] / plays[i]))
                del active[max(2, (len(active) + 1) // 2) :]
        self.last_stats = stats
        means = [s / p for s, p in zip(sums, plays, strict=True)]
        margins = []
        for i in range(count):
            n = plays[i]
            mean = diffs[i] / n
            spread = math.sqrt(max(squares[i] / n - mean * mean, 0.0) / max(n - 1, 1))
            margins.append(mean / spread if spread > 0 else 0.0)
        return means, margins


def drawn_placing(prior: ExpectedBot, sampler: Sampler) -> np.ndarray:
    """Where `prior` would put each card its player might draw now
    (`Sampler.drawable`: after a reshuffle, only the known draw pile's values):
    the SWAP or FLIP action for card c at index c - LOWEST_CARD, -1 for a card
    that cannot be drawn (a playout's `placing` after a "draw")."""
    viewer = sampler.observation.viewer
    placing = no_placing()
    for card in sampler.drawable():
        drawn = sampler.drawn(card)
        placing[card - LOWEST_CARD] = prior.choose(observe(drawn, viewer))
    return placing


def critical(obs: Observation, down: int = CRITICAL_DOWN) -> bool:
    """Whether the round may end within a turn or two: it has been ended, or some
    player has at most `down` face-down cards."""
    if obs.ender is not None:
        return True
    return min(row.count(FACE_DOWN) for row in obs.status) <= down


def _plan_key(obs: Observation) -> Any:
    return (obs.round, obs.cards, obs.status, obs.discard_pile, obs.totals)


def _move(candidate: Candidate) -> tuple[int, int]:
    """A candidate as `playouts.first_move` takes it: (DRAW, 0), (TAKE_DISCARD,
    action) or (action, 0) for the held card."""
    return (candidate[0], candidate[1] if candidate[0] == TAKE_DISCARD else 0)


def placements(obs: Observation, me: int, card: int, drawn: bool, stall: bool = True) -> list[int]:
    """The sensible places for `card` in seat `me`'s grid, as SWAP/FLIP actions:
    one per kind of position (face-down positions whose columns look the same
    are alike); exchanges that lose points are left out, except into a
    face-down card when the loss is small or the column gains a pair, and one
    exchange that keeps the round from ending when `stall` and `me` has one
    face-down card left. Discard-and-flip is offered for each kind of
    face-down position when the card was drawn."""
    cards = obs.cards[me]
    status = obs.status[me]
    down = sum(s == FACE_DOWN for s in status)
    may_end = stall and obs.ender is None and down == 1
    swaps: dict[Any, int] = {}
    flips: dict[Any, int] = {}
    every: dict[Any, int] = {}
    stall_gain, stall_action = -1e9, -1
    for k in range(GRID_SIZE):
        s = status[k]
        if s == CLEARED:
            continue
        others = tuple(
            sorted(
                (cards[o] if status[o] == FACE_UP else 99)  # 99: face down
                for o in COLUMN_PARTNERS[k]
            )
        )
        completes = others == (card, card)
        pairs = card in others and 99 in others
        if s == FACE_DOWN:
            kind: Any = ("down", others)
            gain = MEAN_CARD - card
            if gain >= -SWAP_SLACK or completes or pairs:
                swaps.setdefault(kind, SWAP + k)
            if drawn:
                flips.setdefault(kind, FLIP + k)
        else:
            value = cards[k]
            assert value is not None
            kind = ("up", value, others)
            gain = value - card
            if gain > 0 or completes:
                swaps.setdefault(kind, SWAP + k)
            elif may_end and gain > stall_gain:
                stall_gain, stall_action = gain, SWAP + k
        every.setdefault(kind, SWAP + k)
    actions = list(swaps.values()) + list(flips.values())
    if stall_action >= 0:
        actions.append(stall_action)
    if not actions:  # nothing sensible: a card taken from the discard must go somewhere
        actions = list(every.values())
    return sorted(actions)


class Valuer:
    """Scores played-out rounds for the viewer, for the game (see the module's
    description): its share of the win if the game ends, else its estimated
    chance of winning from the new totals (`joint`: see
    `skyjo.kernel.win_chance`)."""

    def __init__(self, obs: Observation, joint: int = 0, odds: int = 0) -> None:
        self.me = obs.viewer
        #: at two players with `odds`, `game_odds`' table; else none (the normal model)
        self.table = game_odds.shipped() if odds else win_chance.NO_TABLE
        #: what the leader of a round usually scores, by number of players
        self.leader_round = 22.0 + 5.0 * math.log2(obs.num_players)
        self.joint = joint
        #: the forecast's work space (`forecast.predict`)
        self.ints = scratch()[1]
        self.feats = np.zeros((MAX_PLAYERS, forecast.NFEATURES))
        self.predicted = np.zeros(MAX_PLAYERS)
        self.totals = np.zeros(MAX_PLAYERS)  # a table's totals, as floats

    def __call__(
        self, t: kernel.Tables, order: np.ndarray, out: np.ndarray, forecast_: bool = False
    ) -> None:
        """out[b], for each b of `order`: the value of table b's scored round
        (its TOTALS row: the totals before the round plus its scores); with
        `forecast_`, a round still in play counts its forecast scores
        (`skyjo.kernel.forecast`) instead."""
        weights = forecast.WEIGHTS if forecast_ else win_chance.NO_WEIGHTS
        win_chance.values(
            t, order, self.me, self.leader_round, ROUND_SPREAD, self.joint, out,
            weights, self.ints, self.feats, self.predicted, self.totals, self.table,
        )  # fmt: skip


class LearnedValuer:
    """Values the tables of playouts cut short by the learned value
    (`expectimax.table_values`); a round played out keeps the `Valuer`'s."""

    def __init__(self, net: Any, me: int) -> None:
        self.net, self.me = net, me
        self.work = value_module.work(net)
        self.scratch = expectimax.make_scratch()

    def values(self, t: kernel.Tables, order: np.ndarray, out: np.ndarray) -> None:
        _, rec, ints, win, pts, _ = self.scratch
        expectimax.table_values(self.net, t, order, self.me, out, rec, ints, self.work, win, pts)
