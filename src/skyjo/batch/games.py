"""Many games at once on the batch loop, from Python: seeded like the engine,
or fast.

`play_seeded` plays games exactly as the reference engine (`skyjo.match`
driving `skyjo.engine`) plays them from the same seeds: game i is dealt from
`deal_seeds[i]` through the engine's chain of keys (RULES.md 5: each round's
deck is `shuffle.shuffled_deck(key)`, each reshuffle `shuffle.shuffled(pile,
key)`, each shuffle giving the next key, as `engine.start_round` and
`engine.reshuffle` draw them), and seat s's bot has the generator of
`random.Random(bot_seeds[i][s])`, as the Python bot made with that seed. This
module deals each game's first round from its seed (`shuffle.KeyChain`, any
integer) and the compiled loop (`skyjo.kernel.loop.advance`, on the
environments' step of play) walks the chain on from the key after it,
stopping a table at each round's end for its log to be read.
Each game comes back as a `BatchGame`: its rounds (`engine.RoundResult`),
totals, turns, each seat's grid value after the deal and each of its turns
(round by round), and the round that stalled, if one did.

`play_fast` plays games for speed (`bench/batch.py`): decks and the `random`
policy's choices come from a cheap compiled generator, reshuffles from a
chain of keys, seeded per table; the same rules and policies, not the
engine's games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from skyjo import kernel
from skyjo.engine import GAME_INFO, RoundResult
from skyjo.kernel import loop
from skyjo.kernel.chance import key_word
from skyjo.kernel.policies import POLICIES
from skyjo.kernel.twister import WORDS, generator
from skyjo.rules import DECK_SIZE, Rules
from skyjo.shuffle import KeyChain


@dataclass(frozen=True, slots=True)
class BatchGame:
    """One game played by the batch loop (the fields of a tournament's
    `GameResult` that the rules decide)."""

    totals: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    turns: int  #: every player's turns, all rounds together
    #: per round, per seat: its grid value after the deal and after each of its turns
    trajectories: tuple[tuple[tuple[int, ...], ...], ...]
    stalled_round: int | None = None  #: the round (from 1) that reached the limit
    reshuffles: int = 0  #: reshuffles of the discard pile (RULES.md 2.7), all rounds
    cleared: int = 0  #: columns cleared in the finished rounds (RULES.md 2.6, 2.9)


def policy_codes(names: Sequence[str]) -> np.ndarray:
    """The policy codes of bot names (`random`, `greedy`, `basic`, `expected`);
    ValueError for another."""
    try:
        return np.array([POLICIES[name] for name in names], np.int64)
    except KeyError as error:
        known = ", ".join(POLICIES)
        raise ValueError(f"the batch engine plays {known}, not {error.args[0]!r}") from None


class _Game:
    """A game's Python side while the loop plays it: its key, its log read so far."""

    def __init__(self, players: int, key: int) -> None:
        self.players, self.keys = players, KeyChain(key)
        self.rounds: list[RoundResult] = []
        self.trajectories: list[tuple[tuple[int, ...], ...]] = []
        self.current: list[list[int]] = []
        self.turns = 0
        self.reshuffles = 0
        self.cleared = 0

    def first_deal(self) -> tuple[tuple[int, ...], np.uint64]:
        """The first round's deck, as `engine.start_round` shuffles it, and the
        chain's key after it, which the compiled loop walks on from."""
        deck = self.keys.deck()
        return deck, key_word(self.keys.key)

    def read(self, entries: list[int]) -> None:
        """Take in the loop's log (`skyjo.kernel.loop`)."""
        n, i = self.players, 0
        while i < len(entries):
            entry = entries[i]
            if entry == loop.DEALT:
                self.current = [[v] for v in entries[i + 1 : i + 1 + n]]
                i += 1 + n
            elif entry == loop.ROUND:
                raw = tuple(entries[i + 5 : i + 5 + n])
                scores = tuple(entries[i + 5 + n : i + 5 + 2 * n])
                self.rounds.append(RoundResult(entries[i + 1], raw, scores, bool(entries[i + 2])))
                self.trajectories.append(tuple(tuple(values) for values in self.current))
                self.cleared += entries[i + 3]
                self.reshuffles += entries[i + 4]
                i += 5 + 2 * n
            else:
                self.current[entry >> 12].append((entry & 0xFFF) - loop.VALUE_OFFSET)
                self.turns += 1
                i += 1


