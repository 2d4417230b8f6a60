"""Simulations: bot tournaments, their statistics and reports.

- `skyjo.sim.tournament`: seeded, seat-rotated tournaments played on every
  core (or on a Ray cluster, `skyjo.sim.ray_backend`), results files, and the
  luck-versus-skill study;
- `skyjo.sim.stats`: wins shared as fractions, Wilson intervals, scores,
  OpenSkill ratings;
- `skyjo.sim.report`: Matplotlib plots and a Markdown report from a results file.

    config = make_config("greedy,random", players=4, games=100, seed=1)
    result = run_tournament(config, workers=2)
    result.summary["bots"][0]["win_rate"]
"""

from skyjo.sim.tournament import (
    GameResult,
    StudyResult,
    TournamentConfig,
    TournamentError,
    TournamentResult,
    load_results,
    luck_configs,
    make_config,
    run_luck_study,
    run_tournament,
    save_results,
)

__all__ = [
    "GameResult",
    "StudyResult",
    "TournamentConfig",
    "TournamentError",
    "TournamentResult",
    "load_results",
    "luck_configs",
    "make_config",
    "run_luck_study",
    "run_tournament",
    "save_results",
]
