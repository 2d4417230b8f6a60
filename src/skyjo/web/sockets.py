"""How many WebSockets a server keeps open: per client address and in all
(docs/web-protocol.md, "Close codes"; docs/deploy.md, "Open files").

Every open socket holds one of the process's files (two in a cluster's process
that relays it to the room's owner: `skyjo.web.cluster`), and a process out of
files accepts nothing more, not even `/api/health`. So the total is kept below
the open-file limit (`RLIMIT_NOFILE`, read once at start), leaving files for
the database, the logs, the bots' workers and the HTTP requests; and one
address may hold only a share of it. Past a cap, a new socket is accepted and at
once closed, before any route reads it (`SocketGate`): 4429 past its address's
cap, 1013 (try again later) past the total.

The address is the client's as the app sees it (`limits.client_address`: behind
a trusted proxy, the one it names). A cluster's processes count apart.
"""

from __future__ import annotations

import logging
import resource
import time
from collections import Counter
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from skyjo.web.limits import client_address
from skyjo.web.settings import Settings

log = logging.getLogger("skyjo.web")

#: The close code of a socket past its address's cap (as HTTP's 429), and past the total.
TOO_MANY_FROM_ADDRESS = 4429
SERVER_FULL = 1013
#: The files kept for everything but the sockets: a quarter of the limit, at least 128
#: (or half of a limit under 256).
KEPT_SHARE = 4
KEPT_AT_LEAST = 128
#: How often (seconds) the log says again that sockets are being refused.
LOG_EVERY = 60.0


@dataclass(frozen=True, slots=True)
class SocketCaps:
    """The open-file limit the process started with (None: unlimited), and the most
    WebSockets open at once in all and from one address (0: no cap per address)."""

    open_files: int | None
    total: int
    per_address: int

    def describe(self) -> str:
        """The caps in words, for the start-up line."""
        files = "unlimited" if self.open_files is None else str(self.open_files)
        per = f"{self.per_address} per address" if self.per_address else "no cap per address"
        return f"open files {files}: at most {self.total} WebSockets, {per}"


def open_file_limit() -> int | None:
    """The process's soft limit of open files (None: unlimited)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def socket_caps(settings: Settings, relaying: bool, open_files: int | None) -> SocketCaps:
    """The caps of a process with `open_files` (`open_file_limit`): `settings.max_sockets`,
    fewer when the files not kept for the rest would not hold them (half as many
    when `relaying`: a cluster's process holds two files a relayed socket)."""
    total = settings.max_sockets
    if open_files is not None:
        kept = max(open_files // KEPT_SHARE, min(KEPT_AT_LEAST, open_files // 2))
        usable = open_files - kept
        total = min(total, usable // 2 if relaying else usable)
    total = max(1, total)
    per_address = min(settings.sockets_per_address, total)
    return SocketCaps(open_files, total, max(0, per_address))


class SocketGate:
    """ASGI middleware counting the open WebSockets, per address and in all: one past a
    cap is accepted and closed at once (`TOO_MANY_FROM_ADDRESS`, `SERVER_FULL`), the
    app never called; every other releases its count however it ends."""

    def __init__(self, app: ASGIApp, caps: SocketCaps) -> None:
        self.app = app
        self.caps = caps
        self.by_address: Counter[str] = Counter()
        self.total = 0
        self._logged = -LOG_EVERY

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        address = client_address(scope.get("client"))
        refused = self._refusal(address)
        if refused is not None:
            await _refuse(receive, send, *refused)
            return
        self.total += 1
        self.by_address[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.total -= 1
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]

    def _refusal(self, address: str) -> tuple[int, str] | None:
        """The close code and reason of a new socket from `address`, None when it may open."""
        per_address = self.caps.per_address
        if per_address and self.by_address[address] >= per_address:
            self._log(f"{per_address} open from {address}, its cap")
            return TOO_MANY_FROM_ADDRESS, f"too many connections from your address: {per_address}"
        if self.total >= self.caps.total:
            self._log(f"{self.total} open, the server's cap")
            return SERVER_FULL, "the server is full: try again later"
        return None

    def _log(self, what: str) -> None:
        """Say in the log, at most every `LOG_EVERY` seconds, that sockets are refused."""
        now = time.monotonic()
        if now - self._logged >= LOG_EVERY:
            self._logged = now
            log.warning("WebSockets refused: %s (%s)", what, self.caps.describe())


async def _refuse(receive: Receive, send: Send, code: int, reason: str) -> None:
    """Accept the socket and close it at once with `code` (a close code reaches a
    client only on an accepted socket; refused at the handshake it sees a 403)."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason})
