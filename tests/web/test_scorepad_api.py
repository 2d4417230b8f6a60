"""The scorepad's JSON API (skyjo.web.scorepad_routes) with Starlette's TestClient:
each endpoint against the model (`skyjo.scorepad.sheet`), every mistake refused
with the model's message and nothing saved, a stale revision refused (409), the
export and import round trip."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from webapp import JSON, serving

from skyjo.scorepad.exports import export_csv, export_json, import_json
from skyjo.scorepad.sheet import Sheet, SheetError
from skyjo.scoring import round_facts

API = "/api/scorepad/sheets"
BROWSER = "a-browser-s-token-kept-in-its-local-storage"


@pytest.fixture
def client() -> Iterator[TestClient]:
    """One browser, which sends its scorepad token with every request, as the page does
    (tests/web/test_scorepad_owners.py: other browsers, links, sheets made before owners)."""
    with serving() as test_client:
        test_client.headers["X-Skyjo-Owner"] = BROWSER
        yield test_client


GRID_14 = "7 5 2 4 / 7 -1 3 1 / 7 0 -2 2"  # RULES.md 4: column 0 is three 7s, cleared


def create(client: TestClient, players: list[str], **extra: Any) -> dict[str, Any]:
    response = client.post(API, json={"players": players, "title": "Friday", **extra})
    assert response.status_code == 201, response.text
    return response.json()


def add(client: TestClient, sheet: dict[str, Any], ender: str, **entries: Any) -> dict[str, Any]:
    body = {"revision": sheet["revision"], "round": {"ender": ender, "entries": entries}}
    response = client.post(f"{API}/{sheet['id']}/rounds", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def model_message(sheet: Sheet, change: Any) -> SheetError:
    with pytest.raises(SheetError) as refused:
        change(sheet)
    return refused.value


def test_the_page_is_served_at_scorepad_and_a_sheet_link_with_the_csp(client: TestClient) -> None:
    for path in ("/scorepad", "/scorepad/abcd2345"):
        page = client.get(path)
        assert page.status_code == 200
        assert '<script type="module" src="/static/scorepad.js">' in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
    for name in ("scorepad.js", "scorepad-i18n.js", "scorepad.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_a_sheet_is_created_listed_read_renamed_and_deleted(client: TestClient) -> None:
    sheet = create(client, ["Ana", "", "Ben", "<img src=x onerror=alert(1)>"], target_score=50)
    assert sheet["players"] == ["Ana", "Ben", "<img src=x onerror=alert(1)>"]
    assert sheet["rules"] == {"target_score": 50, "ender_penalty": "positive"}
    assert sheet["revision"] == 1 and sheet["can_undo"] is False
    assert sheet["summary"] == Sheet.new(sheet["players"], "Friday", 50).summary()
    listed = client.get(API).json()["sheets"]
    assert [(s["id"], s["title"], s["rounds"]) for s in listed] == [(sheet["id"], "Friday", 0)]
    renamed = client.patch(f"{API}/{sheet['id']}", json={"revision": 1, "title": "Saturday"})
    assert renamed.status_code == 200 and renamed.json()["title"] == "Saturday"
    assert client.get(f"{API}/{sheet['id']}").json()["title"] == "Saturday"
    assert client.delete(f"{API}/{sheet['id']}").json() == {"deleted": sheet["id"]}
    assert client.get(API).json()["sheets"] == []
    gone = client.get(f"{API}/{sheet['id']}")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "no_sheet"


def test_a_new_sheet_with_a_mistake_is_refused_with_the_models_message(client: TestClient) -> None:
    cases = [
        ({"players": ["Ana"]}, lambda: Sheet.new(["Ana"])),
        ({"players": ["Ana", "Ana"]}, lambda: Sheet.new(["Ana", "Ana"])),
        ({"players": [f"P{n}" for n in range(9)]}, lambda: Sheet.new([f"P{n}" for n in range(9)])),
        (
            {"players": ["Ana", "Ben"], "title": "t" * 101},
            lambda: Sheet.new(["Ana", "Ben"], "t" * 101),
        ),
        (
            {"players": ["Ana", "Ben"], "ender_penalty": "sometimes"},
            lambda: Sheet.new(["Ana", "Ben"], ender_penalty="sometimes"),
        ),
        ({"players": ["Ana", "Ben"], "target_score": 0}, lambda: Sheet.new(["Ana", "Ben"], "", 0)),
    ]
    for body, model in cases:
        with pytest.raises(SheetError) as expected:
            model()
        response = client.post(API, json=body)
        assert response.status_code == 400, body
        assert response.json()["error"]["message"] == str(expected.value)
    assert client.post(API, json={"players": ["Ana", "Ben"], "colour": "red"}).status_code == 400
    assert client.get(API).json()["sheets"] == []


def test_rounds_are_scored_by_the_model_and_every_change_recomputes(client: TestClient) -> None:
    sheet = create(client, ["Ana", "Ben", "Cleo"], target_score=50)
    model = Sheet.new(["Ana", "Ben", "Cleo"], "Friday", 50)
    rounds = [
        {"ender": "Cleo", "entries": {"Ana": "9", "Ben": "20", "Cleo": "14"}},
        {"ender": "Ben", "entries": {"Ana": GRID_14, "Ben": "5", "Cleo": "5"}},
        {"ender": "Ana", "entries": {"Ana": "22", "Ben": "22", "Cleo": "14"}},
    ]
    for one in rounds:
        sheet = add(client, sheet, one["ender"], **one["entries"])
        model = model.add_round(one)
    assert sheet["summary"] == model.summary()
    assert sheet["summary"]["winners"] == ["Cleo"] and sheet["summary"]["finished"] is True
    assert sheet["typed"][1] == {
        "ender": "Ben",
        "entries": {"Ana": GRID_14, "Ben": "5", "Cleo": "5"},
    }
    # an edit of round 1 changes who won
    edited = {"ender": "Cleo", "entries": {"Ana": "9", "Ben": "2", "Cleo": "14"}}
    body = {"revision": sheet["revision"], "round": edited}
    sheet = client.put(f"{API}/{sheet['id']}/rounds/1", json=body).json()
    model = model.edit_round(1, edited)
    assert sheet["summary"] == model.summary()
    assert sheet["summary"]["winners"] == ["Ben"]
    # delete the last round: the game is no longer over; undo brings it back
    deleted = client.delete(f"{API}/{sheet['id']}/rounds/3?revision={sheet['revision']}").json()
    assert deleted["summary"] == model.delete_round(3).summary()
    assert deleted["summary"]["finished"] is False
    undone = client.post(f"{API}/{sheet['id']}/undo", json={"revision": deleted["revision"]})
    assert undone.json()["summary"] == model.summary()
    assert client.get(f"{API}/{sheet['id']}").json()["summary"] == model.summary()


def test_every_mistake_is_refused_with_its_message_and_nothing_is_saved(
    client: TestClient,
) -> None:
    sheet = create(client, ["Ana", "Ben", "Cleo"], target_score=40)
    sheet = add(client, sheet, "Ben", Ana="9", Ben="5", Cleo="7")
    model = Sheet.new(["Ana", "Ben", "Cleo"], "Friday", 40).add_round(
        {"ender": "Ben", "entries": {"Ana": "9", "Ben": "5", "Cleo": "7"}}
    )
    six_minus_2 = "-2 -2 -2 1 / -2 -2 -2 1 / 3 3 3 1"
    mistakes = {
        "not a card": {"ender": "Ben", "entries": {"Ana": "7 13 2 4 7 -1 3 1 7 0 -2 2"}},
        "not a number": {"ender": "Ben", "entries": {"Ana": "7 five 2 4 7 -1 3 1 7 0 -2 2"}},
        "11 cards": {"ender": "Ben", "entries": {"Ana": "7 5 2 4 7 -1 3 1 7 0 -2"}},
        "too many of one value": {"ender": "Ben", "entries": {"Ana": six_minus_2}},
        "too many over the round": {
            "ender": "Ben",
            "entries": {
                "Ana": "12 12 12 12 / 12 12 12 12 / 1 1 1 1",
                "Ben": "12 12 12 12 / 1 1 1 1 / 2 2 2 2",
                "Cleo": "4",
            },
        },
        "a column partly cleared": {
            "ender": "Ben",
            "entries": {"Ana": "x 5 2 4 x -1 3 1 7 0 -2 2"},
        },
        "a total no grid makes": {
            "ender": "Ben",
            "entries": {"Ana": "141", "Ben": "5", "Cleo": "7"},
        },
        "no ender": {"ender": "", "entries": {"Ana": "9", "Ben": "5", "Cleo": "7"}},
        "an ender with no cards": {"ender": "Ben", "entries": {"Ana": "9", "Cleo": "7"}},
        "a player with no entry": {"ender": "Ben", "entries": {"Ana": "9", "Ben": "5"}},
        "not a player": {
            "ender": "Ben",
            "entries": {"Ana": "9", "Ben": "5", "Cleo": "7", "Dan": "1"},
        },
    }
    for what, data in mistakes.items():
        expected = model_message(model, lambda s, data=data: s.add_round(data))
        response = client.post(f"{API}/{sheet['id']}/rounds", json={"revision": 2, "round": data})
        assert response.status_code == 400, what
        error = response.json()["error"]
        assert error == {
            "code": "mistake",
            "message": str(expected),
            "round": expected.round,
            "player": expected.player,
            "kind": expected.kind,
            "params": expected.params,
        }, what
        assert error["kind"] and error["params"]["round"] == 2, what
        assert error["message"].startswith("round 2: "), what
        preview = client.post(f"{API}/{sheet['id']}/preview", json={"round": data}).json()
        assert preview["round"] is None and preview["error"]["message"] == str(expected), what
        assert (preview["error"]["kind"], preview["error"]["params"]) == (
            expected.kind,
            expected.params,
        ), what
    named = {
        "not a card": ("Ana", "cards go from -2 to 12"),
        "too many of one value": ("Ana", "the deck has only 5"),
        "no ender": (None, "no ender is marked"),
        "an ender with no cards": ("Ben", "Ben ended the round but has no score entered"),
    }
    for what, (player, words) in named.items():
        response = client.post(
            f"{API}/{sheet['id']}/rounds", json={"revision": 2, "round": mistakes[what]}
        )
        assert response.json()["error"]["player"] == player, what
        assert words in response.json()["error"]["message"], what
    # edits and deletes the model refuses, and an undo too many
    ending = {"ender": "Ben", "entries": {"Ana": "40", "Ben": "5", "Cleo": "7"}}
    over = add(client, sheet, "Ben", Ana="9", Ben="5", Cleo="7")
    model = model.add_round({"ender": "Ben", "entries": {"Ana": "9", "Ben": "5", "Cleo": "7"}})
    body = {"revision": over["revision"], "round": ending}
    refused = client.put(f"{API}/{sheet['id']}/rounds/1", json=body)
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == str(
        model_message(model, lambda s: s.edit_round(1, ending))
    )
    assert "delete the later rounds first" in refused.json()["error"]["message"]
    missing = client.delete(f"{API}/{sheet['id']}/rounds/7?revision={over['revision']}")
    assert missing.status_code == 400
    assert missing.json()["error"]["message"] == str(
        model_message(model, lambda s: s.delete_round(7))
    )
    after = client.get(f"{API}/{sheet['id']}").json()
    assert after["revision"] == over["revision"]
    assert after["summary"] == model.summary()
    fresh = create(client, ["Ana", "Ben"])
    nothing = client.post(f"{API}/{fresh['id']}/undo", json={"revision": 1})
    assert nothing.status_code == 400
    assert nothing.json()["error"]["message"] == "there is nothing to undo"


def test_a_round_after_the_game_is_over_is_refused(client: TestClient) -> None:
    sheet = create(client, ["Ana", "Ben"], target_score=10)
    sheet = add(client, sheet, "Ben", Ana="12", Ben="1")
    assert sheet["summary"]["finished"] is True and sheet["summary"]["winners"] == ["Ben"]
    body = {
        "revision": sheet["revision"],
        "round": {"ender": "Ben", "entries": {"Ana": 1, "Ben": 1}},
    }
    refused = client.post(f"{API}/{sheet['id']}/rounds", json=body)
    assert refused.status_code == 400
    assert "the game is over" in refused.json()["error"]["message"]
    assert client.get(f"{API}/{sheet['id']}").json()["revision"] == sheet["revision"]


def test_a_change_on_a_stale_revision_is_a_409_and_saves_nothing(client: TestClient) -> None:
    sheet = create(client, ["Ana", "Ben"])
    first = add(client, sheet, "Ben", Ana="9", Ben="5")  # another device saved meanwhile
    one = {"ender": "Ana", "entries": {"Ana": "1", "Ben": "5"}}
    stale = [
        client.post(f"{API}/{sheet['id']}/rounds", json={"revision": 1, "round": one}),
        client.put(f"{API}/{sheet['id']}/rounds/1", json={"revision": 1, "round": one}),
        client.delete(f"{API}/{sheet['id']}/rounds/1?revision=1"),
        client.post(f"{API}/{sheet['id']}/undo", json={"revision": 1}),
        client.patch(f"{API}/{sheet['id']}", json={"revision": 1, "title": "x"}),
    ]
    for response in stale:
        assert response.status_code == 409, response.text
        assert response.json()["error"]["code"] == "conflict"
        assert "changed elsewhere" in response.json()["error"]["message"]
    now = client.get(f"{API}/{sheet['id']}").json()
    assert now["revision"] == first["revision"] and now["summary"] == first["summary"]
    assert now["title"] == "Friday"
    no_revision = client.post(f"{API}/{sheet['id']}/rounds", json={"round": one})
    assert no_revision.status_code == 400


def test_the_preview_scores_each_entry_and_the_round_without_saving(client: TestClient) -> None:
    sheet = create(client, ["Ana", "Ben", "Cleo"])
    data = {"ender": "Ben", "entries": {"Ana": GRID_14, "Ben": "5", "Cleo": "\u22125"}}
    preview = client.post(f"{API}/{sheet['id']}/preview", json={"round": data}).json()
    assert preview["error"] is None
    ana = preview["entries"]["Ana"]
    assert ana["raw"] == 14
    assert ana["explanation"] == (
        "three 7s, cleared, so 0; 5 + -1 + 0 = 4; 2 + 3 + -2 = 3; 4 + 1 + 2 = 7: 14"
    )
    assert preview["entries"]["Cleo"]["raw"] == -5
    scored = Sheet.new(["Ana", "Ben", "Cleo"]).preview(data, 1).score
    assert preview["round"]["scores"] == scored.scores == {"Ana": 14, "Ben": 10, "Cleo": -5}
    assert preview["round"]["reason"] == scored.reason
    # why, as facts for the page to word (seats in the order of the sheet's players)
    assert preview["round"]["explain"] == round_facts([14, 5, -5], 1, "positive")
    assert preview["round"]["explain"] == {
        "kind": "doubled",
        "ender": 1,
        "raw": 5,
        "score": 10,
        "rival": 2,
        "other": -5,
        "penalty": "positive",
    }
    # one wrong entry, one missing: each said, the round refused, nothing saved
    partial = {"ender": "Ben", "entries": {"Ana": "7 13", "Ben": "5"}}
    preview = client.post(f"{API}/{sheet['id']}/preview", json={"round": partial}).json()
    assert "2 cards written" in preview["entries"]["Ana"]["error"]
    assert preview["entries"]["Cleo"] is None
    assert preview["round"] is None and preview["error"]["player"] == "Ana"
    assert client.get(f"{API}/{sheet['id']}").json()["revision"] == 1


def test_export_json_and_csv_are_downloads_and_an_import_gives_the_same_sheet(
    client: TestClient,
) -> None:
    sheet = create(client, ["Ana", "Ben", "Zoë <b>"], target_score=60, ender_penalty="always")
    sheet = add(client, sheet, "Ben", Ana=GRID_14, Ben="5", **{"Zoë <b>": "5"})
    sheet = add(
        client, sheet, "Ana", Ana="-3", Ben="x 5 2 4 x -1 3 1 x 0 -2 2", **{"Zoë <b>": "-5"}
    )
    exported = client.get(f"{API}/{sheet['id']}/export.json")
    assert exported.status_code == 200
    assert exported.headers["content-type"].startswith("application/json")
    assert "attachment" in exported.headers["content-disposition"]
    stored = import_json(exported.text)
    assert exported.text == export_json(stored)
    csv_file = client.get(f"{API}/{sheet['id']}/export.csv")
    assert csv_file.headers["content-type"].startswith("text/csv")
    assert csv_file.text == export_csv(stored)
    rows = list(csv.DictReader(io.StringIO(csv_file.text)))
    assert rows[0]["cards"] == "7 5 2 4 / 7 -1 3 1 / 7 0 -2 2" and rows[0]["raw"] == "14"
    imported = client.post("/api/scorepad/import", content=exported.content, headers=JSON)
    assert imported.status_code == 201
    again = imported.json()
    assert again["id"] != sheet["id"]
    assert again["summary"] == sheet["summary"] and again["players"] == sheet["players"]
    assert again["can_undo"] is False
    assert client.get(f"{API}/{again['id']}/export.json").text == exported.text
    assert len(client.get(API).json()["sheets"]) == 2
    # a bad file is refused with the model's message, and nothing is stored
    for bad in (b"not json", json.dumps({"format": "other"}).encode(), b"\xff\xfe"):
        refused = client.post("/api/scorepad/import", content=bad, headers=JSON)
        assert refused.status_code == 400
        assert refused.json()["error"]["message"]
    tampered = json.loads(exported.text)
    tampered["rounds"][0]["entries"]["Ana"] = {"total": 200}
    refused = client.post(
        "/api/scorepad/import", content=json.dumps(tampered).encode(), headers=JSON
    )
    assert "no grid scores that" in refused.json()["error"]["message"]
    assert len(client.get(API).json()["sheets"]) == 2


def test_a_refusal_names_its_kind_and_params_for_the_page_to_write_it(
    client: TestClient,
) -> None:
    sheet = create(client, ["Ana", "Ben"], target_score=40)
    data = {"ender": "Ben", "entries": {"Ana": "7 13 2 4 7 -1 3 1 7 0 -2 2", "Ben": "5"}}
    error = client.post(
        f"{API}/{sheet['id']}/rounds", json={"revision": sheet["revision"], "round": data}
    ).json()["error"]
    assert error["kind"] == "card_out_of_range"
    assert error["params"] == {
        "player": "Ana",
        "row": 0,
        "column": 1,
        "card": 13,
        "min": -2,
        "max": 12,
        "round": 1,
    }
    # the params count from 0, as a grid's index; the sentence from 1, as people do
    assert error["message"] == (
        "round 1: Ana's cards: the card at row 1, column 2 is 13, but cards go from -2 to 12"
    )
    preview = client.post(f"{API}/{sheet['id']}/preview", json={"round": data}).json()
    assert preview["entries"]["Ana"] == {
        "error": "Ana's cards: the card at row 1, column 2 is 13, but cards go from -2 to 12",
        "kind": "card_out_of_range",
        "params": {"player": "Ana", "row": 0, "column": 1, "card": 13, "min": -2, "max": 12},
    }
    made = client.post(f"{API}", json={"players": ["Ana"]}).json()["error"]
    assert (made["code"], made["kind"], made["params"]) == (
        "mistake",
        "player_count",
        {"min": 2, "max": 8, "count": 1},
    )
    assert made["message"] == "Skyjo takes 2 to 8 players, not 1"
    assert client.post(f"{API}", json={"players": 3}).json()["error"]["kind"] == "players_missing"
    stale = client.post(f"{API}/{sheet['id']}/undo", json={}).json()["error"]
    assert (stale["code"], stale["kind"]) == ("bad_request", "no_revision")
    unnamed = client.delete(f"{API}/{sheet['id']}/rounds/1")  # no ?revision= (was a 500)
    assert unnamed.status_code == 400
    assert (unnamed.json()["error"]["kind"]) == "no_revision"
    missing = client.get(f"{API}/nosuch").json()["error"]
    assert (missing["code"], missing["kind"], missing["params"]) == ("no_sheet", "no_sheet", {})
    utf8 = client.post("/api/scorepad/import", content=b"\xff", headers=JSON).json()["error"]
    assert (utf8["kind"], utf8["message"]) == ("not_utf8", "the file is not UTF-8 text")
