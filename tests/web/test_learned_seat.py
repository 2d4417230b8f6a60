"""The `learned` bot at a web table: a level of the ladder the pages offer (named
in every language), and a seat it plays, move for move as its policy chooses."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from i18n_js import sentence_tables
from policies import write_policy  # tests/policies.py
from webapp import serving
from webclient import Conn, create_room, play_game

from skyjo.bots import BotError, make_bot
from skyjo.bots import learned as learned_module
from skyjo.bots.learned import load_policy
from skyjo.engine import new_game, step
from skyjo.observation import observe
from skyjo.rules import MAX_PLAYERS
from skyjo.web import app as web_app
from skyjo.web.settings import LADDER

I18N = Path(web_app.__file__).parent / "static" / "i18n.js"


def test_the_ladder_offers_learned_named_in_every_language() -> None:
    assert LADDER.index("learned") == LADDER.index("expected") + 1 == LADDER.index("search") - 1
    for prefix in ("level", "levelShort"):
        tables = sentence_tables(I18N, prefix)
        assert set(tables) == {"en", "es", "fr", "de"}
        for language, table in tables.items():
            missing = [level for level in LADDER if not table.get(level)]
            assert not missing, (prefix, language, missing)


def test_a_human_plays_a_whole_game_against_a_learned_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a shipped policy (here a small random one), a room's `learned` seat
    plays every one of its moves as that policy chooses."""
    shipped = write_policy(tmp_path / "learned.npz", slots=4, seed=8)
    monkeypatch.setattr(learned_module, "SHIPPED", shipped)
    with serving() as client:
        facts = client.get("/api/health").json()
        assert "learned" in facts["bots"]
        seats = [{"name": "Ana"}, {"bot": "learned"}, {"bot": "greedy"}]
        host = create_room(client, seats, rules={"target_score": 30})
        ana = Conn(client, host["code"])
        state = ana.hello(host["token"])
        assert state["seats"][1]["name"] == "Learned bot" and state["seats"][1]["bot"] == "learned"
        play_game(ana, {0: ana}, random.Random(4))
        match = client.app.state.lobby.rooms[host["code"]].match  # type: ignore[attr-defined]
        assert match.over
    policy = load_policy(shipped)
    replayed = new_game(3, seed=match.secret, rules=match.rules)
    moves = 0
    for action in match.state.history:
        if replayed.player == 1 and observe(replayed, 1).legal_actions:
            assert action == policy.choose(observe(replayed, 1))
            moves += 1
        replayed = step(replayed, action)
    assert replayed == match.state and moves > 10


def test_the_shipped_policy_seats_every_table_a_room_may_have() -> None:
    """A room seats 2 to 8 players, and its `learned` seats play the shipped
    policy: that policy, once shipped, has a slot for each of 8 seats (a
    smaller one would refuse a larger table's first move). Until it is
    shipped, `learned` says it is missing."""
    if learned_module.SHIPPED.is_file():
        policy = load_policy(learned_module.SHIPPED)
        assert policy.slots == MAX_PLAYERS, policy.slots
        policy.check_table(MAX_PLAYERS)
    else:
        with pytest.raises(BotError, match="shipped policy is missing"):
            make_bot("learned", 1)
