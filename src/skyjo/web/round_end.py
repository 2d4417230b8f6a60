"""A room's round end: every connected human says "next round" before it is dealt.

Plain state and rules, no waiting, storage or sockets: `skyjo.web.rooms.Room`
tells a `RoundEnd` who is connected and what happened, saves what `record`
gives (a restart waits again for the same seats: `restore`) and sends the
`ready` message `announcement` gives (docs/web-protocol.md, the `ready` message).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from skyjo.engine import Phase
from skyjo.match import Match
from skyjo.web.protocol import ProtocolError

#: When the next automatic move of a round end is due: (seconds, seat, "deal" or "lapse").
Due = tuple[float, int, str]


def _at_round_end(match: Match) -> bool:
    return match.state.phase == Phase.ROUND_OVER


class RoundEnd:
    """The seats ready for the next round, those awaited since a restart, and
    the last `ready` message sent."""

    def __init__(self) -> None:
        #: The seats whose human said "next round" (`ready`).
        self.ready: set[int] = set()
        #: After a restart at a round end, the seats it waited for when it was saved and
        #: the time (monotonic) until which it still waits for each: until its player
        #: connects, or for `Settings.absent_after` (`restore`).
        self.owed: dict[int, float] = {}
        self._announced: tuple[list[int], list[int]] = ([], [])

    def waiting(self, match: Match, present: Iterable[int]) -> list[int]:
        """The seats a round end still waits for: human seats with a connection
        (`present`), and after a restart those it waited for when it was saved,
        whose player has not said "next round" (empty outside a round end)."""
        if not _at_round_end(match):
            return []
        awaited = {*present, *self.owed}
        return sorted(s for s in awaited if match.seats[s].human and s not in self.ready)

    def record(self, match: Match, present: Iterable[int]) -> dict[str, Any] | None:
        """The wait as saved (the room's options' `round_end`): the step it belongs
        to, the seats awaited and those ready; None outside a round end."""
        if not _at_round_end(match) or match.over:
            return None
        return {
            "step": match.steps,
            "waiting": self.waiting(match, present),
            "ready": sorted(self.ready),
        }

    def restore(self, saved: Any, match: Match, joined: Collection[int], until: float) -> None:
        """(Loading) A room saved at a round end waits again for the seats it waited
        for (`saved`: its `record`), minus those ready: a restart has disconnected
        everyone, and without this the round would be dealt before their pages are
        back. Each is awaited until its player connects, or until `until` (the
        time an absent human has before a stand-in plays for them). A wait saved by
        an older version (none, or one of another step) is unknown: every human
        seat someone held (`joined`) is awaited."""
        if not _at_round_end(match) or match.over:
            return
        humans = {s for s, seat in enumerate(match.seats) if seat.human}
        if isinstance(saved, dict) and saved.get("step") == match.steps:
            self.ready = humans.intersection(saved.get("ready", ()))
            awaited = humans.intersection(saved.get("waiting", ()))
        else:
            awaited = humans & set(joined)
        self.owed = dict.fromkeys(sorted(awaited - self.ready), until)

    def say_ready(self, match: Match, seat: int) -> None:
        """`seat` has seen the round's end (a `ready`, or the ender's NEXT_ROUND);
        `not_round_end` outside one."""
        if not _at_round_end(match):
            raise ProtocolError(
                "not_round_end", "there is no round end to move on from", "not_round_end"
            )
        self.ready.add(seat)

    def connected(self, seat: int) -> None:
        """`seat`'s player is connected (or was removed): no longer owed since a
        restart, it is awaited as any connected human (or not at all)."""
        self.owed.pop(seat, None)

    def lapse(self, now: float) -> list[int]:
        """Stop waiting for the seats owed since a restart whose time is up; which."""
        lapsed = [s for s, until in self.owed.items() if until <= now]
        for seat in lapsed:
            del self.owed[seat]
        return lapsed

    def stepped(self, phase: Phase) -> None:
        """A step was played, leaving the game in `phase`: out of a round end, the
        next one waits afresh."""
        if phase != Phase.ROUND_OVER:
            self.ready.clear()
            self.owed.clear()

    def announcement(self, match: Match, present: Iterable[int]) -> dict[str, Any] | None:
        """The `ready` message (who is ready, who is awaited) when it changed since
        the last one announced, else None."""
        now = (sorted(self.ready), self.waiting(match, present))
        if now == self._announced:
            return None
        self._announced = now
        return {"type": "ready", "ready": now[0], "waiting": now[1]}

    def due(
        self, match: Match, present: Iterable[int], pause: float, timer: float | None, now: float
    ) -> Due | None:
        """When a round end deals the next round: once nobody is awaited (after the
        bots' `pause`, seconds from `now`), or, with a turn timer, when the timer
        runs out (at `timer`) for those still idle. While seats owed since a
        restart are awaited, the driver wakes when the first one's time is up
        ("lapse", for that seat). None: it waits for a human."""
        seat = match.to_move
        assert seat is not None
        if not self.waiting(match, present):
            return max(0.0, pause), seat, "deal"
        due: list[Due] = []
        if timer is not None:
            due.append((max(0.0, timer - now), seat, "deal"))
        if self.owed:
            until, owed = min((until, s) for s, until in self.owed.items())
            due.append((max(0.0, until - now), owed, "lapse"))
        return min(due) if due else None
