"""`skyjo report`: plots (PNG and SVG) and report.md from results files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from skyjo.cli import app
from skyjo.rules import Rules
from skyjo.sim import (
    StudyResult,
    load_results,
    luck_configs,
    make_config,
    run_luck_study,
    run_tournament,
    save_results,
)
from skyjo.sim.report import verdict, write_report

# The `test-low` bot (far better than random), registered while the results are made.
from test_tournament import registered_test_bots  # isort: skip

SHORT = Rules(target_score=40)
TOURNAMENT_PLOTS = ("win_rates", "score_distributions", "turn_curves")


def run(*args: str) -> Result:
    env = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
    return CliRunner().invoke(app, list(args), env=env)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A small tournament file and a small luck study file."""
    folder = tmp_path_factory.mktemp("results")
    tournament = folder / "results.json"
    study = folder / "luck.json"
    with registered_test_bots():
        config = make_config("test-low,random", players=3, games=6, seed=1, rules=SHORT)
        save_results(run_tournament(config, workers=1), tournament)
        configs = luck_configs("test-low,random", games=4, seed=1, max_players=4, rules=SHORT)
        save_results(run_luck_study(configs, workers=1), study)
    return tournament, study


def check_images(folder: Path, stems: tuple[str, ...]) -> None:
    for stem in stems:
        png = folder / f"{stem}.png"
        svg = folder / f"{stem}.svg"
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), png
        assert png.stat().st_size > 1000
        assert b"<svg" in svg.read_bytes()[:2000], svg


def test_report_command_writes_plots_and_markdown(
    results: tuple[Path, Path], tmp_path: Path
) -> None:
    tournament, _ = results
    out = tmp_path / "report"
    result = run("report", str(tournament), "--out-dir", str(out))
    assert result.exit_code == 0, result.stderr
    check_images(out, TOURNAMENT_PLOTS)
    markdown = (out / "report.md").read_text()
    for stem in TOURNAMENT_PLOTS:
        assert f"]({stem}.png)" in markdown and f"]({stem}.svg)" in markdown
    # every linked file exists, and the summary table is there
    for link in re.findall(r"\]\(([^)]+)\)", markdown):
        assert (out / link).stat().st_size > 0
    assert "| bot | seats | wins | win rate | 95% CI |" in markdown
    assert "| test-low |" in markdown and "| random |" in markdown
    assert "Wilson" in markdown and "Plackett-Luce" in markdown


def test_report_with_a_luck_study(results: tuple[Path, Path], tmp_path: Path) -> None:
    tournament, study = results
    written = write_report([tournament, study], tmp_path)
    assert written[-1] == tmp_path / "report.md"
    assert all(path.stat().st_size > 0 for path in written)
    check_images(tmp_path, (*TOURNAMENT_PLOTS, "luck"))
    markdown = (tmp_path / "report.md").read_text()
    assert "![Luck versus skill](luck.png)" in markdown
    assert "| players | games | wins | win rate | 95% CI | fair share | edge |" in markdown
    assert "| 4 | 4 |" in markdown
    loaded = load_results(study)
    assert isinstance(loaded, StudyResult)
    assert verdict(loaded) in markdown and "fair share" in verdict(loaded)


def test_report_json_lists_the_files(results: tuple[Path, Path], tmp_path: Path) -> None:
    _, study = results
    result = run("report", str(study), "--out-dir", str(tmp_path), "--json")
    assert result.exit_code == 0, result.stderr
    files = json.loads(result.stdout)["files"]
    assert [Path(f).name for f in files] == ["luck.png", "luck.svg", "report.md"]


def test_report_names_the_stalled_games(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    with registered_test_bots():
        config = make_config("test-stall", players=2, games=1, seed=1, rules=SHORT)
        save_results(run_tournament(config, workers=1), path)
    write_report([path], tmp_path)
    markdown = (tmp_path / "report.md").read_text()
    assert "Stalled games: 1 of 1, stopped in a round that would not end, and left out of " in (
        markdown
    )
    assert "games 0 (round 1)." in markdown


@pytest.mark.parametrize("content", [None, "{", '{"format": "skyjo-record/1"}'])
def test_report_bad_results_file(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content)
    result = run("report", str(path), "--out-dir", str(tmp_path / "out"))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("skyjo: error: ")
    assert str(path) in result.stderr
    assert not (tmp_path / "out").exists()  # nothing written


def test_report_needs_a_file() -> None:
    result = run("report")
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
