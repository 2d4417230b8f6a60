"""A room's seating (skyjo.web.seating): tokens, names, seat changes, the lobby's start
and drops, the reseat and the rematch, as plain state: every rule and every refusal."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import pytest
from i18n_js import sentence_tables

from skyjo.match import Match, Seat
from skyjo.web import chat, client, round_end, seating, table
from skyjo.web.protocol import ProtocolError
from skyjo.web.seating import Seating, StartPlan, checked_name, new_token, token_hash


def _match(*seats: tuple[str, str | None]) -> Match:
    return Match([Seat(name, bot) for name, bot in seats], seed=1)


def _table() -> tuple[Match, Seating, str]:
    """Ana (the host, seat 0), a free seat, a greedy bot and Dan's seat (given by the host)."""
    match = _match(("Ana", None), ("Seat 2", None), ("Greedy bot", "greedy"), ("Dan", None))
    table = Seating("", {}, [], lobby=True)
    return match, table, table.host_token(0)


def _refused(kind: str, call, *args) -> ProtocolError:  # type: ignore[no-untyped-def]
    with pytest.raises(ProtocolError) as refusal:
        call(*args)
    assert refusal.value.kind == kind, (refusal.value.kind, refusal.value.message)
    return refusal.value


def test_a_token_is_kept_as_its_hash_and_says_whose_seat_it_is() -> None:
    match, table, host = _table()
    assert token_hash(host) == hashlib.sha256(host.encode()).hexdigest()
    assert host not in table.tokens and table.tokens == {token_hash(host): 0}
    assert table.holder(host) == (0, True) and table.host_seat == 0
    seat, token = table.claim(match)
    assert table.holder(token) == (seat, False)
    _refused("bad_token", table.holder, new_token())
    assert len({new_token() for _ in range(50)}) == 50


def test_a_host_without_a_seat_holds_none() -> None:
    match = _match(("Ana", None), ("Ben", None))
    table = Seating("", {}, [])
    token = table.host_token(None)
    assert table.holder(token) == (None, True) and table.host_seat is None
    assert table.joined == set() and table.free_seats(match) == [0, 1]


def test_claims_take_the_first_free_human_seat_or_the_one_asked_for() -> None:
    match, table, _ = _table()
    assert table.free_seats(match) == [1, 3]  # not the host's, not the bot's
    assert table.claim(match, 3)[0] == 3
    assert 3 in table.joined and table.free_seats(match) == [1]
    error = _refused("seat_not_free", table.claim, match, 2)  # the bot's
    assert error.code == "bad_seat" and error.params == {"seat": 2}
    assert table.claim(match)[0] == 1
    assert _refused("room_full", table.claim, match).code == "room_full"
    assert table.joined == {0, 1, 3}


def test_a_newcomer_takes_a_name_or_the_seats() -> None:
    match, table, _ = _table()
    seat, _ = table.join(match, "  Zoé ")
    assert (seat, match.seats[1].name) == (1, "Zoé")  # normalised
    assert table.join(match, None)[0] == 3 and match.seats[3].name == "Dan"  # the host's name


def test_a_newcomer_without_a_name_on_a_free_seat_is_player_n() -> None:
    match, table, _ = _table()
    assert table.join(match, None)[0] == 1
    assert match.seats[1].name == "Player 2"


@pytest.mark.parametrize(
    ("name", "kind"),
    [("ana", "name_taken"), ("Seat 5", "name_reserved"), ("Greedy bot 2", "name_reserved"),
     ("", "name_empty"), ("\uff21na", "name_taken")],
)  # fmt: skip
def test_a_refused_name_leaves_the_seat_free(name: str, kind: str) -> None:
    match, table, _ = _table()
    before = (dict(table.tokens), set(table.joined), match.names)
    assert _refused(kind, table.join, match, name).code == "bad_name"
    assert (table.tokens, table.joined, match.names) == before
    assert table.free_seats(match) == [1, 3]


def test_a_name_that_looks_like_anothers_is_refused() -> None:
    match, table, _ = _table()
    _refused("name_confusable", table.join, match, "\u0410na")  # a Cyrillic A
    assert table.free_seats(match) == [1, 3]
    assert checked_name(" Bea ") == "Bea"


