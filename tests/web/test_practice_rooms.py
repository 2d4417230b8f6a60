"""Playing on from a finished game's position ("play on from here", `skyjo.practice`):
a new room whose host is the seat to act at that step, the table as everyone saw it,
the unseen cards dealt afresh, `expected` bots in the other seats."""

from __future__ import annotations

import json

from starlette.testclient import TestClient
from webapp import JSON
from webclient import Conn, create_room, finished_room

SHOWN = ("grids", "totals", "round", "num_players", "current_player", "draw_pile_size")


def _turn_of(frames: list[dict], seat: int) -> int:
    """The first frame (after the opening) where `seat` is to take or place a card."""
    return next(
        f["number"]
        for f in frames
        if f["observation"]["phase"] in ("turns", "final_turns")
        and f["observation"]["current_player"] == seat
        and f["number"] > 10
    )


def test_a_room_plays_on_from_a_finished_game_s_step(client: TestClient) -> None:
    host, _ = finished_room(client)
    code = host["code"]
    frames = client.get(f"/api/rooms/{code}/replay").json()["frames"]
    step = _turn_of(frames, 0)
    made = client.post(f"/api/rooms/{code}/practice", json={"step": step})
    assert made.status_code == 201, made.text
    seated = made.json()
    assert seated["seat"] == 0 and seated["host"] is True and seated["code"] != code
    ana = Conn(client, seated["code"])
    state = ana.hello(seated["token"])
    assert state["type"] == "state" and state["you"] == 0
    seen = frames[step]["observation"]
    assert {k: state["observation"][k] for k in SHOWN} == {k: seen[k] for k in SHOWN}
    assert state["observation"]["discard_pile"][-1] == seen["discard_pile"][-1]
    names = [s["name"] for s in state["seats"]]
    assert names[0] == "Ana" and names[1] == "Expected bot"
    legal = state["observation"]["legal_actions"]
    assert legal
    ana.move(legal[0])  # the game goes on, the bot answering
    ana.until_number(ana.number + 1)


def test_an_uploaded_record_plays_on_too_and_bad_steps_are_refused(client: TestClient) -> None:
    host, _ = finished_room(client, seed=12)
    record = client.get(f"/api/rooms/{host['code']}/record").json()
    key = client.post("/api/replays", content=json.dumps(record), headers=JSON).json()["id"]
    frames = client.get(f"/api/replays/{key}").json()["frames"]
    path = f"/api/replays/{key}/practice"
    made = client.post(path, json={"step": _turn_of(frames, 1)})
    assert made.status_code == 201 and made.json()["seat"] == 1  # the bot's seat, played now
    bad = [({"step": 1}, "no_turn"), ({"step": -1}, "practice_shape"),
           ({"step": "3"}, "practice_shape"), ({"step": 10**6}, "no_turn")]  # fmt: skip
    for body, kind in bad:
        refused = client.post(path, json=body)
        assert refused.status_code == 400 and refused.json()["error"]["kind"] == kind, body
    playing = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    refused = client.post(f"/api/rooms/{playing['code']}/practice", json={"step": 20})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_over"
    missing = client.post("/api/replays/aaaaaaaaaaaa/practice", json={"step": 20})
    assert missing.status_code == 404
