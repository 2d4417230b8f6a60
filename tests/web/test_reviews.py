"""The coach's reviews over HTTP (`skyjo.web.reviews`): asked for once a game is
over, made in a process of its own with its progress told, kept in the
database so a game (a room's or an uploaded record) is reviewed once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from webapp import JSON, serving
from webclient import create_room, finished_room

from skyjo.analysis import review
from skyjo.web import reviews
from skyjo.web.storage import upload_id


def _finished_room(client: TestClient) -> tuple[str, dict]:
    code = finished_room(client)[0]["code"]
    return code, client.get(f"/api/rooms/{code}/record").json()


def _wait(client: TestClient, key: str) -> None:
    client.app.state.lobby.reviews.wait(key, timeout=300)  # type: ignore[attr-defined]


def test_a_finished_game_is_reviewed_once_and_kept(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'skyjo.db'}"
    with serving(database_url=database) as client:
        code, record = _finished_room(client)
        path = f"/api/rooms/{code}/review"
        missing = client.get(path)
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "no_review"
        started = client.post(path)
        assert started.status_code == 202
        assert started.json()["status"] in ("queued", "running")
        again = client.post(path)  # the same review, not a second one
        assert again.status_code in (200, 202)
        _wait(client, upload_id(record))
        done = client.get(path)
        assert done.status_code == 200 and done.json()["status"] == "done"
        shown = done.json()["review"]
        assert shown == json.loads(json.dumps(review(record).to_dict()))
        assert [p["name"] for p in shown["players"]] == ["Ana", "Greedy bot"]
    with serving(database_url=database) as client:  # a restarted server keeps it
        kept = client.get(f"/api/rooms/{code}/review")
        assert kept.status_code == 200 and kept.json()["review"] == shown
        # the same record uploaded is the same game: reviewed already
        key = client.post("/api/replays", content=json.dumps(record), headers=JSON).json()["id"]
        assert key == upload_id(record)
        assert client.post(f"/api/replays/{key}/review").json()["review"] == shown


def test_an_uploaded_record_is_reviewed_with_its_progress_told(client: TestClient) -> None:
    _, record = _finished_room(client)
    record["players"] = ["Cleo", "Dan"]  # another record: another review
    key = client.post("/api/replays", content=json.dumps(record), headers=JSON).json()["id"]
    path = f"/api/replays/{key}/review"
    assert client.get(path).status_code == 404
    assert client.post(path).status_code == 202
    _wait(client, key)
    done = client.get(path).json()
    assert [p["name"] for p in done["review"]["players"]] == ["Cleo", "Dan"]
    assert client.get("/api/replays/aaaaaaaaaaaa/review").json()["error"]["code"] == "no_replay"


def test_a_game_in_play_is_not_reviewed(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    refused = client.post(f"/api/rooms/{host['code']}/review")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_over"
    assert client.post("/api/rooms/ZZZZZZ/review").json()["error"]["code"] == "no_room"


def test_too_many_reviews_waiting_are_refused_with_a_retry_after(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _ = _finished_room(client)
    monkeypatch.setattr(reviews, "MAX_WAITING", 0)
    refused = client.post(f"/api/rooms/{code}/review")
    assert refused.status_code == 503
    assert refused.json()["error"]["kind"] == "reviews_busy"
    assert refused.headers["Retry-After"] == str(reviews.RETRY_AFTER)
    assert client.get(f"/api/rooms/{code}/review").status_code == 404  # nothing started


def test_reviews_asked_for_have_an_hourly_limit_of_their_own() -> None:
    """`POST .../review` counts against `reviews_rate` (as many as uploads, apart
    from them), with the limit's own sentence; `GET` never counts."""
    with serving(replays_per_hour=2) as client:
        code, record = _finished_room(client)
        path = f"/api/rooms/{code}/review"
        assert [client.post(path).status_code for _ in range(2)] in ([202, 202], [202, 200])
        refused = client.post(path)
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert error["kind"] == "reviews_rate" and error["params"]["limit"] == 2
        assert error["message"].startswith("too many game reviews asked for from your address")
        assert client.get(path).status_code in (200, 202)  # looking is free
        upload = client.post("/api/replays", content=json.dumps(record), headers=JSON)
        assert upload.status_code == 201  # the uploads' allowance is untouched
