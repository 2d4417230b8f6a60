"""Several server processes on one PostgreSQL database: who holds which room.

A room lives in one process at a time, its owner: the one holding the room's
PostgreSQL session-level advisory lock (`room_key`), taken with
`pg_try_advisory_lock` on a connection of its own that the process keeps open
(`Ownership`). The owner plays the room as a lone server does: its moves, bots,
timers, snapshots and move log (`skyjo.web.lobby`, `skyjo.web.rooms`).
PostgreSQL lets go of a session's locks when its connection ends, so the rooms
of a process that dies, even by SIGKILL, are free at once, and the next process
that needs one takes it (a viewer's connection or request, or the periodic
look at the unfinished rooms whose lock is free: `Lobby.take_over`), loading
its snapshot and the moves logged after it.

Any process may receive any connection (no sticky sessions): a connection or a
request for a room held elsewhere is relayed, as it is, to the owner's own
listener (`Relay`), whose address the owner gives as its lock connection's
`application_name`, read from `pg_stat_activity` by the lock's holder in
`pg_locks` (`Ownership.owner`). So a room's moves are applied in one order, by
one process, and every viewer gets every update in order from the same place,
whichever process it reached. docs/deploy.md ("Several processes") says why
this design and not followers replaying the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

from skyjo.persistence.engine import Source, engine_of
from skyjo.web.protocol import ProtocolError, encode, refusal

log = logging.getLogger("skyjo.web")

#: What a lock connection's application_name starts with, before the process's address.
APPLICATION = "skyjo "
#: The header of a relayed connection or request: served where it arrives, never
#: relayed again (the owner changed meanwhile: it is refused, and the client tries again).
RELAYED = "x-skyjo-relayed"
#: How long a process tries to find a room's owner and reach it (its owner died and
#: PostgreSQL has not yet ended its connection, or the room is changing hands).
FIND_FOR = 5.0
#: The paths relayed to a room's owner: its WebSocket, its facts, its QR code, a join.
#: (A finished room's record and replay are read from the database anywhere.)
ROOM_PATH = re.compile(r"^/(?:ws/([^/]+)|api/rooms/([^/]+)(?:/(?:qr\.svg|join))?)$")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def room_key(code: str) -> int:
    """The advisory lock's key of room `code`: a signed 64-bit number from the SHA-256
    of its code (the key space is shared with any other program using the database's
    advisory locks: a prefix keeps ours apart)."""
    digest = hashlib.sha256(f"skyjo room {code}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


#: The most bytes of a connection's application_name PostgreSQL keeps (NAMEDATALEN - 1):
#: a longer name is cut, and the owner's address with it.
NAME_BYTES = 63


class AddressTooLong(ValueError):
    """A process's internal address that does not fit in its lock connection's
    application_name, by which the other processes find it."""


def check_address(address: str) -> None:
    """Refuse an internal `address` (`host:port`) the other processes could not read
    whole from PostgreSQL (`NAME_BYTES`), naming it and the limit."""
    name = f"{APPLICATION}{address}"
    if len(name.encode()) > NAME_BYTES or not name.isascii():
        room = NAME_BYTES - len(APPLICATION)
        raise AddressTooLong(
            f"the internal address {address!r} (SKYJO_INTERNAL_HOST and a port) has "
            f"{len(address.encode())} bytes: the other processes read it from PostgreSQL's "
            f"application_name, which keeps {room} ASCII bytes of it; "
            "set SKYJO_INTERNAL_HOST to a shorter address"
        )


#: Name the lock connection by the process's address, for its session.
NAMING = text("SELECT set_config('application_name', :name, false)")


class OwnershipLost(RuntimeError):
    """The lock connection broke: every lock this process held is gone."""


class Ownership:
    """This process's advisory locks (session-level: a commit keeps them), on one
    connection of its own, named by the process's address: taken from the process's
    engine and detached from its pool for good (a pooled connection would carry the
    locks to whoever took it next; closed, a detached connection ends). Every call
    runs in one thread, in order. Opened on the process's engine, or on a URL (an
    engine of its own)."""

    def __init__(self, source: Source, address: str) -> None:
        check_address(address)  # never cut: the others would relay to a wrong address
        self.address = address
        self._engine, self._owned = engine_of(source)
        self._connection: Connection | None = None
        #: The rooms whose lock this process holds (each once: the locks stack).
        self.held: set[str] = set()
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="skyjo-locks")
        self._mutex = threading.Lock()
        self._connected()  # at once: the process is a member of the cluster from its start

    def _connected(self) -> Connection:
        if self._connection is None:
            connection = self._engine.connect()
            connection.detach()  # never back to the pool, and its locks with it
            try:
                name = f"{APPLICATION}{self.address}"  # before any lock: the others read it
                connection.execute(NAMING, {"name": name})
                connection.commit()
            except Exception:
                connection.close()
                raise
            self._connection = connection
        return self._connection

    def _run(self, statement: str, **values: Any) -> list[Any]:
        with self._mutex:
            try:
                connection = self._connected()
                rows = list(connection.execute(text(statement), values))
                connection.commit()  # each statement its own transaction; the locks stay
                return rows
            except Exception as failure:
                self._broken()
                raise OwnershipLost(f"the lock connection failed: {failure}") from failure

    def _broken(self) -> None:
        """Forget a connection that failed: its locks are PostgreSQL's to drop."""
        self.held.clear()
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.invalidate()
            self._connection = None

    async def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` in the locks' thread."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, function, *args)

    def take(self, codes: list[str]) -> list[str]:
        """Take the free locks of `codes` (one round trip); the codes held now, those
        held already included."""
        held = [code for code in codes if code in self.held]
        keys = {room_key(code): code for code in codes if code not in self.held}
        if keys:
            rows = self._run(
                "SELECT k FROM unnest(CAST(:keys AS bigint[])) AS k WHERE pg_try_advisory_lock(k)",
                keys=list(keys),
            )
            taken = [keys[key] for (key,) in rows]
            self.held.update(taken)
            held += taken
        return held

    def release(self, code: str) -> None:
        """Let go of room `code`'s lock (no longer in this process's memory)."""
        if code in self.held:
            self.held.discard(code)
            self._run("SELECT pg_advisory_unlock(:key)", key=room_key(code))

    def owner(self, code: str) -> str | None:
        """The address of the process holding room `code`'s lock (None: nobody, or not
        one of ours)."""
        key = room_key(code)
        rows = self._run(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
            " AND l.classid::bigint = :high AND l.objid::bigint = :low",
            high=(key >> 32) & 0xFFFFFFFF,
            low=key & 0xFFFFFFFF,
        )
        for (name,) in rows:
            if name and name.startswith(APPLICATION):
                return str(name[len(APPLICATION) :])
        return None

    def count_held(self) -> int:
        """How many room locks the cluster's processes hold (each room in a process's
        memory holds one; so do the rooms being loaded or made)."""
        rows = self._run(
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
            " AND a.application_name LIKE :named",
            named=f"{APPLICATION}%",
        )
        return int(rows[0][0])

    def check(self) -> None:
        """Raise `OwnershipLost` if the lock connection is gone (a round trip); a
        connection lost before is made again."""
        self._run("SELECT 1")

    def close(self) -> None:
        """End the lock connection (PostgreSQL lets go of every lock) and the thread."""
        self._thread.shutdown(wait=True)
        with self._mutex:
            if self._connection is not None:
                with contextlib.suppress(Exception):
                    self._connection.close()
            if self._owned:
                self._engine.dispose()
            self.held.clear()


def room_of(path: str) -> str | None:
    """The room code of a path relayed to its owner (`ROOM_PATH`), upper-case."""
    found = ROOM_PATH.match(path)
    if found is None:
        return None
    return (found.group(1) or found.group(2)).strip().upper()


class Relay:
    """ASGI middleware of a cluster member: a room's connection or request reaching a
    process that does not hold the room is passed to the owner's own listener and
    its answer passed back, unchanged (`Lobby.locate` finds or takes the owner).
    The client's address goes along as `X-Forwarded-For` (the owner trusts it from
    `Settings.trusted_proxies`); its `Origin` does not, having been checked here
    (`OriginGuard`, outside this)."""

    def __init__(self, app: ASGIApp, forwarder: Forwarder) -> None:
        self.app = app
        self.forwarder = forwarder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        lobby = getattr(scope.get("app").state, "lobby", None) if "app" in scope else None
        code = room_of(scope.get("path", "")) if scope["type"] in ("http", "websocket") else None
        if lobby is None or lobby.ownership is None or code is None:
            await self.app(scope, receive, send)
            return
        relayed = any(name == RELAYED.encode() for name, _ in scope.get("headers", ()))
        owner = await lobby.locate(code)
        if owner is None:
            await self.app(scope, receive, send)
        elif relayed:  # it moved again since the relay looked: the client tries again
            await _moving(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send, lobby, code, owner)
        else:
            await self._request(scope, receive, send, lobby, code, owner)

    def _headers(self, scope: Scope) -> dict[str, str]:
        """What a relayed request says besides its body: the client's address, and
        that it is relayed."""
        client = scope.get("client")
        headers = {RELAYED: "1"}
        if client:
            headers["x-forwarded-for"] = str(client[0])
        return headers

    async def _websocket(
        self, scope: Scope, receive: Receive, send: Send, lobby: Any, code: str, owner: str
    ) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        from skyjo.web.settings import WS_MAX_SIZE

        path = _target(scope)

        def opening(at: str) -> Awaitable[Any]:
            return connect(
                f"ws://{at}{path}",
                additional_headers=self._headers(scope),
                max_size=WS_MAX_SIZE,
                compression=None,
                open_timeout=FIND_FOR,
            )

        # refused, unreachable, or too slow: any failure to open is the owner's
        reached, upstream = await _reach(lobby, code, owner, opening, Exception)
        if reached is _GONE:
            await _moving(scope, receive, send)
            return
        if reached is _HERE:  # taken here meanwhile
            await self.app(scope, receive, send)
            return
        if (await receive())["type"] != "websocket.connect":
            await upstream.close()
            return
        await send({"type": "websocket.accept"})

        async def down() -> None:  # the owner's messages to the client
            try:
                async for message in upstream:
                    if isinstance(message, str):
                        await send({"type": "websocket.send", "text": message})
                    else:
                        await send({"type": "websocket.send", "bytes": message})
                code, reason = upstream.close_code or 1000, upstream.close_reason or ""
            except ConnectionClosed:
                code, reason = 1012, "the room's server is gone: reconnect"
            if code in (1005, 1006):
                code, reason = 1012, "the room's server is gone: reconnect"
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": code, "reason": reason})

        async def up() -> None:  # the client's messages to the owner
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                with contextlib.suppress(ConnectionClosed):
                    await upstream.send(data)

        tasks = [asyncio.create_task(down()), asyncio.create_task(up())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await upstream.close()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _request(
        self, scope: Scope, receive: Receive, send: Send, lobby: Any, code: str, owner: str
    ) -> None:
        import httpx2

        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        skip = {b"host", b"origin", b"sec-fetch-site", b"content-length", b"x-forwarded-for"}
        headers = [(k.decode(), v.decode()) for k, v in scope["headers"] if k.lower() not in skip]
        headers += list(self._headers(scope).items())
        path = _target(scope)

        def asking(at: str) -> Awaitable[Any]:
            url = f"http://{at}{path}"
            return self.forwarder.client().request(
                scope["method"], url, content=body, headers=headers
            )

        reached, answer = await _reach(lobby, code, owner, asking, httpx2.TransportError)
        if reached is _GONE:
            await _moving(scope, receive, send)
            return
        if reached is _HERE:  # taken here meanwhile: served here, its body read again
            await self.app(scope, _body(body), send)
            return
        drop = {"content-length", "content-encoding", "transfer-encoding", "connection"}
        items = answer.headers.multi_items()
        out = [(k.encode(), v.encode()) for k, v in items if k.lower() not in drop]
        content = answer.content
        out.append((b"content-length", str(len(content)).encode()))
        await send({"type": "http.response.start", "status": answer.status_code, "headers": out})
        await send({"type": "http.response.body", "body": content})


class Forwarder:
    """The HTTP client of the requests a process relays (made when first needed)."""

    def __init__(self) -> None:
        self._client: Any = None

    def client(self) -> Any:
        if self._client is None:
            import httpx2

            self._client = httpx2.AsyncClient(timeout=30)
        return self._client

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()


#: What `_reach` came to besides the owner's answer: the room is held here now, or its
#: owner could not be reached within `FIND_FOR`.
_HERE, _GONE = object(), object()


async def _reach(
    lobby: Any,
    code: str,
    owner: str,
    attempt: Callable[[str], Awaitable[Any]],
    failures: type[BaseException] | tuple[type[BaseException], ...],
) -> tuple[object, Any]:
    """`attempt(owner)` (a connection or a request to room `code`'s owner), tried
    again while it fails with `failures`: the owner died and PostgreSQL frees its lock
    in a moment, so the owner is looked up again after each failure. `(owner's
    address, answer)` once it answers; `(_HERE, None)` when this process took the room
    meanwhile; `(_GONE, None)` when no owner answered within `FIND_FOR`."""
    deadline = time.monotonic() + FIND_FOR
    while True:
        try:
            return owner, await attempt(owner)
        except failures as failure:
            if time.monotonic() > deadline:
                log.warning("room %s: its owner %s cannot be reached: %s", code, owner, failure)
                return _GONE, None
            await asyncio.sleep(0.1)  # the owner died: its lock is freed in a moment
            found = await lobby.locate(code)
            if found is None:
                return _HERE, None
            owner = found


def _target(scope: Scope) -> str:
    """The path and query of a request, as relayed."""
    query = scope.get("query_string") or b""
    return scope["path"] + (f"?{query.decode()}" if query else "")


def _body(body: bytes) -> Receive:
    """An ASGI `receive` giving a request's body, read already, again."""

    async def receive() -> MutableMapping[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


def room_moving() -> ProtocolError:
    """The refusal of a room changing hands (`unavailable`, 503; a WebSocket closed
    with 1013): the client's page tries again by itself."""
    return ProtocolError(
        "unavailable",
        "the room is moving to another server process: try again in a moment",
        "room_moving",
    )


async def _moving(scope: Scope, receive: Receive, send: Send) -> None:
    """Refuse a room's connection or request while the room changes hands (`room_moving`):
    the client's page tries again by itself."""
    failure = room_moving()
    if scope["type"] == "websocket":
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": encode(refusal(failure))})
        await send({"type": "websocket.close", "code": 1013, "reason": "try again"})
        return
    body = encode({"error": failure.fields()}).encode()
    headers = [(b"content-type", b"application/json"), (b"retry-after", b"1")]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
