"""`skyjo watch` runs on the match driver: bot lists, seeds, the protocol's messages."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from skyjo.cli import app

runner = CliRunner()


def test_watch_reads_bot_options_as_the_tournament_does() -> None:
    result = runner.invoke(
        app, ["watch", "--bots", "search:turns=200,confidence=2,random", "--target", "1"]
    )
    assert result.exit_code == 0, result.stderr
    assert "Search 1" in result.stdout and "Random 2" in result.stdout


def test_without_a_seed_watch_draws_one_and_shows_it(tmp_path: Path) -> None:
    result = runner.invoke(app, ["watch", "--bots", "random,random", "--target", "1"])
    assert result.exit_code == 0, result.stderr
    seed = int(result.stdout.split("--seed ")[-1].split(")")[0])
    again = runner.invoke(
        app, ["watch", "--bots", "random,random", "--target", "1", "--seed", str(seed)]
    )
    assert again.stdout == result.stdout


def test_an_external_bot_gets_the_names_the_result_and_bye(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    bot = tmp_path / "bot.py"
    bot.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    log.write(json.dumps({'type': m['type'], 'players': m.get('players')}) + '\\n')\n"
        "    log.flush()\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'id': 0, 'type': 'ready'}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        action = m['legal_actions'][0]['id']\n"
        "        print(json.dumps({'id': m['id'], 'action': action}), flush=True)\n"
        "    elif m['type'] == 'bye':\n"
        "        break\n"
    )
    spec = f"external:command={sys.executable} {bot}"
    result = runner.invoke(app, ["watch", "--bots", f"{spec},random", "--target", "1"])
    assert result.exit_code == 0, result.stderr
    kinds = [json.loads(line) for line in log.read_text().splitlines()]
    assert kinds[0] == {"type": "hello", "players": ["External 1", "Random 2"]}
    assert [k["type"] for k in kinds[-2:]] == ["result", "bye"]


def test_a_tournament_without_a_seed_draws_a_fresh_one() -> None:
    args = ["tournament", "--bots", "random", "--games", "2", "--workers", "1", "--json"]
    seeds = {json.loads(runner.invoke(app, args).stdout)["seed"] for _ in range(2)}
    assert len(seeds) == 2


def test_outputs_in_a_file_or_a_read_only_folder_are_refused_before_any_game(
    tmp_path: Path,
) -> None:
    import os

    from skyjo.paths import check_writable

    a_file = tmp_path / "f"
    a_file.write_text("")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    cases = [(a_file / "x.json", "is a file, not a folder")]
    if os.geteuid() != 0:  # root writes anywhere
        cases.append((locked / "x.json", "may not be written"))
    for path, reason in cases:
        result = runner.invoke(app, ["watch", "--bots", "random,random", "--record", str(path)])
        assert result.exit_code == 2 and result.stdout == "" and reason in result.stderr
        result = runner.invoke(app, ["tournament", "--bots", "random", "--out", str(path)])
        assert result.exit_code == 2 and result.stdout == "" and reason in result.stderr
    assert check_writable(tmp_path / "ok.json", "--out") == tmp_path / "ok.json"


def test_replay_shows_a_half_turn_in_progress() -> None:
    record = Path(__file__).parent / "data" / "vectors" / "half-turn-2p.json"
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0, result.stderr
    assert "Round 2: in progress" in result.stdout
    assert "P0 holds the " in result.stdout or "P1 holds the " in result.stdout
    assert "taken from the deck, not yet placed" in result.stdout


def test_replay_reads_a_game_saved_by_play(tmp_path: Path) -> None:
    from skyjo.match import Match, Seat
    from skyjo.rules import Rules

    match = Match([Seat("Ana", "greedy"), Seat("Ben", "greedy")], Rules(target_score=1), 4)
    match.advance()
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(match.to_dict()))
    result = runner.invoke(app, ["replay", str(saved), "--json"])
    assert result.exit_code == 0, result.stderr
    totals = dict(zip(match.names, match.state.totals, strict=True))
    assert json.loads(result.stdout)["totals"] == totals
    (tmp_path / "other.json").write_text(json.dumps({"format": "skyjo-match/9"}))
    bad = runner.invoke(app, ["replay", str(tmp_path / "other.json")])
    assert bad.exit_code == 2 and "format" in bad.stderr
