"""The names at a web table (docs/web-protocol.md, `POST /api/rooms` and the join):
look-alike names refused at creation and at each join (HTTP and the WebSocket's
`hello`), emoji names and every script accepted, a free seat named "Seat N" by the
server and a nameless newcomer "Player N", and bots named from their level, never
like a person, with the names of the bots and the free seats kept from people."""

from __future__ import annotations

from typing import Any

import pytest
from i18n_js import render, sentence_tables
from starlette.testclient import TestClient
from webclient import Conn, create_room, join_room

from skyjo.web.app import STATIC
from skyjo.web.seat_names import FREE_LABELS

CYRILLIC_A = "\u0410"


def _room(client: TestClient, code: str) -> Any:  # the server's room, for checking
    return client.app.state.lobby.rooms[code]  # type: ignore[attr-defined]


def _names(client: TestClient, code: str) -> list[str]:
    return [seat["name"] for seat in client.get(f"/api/rooms/{code}").json()["seats"]]


def _refused(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_request"
    return error


def _join_refused(client: TestClient, code: str, name: str) -> dict[str, Any]:
    """The refusal of `name` by the HTTP join, and the same by the WebSocket's hello."""
    response = client.post(f"/api/rooms/{code}/join", json={"name": name})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    guest = Conn(client, code)
    guest.send({"type": "hello", "join": True, "name": name})
    said = guest.error()
    guest.close()
    assert {k: said[k] for k in ("code", "kind", "params")} == {
        k: error[k] for k in ("code", "kind", "params")
    }
    assert error["code"] == "bad_name"
    return error


def test_look_alike_names_are_refused_at_creation_and_at_each_join(client: TestClient) -> None:
    error = _refused(client, {"seats": [{"name": "Ana"}, {"name": f"{CYRILLIC_A}na"}]})
    assert (error["kind"], error["params"]) == (
        "name_confusable",
        {"name": f"{CYRILLIC_A}na", "other": "Ana"},
    )
    host = create_room(client, [{"name": "Ana"}, {"name": "Bob", "hot_seat": True}, {}, {}], None)
    code = host["code"]
    for name, other in ((f"{CYRILLIC_A}na", "Ana"), ("B\u03bfb", "Bob"), ("BOB", None)):
        error = _join_refused(client, code, name)
        if other is None:  # the same once case-folded
            assert (error["kind"], error["params"]) == ("name_taken", {"name": name})
        else:
            assert (error["kind"], error["params"]) == (
                "name_confusable",
                {"name": name, "other": other},
            )
    assert _names(client, code)[2:] == ["Seat 3", "Seat 4"]  # nothing was taken
    assert _room(client, code).free_seats() == [2, 3]
    joined = client.post(f"/api/rooms/{code}/join", json={"name": "Anna"}).json()
    assert joined["seat"] == 2 and _names(client, code)[2] == "Anna"
    # each language of the page says it (the English one is the server's sentence)
    error = _join_refused(client, code, f"{CYRILLIC_A}nna")
    english, french = (
        render(STATIC / "i18n.js", "errorText", "en", [error]),
        render(STATIC / "i18n.js", "errorText", "fr", [error]),
    )
    assert english == [error["message"]]
    assert french[0].startswith(f"Le nom {CYRILLIC_A}nna ressemble à Anna")


def test_emoji_and_every_script_are_accepted_and_a_stack_of_marks_is_not(
    client: TestClient,
) -> None:
    family, flag = "Ana 👨‍👩‍👧", "🇫🇷 Zoé"
    host = create_room(client, [{"name": family}, {"name": flag}, {}, {}, {}], None)
    code = host["code"]
    assert _names(client, code)[:2] == [family, flag]
    for name in ("Nguyễn Thị Ngọc", "क्षितिज"):
        response = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert response.status_code == 200, response.text
    zalgo = "A" + "".join(chr(0x0300 + i) for i in range(39))
    error = _join_refused(client, code, zalgo)
    assert error["kind"] == "name_marks"
    assert error["params"] == {"name": "'A'", "count": 39, "max": 4}
    error = _join_refused(client, code, "Ana\u200d")  # a joiner that joins no emoji
    assert (error["kind"], error["params"]["code"]) == ("name_invisible", "U+200D")


def test_a_free_seat_is_seat_n_and_a_nameless_newcomer_player_n(client: TestClient) -> None:
    host = create_room(
        client,
        [{}, {"hot_seat": True}, {}, {"name": "Dev"}, {"bot": "greedy"}],
        None,
    )
    code = host["code"]
    # the host and the hot seat are taken at once; seats 3 and 4 wait for friends
    assert _names(client, code) == ["Player 1", "Player 2", "Seat 3", "Dev", "Greedy bot"]
    first = join_room(client, code)  # no name: the free seat's is the server's
    assert first["seat"] == 2 and _names(client, code)[2] == "Player 3"
    second = join_room(client, code)  # the host named this one: the newcomer takes it
    assert second["seat"] == 3 and _names(client, code)[3] == "Dev"
    # a player the host removes leaves the seat's name to whoever comes back
    ana = Conn(client, code)
    ana.hello(host["token"])
    ana.send({"type": "remove", "seat": 2})
    ana.until(lambda m: m["type"] == "seats" and not m["seats"][2]["claimed"])
    again = join_room(client, code)
    assert again["seat"] == 2 and _names(client, code)[2] == "Player 3"
    # a room's title without one is its host's
    assert client.get(f"/api/rooms/{code}").json()["title"] == "Player 1's table"


def test_a_room_says_when_its_title_is_the_server_s_default(client: TestClient) -> None:
    """Issue 46: "Ana's table" is the server's English; `default_title` tells a page to
    word it in its own language ("Chez Ana"), a title someone chose is shown as chosen."""
    ana = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    chosen = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}], title="Friday")
    bots = create_room(client, [{"bot": "greedy"}, {"bot": "basic"}], host_seat=None)
    infos = [client.get(f"/api/rooms/{room['code']}").json() for room in (ana, chosen, bots)]
    assert [(i["title"], i["default_title"]) for i in infos] == [
        ("Ana's table", True),
        ("Friday", False),
        ("Bots", True),
    ]
    conn = Conn(client, ana["code"])
    state = conn.hello(ana["token"])
    assert state["room"]["default_title"] is True and state["room"]["title"] == "Ana's table"


