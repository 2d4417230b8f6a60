"""The `best` bot (skyjo.bots.best): legal moves from what its seat sees, its
guard, its values per option, its files (and how a bad one is refused),
tournaments in worker processes, the terminal, and no PyTorch."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import numpy as np
import pytest
from played_states import states  # tests/played_states.py
from typer.testing import CliRunner

from skyjo.bots import BotError, bot_names, make_bot
from skyjo.bots import best as best_module
from skyjo.bots.best import BestBot, OptionValue, load_value
from skyjo.bots.expected import ExpectedBot
from skyjo.cli import app
from skyjo.engine import REVEAL, Phase, legal_actions
from skyjo.kernel import value
from skyjo.match import Match, Seat
from skyjo.observation import observe
from skyjo.rules import Rules
from skyjo.sim import make_config, run_tournament

ROOT = Path(__file__).resolve().parents[2]


def write_value(path: Path, seed: int = 0, hidden: int = 8) -> Path:
    """A small random value file."""
    rng = np.random.default_rng(seed)
    net = value.Net(
        **{
            name: (rng.standard_normal(shape) * 0.3).astype(np.float32)
            for name, shape in value.shapes(hidden, hidden, hidden).items()
        }
    )
    value.save(path, net, {"description": "test"})
    return path


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_value(tmp_path_factory.mktemp("value") / "v.npz")


def decisions(players: int, seed: int) -> list:
    return [
        s
        for s in states(players, 1, seed)
        if s.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER) and len(legal_actions(s)) > 1
    ]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_bot_plays_legal_actions_and_its_guard_keeps_the_prior(
    small: Path, players: int
) -> None:
    unguarded = make_bot(f"best:path={small},margin=-1", 1)
    for state in decisions(players, seed=players)[::9]:
        view = observe(state, state.player)
        assert unguarded.choose(view) in view.legal_actions
        if state.phase != Phase.REVEAL:  # no option is 2 better in chance to win
            never = make_bot(f"best:path={small},margin=2", 1)
            assert never.choose(view) == ExpectedBot(1).choose(view)


def test_options_are_the_decisions_values_best_first(small: Path) -> None:
    bot = make_bot(f"best:path={small},margin=-1", 3)
    assert isinstance(bot, BestBot)
    for state in decisions(2, seed=7)[::13]:
        view = observe(state, state.player)
        options = bot.options(view)
        assert options and all(isinstance(o, OptionValue) for o in options)
        assert all(o.action in view.legal_actions for o in options)
        assert all(0.0 <= o.win <= 1.0 for o in options)
        assert [o.win for o in options] == sorted((o.win for o in options), reverse=True)
        assert bot.choose(view) == options[0].action or state.phase == Phase.REVEAL
        if state.held is None and state.phase != Phase.REVEAL:  # take or draw
            assert len(options) == 2
    # no decision, no options
    over = next(s for s in states(2, 1, seed=7) if s.phase == Phase.ROUND_OVER)
    assert bot.options(observe(over, 0)) == []


def test_the_opening_reveals_are_the_value_s(small: Path) -> None:
    state = states(3, 1, seed=4)[0]
    assert state.phase == Phase.REVEAL
    choice = make_bot(f"best:path={small}", 1).choose(observe(state, state.player))
    assert REVEAL <= choice < REVEAL + 12


def test_a_value_file_is_read_once_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    path = write_value(tmp_path / "v.npz")
    first = load_value(path)
    os.symlink(path, tmp_path / "link.npz")
    assert load_value(tmp_path / "link.npz") is first
    with pytest.raises(BotError, match="cannot read value file"):
        make_bot(f"best:path={tmp_path / 'none.npz'}", 1)
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(BotError, match="not a value file"):
        make_bot(f"best:path={tmp_path / 'bad.npz'}", 1)
    np.savez(tmp_path / "other.npz", meta=np.array('{"format": "skyjo-policy/1"}'))
    with pytest.raises(BotError, match="not a value file"):
        make_bot(f"best:path={tmp_path / 'other.npz'}", 1)
    broken = value.load(path)[0]._replace(W2=np.full_like(first.W2, np.nan))
    value.save(tmp_path / "nan.npz", broken, {})
    with pytest.raises(BotError, match="W2 holds numbers that are not finite"):
        make_bot(f"best:path={tmp_path / 'nan.npz'}", 1)
    with pytest.raises(BotError, match="depth must be one of shallow, full"):
        make_bot(f"best:path={path},depth=deep", 1)


def test_the_shipped_value_is_package_data() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = value.SHIPPED.relative_to(ROOT / "src" / "skyjo").as_posix()
    patterns = pyproject["tool"]["setuptools"]["package-data"]["skyjo"]
    assert any(fnmatch(shipped, pattern) for pattern in patterns), (shipped, patterns)
    assert value.SHIPPED.is_file()
    _, meta = value.load(value.SHIPPED)
    assert meta["format"] == value.FORMAT
    assert make_bot("best", 1).net is load_value()  # type: ignore[attr-defined]
    assert best_module.MARGIN >= 0


def test_the_registry_names_it() -> None:
    assert "best" in bot_names()


def test_best_plays_whole_tournaments_in_worker_processes(small: Path) -> None:
    spec = f"best:path={small}"
    results = []
    for workers in (1, 2):
        config = make_config(
            [spec, "greedy", "random"], games=4, seed=1, rules=Rules(target_score=40)
        )
        result = run_tournament(config, workers=workers)
        row = next(b for b in result.summary["bots"] if b["bot"] == spec)
        assert row["seats"] == 4 and not row["incidents"]
        results.append([(g.index, g.totals) for g in result.games])
    assert results[0] == results[1]  # the same games, whatever the processes


def test_the_terminal_watches_best_play(small: Path) -> None:
    result = CliRunner().invoke(
        app, ["watch", "--bots", f"best:path={small},greedy", "--seed", "4", "--target", "30"]
    )
    assert result.exit_code == 0, result.output
    assert "Best" in result.output and "wins" in result.output


def test_playing_never_imports_torch(small: Path) -> None:
    """A whole game of the best bot, in a fresh interpreter."""
    script = (
        "import sys\n"
        "from skyjo.match import Match, Seat\n"
        "from skyjo.rules import Rules\n"
        f"match = Match([Seat('a', 'best:path={small}'), Seat('b', 'greedy')], seed=2,"
        " rules=Rules(target_score=30))\n"
        "while not match.over:\n"
        "    match.play_bot()\n"
        "print(match.state.phase, 'torch' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.split() == ["4", "False"], done.stdout + done.stderr


def test_a_long_round_ends(small: Path) -> None:
    """After PATIENCE turns of its own in a round the bot plays its prior, which
    hurries: two unguarded bots of a random value still finish their games."""
    spec = f"best:path={small},margin=-1"
    match = Match([Seat("a", spec), Seat("b", spec)], seed=5, rules=Rules(target_score=40))
    while not match.over:
        match.play_bot()
    assert match.state.phase == Phase.GAME_OVER


def test_search_reads_the_value_at_the_end_of_its_playouts(small: Path) -> None:
    """`search:value=...,horizon=H`: playouts cut after H turns of every
    player, valued by the learned value; legal moves, and a refusal without
    a horizon."""
    spec = f"search:value={small},horizon=1,turns=40"
    bot = make_bot(spec, 2)
    late = [s for s in decisions(2, seed=11) if s.phase != Phase.REVEAL][-12:]
    for state in late:
        view = observe(state, state.player)
        assert bot.choose(view) in view.legal_actions
    with pytest.raises(ValueError, match="value needs a horizon"):
        make_bot(f"search:value={small}", 2)


@pytest.mark.parametrize("spec", ["best", "search"])
def test_a_bot_plays_the_same_from_an_observation_read_back_from_json(spec: str) -> None:
    """The bot protocol's observation (JSON) reads back as it was (a cleared
    column's cards included), and the determinized bots play the same moves from it."""
    import json

    from skyjo.engine import new_game, step
    from skyjo.observation import Observation

    direct, read = make_bot(spec, 3), make_bot(spec, 3)
    state = new_game(2, seed=9, rules=Rules(target_score=60))
    while state.phase != Phase.GAME_OVER:
        view = observe(state, state.player)
        back = Observation.from_dict(json.loads(json.dumps(view.to_dict())))
        assert back == view
        action = direct.choose(view)
        assert read.choose(back) == action
        state = step(state, action)
