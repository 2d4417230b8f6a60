"""Easier or harder bots at a game's end (issue 56, levels.js): the page builds the room
request of the same table with every bot a level along the ladder; the new room keeps the
finished room's seats (their order and the host's), rules, turn timer, bots' speed, title
and listing. The page's own function runs by node on the finished room's `state`, and its
request goes to `POST /api/rooms` as the page sends it."""

from __future__ import annotations

import random
from pathlib import Path

from i18n_js import run_js
from starlette.testclient import TestClient
from webclient import Conn, create_room, play_game

from skyjo.web import app as web_app
from skyjo.web.settings import LADDER

LEVELS = Path(web_app.__file__).parent / "static" / "levels.js"
TABLE = [{"bot": "greedy"}, {"name": "Zoë"}, {"bot": "random"}]
FIELDS = {
    "rules": {"target_score": 1, "ender_penalty": "none"},
    "turn_seconds": 30,
    "bot_speed": "fast",
    "title": "Sunday",
    "listed": True,
}


def _finished(client: TestClient) -> dict:
    """The `state` Zoë's page holds once her game against two bots is over."""
    host = create_room(client, TABLE, **FIELDS)
    zoe = Conn(client, host["code"])
    zoe.hello(host["token"])
    play_game(zoe, {1: zoe}, random.Random(3))
    # the snapshot a page holds (reloaded at the end)
    state = Conn(client, host["code"]).hello(host["token"])
    assert state["over"] is True
    return state


def _shifted(state: dict, step: int) -> dict | None:
    expression = f"mod.shiftedRoom(input.state, {step}, input.ladder)"
    return run_js(LEVELS, expression, {"state": state, "ladder": list(LADDER)})


def test_easier_and_harder_bots_keep_everything_but_the_bots_levels(client: TestClient) -> None:
    state = _finished(client)
    for step, levels in ((-1, ["random", "random"]), (1, ["basic", "greedy"])):
        request = _shifted(state, step)
        assert request is not None
        response = client.post("/api/rooms", json=request)
        assert response.status_code == 201, response.text
        made = response.json()
        assert made["seat"] == 1  # the host's seat, where it was
        new = Conn(client, made["code"]).hello(made["token"])
        room = new["room"]
        assert [seat["bot"] for seat in new["seats"]] == [levels[0], None, levels[1]]
        assert new["seats"][1]["name"] == "Zoë" and new["seats"][1]["host"] is True
        assert room["rules"] == state["room"]["rules"]
        assert room["rules"]["ender_penalty"] == "none"
        assert new["turn_seconds"] == 30.0 and room["bot_speed"] == "fast"
        assert (room["title"], room["listed"], room["lobby"]) == ("Sunday", True, False)


def test_a_room_without_a_timer_asks_for_none_and_a_bot_at_the_ladder_s_end_stays(
    client: TestClient,
) -> None:
    host = create_room(client, [{"name": "Zoë"}, {"bot": "random"}])
    state = Conn(client, host["code"]).hello(host["token"])
    assert _shifted(state, -1) is None  # the weakest bot cannot be easier: no button
    request = _shifted(state, 1)
    assert request == {
        "seats": [{"name": "Zoë"}, {"bot": "greedy"}],
        "rules": state["room"]["rules"],
        "listed": False,
        "bot_speed": "normal",
    }  # the server's own title ("Zoë's table") is the new room's too, in the page's language
