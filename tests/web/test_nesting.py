"""Bodies and messages nested deeper than `skyjo.jsondepth.MAX_DEPTH` are refused
(400, or an `error` message) before any parser recurses: never a 500."""

from __future__ import annotations

from starlette.testclient import TestClient
from webclient import Conn, create_room

from skyjo.jsondepth import MAX_DEPTH

DEEP = b"[" * 5000 + b"]" * 5000  # 10 KB: json.loads raises RecursionError on it
DEEP_IN_OBJECT = b'{"seats": ' + DEEP + b"}"


def test_every_json_body_route_refuses_a_deep_body_with_400(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": None}])
    sheet = client.post("/api/scorepad/sheets", json={"players": ["Ana", "Ben"]})
    assert sheet.status_code == 201
    headers = {"X-Skyjo-Owner": sheet.json()["owner"], "Content-Type": "application/json"}
    one = f"/api/scorepad/sheets/{sheet.json()['id']}"
    routes = [
        ("POST", "/api/rooms", "body_too_deep"),
        ("POST", f"/api/rooms/{host['code']}/join", "body_too_deep"),
        ("POST", "/api/replays", "body_too_deep"),
        ("POST", "/api/scorepad/sheets", "body_too_deep"),
        ("POST", "/api/scorepad/import", "too_deep"),
        ("PATCH", one, "body_too_deep"),
        ("POST", f"{one}/preview", "body_too_deep"),
        ("POST", f"{one}/rounds", "body_too_deep"),
        ("PUT", f"{one}/rounds/1", "body_too_deep"),
        ("POST", f"{one}/undo", "body_too_deep"),
        ("POST", f"{one}/share", "body_too_deep"),
    ]
    for method, path, kind in routes:
        for body in (DEEP, DEEP_IN_OBJECT):
            response = client.request(method, path, content=body, headers=headers)
            assert response.status_code == 400, (method, path, response.text)
            error = response.json()["error"]
            assert (error["kind"], error["params"]) == (kind, {"max": MAX_DEPTH}), (path, error)


def test_a_deep_websocket_message_gets_an_error_and_the_room_plays_on(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.ws.send_text('{"type": "chat", "text": ' + "[" * 1500 + "]" * 1500 + "}")
    error = ana.error()
    assert (error["code"], error["kind"], error["params"]) == ("bad_json", "too_deep", {"max": 32})
    ana.send({"type": "resync"})
    assert ana.until(lambda m: m["type"] == "state")["number"] == 0
