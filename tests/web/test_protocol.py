"""The web protocol over WebSockets (docs/web-protocol.md), through Starlette's TestClient."""

from __future__ import annotations

import ast
import json
import multiprocessing
import random
import re
from multiprocessing import resource_tracker
from pathlib import Path

import pytest
from i18n_js import core_kinds, render, sentence_tables
from starlette.testclient import TestClient
from webapp import serving
from webclient import Conn, create_room, join_room, play_game, settle

from skyjo import match as match_module
from skyjo import rules as rules_module
from skyjo.engine import DRAW, FLIP, NEXT_ROUND, REVEAL, SWAP
from skyjo.match import MatchOver, NotYourTurn
from skyjo.rules import RulesError
from skyjo.web import (
    api,
    limits,
    lobby,
    origins,
    protocol,
    replay_routes,
    room_config,
    room_routes,
    rooms,
    undo,
)
from skyjo.web import app as web_app
from skyjo.web.thinking import Thinkers

TWO_HUMANS_AND_A_BOT = [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}]


def _room_match(client: TestClient, code: str):  # the server's match, for checking
    return client.app.state.lobby.rooms[code].match  # type: ignore[attr-defined]


def test_a_whole_game_of_two_humans_and_a_bot(client: TestClient) -> None:
    host = create_room(client, TWO_HUMANS_AND_A_BOT, rules={"target_score": 40})
    guest = join_room(client, host["code"])
    assert (host["seat"], guest["seat"]) == (0, 1)
    ana, ben = Conn(client, host["code"]), Conn(client, host["code"])
    state = ana.hello(host["token"])
    assert state["type"] == "state" and state["you"] == 0 and state["host"] is True
    assert state["protocol"] == 1 and state["room"]["rules"]["target_score"] == 40
    assert ben.hello(guest["token"])["you"] == 1
    play_game(ana, {0: ana, 1: ben}, random.Random(1))
    match = _room_match(client, host["code"])
    assert match.over and ana.number == ben.number == match.steps
    final = [m for m in ben.messages if m["type"] == "update"][-1]
    assert final["winners"] == list(match.winners())
    assert max(final["observation"]["totals"]) >= 40
    rounds = [m["round"] for m in ana.messages if m["type"] == "update" and "round" in m]
    assert len(rounds) == len(match.state.results) and rounds[0]["round"] == 1
    assert "ended with" in rounds[0]["reason"]
    with pytest.raises(Exception):  # noqa: B017 (any refusal): a finished game takes no move
        match.play(0, DRAW)
    ana.move(DRAW)
    assert ana.error()["code"] == "game_over"


