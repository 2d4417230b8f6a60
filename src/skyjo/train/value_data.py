"""Self-play games on the kernel, turned into training data for the value.

`generate(spec)` plays `spec.games` games of `spec.players` seats on one
core (`skyjo.kernel.selfplay.play_game`), each seat played by its policy: a
compiled bot (`expected`...) or the expectimax over a value network
(`value`, the network given). It returns `Games`: the public records kept,
where each was met (game, round, the seat at its slot 0), and per round its
scores and its public record as dealt, per game its result.

`targets(games, bootstrap)` turns them into the value's targets, relative to
each record's seats: `points[i, j]`, the score of the seat at slot j for the
record's round (the ender's penalty applied, RULES.md 2.10: what happened),
and `win[i, j]`, its share of the game's win (1, or 1/k for k equal lowest
totals; RULES.md 3). A round that does not end the game takes, with a
`bootstrap` network, that network's value of the next round as dealt: the
seats' chances to win from the new totals, which removes the noise of the
rounds after it from the target (a temporal-difference target at the
rounds' boundaries, Monte-Carlo within a round).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from skyjo.kernel import expectimax, selfplay, value
from skyjo.kernel.policies import POLICIES
from skyjo.kernel.table import new_tables
from skyjo.kernel.twister import WORDS
from skyjo.rules import DECK_SIZE, MAX_PLAYERS, Rules

#: A round's turns after which a self-play game is dropped as stalled.
MAX_TURNS = 400
#: Games a recorder holds before its games are handed on.
CHUNK = 256


@dataclass(frozen=True)
class Spec:
    """One core's share of self-play: `games` games of `players` seats, seat p
    played by `seats[p]` ("value" or a compiled bot's name; rotated by one
    seat each game, so every policy plays every seat), the value seats by
    `net` (a `value.Net`) at `weight`, `depth` and guard `margin` (negative:
    none; `skyjo.kernel.expectimax.guarded`), each position kept with chance
    `keep`."""

    players: int
    games: int
    seats: tuple[str, ...]
    seed: int
    keep: float = 1.0
    net: value.Net | None = None
    weight: float = 0.0
    depth: int = expectimax.SHALLOW
    margin: float = -1.0
    rules: Rules = field(default_factory=Rules)


@dataclass
class Games:
    """What self-play met (see the module). Games are numbered from 0 in each
    `Games`; `join` renumbers them."""

    records: np.ndarray  #: (M, value.RECORD) int16
    where: np.ndarray  #: (M, 3) int64: game, round, the absolute seat at slot 0
    rounds: np.ndarray  #: (R, 2) int64: game, round
    scores: np.ndarray  #: (R, MAX_PLAYERS) int32: each seat's round score
    starts: np.ndarray  #: (R, value.RECORD) int16: the round's public record as dealt
    shares: np.ndarray  #: (G, MAX_PLAYERS) float32: each seat's share of the win
    results: np.ndarray  #: (G, MAX_PLAYERS) float32: the shares by policy (`Spec.seats`)
    stalled: int = 0  #: games dropped as stalled

    def __len__(self) -> int:
        return len(self.records)

    @property
    def games(self) -> int:
        return len(self.shares)

    @staticmethod
    def join(parts: list[Games]) -> Games:
        offsets = np.cumsum([0] + [p.games for p in parts[:-1]])

        def moved(array: np.ndarray, offset: int) -> np.ndarray:
            out = array.copy()
            out[:, 0] += offset
            return out

        return Games(
            records=np.concatenate([p.records for p in parts]),
            where=np.concatenate([moved(p.where, o) for p, o in zip(parts, offsets, strict=True)]),
            rounds=np.concatenate(
                [moved(p.rounds, o) for p, o in zip(parts, offsets, strict=True)]
            ),
            scores=np.concatenate([p.scores for p in parts]),
            starts=np.concatenate([p.starts for p in parts]),
            shares=np.concatenate([p.shares for p in parts]),
            results=np.concatenate([p.results for p in parts]),
            stalled=sum(p.stalled for p in parts),
        )

    def save(self, path: str) -> None:
        np.savez(path, **{k: getattr(self, k) for k in _ARRAYS}, stalled=self.stalled)

    @staticmethod
    def load(path: str) -> Games:
        with np.load(path) as data:
            return Games(**{k: data[k] for k in _ARRAYS}, stalled=int(data["stalled"]))


_ARRAYS = ("records", "where", "rounds", "scores", "starts", "shares", "results")


def _codes(seats: tuple[str, ...]) -> np.ndarray:
    return np.array([selfplay.VALUE if s == "value" else POLICIES[s] for s in seats], np.int64)


def generate(spec: Spec) -> Games:
    """Play `spec` (see the module)."""
    n = spec.players
    t = new_tables(1, n, players=n, rules=spec.rules)
    net = spec.net if spec.net is not None else _zero_net()
    nets = tuple(net for _ in range(n))
    works = tuple(value.work(net) for _ in range(n))
    mt = np.zeros((0, n, WORDS), np.int64)
    words = np.random.SeedSequence(spec.seed).generate_state(1, dtype=np.uint64)
    fast = words | np.uint64(1)
    deck = np.zeros((1, DECK_SIZE), np.int8)
    perm = np.zeros((1, DECK_SIZE), np.int64)
    s, *rest = expectimax.make_scratch(n)
    scratch = tuple(rest)
    base = _codes(spec.seats)
    per_game = int(600 * n * min(1.0, spec.keep * 1.5)) + 64
    rec = selfplay.recorder(per_game * CHUNK, CHUNK)
    parts: list[Games] = []
    stalled = 0
    shifts: list[int] = []
    for game in range(spec.games):
        shift = game % n
        pol = np.roll(base, shift)
        status = selfplay.play_game(
            t, 0, pol, nets, spec.weight, spec.depth, spec.margin, mt, fast, deck, perm, s, works,
            scratch, rec, len(shifts), spec.keep, MAX_TURNS,
        )  # fmt: skip
        if status == selfplay.FULL:
            raise RuntimeError("a game outgrew the recorder")
        stalled += status == selfplay.STALLED
        shifts.append(shift)
        if rec.counts[selfplay.GAMES] == CHUNK:
            parts.append(_collect(rec, n, shifts))
            rec.counts[:] = 0
            shifts = []
    parts.append(_collect(rec, n, shifts))
    games = Games.join(parts)
    games.stalled = stalled
    return games


def _zero_net() -> value.Net:
    return value.Net(**{k: np.zeros(s, np.float32) for k, s in value.shapes(1, 1, 1).items()})


def _collect(rec: selfplay.Recorder, n: int, shifts: list[int]) -> Games:
    """The recorder's finished games (numbered from 0 in the order they finished)."""
    count, rounds, games = (int(c) for c in rec.counts)
    finished = {int(g): i for i, g in enumerate(rec.totals[:games, 0])}
    number = np.array([finished.get(int(g), -1) for g in range(len(shifts))] or [0], np.int64)
    final = rec.totals[:games, 1 : 1 + n]
    winners = final == final.min(axis=1, keepdims=True)
    shares = np.zeros((games, MAX_PLAYERS), np.float32)
    shares[:, :n] = winners / winners.sum(axis=1, keepdims=True)
    results = np.zeros((games, MAX_PLAYERS), np.float32)
    for i, g in enumerate(rec.totals[:games, 0]):
        results[i, :n] = np.roll(shares[i, :n], -shifts[int(g)])
    where = rec.where[:count].astype(np.int64)
    keep = number[where[:, 0]] >= 0 if count else np.zeros(0, bool)
    where = where[keep]
    where[:, 0] = number[where[:, 0]]
    round_rows = rec.rounds[:rounds].astype(np.int64)
    kept = number[round_rows[:, 0]] >= 0 if rounds else np.zeros(0, bool)
    round_rows = round_rows[kept]
    round_rows[:, 0] = number[round_rows[:, 0]]
    return Games(
        records=rec.records[:count][keep].copy(),
        where=where,
        rounds=round_rows[:, :2],
        scores=round_rows[:, 2:].astype(np.int32),
        starts=rec.starts[:rounds][kept].copy(),
        shares=shares,
        results=results,
    )


