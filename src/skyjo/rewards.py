"""The environments' rewards, written once: a round's end, a game's end, and the
stall rule.

A seat's reward for a scored round (`reward="score"`) or a finished game
(`reward="win"`, RULES.md 3) is `round_reward` or `game_reward`. A round an
agent could end but does not is stopped at the turn limit, and every seat that
could have ended it pays (`skyjo.env.table.stalled` states the rule and why it
never pays to wait): `stall_reward`, with the turns counted by `turns_of` and
`stall_decisions` and the discounted learner's factor `stall_growth`.

Plain Python on plain ints and floats: the reference environments
(`skyjo.env.table`) call these functions, and the compiled environments
(`skyjo.kernel.vector`) compile the same ones (`numba.njit` over them), so both
count the same turns and get the same floats. Who won and who could have ended
the round each side finds in its own state.
"""

from __future__ import annotations

from skyjo.rules import CARD_VALUES, GRID_SIZE

#: The turns a seat needs to end a round: its ten face-down cards after the
#: opening's two reveals (RULES.md 2.3), one turned up a turn at most (2.5).
TURNS_TO_END = GRID_SIZE - 2
#: More points than any round scores: twelve 12s, doubled (RULES.md 2.9, 2.10).
ROUND_BOUND = 2 * GRID_SIZE * max(CARD_VALUES)
#: A seat's decisions in a turn, at most: DRAW or TAKE_DISCARD, then where the
#: card goes (RULES.md 2.5). The discount counts a seat's decisions as this
#: many a turn (`stall_decisions`).
DECISIONS_PER_TURN = 2


def turns_of(seat: int, num_players: int, turns: int, starter: int) -> int:
    """Seat `seat`'s finished turns in a round of `turns` turns that `starter`
    opened: turn i is seat (starter + i) mod n's (RULES.md 2.4, 2.8)."""
    behind = (seat - starter + num_players) % num_players
    return (turns - behind + num_players - 1) // num_players


def stall_decisions(played: int) -> int:
    """How many of a seat's decisions, at most, lie between the first one at
    which it could have ended the round (the first of its `TURNS_TO_END`-th
    turn) and the stall, once it has played `played` turns (at least
    `TURNS_TO_END`): `DECISIONS_PER_TURN` for each of its turns from that one."""
    return DECISIONS_PER_TURN * (played - TURNS_TO_END + 1)


def stall_growth(discount: float, decisions: int) -> float:
    """discount ** -decisions (decisions >= 0), by squaring: the factor of a
    guilty seat's stall penalty (`skyjo.env.table.stalled`)."""
    growth = 1.0
    base = 1.0 / discount
    while decisions > 0:
        if decisions & 1:
            growth *= base
        base *= base
        decisions >>= 1
    return growth


def round_reward(score: int) -> float:
    """`reward="score"`: a seat's reward for a scored round, minus its round score."""
    return -float(score)


def game_reward(won: bool) -> float:
    """`reward="win"`, at the game's end: +1 to a seat with the lowest total (a shared
    lowest total wins too, RULES.md 3), -1 to the others."""
    return 1.0 if won else -1.0


def stall_reward(
    score: bool, total: int, target: int, guilty: bool, won: bool, growth: float
) -> float:
    """A seat's reward when the round stalls (`skyjo.env.table.stalled`): with
    `reward="score"` (`score`), a guilty seat (one that could have ended the round)
    gets minus the points that bring its `total` to `target + ROUND_BOUND` and the
    others 0; with `"win"`, a guilty seat loses, and among the others those with the
    lowest total (`won`) win. A guilty seat's penalty is times `growth`
    (`stall_growth`; 1 undiscounted)."""
    if score:
        return float(total - (target + ROUND_BOUND)) * growth if guilty else 0.0
    if guilty:
        return -growth
    return 1.0 if won else -1.0  # game_reward's (compiled code calls no plain function)
