"""The differential check of the kernel against the engine: `play_mirrored`.

It drives the engine with random legal actions (seeded), mirrors each action
at one table of a batch of kernel tables (`skyjo.kernel`), feeding the kernel
the engine's decks and reshuffle orders, and checks after every step that
both hold the same table (`kernel.view` against `kernel.engine_view`), the
same legal actions, and at each round's end the same raw and final scores
(RULES.md 2.9, 2.10); a difference fails an assertion. One copy for both
callers: the tests (`tests/parity/test_kernel.py`) and `bench/kernel.py` (`make
kernel-check`, 2,000 games), which puts tests/parity/ on its path to import it.
A plain module, imported as `kernel_mirror` (as `helpers` is).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from skyjo import kernel
from skyjo.engine import (
    DRAW,
    GAME_INFO,
    NEXT_ROUND,
    NUM_ACTIONS,
    SWAP,
    TAKE_DISCARD,
    Phase,
    State,
    legal_action_mask,
    legal_actions,
    new_game,
    step_with_events,
)
from skyjo.rules import COLUMN_PARTNERS, GRID_SIZE, MAX_PLAYERS, Rules
from skyjo.scoring import round_scores

_ROUND_END = (Phase.ROUND_OVER, Phase.GAME_OVER)
#: Tables in the batch that a mirrored game shares (it plays at one of them).
BATCH = 3


class Player:
    """A random legal player for long rounds with many column clears (it peeks
    at face-down cards: it is a test's driver, not a bot). At the start of a
    turn it draws with probability `draw`. Holding a card, with probability
    `seek` it completes a column of face-up cards, or else plants the card
    where its column will hold three equal cards once its face-down card is
    turned up (so that final reveals clear columns); else, with probability
    `stall`, it exchanges a face-up card (so that rounds last long enough to
    empty the draw pile); else it plays any legal action, sparing (with
    probability `seek`) the face-down cards it planted around."""

    def __init__(self, seed: int, draw: float, stall: float, seek: float) -> None:
        self.rng = random.Random(seed)
        self.draw, self.stall, self.seek = draw, stall, seek

    def choose(self, state: State) -> int:
        rng = self.rng
        legal = legal_actions(state)
        if state.held is None:
            if legal == (DRAW, TAKE_DISCARD):
                return DRAW if rng.random() < self.draw else TAKE_DISCARD
            return rng.choice(legal)
        p, card = state.player, state.held
        grid, hidden, cleared = state.grids[p], state.hidden[p], state.cleared[p]
        up = [not (hidden | cleared) >> k & 1 for k in range(GRID_SIZE)]
        down = [bool(hidden >> k & 1) for k in range(GRID_SIZE)]
        open_ = [k for k in range(GRID_SIZE) if not cleared >> k & 1]
        seek = rng.random() < self.seek
        completes = [k for k in open_ if all(up[j] and grid[j] == card for j in COLUMN_PARTNERS[k])]
        if completes and seek:
            return SWAP + rng.choice(completes)
        plants = [
            k
            for k in open_
            if sorted((down[j], grid[j] == card) for j in COLUMN_PARTNERS[k])
            == [(False, True), (True, True)]
        ]
        if plants and seek:
            return SWAP + rng.choice(plants)
        face_up = [k for k in open_ if up[k]]
        if face_up and rng.random() < self.stall:
            return SWAP + rng.choice(face_up)
        planted = {
            k
            for k in open_
            if down[k] and all(up[j] and grid[j] == grid[k] for j in COLUMN_PARTNERS[k])
        }
        spared = [a for a in legal if (a - SWAP) % GRID_SIZE not in planted]
        return rng.choice(spared if spared and seek else legal)


def play_mirrored(
    players: int,
    seed: int,
    penalty: str = "positive",
    target: int = 100,
    draw: float = 0.8,
    stall: float = 0.8,
    seek: float = 0.9,
) -> Counter[str]:
    """Play one game on the engine and on a kernel table side by side, checking
    that they agree at every step; what happened, counted: steps, rounds,
    reshuffles, column clears during rounds (`clears`) and at the final
    reveal (`final_clears`), doubled enders."""
    rules = Rules(target_score=target, ender_penalty=penalty)
    state = new_game(players, seed=seed, rules=rules)
    t = kernel.new_tables(BATCH, MAX_PLAYERS, players=players, rules=rules)
    b = seed % BATCH
    untouched = [kernel.view(t, i) for i in range(BATCH)]
    kernel.deal(t, b, kernel.as_deck(state.decks[-1]))
    assert kernel.view(t, b) == kernel.engine_view(state)
    player = Player(seed, draw, stall, seek)
    check = random.Random(~seed)
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    counts: Counter[str] = Counter(games=1)
    turns_in_round = 0
    while state.phase != Phase.GAME_OVER:
        kernel.legal_mask(t, b, mask)
        assert tuple(mask.tolist()) == legal_action_mask(state)
        if check.random() < 0.1:
            _check_an_illegal_action(t, b, mask, check)
        if check.random() < 0.05:
            _check_load_state(t, b, state)
        action = player.choose(state)
        after, events = step_with_events(state, action)
        kinds = [e.kind for e in events]
        status = kernel.step(t, b, action)
        if status == kernel.NEED_RESHUFFLE:
            assert "reshuffled" in kinds
            kernel.reshuffle(t, b, kernel.as_deck(after.reshuffles[-1][-1]))
            status = kernel.step(t, b, action)
            counts["reshuffles"] += 1
        else:
            assert "reshuffled" not in kinds
        if status == kernel.NEED_DEAL:
            kernel.deal(t, b, kernel.as_deck(after.decks[-1]))
            status = kernel.OK
            turns_in_round = 0
        assert status == (kernel.ROUND_ENDED if after.phase in _ROUND_END else kernel.OK)
        state = after
        assert kernel.view(t, b) == kernel.engine_view(state)
        counts["steps"] += 1
        _count_clears(kinds, counts)
        if status == kernel.ROUND_ENDED:
            _check_round_end(t, b, state, counts)
        if SWAP <= action < NEXT_ROUND:
            turns_in_round += 1
            if turns_in_round > GAME_INFO.max_round_turns:
                counts["stalled"] += 1
                break
    for i in range(BATCH):
        if i != b:
            assert kernel.view(t, i) == untouched[i]
    return counts


def _count_clears(kinds: list[str], counts: Counter[str]) -> None:
    """Count a step's column clears: a turn's follows its exchange or flip
    (RULES.md 2.6); the final reveal's follow the reveal of a grid (2.9)."""
    for i, kind in enumerate(kinds):
        if kind == "column_cleared":
            turn = kinds[i - 1] in ("exchanged", "flipped")
            counts["clears" if turn else "final_clears"] += 1


def _check_round_end(t: kernel.Tables, b: int, state: State, counts: Counter[str]) -> None:
    """The same raw and final round scores as the engine, which match `scoring`."""
    n = state.num_players
    result = state.results[-1]
    raw, scores = t.raw[b, :n].tolist(), t.scores[b, :n].tolist()
    assert (raw, scores, bool(t.doubled[b])) == (
        list(result.raw),
        list(result.scores),
        result.doubled,
    )
    assert (scores, result.doubled) == round_scores(raw, result.ender, state.rules.ender_penalty)
    assert t.totals[b, :n].tolist() == list(state.totals)
    counts["rounds"] += 1
    counts["doubled"] += result.doubled


def _check_an_illegal_action(
    t: kernel.Tables, b: int, mask: np.ndarray, rng: random.Random
) -> None:
    illegal = [a for a in range(NUM_ACTIONS) if not mask[a]]
    if illegal:
        before = kernel.view(t, b)
        assert kernel.step(t, b, rng.choice(illegal)) == kernel.ILLEGAL
        assert kernel.view(t, b) == before


def _check_load_state(t: kernel.Tables, b: int, state: State) -> None:
    """An engine state loaded into a fresh table is the mirrored table."""
    fresh = kernel.new_tables(1, MAX_PLAYERS)
    kernel.load_state(fresh, 0, state)
    assert kernel.view(fresh, 0) == kernel.view(t, b)
