"""A room's chat: which lines a room relays (docs/web-protocol.md, "chat").

Plain rules, no sockets: `skyjo.web.rooms.Room` checks a line here, then its
sender's chat rate, then relays it to everyone in the room.
"""

from __future__ import annotations

import unicodedata

from skyjo.web.protocol import ProtocolError


def check_line(seat: int | None, text: str, longest: int) -> int:
    """The seat of a chat line's sender (`seat`): refused from a spectator (None),
    longer than `longest` characters, or holding a control character."""
    if seat is None:
        raise ProtocolError("spectator", "spectators watch: they do not chat", "spectator_chat")
    if len(text) > longest:
        raise ProtocolError(
            "too_long", f"a chat line has at most {longest}", params={"max": longest}
        )
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise ProtocolError("bad_field", "a chat line holds no control character", "chat_control")
    return seat
