"""Per-client limits: how many rooms, seats, uploads and scoresheets one address takes,
and how fast its WebSocket messages come (docs/web-protocol.md, "Limits").

A limit is a token bucket per key (the client's address): `count` at once,
refilled at `count` per `window` seconds, so a client that waits gets its
allowance back little by little instead of all at once at the top of the hour.
A refusal tells how long to wait for the next token (`retry_after`, seconds).

The key is the address the app sees as the request's client: the socket's
peer, or behind a trusted proxy the real client's address from its
`X-Forwarded-For` (uvicorn's `ProxyHeadersMiddleware`, which `create_app`
applies with `Settings.trusted_proxies`: docs/deploy.md).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from skyjo.web.protocol import ProtocolError

#: The most keys a limit remembers; beyond, the longest unused is forgotten (its
#: bucket had mostly refilled: forgetting it gives that client a full allowance).
MAX_KEYS = 50_000


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request over its limit: the limit, per how many seconds, and how long
    to wait (seconds) before the next one is accepted."""

    limit: int
    window: float
    retry_after: float


class RateLimit:
    """`count` events per `window` seconds for each key (a token bucket each);
    `count` 0 means no limit."""

    def __init__(self, count: float, window: float, max_keys: int = MAX_KEYS) -> None:
        self.count = count
        self.window = window
        self.rate = count / window if window > 0 else math.inf
        self.max_keys = max_keys
        self._buckets: OrderedDict[Any, tuple[float, float]] = OrderedDict()

    def take(self, key: Any, now: float | None = None) -> Refusal | None:
        """Spend one event of `key`'s allowance: None when allowed, else a `Refusal`."""
        if self.count <= 0:
            return None
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(key, (float(self.count), now))
        tokens = min(float(self.count), tokens + (now - last) * self.rate)
        refusal = None
        if tokens < 1:
            refusal = Refusal(int(self.count), self.window, (1 - tokens) / self.rate)
        else:
            tokens -= 1
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return refusal


#: Per HTTP limit: its kind and the English sentence of a refusal.
SENTENCES = {
    "rooms_rate": "too many rooms created from your address",
    "joins_rate": "too many seats taken from your address",
    "replays_rate": "too many game records uploaded from your address",
    "sheets_rate": "too many scoresheets created from your address",
}


def too_many(kind: str, refusal: Refusal) -> ProtocolError:
    """The 429 `rate_limited` error of an HTTP limit `kind`, with `limit` (per
    hour) and `retry_after` (whole seconds, as the `Retry-After` header says)."""
    wait = max(1, math.ceil(refusal.retry_after))
    return ProtocolError(
        "rate_limited",
        f"{SENTENCES[kind]}: at most {refusal.limit} an hour; try again in {wait} s",
        kind,
        {"limit": refusal.limit, "retry_after": wait},
    )


class Limits:
    """The HTTP limits of one server, per client address (`Settings`)."""

    def __init__(self, rooms: int, replays: int, sheets: int, joins: int = 0) -> None:
        self.by_kind = {
            "rooms_rate": RateLimit(rooms, 3600.0),
            "joins_rate": RateLimit(joins, 3600.0),
            "replays_rate": RateLimit(replays, 3600.0),
            "sheets_rate": RateLimit(sheets, 3600.0),
        }

    def check(self, kind: str, address: str) -> None:
        """Count one `kind` event of `address`; `ProtocolError` (429) over the limit."""
        refusal = self.by_kind[kind].take(address)
        if refusal is not None:
            raise too_many(kind, refusal)


def client_address(scope_client: Any) -> str:
    """The key of a request's client: its host (after the proxy middleware), or
    "unknown" when the server was not told (every such request shares one key)."""
    return str(scope_client[0]) if scope_client else "unknown"