def test_the_public_seats_say_who_holds_and_who_is_connected() -> None:
    match, table, _ = _table()
    table.claim(match, 3)
    shown = table.public(match, absent={1, 3})
    assert [(s["claimed"], s["connected"], s["host"]) for s in shown] == [
        (True, True, True), (False, False, False), (False, True, False), (True, False, False),
    ]  # fmt: skip
    assert shown[2] == {
        "name": "Greedy bot", "bot": "greedy", "human": False,
        "claimed": False, "connected": True, "host": False,
    }  # fmt: skip


def test_the_saved_options_and_a_seating_saved_before_joined_was_kept() -> None:
    match, table, host = _table()
    table.claim(match, 3)
    assert table.options() == {"joined": [0, 3], "lobby": True}
    again = Seating.saved(table.host, table.tokens, table.options(), 4)
    assert (again.joined, again.lobby, again.rematch) == ({0, 3}, True, None)
    assert again.holder(host) == (0, True)
    old = Seating.saved("h", {"h": 1}, {}, 4)  # an older room: every seat counts as held
    assert old.joined == {0, 1, 2, 3} and not old.lobby
    assert Seating.saved("h", {"h": 1}, {"joined": [2]}, 4).joined == {1, 2}  # a token's seat too


def test_only_the_host_changes_a_seat_to_a_known_bot_of_a_seat_there_is() -> None:
    match, table, _ = _table()
    _refused("not_host_seat", table.check_seat_change, False, match, 1, "greedy")
    assert _refused("bad_bot", table.check_seat_change, True, match, 1, "genius").params == {
        "bots": "random, greedy, basic, expected, best, search"
    }
    assert _refused("no_such_seat", table.check_seat_change, True, match, 4, None).params == {
        "seat": 4
    }
    _refused("no_such_seat", table.check_seat_change, True, match, -1, None)
    table.check_seat_change(True, match, 1, "basic")  # allowed
    table.check_seat_change(True, match, 2, None)


def test_the_server_names_only_the_seats_nobody_held() -> None:
    match, table, _ = _table()
    match.set_player(1, "basic")
    table.name_by_server(match, 1)
    assert match.seats[1] == Seat("Basic bot", "basic")
    match.set_player(1, None)
    table.name_by_server(match, 1)
    assert match.seats[1].name == "Seat 2"
    table.claim(match, 3)
    match.set_player(3, "greedy")
    table.name_by_server(match, 3)  # Dan held it: his name stays
    assert match.seats[3] == Seat("Dan", "greedy")
    match.set_player(1, "greedy")
    table.name_by_server(match, 1)
    assert match.seats[1].name == "Greedy bot 2"  # the first is taken


def test_the_host_removes_a_held_seats_player_and_no_other() -> None:
    match, table, _ = _table()
    _refused("not_host_remove", table.check_remove, False, match, 3)
    _refused("no_such_seat", table.check_remove, True, match, 9)
    _refused("host_own_seat", table.check_remove, True, match, 0)
    assert _refused("seat_not_held", table.check_remove, True, match, 3).params == {"seat": 3}
    table.claim(match, 3)
    table.check_remove(True, match, 3)


def test_a_removal_during_the_game_keeps_the_seats_name_for_a_returning_human() -> None:
    match, table, host = _table()
    table.started()
    _, token = table.join(match, "Zoé")
    sent = table.remove(match, 1)
    assert (sent["code"], sent["kind"]) == ("removed", "removed")
    assert sent["message"] == "the host gave your seat to someone else"
    _refused("bad_token", table.holder, token)
    assert table.holder(host) == (0, True) and 1 in table.joined
    assert match.seats[1].name == "Zoé" and table.free_seats(match) == [1, 3]


def test_a_removal_in_the_lobby_frees_the_seat_for_anyone() -> None:
    match, table, _ = _table()
    table.join(match, "Zoé")
    sent = table.remove(match, 1)
    assert (sent["code"], sent["kind"]) == ("removed", "seat_freed")
    assert 1 not in table.joined and match.seats[1].name == "Seat 2"


def test_only_the_host_starts_a_lobby_game_with_a_known_choice_for_its_empty_seats() -> None:
    _, table, _ = _table()
    _refused("not_host_start", table.check_start, False, None)
    _refused("bad_bot", table.check_start, True, "genius")
    for empty in (None, "drop", "greedy"):
        table.check_start(True, empty)
    table.started()
    assert not table.lobby and "lobby" not in table.options()
    _refused("already_started", table.check_start, True, None)
    assert _refused("already_started", table.check_lobby).code == "started"


