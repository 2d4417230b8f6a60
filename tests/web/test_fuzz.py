"""No request can make the server fail: Hypothesis throws malformed, deeply
nested, huge-number, wrong-type and odd-Unicode bodies (and odd path values and
credentials) at every HTTP route of the app, and no answer is a 5xx."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from webapp import make_settings, routes
from webclient import Conn

from skyjo.web.app import create_app


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[tuple[TestClient, dict[str, str]]]:
    """A server with a room, a sheet and an upload to aim at; bots wait (no CPU
    spent meanwhile); no limit gets in the way; a 500 comes back as a response."""
    app = create_app(make_settings(bot_delay=3600.0))
    with TestClient(app, raise_server_exceptions=False) as client:
        room = client.post("/api/rooms", json={"seats": [{"name": "Ana"}, {"bot": "greedy"}]})
        sheet = client.post("/api/scorepad/sheets", json={"players": ["Ana", "Ben"]}).json()
        values = {
            "code": room.json()["code"],
            "sheet_id": sheet["id"],
            "owner": sheet["owner"],
            "number": "1",
            "kind": "json",
            "key": "aaaaaaaaaaaa",
        }
        yield client, values
        Conn.close_all()


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)  # every code point, lone surrogates included
    | st.sampled_from(["\u200b", "\u202eAna", "A\u0301", "\ud800", "x" * 200, "ana", "ANA"])
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "seats", "rules", "title", "listed", "host_seat", "turn_seconds", "name", "seat", "bot",
    "players", "target_score", "ender_penalty", "revision", "round", "number", "access",
    "entries", "ender", "format", "version", "rounds", "hot_seat",
]  # fmt: skip
SHAPED = st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=5)


def _quoted(text: str) -> str:
    """`text` as a path segment: every byte of its UTF-8 (surrogates kept) percent-encoded."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def _encoded(value: Any) -> bytes:
    return json.dumps(value, allow_nan=True).encode("utf-8", "surrogatepass")


BODIES = st.one_of(
    st.binary(max_size=200),  # not JSON, not UTF-8
    st.integers(min_value=33, max_value=5000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(min_value=33, max_value=3000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    st.sampled_from(
        [b"1e999", b"-1e999", b"NaN", b"[Infinity]", b"9" * 5000, b'{"revision": 1e400}']
    ),
    st.sampled_from([b'{"rules": {"target_score": 1000000000000000000000000000000}}']),
    JSON_VALUES.map(_encoded),
    SHAPED.map(_encoded),
    st.text(max_size=60).map(lambda t: t.encode("utf-8", "surrogatepass")),
)
PATH_VALUES = st.one_of(
    st.just(None),  # the real room, sheet or number
    st.text(max_size=30).filter(lambda t: "/" not in t and "?" not in t and "#" not in t),
    st.sampled_from(["0", "-1", "99999999999999999999", "%00", "..", "ÿ" * 20]),
)


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    index=st.integers(min_value=0),
    body=BODIES,
    path_value=PATH_VALUES,
    owner=st.sampled_from([None, "real", b"", b"x" * 500, b"\xff\xfe"]),
    key=st.sampled_from([None, "", "k" * 300]),
    query=st.sampled_from(["", "?revision=1", "?revision=x", "?revision=" + "9" * 50]),
)
def test_no_request_gets_a_server_error(
    fuzzed: tuple[TestClient, dict[str, str]],
    index: int,
    body: bytes,
    path_value: str | None,
    owner: str | bytes | None,
    key: str | None,
    query: str,
) -> None:
    client, values = fuzzed
    every = routes(client.app)
    method, template = every[index % len(every)]
    path = template
    for name in ("code", "sheet_id", "number", "kind", "key"):
        given = values[name] if path_value is None else _quoted(path_value)
        path = path.replace("{" + name + "}", given)
    headers: dict[str, str | bytes] = {"Content-Type": "application/json"}
    if owner is not None:
        headers["X-Skyjo-Owner"] = values["owner"] if owner == "real" else owner
    if key is not None:
        headers["X-Skyjo-Key"] = key
    response = client.request(method, path + query, content=body, headers=headers)
    assert response.status_code < 500, (method, path, body[:200], response.text[:500])


def test_the_fuzzed_routes_are_every_route_of_the_app(fuzzed: tuple[TestClient, Any]) -> None:
    every = routes(fuzzed[0].app)
    assert ("POST", "/api/rooms") in every and (
        "DELETE",
        "/api/scorepad/sheets/{sheet_id}",
    ) in every
    assert ("POST", "/api/scorepad/sheets/{sheet_id}/share") in every
    assert len(every) >= 25, every
