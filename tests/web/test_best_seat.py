"""The `best` bot at a web table: a level of the ladder the pages offer (named
in every language, between `expected` and `search`), and a seat it plays with
the shipped value, move for move as the bot chooses."""

from __future__ import annotations

import random
from pathlib import Path

from i18n_js import sentence_tables
from webapp import serving
from webclient import Conn, create_room, play_game

from skyjo.bots import make_bot
from skyjo.engine import new_game, step
from skyjo.observation import observe
from skyjo.seeds import bot_seed
from skyjo.web import app as web_app
from skyjo.web.settings import LADDER

I18N = Path(web_app.__file__).parent / "static" / "i18n.js"


def test_the_ladder_offers_best_named_in_every_language() -> None:
    assert LADDER.index("best") == LADDER.index("expected") + 1 == LADDER.index("search") - 1
    for prefix in ("level", "levelShort"):
        tables = sentence_tables(I18N, prefix)
        assert set(tables) == {"en", "es", "fr", "de"}
        for language, table in tables.items():
            missing = [level for level in LADDER if not table.get(level)]
            assert not missing, (prefix, language, missing)
            assert set(table) == set(LADDER), (prefix, language, sorted(set(table) - set(LADDER)))


def test_a_human_plays_a_whole_game_against_a_best_seat() -> None:
    """A room's `best` seat plays the shipped value (skyjo/bots/data/value.npz):
    every one of its moves is the one `best`, seeded as the match seeds it,
    chooses."""
    with serving() as client:
        facts = client.get("/api/health").json()
        assert "best" in facts["bots"]
        seats = [{"name": "Ana"}, {"bot": "best"}, {"bot": "greedy"}]
        host = create_room(client, seats, rules={"target_score": 30})
        ana = Conn(client, host["code"])
        state = ana.hello(host["token"])
        assert state["seats"][1]["name"] == "Best bot" and state["seats"][1]["bot"] == "best"
        play_game(ana, {0: ana}, random.Random(4))
        match = client.app.state.lobby.rooms[host["code"]].match  # type: ignore[attr-defined]
        assert match.over
    bot = make_bot("best", bot_seed(match.secret, 1))
    replayed = new_game(3, seed=match.secret, rules=match.rules)
    moves = 0
    for action in match.state.history:
        if replayed.player == 1 and observe(replayed, 1).legal_actions:
            assert action == bot.choose(observe(replayed, 1))
            moves += 1
        replayed = step(replayed, action)
    assert replayed == match.state and moves > 10
