"""A database the server cannot write, said as a refusal (docs/web-protocol.md, "When
the database fails").

A disk that is full, a database another process holds locked, a server gone: a
request that needed the database answers 503 `unavailable` with a kind of its own
(`storage_full`, `storage_locked`, `storage_failed`) and a `Retry-After`, never a bare
500; `GET /api/health` answers 503 with the same kind (`probe`). The driver's own
message is logged without the statement or its parameters (`skyjo.persistence.engine.engine_for`
hides them), never sent: it may name files and tables.
"""

from __future__ import annotations

import logging

from skyjo.web.validation import ProtocolError

log = logging.getLogger("skyjo.web")

#: Seconds a client waits before trying again after a refusal of the database's.
RETRY_AFTER = 5
#: Seconds between a room's tries to save itself again while its database fails.
RETRY_EVERY = 2.0

#: What the kinds say, in English (the web client words each in its language).
MESSAGES = {
    "storage_full": "the server's disk is full: nothing can be saved now, try again later",
    "storage_locked": "the server's database is busy (locked by another program): try again",
    "storage_failed": "the server cannot use its database now: try again later",
}

#: SQLite's words (its messages) and PostgreSQL's SQLSTATE classes for each kind.
_SQLITE = (
    ("database or disk is full", "storage_full"),
    ("disk i/o error", "storage_full"),
    ("database is locked", "storage_locked"),
    ("database table is locked", "storage_locked"),
)
_POSTGRES = {
    "53100": "storage_full",  # disk_full
    "53200": "storage_full",  # out_of_memory
    "55P03": "storage_locked",  # lock_not_available
    "40P01": "storage_locked",  # deadlock_detected
    "57014": "storage_locked",  # query_canceled (a statement or lock timeout)
}


def storage_kind(failure: BaseException) -> str:
    """Which of the kinds a database's failure is (`storage_failed` when unknown)."""
    original = getattr(failure, "orig", None) or failure
    state = getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)
    if isinstance(state, str) and state in _POSTGRES:
        return _POSTGRES[state]
    text = str(original).lower()
    for words, kind in _SQLITE:
        if words in text:
            return kind
    return "storage_failed"


def storage_refusal(failure: BaseException) -> ProtocolError:
    """The refusal of a request the database failed (`unavailable`, 503, Retry-After)."""
    return outage_refusal(storage_kind(failure))


def outage_refusal(kind: str) -> ProtocolError:
    """The refusal of a change while the database fails with `kind`."""
    return ProtocolError("unavailable", MESSAGES[kind], kind, {"retry_after": RETRY_AFTER})


def logged(failure: BaseException, what: str) -> str:
    """Log one line for a database's failure while doing `what` (its kind and the
    driver's first line, never a statement's parameters); its kind."""
    kind = storage_kind(failure)
    original = getattr(failure, "orig", None) or failure
    first = f"{original}".partition("\n")[0][:200]
    log.warning("%s: the database failed (%s): %s", what, kind, first)
    return kind
