"""Games the first `expected` and `search` bots played, kept as data after the
bots were removed (their code is in the history, up to commit d24074d): the
engine replays every recorded action, legal where it was played, to the
recorded totals, reshuffles included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skyjo.engine import Phase, legal_actions, new_game, step
from skyjo.rules import Rules

FILES = sorted((Path(__file__).parent / "data" / "bot-games").glob("*.json"))


def test_the_games_are_there_one_with_reshuffles() -> None:
    assert [path.stem for path in FILES] == ["expected_v1", "search_v1"]
    assert any(game["reshuffles"] for game in json.loads(FILES[0].read_text())["games"])


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_the_engine_replays_each_game_to_its_recorded_totals(path: Path) -> None:
    games = json.loads(path.read_text())["games"]
    for game in games:
        rules = Rules.from_dict(game["rules"])
        state = new_game(game["players"], seed=game["seed"], rules=rules)
        for action in bytes.fromhex(game["actions"]):
            assert action in legal_actions(state), (game["seed"], len(state.history))
            state = step(state, action)
        assert state.phase == Phase.GAME_OVER
        assert list(state.totals) == game["totals"]
        if "reshuffles" in game:
            assert sum(map(len, state.reshuffles)) == game["reshuffles"]
