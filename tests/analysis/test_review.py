"""The coach's review (`skyjo.analysis`, `skyjo review`; RULES.md 6)."""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import assert_bad_input
from typer.testing import CliRunner, Result

from skyjo.analysis import check, review
from skyjo.analysis.rating import LABEL_NAMES, LABELS, accuracy, label_of
from skyjo.analysis.reasons import TEMPLATES, Why, text
from skyjo.analysis.review import expected_scores
from skyjo.bots import make_bot
from skyjo.cli import app
from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    SWAP,
    Phase,
    State,
    step,
)
from skyjo.match import Match, Seat
from skyjo.observation import FACE_DOWN, FACE_UP, Observation, observe
from skyjo.replayer import steps
from skyjo.rules import COLUMN_PARTNERS, GRID_SIZE, Rules

Doc = dict[str, Any]
review_module = importlib.import_module("skyjo.analysis.review")


def play(specs: list[str], seed: int, rounds: int = 1, planted: Any = None) -> Doc:
    """A record of `rounds` rounds of bots (`planted`: a wrapper of seat 0's
    bot), stopped at the end of the last one."""

    def make(spec: str, bot_seed: int) -> Any:
        bot = make_bot(spec, bot_seed)
        return planted(bot) if planted is not None and spec == specs[0] else bot

    seats = [Seat(f"{spec.split(':')[0]}{i}", spec) for i, spec in enumerate(specs)]
    match = Match(seats, Rules(target_score=1000), seed, make=make, record_events=False)
    while len(match.state.results) < rounds:
        match.advance(1)
    return match.record()


@pytest.fixture(scope="module")
def game() -> Doc:
    return play(["expected", "greedy"], seed=3, rounds=3)


@pytest.fixture(scope="module")
def reviewed(game: Doc) -> Doc:
    return review(game, worlds=50).to_dict()


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})


def test_every_decision_of_every_player_is_rated_as_the_contract_says(
    game: Doc, reviewed: Doc
) -> None:
    rounds = game["rounds"]
    expected = sum(2 * len(r["turns"]) + sum(len(p) for p in r["reveals"]) for r in rounds)
    decisions = reviewed["decisions"]
    assert len(decisions) == expected
    for d in decisions:
        assert d["part"] in ("reveal", "take", "place")
        assert d["label"] in LABEL_NAMES
        assert d["loss"] >= 0 and d["win_lost"] >= 0
        assert d["reason"]
        turns = rounds[d["round"]]["turns"]
        if d["part"] == "reveal":
            assert d["turn"] is None
        else:
            turn = turns[d["turn"]]
            assert d["player"] == game["players"][d["seat"]]
            if d["part"] == "take":
                assert d["move"] == {"take": turn["take"]}
            else:
                assert d["move"] == {k: turn[k] for k in ("swap", "flip") if k in turn}
        points = [o["points"] for o in d["options"]]
        assert points == sorted(points)
        assert d["loss"] == pytest.approx(d["points"] - min(d["points"], points[0]), abs=0.02)
    seats = [p["seat"] for p in reviewed["players"]]
    assert seats == [0, 1]
    for p in reviewed["players"]:
        assert 0 <= p["accuracy"] <= 100
        mine = [d for d in decisions if d["seat"] == p["seat"]]
        assert sum(p["labels"].values()) == len(mine)
        assert p["decisions"] + p["forced"] == len(mine)
        assert math.isfinite(p["luck"])


def test_one_seat_is_reviewed_alone_and_alike(game: Doc, reviewed: Doc) -> None:
    alone = review(game, seats=[1], worlds=50).to_dict()
    assert [p["name"] for p in alone["players"]] == ["greedy1"]
    assert alone["decisions"] == [d for d in reviewed["decisions"] if d["seat"] == 1]
    assert alone["players"][0] == reviewed["players"][1]


