"""Replays over HTTP: a finished game's record and frames, an uploaded record
checked and kept under a stable link (a bad one refused with the record's own kind,
params and place), an unfinished game's record refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

from i18n_js import render
from sqlalchemy import text
from starlette.testclient import TestClient
from webapp import JSON, serving
from webclient import Conn, create_room, finished_room

from skyjo.engine import DRAW, new_game, step
from skyjo.match import Match, Seat
from skyjo.record import RecordError, read_record
from skyjo.replayer import replay
from skyjo.web import app as web_app
from skyjo.web.replays import MAX_UPLOAD

I18N = Path(web_app.__file__).parent / "static" / "i18n.js"
TEXT = I18N.with_name("text.js")


def test_a_finished_game_gives_its_record_and_its_frames(client: TestClient) -> None:
    host, ana = finished_room(client)
    code = host["code"]
    response = client.get(f"/api/rooms/{code}/record")
    assert response.status_code == 200
    assert f'filename="skyjo-{code}.json"' in response.headers["content-disposition"]
    record = response.json()
    assert record["format"] == "skyjo-record/1" and record["players"] == ["Ana", "Greedy bot"]
    assert replay(record).finished
    shown = client.get(f"/api/rooms/{code}/replay").json()
    assert shown["code"] == code and shown["finished"] and shown["seats"][1]["bot"] == "greedy"
    # issue 46: the default title ("Ana's table") is worded by each page, as a room's
    assert shown["title"] == "Ana's table" and shown["default_title"] is True
    assert [seat["host"] for seat in shown["seats"]] == [True, False]
    frames = shown["frames"]
    assert [f["number"] for f in frames] == list(range(ana.number + 1))
    assert frames[-1]["observation"]["phase"] == "game_over"
    assert frames[-1]["observation"]["totals"] == ana.obs["totals"]
    assert shown["winners"] == [m for m in ana.messages if "winners" in m][-1]["winners"]
    assert shown["rounds"][0] == 0 and all(
        frames[n]["events"][0]["kind"] == "dealt" for n in shown["rounds"][1:]
    )
    drawn = [e for f in frames for e in f["events"] if e["kind"] == "drew"]
    assert drawn and all("card" in e for e in drawn)  # over: a drawn card is shown at once
    # each frame shows the table as the players saw it at that step
    updates = [m for m in ana.messages if m["type"] == "update"]
    assert updates
    for seen in updates:
        frame = frames[seen["number"]]
        assert frame["seat"] == seen["seat"] and frame["action"] == seen["action"]
        assert frame["observation"]["grids"] == seen["observation"]["grids"]
        assert frame["observation"]["totals"] == seen["observation"]["totals"]


def test_an_unfinished_game_gives_neither_its_record_nor_a_replay(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.move(0)
    ana.until_number(1)
    for path in ("record", "replay"):
        response = client.get(f"/api/rooms/{host['code']}/{path}")
        assert response.status_code == 409, path
        error = response.json()["error"]
        assert error["code"] == "not_over" and "still being played" in error["message"]
        assert "seed" not in response.text and "deck" not in response.text.replace("every deck", "")
    assert client.get("/api/rooms/ZZZZZZ/record").json()["error"]["code"] == "no_room"
    assert client.get("/api/rooms/nope/replay").status_code == 404


def _played(seed: int = 4) -> dict:
    """The record of a whole game of three bots."""
    match = Match([Seat("Ana", "greedy"), Seat("Ben", "random"), Seat("Cleo", "greedy")], seed=seed)
    while not match.over:
        match.advance()
    return match.record()


def test_an_uploaded_record_replays_with_or_without_its_seed(client: TestClient) -> None:
    match = Match([Seat("Ana", "greedy"), Seat("Ben", "random"), Seat("Cleo", "greedy")], seed=4)
    while not match.over:
        match.advance()
    record = match.record()
    shown = client.post("/api/replays", content=json.dumps(record), headers=JSON).json()
    assert shown["players"] == ["Ana", "Ben", "Cleo"] and shown["finished"]
    assert len(shown["frames"]) == match.steps + 1
    unseeded = {k: v for k, v in record.items() if k != "seed"}
    again = client.post("/api/replays", content=json.dumps(unseeded), headers=JSON).json()
    assert again["frames"] == shown["frames"]
    reshuffled = [e for f in shown["frames"] for e in f["events"] if e["kind"] == "reshuffled"]
    assert len(reshuffled) == sum(len(r) for r in match.state.reshuffles)


def test_an_uploaded_record_of_a_game_in_progress_replays_to_where_it_stops(
    client: TestClient,
) -> None:
    state = step(step(step(step(new_game(2, seed=9), 0), 1), 2), 3)
    state = step(state, DRAW)  # a half turn: the card is held
    record = {"format": "skyjo-record/1", "players": ["A", "B"], "seed": 9,
              "rounds": [{"reveals": [[[0, 0], [0, 1]], [[0, 2], [0, 3]]],
                          "turns": [{"take": "deck"}]}]}  # fmt: skip
    assert replay(read_record(record)).state == state
    shown = client.post("/api/replays", json=record).json()
    assert not shown["finished"] and shown["winners"] == []
    assert shown["frames"][-1]["observation"]["held"] == state.held


BAD_RECORDS = [
    (b"{not json", "Not a game record"),
    (b"[]", "Not a game record"),
    (json.dumps({"format": "skyjo-record/1", "players": ["A"], "rounds": []}), "player"),
    (
        json.dumps(
            {
                "format": "skyjo-record/1",
                "players": ["A", "B"],
                "seed": 1,
                "rounds": [{"reveals": [[[0, 0], [0, 0]]]}],
            }
        ),
        "turns up [0, 0] twice",
    ),
]


def _uploads(client: TestClient) -> int:
    """How many uploaded records the server's database keeps."""
    engine = client.app.state.lobby.store.engine  # type: ignore[attr-defined]
    with engine.connect() as db:
        return int(db.execute(text("SELECT COUNT(*) FROM uploads")).scalar_one())


