"""Helpers of the web tests (a plain module, imported as `webapp`; the fixtures
are in tests/web/conftest.py): the app's test settings, and a TestClient of it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from fastapi.routing import APIRoute
from starlette.testclient import TestClient
from webclient import Conn

from skyjo.web.app import create_app
from skyjo.web.settings import Settings

#: The header of a JSON body sent as raw bytes (the server refuses any other type: 415).
JSON = {"Content-Type": "application/json"}


def make_settings(**changes: object) -> Settings:
    """Test settings: bots move at once, absent humans are waited for, scripted
    clients may send as fast as they like, make as many rooms, uploads, sheets and
    sockets and try as many unknown codes as they like (the tests of the limits
    set small ones)."""
    values: dict[str, object] = {
        "bot_delay": 0.0,
        "absent_after": 3600.0,
        "rate": 1e6,
        "burst": 10**6,
        "ip_rate": 1e6,
        "ip_burst": 10**6,
        "rooms_per_hour": 0,
        "joins_per_hour": 0,
        "replays_per_hour": 0,
        "sheets_per_hour": 0,
        "codes_per_hour": 0,
        "sockets_per_address": 0,  # every TestClient socket comes from one address
        "allowed_hosts": ("testserver",),  # the TestClient's host
    }
    values.update(changes)
    return Settings(**values)  # type: ignore[arg-type]


def routes(app: Any) -> list[tuple[str, str]]:
    """(method, path) of every HTTP route, the scorepad's router's included."""
    found: list[tuple[str, str]] = []
    todo = list(app.routes)
    while todo:
        route = todo.pop()
        inner = getattr(route, "original_router", None)
        if inner is not None:
            todo += inner.routes
        elif isinstance(route, APIRoute):
            found += [(method, route.path) for method in sorted(route.methods) if method != "HEAD"]
    return sorted(set(found))


@contextlib.contextmanager
def serving(**changes: object) -> Iterator[TestClient]:
    """A TestClient of an app with `make_settings(**changes)`; its sockets are
    closed before the app stops."""
    with TestClient(create_app(make_settings(**changes))) as test_client:
        try:
            yield test_client
        finally:
            Conn.close_all()