def test_bots_are_named_from_their_level_and_take_no_name(client: TestClient) -> None:
    host = create_room(
        client,
        [{"name": "Greedy"}, {"bot": "greedy"}, {"bot": "search"}, {"bot": "greedy"}],
    )
    # a person named "Greedy" beside "Greedy bot": the bot's name says it is one
    assert _names(client, host["code"]) == ["Greedy", "Greedy bot", "Search bot", "Greedy bot 2"]
    error = _refused(client, {"seats": [{"name": "Ana"}, {"name": "Cleo", "bot": "greedy"}]})
    assert (error["kind"], error["params"]) == ("seat_bot_name", {"seat": 1})


#: Names people may not take: the bots' (a level and "bot", however written) and the
#: free seats'.
RESERVED = ["Greedy bot", "greedy BOT 2", "GreedyBot", "Search-bot Ana", "Gr\u0435\u0435dy bot",
            "Seat 3", "seat 2", "Expected b0t", "Seat 4, free", "seat2", "Seat 4 free",
            "Asiento 2, libre", "Place 3, libre", "Platz 4, frei",
            "S\u0435at 2, fr\u0435\u0435"]  # fmt: skip


@pytest.mark.parametrize("name", RESERVED)
def test_a_person_cannot_take_a_bot_s_or_a_free_seat_s_name(client: TestClient, name: str) -> None:
    error = _refused(client, {"seats": [{"name": name}, {"bot": "random"}]})
    assert (error["kind"], error["params"]) == ("name_reserved", {"name": name})
    host = create_room(client, [{"name": "Ana"}, {}, {}, {"bot": "greedy"}], None)
    error = _join_refused(client, host["code"], name)
    assert (error["kind"], error["params"]) == ("name_reserved", {"name": name})


def test_the_free_seat_labels_are_the_pages_own() -> None:
    """`seat_names.FREE_LABELS` is what static/i18n.js says of a free seat."""
    tables = sentence_tables(STATIC / "i18n.js", "seat")
    assert sorted(table["freeName"] for table in tables.values()) == sorted(FREE_LABELS)


def test_bots_given_seats_in_the_lobby_are_named_from_their_level(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {}, {}, {}, {"bot": "greedy"}], None)
    code = host["code"]
    ana = Conn(client, code)
    ana.hello(host["token"])
    dana = client.post(f"/api/rooms/{code}/join", json={"name": "Dana"}).json()
    assert dana["seat"] == 1
    # the host hands a seat nobody took to a bot, and back to a friend: named by the server
    ana.send({"type": "seat", "seat": 2, "bot": "greedy"})
    seats = ana.until(lambda m: m["type"] == "seats" and m["seats"][2]["bot"] == "greedy")
    assert [s["name"] for s in seats["seats"]] == [
        "Ana", "Dana", "Greedy bot 2", "Seat 4", "Greedy bot"
    ]  # fmt: skip
    ana.send({"type": "seat", "seat": 2, "bot": None})
    seats = ana.until(lambda m: m["type"] == "seats" and m["seats"][2]["bot"] is None)
    assert seats["seats"][2]["name"] == "Seat 3"
    # a seat a person held keeps their name, whoever plays it
    ana.send({"type": "seat", "seat": 1, "bot": "basic"})
    seats = ana.until(lambda m: m["type"] == "seats" and m["seats"][1]["bot"] == "basic")
    assert seats["seats"][1]["name"] == "Dana"
    # the seats left empty at the start go to bots named from their level
    ana.send({"type": "start", "empty": "random"})
    started = ana.until(lambda m: m["type"] == "state" and not m["room"]["lobby"])
    assert [s["name"] for s in started["seats"]] == [
        "Ana", "Dana", "Random bot", "Random bot 2", "Greedy bot"
    ]  # fmt: skip
    assert [s["bot"] for s in started["seats"]] == [None, "basic", "random", "random", "greedy"]


def test_a_dropped_seat_renumbers_the_free_seats_after_it(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {}, {}, {}], None)
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.send({"type": "drop", "seat": 1})
    state = ana.until(lambda m: m["type"] == "state")
    assert [s["name"] for s in state["seats"]] == ["Ana", "Seat 2", "Seat 3"]