def _refusal(body: str | bytes) -> RecordError:
    """The `RecordError` the core raises for the record `body`."""
    try:
        replay(read_record(body))
    except RecordError as failure:
        return failure
    raise AssertionError("the record replays")


def test_a_bad_uploaded_record_is_refused_with_the_reason(client: TestClient) -> None:
    errors = []
    for body, words in BAD_RECORDS:
        response = client.post("/api/replays", content=body, headers=JSON)
        assert response.status_code == 400, body
        error = response.json()["error"]
        assert error["code"] == "bad_record" and words in error["message"], error
        failure = _refusal(body)  # the record's own kind, params and place, as raised
        assert error == {
            "code": "bad_record",
            "message": f"Not a game record: {failure}",
            "kind": failure.kind,
            "params": failure.params,
            "where": {"round": failure.round, "turn": failure.turn, "player": failure.player},
        }
        errors.append(error)
    too_large = {"max": MAX_UPLOAD, "mb": 2}
    huge = client.post(
        "/api/replays", content=b" " * (MAX_UPLOAD + 1), headers=JSON
    )  # its length said first
    assert huge.status_code == 413
    error = huge.json()["error"]
    assert (error["code"], error["kind"], error["params"]) == (
        "too_large",
        "record_too_large",
        too_large,
    )
    assert error["message"] == "a game record has at most 2097152 bytes (2 MB)"
    errors.append(error)
    streamed = client.post(
        "/api/replays", content=iter([b" " * MAX_UPLOAD, b"  "]), headers=JSON
    )  # no length
    assert "content-length" not in streamed.request.headers
    assert streamed.status_code == 413 and streamed.json()["error"] == error
    assert _uploads(client) == 0, "a refused upload is not kept"
    missing = client.get("/api/replays/aaaaaaaaaaaa")
    assert missing.status_code == 404 and missing.json()["error"]["kind"] == "no_replay"
    errors.append(missing.json()["error"])
    for key in ("nope", "AAAAAAAAAAAA", "aaaaaaaaaaa1"):  # not an id at all
        assert client.get(f"/api/replays/{key}").json()["error"]["code"] == "no_replay", key
    # the page writes each refusal in its language (`serverErrorText`): a record's from its
    # kind, params and place, positions counted from 1 as the cards' labels; the others are
    # the server's sentence in English
    english = render(TEXT, "serverErrorText", "en", errors)
    spanish = render(TEXT, "serverErrorText", "es", errors)
    assert english[:4] == [
        "Not a game record: line 1, column 2: the record is not valid JSON: "
        "Expecting property name enclosed in double quotes",
        "Not a game record: a game record must be a JSON object, not a list",
        "Not a game record: Skyjo takes 2 to 8 players, not 1",
        "Not a game record: round 1, reveals (A): A turns up the card at row 1, column 1 twice",
    ]
    assert english[4:] == [error["message"] for error in errors[4:]]
    assert spanish[0].startswith("No es el registro de una partida: ")
    assert spanish[-2] == "Un registro de partida tiene como mucho 2097152 bytes (2 MB)"
    assert all(es != en and "{" not in es for es, en in zip(spanish, english, strict=True))


def _game(*turns: dict, rounds: tuple[dict, ...] = ()) -> dict:
    """A record of Ana and Ben (seed 1) whose first round has these turns after the reveals."""
    opening = {"reveals": [[[0, 0], [0, 1]], [[0, 0], [0, 1]]], "turns": list(turns)}
    return {"format": "skyjo-record/1", "players": ["Ana", "Ben"], "seed": 1,
            "rounds": [opening, *rounds]}  # fmt: skip


