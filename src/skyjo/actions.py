"""Skyjo's actions, one flat integer space (OpenSpiel style), and the facts
of the game declared up front: the action ids and their names, the phases of a
game (`Phase`), `GAME_INFO`, and the errors of a move the rules refuse
(`IllegalActionError`) or of a bad argument to the engine (`EngineError`).

A turn is two actions, so that a player who draws sees the card before
deciding (RULES.md 2.5): `DRAW` or `TAKE_DISCARD`, then `SWAP + k` or, after
drawing only, `FLIP + k`. The opening reveals (RULES.md 2.3) are `REVEAL + k`,
and `NEXT_ROUND` deals the next round. Grid positions are 0-11, row by row
(`index = row * 4 + col`, RULES.md 5). `skyjo.engine` re-exports all of it.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar, NamedTuple

from skyjo.errors import SkyjoError
from skyjo.rules import COLS, DECK_SIZE, GRID_SIZE, MAX_PLAYERS, MIN_PLAYERS

# --- actions: one flat integer space (OpenSpiel style) -----------------------

REVEAL = 0  #: REVEAL + k, k in 0..11: turn up grid position k in the opening.
DRAW = 12  #: draw the top card of the draw pile.
TAKE_DISCARD = 13  #: take the top card of the discard pile.
SWAP = 14  #: SWAP + k: exchange the held card with grid position k.
FLIP = 26  #: FLIP + k: discard the drawn card and turn up grid position k.
NEXT_ROUND = 38  #: deal the next round once a round is over.
NUM_ACTIONS = 39


class Phase(IntEnum):
    """Where a game stands (RULES.md 2.3, 2.5, 2.8, 2.9, 3)."""

    REVEAL = 0  #: every player turns up two cards, in seat order
    TURNS = 1  #: ordinary turns
    FINAL_TURNS = 2  #: someone has ended the round; the others play one more turn
    ROUND_OVER = 3  #: scored; the ender deals the next round with NEXT_ROUND
    GAME_OVER = 4  #: a total reached the target


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Facts of the game declared up front (OpenSpiel's GameInfo)."""

    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    num_actions: int = NUM_ACTIONS
    grid_size: int = GRID_SIZE
    deck_size: int = DECK_SIZE
    #: No bound holds in principle: players may exchange face-up cards forever.
    max_game_length: int | None = None
    #: Not a rule but the one limit every driver applies (`skyjo.match`): a
    #: round that reaches this many turns without ending is stalled, and the
    #: match stops there. Rounds between the package's bots last at most a few
    #: hundred turns, even with 8 players.
    max_round_turns: int = 2_000


GAME_INFO = GameInfo()


class IllegalActionError(SkyjoError):
    """An action that the rules do not allow in this state; the state is unchanged.

    `kind` and `params` say why (`why_illegal`): e.g. ``flip_face_up`` with
    ``{"seat": 1, "position": [0, 2]}`` (RULES.md 2.5).
    """

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        # why_illegal's reasons (`Reason`): the seat is the player to act
        "action_not_integer": ("value",),
        "action_unknown": ("action", "last"),
        "game_over": ("action",),
        "round_over": ("action",),
        "reveal_first": ("seat", "action"),
        "reveal_face_up": ("seat", "position"),
        "take_first": ("seat", "action"),
        "not_a_first_step": ("seat", "action"),
        "must_place": ("seat", "action"),
        "discard_not_put_back": ("seat",),
        "flip_cleared": ("seat", "position"),
        "flip_face_up": ("seat", "position"),
        "exchange_cleared": ("seat", "position"),
        "place_held": ("seat", "action"),
        # start_round and reshuffle
        "round_not_over": ("phase",),
        "draw_pile_not_empty": ("draw_pile_size",),
        "reshuffle_not_discard_pile": ("given", "expected"),
    }
    #: A tournament names the bot that chose the action and the game (skyjo.sim).
    EXTRA: ClassVar[frozenset[str]] = frozenset({"bot", "game"})


class EngineError(SkyjoError):
    """A bad argument to the engine, not a move: a missing or non-integer seed,
    rules that are not a `Rules`, an action id or name that does not exist, a
    seat that is not at the table. `kind` and `params` name which."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "seed_missing": (),
        "seed_not_integer": ("value",),
        "rules_not_rules": ("value",),
        "action_not_integer": ("value",),
        "action_unknown": ("action", "last"),
        "action_name_unknown": ("name",),
        # skyjo.observation's viewer
        "seat_not_integer": ("value",),
        "seat_unknown": ("seat", "players"),
    }


class Reason(NamedTuple):
    """Why an action is illegal: the error's `kind`, its JSON-ready `params`,
    and the English `sentence`."""

    kind: str
    params: dict[str, Any]
    sentence: str


def _integral(value: Any) -> int | None:
    """`value` as an int if it is an integer of any integral type (NumPy's
    included, `operator.index`), else None; a bool is not an integer here."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def where(k: int) -> str:
    """Grid position k as `[row, col]`, 0-based (the actions' names)."""
    row, col = divmod(k, COLS)
    return f"[{row}, {col}]"


def action_name(action: int) -> str:
    """A readable name: `reveal [0, 1]`, `draw`, `take discard`, `exchange [2, 3]`,
    `discard and flip [1, 0]`, `next round`."""
    as_int = _integral(action)
    if as_int is None:
        raise EngineError(
            f"an action is an integer, not {_shown(action)}",
            "action_not_integer",
            {"value": _shown(action)},
        )
    action = as_int
    if action == DRAW:
        return "draw"
    if action == TAKE_DISCARD:
        return "take discard"
    if action == NEXT_ROUND:
        return "next round"
    if REVEAL <= action < REVEAL + GRID_SIZE:
        return f"reveal {where(action - REVEAL)}"
    if SWAP <= action < SWAP + GRID_SIZE:
        return f"exchange {where(action - SWAP)}"
    if FLIP <= action < FLIP + GRID_SIZE:
        return f"discard and flip {where(action - FLIP)}"
    raise EngineError(
        f"there is no action {action} (actions are 0 to {NUM_ACTIONS - 1})",
        "action_unknown",
        {"action": action, "last": NUM_ACTIONS - 1},
    )


def _shown(value: Any, limit: int = 40) -> str:
    """`repr(value)`, cut to `limit` characters, for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


ACTION_NAMES = tuple(action_name(a) for a in range(NUM_ACTIONS))


def action_from_name(name: str) -> int:
    """The action id of a name given by `action_name`."""
    try:
        return ACTION_NAMES.index(name)
    except ValueError:
        raise EngineError(
            f"there is no action named {name!r}", "action_name_unknown", {"name": _shown(name)}
        ) from None
