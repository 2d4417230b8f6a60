"""Who may do what with a scoresheet (docs/scorepad.md, "Owners and links"): a
sheet is the browser's that made it (its token, only the hash kept); a link's
secret reads it, or changes it; a stranger's browser neither lists, reads,
changes nor deletes it; a sheet made before owners stays open to whoever has
its id; sheets made are counted per address (429)."""

from __future__ import annotations

from typing import Any

from i18n_js import render
from sqlalchemy import text
from starlette.testclient import TestClient
from webapp import JSON, serving

from skyjo.scorepad.store import token_hash
from skyjo.web.app import STATIC

API = "/api/scorepad/sheets"
I18N = STATIC / "scorepad-i18n.js"
ROUND = {"ender": "Ana", "entries": {"Ana": "3", "Ben": "7"}}


def as_browser(token: str | None = None, key: str | None = None) -> dict[str, str]:
    headers = {}
    if token is not None:
        headers["X-Skyjo-Owner"] = token
    if key is not None:
        headers["X-Skyjo-Key"] = key
    return headers


def new_sheet(client: TestClient, headers: dict[str, str] | None = None) -> dict[str, Any]:
    response = client.post(API, json={"players": ["Ana", "Ben"]}, headers=headers or {})
    assert response.status_code == 201, response.text
    return response.json()


def test_a_browser_gets_a_token_with_its_first_sheet_and_only_its_hash_is_kept(
    client: TestClient,
) -> None:
    sheet = new_sheet(client)
    token = sheet["owner"]
    assert len(token) >= 32 and sheet["access"] == "owner"
    second = new_sheet(client, as_browser(token))
    assert "owner" not in second  # it had one: the same browser's
    mine = client.get(API, headers=as_browser(token)).json()["sheets"]
    assert {s["id"] for s in mine} == {sheet["id"], second["id"]}
    engine = client.app.state.sheets.engine  # type: ignore[attr-defined]
    with engine.connect() as db:
        owners = set(db.execute(text("SELECT owner FROM scorepad_sheets")).scalars())
    assert owners == {token_hash(token)}  # the hash, never the token


def test_a_stranger_s_browser_neither_lists_reads_changes_nor_deletes(
    client: TestClient,
) -> None:
    mine, stranger = as_browser("my-browser-token"), as_browser("someone-else-s-token")
    sheet = new_sheet(client, mine)
    one = f"{API}/{sheet['id']}"
    assert client.get(API, headers=stranger).json() == {"sheets": []}
    assert client.get(API).json() == {"sheets": []}  # no token: no sheets at all
    attempts = [
        ("GET", one, None),
        ("GET", f"{one}/export.json", None),
        ("POST", f"{one}/preview", {"round": ROUND}),
        ("POST", f"{one}/rounds", {"revision": 1, "round": ROUND}),
        ("PATCH", one, {"revision": 1, "title": "Mine now"}),
        ("POST", f"{one}/undo", {"revision": 1}),
        ("DELETE", f"{one}/rounds/1?revision=1", None),
        ("POST", f"{one}/share", {"access": "edit"}),
        ("DELETE", one, None),
    ]
    for headers in (stranger, {}, as_browser(key="a-guessed-key")):
        for method, path, body in attempts:
            response = client.request(method, path, json=body, headers=headers)
            assert response.status_code == 404, (method, path, response.text)
            assert response.json()["error"]["code"] == "no_sheet"
    kept = client.get(one, headers=mine).json()
    assert (kept["revision"], kept["title"], kept["summary"]["rounds"]) == (1, "", [])


