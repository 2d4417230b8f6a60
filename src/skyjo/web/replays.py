"""Replays: a game record (RULES.md 5) turned into the frames a browser steps through.

A replay is built only from a record that may be shown whole: a game of this
server once it is over (`Lobby.finished`), or a record someone uploads (theirs
already; `checked` reads it, and the lobby keeps it under a stable link).
`frames` reads the record with `skyjo.record.read_record` and replays it step
by step with `skyjo.replayer.steps`, which checks it (a bad record raises
`RecordError`, whose one-line message names the round, the turn and the
reason) and deals each round from its recorded deck and reshuffles in its
order, so that a record without a seed replays as well as one with.

Each frame is what a spectator would have seen after that step, and more: the
game is over, so a drawn card is shown at once (in `held` and in its `drew`
event). Face-down cards stay face down, as they were at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skyjo.engine import NEXT_ROUND, Phase, State
from skyjo.events import Event
from skyjo.observation import observe
from skyjo.record import Record, read_record
from skyjo.replayer import steps
from skyjo.scoring import round_facts, winners

#: The longest record a replay is made of (bytes of JSON); RULES.md allows 5 MB,
#: but a whole game of eight players is well under 200 KB.
MAX_UPLOAD = 2 * 1024 * 1024
#: Parts of an observation a replay's board does not show (nobody moves in a replay).
_UNSHOWN = ("draw_pile_known", "legal_actions", "rules", "viewer")


def checked(data: str | bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """An uploaded record, read and replayed: the record as read (`Record.to_dict`,
    what is kept) and its `frames`. Raises `RecordError` naming what is wrong."""
    record = read_record(data)
    return record.to_dict(), frames(record)


def frames(data: str | bytes | Mapping[str, Any] | Record) -> dict[str, Any]:
    """The replay of a record: `players`, `rules`, `frames` (step 0, the first
    deal, then one per step: `number`, `seat`, `action`, `events`, `observation`),
    `rounds` (the first frame of each round), `explained` (why each round's ender
    scored what they did, `skyjo.scoring.round_facts`), `finished` and `winners`."""
    record = data if isinstance(data, Record) else read_record(data)
    shown: list[dict[str, Any]] = []
    starts = [0]
    for number, (state, events, action, seat) in enumerate(steps(record)):
        if action == NEXT_ROUND:
            starts.append(number)
        shown.append(_frame(number, seat, action, events, state))
    over = state.phase == Phase.GAME_OVER
    return {
        "players": list(record.players),
        "rules": record.rules.to_dict(),
        "frames": shown,
        "rounds": starts,
        "explained": [
            round_facts(result.raw, result.ender, record.rules.ender_penalty)
            for result in state.results
        ],
        "finished": over,
        "winners": winners(dict(enumerate(state.totals))) if over else [],
    }


def _frame(
    number: int, seat: int | None, action: int | None, events: tuple[Event, ...], state: State
) -> dict[str, Any]:
    observation = observe(state, None).to_dict()
    observation["held"] = state.held  # the game is over: a drawn card is no secret now
    observation["discard_pile"] = observation["discard_pile"][-1:]  # the board shows the top
    for key in _UNSHOWN:
        observation.pop(key, None)
    return {
        "number": number,
        "seat": seat,
        "action": action,
        "events": [event.to_dict() for event in events],
        "observation": observation,
    }
