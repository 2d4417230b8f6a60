"""The bots' pace (`skyjo.web.pace`): asked for when a room is made, said in its
facts, changed by the host's `bot_speed` message (told to everyone, refused to
others), kept with the room, and the pause the room's clock waits."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from webclient import Conn, create_room

from skyjo.web.pace import SPEEDS, bot_pause

BOTS = [{"name": "Ana"}, {"bot": "greedy"}]


def _room(client: TestClient, code: str) -> Any:
    return client.app.state.lobby.rooms[code]  # type: ignore[attr-defined]


def test_each_pace_is_a_multiple_of_the_servers_pause() -> None:
    assert bot_pause(0.8, "slow") == pytest.approx(2.0)
    assert bot_pause(0.8, "normal") == pytest.approx(0.8)
    assert bot_pause(0.8, "fast") == pytest.approx(0.2)
    assert bot_pause(0.8, None) == bot_pause(0.8, "warp") == pytest.approx(0.8)
    assert list(SPEEDS) == ["slow", "normal", "fast"]


def test_a_room_is_made_at_its_pace_and_its_facts_say_it(client: TestClient) -> None:
    host = create_room(client, BOTS, bot_speed="slow")
    ana = Conn(client, host["code"])
    assert ana.hello(host["token"])["room"]["bot_speed"] == "slow"
    assert client.get(f"/api/rooms/{host['code']}").json()["bot_speed"] == "slow"
    plain = create_room(client, BOTS)
    assert client.get(f"/api/rooms/{plain['code']}").json()["bot_speed"] == "normal"


def test_a_pace_the_server_does_not_know_is_refused(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"seats": BOTS, "bot_speed": "warp"})
    assert response.status_code == 400
    assert response.json()["error"]["kind"] == "bot_speed_type"


def test_the_host_changes_the_pace_for_everyone(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}])
    guest = client.post(f"/api/rooms/{host['code']}/join").json()
    ana, ben = Conn(client, host["code"]), Conn(client, host["code"])
    ana.hello(host["token"])
    ben.hello(guest["token"])
    ben.send({"type": "bot_speed", "speed": "fast"})
    assert ben.error()["kind"] == "not_host_speed"
    ana.send({"type": "bot_speed", "speed": "warp"})
    assert ana.error()["kind"] == "speed_type"
    ana.send({"type": "bot_speed", "speed": "fast"})
    told = {"type": "bot_speed", "speed": "fast"}
    assert ana.until(lambda m: m["type"] == "bot_speed") == told
    assert ben.until(lambda m: m["type"] == "bot_speed") == told
    room = _room(client, host["code"])
    assert room.clock.bot_delay == bot_pause(room.settings.bot_delay, "fast")
    saved = client.app.state.lobby.store.load(host["code"])  # type: ignore[attr-defined]
    assert saved is not None and saved.options["bot_speed"] == "fast"


def test_the_next_game_keeps_the_pace(client: TestClient) -> None:
    host = create_room(client, BOTS, bot_speed="fast", rules={"target_score": 20})
    room = _room(client, host["code"])
    assert room.next_record("ABCDEF").options["bot_speed"] == "fast"