def test_a_read_only_link_reads_and_an_edit_link_edits_but_neither_deletes(
    client: TestClient,
) -> None:
    mine = as_browser("my-browser-token")
    sheet = new_sheet(client, mine)
    one = f"{API}/{sheet['id']}"
    read = client.post(f"{one}/share", json={"access": "read"}, headers=mine)
    edit = client.post(f"{one}/share", json={"access": "edit"}, headers=mine)
    assert read.status_code == edit.status_code == 201
    assert read.json()["link"] == f"/scorepad/{sheet['id']}#key={read.json()['key']}"
    reader = as_browser("a-friend-s-browser", read.json()["key"])
    editor = as_browser(key=edit.json()["key"])
    assert client.get(one, headers=reader).json()["access"] == "read"
    assert client.get(f"{one}/export.csv", headers=reader).status_code == 200
    assert client.post(f"{one}/preview", json={"round": ROUND}, headers=reader).status_code == 200
    refusals = []
    for method, path, body in (
        ("POST", f"{one}/rounds", {"revision": 1, "round": ROUND}),
        ("PATCH", one, {"revision": 1, "title": "x"}),
        ("POST", f"{one}/share", {"access": "edit"}),  # no edit link from a read-only one
        ("DELETE", one, None),
    ):
        response = client.request(method, path, json=body, headers=reader)
        assert response.status_code == 403, (path, response.text)
        refusals.append(response.json()["error"])
    assert [r["kind"] for r in refusals] == ["read_only"] * 3 + ["owner_only"]
    again = client.post(f"{one}/share", json={"access": "read"}, headers=reader)
    assert again.status_code == 201  # a reader may pass a read-only link on
    assert client.get(API, headers=reader).json() == {"sheets": []}  # not the reader's sheet
    added = client.post(f"{one}/rounds", json={"revision": 1, "round": ROUND}, headers=editor)
    assert added.status_code == 200 and added.json()["access"] == "edit"
    assert client.get(one, headers=reader).json()["summary"]["totals"] == {"Ana": 3, "Ben": 7}
    gone = client.delete(one, headers=editor)
    assert gone.status_code == 403 and gone.json()["error"]["kind"] == "owner_only"
    refusals.append(gone.json()["error"])
    bad = client.post(f"{one}/share", json={"access": "owner"}, headers=mine)
    assert bad.status_code == 400 and bad.json()["error"]["kind"] == "share_access"
    refusals.append(bad.json()["error"])
    assert client.delete(one, headers=mine).json() == {"deleted": sheet["id"]}
    assert client.get(one, headers=reader).status_code == 404  # its links went with it
    english = render(I18N, "mistakeText", "en", refusals)
    spanish = render(I18N, "mistakeText", "es", refusals)
    for error, en, es in zip(refusals, english, spanish, strict=True):
        assert en == error["message"] and es != en


def test_a_sheet_made_before_owners_is_open_to_whoever_has_its_id(client: TestClient) -> None:
    sheet = new_sheet(client, as_browser("whoever"))
    engine = client.app.state.sheets.engine  # type: ignore[attr-defined]
    with engine.begin() as db:  # as the migration to version 2 leaves an older sheet
        db.execute(text("UPDATE scorepad_sheets SET owner = NULL"))
    one = f"{API}/{sheet['id']}"
    anyone = as_browser("another-browser")
    assert client.get(one).json()["access"] == "open"
    assert client.get(API, headers=anyone).json() == {"sheets": []}  # nobody's to list
    added = client.post(f"{one}/rounds", json={"revision": 1, "round": ROUND}, headers=anyone)
    assert added.status_code == 200
    assert client.delete(one).status_code == 200


def test_sheets_made_per_address_answer_429_in_both_languages() -> None:
    with serving(sheets_per_hour=2) as client:
        mine = as_browser("a-browser")
        new_sheet(client, mine)
        exported = client.get(f"{API}/{new_sheet(client, mine)['id']}/export.json", headers=mine)
        refused = [
            client.post(API, json={"players": ["Ana", "Ben"]}, headers=mine),
            client.post("/api/scorepad/import", content=exported.content, headers=mine | JSON),
        ]
        errors = []
        for response in refused:
            assert response.status_code == 429
            error = response.json()["error"]
            assert (error["code"], error["kind"], error["params"]["limit"]) == (
                "rate_limited",
                "sheets_rate",
                2,
            )
            assert response.headers["Retry-After"] == str(error["params"]["retry_after"])
            errors.append(error)
        mistake = client.post(API, json={"players": ["Ana"]}, headers=mine)
        assert mistake.status_code == 400  # a refused sheet is refused for itself
        assert len(client.get(API, headers=mine).json()["sheets"]) == 2
    english = render(I18N, "mistakeText", "en", errors)
    spanish = render(I18N, "mistakeText", "es", errors)
    assert english == [e["message"] for e in errors]
    assert all(es.startswith("Demasiadas hojas") for es in spanish)
