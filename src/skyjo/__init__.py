"""skyjo: the card game Skyjo in Python, with an exact rules engine.

The pure core lives in `skyjo.engine` (state, actions, step), with
`skyjo.observation` (what a player sees) and `skyjo.events` beside it,
the rule variants in `skyjo.rules`, scoring in `skyjo.scoring` and game records
in `skyjo.record`. Adapters (command line, bots, simulators) build on these.
"""

from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    NUM_ACTIONS,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    IllegalActionError,
    Phase,
    State,
    action_name,
    legal_action_mask,
    legal_actions,
    new_game,
    step,
    step_with_events,
)
from skyjo.observation import Observation, observe
from skyjo.rules import Rules, RulesError

__all__ = [
    "DRAW",
    "FLIP",
    "NEXT_ROUND",
    "NUM_ACTIONS",
    "REVEAL",
    "SWAP",
    "TAKE_DISCARD",
    "IllegalActionError",
    "Observation",
    "Phase",
    "Rules",
    "RulesError",
    "State",
    "action_name",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "observe",
    "step",
    "step_with_events",
]
__version__ = "0.1.0"