def test_every_step_is_numbered_and_resync_repeats_the_state(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "random"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.move(REVEAL)
    ana.move(REVEAL + 1)
    ana.until_number(2)
    ana.send({"type": "resync"})
    state = ana.until(lambda m: m["type"] == "state")
    assert state["number"] >= 2 and [e["number"] for e in state["log"]][:2] == [1, 2]


BAD_MESSAGES = [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    (json.dumps({"type": "dance"}), "unknown_type"),
    (json.dumps({"action": 1}), "unknown_type"),
    (json.dumps({"type": "move", "action": "draw"}), "bad_field"),
    (json.dumps({"type": "move", "action": True}), "bad_field"),
    (json.dumps({"type": "move", "action": 1, "extra": 1}), "bad_field"),
    (json.dumps({"type": "move", "action": 99}), "illegal"),
    (json.dumps({"type": "move", "action": DRAW}), "illegal"),  # the reveals come first
    (json.dumps({"type": "chat", "text": ""}), "bad_field"),
    (json.dumps({"type": "chat", "text": "x" * 301}), "too_long"),
    (json.dumps({"type": "seat", "seat": 9, "bot": "greedy"}), "bad_seat"),
    (json.dumps({"type": "seat", "seat": 1, "bot": "external:command=sh"}), "bad_bot"),
    (json.dumps({"type": "hello", "token": None}), "already_greeted"),
    (json.dumps({"type": "chat", "text": "x" * 5000}), "too_large"),
]


@pytest.mark.parametrize("raw, code", BAD_MESSAGES)
def test_a_bad_message_gets_an_error_naming_it_and_changes_nothing(
    client: TestClient, raw: str, code: str
) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
    ana = Conn(client, host["code"])
    before = ana.hello(host["token"])
    ana.ws.send_text(raw)
    answer = ana.error()
    assert answer["code"] == code and answer["message"]
    ana.send({"type": "resync"})
    after = ana.until(lambda m: m["type"] == "state")
    assert after["number"] == before["number"] == 0
    assert after["observation"] == before["observation"]
    ana.move(REVEAL)  # the room still plays
    assert ana.until(lambda m: m["type"] == "update")["number"] == 1


def test_messages_before_hello_and_out_of_turn_and_from_spectators_are_refused(
    client: TestClient,
) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
    guest = join_room(client, host["code"])
    ben = Conn(client, host["code"])
    ben.move(REVEAL)
    assert ben.error()["code"] == "hello_first"
    ben.hello(guest["token"])
    ben.move(REVEAL)
    error = ben.error()
    assert error["code"] == "not_your_turn" and "Ana's turn" in error["message"]
    ben.send({"type": "seat", "seat": 0, "bot": "greedy"})
    assert ben.error()["code"] == "not_host"
    watcher = Conn(client, host["code"])
    assert watcher.hello()["you"] is None
    watcher.move(REVEAL)
    assert watcher.error()["code"] == "spectator"
    watcher.send({"type": "chat", "text": "hi"})
    assert watcher.error()["code"] == "spectator"
    assert _room_match(client, host["code"]).steps == 0


def test_a_wrong_token_and_an_unknown_room_are_refused(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
    conn = Conn(client, host["code"])
    answer = conn.hello("not-a-token")
    assert answer["type"] == "error" and answer["code"] == "bad_token"
    conn.move(REVEAL)
    assert conn.error()["code"] == "hello_first"
    assert conn.hello(host["token"])["you"] == 0  # a later right token is welcome
    nowhere = Conn(client, "ZZZZZZ")
    assert nowhere.receive()["code"] == "no_room"
    assert client.get("/api/rooms/ZZZZZZ").json()["error"]["code"] == "no_room"


def test_a_full_room_refuses_another_player(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}])
    join_room(client, host["code"])
    response = client.post(f"/api/rooms/{host['code']}/join")
    assert response.status_code == 409 and response.json()["error"]["code"] == "room_full"
    assert response.json()["error"]["kind"] == "room_full"  # for the page to write it
    late = Conn(client, host["code"])
    answer = late.hello(join=True)
    assert answer["type"] == "error" and answer["code"] == "room_full"


