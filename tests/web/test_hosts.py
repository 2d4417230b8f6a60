"""DNS rebinding refused: a request addressed to a host name this server does not
answer to (`skyjo.web.origins.host_allowed`) gets 400 `host_not_allowed`, over HTTP
and WebSocket; IP addresses, localhost and the names listed pass."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from webapp import serving

from skyjo.web.origins import OriginError, allowed_names, host_allowed, parse_hosts
from skyjo.web.settings import Settings


def test_a_rebound_name_is_refused_before_anything_runs(client: TestClient) -> None:
    for path in ("/", "/api/health", "/api/rooms"):
        refused = client.get(path, headers={"Host": "rebind.test:8000"})
        assert refused.status_code == 400, path
        error = refused.json()["error"]
        said = (error["kind"], error["params"])
        assert said == ("host_not_allowed", {"host": "rebind.test:8000"})
    made = client.post(
        "/api/rooms",
        json={"seats": [{"name": "Ana"}, {"bot": "greedy"}]},
        headers={"Host": "rebind.test:8000", "Origin": "http://rebind.test:8000"},
    )
    assert made.status_code == 400  # the issue's attack: it made a room (201)
    assert client.get("/api/rooms").json()["rooms"] == []
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect("/ws/ABCDEF", headers={"Host": "rebind.test"}),
    ):
        pass  # never opened
    assert denied.value.status_code == 400
    assert denied.value.json()["error"]["kind"] == "host_not_allowed"
    for host in ("127.0.0.1:8000", "[::1]:8000", "localhost:8000", "testserver", "10.0.0.7"):
        assert client.get("/api/health", headers={"Host": host}).status_code == 200, host


def test_the_names_listed_and_their_subdomains_pass() -> None:
    with serving(allowed_hosts=("skyjo.example.org", ".club.example")) as client:
        names = ("skyjo.example.org", "SKYJO.example.org:443", "a.club.example", "club.example")
        for host in names:
            assert client.get("/api/health", headers={"Host": host}).status_code == 200, host
        for host in ("example.org", "evil-skyjo.example.org.test", "xclub.example"):
            assert client.get("/api/health", headers={"Host": host}).status_code == 400, host


def test_the_allowed_origins_and_the_cluster_address_are_answered_to() -> None:
    names = allowed_names((), ("https://play.example.org",), "node2.internal:8001")
    assert names == {"play.example.org", "node2.internal"}
    assert host_allowed("node2.internal:8001", names)
    assert not host_allowed("node3.internal:8001", names)
    assert not host_allowed("", names)


def test_the_setting_reads_names_and_refuses_what_is_not_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SKYJO_ALLOWED_HOSTS", " Skyjo.Example.org, .club.example ,")
    assert Settings.from_env("sqlite://").allowed_hosts == ("skyjo.example.org", ".club.example")
    for bad in ("https://skyjo.example.org", "skyjo.example.org:8000", "a b"):
        with pytest.raises(OriginError, match="not a host name"):
            parse_hosts(bad)
