"""The bots' pace in a room: "slow", "normal" or "fast", the host's choice.

Each pace is a multiple of the server's pause before an automatic move
(`Settings.bot_delay`, `SKYJO_BOT_DELAY`, 0.8 s): "normal" is that pause, "slow"
two and a half times it (2 s: a newcomer can follow every bot's move), "fast" a
quarter of it (0.2 s). A room keeps its pace in its options (`bot_speed`), so a
restart keeps it (docs/web-protocol.md, "Bots, pace and absent players").
"""

from __future__ import annotations

from typing import Literal

#: The paces, each the multiple of the server's pause it waits, slowest first.
SPEEDS: dict[str, float] = {"slow": 2.5, "normal": 1.0, "fast": 0.25}
#: The pace of a room that was not given one.
DEFAULT_SPEED = "normal"
#: A pace, as a request or a message names it.
BotSpeed = Literal["slow", "normal", "fast"]


def bot_pause(base: float, speed: str | None) -> float:
    """The pause before a bot's move at `speed` (None, or one this server does not
    know, as from a newer version's saved room: the default), `base` the server's."""
    return base * SPEEDS.get(speed or DEFAULT_SPEED, SPEEDS[DEFAULT_SPEED])
