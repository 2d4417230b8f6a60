"""A room's clocks: since when each seat is absent, the bots' pause, the turn timer.

Plain state, told the time (`time.monotonic`) by its caller: `skyjo.web.rooms.Room`
notes each step, arrival and departure here, and its driver asks `due` when
the next automatic move is (a bot's, an absent human's stand-in's, the turn
timer's: docs/web-protocol.md, "Bots, pace and absent players").
"""

from __future__ import annotations

from collections.abc import Collection

from skyjo.match import Match

#: The next automatic move: (seconds until it is due, seat, "bot", "stand_in" or "timer").
Due = tuple[float, int, str]


class Clock:
    """The times a room's driver plays by."""

    def __init__(
        self,
        players: int,
        turn_seconds: float | None,
        bot_delay: float,
        absent_after: float,
        now: float,
    ) -> None:
        """`turn_seconds`: the turn timer (None: none); `bot_delay`: the pause
        before an automatic move; `absent_after`: how long an absent human has
        before a stand-in plays for them. Every seat starts absent."""
        self.turn_seconds = turn_seconds
        self.bot_delay = bot_delay
        self.absent_after = absent_after
        #: Since when each seat nobody is connected to has had no one.
        self.absent: dict[int, float] = dict.fromkeys(range(players), now)
        self.last_step = now
        self.decision_since = now  #: when the move awaited now became due (the turn timer)

    def stepped(self, new_decision: bool, now: float) -> None:
        """A step was played; `new_decision`: a new move is awaited (not a turn's
        second half), whose turn timer starts now."""
        self.last_step = now
        if new_decision:
            self.decision_since = now

    def started(self, players: int, present: Collection[int | None], now: float) -> None:
        """The game started (out of its lobby): absent players' clocks start now."""
        self.absent = {s: now for s in range(players) if s not in present}
        self.last_step = self.decision_since = now

    def arrived(self, seat: int) -> bool:
        """`seat`'s player connected: whether it was absent."""
        return self.absent.pop(seat, None) is not None

    def left(self, seat: int, now: float) -> None:
        """`seat` has nobody connected any more, since `now`."""
        self.absent[seat] = now

    def renumber(self, number: dict[int, int]) -> None:
        """The seats took new numbers (old -> new; the others are gone)."""
        self.absent = {number[s]: t for s, t in self.absent.items() if s in number}

    def pause_left(self, now: float) -> float:
        """Seconds until the bots' pause after the last step is over (negative: over)."""
        return self.last_step + self.bot_delay - now

    def deadline(self) -> float | None:
        """When the turn timer plays the awaited move (None: no timer)."""
        return None if self.turn_seconds is None else self.decision_since + self.turn_seconds

    def timer_left(self, match: Match, now: float) -> float | None:
        """Seconds until the turn timer plays the awaited move of a human seat
        (None without a timer, or when a bot is to move, or once the game is over)."""
        seat, deadline = match.to_move, self.deadline()
        if deadline is None or seat is None or not match.seats[seat].human:
            return None
        return round(max(0.0, deadline - now), 2)

    def due(self, match: Match, joined: Collection[int], now: float) -> Due | None:
        """During a round (the seat `match.to_move` to move): a bot's move after the
        pause, an absent human's stand-in's (only of a seat someone has held,
        `joined`) once they have been away long enough, or the turn timer's; None
        while a present human is to move with no timer."""
        seat = match.to_move
        assert seat is not None
        wait = self.pause_left(now)
        if not match.seats[seat].human:
            return max(0.0, wait), seat, "bot"
        due: list[Due] = []
        since = self.absent.get(seat) if seat in joined else None
        if since is not None:
            due.append((max(0.0, wait, since + self.absent_after - now), seat, "stand_in"))
        deadline = self.deadline()
        if deadline is not None:
            due.append((max(0.0, deadline - now), seat, "timer"))
        return min(due) if due else None
