"""Undo against bots: the checkpoint of a human's last move, and who may go back to it.

Plain state, no storage or sockets: `skyjo.web.rooms.Room` notes each human move
here (`note`, with the match's checkpoint before it: `Match.checkpoint`), and on
an `undo` message asks `check` for the checkpoint to restore (`Match.restore`:
the bots' replies since are undone too), then saves the room with the move log
after it dropped (`RoomRecord.rewound`). One move is kept: the last one, a
decision of a turn (RULES.md 2.5: take, draw, exchange, discard and turn up); the
two cards turned up at a round's start (RULES.md 2.3) are not undone (a card seen
stays seen), nor anything before them. The mark lives in memory: after a restart
there is nothing to undo until the next move (docs/web-protocol.md, `undo`).
"""

from __future__ import annotations

from skyjo.engine import Phase
from skyjo.match import Checkpoint, Match
from skyjo.web.protocol import ProtocolError


class UndoMark:
    """The checkpoint before a seat's last move in one match, if it may be undone."""

    def __init__(self) -> None:
        self._match: Match | None = None
        self._seat: int | None = None
        self._before: Checkpoint | None = None

    def note(self, match: Match, seat: int, before: Checkpoint) -> None:
        """`seat` moved in `match`, which was at `before`: that move is the one to
        undo, unless it was a round's first reveals (nothing to undo then)."""
        undoable = before.state.phase != Phase.REVEAL
        self._match, self._seat = match, seat
        self._before = before if undoable else None

    def clear(self) -> None:
        """Nothing to undo (the move was undone)."""
        self._match = self._seat = self._before = None

    def check(self, match: Match, seat: int | None) -> Checkpoint:
        """The checkpoint `seat`'s undo goes back to; refused for a spectator, in a
        room where another seat is a person's (`undo_people`), once the game is
        over (`undo_over`), and with no move of the seat's to undo (`undo_nothing`)."""
        if seat is None:
            raise ProtocolError("spectator", "a spectator cannot move", "spectator_move")
        if not match.against_bots(seat):
            raise ProtocolError(
                "undo_refused", "undo is only for a game against bots", "undo_people"
            )
        if match.over:
            raise ProtocolError("undo_refused", "the game is over: nothing is undone", "undo_over")
        if self._before is None or self._match is not match or self._seat != seat:
            raise ProtocolError("undo_refused", "you have no move to undo", "undo_nothing")
        return self._before
