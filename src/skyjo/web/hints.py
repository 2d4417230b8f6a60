"""A hint for a player learning against bots: the move the `expected` bot would
play in that seat's place, from that seat's own observation (what the player
sees, nothing more: `Match.observation`).

A hint is only given where it helps nobody against another person: a room
whose other seats are all bots (a hot-seat room, or one a friend joined, is
refused: `no_hint`). It is asked on the seat's own turn (the opening reveals
included, RULES.md 2.2-2.7), not at a round's end.
"""

from __future__ import annotations

from skyjo.engine import NEXT_ROUND
from skyjo.match import Match
from skyjo.web.validation import ProtocolError


def check_hint(match: Match, seat: int | None, in_lobby: bool) -> int:
    """The seat a hint may be given to now, or the `ProtocolError` that says why not
    (a spectator, the lobby, another person at the table, the game over, not its turn)."""
    if seat is None:
        raise ProtocolError("spectator", "a spectator cannot ask for a hint", "spectator_hint")
    if in_lobby:
        raise ProtocolError("in_lobby", "the game has not started: the host starts it", "in_lobby")
    if not match.against_bots(seat):
        raise ProtocolError(
            "no_hint", "hints are for games against bots: another person plays here", "hint_people"
        )
    if match.over:
        raise ProtocolError("game_over", "the game is over", "game_over")
    if match.to_move != seat or NEXT_ROUND in match.observation(seat).legal_actions:
        raise ProtocolError("not_your_turn", "a hint is for your own turn", "hint_not_your_turn")
    return seat


def hint(match: Match, seat: int) -> int:
    """The action the seat's stand-in (`skyjo.match.STAND_IN`, seeded as the seat's
    stand-in is) would play for `seat` now (checked: `check_hint`): `Match.advice`,
    thought where the room's bots think (a bot worker process when the
    server has them: its first use compiles or loads the bot's kernel there, not in the
    server's own process). Run it off the event loop, as a bot's move is."""
    return match.advice(seat)
