"""The API's schemas (/openapi.json): every route of the API is there, with the schema
of its request body where it takes one and of its answer; every error answer names
the one error model (never pydantic's 422); and what the server answers, answers and
refusals alike, is what those schemas say. The WebSocket's client messages are models
too, those docs/web-protocol.md lists."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter
from starlette.testclient import TestClient
from webapp import JSON, routes
from webclient import Conn, create_room, play_game

from skyjo.match import Match, Seat
from skyjo.web import protocol

ERROR = {"$ref": "#/components/schemas/ErrorResponse"}
#: The methods whose requests carry a body on this API.
WITH_BODY = {"post", "put", "patch"}


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
    ]


def test_every_route_of_the_api_is_documented_with_its_schemas(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    documented = {(method.upper(), path) for method, path, _ in _operations(schema)}
    api = {(method, path) for method, path in routes(client.app) if path.startswith("/api/")}
    assert documented == api
    assert len(api) == 30
    for method, path, operation in _operations(schema):
        where = f"{method.upper()} {path}"
        answers = operation["responses"]
        done = [status for status in answers if status.startswith("2")]
        if path.endswith("/review"):  # the review, or 202 while it is made
            done = [status for status in done if status != "202"]
        assert len(done) == 1, where
        shapes = answers[done[0]]["content"]
        assert shapes and all(shape["schema"] for shape in shapes.values()), where
        body = operation.get("requestBody")
        takes = method in WITH_BODY and not path.endswith("/review")  # a review reads nothing
        assert (body is not None) == takes, where
        if body is not None:
            reference = body["content"]["application/json"]["schema"]["$ref"]
            assert reference.removeprefix("#/components/schemas/") in components, where
        refusals = {status: answer for status, answer in answers.items() if status[0] == "4"}
        assert "4XX" in refusals and "422" not in refusals, where
        for status, answer in refusals.items():
            assert answer["content"] == {"application/json": {"schema": ERROR}}, (where, status)
    assert "HTTPValidationError" not in components
    assert set(components["ErrorDetail"]["required"]) == {"code", "message", "kind", "params"}
    owner = {p["name"] for p in schema["paths"]["/api/scorepad/sheets"]["get"]["parameters"]}
    assert owner == {"x-skyjo-owner", "x-skyjo-key"}  # the scorepad's tokens, as headers


def _record() -> dict[str, Any]:
    match = Match([Seat("Ana", "greedy"), Seat("Ben", "random")], seed=3)
    while not match.over:
        match.advance()
    return match.record()


def _answers(client: TestClient) -> list[tuple[str, str, Any]]:
    """Requests to every route of the API, answered and refused: (method, the route's
    path, the response)."""
    done: list[tuple[str, str, Any]] = []

    def call(method: str, path: str, route: str, **options: Any) -> Any:
        response = client.request(method, path, **options)
        done.append((method.lower(), route, response))
        return response

    rooms = "/api/rooms"
    one = "/api/rooms/{code}"
    call("GET", "/api/health", "/api/health")
    hot = [{"name": "Ana"}, {"name": "Ben", "hot_seat": True}, {"name": None}]
    host = call("POST", rooms, rooms, json={"seats": hot, "listed": True}).json()
    code = host["code"]
    call("POST", rooms, rooms, json={"seats": [{"name": "Ana"}]})
    call("POST", rooms, rooms, content=b"[" * 40 + b"]" * 40, headers=JSON)
    call("POST", rooms, rooms, content=b" " * 20_000, headers=JSON)
    call("GET", rooms, rooms)
    call("GET", f"{rooms}/{code}", one)
    call("GET", f"{rooms}/ZZZZZZ", one)
    call("GET", f"{rooms}/{code}/qr.svg", one + "/qr.svg")
    call("GET", f"{rooms}/ZZZZZZ/qr.svg", one + "/qr.svg")
    call("POST", f"{rooms}/{code}/join", one + "/join", json={"name": "Dan"})
    call("POST", f"{rooms}/{code}/join", one + "/join", json={"seat": "1"})
    call("POST", f"{rooms}/{code}/join", one + "/join", json={})
    call("GET", f"{rooms}/{code}/record", one + "/record")
    call("GET", f"{rooms}/{code}/replay", one + "/replay")
    game = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}], rules={"target_score": 20})
    ana = Conn(client, game["code"])
    ana.hello(game["token"])
    play_game(ana, {0: ana}, random.Random(5))
    call("GET", f"{rooms}/{game['code']}/record", one + "/record")
    call("GET", f"{rooms}/{game['code']}/replay", one + "/replay")
    record = json.dumps(_record()).encode()
    upload = call("POST", "/api/replays", "/api/replays", content=record, headers=JSON).json()
    call("POST", "/api/replays", "/api/replays", content=b'{"players": []}', headers=JSON)
    call("GET", f"/api/replays/{upload['id']}", "/api/replays/{key}")
    call("GET", "/api/replays/nothing", "/api/replays/{key}")
    call("GET", f"/api/replays/{upload['id']}/record", "/api/replays/{key}/record")
    call("GET", "/api/replays/nothing/record", "/api/replays/{key}/record")
    reviews = [(f"{rooms}/{game['code']}/review", one + "/review"),
               (f"/api/replays/{upload['id']}/review", "/api/replays/{key}/review")]  # fmt: skip
    for path, route in reviews:
        call("POST", path, route)
        call("GET", path, route)
    turn = {"step": 30}  # a turn of the finished games (frames past the opening reveals)
    call("POST", f"{rooms}/{game['code']}/practice", one + "/practice", json=turn)
    call("POST", f"{rooms}/{code}/practice", one + "/practice", json=turn)  # not over
    call("POST", f"/api/replays/{upload['id']}/practice", "/api/replays/{key}/practice", json=turn)
    call("POST", "/api/replays/nothing/practice", "/api/replays/{key}/practice", json=turn)
    call("POST", f"{rooms}/{code}/review", one + "/review")  # not over
    call("GET", f"{rooms}/ZZZZZZ/review", one + "/review")
    call("POST", "/api/replays/nothing/review", "/api/replays/{key}/review")
    call("GET", "/api/replays/nothing/review", "/api/replays/{key}/review")
    sheets = "/api/scorepad/sheets"
    sheet = "/api/scorepad/sheets/{sheet_id}"
    made = call("POST", sheets, sheets, json={"players": ["Ana", "Ben"]}).json()
    mine = {"X-Skyjo-Owner": made["owner"]}
    at = f"{sheets}/{made['id']}"
    call("POST", sheets, sheets, json={"players": ["Ana"]})
    call("GET", sheets, sheets, headers=mine)
    call("GET", at, sheet, headers=mine)
    call("GET", at, sheet)
    call("PATCH", at, sheet, json={"revision": 1, "title": "Friday"}, headers=mine)
    call("PATCH", at, sheet, json={"title": "Saturday"}, headers=mine)
    typed = {"ender": "Ben", "entries": {"Ana": "9", "Ben": "5"}}
    rounds = sheet + "/rounds"
    call("POST", at + "/preview", sheet + "/preview", json={"round": typed}, headers=mine)
    call("POST", at + "/preview", sheet + "/preview", json={"round": 3}, headers=mine)
    call("POST", at + "/preview", sheet + "/preview", json={"number": "x"}, headers=mine)
    call("POST", at + "/rounds", rounds, json={"revision": 2, "round": typed}, headers=mine)
    call("POST", at + "/rounds", rounds, json={"revision": 2, "round": typed}, headers=mine)
    call("POST", at + "/rounds", rounds, json={"revision": 3, "round": {}}, headers=mine)
    call("PUT", at + "/rounds/1", rounds + "/{number}", json={"revision": 3, "round": typed},
         headers=mine)  # fmt: skip
    call("PUT", at + "/rounds/x", rounds + "/{number}", json={"revision": 4}, headers=mine)
    call("POST", at + "/undo", sheet + "/undo", json={"revision": 4}, headers=mine)
    link = call("POST", at + "/share", sheet + "/share", json={"access": "read"}, headers=mine)
    reader = {"X-Skyjo-Key": link.json()["key"]}
    call("POST", at + "/undo", sheet + "/undo", json={"revision": 5}, headers=reader)
    call("POST", at + "/share", sheet + "/share", json={"access": "all"}, headers=mine)
    exported = call("GET", at + "/export.json", sheet + "/export.{kind}", headers=mine)
    call("GET", at + "/export.csv", sheet + "/export.{kind}", headers=mine)
    call("GET", at + "/export.xml", sheet + "/export.{kind}", headers=mine)
    imports = "/api/scorepad/import"
    call("POST", imports, imports, content=exported.content, headers=JSON)
    call("POST", imports, imports, content=b"\xff", headers=JSON)
    call("DELETE", at + "/rounds/1?revision=5", rounds + "/{number}", headers=mine)
    call("DELETE", at + "/rounds/1?revision=q", rounds + "/{number}", headers=mine)
    call("DELETE", at, sheet, headers=reader)
    call("DELETE", at, sheet, headers=mine)
    return done


def test_the_answers_are_what_the_schemas_say(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    answered = _answers(client)
    statuses: dict[tuple[str, str], set[int]] = {}
    for method, path, response in answered:
        statuses.setdefault((method, path), set()).add(response.status_code)
        documented = schema["paths"][path][method]["responses"]
        status = str(response.status_code)
        assert status in documented or (status[0] == "4" and "4XX" in documented), (
            method,
            path,
            status,
        )
        answer = documented.get(status) or documented["4XX"]
        media = response.headers["content-type"].split(";")[0]
        shape = answer["content"][media]["schema"]
        if media != "application/json":
            continue
        validator = Draft202012Validator({**shape, "components": schema["components"]})
        problems = [error.message for error in validator.iter_errors(response.json())]
        assert not problems, (method, path, status, problems, response.text[:300])
    # every route answered, each once at least with success and once with a refusal
    every = {(method, path) for method, path, _ in _operations(schema)}
    assert set(statuses) == every
    for (method, path), seen in statuses.items():
        assert any(s < 300 for s in seen), (method, path, seen)
        if (method, path) not in NEVER_REFUSED:
            assert any(s >= 400 for s in seen), (method, path, seen)


#: Routes no request of `_answers` can get refused: they read nothing.
NEVER_REFUSED = {("get", "/api/health"), ("get", "/api/rooms"), ("get", "/api/scorepad/sheets")}


@pytest.mark.parametrize(
    ("path", "body", "kind"),
    [
        ("/api/rooms", {"seats": [{"name": "Ana"}, {"bot": "greedy"}], "listed": "yes"},
         "listed_type"),
        ("/api/rooms", {"seats": [{"name": "Ana"}, {"bot": "greedy", "hot_seat": 1}]},
         "seat_hot"),
        ("/api/rooms", {"seats": [{"name": "Ana"}, {"bot": "greedy"}], "turn_seconds": "5"},
         "turn_seconds_type"),
        ("/api/rooms", {"seats": "Ana"}, "seats_count"),
        ("/api/rooms", {"seats": [{"name": 7}, {"bot": "greedy"}]}, "name_empty"),
        ("/api/rooms", {"seats": [{"name": "Ana"}, {"bot": "greedy"}], "rules": []},
         "rules_shape"),
        ("/api/rooms", [], "request_type"),
        ("/api/scorepad/sheets", {"players": ["Ana", "Ben"], "colour": "red"}, "request_fields"),
    ],
)  # fmt: skip
def test_a_request_of_the_wrong_type_is_refused_in_the_protocol_s_words(
    client: TestClient, path: str, body: Any, kind: str
) -> None:
    """pydantic's own errors (a string for a boolean, a number for a name, a list for
    an object) never reach a client: each is the documented refusal, 400 and its kind."""
    response = client.post(path, json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["kind"] == kind, error
    assert set(error) >= {"code", "message", "kind", "params"} and "detail" not in response.json()
    assert "Input should be" not in error["message"]  # pydantic's English


def test_a_405_names_every_method_its_path_takes(client: TestClient) -> None:
    """Each method of a path is a route of its own: the `Allow` of a method none of
    them takes names them all (RFC 9110), not the first route's."""
    for method, path, allowed in [
        ("OPTIONS", "/api/rooms", "GET, POST"),
        ("PUT", "/api/scorepad/sheets/abc", "DELETE, GET, PATCH"),
        ("GET", "/api/scorepad/sheets/abc/rounds/1", "DELETE, PUT"),
    ]:
        response = client.request(method, path)
        assert response.status_code == 405, (method, path)
        assert response.headers["allow"] == allowed, (method, path)
        assert response.json()["error"]["kind"] == "method_not_allowed"


DOCS = Path(__file__).parents[2] / "docs" / "web-protocol.md"


def test_the_client_messages_are_the_models_the_protocol_lists() -> None:
    """docs/web-protocol.md's table of client messages names each message's fields:
    the models of `protocol.ClientMessage` have those types and fields, no other."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("### Client to server") : text.index("### Server to client")]
    listed = {}
    for row in re.findall(r"^\| `(\w+)` \|([^|]*)\|", table, re.M):
        listed[row[0]] = set(re.findall(r"`(\w+)` \(", row[1]))
    models = TypeAdapter(protocol.ClientMessage).json_schema()["$defs"]
    fields = {
        model["properties"]["type"]["const"]: set(model["properties"]) - {"type"}
        for model in models.values()
    }
    assert fields == listed
    assert all(model["additionalProperties"] is False for model in models.values())
