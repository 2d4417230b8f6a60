"""One game on a kernel table for the AEC environment: the engine's game, compiled.

`raw_env(engine="kernel")` (the default) plays through a `KernelGame`; with
`engine="reference"` through `skyjo.env.table.Table`, the engine itself.
Both play the same game from the same seed, and a test plays thousands of
steps both ways and compares every observation, mask, reward and
termination. No rule is written here, and no driver of its own: every action
is played by the vector kernel's step of play (`skyjo.kernel.vector.move`,
through `play_outside`: a table whose every seat is played from Python),
with the next observation in the same compiled call, and chance is the engine's (RULES.md 5): each
round's deck and each reshuffle come along the chain of keys that
`new_game(n, seed=seed)` starts (`shuffle.KeyChain` deals the first round;
the kernel's `chance` walks on from its key).

What the table adds to the rules is `Table`'s (see it): it deals the next
round itself, turns a round's end into rewards, and stops a round at
`max_round_turns` turns (the stall rule, `skyjo.env.table.stalled`). An
illegal action changes nothing and raises the engine's own
`IllegalActionError`: the game is replayed through the engine (`state`) and
the engine names the reason.

`state` is that replay: the engine's `State` of the game, built from the
seed and the actions played, brought up to date only when asked (for
`game_state`, `render`, and an illegal action's error).
"""

from __future__ import annotations

import numpy as np

from skyjo import kernel
from skyjo.actions import _integral
from skyjo.engine import NEXT_ROUND, NUM_ACTIONS, Phase, State, new_game, step
from skyjo.env.table import NOTHING, Outcome, SeedStream, Settings, rewards, stalled
from skyjo.kernel import vector
from skyjo.kernel.chance import key_word
from skyjo.kernel.encoding import encode_table
from skyjo.kernel.layout import Layout
from skyjo.kernel.vector import BASE, REFUSED, STALLED, play_outside
from skyjo.shuffle import KeyChain

_GAME_OVER = int(Phase.GAME_OVER)


class KernelGame:
    """A game of `num_players` under `rules` on one kernel table, to the target
    score (or for one round), seeded as the engine's `new_game`."""

    def __init__(self, settings: Settings, layout: Layout) -> None:
        self.settings = settings
        self.rules = rules = settings.rules
        self.num_players = n = settings.num_players
        self._max_turns = settings.max_round_turns
        self._slots = layout.slots
        #: The next observation, made with the last action: (seat, observation).
        self._ready: tuple[int, dict[str, np.ndarray]] | None = None
        self.layout = layout
        self.player = 0
        self._tables = kernel.new_tables(1, n, n, rules)
        self._arrays = tuple(self._tables)
        #: The table's settings (`vector`'s conf); work space and the chain's key.
        self._work = np.zeros(vector.WORK_SIZE, np.int64)
        self._key = self._work[vector.KEY_AT :].view(np.uint64)
        self._conf = conf = np.zeros(vector.NCONF, np.int64)
        conf[vector.PLAYERS], conf[vector.ONE_ROUND] = n, settings.one_round
        conf[vector.MAX_TURNS], conf[vector.SLOTS] = settings.max_round_turns, layout.slots
        for name, code in zip(kernel.RULE_SLOTS, kernel.rule_codes(rules), strict=True):
            conf[vector.RULE_CONF[name]] = code
        self._seeds = SeedStream()
        self._seed: int | None = None
        self._keys = KeyChain(0)
        self._actions: list[int] = []
        self._replayed: tuple[State | None, int] = (None, 0)

    def reset(self, seed: int | None = None) -> None:
        """Deal a new game: the deck of the engine's `new_game(n, seed=seed)`."""
        self._seed = self._seeds.next(seed)
        self._keys = KeyChain(self._seed)
        kernel.start_game_batch(self._tables, self.num_players, *kernel.rule_codes(self.rules))
        self._deal()
        self._actions = []
        self._ready = None
        self._replayed = (None, 0)

    def _deal(self) -> None:
        """The first round's deck, from the seed; the chain goes on compiled."""
        kernel.deal_batch(self._tables, np.array([self._keys.deck()], np.int8))
        self._key[0] = key_word(self._keys.key)
        self.player = 0

    def play(self, action: int) -> Outcome:
        """Play `action` for the seat to act; deal the next round when one ends."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            action = self._checked(action)
        out, mask = np.empty(self.layout.size, np.int16), np.empty(NUM_ACTIONS, np.int8)
        cells, seats, piles, slots = self._arrays
        said = play_outside(cells, seats, piles, slots, self._conf, self._work, action, out, mask)
        if said < BASE:  # STEPPED: the most common case first
            self.player = said
            self._actions.append(action)
            self._ready = (said, {"observation": out, "action_mask": mask})
            return NOTHING
        self._ready = None
        code, self.player = divmod(said, BASE)
        if code == REFUSED:
            self._refuse(action)
        self._actions.append(action)
        t, n = self._tables, self.num_players
        if code == STALLED:  # the turn limit: the stall rule
            ender = int(t.ender[0])
            return stalled(
                self.settings.reward,
                t.totals[0, :n].tolist(),
                self.rules.target_score,
                int(t.turns[0]),
                int(t.starter[0]),
                None if ender < 0 else ender,
                self.settings.discount,
            )
        # SCORED: the round's scores stay on the table, the next round dealt
        done = int(t.phase[0]) == _GAME_OVER or self.settings.one_round
        scores, totals = t.scores[0, :n].tolist(), t.totals[0, :n].tolist()
        outcome = Outcome(rewards(self.settings.reward, scores, totals, done), done)
        if not done:
            self._actions.append(NEXT_ROUND)
        return outcome

    def _checked(self, action: object) -> int:
        """An integral action id (NumPy's integers too) in range; anything else
        gets the engine's error."""
        as_int = _integral(action)
        if as_int is None or not 0 <= as_int < NUM_ACTIONS:
            self._refuse(action)
        return as_int

    def _refuse(self, action: object) -> None:
        """Raise the engine's `IllegalActionError` for `action` here."""
        step(self.state, action)  # type: ignore[arg-type]  # raises
        raise AssertionError(f"the kernel refused {action!r}, which the engine plays")

    def observe(self, seat: int, live: bool) -> dict[str, np.ndarray]:
        """Seat `seat`'s observation and action mask (zeros unless `live` and to act):
        the one `play` made, the first time the seat to act is asked for it."""
        ready = self._ready
        if ready is not None and ready[0] == seat and live:
            self._ready = None
            return ready[1]
        if not 0 <= seat < self.num_players:  # compiled code checks no bounds
            raise ValueError(f"no seat {seat} at a table of {self.num_players}")
        out = np.empty(self.layout.size, np.int16)
        mask = np.empty(NUM_ACTIONS, np.int8)
        encode_table(*self._arrays, 0, seat, live, self._slots, out, mask)
        return {"observation": out, "action_mask": mask}

    @property
    def state(self) -> State | None:
        """The engine's state of this game: its seed and actions replayed (None
        before the first `reset`)."""
        if self._seed is None:
            return None
        state, played = self._replayed
        if state is None:
            state, played = new_game(self.num_players, seed=self._seed, rules=self.rules), 0
        for action in self._actions[played:]:
            state = step(state, action)
        self._replayed = (state, len(self._actions))
        return state
