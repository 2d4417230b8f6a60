"""Why a decision was rated as it was, from facts the engine can check: the
cards in play, the mean of the unseen cards, a column that would clear, the
playouts' share of doubled scores (`skyjo.analysis.check`).

A reason is a kind and its params (`Why`), as the web's error messages are:
the English sentence (`TEMPLATES`, `text`) is for the terminal and the JSON's
`reason`; a page words the kind in its own language from the params
(positions `[row, column]` from 0, moves in the record's notation, points and
means as numbers). Positions read "row 2, column 3" (from 1, as a player
counts them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skyjo.analysis.rating import Decision, move_of, target
from skyjo.bots.counting import unseen_cards
from skyjo.engine import DRAW, FLIP, SWAP, TAKE_DISCARD
from skyjo.observation import FACE_DOWN, FACE_UP, Observation
from skyjo.rules import COLUMN_PARTNERS, position

_WORTHS = "({better} against {chosen} round points expected)"
#: Each kind of reason's English sentence; {points}, {better}, {chosen} and {mean}
#: are numbers (one decimal), {card} and {kept} card values, {percent} a whole
#: percentage, {position} a grid position, {best_move} and {played_move} moves.
TEMPLATES = {
    "best": "the best option: {points} round points expected",
    "ending_doubled": "ending the round now: about {percent}% that someone is lower, "
    "and then your score is doubled",
    "ending_early": "ending the round now leaves you no turn to lower your score; "
    "the others play once more",
    "discard_clears": "the {card} on the discard pile clears a column at {position} " + _WORTHS,
    "discard_high": "the {card} on the discard pile is worth less than a card from the deck "
    "({mean} on average now) " + _WORTHS,
    "discard_low": "the {card} on the discard pile beats a card from the deck "
    "({mean} on average now) " + _WORTHS,
    "clears": "the {card} at {position} clears that column (three {card}s)",
    "threw_low": "a face-down card is worth {mean} on average now, and you threw away the {card}",
    "high_into_down": "a face-down card is worth {mean} on average now, "
    "and you put the {card} in its place",
    "gave_up_low": "you gave up the {kept} for the {card}",
    "down_saves_more": "a face-down card is worth {mean} on average now: the {card} saves more "
    "in place of one ({position}) than in place of the {kept}",
    "kept_high": "you kept the {kept} where the {card} could go",
    "close": "close to the best: {best_move} " + _WORTHS.replace("against", "for"),
    "compared": "{best_move} is better than {played_move} " + _WORTHS,
}
#: The sentence a choice within the playouts' noise adds (`skyjo.analysis.check`).
NOISE = "the playouts find no clear difference ({low} to {high} points)"


@dataclass(frozen=True, slots=True)
class Why:
    """A reason: its kind (`TEMPLATES`) and params, JSON-ready (positions
    `[row, column]` from 0, moves in the record's notation)."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": dict(self.params)}


def where(k: int) -> list[int]:
    """Grid position k as `[row, column]` from 0 (the record's notation)."""
    return list(position(k))


def words(position: list[int]) -> str:
    """A position as a player reads it: "row 2, column 3"."""
    return f"row {position[0] + 1}, column {position[1] + 1}"


def move_words(move: dict[str, Any], card: Any) -> str:
    """A move of the record's notation in words, the card in hand named."""
    kind, place = next(iter(move.items()))
    if kind == "take":
        return "drawing from the deck" if place == "deck" else "taking the discard"
    held = f"the {card}" if card is not None else "the card"
    if kind == "flip":
        return f"discarding {held} and turning up {words(place)}"
    if kind == "swap":
        return f"putting {held} at {words(place)}"
    return f"turning up {words(place)}"


def text(why: Why) -> str:
    """A reason's English sentence."""
    shown: dict[str, Any] = {}
    for name, value in why.params.items():
        if name in ("points", "better", "chosen", "mean", "low", "high"):
            shown[name] = f"{value:.1f}" if name not in ("low", "high") else f"{value:+.1f}"
        elif name == "position":
            shown[name] = words(value)
        elif name.endswith("_move"):
            shown[name] = move_words(value, why.params.get("card"))
        else:
            shown[name] = value
    return TEMPLATES.get(why.kind, NOISE).format(**shown)


def mean_unseen(obs: Observation) -> float:
    """The mean value of the cards the player has not seen (a face-down card's
    worth on average, and a card from the deck's before a reshuffle)."""
    unseen = unseen_cards(obs)
    count = sum(unseen.values())
    return sum(v * n for v, n in unseen.items()) / count if count else 0.0


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
    return down == [target(action)[1]]


def why(obs: Observation, d: Decision) -> Why:
    """The reason of decision `d`, made at observation `obs`."""
    if d.label == "best":
        return Why("best", {"points": round(d.chosen.points, 2)})
    doubled = d.check.doubled[0] if d.check is not None else None
    if ends_round(obs, d.action) and d.label != "good":
        if doubled is not None and doubled > 0.05:
            return Why("ending_doubled", {"percent": round(100 * doubled)})
        return Why("ending_early")
    if d.part == "take":
        return _taken(obs, d)
    if d.label == "good":
        return Why("close", _moves(obs, d))
    return _placed(obs, d) or Why("compared", _moves(obs, d))


def _placed(obs: Observation, d: Decision) -> Why | None:
    """A placement's reason from the cards, if one of them says it."""
    held, me, mean = obs.held, obs.current_player, round(mean_unseen(obs), 2)
    if held is None:
        return None
    if SWAP <= d.best < FLIP and clears(obs, d.best - SWAP, held):
        return Why("clears", {"card": held, "position": where(d.best - SWAP)})
    if d.action >= FLIP and held < mean:
        return Why("threw_low", {"card": held, "mean": mean})
    if SWAP <= d.action < FLIP:
        k = d.action - SWAP
        kept = obs.cards[me][k]
        if obs.status[me][k] == FACE_DOWN and held > mean:
            return Why("high_into_down", {"card": held, "mean": mean})
        if obs.status[me][k] == FACE_UP and kept is not None and kept < held:
            return Why("gave_up_low", {"kept": kept, "card": held})
        down = SWAP <= d.best < FLIP and obs.status[me][d.best - SWAP] == FACE_DOWN
        if down and obs.status[me][k] == FACE_UP and kept is not None and kept < mean:
            position = where(d.best - SWAP)
            return Why(
                "down_saves_more", {"card": held, "mean": mean, "position": position, "kept": kept}
            )
    if SWAP <= d.best < FLIP:
        kept = obs.cards[me][d.best - SWAP]
        if obs.status[me][d.best - SWAP] == FACE_UP and kept is not None and kept > held:
            return Why("kept_high", {"kept": kept, "card": held})
    return None


def _taken(obs: Observation, d: Decision) -> Why:
    """Why the discard or the deck: a column the discard clears, else the
    discard against the deck's average card."""
    me, mean = obs.current_player, round(mean_unseen(obs), 2)
    top = obs.discard_pile[-1] if obs.discard_pile else None
    worths = {"better": round(d.top.points, 2), "chosen": round(d.chosen.points, 2)}
    for k in range(len(obs.status[me])):
        if obs.status[me][k] != FACE_UP and clears(obs, k, top):
            return Why("discard_clears", {"card": top, "position": where(k), **worths})
    if d.best == DRAW and top is not None and top > mean:
        return Why("discard_high", {"card": top, "mean": mean, **worths})
    if d.best == TAKE_DISCARD and top is not None and top < mean:
        return Why("discard_low", {"card": top, "mean": mean, **worths})
    return Why("compared", _moves(obs, d))


def _moves(obs: Observation, d: Decision) -> dict[str, Any]:
    """The better move and the one played, the card in hand and their worths."""
    return {
        "best_move": move_of(d.best),
        "played_move": move_of(d.action),
        "card": obs.held,
        "better": round(d.top.points, 2),
        "chosen": round(d.chosen.points, 2),
    }
