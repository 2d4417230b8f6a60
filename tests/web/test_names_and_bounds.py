"""Names and rules bounds through the web: the core's refusals (`skyjo.match`,
`skyjo.rules`) come back with their own kind and params, which the client's
sentence tables write in both languages."""

from __future__ import annotations

from i18n_js import render
from sqlalchemy import text
from starlette.testclient import TestClient
from webclient import Conn, create_room

from skyjo.web.app import STATIC

I18N = STATIC / "i18n.js"
TEXT = STATIC / "text.js"
BOT = {"bot": "greedy"}

REFUSED = [
    ({"seats": [{"name": "\u200b"}, BOT]}, "name_invisible"),
    ({"seats": [{"name": "Ana"}, {"name": "ANA"}]}, "name_repeated"),
    ({"seats": [{"name": "Ana"}, {"name": "\uff21na"}]}, "name_repeated"),  # full-width A
    ({"seats": [{"name": "Ben\u202eeno"}, BOT]}, "name_invisible"),
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


def test_a_room_saved_under_rules_now_refused_answers_room_unreadable(client: TestClient) -> None:
    """A room an older server saved with a target over 1,000 (only the API could
    ask for one) is not loaded; every request for it says why, none fails."""
    host = create_room(client, [{"name": "Ana"}, {"name": None}])
    code = host["code"]
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    with lobby.store.engine.begin() as db:
        match = db.execute(text("SELECT match FROM rooms WHERE code = :c"), {"c": code}).scalar()
        old = match.replace('"target_score":100', '"target_score":5000')
        assert old != match
        db.execute(text("UPDATE rooms SET match = :m WHERE code = :c"), {"m": old, "c": code})
    lobby.rooms.pop(code).match.close()  # as after a restart: read from the database
    errors = []
    for method, path in (("GET", ""), ("POST", "/join"), ("GET", "/replay")):
        response = client.request(method, f"/api/rooms/{code}{path}")
        assert response.status_code == 409, (path, response.text)
        errors.append(response.json()["error"])
    assert [e["kind"] for e in errors] == ["room_unreadable"] * 2 + ["not_over"]
    assert "target_score must be at most 1000" in errors[0]["params"]["detail"]
    # why, as the core refused it (the saved record's rules): for the page to write it
    cause = {
        "kind": "target_too_high",
        "params": {"max": 1000, "value": "5000"},
        "where": {"round": None, "turn": None, "player": None},
    }
    assert errors[0]["cause"] == errors[1]["cause"] == cause
    with client.websocket_connect(f"/ws/{code}") as socket:
        error = socket.receive_json()
        assert (error["type"], error["kind"], error["cause"]) == ("error", "room_unreadable", cause)
    english = render(I18N, "errorText", "en", errors[:1])
    spanish = render(I18N, "errorText", "es", errors[:1])
    assert english == [errors[0]["message"]] and spanish[0].startswith(f"La sala {code}")
    # the page writes the cause in its language too (text.js, `serverErrorText`)
    assert (
        render(TEXT, "serverErrorText", "fr", [errors[0], error])
        == [
            f"La salle {code} a été enregistrée avec des règles que ce serveur n'accepte plus"
            "\u00a0: La fin de partie doit être d'au plus 1000, pas 5000"
        ]
        * 2
    )
    assert render(TEXT, "serverErrorText", "en", errors[:1]) == [
        f"room {code} was saved under rules this server no longer accepts: "
        "target_score must be at most 1000, not 5000"
    ]
