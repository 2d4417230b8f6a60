"""One game driven through the engine for an environment: seeds, round ends, rewards.

The Gymnasium environment (`skyjo.env.single`) and the AEC environment's
reference engine (`ReferenceGame`, `raw_env(engine="reference")`) play
through a `Table`; the AEC environment's default (`skyjo.env.kernel_game`)
shares its `Settings`, `SeedStream` and `rewards`. It holds no rule:
`skyjo.engine.step` plays every action (an illegal one raises
`IllegalActionError` and changes nothing), the engine scores each round
(RULES.md 2.9, 2.10) and says when the game is over (RULES.md 3), and
`skyjo.scoring.winners` names the winners. The table only:

- seeds each game: `reset(seed)` plays the engine's `new_game(n, seed=seed)`,
  so every deck and reshuffle comes from the seed through `skyjo.shuffle`;
- deals the next round itself (`NEXT_ROUND`, the one legal action once a
  round is over), so that an agent only ever sees decisions;
- turns a round's end into rewards (`reward="score"`: minus each seat's round
  score; `reward="win"`: at the game's end +1 to each winner, shared wins
  included (RULES.md 3: equal lowest totals share the win), -1 to the others);
- stops the game when a round reaches `GAME_INFO.max_round_turns` turns
  without ending, as `skyjo.match` does, with the stall rule (`stalled`):
  the episode ends (`done`) with a penalty for every seat that could have
  ended the round (grown against the learner's `discount`), or, when none
  could have, is cut (`truncated`).

`ReferenceGame` observes a table with `skyjo.env.encoding.Encoder` and
`Masks` (the legal actions as an int8 mask, a fresh array each time)."""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from skyjo.actions import _integral
from skyjo.engine import (
    GAME_INFO,
    NEXT_ROUND,
    NUM_ACTIONS,
    Phase,
    State,
    legal_actions,
    new_game,
    step,
)
from skyjo.env.encoding import Encoder
from skyjo.kernel.layout import Layout
from skyjo.rewards import (
    ROUND_BOUND,
    TURNS_TO_END,
    game_reward,
    round_reward,
    stall_decisions,
    stall_growth,
    stall_reward,
    turns_of,
)
from skyjo.rules import Rules, check_player_count
from skyjo.scoring import winners

