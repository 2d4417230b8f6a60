"""Self-play in the vectorized environment: opponents played by Python policies,
and a pool of frozen snapshots of them (docs/env.md, "Self-play").

An opponent of `SkyjoVectorEnv(num_envs, opponents=[...])` is a compiled bot
spec (`"greedy"`...), a *batched callable* or a `TablePolicy`:

- `policy(obs, mask) -> actions`: obs float32 (k, size), the environment's own
  observation encoded for the seat to act (slot 0 is that seat, exactly as
  the learner's observation is the learner's), mask int8 (k, 39) its legal
  actions; it returns k integer actions (any array-like NumPy reads: a
  list, a NumPy or CPU tensor array). The environment calls it once per
  *wave*: every table where a seat it plays is to act, in increasing table
  order.
- a `TablePolicy`: the same, told which tables and seats the rows are
  (`act(obs, mask, tables, seats)`) and when a table's episode starts
  (`new_episodes(tables)`), for a policy that keeps something per table:
  `PolicyPool` keeps which snapshot plays each seat.

Every action is checked before any is played (`policy_actions`): a
non-integer answer, a wrong shape or an illegal action is the caller's bug
and raises, naming the opponent, the table, the seat and the action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from skyjo.engine import NUM_ACTIONS

#: A batched policy: (obs float32 (k, size), mask int8 (k, 39)) -> k actions.
Policy = Callable[[np.ndarray, np.ndarray], Any]


class TablePolicy(ABC):
    """An opponent that knows the tables it plays (module docstring): the
    environment tells it when episodes start and which table and seat each
    row of a wave is."""

    def new_episodes(self, tables: np.ndarray) -> None:  # noqa: B027  (a hook: by default nothing)
        """New episodes start at these tables (int64, increasing): at `reset`,
        at each autoreset, before any seat plays in them."""

    @abstractmethod
    def act(self, obs: np.ndarray, mask: np.ndarray, tables: np.ndarray, seats: np.ndarray) -> Any:
        """The actions of the seats to act: row i is seat seats[i] at table
        tables[i] (increasing tables; a table appears once a wave)."""


def policy_actions(
    who: str, chosen: Any, mask: np.ndarray, tables: np.ndarray, seats: np.ndarray
) -> np.ndarray:
    """`chosen` as int64 when it is one legal action per row of `mask`: a
    TypeError for anything but integers (a float is never rounded into an
    action), a ValueError for another shape or an illegal action, naming
    `who`, the table, the seat and the action. Nothing is played before."""
    array = np.asarray(chosen)
    count = len(mask)
    if array.shape != (count,):
        raise ValueError(
            f"{who} must return {count} actions, one an observation, not shape {array.shape}"
        )
    if array.dtype.kind not in "iu":
        raise TypeError(f"{who} must return integer actions, not {array.dtype}")
    inside = (array >= 0) & (array < NUM_ACTIONS)
    legal = inside.copy()
    rows = np.flatnonzero(inside)
    legal[rows] = mask[rows, array[rows]] == 1
    bad = np.flatnonzero(~legal)
    if len(bad):
        i = int(bad[0])
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise ValueError(
            f"{who} played action {array[i]} at table {tables[i]}, seat {seats[i]}, "
            f"which is not legal there (legal: {np.flatnonzero(mask[i]).tolist()}){more}"
        )
    return array.astype(np.int64, copy=False)


class PolicyPool(TablePolicy):
    """Frozen policies (batched callables, `add`), one of which plays each
    opponent seat of a table for a whole episode: a learner plays itself and
    its past.

    The rule: the first time a seat of a table acts in an episode, it draws
    its snapshot: with probability `latest` the newest one, else one of the
    last `window` (all when None) uniformly. The draws come from
    `numpy.random.default_rng(seed)`, in the order the seats first act (the
    environment's waves, tables in increasing order), so the same seed and the
    same games give the same draws. A snapshot added meanwhile plays from its
    seats' next draws: a table keeps its snapshots until its episode ends
    (`new_episodes`).

    `window` and `latest` are plain attributes: a schedule may change them
    between steps (the next draws follow). The pool holds what it is given
    and copies nothing: add a frozen copy (the weights copied, not the
    network being trained). Every snapshot stays held; `window` only limits
    the draws. It files its draws by table number: one pool an environment.
    """

    def __init__(
        self,
        policies: Iterable[Policy] = (),
        *,
        window: int | None = None,
        latest: float = 0.0,
        seed: int | None = None,
    ) -> None:
        if window is not None and (type(window) is not int or window < 1):
            raise ValueError(f"window must be None or at least 1, not {window!r}")
        latest = float(latest)
        if not 0.0 <= latest <= 1.0:
            raise ValueError(f"latest must be a probability from 0 to 1, not {latest!r}")
        self.window = window
        self.latest = latest
        self._rng = np.random.default_rng(seed)
        self._snapshots: list[Policy] = []
        #: (tables, seats) int64: each seat's snapshot in the episode, -1: none yet
        self._assigned = np.full((0, 0), -1, np.int64)
        for policy in policies:
            self.add(policy)

    def add(self, policy: Policy) -> int:
        """Hold `policy` (a frozen batched callable) as the newest snapshot: its index."""
        if not callable(policy):
            raise TypeError(f"a snapshot is a batched callable policy(obs, mask), not {policy!r}")
        self._snapshots.append(policy)
        return len(self._snapshots) - 1

    def __len__(self) -> int:
        return len(self._snapshots)

    @property
    def snapshots(self) -> tuple[Policy, ...]:
        """Every snapshot, oldest first (their indexes)."""
        return tuple(self._snapshots)

    def assigned(self, table: int, seat: int) -> int | None:
        """The index of the snapshot playing `seat` at `table` in its episode,
        or None when that seat has not acted yet in it."""
        if table < self._assigned.shape[0] and seat < self._assigned.shape[1]:
            found = int(self._assigned[table, seat])
            return None if found < 0 else found
        return None

    def draw(self, count: int) -> np.ndarray:
        """`count` snapshot indexes drawn by the rule (class docstring)."""
        n = len(self._snapshots)
        if n == 0:
            raise ValueError("the pool holds no policy yet: add() one before its seats play")
        low = 0 if self.window is None else max(0, n - self.window)
        newest = self._rng.random(count) < self.latest
        uniform = self._rng.integers(low, n, count)
        return np.where(newest, n - 1, uniform)

    def new_episodes(self, tables: np.ndarray) -> None:
        """Forget these tables' snapshots: their seats draw again when they act."""
        inside = tables[tables < self._assigned.shape[0]]
        self._assigned[inside] = -1

    def act(
        self, obs: np.ndarray, mask: np.ndarray, tables: np.ndarray, seats: np.ndarray
    ) -> np.ndarray:
        """Each row played by its seat's snapshot: one call a snapshot, its
        rows in order, its answer checked."""
        if not len(tables):
            return np.empty(0, np.int64)
        self._grow(int(tables.max()) + 1, int(seats.max()) + 1)
        ids = self._assigned[tables, seats]
        fresh = np.flatnonzero(ids < 0)
        if len(fresh):
            ids[fresh] = self.draw(len(fresh))
            self._assigned[tables[fresh], seats[fresh]] = ids[fresh]
        actions = np.empty(len(tables), np.int64)
        for snapshot in np.unique(ids).tolist():
            rows = np.flatnonzero(ids == snapshot)
            chosen = self._snapshots[snapshot](obs[rows], mask[rows])
            who = f"snapshot {snapshot} of the pool"
            actions[rows] = policy_actions(who, chosen, mask[rows], tables[rows], seats[rows])
        return actions

    def _grow(self, tables: int, seats: int) -> None:
        have = self._assigned.shape
        if tables > have[0] or seats > have[1]:
            grown = np.full((max(tables, have[0]), max(seats, have[1])), -1, np.int64)
            grown[: have[0], : have[1]] = self._assigned
            self._assigned = grown