def test_joining_over_the_socket_gives_a_token(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
    ben = Conn(client, host["code"])
    ben.send({"type": "hello", "join": True})
    joined = ben.until(lambda m: m["type"] == "joined")
    assert joined["seat"] == 1 and len(joined["token"]) >= 32
    assert ben.until(lambda m: m["type"] == "state")["you"] == 1
    again = Conn(client, host["code"])
    assert again.hello(joined["token"])["you"] == 1


def test_reconnecting_with_the_token_resumes_the_seat_mid_turn(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    play_game(ana, {0: ana}, random.Random(3), until=lambda w: DRAW in w.obs["legal_actions"])
    ana.move(DRAW)
    ana.until_number(ana.number + 1)
    held = ana.obs["held"]
    assert held is not None
    ana.close()
    again = Conn(client, host["code"])
    state = again.hello(host["token"])
    assert state["you"] == 0 and state["observation"]["held"] == held
    assert state["observation"]["source"] == "deck"
    legal = state["observation"]["legal_actions"]
    assert legal and all(SWAP <= a < NEXT_ROUND for a in legal)
    flips = [a for a in legal if a >= FLIP]
    again.move((flips or legal)[0])
    assert again.until(lambda m: m["type"] == "update")["seat"] == 0


def test_a_spectator_sees_the_game_and_only_face_up_cards(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    watcher = Conn(client, host["code"])
    state = watcher.hello()
    assert state["you"] is None and state["host"] is False
    assert state["observation"]["legal_actions"] == []
    play_game(ana, {0: ana}, random.Random(4), until=lambda w: w.number > 20)
    watcher.until_number(ana.number)
    for message in watcher.messages:
        for event in message.get("events", []):
            if event["kind"] == "drew":
                assert "card" not in event
    seats = client.get(f"/api/rooms/{host['code']}").json()
    assert seats["spectators"] == 1


def test_the_host_hands_a_seat_to_a_bot_and_back(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    guest = join_room(client, host["code"])
    ben = Conn(client, host["code"])
    ben.hello(guest["token"])
    ana.move(REVEAL)
    ana.move(REVEAL + 1)
    ana.until_number(2)
    ana.send({"type": "seat", "seat": 1, "bot": "greedy"})  # Ben's reveals: now the bot's
    seats = ana.until(lambda m: m["type"] == "seats" and m["seats"][1]["bot"] == "greedy")
    assert seats["seats"][1]["human"] is False
    ana.until_number(4)  # the bot turned up Ben's two cards
    play_game(ana, {0: ana}, random.Random(5), until=lambda w: w.number >= 10)
    ana.send({"type": "seat", "seat": 1, "bot": None})
    ana.until(lambda m: m["type"] == "seats" and m["seats"][1]["human"])
    settle(ana, [ben])
    number = ana.number
    while ana.obs["current_player"] == 0:  # Ana plays until it is Ben's turn again
        ana.move(ana.obs["legal_actions"][0])
        number += 1
        ana.until_number(number)
    ben.until_number(number)
    assert ben.obs["current_player"] == 1 and ben.obs["legal_actions"]
    assert _room_match(client, host["code"]).waiting_for_human
    ben.move(ben.obs["legal_actions"][0])
    assert ben.until(lambda m: m["type"] == "update")["seat"] == 1


def test_an_absent_human_is_played_by_a_stand_in() -> None:
    with serving(absent_after=0.0) as client:
        # no lobby, and both seats taken (a token each) but nobody connected: only a seat
        # someone has held is played for when absent (docs/web-protocol.md)
        host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}], lobby=False)
        join_room(client, host["code"])
        watcher = Conn(client, host["code"])
        state = watcher.hello()  # nobody is connected to a seat: stand-ins play both
        watcher.until_number(6)
        updates = [m for m in watcher.messages if m["type"] == "update"]
        seats = [entry["seat"] for entry in state["log"]] + [m["seat"] for m in updates]
        assert seats[:4] == [0, 0, 1, 1]
        assert _room_match(client, host["code"]).seats[0].human  # still Ana's seat


def test_a_flooding_client_is_disconnected_and_the_room_plays_on() -> None:
    with serving(burst=5, rate=0.001) as client:
        host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}])
        guest = join_room(client, host["code"])
        ben = Conn(client, host["code"])
        ben.hello(guest["token"])
        for _ in range(11):  # 5 handled, 5 answered rate_limited, then a flood
            ben.send({"type": "resync"})
        codes = [ben.error()["code"] for _ in range(6)]
        assert codes == ["rate_limited"] * 5 + ["flood"]
        ana = Conn(client, host["code"])
        ana.hello(host["token"])
        ana.move(REVEAL)
        assert ana.until(lambda m: m["type"] == "update")["number"] == 1


