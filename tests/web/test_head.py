"""`HEAD` answers where `GET` does: the same status and headers, no body."""

from __future__ import annotations

from starlette.testclient import TestClient
from webclient import create_room


def test_head_is_get_without_its_body(client: TestClient) -> None:
    code = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])["code"]
    for path in ("/", f"/r/{code}", "/api/health", f"/api/rooms/{code}", "/rules", "/replay"):
        got = client.get(path)
        head = client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"", path
        assert head.headers["content-type"] == got.headers["content-type"], path
        if "content-length" in got.headers:
            assert head.headers["content-length"] == got.headers["content-length"], path
    missing = client.head("/api/rooms/ZZZZZZ")
    assert missing.status_code == 404 and missing.content == b""
    refused = client.head("/api/rooms/ZZZZZZ/join")  # a POST route: GET is not taken either
    assert refused.status_code == 405