def test_the_start_plan_for_the_seats_nobody_took() -> None:
    match, table, _ = _table()
    refusal = _refused("empty_seats", table.start_plan, match, None)
    assert refusal.params == {"names": "seat 2, seat 4", "count": 2}
    assert table.start_plan(match, "drop") == StartPlan([0, 2], [], None)
    assert table.start_plan(match, "basic") == StartPlan(None, [1, 3], "basic")
    table.claim(match, 1)
    table.claim(match, 3)
    assert table.start_plan(match, None) == StartPlan(None, [], None)  # nobody missing
    assert table.start_plan(match, "drop") == StartPlan(None, [], "drop")
    table.started()
    _refused("already_started", table.start_plan, match, "drop")


def test_only_the_host_drops_a_lobby_seat_that_is_not_theirs_from_a_big_enough_table() -> None:
    match, table, _ = _table()
    _refused("not_host_drop", table.check_drop, False, match, 1)
    _refused("no_such_seat", table.check_drop, True, match, 4)
    _refused("host_own_seat", table.check_drop, True, match, 0)
    table.check_drop(True, match, 1)
    two = _match(("Ana", None), ("Ben", None))
    assert _refused("too_few_seats", table.check_drop, True, two, 1).params == {"min": 2}
    table.started()
    _refused("already_started", table.check_drop, True, match, 1)


def test_a_reseat_renumbers_the_seats_their_tokens_and_free_names() -> None:
    match, table, host = _table()
    table.tokens[token_hash("watcher")] = None  # a host-like token without a seat
    _, dan = table.claim(match, 3)
    seats, number = table.reseat(match, [0, 2, 3])
    assert number == {0: 0, 2: 1, 3: 2}
    assert [s.name for s in seats] == ["Ana", "Greedy bot", "Dan"]
    table.renumber(number)
    assert table.holder(dan) == (2, False) and table.holder(host) == (0, True)
    assert table.holder("watcher") == (None, False) and table.joined == {0, 2}
    seats, number = table.reseat(_match(("Ana", None), ("Seat 2", None), ("Seat 3", None)), [0, 2])
    assert [s.name for s in seats] == ["Ana", "Seat 2"]  # a free seat named by its new number


def test_a_reseat_forgets_the_tokens_of_the_dropped_seats() -> None:
    match, table, _ = _table()
    _, ben = table.join(match, "Ben")
    table.renumber(dict(zip([0, 2, 3], range(3), strict=True)))
    _refused("bad_token", table.holder, ben)
    assert table.joined == {0}


def test_only_the_host_starts_the_next_game_once_this_one_is_over_and_only_once() -> None:
    _, table, _ = _table()
    _refused("not_host_rematch", table.check_rematch, False, True)
    assert _refused("game_not_over", table.check_rematch, True, False).code == "not_over"
    assert table.check_rematch(True, True) is None
    assert table.rematched("ABCDEF") == {"code": "ABCDEF", "by": 0}
    assert table.check_rematch(True, True) == {"code": "ABCDEF", "by": 0}  # the same room
    assert table.options()["rematch"] == {"code": "ABCDEF", "by": 0}
    seatless = Seating("", {}, [])
    seatless.host_token(None)
    assert seatless.rematched("GHJKLM") == {"code": "GHJKLM", "by": None}


def test_the_next_game_opens_in_its_lobby_only_when_friends_come_back() -> None:
    match, table, _ = _table()
    assert table.next_options(match) == {"joined": [], "lobby": True}
    solo = _match(("Ana", None), ("Greedy bot", "greedy"))
    assert table.next_options(solo) == {"joined": []}


def test_every_refusal_of_the_rules_modules_names_a_kind_the_client_writes() -> None:
    """(tests/web/test_protocol.py reads rooms.py; the rules, the table and the
    connection moved out of it.)"""
    static = Path(seating.__file__).parent / "static" / "i18n.js"
    tables = sentence_tables(static, "kind")
    named = set()
    for module in (seating, round_end, chat, table, client):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_check_host":
                named.add(node.args[1].value)  # type: ignore[attr-defined]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "ProtocolError",
                "error",
            ):
                given = {k.arg: k.value for k in node.keywords}
                kind = node.args[2] if len(node.args) > 2 else given.get("kind", node.args[0])
                if isinstance(kind, ast.Constant):
                    named.add(kind.value)
                else:
                    assert ast.unparse(kind) == "kind", ast.unparse(node)
    assert len(named) >= 20, named
    for language in ("en", "es"):
        assert not named - set(tables[language]), (language, named - set(tables[language]))