def test_chat_is_relayed_as_text_and_rate_limited(client: TestClient) -> None:
    host = create_room(client, [{"name": "<img src=x onerror=alert(1)>"}, {"bot": "greedy"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.send({"type": "chat", "text": "  <b>hello</b>  "})
    chat = ana.until(lambda m: m["type"] == "chat")
    assert chat == {
        "type": "chat",
        "seat": 0,
        "name": "<img src=x onerror=alert(1)>",
        "text": "<b>hello</b>",
    }
    for _ in range(5):
        ana.send({"type": "chat", "text": "again"})
    assert ana.error()["code"] == "chat_rate"


BAD_ROOMS = [
    {"seats": [{"name": "Ana"}]},
    {"seats": [{"name": "Ana"}, {"bot": "external:command=rm -rf /"}]},
    {"seats": [{"name": "Ana"}, {"name": "Ana"}]},
    {"seats": [{"name": "Ana"}, {"bot": "greedy"}], "rules": {"target_score": 0}},
    {"seats": [{"name": "Ana"}, {"bot": "greedy"}], "rules": {"ender_penalty": "sometimes"}},
    {"seats": [{"name": "Ana"}, {"bot": "greedy"}], "title": "x" * 81},
    {"seats": [{"name": "Ana"}, {"bot": "greedy"}], "host_seat": 1},
    {"seats": [{"name": "a\x00b"}, {"bot": "greedy"}]},
    {"seats": [{"name": "Ana"}, {"bot": "greedy"}], "colour": "red"},
]


@pytest.mark.parametrize("body", BAD_ROOMS)
def test_a_bad_room_request_is_refused_with_the_reason(client: TestClient, body: dict) -> None:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"
    assert response.json()["error"]["message"]


def test_listed_rooms_are_on_the_list_and_private_ones_are_not(client: TestClient) -> None:
    listed = create_room(client, [{"name": "Ana"}, {"name": "Ben"}], listed=True, title="Open")
    create_room(client, [{"name": "Cleo"}, {"name": "Dev"}])
    rooms = client.get("/api/rooms").json()["rooms"]
    assert [r["code"] for r in rooms] == [listed["code"]]
    assert rooms[0]["title"] == "Open" and rooms[0]["free_seats"] == [1]


def test_pages_carry_a_content_security_policy_without_inline_scripts(
    client: TestClient,
) -> None:
    for path in ("/", "/r/ABCDEF", "/static/main.js", "/api/rooms"):
        response = client.get(path)
        assert response.status_code == 200, path
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"


def test_bots_thinking_in_worker_processes_play_as_they_would_in_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With `bot_processes` the bots think in other processes, and a seeded bot
    makes the same choices as in the server's own: the same game, move for move."""
    monkeypatch.setattr("skyjo.match.fresh_seed", lambda: 77)
    seats = [{"name": "Ana"}, {"bot": "search"}, {"bot": "expected"}]
    games = []
    for processes in (0, 2):
        with serving(bot_processes=processes) as client:
            host = create_room(client, seats, rules={"target_score": 15})
            ana = Conn(client, host["code"])
            ana.hello(host["token"])
            play_game(ana, {0: ana}, random.Random(9))
            match = _room_match(client, host["code"])
            lobby = client.app.state.lobby  # type: ignore[attr-defined]
            assert (lobby.thinkers is not None) == (processes > 0)
            games.append(list(match.state.history))
    assert games[0] == games[1] and len(games[0]) > 20


def test_closing_the_thinkers_stops_their_workers_and_frees_their_semaphores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Thinkers.close` waits for its workers and releases the pools' queues: no
    semaphore is left registered with the resource tracker (left to the
    interpreter's exit, which a server stopped by SIGTERM never reaches, the
    tracker reports them leaked)."""
    held: set[str] = set()

    def register(name: str, kind: str) -> None:
        held.add(name)
        real_register(name, kind)

    def unregister(name: str, kind: str) -> None:
        held.discard(name)
        real_unregister(name, kind)

    real_register, real_unregister = resource_tracker.register, resource_tracker.unregister
    monkeypatch.setattr(resource_tracker, "register", register)
    monkeypatch.setattr(resource_tracker, "unregister", unregister)
    others = set(multiprocessing.active_children())
    thinkers = Thinkers(1)
    thinkers.wait()  # (they start in the background)
    workers = set(multiprocessing.active_children()) - others
    assert held and workers  # the pool's queues hold semaphores; its worker runs
    thinkers.close()
    assert held == set()
    assert not any(p.is_alive() for p in workers)


# ------------------------------------------------------- every error has a kind the client writes
#
# Every `error` message the tests of this module receive is kept (ERRORS); the last test checks
# each one's kind against the client's tables (static/i18n.js, read as text): both languages
# hold it, and the English sentence filled with the params is the message exactly (run by node
# when it is installed). Every `ProtocolError` of protocol.py, rooms.py, lobby.py and app.py is
# checked statically.

ERRORS: list[dict] = []
STATIC = Path(protocol.__file__).parent / "static"


@pytest.fixture(autouse=True)
def _keep_every_error(monkeypatch: pytest.MonkeyPatch) -> None:
    receive = Conn.receive

    def keep(self: Conn) -> dict:
        message = receive(self)
        if message.get("type") == "error":
            ERRORS.append(message)
        return message

    monkeypatch.setattr(Conn, "receive", keep)


def test_an_error_names_its_kind_and_the_values_of_its_sentence(client: TestClient) -> None:
    host = create_room(client, [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}])
    guest = join_room(client, host["code"])
    ben = Conn(client, host["code"])
    ben.hello(guest["token"])
    ben.move(REVEAL)
    assert ben.error() == {
        "type": "error",
        "code": "not_your_turn",
        "message": "it is Ana's turn, not Ben's",
        "kind": "not_your_turn",
        "params": {"player": "Ana", "you": "Ben"},
    }
    ben.send({"type": "remove", "seat": 7})
    assert ben.error()["kind"] == "not_host_remove"
    late = Conn(client, host["code"])
    answer = late.hello(join=True)
    assert (answer["code"], answer["kind"], answer["params"]) == ("room_full", "room_full", {})
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.send({"type": "seat", "seat": 5, "bot": None})
    assert ana.error()["params"] == {"seat": 5}
    ana.send({"type": "remove", "seat": 0})
    assert ana.error()["kind"] == "host_own_seat"
    ana.send({"type": "remove", "seat": 2})
    assert ana.error()["kind"] == "seat_not_held"
    ana.send({"type": "move", "action": 1, "more": 2})
    assert ana.error()["params"] == {"type": "move", "field": "'more'"}
    ana.send({"type": "hello", "token": None, "protocol": 2})
    assert ana.error()["kind"] == "bad_version"


def _illegal_moves(client: TestClient) -> None:
    """Two moves the engine refuses, each answered `illegal` with the engine's kind."""
    host = create_room(client, [{"name": "Ana"}, {"bot": "greedy"}])
    ana = Conn(client, host["code"])
    ana.hello(host["token"])
    ana.move(99)
    assert ana.error()["kind"] == "action_unknown"
    ana.move(DRAW)  # the opening reveals come first
    assert ana.error()["kind"] == "reveal_first"


def test_every_error_received_has_a_kind_both_languages_of_the_client_write(
    client: TestClient,
) -> None:
    test_an_error_names_its_kind_and_the_values_of_its_sentence(client)  # when run alone
    _illegal_moves(client)  # (or on another worker than the tests that make them)
    tables = sentence_tables(STATIC / "i18n.js", "kind")
    illegal = sentence_tables(STATIC / "i18n.js", "illegal")  # an illegal move's: the engine's
    assert set(tables["en"]) == set(tables["es"]) and set(illegal["en"]) == set(illegal["es"])
    kinds = {error["kind"] for error in ERRORS if error["code"] != "illegal"}
    assert len(kinds) >= 8, sorted(kinds)  # every kind received across this module
    assert not kinds - set(tables["en"]), kinds - set(tables["en"])
    moves = {error["kind"] for error in ERRORS if error["code"] == "illegal"}
    assert {"action_unknown", "reveal_first"} <= moves <= set(illegal["en"]), moves
    english = render(STATIC / "i18n.js", "errorText", "en", ERRORS)
    spanish = render(STATIC / "i18n.js", "errorText", "es", ERRORS)
    for error, en, es in zip(ERRORS, english, spanish, strict=True):
        if error["code"] == "illegal":  # the page words the seat, the position and the action
            # itself, counting rows from 1 (tests/web/test_client_text.py): not the engine's words
            assert not re.search(r"\{[a-z_]+\}", en), (error, en)
        else:
            assert en == error["message"], error  # the English page writes the server's sentence
        assert es != en and not re.search(r"\{[a-z_]+\}", es), (error, es)


def test_every_protocol_error_of_the_server_names_a_kind_the_client_knows() -> None:
    tables = sentence_tables(STATIC / "i18n.js", "kind")
    named: set[str] = set()
    # every module that refuses (the models' catalogues of pydantic's errors included)
    modules = (protocol, rooms, room_config, lobby, web_app, limits, origins, api, undo)
    for module in (*modules, room_routes, replay_routes):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) not in (
                "ProtocolError",
                "error",
            ):
                continue
            given = {k.arg: k.value for k in node.keywords}
            kind = node.args[2] if len(node.args) > 2 else given.get("kind", node.args[0])
            if isinstance(kind, ast.Constant):
                named.add(kind.value)
            else:  # a kind named by a variable
                shown = ast.unparse(kind)
                assert shown in ("kind", "failure.kind", "code", "fallback"), ast.unparse(node)
    # the core's refusals the rooms pass on (`protocol.refused`), as their classes declare them
    named |= set(NotYourTurn.kinds()) | set(MatchOver.kinds()) | set(RulesError.kinds())
    named |= core_kinds(match_module, "MatchError") | core_kinds(rules_module, "RulesError")
    named |= set(limits.SENTENCES) - {"sheets_rate"}  # the scorepad page writes that one
    assert len(named) >= 50
    assert not named - set(tables["en"]) and not named - set(tables["es"]), named - set(
        tables["en"]
    )


def test_both_languages_of_the_client_have_every_sentence() -> None:
    """Every string of static/i18n.js's English table has a Spanish one and back,
    with the same {placeholders}."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    en, es = text.index("\n  en: {"), text.index("\n  es: {")
    end = text.index("\n  },", es)  # French and German follow (tests/web/test_languages.py)
    line = re.compile(r'^\s*"?([\w.]+)"?: ("(?:[^"\\]|\\.)*"),$', re.M)
    tables = [
        {key: json.loads(value) for key, value in line.findall(text[a:b])}
        for a, b in ((en, es), (es, end))
    ]
    assert len(tables[0]) > 200, len(tables[0])
    assert set(tables[0]) == set(tables[1]), set(tables[0]) ^ set(tables[1])
    for key, sentence in tables[0].items():
        names = set(re.findall(r"\{(\w+)\}", sentence))
        assert names >= set(re.findall(r"\{(\w+)\}", tables[1][key])), key