def play_seeded(
    seats: Sequence[Sequence[str]],
    deal_seeds: Sequence[int],
    bot_seeds: Sequence[Sequence[int]],
    rules: Rules | None = None,
    max_turns: int = GAME_INFO.max_round_turns,
) -> list[BatchGame]:
    """Play game i with the bots `seats[i]` (one name a seat, all games of one
    player count), its deals from `deal_seeds[i]` and seat s's bot seeded with
    `bot_seeds[i][s]`: the games the reference engine plays from those seeds."""
    rules = rules or Rules()
    batch = len(seats)
    n = len(seats[0]) if batch else 2
    if any(len(names) != n for names in seats):
        raise ValueError("every game of a batch has the same number of players")
    t = kernel.new_tables(batch, n, players=n, rules=rules)
    pol = (
        np.stack([policy_codes(names) for names in seats]) if batch else np.zeros((0, n), np.int64)
    )
    mt = np.zeros((batch, n, WORDS), np.int64)
    for b in range(batch):
        for s in range(n):
            mt[b, s] = generator(random.Random(bot_seeds[b][s]))
    games = [_Game(n, deal_seeds[b]) for b in range(batch)]
    deck = np.zeros((batch, DECK_SIZE), np.int8)
    perm = np.zeros((batch, DECK_SIZE), np.int64)
    keys = np.zeros(batch, np.uint64)
    for b, game in enumerate(games):
        deck[b], keys[b] = game.first_deal()
    status = np.full(batch, loop.NEED_DEAL, np.int64)
    log = np.zeros((batch, max_turns + loop.LOG_SLACK), np.int32)
    log_len = np.zeros(batch, np.int64)
    counts = np.zeros((batch, loop.NCOUNTS), np.int64)
    fast = np.ones(batch, np.uint64)
    arrays = (t, pol, mt, fast, keys, deck, perm, status, log, log_len, counts)
    while True:
        loop.advance(*arrays, loop.settings(max_turns), 1)
        for b in np.flatnonzero(log_len).tolist():
            games[b].read(log[b, : log_len[b]].tolist())
        log_len[:] = 0
        if not (status == loop.RUNNING).any():  # each table stops at a round's end
            break
    for b in np.flatnonzero(status == loop.STALLED).tolist():
        games[b].reshuffles += int(t.reshuffles[b])  # the stalled round's
    return [
        BatchGame(
            totals=tuple(t.totals[b, :n].tolist()),
            rounds=tuple(game.rounds),
            turns=game.turns,
            trajectories=tuple(game.trajectories),
            stalled_round=int(t.round[b]) + 1 if status[b] == loop.STALLED else None,
            reshuffles=game.reshuffles,
            cleared=game.cleared,
        )
        for b, game in enumerate(games)
    ]


@dataclass(frozen=True, slots=True)
class FastRun:
    """What `play_fast` played: games finished (over or stalled), turns, rounds."""

    games: int
    turns: int
    rounds: int


def fast_state(batch: int, players: int, policy: str, seed: int, rules: Rules | None = None):  # type: ignore[no-untyped-def]
    """The arrays of a fast run of `batch` tables (see `play_fast`)."""
    t = kernel.new_tables(batch, players, players=players, rules=rules or Rules())
    pol = np.full((batch, players), policy_codes([policy])[0], np.int64)
    mt = np.zeros((0, players, WORDS), np.int64)
    words = np.random.SeedSequence(seed).generate_state(2 * batch, dtype=np.uint64)
    fast = words[:batch] | np.uint64(1)  # xorshift: never 0
    keys = words[batch:]  # the chains of the reshuffles
    deck = np.zeros((batch, DECK_SIZE), np.int8)
    perm = np.zeros((batch, DECK_SIZE), np.int64)
    status = np.full(batch, loop.NEED_DEAL, np.int64)
    log = np.zeros((batch, 0), np.int32)
    log_len = np.zeros(batch, np.int64)
    counts = np.zeros((batch, loop.NCOUNTS), np.int64)
    return t, pol, mt, fast, keys, deck, perm, status, log, log_len, counts


def play_fast(
    players: int,
    policy: str,
    games: int,
    seed: int = 0,
    batch: int = 64,
    rules: Rules | None = None,
    max_turns: int = GAME_INFO.max_round_turns,
) -> FastRun:
    """Play at least `games` games of `players` copies of `policy` on `batch`
    tables, every game's chance and the random policy's choices from a cheap
    compiled generator seeded from `seed` (not the engine's games: see
    `play_seeded` for those)."""
    batch = max(1, min(batch, games))
    per_table = -(-games // batch)
    arrays = fast_state(batch, players, policy, seed, rules)
    loop.advance(*arrays, loop.settings(max_turns), per_table)
    counts = arrays[-1]
    return FastRun(*(int(counts[:, i].sum()) for i in (loop.GAMES, loop.TURNS, loop.ROUNDS)))


def compile_loop() -> None:
    """Compile the game loop in this process now, or load it from Numba's cache:
    one short seeded game. A tournament calls it before it starts its worker
    processes, so that on a machine with no cache yet the loop is compiled once
    and the workers load it, instead of each compiling it at the same time."""
    play_seeded([["random", "random"]], [0], [[0, 1]])


def batch_policy(spec: str) -> str | None:
    """The batch policy that plays the bot `spec` exactly, or None: the
    built-in `random`, `greedy`, `basic` and `expected` without options; every
    other bot needs the reference engine."""
    from skyjo.bots import BotError, factory
    from skyjo.bots.basic import BasicBot
    from skyjo.bots.expected import make_expected
    from skyjo.bots.greedy import GreedyBot
    from skyjo.bots.random_bot import RandomBot

    try:
        name, make, options = factory(spec)
    except BotError:
        return None
    compiled = {
        "random": RandomBot,
        "greedy": GreedyBot,
        "basic": BasicBot,
        "expected": make_expected,
    }
    return name if compiled.get(name) is make and not options else None
