"""Every state of a few games that last: each first round stalls (exchanges with
face-up cards) until the draw pile runs out, so the states hold reshuffles,
cards drawn by others, cleared columns and round and game ends. A plain module,
imported as `played_states` (as `helpers` is), for the encoders' tests.
"""

from __future__ import annotations

import random

from skyjo.engine import FLIP, SWAP, Phase, State, legal_actions, new_game, step
from skyjo.rules import Rules


def stalling(state: State, rng: random.Random) -> int:
    """Exchange with a face-up card when there is one (so that rounds last and
    the draw pile runs out), else any legal action."""
    legal = legal_actions(state)
    up = [a for a in legal if SWAP <= a < FLIP and not state.hidden[state.player] >> a - SWAP & 1]
    return rng.choice(up) if state.held is not None and up else rng.choice(legal)


#: The rules of the games `states` plays by default: rounds enough for every case.
TARGET_150 = Rules(target_score=150)


def states(players: int, games: int, seed: int, rules: Rules = TARGET_150) -> list[State]:
    """Every state of a few games: the first round's 600 actions stall (a
    reshuffle or more), then random legal actions."""
    rng = random.Random(seed)
    found = []
    for game in range(games):
        state = new_game(players, seed=seed + game, rules=rules)
        while state.phase != Phase.GAME_OVER:
            found.append(state)
            stall = len(found) % 2000 < 600 and state.round == 0
            state = step(state, stalling(state, rng) if stall else rng.choice(legal_actions(state)))
        found.append(state)
    return found