Reward = Literal["score", "win"]
REWARDS: tuple[str, ...] = ("score", "win")
_NO_ACTIONS = bytes(NUM_ACTIONS)
_ROUND_OVER, _GAME_OVER = int(Phase.ROUND_OVER), int(Phase.GAME_OVER)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one action led to: each seat's reward (None: all zero), and whether
    the episode is over (`done`) or cut at the round limit (`truncated`)."""

    rewards: tuple[float, ...] | None = None
    done: bool = False
    truncated: bool = False


NOTHING = Outcome()


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


@dataclass(frozen=True, slots=True)
class Settings:
    """An environment's game, checked (`settings`): the players, the rules, one
    round or the whole game, the rewards, the round limit, the learner's
    discount (the stall rule's, `stalled`)."""

    num_players: int
    rules: Rules
    one_round: bool
    reward: str
    max_round_turns: int
    discount: float = 1.0


def settings(
    num_players: int,
    rules: Rules | None = None,
    one_round: bool = False,
    reward: str = "score",
    max_round_turns: int = GAME_INFO.max_round_turns,
    discount: float = 1.0,
) -> Settings:
    """`Settings` from an environment's options, each checked (the discount
    against the round limit too: `check_stall_range`)."""
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a skyjo.Rules, not {rules!r:.40}")
    game = Settings(
        check_player_count(num_players),
        rules or Rules(),
        one_round,
        check_reward(reward),
        check_turn_limit(max_round_turns),
        check_discount(discount),
    )
    check_stall_range(game)
    return game


#: The largest round limit: the kernel counts a round's turns in int32, and no
#: round comes near it (a stalled one is cut at `GAME_INFO.max_round_turns`).
MAX_TURN_LIMIT = 2**31 - 1


def check_turn_limit(turns: int) -> int:
    """`max_round_turns` as an int (NumPy's integers too), at most
    `MAX_TURN_LIMIT`; a bool, a float or None is refused."""
    as_int = _integral(turns)
    if as_int is None:
        raise TypeError(f"max_round_turns must be an integer, not {turns!r:.40}")
    return min(as_int, MAX_TURN_LIMIT)


def check_discount(discount: float) -> float:
    """`discount` as a float, 0 < discount <= 1 (a real number, NumPy's too; a
    bool, a string or None is refused)."""
    if isinstance(discount, bool) or not isinstance(discount, (int, float, np.number)):
        raise TypeError(
            f"discount must be a number, 0 < discount <= 1 (your learner's), not {discount!r:.40}"
        )
    as_float = float(discount)
    if not 0.0 < as_float <= 1.0:  # NaN fails too
        raise ValueError(
            f"discount must be in 0 < discount <= 1 (your learner's discount), not {discount!r:.40}"
        )
    return as_float


#: The largest float32: a reward must fit it (Stable-Baselines3 stores float32).
FLOAT32_MAX = float(np.finfo(np.float32).max)


def check_stall_range(game: Settings) -> None:
    """The largest stall penalty, grown by `discount ** -k` for the largest k
    the round limit allows (the starter's turns at the limit), must be a
    float32: a ValueError otherwise. The largest penalty is 1 with
    `reward="win"`, and with `reward="score"` twice the target plus
    `ROUND_BOUND`, that of a total as low as minus the target and
    `ROUND_BOUND`, which no game comes near."""
    if game.discount == 1.0:
        return
    n = game.num_players
    most_turns = -(-game.max_round_turns // n)  # the starter's, at the limit
    if most_turns < TURNS_TO_END:
        return  # no seat can be guilty: every stall is cut
    decisions = stall_decisions(most_turns)
    target = game.rules.target_score
    largest = 1.0 if game.reward == "win" else 2.0 * (target + ROUND_BOUND)
    if not largest * stall_growth(game.discount, decisions) <= FLOAT32_MAX:  # inf, too
        raise ValueError(
            f"discount={game.discount!r} with max_round_turns={game.max_round_turns}: the stall "
            f"penalty, grown by discount ** -{decisions}, would overflow float32; "
            "raise the discount or lower max_round_turns"
        )


class Table:
    """A game of `settings` (`num_players` under `rules`), played to the target
    score (or for one round) through the engine."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.num_players = self.settings.num_players
        self.rules = self.settings.rules
        self.state: State | None = None
        self.seed: int | None = None
        self.turns = 0  #: turns played in the round so far
        self._seeds = SeedStream()

    def reset(self, seed: int | None = None) -> State:
        """Deal a new game: `new_game(n, seed=...)`, the seed from `SeedStream`."""
        self.seed = self._seeds.next(seed)
        self.state = new_game(self.num_players, seed=self.seed, rules=self.rules)
        self.turns = 0
        return self.state

    def play(self, action: int) -> Outcome:
        """Play `action` for the seat to act; deal the next round when one ends."""
        before = self.state
        assert before is not None, "reset() first"
        state = self.state = step(before, action)
        if before.held is None:
            return NOTHING  # the first half of a turn, or a reveal: nothing ends
        phase = state.phase
        if phase != _ROUND_OVER and phase != _GAME_OVER:
            self.turns += 1
            if self.turns >= self.settings.max_round_turns:
                return stalled(
                    self.settings.reward,
                    state.totals,
                    self.rules.target_score,
                    self.turns,
                    state.starter,
                    state.ender,
                    self.settings.discount,
                )
            return NOTHING
        done = phase == _GAME_OVER or self.settings.one_round
        scores = state.results[-1].scores
        outcome = Outcome(rewards(self.settings.reward, scores, state.totals, done), done)
        if not done:
            self.state = step(state, NEXT_ROUND)
            self.turns = 0
        return outcome


class SeedStream:
    """The seeds of an environment's games: a given seed plays that game, and
    each later reset without one the next seed of the stream it started (before
    any, of a stream seeded from the operating system's entropy)."""

    def __init__(self) -> None:
        self._stream: random.Random | None = None

    def next(self, seed: int | None) -> int:
        if seed is not None:
            game_seed = operator.index(seed)  # NumPy's integers too, never a float
            self._stream = random.Random(game_seed)
            return game_seed
        if self._stream is None:
            self._stream = random.Random()
        return self._stream.getrandbits(63)


def rewards(
    reward: str, scores: Sequence[int], totals: Sequence[int], done: bool
) -> tuple[float, ...] | None:
    """A round's end as rewards (None: all zero): `"score"`, minus each seat's
    round score; `"win"`, at the game's end, +1 to each winner (equal lowest
    totals share the win, RULES.md 3) and -1 to the others."""
    if reward == "score":
        return tuple(round_reward(score) for score in scores)
    if not done:
        return None
    best = set(winners(dict(enumerate(totals))))
    return tuple(game_reward(seat in best) for seat in range(len(totals)))


def stalled(
    reward: str,
    totals: Sequence[int],
    target: int,
    turns: int,
    starter: int,
    ender: int | None,
    discount: float = 1.0,
) -> Outcome:
    """The stall rule: a round stopped at the turn limit (`turns` turns) ends
    the episode, and every seat that could have ended the round (RULES.md 2.8:
    one that has played `TURNS_TO_END` turns, enough to turn up its last
    card, while nobody had ended it) pays for it:

    - `reward="score"`: such a seat's reward is minus the points that bring
      its total to `target + ROUND_BOUND`, more than any game leaves a seat
      with (a total under the target before the last round, then at most
      `ROUND_BOUND` points); the others get 0 (the round is not scored);
    - `reward="win"`: such a seat loses (-1); among the others the lowest
      totals win (+1), the rest lose; nobody wins when every seat stalled;

    and, with a `discount` g < 1 (the learner's), a guilty seat's penalty is
    divided by g**k, k = `stall_decisions(its turns)` (`stall_growth`).

    So waiting for someone else to end a round never pays, for the
    undiscounted return (an episode's rewards summed) and for the return
    discounted by g. The seat gets the penalty with its last decision, at
    most k - 1 decisions after the first at which it could have ended the
    round (the first of its `TURNS_TO_END`-th turn: two decisions a turn at
    most), so that, discounted back to that decision or any later one, the
    penalty is at least the undiscounted one divided by g. Any game played
    out from there is worth more, discounted too: with `"win"` at least -1;
    with `"score"` its rewards are minus the round scores taking the total
    T0 to T1, ..., TR, with Ti < target before the last round (else the
    game is over) and TR < target + ROUND_BOUND, and, weighted by discount
    factors 1 >= c1 >= ... >= cR, summed by parts, they make
    c1 (T0 - target) + sum over i < R of (ci - ci+1)(target - Ti)
    + cR (target - TR) > T0 - target - ROUND_BOUND, the undiscounted penalty.
    With g = 1 the penalty is the undiscounted one, unchanged.
    When no seat could have ended it (a limit shorter than a round can be, or
    an ender already), the episode is cut: `truncated`, no reward. The
    compiled environments apply the same rule (`skyjo.kernel.vector._stalled`,
    the same floats: the arithmetic is `skyjo.rewards`', which both run)."""
    n = len(totals)
    guilty = (
        ()
        if ender is not None
        else tuple(p for p in range(n) if turns_of(p, n, turns, starter) >= TURNS_TO_END)
    )
    if not guilty:
        return Outcome(truncated=True)
    growth = dict.fromkeys(guilty, 1.0)
    if discount != 1.0:
        for p in guilty:
            growth[p] = stall_growth(discount, stall_decisions(turns_of(p, n, turns, starter)))
    best = set(winners({p: totals[p] for p in range(n) if p not in growth}))
    score = reward == "score"
    results = (
        stall_reward(score, totals[p], target, p in growth, p in best, growth.get(p, 1.0))
        for p in range(n)
    )
    return Outcome(tuple(results), True)


class Masks:
    """The action mask of a tuple of legal actions, as a fresh int8 array."""

    def __init__(self) -> None:
        self._bytes: dict[tuple[int, ...], bytes] = {}

    def __call__(self, legal: tuple[int, ...]) -> np.ndarray:
        data = self._bytes.get(legal)
        if data is None:
            mask = bytearray(NUM_ACTIONS)
            for action in legal:
                mask[action] = 1
            data = self._bytes[legal] = bytes(mask)
        return np.frombuffer(bytearray(data), np.int8)  # a buffer of its own

    @staticmethod
    def empty() -> np.ndarray:
        return np.frombuffer(bytearray(_NO_ACTIONS), np.int8)


class ReferenceGame:
    """The game played by the engine itself (`Table`), observed with `Encoder`:
    `engine="reference"`, what `KernelGame` (the default) is checked against."""

    def __init__(self, settings: Settings, layout: Layout) -> None:
        self._table = Table(settings)
        self._encoder = Encoder(layout, settings.rules)
        self._masks = Masks()
        self.player = 0

    @property
    def state(self) -> State | None:
        return self._table.state

    def reset(self, seed: int | None = None) -> None:
        self.player = self._table.reset(seed).player

    def play(self, action: int) -> Outcome:
        outcome = self._table.play(action)  # IllegalActionError: nothing changed
        self.player = self._table.state.player  # type: ignore[union-attr]
        return outcome

    def observe(self, seat: int, live: bool) -> dict[str, np.ndarray]:
        state = self._table.state
        assert state is not None, "reset() first"
        live = live and seat == state.player
        mask = self._masks(legal_actions(state)) if live else Masks.empty()
        return {"observation": self._encoder.encode(state, seat), "action_mask": mask}