def test_the_command_prints_the_review(game: Doc, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    result = run("review", str(path), "--seat", "greedy1", "--worlds", "0", "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert [p["name"] for p in document["players"]] == ["greedy1"]
    assert all(d["check"] is None for d in document["decisions"])
    text = run("review", str(path), "--worlds", "0")
    assert text.exit_code == 0
    assert "Players" in text.stdout and "expected0" in text.stdout and "greedy1" in text.stdout


def test_bad_input_is_refused_with_one_line(game: Doc, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    assert_bad_input(run("review", str(path), "--seat", "Bob"), "'Bob'", "expected0, greedy1")
    broken = dict(game, rounds=[dict(game["rounds"][0], turns=[{"take": "deck", "swap": [5, 0]}])])
    path.write_text(json.dumps(broken))
    assert_bad_input(run("review", str(path)), "round 1", "turn 1")


def _unseen_deck_indices(state: State, n: int) -> list[int]:
    """The deck indices (RULES.md 5: seat i's grid is deck[12i:12i+12]; the
    engine's draw pile is the deck from `draw_top` on, before a reshuffle) of
    the cards nobody has seen at `state`."""
    face_down = [i for i in range(GRID_SIZE * n) if (state.hidden_bits >> i) & 1]
    return face_down + list(range(state.draw_top, len(state.draw_pile)))


def test_a_rating_uses_only_what_the_player_saw(game: Doc) -> None:
    """Two records that agree up to a decision and differ afterwards (the
    unseen cards in another order) give that decision the same rating."""
    record = json.loads(json.dumps(game))
    turns = record["rounds"][0]["turns"]
    at = next(i for i, t in enumerate(turns) if i >= 6 and t["take"] == "deck")
    state = None
    for done in steps(dict(record, rounds=[dict(record["rounds"][0], turns=turns[:at])])):
        state = done.state
    assert state is not None
    deck = record["rounds"][0]["deck"]
    unseen = _unseen_deck_indices(state, len(record["players"]))
    drawn = state.draw_top  # the card drawn at turn `at`
    others = [i for i in unseen if i != drawn]
    values = [deck[i] for i in others]
    rng = np.random.default_rng(5)
    while [deck[i] for i in others] == values:
        rng.shuffle(values)
    other = list(deck)
    for i, v in zip(others, values, strict=True):
        other[i] = v
    assert other != deck
    cut = dict(record["rounds"][0], deck=other, turns=turns[: at + 1])
    cut.pop("reshuffles", None)
    changed = dict(record, rounds=[cut])
    one = review(game, worlds=50).decisions
    two = review(changed, worlds=50).decisions
    for part in ("take", "place"):
        a = next(d for d in one if d.round == 0 and d.turn == at and d.part == part)
        b = next(d for d in two if d.round == 0 and d.turn == at and d.part == part)
        assert a.options == b.options and a.chosen == b.chosen
        assert (a.loss, a.label, a.reason, a.best) == (b.loss, b.label, b.reason, b.best)
        assert a.check == b.check


class Planted:
    """A bot that plants two mistakes, once each: a drawn low card thrown away
    while a 10 or more lies face up, unpaired in its column, and a high card
    swapped in for a low face-up one."""

    name = "planted"

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.plants: dict[str, Observation] = {}  # each plant's observation

    def choose(self, obs: Observation) -> int:
        action = self.bot.choose(obs)
        held, me = obs.held, obs.current_player
        if held is None:
            return action
        up = [k for k in range(GRID_SIZE) if obs.status[me][k] == FACE_UP]
        down = [k for k in range(GRID_SIZE) if obs.status[me][k] == FACE_DOWN]
        high = any(
            (obs.cards[me][k] or 0) >= 10
            and all(obs.cards[me][o] != obs.cards[me][k] for o in COLUMN_PARTNERS[k])
            for k in up
        )
        if "thrown" not in self.plants and obs.source == "deck" and held <= 0 and down and high:
            self.plants["thrown"] = obs
            return FLIP + down[0]
        low = [k for k in up if (obs.cards[me][k] or 0) <= 1]
        if "swapped" not in self.plants and held >= 9 and low:
            self.plants["swapped"] = obs
            return SWAP + low[0]
        return action


def test_planted_mistakes_are_the_largest_losses_and_labelled_so() -> None:
    made: list[Planted] = []

    def planted(bot: Any) -> Planted:
        made.append(Planted(bot))
        return made[-1]

    seed = 0
    while not made or len(made[-1].plants) < 2:
        seed += 1
        record = play(["search:turns=400", "expected"], seed, rounds=2, planted=planted)
    planted_at = []
    prev = None
    for number, done in enumerate(steps(record)):
        if prev is not None and done.seat == 0 and observe(prev, 0) in made[-1].plants.values():
            planted_at.append(number)
        prev = done.state
    assert len(planted_at) == 2
    reviewed = review(record, seats=[0], worlds=100)
    ranked = sorted(reviewed.decisions, key=lambda d: -d.loss)
    planted = [d for d in reviewed.decisions if d.step in planted_at]
    assert {d.label for d in planted} <= {"mistake", "blunder"}, planted
    assert all(d in ranked[:3] for d in planted), ranked[:3]  # among the largest losses
    rest = [d for d in reviewed.decisions if d not in planted]
    assert sum(d.loss for d in rest) / len(rest) < 0.5  # search's own choices lose little
    assert len(rest) > 50


def test_a_choice_within_the_noise_is_never_a_mistake(
    game: Doc, monkeypatch: pytest.MonkeyPatch
) -> None:
    rated = review(game, seats=[1], worlds=50).decisions
    flagged = [d for d in rated if d.check is not None]
    assert flagged, "the game has choices worse than good"
    assert all(d.check.clear for d in flagged if d.label in ("inaccuracy", "mistake", "blunder"))
    noisy = check.Check(50, 0.4, -1.0, 1.8, (0.0, 0.0))
    monkeypatch.setattr(review_module.check, "compare", lambda *a, **k: noisy)
    again = review(game, seats=[1], worlds=50).decisions
    for before, after in zip(rated, again, strict=True):
        if before.check is not None:
            assert after.label == "good" and after.check == noisy
        else:
            assert after.label == before.label


def test_checks_share_their_worlds() -> None:
    """An option checked against itself differs by nothing in every world."""
    record = play(["expected", "expected"], seed=8)
    state = None
    for done in steps(record):
        if done.state.held is not None and done.state.source == DRAW:
            state = done.state
            break
    assert state is not None
    obs = observe(state, state.player)
    move = (obs.legal_actions[0],)
    same = check.compare(obs, move, move, worlds=60)
    assert same.difference == 0 and same.low == 0 == same.high
    assert not same.clear


def test_luck_follows_the_card_drawn(game: Doc) -> None:
    """A card drawn from the deck and put on a face-up card: a -2 or -1 is
    good luck, an 11 or 12 bad."""
    rated = iter(review(game, worlds=0).decisions)
    seen = {"good": 0, "bad": 0}
    prev = None
    for done in steps(game):
        if done.action is None or done.action == NEXT_ROUND:
            prev = done.state
            continue
        d = next(rated)
        assert prev is not None and d.action == done.action and d.seat == done.seat
        k = done.action - SWAP
        face_up = SWAP <= done.action < FLIP and not (prev.hidden[d.seat] >> k) & 1
        if prev.source == DRAW and face_up:
            assert d.luck is not None
            if prev.held <= -1:
                assert d.luck > 0
                seen["good"] += 1
            if prev.held >= 11:
                assert d.luck < 0
                seen["bad"] += 1
        prev = done.state
    assert seen["good"] and seen["bad"]


def test_no_luck_is_left_when_no_card_is_face_down() -> None:
    """`expected_scores` before the final reveal is the score itself when the
    only face-down card is the one the last move turns up."""
    record = play(["expected", "expected"], seed=4)
    prev = None
    found = 0
    for done in steps(record):
        if done.state.phase == Phase.ROUND_OVER:
            assert prev is not None and done.action is not None
            mover, k = prev.player, (done.action - SWAP) % GRID_SIZE
            bit = 1 << (GRID_SIZE * mover + k)
            known = prev._replace(hidden_bits=prev.hidden_bits & bit)
            expected = expected_scores(known, done.action)
            assert expected == pytest.approx(step(known, done.action).results[-1].scores)
            found += 1
        prev = done.state
    assert found == 1


def test_the_scales() -> None:
    assert [label_of(x) for x in (0, 0.05, 0.5, 2, 4, 9)] == [
        "best",
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert [name for name, _ in LABELS] == list(LABEL_NAMES)
    assert accuracy(0) == 100
    assert accuracy(1.0) == pytest.approx(63.6, abs=0.1)  # lichess's curve at 10% lost
    assert accuracy(2.0) == pytest.approx(40.0, abs=0.1)
    assert accuracy(30.0) == 0


def test_the_reasons_name_checkable_facts(reviewed: Doc) -> None:
    """A reason is a kind and params (a page words it in its language), and its English
    sentence; the noise of a check is said after it."""
    reasons = [d["reason"] for d in reviewed["decisions"] if d["label"] != "best"]
    assert any("on average now" in r for r in reasons)
    kinds = set()
    for d in reviewed["decisions"]:
        why = Why(d["why"]["kind"], d["why"]["params"])
        assert why.kind in TEMPLATES
        kinds.add(why.kind)
        assert d["reason"].startswith(text(why))
        noisy = d["check"] is not None and d["check"]["interval"][0] <= 0
        assert d["reason"].endswith("points)") or not noisy
        if d["label"] == "best":
            assert why.kind == "best" and d["reason"].startswith("the best option")
    assert len(kinds) >= 4
