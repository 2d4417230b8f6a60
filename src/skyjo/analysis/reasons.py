"""One line on why a decision was rated as it was, from facts the engine can
check: the cards in play, the mean of the unseen cards, a column that would
clear, the playouts' share of doubled scores (`skyjo.analysis.check`).

Positions read "row 2, column 3" (from 1, as a player counts them).
"""

from __future__ import annotations

from skyjo.analysis.rating import Decision
from skyjo.bots.counting import unseen_cards
from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.observation import FACE_DOWN, FACE_UP, Observation
from skyjo.rules import COLS, COLUMN_PARTNERS


def where(k: int) -> str:
    """Grid position k as a player reads it."""
    return f"row {k // COLS + 1}, column {k % COLS + 1}"


def mean_unseen(obs: Observation) -> float:
    """The mean value of the cards the player has not seen (a face-down card's
    worth on average, and a card from the deck's before a reshuffle)."""
    unseen = unseen_cards(obs)
    count = sum(unseen.values())
    return sum(v * n for v, n in unseen.items()) / count if count else 0.0


def describe(action: int, held: int | None) -> str:
    """An action in words."""
    if action == DRAW:
        return "drawing from the deck"
    if action == TAKE_DISCARD:
        return "taking the discard"
    if action >= FLIP:
        return f"discarding the {held} and turning up {where(action - FLIP)}"
    if action >= SWAP:
        return f"putting the {held} at {where(action - SWAP)}"
    return f"turning up {where(action)}"


def clears(obs: Observation, k: int, card: int | None) -> bool:
    """Whether putting `card` at k clears k's column (its partners show it)."""
    me = obs.current_player
    return card is not None and all(
        obs.status[me][o] == FACE_UP and obs.cards[me][o] == card for o in COLUMN_PARTNERS[k]
    )


def ends_round(obs: Observation, action: int) -> bool:
    """Whether the action turns up the player's last face-down card first."""
    me = obs.current_player
    if obs.ender is not None or action < SWAP:
        return False
    down = [k for k, s in enumerate(obs.status[me]) if s == FACE_DOWN]
    return down == [action - (FLIP if action >= FLIP else SWAP)]


def reason(obs: Observation, d: Decision) -> str:
    """The line for decision `d`, made at observation `obs`."""
    mean = mean_unseen(obs)
    if d.label == "best":
        return f"the best option: {d.chosen.points:.1f} round points expected"
    held = obs.held
    me = obs.current_player
    top = obs.discard_pile[-1] if obs.discard_pile else None
    doubled = d.check.doubled[0] if d.check is not None else None
    if ends_round(obs, d.action) and d.label != "good":
        if doubled is not None and doubled > 0.05:
            return (
                f"ending the round now: about {100 * doubled:.0f}% that someone is lower, "
                "and then your score is doubled"
            )
        return (
            "ending the round now leaves you no turn to lower your score; the others play once more"
        )
    if d.part == "take":
        return _taken(obs, d, top, mean)
    if d.label == "good":
        return f"close to the best; {_compared(obs, d, held)}"
    if d.best >= SWAP and d.best < FLIP and clears(obs, d.best - SWAP, held):
        return f"the {held} at {where(d.best - SWAP)} clears that column (three {held}s)"
    if held is not None and d.action >= FLIP and held < mean:
        return f"a face-down card is worth {mean:.1f} on average now, and you threw away the {held}"
    if held is not None and SWAP <= d.action < FLIP:
        k = d.action - SWAP
        if obs.status[me][k] == FACE_DOWN and held > mean:
            return (
                f"a face-down card is worth {mean:.1f} on average now, "
                f"and you put the {held} in its place"
            )
        kept = obs.cards[me][k]
        if obs.status[me][k] == FACE_UP and kept is not None and kept < held:
            return f"you gave up the {kept} for the {held}"
    if held is not None and SWAP <= d.best < FLIP and SWAP <= d.action < FLIP:
        k, j = d.best - SWAP, d.action - SWAP
        kept = obs.cards[me][j]
        down, up = obs.status[me][k] == FACE_DOWN, obs.status[me][j] == FACE_UP
        if down and up and kept is not None and kept < mean:
            return (
                f"a face-down card is worth {mean:.1f} on average now: the {held} saves "
                f"more in place of one ({where(k)}) than in place of the {kept}"
            )
    if held is not None and d.best >= SWAP:
        k = (d.best - FLIP) if d.best >= FLIP else (d.best - SWAP)
        kept = obs.cards[me][k]
        if d.best < FLIP and obs.status[me][k] == FACE_UP and kept is not None and kept > held:
            return f"you kept the {kept} where the {held} could go"
    return _compared(obs, d, held)


def _taken(obs: Observation, d: Decision, top: int | None, mean: float) -> str:
    """Why the discard or the deck: a column the discard clears or pairs, else
    the discard against the deck's average card."""
    me = obs.current_player
    worths = f"({d.top.points:.1f} against {d.chosen.points:.1f} round points expected)"
    for k in range(len(obs.status[me])):
        if obs.status[me][k] != FACE_UP and clears(obs, k, top):
            return f"the {top} on the discard pile clears a column at {where(k)} {worths}"
    if d.best == DRAW and top is not None and top > mean:
        return (
            f"the {top} on the discard pile is worth less than a card from the deck "
            f"({mean:.1f} on average now) {worths}"
        )
    if d.best == TAKE_DISCARD and top is not None and top < mean:
        return (
            f"the {top} on the discard pile beats a card from the deck "
            f"({mean:.1f} on average now) {worths}"
        )
    return f"{describe(d.best, None)} is better than {describe(d.action, None)} {worths}"


def _what(obs: Observation, k: int) -> str:
    """The card at the player's position k, in words."""
    me = obs.current_player
    if obs.status[me][k] == FACE_DOWN:
        return "a face-down card"
    return f"the {obs.cards[me][k]}"


def _beside(obs: Observation, k: int, card: int | None) -> str:
    """ ", next to another 5 in its column" when `card` pairs at k, else ""."""
    me = obs.current_player
    pair = any(
        obs.status[me][o] == FACE_UP and obs.cards[me][o] == card for o in COLUMN_PARTNERS[k]
    )
    return f", next to another {card} in its column" if pair and card is not None else ""


def _compared(obs: Observation, d: Decision, held: int | None) -> str:
    """The two options side by side: what each replaces, and their worths."""
    worths = f"({d.top.points:.1f} against {d.chosen.points:.1f} round points expected)"
    if held is None or d.best < SWAP or d.action < SWAP:
        return f"{describe(d.best, held)} is better than {describe(d.action, held)} {worths}"
    if d.best >= FLIP:
        better = f"discarding the {held} and turning up {where(d.best - FLIP)}"
    else:
        k = d.best - SWAP
        better = f"the {held} in place of {_what(obs, k)} at {where(k)}{_beside(obs, k, held)}"
    if d.action >= FLIP:
        played = f"you discarded it and turned up {where(d.action - FLIP)}"
    else:
        k = d.action - SWAP
        played = f"you replaced {_what(obs, k)} at {where(k)}"
    return f"better: {better}; {played} {worths}"