#: Records refused at each kind of place, and what the server answers: the record's kind,
#: params and where, an illegal move's with the engine's kind and the seat to act.
REFUSED = [
    (
        _game({"take": "deck", "swap": [0, 0]}, {"take": "deck", "flip": [0, 0]}),
        "flip_face_up",
        {"seat": 1, "position": [0, 0]},
        {"round": 1, "turn": 2, "player": "Ben"},
    ),
    (
        _game(rounds=({},)),
        "round_unfinished",
        {"round": 1, "phase": "turns", "player": "Ana", "ender": None},
        {"round": 2, "turn": None, "player": None},
    ),
    (
        _game({"take": "deck", "swap": [3, 0]}),
        "position_off_grid",
        {"position": [3, 0], "rows": 3, "columns": 4},
        {"round": 1, "turn": 1, "player": None},
    ),
    (
        {**_game(), "colour": "red"},
        "record_unknown_key",
        {"keys": ['"colour"'], "known": ["format", "players", "rules", "seed", "rounds"]},
        {"round": None, "turn": None, "player": None},
    ),
]


def test_a_refused_record_names_its_kind_its_params_and_where(client: TestClient) -> None:
    """The answer carries the record's own kind and params (`skyjo.record.RecordError`) and
    where in the record it went wrong, for the page to write in its language; the English
    sentence stays as `message`."""
    errors = []
    for record, kind, params, where in REFUSED:
        response = client.post("/api/replays", json=record)
        assert response.status_code == 400, record
        error = response.json()["error"]
        assert (error["code"], error["kind"], error["params"], error["where"]) == (
            "bad_record",
            kind,
            params,
            where,
        )
        assert error["message"] == f"Not a game record: {_refusal(json.dumps(record))}"
        errors.append(error)
    assert _uploads(client) == 0
    assert render(TEXT, "serverErrorText", "fr", errors) == [
        "Ce n'est pas un enregistrement de partie\u00a0: manche 1, tour 2 (Ben)\u00a0: Ben ne peut "
        "pas retourner la carte en ligne 1, colonne 1\u00a0: elle est déjà face visible",
        "Ce n'est pas un enregistrement de partie\u00a0: manche 2\u00a0: La manche 1 n'est pas "
        "finie (encore en cours\u00a0; c'est au tour d'Ana\u00a0; qui l'a finie\u00a0: personne "
        "pour l'instant)\u00a0: aucune nouvelle manche ne peut commencer",
        "Ce n'est pas un enregistrement de partie\u00a0: manche 1, tour 1\u00a0: Il n'y a pas de "
        "ligne 4, colonne 1\u00a0: une grille a 3 lignes et 4 colonnes",
        'Ce n\'est pas un enregistrement de partie\u00a0: Clé inconnue "colour" dans '
        "l'enregistrement (un enregistrement a format, players, rules, seed, rounds)",
    ]
    assert render(TEXT, "serverErrorText", "de", errors[:1]) == [
        "Keine Spielaufzeichnung: Runde 1, Zug 2 (Ben): Ben kann die Karte in Zeile 1, "
        "Spalte 1 nicht aufdecken: Sie liegt schon offen"
    ]
    # a kind this page has no sentence for: the server's English, as it was
    unknown = {**errors[0], "kind": "a_kind_to_come"}
    assert render(TEXT, "serverErrorText", "es", [unknown]) == [errors[0]["message"]]


def test_an_uploaded_record_is_kept_under_a_stable_link(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'skyjo.db'}"
    record = _played()
    with serving(database_url=database) as client:
        response = client.post("/api/replays", content=json.dumps(record), headers=JSON)
        assert response.status_code == 201
        shown = response.json()
        key = shown["id"]
        assert re.fullmatch(r"[a-z2-7]{12}", key) and shown["link"] == f"/replay/{key}"
        assert shown["finished"] and shown["players"] == ["Ana", "Ben", "Cleo"]
        # the same game uploaded again, written otherwise, is the same link
        again = client.post(
            "/api/replays", content=json.dumps(record, indent=2), headers=JSON
        ).json()
        assert again["id"] == key and _uploads(client) == 1
        other = client.post("/api/replays", content=json.dumps(_played(5)), headers=JSON).json()
        assert other["id"] != key and _uploads(client) == 2
        page = client.get(shown["link"])
        assert page.status_code == 200 and "main.js" in page.text
    with serving(database_url=database) as client:  # a restarted server still has it
        kept = client.get(f"/api/replays/{key}")
        assert kept.status_code == 200
        assert kept.json() == shown
        # the record as kept, decks and all: a replay's client shows the face-down cards
        download = client.get(f"/api/replays/{key}/record")
        assert download.status_code == 200
        assert download.json() == read_record(json.dumps(record)).to_dict()
        assert f'filename="skyjo-{key}.json"' in download.headers["content-disposition"]
        missing = client.get("/api/replays/aaaaaaaaaaaa/record")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_replay"


def test_replay_pages_are_served(client: TestClient) -> None:
    for path in ("/replay", "/r/ABCDEF/replay"):
        response = client.get(path)
        assert response.status_code == 200 and "main.js" in response.text
