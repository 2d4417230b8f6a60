"""A connection to a room: who it is (seat, host), its rate limits, its outgoing queue."""

from __future__ import annotations

import asyncio
import math
from typing import Any

from skyjo.web import protocol
from skyjo.web.limits import Limits, RateLimit
from skyjo.web.protocol import encode, error
from skyjo.web.settings import Settings


class Client:
    """One connection: who it is (seat, host), its rate limits, its outgoing queue.

    `send` never waits: messages queue for the connection's writer task, and a
    client too slow to take them is disconnected rather than slowing the room.
    """

    def __init__(
        self,
        settings: Settings,
        address: str = "",
        shared: RateLimit | None = None,
        limits: Limits | None = None,
    ) -> None:
        """`address` is the client's (the key of `shared`, the rate limit of all the
        connections of one address, and of `limits`, the server's per-address limits
        of what a message may make: a seat taken)."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(settings.send_queue)
        self.seat: int | None = None
        self.host = False
        self.greeted = False
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.messages = protocol.TokenBucket(settings.rate, settings.burst)
        self.overflow = protocol.TokenBucket(settings.rate, settings.burst)
        self.chats = protocol.TokenBucket(settings.chat_rate, settings.chat_burst)
        self.address = address
        self.shared = shared
        self.limits = limits
        self.max_message = settings.max_message

    def admit(self) -> bool:
        """Count one incoming message against this connection's rate (`rate`,
        `burst`) and its address's (`shared`): True when it may be handled. Over
        either, it is dropped and answered `rate_limited` (kind `messages_rate`,
        with the limit a second and when to try again); a client that goes on
        sending, as many messages again at once, is flooding: it is told so and
        disconnected (1008)."""
        if self.messages.take():
            over = self.shared.take(self.address) if self.shared is not None else None
            if over is None:
                return True
            limit, wait = over.limit / over.window, over.retry_after
        else:
            limit, wait = self.messages.rate, self.messages.retry_after
        if not self.overflow.take():
            self.send(error("flood", "too many messages: disconnected"))
            self.close(1008, "flood")
            return False
        limit, wait = round(limit, 1), math.ceil(min(wait, 3600.0) * 10) / 10
        self.send(
            error(
                "rate_limited",
                f"too many messages: at most {limit:g} a second; this one was not handled, "
                f"try again in {wait:g} s",
                "messages_rate",
                {"limit": limit, "retry_after": wait},
            )
        )
        return False

    def send(self, message: dict[str, Any]) -> None:
        """Queue `message` for this connection."""
        if not self.closed:
            self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (`encode`: one text for every connection
        that gets the same message)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(1013, "too slow: messages piled up")

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending: the writer sends what is queued, then closes with `code`."""
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()