def targets(games: Games, bootstrap: value.Net | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(win, points) of every record (see the module), float32 (M, MAX_PLAYERS)."""
    n = games.records[:, value.NPLAYERS].astype(np.int64)[:, None]
    slots = np.arange(MAX_PLAYERS)[None, :]
    present = slots < n
    seats = np.where(present, (games.where[:, 2:3] + slots) % np.maximum(n, 1), 0)
    keys = games.rounds[:, 0] * 1000 + games.rounds[:, 1]
    order = np.argsort(keys)
    ranked = keys[order]

    def find(wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        at = np.minimum(np.searchsorted(ranked, wanted), max(len(ranked) - 1, 0))
        found = ranked[at] == wanted if len(ranked) else np.zeros(len(wanted), bool)
        return order[at] if len(ranked) else at, found

    mine = games.where[:, 0] * 1000 + games.where[:, 1]
    here, _ = find(mine)
    points = np.where(present, games.scores[here[:, None], seats], 0).astype(np.float32)
    win = np.where(present, games.shares[games.where[:, 0:1], seats], 0).astype(np.float32)
    if bootstrap is not None and len(games.starts):
        dealt = np.zeros((len(games.starts), MAX_PLAYERS), np.float32)
        pts = np.zeros_like(dealt)
        value.evaluate(bootstrap, games.starts, value.work(bootstrap), dealt, pts)
        following, found = find(mine + 1)
        boot = np.where(present, dealt[following[:, None], seats], 0)  # seat p at slot p as dealt
        win = np.where(found[:, None], boot, win).astype(np.float32)
    return win, points
