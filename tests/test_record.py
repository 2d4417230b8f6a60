"""Game records (RULES.md 5): write, read, check and replay them.

Games are played by seeded random legal play; the "long" policy mostly draws
and exchanges face-up cards, so rounds last long enough to empty the draw
pile and reshuffle (RULES.md 2.7).
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyjo import engine
from skyjo.engine import DRAW, FLIP, NEXT_ROUND, REVEAL, SWAP, Phase, State
from skyjo.record import (
    FORMAT,
    MAX_RECORD_BYTES,
    Record,
    RecordError,
    load_record,
    read_record,
    write_record,
)
from skyjo.replayer import replay, replay_summary, steps
from skyjo.rules import DECK, Rules
from skyjo.scoring import Scoresheet, score_round

NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal")
Doc = dict[str, Any]


# ---------------------------------------------------------------- helpers


def choose(rng: random.Random, state: State, long: bool) -> int:
    """A random legal action; the long policy draws and keeps exchanging face-up cards."""
    legal = engine.legal_actions(state)
    if long and rng.random() < 0.95:
        if DRAW in legal:
            return DRAW
        face_up = [
            a
            for a in legal
            if SWAP <= a < FLIP and not state.hidden[state.player] >> (a - SWAP) & 1
        ]
        if face_up:
            return rng.choice(face_up)
    return rng.choice(legal)


def random_game(
    num_players: int,
    seed: int,
    *,
    target: int = 1,
    long: bool = False,
    stop: int | None = None,
    rules: Rules | None = None,
) -> State:
    """A seeded game of random legal play, to its end or for `stop` actions."""
    rng = random.Random(seed)
    state = engine.new_game(num_players, seed, rules or Rules(target_score=target))
    steps = 0
    while state.phase != Phase.GAME_OVER and (stop is None or steps < stop):
        state = engine.step(state, choose(rng, state, long))
        steps += 1
    return state


def same(a: State, b: State) -> bool:
    """Whether two states are equal. `==` on states compares the history linked
    list recursively and overflows the stack past about 1000 actions, so the
    history is compared as a list."""
    return a._replace(history=()) == b._replace(history=()) and engine.history(a) == engine.history(
        b
    )


def names(n: int) -> list[str]:
    return list(NAMES[:n])


def find_game(predicate: Callable[[State], bool], **options: Any) -> State:
    """The first random game (over seeds and player counts) that satisfies `predicate`."""
    for seed in range(200):
        state = random_game(2 + seed % 7, seed, **options)
        if predicate(state):
            return state
    raise AssertionError("no random game satisfies the predicate")  # pragma: no cover


def states_of(state: State) -> list[State]:
    """Every state of the game that led to `state`, replayed from its first deal."""
    actions = engine.history(state)
    current = engine.new_game(state.num_players, state.seed, state.rules)
    states = [current]
    for action in actions:
        current = engine.step(current, action)
        states.append(current)
    assert same(current, state)
    return states


def base_game() -> tuple[State, Doc]:
    """A finished one-round game of Ana, Ben and Cleo, and its record."""
    state = random_game(3, 1, target=1)
    return state, write_record(state, names(3))


def error_of(doc: Any) -> RecordError:
    """The error of reading and replaying `doc`."""
    with pytest.raises(RecordError) as caught:
        replay(doc)
    return caught.value


def assert_error(doc: Any, *fragments: str) -> RecordError:
    """Replaying `doc` fails with one line that holds every fragment."""
    error = error_of(doc)
    message = str(error)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return error


def pos(k: int) -> list[int]:
    return list(divmod(k, 4))


def starter_of(doc: Doc) -> int:
    """The seat that starts round 1 of `doc`: replay its reveals only."""
    first = dict(doc["rounds"][0], turns=[], reshuffles=[])
    return replay(dict(doc, rounds=[first])).state.player


# ---------------------------------------------------------------- round trip


@settings(max_examples=60, deadline=None)
@given(
    num_players=st.integers(2, 8),
    seed=st.integers(0, 2**40),
    target=st.integers(1, 120),
    long=st.booleans(),
)
def test_round_trip_of_random_games(num_players: int, seed: int, target: int, long: bool) -> None:
    state = random_game(num_players, seed, target=target, long=long and target < 40)
    doc = write_record(state, names(num_players))
    text = json.dumps(doc)
    replayed = replay(read_record(text))
    assert same(replayed.state, state)
    assert json.dumps(write_record(replayed.state, names(num_players))) == text
    assert replayed.finished


@pytest.mark.parametrize("num_players", range(2, 9))
def test_round_trip_of_games_with_reshuffles(num_players: int) -> None:
    state = next(
        s
        for seed in range(50)
        if sum(map(len, (s := random_game(num_players, seed, target=1, long=True)).reshuffles))
    )
    doc = write_record(state, names(num_players))
    assert any(r["reshuffles"] for r in doc["rounds"])
    assert same(replay(read_record(json.dumps(doc))).state, state)


def test_round_trip_of_multi_round_games_with_reshuffles() -> None:
    state = find_game(
        lambda s: len(s.results) >= 3 and sum(map(len, s.reshuffles)) >= 2, target=200, long=True
    )
    doc = write_record(state, names(state.num_players))
    assert len(doc["rounds"]) >= 3
    assert same(replay(doc).state, state)


def test_writing_reading_and_writing_again_gives_the_same_json() -> None:
    state = find_game(lambda s: len(s.results) >= 2 and any(s.reshuffles), target=100, long=True)
    text = json.dumps(write_record(state, names(state.num_players)))
    again = json.dumps(read_record(text).to_dict())
    assert again == text
    assert json.dumps(write_record(replay(again).state, names(state.num_players))) == text


def test_record_has_every_field_of_rules_section_5() -> None:
    state, doc = base_game()
    assert list(doc) == ["format", "players", "rules", "seed", "rounds"]
    assert doc["format"] == FORMAT == "skyjo-record/1"
    assert doc["players"] == ["Ana", "Ben", "Cleo"]
    assert doc["rules"] == {"target_score": 1, "ender_penalty": "positive"}
    assert doc["seed"] == 1
    (rnd,) = doc["rounds"]
    assert list(rnd) == ["deck", "reveals", "turns", "reshuffles"]
    assert sorted(rnd["deck"]) == list(DECK)
    assert rnd["deck"] == list(state.decks[0])
    assert len(rnd["reveals"]) == 3 and all(len(pair) == 2 for pair in rnd["reveals"])
    assert rnd["reshuffles"] == []
    for turn in rnd["turns"]:
        assert turn["take"] in ("deck", "discard")
        assert set(turn) in ({"take", "swap"}, {"take", "flip"})
        assert not (turn["take"] == "discard" and "flip" in turn)


def test_record_without_seed_holds_every_deck() -> None:
    seeded = random_game(2, 3, target=1)
    state = engine.new_game(2, deck=seeded.decks[0], rules=Rules(target_score=1))
    for action in engine.history(seeded):
        state = engine.step(state, action)
    doc = write_record(state, ["Ana", "Ben"])
    assert "seed" not in doc
    assert same(replay(doc).state, state)


def test_seeded_record_without_decks_nor_reshuffles_replays_from_the_seed() -> None:
    state = find_game(lambda s: len(s.results) >= 2 and any(s.reshuffles), target=100, long=True)
    doc = write_record(state, names(state.num_players))
    for rnd in doc["rounds"]:
        del rnd["deck"], rnd["reshuffles"]
    assert same(replay(doc).state, state)


def test_every_moment_of_a_game_round_trips() -> None:
    """A record may stop anywhere: in the reveals, in a round, between rounds,
    in the middle of a turn (RULES.md 5): replaying it gives the same state."""
    final = find_game(lambda s: len(s.results) >= 2, target=150)
    players = names(final.num_players)
    for state in states_of(final):
        doc = write_record(state, players)
        replayed = replay(json.dumps(doc)).state
        assert same(replayed, state)
        if state.held is not None:
            assert doc["rounds"][-1]["turns"][-1].keys() == {"take"}  # a half turn


def test_a_half_turn_that_reshuffled_keeps_its_reshuffle() -> None:
    final = find_game(lambda s: any(s.reshuffles), target=1, long=True)
    players = names(final.num_players)
    states = states_of(final)
    index = next(i for i, s in enumerate(states) if s.held is not None and s.draw_top == 1)
    before, held = states[index - 1], states[index]
    assert len(held.reshuffles[-1]) == len(before.reshuffles[-1]) + 1
    doc = write_record(held, players)
    assert doc["rounds"][-1]["reshuffles"] == [list(p) for p in held.reshuffles[-1]]
    replayed = replay(doc).state
    assert same(replayed, held)
    assert replayed.held == held.held and engine.legal_actions(replayed) == engine.legal_actions(
        held
    )


@pytest.mark.parametrize("take", ["deck", "discard"])
def test_a_half_turn_anywhere_but_at_the_very_end_is_an_error(take: str) -> None:
    final = find_game(lambda s: len(s.results) >= 1, target=150)
    doc = write_record(final, names(final.num_players))
    doc["rounds"][0]["turns"][-1] = {"take": take}  # the last turn of a round that goes on
    with pytest.raises(RecordError, match="only the very last turn of a record may be a half"):
        read_record(doc)


def test_write_record_checks_the_names() -> None:
    state, _ = base_game()
    with pytest.raises(RecordError, match="3 players but 2 names"):
        write_record(state, ["Ana", "Ben"])
    with pytest.raises(RecordError, match="Ana is repeated"):
        write_record(state, ["Ana", "Ana", "Cleo"])


# ---------------------------------------------------------------- games in progress


def test_record_stopped_in_the_middle_of_the_reveals() -> None:
    _, doc = base_game()
    rnd = doc["rounds"][0]
    (a, b), (c, _) = rnd["reveals"][:2]
    doc["rounds"] = [{"deck": rnd["deck"], "reveals": [[a, b], [c]], "turns": []}]
    result = replay(doc)
    state = result.state
    assert state.phase == Phase.REVEAL
    assert state.player == 1
    assert bin(state.hidden[0]).count("1") == 10 and bin(state.hidden[1]).count("1") == 11
    assert replay_summary(result) == {
        "rounds": [{"ender": None}],
        "totals": {"Ana": 0, "Ben": 0, "Cleo": 0},
        "finished": False,
        "winners": [],
    }
    assert write_record(state, names(3))["rounds"][0]["reveals"] == [[a, b], [c]]


def test_record_stopped_before_the_reveals() -> None:
    _, doc = base_game()
    doc["rounds"] = [{"deck": doc["rounds"][0]["deck"]}]
    assert replay(doc).state == engine.new_game(3, 1, Rules(target_score=1))


def test_record_stopped_in_a_round_with_an_ender() -> None:
    final = find_game(lambda s: True, target=1)
    players = names(final.num_players)
    state = next(s for s in states_of(final) if s.phase == Phase.FINAL_TURNS and s.held is None)
    summary = replay_summary(replay(write_record(state, players)))
    assert state.ender is not None
    assert summary["rounds"] == [{"ender": players[state.ender]}]
    assert summary["finished"] is False
    assert summary["winners"] == []
    assert summary["totals"] == dict.fromkeys(players, 0)


def test_record_stopped_between_rounds() -> None:
    final = find_game(lambda s: len(s.results) >= 2, target=150)
    players = names(final.num_players)
    state = next(s for s in states_of(final) if s.phase == Phase.ROUND_OVER)
    summary = replay_summary(replay(write_record(state, players)))
    (only,) = summary["rounds"]
    assert set(only) == {"ender", "raw", "scores"}
    assert summary["finished"] is False
    assert summary["totals"] == only["scores"]


def test_summary_agrees_with_the_scoresheet() -> None:
    """RULES.md 3 and 6: rounds, totals, finished and winners as the scorekeeper has them."""
    for seed in range(12):
        num_players = 2 + seed % 7
        state = random_game(num_players, seed, target=60 + seed)
        players = names(num_players)
        summary = replay_summary(replay(write_record(state, players)))
        rules = state.rules
        sheet = Scoresheet(tuple(players), rules.target_score)
        for rnd in summary["rounds"]:
            scored = score_round(rnd["raw"], rnd["ender"], rules.ender_penalty)
            assert scored.scores == rnd["scores"]
            sheet = sheet.add_round(scored)
        assert summary["totals"] == sheet.totals
        assert summary["finished"] is sheet.finished is True
        assert summary["winners"] == sheet.winners


def test_tied_winners_share_the_win() -> None:
    state = find_game(
        lambda s: len(set(s.totals)) < len(s.totals) and min(s.totals) == sorted(s.totals)[1],
        target=1,
    )
    players = names(state.num_players)
    summary = replay_summary(replay(write_record(state, players)))
    low = min(state.totals)
    assert summary["winners"] == [p for p, t in zip(players, state.totals, strict=True) if t == low]
    assert len(summary["winners"]) >= 2


def test_summary_uses_the_names_given() -> None:
    _, doc = base_game()
    summary = replay_summary(replay(doc), ["X", "Y", "Z"])
    assert list(summary["totals"]) == ["X", "Y", "Z"]
    with pytest.raises(RecordError, match="3 players but 2 names"):
        replay_summary(replay(doc), ["X", "Y"])


# ---------------------------------------------------------------- turns that do not replay


def test_flipping_a_face_up_card() -> None:
    _, doc = base_game()
    seat = starter_of(doc)
    name = NAMES[seat]
    row, col = doc["rounds"][0]["reveals"][seat][0]
    doc["rounds"][0]["turns"][0] = {"take": "deck", "flip": [row, col]}
    error = assert_error(
        doc,
        f"round 1, turn 1 ({name}): {name} cannot flip [{row}, {col}]:",
        "that card is already face up",
    )
    assert (error.round, error.turn, error.player) == (1, 1, name)
    assert "already face up" in error.reason


def _state_with_cleared_column() -> tuple[State, int]:
    """A state at the start of a turn whose player has a cleared column, and that column."""
    for seed in range(300):
        final = random_game(2 + seed % 7, seed, target=1)
        for state in states_of(final):
            if state.phase == Phase.TURNS and state.held is None and state.cleared[state.player]:
                mask = state.cleared[state.player]
                return state, next(c for c in range(4) if mask >> c & 1)
    raise AssertionError("no game clears a column")  # pragma: no cover


@pytest.mark.parametrize(
    ("take", "move", "verb"),
    [("deck", "swap", "exchange"), ("discard", "swap", "exchange"), ("deck", "flip", "flip")],
)
def test_placing_a_card_in_a_cleared_column(take: str, move: str, verb: str) -> None:
    state, col = _state_with_cleared_column()
    players = names(state.num_players)
    doc = write_record(state, players)
    turns = doc["rounds"][-1]["turns"]
    turns.append({"take": take, move: [1, col]})
    who = players[state.player]
    assert_error(
        doc,
        f"round {len(doc['rounds'])}, turn {len(turns)} ({who}):",
        f"{who} cannot {verb} [1, {col}]: that column is cleared",
    )


def test_a_turn_after_the_round_ended() -> None:
    _, doc = base_game()
    turns = doc["rounds"][0]["turns"]
    turns.append({"take": "deck", "swap": [0, 0]})
    assert_error(doc, f"round 1, turn {len(turns)}", "the round is over", "no turn may follow")


def test_a_turn_after_the_round_ended_not_the_game() -> None:
    state = find_game(lambda s: len(s.results) >= 2, target=150)
    final_round_one = next(s for s in states_of(state) if s.phase == Phase.ROUND_OVER)
    doc = write_record(final_round_one, names(state.num_players))
    turns = doc["rounds"][0]["turns"]
    turns.append({"take": "discard", "swap": [0, 0]})
    assert_error(doc, f"round 1, turn {len(turns)}:", "the round is over", "ended it")


def test_a_round_after_the_game_is_over() -> None:
    _, doc = base_game()
    doc["rounds"].append(copy.deepcopy(doc["rounds"][0]))
    assert_error(doc, "round 2:", "the game is over after round 1", "no round may follow")


def test_a_new_round_while_the_previous_one_is_unfinished() -> None:
    state = find_game(lambda s: len(s.results) >= 2, target=150)
    doc = write_record(state, names(state.num_players))
    doc["rounds"][0]["turns"].pop()
    assert_error(doc, "round 2:", "round 1 is unfinished", "last turn")
    doc["rounds"][0]["turns"] = doc["rounds"][0]["turns"][:3]
    assert_error(doc, "round 2:", "round 1 is unfinished", "nobody has ended it")


def test_a_reshuffle_left_unused() -> None:
    _, doc = base_game()
    doc["rounds"][0]["reshuffles"] = [[1, 2, 3]]
    assert_error(doc, "round 1:", "gives 1 reshuffle", "never ran out", "reshuffle 1 is never used")


def _reshuffled_record() -> tuple[State, Doc, int, int]:
    """A game with a reshuffle in round 1, its record, and the turn and seat of the draw."""
    state = find_game(lambda s: bool(s.reshuffles[0]), target=1, long=True)
    doc = write_record(state, names(state.num_players))
    states = states_of(state)
    index = next(i for i, s in enumerate(states) if s.held is not None and s.draw_top == 1)
    turn = (index - 2 * state.num_players + 1) // 2
    return state, doc, turn, states[index].player


def test_a_wrong_reshuffle_pile() -> None:
    _, doc, turn, seat = _reshuffled_record()
    pile = doc["rounds"][0]["reshuffles"][0]
    pile[0] = 12 if pile[0] != 12 else -2
    who = NAMES[seat]
    assert_error(
        doc, f"round 1, turn {turn} ({who}): reshuffle 1 is not the discard pile less its top card"
    )
    doc["rounds"][0]["reshuffles"][0] = pile[1:]
    assert_error(
        doc, f"round 1, turn {turn} ({who}):", f"gives {len(pile) - 1} cards for {len(pile)}"
    )


def test_a_reshuffle_in_another_order_replays() -> None:
    _, doc, turn, _ = _reshuffled_record()
    rnd = doc["rounds"][0]
    pile = rnd["reshuffles"][0][::-1]
    doc["rounds"] = [dict(rnd, turns=rnd["turns"][:turn], reshuffles=[pile])]
    assert replay(doc).state.reshuffles == ((tuple(pile),),)


def test_a_missing_reshuffle_without_seed() -> None:
    _, doc, turn, seat = _reshuffled_record()
    del doc["seed"]
    doc["rounds"][0]["reshuffles"] = []
    who = NAMES[seat]
    assert_error(doc, f"round 1, turn {turn} ({who}):", "empty draw pile", "no reshuffle 1")
    del doc["rounds"][0]["reshuffles"]
    assert_error(doc, f"round 1, turn {turn} ({who}):", "empty draw pile")


def test_a_missing_reshuffle_with_a_seed_is_shuffled_from_it() -> None:
    state, doc, _, _ = _reshuffled_record()
    doc["rounds"][0]["reshuffles"] = []
    assert same(replay(doc).state, state)


def test_a_turn_that_names_the_wrong_player() -> None:
    _, doc = base_game()
    seat = starter_of(doc)
    other = NAMES[(seat + 1) % 3]
    doc["rounds"][0]["turns"][0]["player"] = other
    error = assert_error(
        doc,
        f"round 1, turn 1 ({NAMES[seat]}): the turn names {other}, but it is {NAMES[seat]}'s turn",
    )
    assert error.player == NAMES[seat]


def test_turns_that_name_the_right_players_replay() -> None:
    state, doc = base_game()
    states = [
        s
        for s in states_of(state)
        if s.phase in (Phase.TURNS, Phase.FINAL_TURNS) and s.held is None
    ]
    for turn, s in zip(doc["rounds"][0]["turns"], states, strict=True):
        turn["player"] = NAMES[s.player]
    assert same(replay(doc).state, state)
    assert read_record(doc).to_dict() == doc


def test_an_unknown_player_in_a_turn() -> None:
    _, doc = base_game()
    doc["rounds"][0]["turns"][4]["player"] = "Zed"
    assert_error(doc, "round 1, turn 5:", 'unknown player "Zed"', "Ana, Ben, Cleo")


# ---------------------------------------------------------------- malformed records


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: tuple[Any, ...]) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


R0 = ("rounds", 0)
T0 = ("rounds", 0, "turns", 0)

BAD_RECORDS: list[tuple[str, Callable[[Doc], object], tuple[str, ...]]] = [
    ("no format", _delete(("format",)), ('no "format"',)),
    (
        "wrong format",
        _set(("format",), "skyjo-record/2"),
        ('unknown record format "skyjo-record/2"',),
    ),
    ("unknown top key", _set(("date",), "today"), ('unknown key "date" in the record',)),
    ("no players", _delete(("players",)), ('no "players"',)),
    ("players not a list", _set(("players",), "Ana,Ben"), ("players must be a list",)),
    ("one player", _set(("players",), ["Ana"]), ("2 to 8 players, not 1",)),
    ("nine players", _set(("players",), list("ABCDEFGHI")), ("2 to 8 players, not 9",)),
    ("repeated player", _set(("players",), ["Ana", "Ben", "Ana"]), ("Ana is repeated",)),
    ("empty name", _set(("players",), ["Ana", "", "Cleo"]), ("non-empty string",)),
    ("blank name", _set(("players",), ["Ana", "  ", "Cleo"]), ("non-empty string",)),
    ("name not a string", _set(("players",), ["Ana", 7, "Cleo"]), ("non-empty string, not 7",)),
    ("unknown rule", _set(("rules",), {"target": 50}), ("bad rules", "unknown rule 'target'")),
    ("bad penalty", _set(("rules", "ender_penalty"), "twice"), ("bad rules", "ender_penalty")),
    ("bad target", _set(("rules", "target_score"), "100"), ("bad rules", "target_score")),
    ("rules not an object", _set(("rules",), [100]), ("bad rules", "rules must be an object")),
    ("seed a string", _set(("seed",), "42"), ('the seed must be an integer, not "42"',)),
    ("seed a float", _set(("seed",), 4.5), ("the seed must be an integer, not 4.5",)),
    ("seed a boolean", _set(("seed",), True), ("the seed must be an integer, not true",)),
    ("no rounds", _delete(("rounds",)), ('no "rounds"',)),
    ("empty rounds", _set(("rounds",), []), ("at least one round",)),
    ("round not an object", _set(R0, [1, 2]), ("round 1:", "a round must be an object")),
    (
        "unknown round key",
        _set((*R0, "cards"), []),
        ("round 1:", 'unknown key "cards" in the round'),
    ),
    (
        "short deck",
        lambda d: d["rounds"][0]["deck"].pop(),
        ("round 1:", "not the 150 Skyjo cards", "149 cards"),
    ),
    ("wrong card", _set((*R0, "deck", 0), 13), ("round 1:", "not the 150 Skyjo cards")),
    ("deck not cards", _set((*R0, "deck", 0), "7"), ("round 1:", "a deck holds card values")),
    ("deck not a list", _set((*R0, "deck"), 5), ("round 1:", "a deck must be a list")),
    (
        "reveals not a list",
        _set((*R0, "reveals"), {}),
        ("round 1, reveals:", "reveals must be a list"),
    ),
    (
        "too many reveals",
        lambda d: d["rounds"][0]["reveals"].append([[0, 0], [0, 1]]),
        ("round 1, reveals:", "list 4 players, but the game has 3"),
    ),
    (
        "one reveal pair short",
        lambda d: d["rounds"][0]["reveals"].pop(),
        ("round 1, reveals:", "only 2 of the 3 players", "turns follow"),
    ),
    (
        "one card short",
        lambda d: d["rounds"][0]["reveals"][2].pop(),
        ("round 1, reveals:", "only 2 of the 3 players"),
    ),
    (
        "a card short mid-way",
        lambda d: d["rounds"][0]["reveals"][1].pop(),
        ("round 1, reveals (Ben):", "Ben turns up one card only"),
    ),
    (
        "three reveals",
        lambda d: d["rounds"][0]["reveals"][1].append([2, 2]),
        ("round 1, reveals (Ben):", "Ben must turn up two positions"),
    ),
    (
        "same card twice",
        _set((*R0, "reveals", 1), [[1, 1], [1, 1]]),
        ("round 1, reveals (Ben): Ben turns up [1, 1] twice",),
    ),
    (
        "reveal off the grid",
        _set((*R0, "reveals", 2, 0), [3, 0]),
        ("round 1, reveals (Cleo):", "[3, 0] is off the grid"),
    ),
    (
        "reveal not a position",
        _set((*R0, "reveals", 2, 0), "a1"),
        ("round 1, reveals (Cleo):", 'must be [row, col], two integers, not "a1"'),
    ),
    ("turns not a list", _set((*R0, "turns"), {}), ("round 1:", "turns must be a list")),
    ("turn not an object", _set(T0, "deck"), ("round 1, turn 1:", "a turn must be an object")),
    (
        "row off the grid",
        _set((*T0, "swap"), [3, 0]),
        ("round 1, turn 1:", "[3, 0] is off the grid"),
    ),
    (
        "column off the grid",
        _set((*T0, "swap"), [0, 4]),
        ("round 1, turn 1:", "[0, 4] is off the grid"),
    ),
    ("negative row", _set((*T0, "swap"), [-1, 0]), ("round 1, turn 1:", "[-1, 0] is off the grid")),
    ("one number", _set((*T0, "swap"), [1]), ("round 1, turn 1:", "two integers, not [1]")),
    (
        "three numbers",
        _set((*T0, "swap"), [1, 2, 3]),
        ("round 1, turn 1:", "two integers, not [1, 2, 3]"),
    ),
    (
        "float position",
        _set((*T0, "swap"), [1.0, 2]),
        ("round 1, turn 1:", "two integers, not [1.0, 2]"),
    ),
    (
        "boolean position",
        _set((*T0, "swap"), [True, 0]),
        ("round 1, turn 1:", "two integers, not [true, 0]"),
    ),
    (
        "flip off the grid",
        _set(T0, {"take": "deck", "flip": [0, 4]}),
        ("round 1, turn 1:", "flipped position [0, 4] is off the grid"),
    ),
    (
        "unknown take",
        _set(T0, {"take": "hand", "swap": [0, 0]}),
        ("round 1, turn 1:", 'unknown take "hand"'),
    ),
    (
        "take not a string",
        _set(T0, {"take": ["deck"], "swap": [0, 0]}),
        ("round 1, turn 1:", 'unknown take ["deck"]'),
    ),
    ("no take", _set(T0, {"swap": [0, 0]}), ("round 1, turn 1:", "does not say what it takes")),
    (
        "exchanges and flips",
        _set(T0, {"take": "deck", "swap": [0, 0], "flip": [1, 1]}),
        ("round 1, turn 1:", "both exchanges and flips"),
    ),
    (
        "discard and flip",
        _set(T0, {"take": "discard", "flip": [1, 1]}),
        ("round 1, turn 1:", "takes the discard and flips", "must be exchanged"),
    ),
    ("neither", _set(T0, {"take": "deck"}), ("round 1, turn 1:", "neither exchanges nor flips")),
    (
        "unknown turn key",
        _set(T0, {"take": "deck", "swap": [0, 0], "card": 5}),
        ("round 1, turn 1:", 'unknown key "card" in a turn'),
    ),
    (
        "unknown player",
        _set(T0, {"player": "Zed", "take": "deck", "swap": [0, 0]}),
        ("round 1, turn 1:", 'unknown player "Zed"'),
    ),
    (
        "player not a string",
        _set(T0, {"player": 1, "take": "deck", "swap": [0, 0]}),
        ("round 1, turn 1:", "unknown player 1"),
    ),
    (
        "reshuffles not a list",
        _set((*R0, "reshuffles"), 3),
        ("round 1:", "reshuffles must be a list"),
    ),
    (
        "reshuffle not a list",
        _set((*R0, "reshuffles"), [3]),
        ("round 1:", "reshuffle 1 must be a list"),
    ),
    (
        "reshuffle not cards",
        _set((*R0, "reshuffles"), [[3, "x"]]),
        ("round 1:", 'reshuffle 1 holds "x", not a card value'),
    ),
    (
        "no deck and no seed",
        lambda d: (d.pop("seed"), d["rounds"][0].pop("deck")),
        ("round 1:", "no deck, and the record has no seed"),
    ),
]


@pytest.mark.parametrize(
    ("change", "fragments"), [c[1:] for c in BAD_RECORDS], ids=[c[0] for c in BAD_RECORDS]
)
def test_a_malformed_record_is_refused_by_read_record(
    change: Callable[[Doc], None], fragments: tuple[str, ...]
) -> None:
    _, doc = base_game()
    change(doc)
    with pytest.raises(RecordError) as caught:
        read_record(json.dumps(doc))
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            "{",
            "not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2",
        ),
        ('{"format": "skyjo-record/1",}', "not valid JSON"),
        ("", "not valid JSON: Expecting value at line 1, column 1"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ('{"seed": NaN}', "NaN is not a JSON number"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        (b"\xff\xfe\xfa", "not valid JSON"),
        ("[]", "a game record must be a JSON object, not a list"),
        ("42", "a game record must be a JSON object, not a number"),
        ("null", "a game record must be a JSON object, not null"),
        ('"record"', "a game record must be a JSON object, not a string"),
    ],
)
def test_malformed_json(text: str | bytes, fragment: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert fragment in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_record_that_is_too_large() -> None:
    for data in (" " * (MAX_RECORD_BYTES + 1), b" " * (MAX_RECORD_BYTES + 1)):
        with pytest.raises(RecordError, match="too large"):
            read_record(data)


def test_reading_bytes_str_and_objects_agree() -> None:
    _, doc = base_game()
    text = json.dumps(doc)
    assert read_record(text) == read_record(text.encode()) == read_record(doc)
    assert isinstance(read_record(doc), Record)


def test_optional_parts_of_a_record() -> None:
    """RULES.md 5: `rules` is optional (all defaults), and so are `reshuffles`;
    a round with no `reveals`/`turns` has none yet; `seed` may be null."""
    _, doc = base_game()
    del doc["rules"]
    doc["seed"] = None
    del doc["rounds"][0]["reshuffles"]
    record = read_record(doc)
    assert record.rules == Rules()
    assert record.seed is None
    assert replay(record).state.rules == Rules()


def test_load_record_reads_a_file(tmp_path: Any) -> None:
    state, doc = base_game()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    assert same(replay(load_record(path)).state, state)
    with pytest.raises(RecordError, match=r"cannot read .*missing\.json"):
        load_record(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path)


def test_record_error_str_is_one_line_naming_round_turn_and_reason() -> None:
    error = RecordError("Ben cannot flip [0, 1]:\nthat card is already face up", 2, 7, "Ben")
    assert (
        str(error) == "round 2, turn 7 (Ben): Ben cannot flip [0, 1]: that card is already face up"
    )
    assert isinstance(error, ValueError)
    assert str(RecordError("bad", 1, "reveals", "Ana")) == "round 1, reveals (Ana): bad"
    assert str(RecordError("bad", 3)) == "round 3: bad"
    assert str(RecordError("bad")) == "bad"


def test_replay_applies_the_record_action_by_action() -> None:
    """The replayed history is the reveals, then the turns, NEXT_ROUND between rounds."""
    state = find_game(lambda s: len(s.results) >= 2, target=150)
    doc = write_record(state, names(state.num_players))
    actions: list[int] = []
    for number, rnd in enumerate(doc["rounds"]):
        if number:
            actions.append(NEXT_ROUND)
        actions += [REVEAL + 4 * r + c for pair in rnd["reveals"] for r, c in pair]
        for turn in rnd["turns"]:
            actions.append(DRAW if turn["take"] == "deck" else engine.TAKE_DISCARD)
            r, c = turn.get("swap") or turn["flip"]
            actions.append((SWAP if "swap" in turn else FLIP) + 4 * r + c)
    assert engine.history(replay(doc).state) == actions


def test_a_record_that_is_not_utf8_is_refused() -> None:
    _, doc = base_game()
    text = json.dumps(doc).replace('"Ana"', '"An\u00e9"')
    assert replay(text.encode()).record.players[0] == "An\u00e9"  # UTF-8 is fine
    for raw in (text.encode().replace(b"An\xc3\xa9", b"An\xe9"), text.encode("utf-16")):
        with pytest.raises(RecordError, match="not UTF-8 text"):
            read_record(raw)


@pytest.mark.parametrize("name", ["\\ud800", "A\\udfffB"])
def test_a_name_with_a_lone_surrogate_is_refused(name: str) -> None:
    _, doc = base_game()
    text = json.dumps(doc).replace('"Ana"', f'"{name}"')
    for data in (text, text.encode(), json.loads(text)):
        with pytest.raises(RecordError, match="lone surrogate"):
            read_record(data)


def test_a_number_too_long_is_named_not_pythons_message() -> None:
    _, doc = base_game()
    text = json.dumps(doc).replace('"seed": 1', '"seed": ' + "9" * 5000)
    assert "9" * 5000 in text
    with pytest.raises(RecordError, match="a number of 5000 digits is too long") as caught:
        read_record(text)
    assert "4300" not in str(caught.value)


# ---------------------------------------------------------------- the stepwise replayer


def test_steps_walk_every_action_with_the_engines_events() -> None:
    """`steps` yields the first deal, then one step per engine action of the
    history (RULES.md 5), ending on `replay`'s state; a reshuffle of the record
    opens its draw's step with the engine's `reshuffled` event (RULES.md 2.7),
    and each later round's deal is a `NEXT_ROUND` step with `dealt`."""
    state = find_game(lambda s: len(s.results) >= 2 and any(s.reshuffles), target=100, long=True)
    for doc in (write_record(state, names(state.num_players)), _without_seed(state)):
        walked = list(steps(doc))
        assert walked[0].action is None and walked[0].events == ()
        assert [s.action for s in walked[1:]] == engine.history(state)
        assert same(walked[-1].state, replay(doc).state)
        for before, after in itertools.pairwise(walked):
            assert after.seat == before.state.player
            kinds = [e.kind for e in after.events]
            assert (after.action == NEXT_ROUND) == (kinds == ["dealt"])
            if "reshuffled" in kinds:
                assert after.action == DRAW and kinds[:2] == ["reshuffled", "drew"]
        reshuffled = sum(e.kind == "reshuffled" for s in walked for e in s.events)
        assert reshuffled == sum(map(len, state.reshuffles))


def _without_seed(state: State) -> Doc:
    doc = write_record(state, names(state.num_players))
    del doc["seed"]
    return doc


def test_a_record_error_carries_the_kind_and_params_of_its_reason() -> None:
    """An illegal move carries the engine's kind (`engine.why_illegal`); the
    record's own checks carry theirs; `str()` is the one line it always was."""
    _, doc = base_game()
    seat = starter_of(doc)
    row, col = doc["rounds"][0]["reveals"][seat][0]
    doc["rounds"][0]["turns"][0] = {"take": "deck", "flip": [row, col]}
    error = error_of(doc)
    assert (error.kind, error.params) == ("flip_face_up", {"seat": seat, "position": [row, col]})
    _, doc = base_game()
    doc["rounds"][0]["reshuffles"] = [[1, 2, 3]]
    assert (error_of(doc).kind, error_of(doc).params) == (
        "reshuffle_unused",
        {"given": 1, "used": 0},
    )
    assert error_of({"format": "x"}).kind == "format_unknown"
    assert error_of("{").kind == "json_invalid"
