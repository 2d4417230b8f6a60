"""Per-client limits: how many rooms, seats, uploads and scoresheets one address takes,
and how fast its WebSocket messages come (docs/web-protocol.md, "Limits").
Several processes of a cluster count the hourly ones together (`SharedLimits`).

A limit is a token bucket per key (the client's address): `count` at once,
refilled at `count` per `window` seconds, so a client that waits gets its
allowance back little by little instead of all at once at the top of the hour.
A refusal tells how long to wait for the next token (`retry_after`, seconds),
and the address is remembered as refused until then (`Limits.check_waiting`): a
lookup that spends nothing when it finds (a room's code) is still refused meanwhile.

The key is the address the app sees as the request's client: the socket's
peer, or behind a trusted proxy the real client's address from its
`X-Forwarded-For` (uvicorn's `ProxyHeadersMiddleware`, which `create_app`
applies with `Settings.trusted_proxies`: docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Double, bindparam, case, delete, func, update
from sqlalchemy.dialects.postgresql import insert

from skyjo.persistence.engine import Source, engine_of
from skyjo.persistence.schema import SchemaTooNew, migrate
from skyjo.persistence.tables import RateBucketRow
from skyjo.web.protocol import ProtocolError

#: The most keys a limit remembers; beyond, the longest unused is forgotten (its
#: bucket had mostly refilled: forgetting it gives that client a full allowance).
MAX_KEYS = 50_000
#: The window of the HTTP limits, in seconds.
HOUR = 3600.0


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

    def give_back(self, key: Any) -> None:
        """Return one event to `key`'s allowance (an event `take` counted that did
        not happen after all: a join refused)."""
        found = self._buckets.get(key)
        if self.count > 0 and found is not None:
            self._buckets[key] = (min(float(self.count), found[0] + 1), found[1])


#: Per HTTP limit: its kind and the English sentence of a refusal.
SENTENCES = {
    "rooms_rate": "too many rooms created from your address",
    "joins_rate": "too many seats taken from your address",
    "replays_rate": "too many game records uploaded from your address",
    "reviews_rate": "too many game reviews asked for from your address",
    "sheets_rate": "too many scoresheets created from your address",
    "codes_rate": "too many unknown room codes tried from your address",
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
    """The HTTP limits of one server, per client address (`Settings`), counted in
    this process's memory."""

    def __init__(
        self, rooms: int, replays: int, sheets: int, joins: int = 0, codes: int = 0
    ) -> None:
        self.by_kind = {
            "rooms_rate": RateLimit(rooms, HOUR),
            "joins_rate": RateLimit(joins, HOUR),
            "replays_rate": RateLimit(replays, HOUR),
            "reviews_rate": RateLimit(replays, HOUR),  # as many as uploads, apart
            "sheets_rate": RateLimit(sheets, HOUR),
            "codes_rate": RateLimit(codes, HOUR),
        }
        #: (kind, address) -> (monotonic time until which it is refused, its refusal)
        self._refused: OrderedDict[tuple[str, str], tuple[float, Refusal]] = OrderedDict()

    async def check(self, kind: str, address: str) -> None:
        """Count one `kind` event of `address`; `ProtocolError` (429) over the limit."""
        refusal = self.by_kind[kind].take(address)
        if refusal is not None:
            raise self._refuse(kind, address, refusal)

    def _refuse(self, kind: str, address: str, refusal: Refusal) -> ProtocolError:
        """The 429 of `refusal`, `address` remembered as refused until it may try again."""
        self._refused.pop((kind, address), None)
        self._refused[kind, address] = (time.monotonic() + refusal.retry_after, refusal)
        while len(self._refused) > MAX_KEYS:
            self._refused.popitem(last=False)
        return too_many(kind, refusal)

    def check_waiting(self, kind: str, address: str) -> None:
        """`ProtocolError` (429) while `address` waits after its last `kind` refusal
        (in this process: a cluster's other processes learn it at their own next
        refusal); counts nothing."""
        found = self._refused.get((kind, address))
        if found is None:
            return
        until, refusal = found
        left = until - time.monotonic()
        if left <= 0:
            del self._refused[kind, address]
            return
        raise too_many(kind, Refusal(refusal.limit, refusal.window, left))

    async def refund(self, kind: str, address: str) -> None:
        """Give back one `kind` event of `address` that `check` counted but that did
        not happen (a seat not taken after all)."""
        self.by_kind[kind].give_back(address)

    def close(self) -> None:
        """Nothing to let go of (`SharedLimits` has a database)."""


