"""Names and rules bounds through the web: the core's refusals (`skyjo.match`,
`skyjo.rules`) come back with their own kind and params, which the client's
sentence tables write in both languages."""

from __future__ import annotations

from i18n_js import render
from starlette.testclient import TestClient
from webclient import Conn, create_room

from skyjo.web.app import STATIC

I18N = STATIC / "i18n.js"
BOT = {"bot": "greedy"}

REFUSED = [
    ({"seats": [{"name": "\u200b"}, BOT]}, "text_control"),
    ({"seats": [{"name": "Ana"}, {"name": "ANA"}]}, "name_repeated"),
    ({"seats": [{"name": "Ana"}, {"name": "\uff21na"}]}, "name_repeated"),  # full-width A
    ({"seats": [{"name": "Ben\u202eeno"}, BOT]}, "text_control"),
    ({"seats": [{"name": "\u0301x"}, BOT]}, "name_combining"),
    ({"seats": [{"name": "Ana"}, BOT], "rules": {"target_score": 10**30}}, "target_too_high"),
    ({"seats": [{"name": "Ana"}, BOT], "rules": {"target_score": 0}}, "target_too_low"),
    ({"seats": [{"name": "Ana"}, BOT], "rules": {"colour": 1}}, "rules_unknown"),
    ({"seats": [{"name": "Ana"}, BOT], "title": "My\u2028table"}, "text_control"),
]


def test_bad_names_and_rules_are_refused_with_the_core_s_kind(client: TestClient) -> None:
    answers = []
    for body, kind in REFUSED:
        response = client.post("/api/rooms", json=body)
        assert response.status_code == 400, body
        error = response.json()["error"]
        assert (error["code"], error["kind"]) == ("bad_request", kind), (body, error)
        answers.append(error)
    assert answers[5]["params"] == {"max": 1000, "value": "about 10^30"}
    english = render(I18N, "errorText", "en", answers)
    spanish = render(I18N, "errorText", "es", answers)
    for error, en, es in zip(answers, english, spanish, strict=True):
        assert en == error["message"]  # the English table holds the server's sentence
        assert es != en and "{" not in es


def test_names_are_normalised_and_a_look_alike_cannot_join(client: TestClient) -> None:
    host = create_room(client, [{"name": " Zoe\u0301 "}, {"name": None}, BOT])
    room = client.app.state.lobby.rooms[host["code"]]  # type: ignore[attr-defined]
    assert room.match.names[0] == "Zo\u00e9"  # NFC, trimmed
    for name, kind in (
        ("zoé", "name_taken"),
        ("ZOE\u0301", "name_taken"),
        ("\u200b", "name_invisible"),
    ):
        response = client.post(f"/api/rooms/{host['code']}/join", json={"name": name})
        assert response.status_code == 400, name
        assert response.json()["error"]["kind"] == kind
    guest = Conn(client, host["code"])
    guest.send({"type": "hello", "join": True, "name": "A\u2066B"})  # a bidi isolate: Cf
    error = guest.error()
    assert (error["code"], error["kind"], error["params"]["code"]) == (
        "bad_name",
        "name_invisible",
        "U+2066",
    )
    joined = client.post(f"/api/rooms/{host['code']}/join", json={"name": " Dana "}).json()
    assert joined["seat"] == 1 and room.match.names[1] == "Dana"
