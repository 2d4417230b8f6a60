"""Other websites cannot act through a visitor's browser (`skyjo.web.origins`): every
state-changing request and every WebSocket from another origin is refused, a body
that is not declared JSON too; requests of the server's own pages, of a configured
origin, and of scripts (no `Origin`) go on. Unknown routes answer the error shape."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from webapp import JSON, routes, serving
from webclient import Conn, create_room

from skyjo.web.origins import OriginError, normalize_origin, parse_origins
from skyjo.web.settings import Settings

EVIL = "http://evil.example"
ROOM: dict[str, Any] = {"seats": [{"name": "Ana"}, {"name": None}, {"bot": "greedy"}]}


def _changing_routes(app: Any) -> list[tuple[str, str]]:
    """(method, path) of every route that changes something (not GET)."""
    return [(method, path) for method, path in routes(app) if method != "GET"]


def _targets(client: TestClient) -> tuple[dict[str, str], dict[str, str]]:
    """Values for every route's path (a room in its lobby, a sheet) and the sheet's owner."""
    room = create_room(client, ROOM["seats"], lobby=True)
    sheet = client.post("/api/scorepad/sheets", json={"players": ["Ana", "Ben"]}).json()
    values = {"code": room["code"], "sheet_id": sheet["id"], "number": "1"}
    return values, {"X-Skyjo-Owner": sheet["owner"]}


def _path(template: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return template


def _refused(response: Any, status: int, kind: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) == {"code", "message", "kind", "params"}, error
    assert error["kind"] == kind, error
    return error


def test_every_changing_route_refuses_another_origin_and_changes_nothing() -> None:
    with serving() as client:
        values, owner = _targets(client)
        routes = _changing_routes(client.app)
        assert len(routes) >= 12 and ("POST", "/api/rooms/{code}/join") in routes, routes
        before = client.get(f"/api/rooms/{values['code']}").json()
        sheets = client.get("/api/scorepad/sheets", headers=owner).json()
        for method, template in routes:
            for origin in (EVIL, "null", "http://testserver.evil.example", "https://testserver"):
                response = client.request(
                    method,
                    _path(template, values),
                    json={"name": "Mallory", "players": ["Eve", "Mal"]},
                    headers={**owner, "Origin": origin},
                )
                error = _refused(response, 403, "cross_origin")
                assert error["code"] == "forbidden" and error["params"] == {"origin": origin}
                assert response.headers["content-security-policy"]  # still the app's headers
        assert client.get(f"/api/rooms/{values['code']}").json() == before  # no seat taken
        assert client.get("/api/scorepad/sheets", headers=owner).json() == sheets
        assert client.app.state.lobby.rooms.keys() == {values["code"]}  # no room made


def test_a_request_another_site_made_is_refused_without_an_origin_too() -> None:
    with serving() as client:
        for site in ("cross-site", "same-site"):
            response = client.post("/api/rooms", json=ROOM, headers={"Sec-Fetch-Site": site})
            error = _refused(response, 403, "cross_site")
            assert error["params"] == {"site": site}
        assert not client.app.state.lobby.rooms
        for site in ("same-origin", "none"):  # the server's own page; the user's own doing
            response = client.post("/api/rooms", json=ROOM, headers={"Sec-Fetch-Site": site})
            assert response.status_code == 201, response.text


def test_the_servers_own_pages_a_configured_origin_and_scripts_go_on() -> None:
    allowed = ("https://skyjo.example.org", "http://localhost:5173")
    with serving(allowed_origins=allowed) as client:
        for origin in ("http://testserver", "HTTP://TestServer:80", *allowed):
            headers = {"Origin": origin, "Sec-Fetch-Site": "same-origin"}
            assert client.post("/api/rooms", json=ROOM, headers=headers).status_code == 201
        assert client.post("/api/rooms", json=ROOM).status_code == 201  # a script: no Origin
        # reading is anyone's: a GET from another origin is answered (CORS keeps it from the page)
        code = next(iter(client.app.state.lobby.rooms))
        assert client.get(f"/api/rooms/{code}", headers={"Origin": EVIL}).status_code == 200


def test_the_own_origin_behind_a_proxy_is_the_one_the_browser_saw() -> None:
    """Behind a trusted proxy, https and the public host name (X-Forwarded-Proto, Host,
    a name the server answers to: `allowed_hosts`)."""
    public = ("testserver", "skyjo.example.org")
    with serving(allowed_hosts=public) as client:
        headers = {
            "Origin": "https://skyjo.example.org",
            "Host": "skyjo.example.org",
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "203.0.113.9",
        }
        response = client.post("/api/rooms", json=ROOM, headers=headers)
        _refused(response, 403, "cross_origin")  # untrusted peer: its X-Forwarded-Proto ignored
    with serving(trusted_proxies="*", allowed_hosts=public) as client:  # the peer: the proxy
        response = client.post("/api/rooms", json=ROOM, headers=headers)
        assert response.status_code == 201, response.text


def test_a_body_not_declared_json_is_refused_so_browsers_always_ask_first() -> None:
    with serving() as client:
        values, owner = _targets(client)
        with_body = [
            (method, template)
            for method, template in _changing_routes(client.app)
            if method != "DELETE"
        ]
        for method, template in with_body:
            for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
                response = client.request(
                    method,
                    _path(template, values),
                    content=b'{"players": ["Eve", "Mal"]}',
                    headers={**owner, "Content-Type": kind},
                )
                error = _refused(response, 415, "body_content_type")
                assert error["params"] == {"type": kind}, error
            response = client.request(method, _path(template, values), content=b"{}", headers=owner)
            _refused(response, 415, "body_content_type")  # none declared
        assert client.app.state.lobby.rooms.keys() == {values["code"]}
        charset = {"Content-Type": "application/json; charset=utf-8"}
        assert client.post("/api/rooms", json=ROOM, headers=charset).status_code == 201
        joined = client.post(f"/api/rooms/{values['code']}/join")  # no body: no type needed
        assert joined.status_code == 200, joined.text


def test_a_websocket_from_another_origin_is_refused_at_the_handshake() -> None:
    with serving() as client:
        room = create_room(client, ROOM["seats"], lobby=True)
        for origin in (EVIL, "null"):
            with (
                pytest.raises(WebSocketDenialResponse) as denied,
                client.websocket_connect(f"/ws/{room['code']}", headers={"Origin": origin}),
            ):
                pass  # never opened
            assert denied.value.status_code == 403
            assert denied.value.json()["error"]["kind"] == "cross_origin"
        assert client.get(f"/api/rooms/{room['code']}").json()["free_seats"] == [1]
        own = client.websocket_connect(
            f"/ws/{room['code']}", headers={"Origin": "http://testserver"}
        )
        conn = Conn(client, room["code"], own.__enter__())
        conn._context = own
        assert conn.hello(room["token"])["type"] == "state"


def test_unknown_routes_and_methods_answer_the_error_shape() -> None:
    with serving() as client:
        error = _refused(client.get("/api/nothing-here"), 404, "no_route")
        assert error["code"] == "not_found" and error["params"] == {"path": "/api/nothing-here"}
        error = _refused(client.put("/api/rooms", json={}), 405, "method_not_allowed")
        assert error["params"] == {"method": "PUT", "path": "/api/rooms"}
        page = client.get("/r/ABCDEF")  # a page route is the client, found
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


def test_allowed_origins_are_read_and_checked() -> None:
    assert normalize_origin("HTTPS://Skyjo.Example.org:443/") == "https://skyjo.example.org"
    assert normalize_origin("http://[::1]:8000") == "http://[::1]:8000"
    assert parse_origins(" https://a.example , http://b.example:8080,") == (
        "https://a.example",
        "http://b.example:8080",
    )
    for bad in ("skyjo.example.org", "ftp://a.example", "https://a.example/path", "*", "https://"):
        with pytest.raises(OriginError, match="is not an origin"):
            normalize_origin(bad)


def test_settings_take_allowed_origins_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SKYJO_ALLOWED_ORIGINS", "https://skyjo.example.org,http://localhost:5173")
    assert Settings.from_env("sqlite://").allowed_origins == (
        "https://skyjo.example.org",
        "http://localhost:5173",
    )
    monkeypatch.setenv("SKYJO_ALLOWED_ORIGINS", "skyjo.example.org")
    with pytest.raises(OriginError, match="scheme://host"):
        Settings.from_env("sqlite://")


def test_a_raw_json_upload_still_works_with_its_type() -> None:
    with serving() as client:
        response = client.post("/api/replays", content=b"{}", headers=JSON)
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_record"


def test_an_allowed_origin_s_page_is_answered_its_preflight_and_can_read_the_answer() -> None:
    """`SKYJO_ALLOWED_ORIGINS`: a page there may create and join rooms, not only open
    the WebSocket: its browser's preflight (OPTIONS) is answered, and the answer
    carries `Access-Control-Allow-Origin`; another origin's preflight is not."""
    allowed = "https://skyjo.example.org"
    with serving(allowed_origins=(allowed,)) as client:
        asked = {
            "Origin": allowed,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        }
        preflight = client.options("/api/rooms", headers=asked)
        assert preflight.status_code == 200, preflight.text
        assert preflight.headers["access-control-allow-origin"] == allowed
        assert "POST" in preflight.headers["access-control-allow-methods"]
        made = client.post("/api/rooms", json=ROOM, headers={"Origin": allowed})
        assert made.status_code == 201
        assert made.headers["access-control-allow-origin"] == allowed
        code = made.json()["code"]
        joined = client.post(f"/api/rooms/{code}/join", json={}, headers={"Origin": allowed})
        assert joined.status_code in (200, 409)  # a seat, or none free: not refused as foreign
        other = client.options("/api/rooms", headers={**asked, "Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers
        _refused(client.post("/api/rooms", json=ROOM, headers={"Origin": "https://evil.example"}),
                 403, "cross_origin")  # fmt: skip
    with serving() as client:  # none allowed: no CORS at all
        preflight = client.options("/api/rooms", headers=asked)
        assert "access-control-allow-origin" not in preflight.headers