#: The table of the cluster's buckets (`SharedLimits`), declared, created and migrated
#: with the others (`skyjo.persistence.tables.RateBucketRow`).
BUCKETS = RateBucketRow.__table__
#: Seconds since the epoch on the database's clock (the same for every process on every
#: machine), as a bucket's `at` holds them.
_NOW = func.extract("epoch", func.clock_timestamp())


def _spend_statement() -> Any:
    """Spend one token of a bucket, made full when it is new, in one atomic statement:
    the bucket's tokens refilled since `at` at `rate`, up to `count`; one spent when
    there is one (`spent`), in the row's lock. Returns (tokens, spent)."""
    count, rate = bindparam("count", type_=Double), bindparam("rate", type_=Double)
    new = insert(BUCKETS).values(
        kind=bindparam("of_kind"),
        address=bindparam("of_address"),
        tokens=count - 1,
        at=_NOW,
        spent=True,
    )
    old = BUCKETS.c
    refilled = func.least(count, old.tokens + (new.excluded.at - old.at) * rate, type_=Double)
    return new.on_conflict_do_update(
        index_elements=[old.kind, old.address],
        set_={
            "tokens": refilled - case((refilled >= 1, 1), else_=0),
            "spent": refilled >= 1,
            "at": new.excluded.at,
        },
    ).returning(old.tokens, old.spent)


SPEND = _spend_statement()
#: Give one token back to a bucket (an event counted that did not happen).
GIVE_BACK = (
    update(BUCKETS)
    .where(BUCKETS.c.kind == bindparam("of_kind"), BUCKETS.c.address == bindparam("of_address"))
    .values(tokens=func.least(bindparam("count", type_=Double), BUCKETS.c.tokens + 1, type_=Double))
)
#: Forget the buckets unused for `window` seconds (full again).
FORGET = delete(BUCKETS).where(BUCKETS.c.at < _NOW - bindparam("window", type_=Double))
#: How often (seconds) a process deletes the buckets full again (unused for the window).
FORGET_EVERY = 600.0


class SharedLimits(Limits):
    """The HTTP limits of a cluster (`skyjo.web.cluster`): every process counts in one
    PostgreSQL table of token buckets, one statement per event (`SPEND`, SQLAlchemy Core), so that N
    processes allow what one does, not N times as much. The per-connection message
    rate stays each process's own (`RateLimit`, in memory). Opened on the process's
    engine (its tables already made), or on a URL: an engine of its own, the schema
    brought up to date as the stores do (`skyjo.persistence.schema.migrate`)."""

    def __init__(
        self, source: Source, rooms: int, replays: int, sheets: int, joins: int = 0, codes: int = 0
    ) -> None:
        super().__init__(rooms, replays, sheets, joins, codes)
        self._engine, self._owned = engine_of(source)
        if self._owned:
            migrate(self._engine, SchemaTooNew)
        self._thread = ThreadPoolExecutor(2, thread_name_prefix="skyjo-limits")
        self._forgotten = time.monotonic()

    def _spend(self, limit: RateLimit, kind: str, address: str) -> Refusal | None:
        values = {"of_kind": kind, "of_address": address, "count": limit.count, "rate": limit.rate}
        with self._engine.begin() as connection:
            tokens, spent = connection.execute(SPEND, values).one()
            if time.monotonic() - self._forgotten > FORGET_EVERY:
                self._forgotten = time.monotonic()
                connection.execute(FORGET, {"window": HOUR})
        if spent:
            return None
        return Refusal(int(limit.count), limit.window, (1 - tokens) / limit.rate)

    async def check(self, kind: str, address: str) -> None:
        limit = self.by_kind[kind]
        if limit.count <= 0:
            return
        loop = asyncio.get_running_loop()
        refusal = await loop.run_in_executor(self._thread, self._spend, limit, kind, address)
        if refusal is not None:
            raise self._refuse(kind, address, refusal)

    def _give_back(self, limit: RateLimit, kind: str, address: str) -> None:
        values = {"of_kind": kind, "of_address": address, "count": limit.count}
        with self._engine.begin() as connection:
            connection.execute(GIVE_BACK, values)

    async def refund(self, kind: str, address: str) -> None:
        limit = self.by_kind[kind]
        if limit.count <= 0:
            return
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._thread, self._give_back, limit, kind, address)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        if self._owned:
            self._engine.dispose()


def client_address(scope_client: Any) -> str:
    """The key of a request's client: its host (after the proxy middleware), or
    "unknown" when the server was not told (every such request shares one key)."""
    return str(scope_client[0]) if scope_client else "unknown"
