"""Plots and a Markdown report from results files (`skyjo report`).

A tournament file (`skyjo tournament --out`) gives:

- `win_rates.png`/`.svg`: each bot's win rate with its 95% Wilson interval,
  against the fair share 1/players;
- `score_distributions.png`/`.svg`: final game scores and round scores, per bot;
- `turn_curves.png`/`.svg`: the mean grid value (what the seat would score
  if every card were turned up) after the deal and after each own turn.

A luck study file (`skyjo tournament --study luck --out`) gives `luck.png`/`.svg`:
the stronger bot's win rate against n-1 copies of the weaker, n = 2 to 8,
with the fair share 1/n.

`report.md` embeds them (PNG, with a link to the SVG) with the summary tables.
Stalled games (`skyjo.sim.stats`) are left out of the plots and named in the
report.
Matplotlib draws with the Agg backend, without pyplot's global state.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skyjo.sim.results import StudyResult, TournamentResult, load_results
from skyjo.sim.stats import CI_METHOD, RATING_MODEL, finished
from skyjo.sim.tournament import stronger_first

#: The image formats written for every plot.
FORMATS = ("png", "svg")
_RC = {"svg.hashsalt": "skyjo", "svg.fonttype": "path", "figure.dpi": 100}


def _figure(width: float = 7.0, height: float = 4.0) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="tight")


def _save(fig: Any, out_dir: Path, stem: str) -> list[Path]:
    import matplotlib

    written = []
    with matplotlib.rc_context(_RC):
        for fmt in FORMATS:
            path = out_dir / f"{stem}.{fmt}"
            metadata = {"Date": None} if fmt == "svg" else {"Software": None}
            fig.savefig(path, format=fmt, metadata=metadata)
            written.append(path)
    return written


def plot_win_rates(result: TournamentResult, out_dir: Path, stem: str = "win_rates") -> list[Path]:
    """Win rate per bot with its 95% interval, and the fair share 1/players."""
    bots = result.summary["bots"]
    labels = [b["bot"] for b in bots]
    rates = [b["win_rate"] for b in bots]
    low = [b["win_rate"] - b["win_rate_ci95"][0] for b in bots]
    high = [b["win_rate_ci95"][1] - b["win_rate"] for b in bots]
    fig = _figure(7.0, 1.2 + 0.6 * len(bots))
    ax = fig.add_subplot()
    ax.barh(labels, rates, xerr=[low, high], capsize=4, color="tab:blue", alpha=0.8)
    fair = 1 / result.config.players
    ax.axvline(fair, color="tab:red", linestyle="--", label=f"fair share 1/{result.config.players}")
    ax.invert_yaxis()
    ax.set_xlim(0, min(1.0, max(max(rates) + max(high, default=0) + 0.05, fair + 0.05)))
    ax.set_xlabel("win rate per seat (95% Wilson interval)")
    ax.set_title(f"Win rates, {result.config.games} games, {result.config.players} players")
    ax.legend(loc="lower right")
    return _save(fig, out_dir, stem)


def plot_score_distributions(
    result: TournamentResult, out_dir: Path, stem: str = "score_distributions"
) -> list[Path]:
    """Histograms per bot of final game scores and of round scores (finished games)."""
    game_scores: dict[str, list[int]] = defaultdict(list)
    round_scores: dict[str, list[int]] = defaultdict(list)
    for game in finished(result.games):
        for seat, label in enumerate(game.seats):
            game_scores[label].append(game.totals[seat])
            round_scores[label].extend(r.scores[seat] for r in game.rounds)
    fig = _figure(10.0, 4.0)
    left, right = fig.subplots(1, 2)
    for ax, data, title in (
        (left, game_scores, "Final game score"),
        (right, round_scores, "Round score (after the ender's penalty)"),
    ):
        values = [v for label in result.config.bots for v in data.get(label, [])]
        if not values:
            continue
        bins = _bins(min(values), max(values))
        for label in result.config.bots:
            if data.get(label):
                ax.hist(data[label], bins=bins, histtype="step", density=True, label=label)
        ax.set_title(title)
        ax.set_xlabel("score")
        ax.set_ylabel("share of seats")
        ax.legend()
    return _save(fig, out_dir, stem)


def _bins(low: int, high: int) -> list[float]:
    width = max(1, (high - low + 1) // 40)
    return [low - 0.5 + width * k for k in range((high - low) // width + 2)]


def plot_turn_curves(
    result: TournamentResult, out_dir: Path, stem: str = "turn_curves"
) -> list[Path]:
    """Mean grid value per bot after the deal (turn 0) and after each own turn."""
    curves = result.summary.get("turn_curves", {})
    fig = _figure()
    ax = fig.add_subplot()
    for label in result.config.bots:
        curve = curves.get(label)
        if curve and curve["mean"]:
            ax.plot(range(len(curve["mean"])), curve["mean"], marker=".", label=label)
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("own turns played in the round (0 = after the deal)")
    ax.set_ylabel("mean grid value (face-down cards counted)")
    ax.set_title("Round score over the turns")
    if curves:
        ax.legend()
    return _save(fig, out_dir, stem)


def plot_luck(study: StudyResult, out_dir: Path, stem: str = "luck") -> list[Path]:
    """The stronger bot's win rate against n-1 weaker bots, with the fair share 1/n."""
    points = sorted(study.points, key=lambda p: p["players"])
    counts = [p["players"] for p in points]
    rates = [p["win_rate"] for p in points]
    low = [p["win_rate"] - p["win_rate_ci95"][0] for p in points]
    high = [p["win_rate_ci95"][1] - p["win_rate"] for p in points]
    fig = _figure()
    ax = fig.add_subplot()
    ax.errorbar(counts, rates, yerr=[low, high], marker="o", capsize=4, label=study.strong)
    ax.plot(counts, [1 / n for n in counts], "--", color="tab:red", label="fair share 1/n")
    ax.set_xticks(counts)
    ax.set_ylim(0, 1)
    ax.set_xlabel("players (1 stronger bot, the others weaker)")
    ax.set_ylabel("stronger bot's win rate (95% Wilson interval)")
    ax.set_title(f"Luck versus skill: {study.strong} against {study.weak} ({study.games} games)")
    ax.legend()
    return _save(fig, out_dir, stem)


# --------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def format_wins(wins: float) -> str:
    """Wins, shared ones as a fraction: 12, 12.5, 12.33 (two decimals at most)."""
    return f"{wins:.2f}".rstrip("0").rstrip(".")


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def summary_rows(summary: dict[str, Any]) -> list[list[str]]:
    """The per-bot table, as text cells (shared by the report and the terminal)."""
    rows = []
    for b in summary["bots"]:
        low, high = b["win_rate_ci95"]
        rating = b["rating"]

        def num(value: float | None) -> str:
            return "-" if value is None else f"{value:.2f}"

        rows.append(
            [
                b["bot"],
                str(b["seats"]),
                format_wins(b["wins"]),
                _pct(b["win_rate"]),
                f"{_pct(low)} - {_pct(high)}",
                num(b["mean_round_score"]),
                num(b["mean_game_score"]),
                _pct(b["ended_rate"]),
                _pct(b["doubled_rate"]),
                f"{rating['mu']:.2f} ± {rating['sigma']:.2f}",
            ]
        )
    return rows


SUMMARY_HEADER = (
    "bot",
    "seats",
    "wins",
    "win rate",
    "95% CI",
    "mean round",
    "mean game",
    "ended rounds",
    "ends doubled",
    "rating mu ± sigma",
)


def _image(title: str, stem: str) -> list[str]:
    return [f"![{title}]({stem}.png)", "", f"[SVG]({stem}.svg)", ""]


def _tournament_section(result: TournamentResult, prefix: str) -> list[str]:
    config, summary = result.config, result.summary
    lines = [
        f"## Tournament: {', '.join(config.bots)}",
        "",
        f"{config.games} games, {config.players} players, seed {config.seed}; lineup "
        f"{', '.join(config.lineup)}, rotated one seat per game (seat s of game g plays "
        "lineup[(s + g) % players]).",
        f"Mean {summary['mean_rounds_per_game']:.2f} rounds and "
        f"{summary['mean_turns_per_game']:.1f} turns per game.",
        "",
        *_table(SUMMARY_HEADER, summary_rows(summary)),
        "",
        f"Wins shared by tied seats count as fractions. Win rate: wins per seat played; "
        f"interval: {CI_METHOD}. Rating: {RATING_MODEL}. Ended rounds: share of the "
        "bot's rounds that it ended; ends doubled: share of those endings doubled.",
        "",
        "Win rate by seat, whoever sat there: "
        + ", ".join(f"seat {s}: {_pct(r)}" for s, r in enumerate(summary["seat_win_rates"]))
        + ".",
        "",
        *_stalled_lines(summary),
        *_incident_lines(summary),
        "### Win rates",
        "",
        *_image("Win rates", f"{prefix}win_rates"),
        "### Score distributions",
        "",
        *_image("Score distributions", f"{prefix}score_distributions"),
        "### Round score over the turns",
        "",
        "Mean grid value (every card counted, face down or not, cleared columns not) after "
        "the deal and after each of the bot's own turns in a round; a turn number is shown "
        "while at least 1% of the rounds lasted that long.",
        "",
        *_image("Round score over the turns", f"{prefix}turn_curves"),
    ]
    return lines


def _stalled_lines(summary: dict[str, Any]) -> list[str]:
    """A paragraph on the stalled games, if any (see `skyjo.sim.stats`)."""
    stalled = summary.get("stalled", [])
    if not stalled:
        return []
    games = ", ".join(f"{s['game']} (round {s['round']})" for s in stalled)
    return [
        f"Stalled games: {len(stalled)} of {summary['games']}, stopped in a round that would "
        f"not end, and left out of every figure (neither won nor lost): games {games}.",
        "",
    ]


def incidents_text(summary: dict[str, Any]) -> str:
    """The bots' incidents (an external bot's timeouts, crashes...) per bot and kind,
    in one sentence; empty without any."""
    per_bot = [
        f"{b['bot']}: " + ", ".join(f"{kind} {n}" for kind, n in b["incidents"].items())
        for b in summary["bots"]
        if b.get("incidents")
    ]
    if not per_bot:
        return ""
    return f"Incidents (the fallback bot played those moves): {'; '.join(per_bot)}."


def _incident_lines(summary: dict[str, Any]) -> list[str]:
    text = incidents_text(summary)
    return [text, ""] if text else []


def _study_section(study: StudyResult, prefix: str) -> list[str]:
    rows = []
    for p in sorted(study.points, key=lambda p: p["players"]):
        low, high = p["win_rate_ci95"]
        rows.append(
            [
                str(p["players"]),
                str(p["games"]),
                format_wins(p["wins"]),
                _pct(p["win_rate"]),
                f"{_pct(low)} - {_pct(high)}",
                _pct(p["fair_share"]),
                f"{p['edge']:.2f}",
            ]
        )
    return [
        f"## Luck versus skill: {study.strong} against {study.weak}",
        "",
        f"One {study.strong} against n-1 copies of {study.weak}, {study.games} games per "
        f"player count, seats rotated, seed {study.seed}. The edge is the win rate "
        "divided by the fair share 1/n: 1 means luck alone.",
        "",
        *_table(("players", "games", "wins", "win rate", "95% CI", "fair share", "edge"), rows),
        "",
        verdict(study),
        "",
        *_image("Luck versus skill", f"{prefix}luck"),
    ]


def verdict(study: StudyResult) -> str:
    """One sentence on the study: does skill still show at every player count?"""
    points = sorted(study.points, key=lambda p: p["players"])
    above = [p["players"] for p in points if p["win_rate_ci95"][0] > p["fair_share"]]
    if stronger_first(points) and len(above) == len(points):
        return (
            f"{study.strong} wins more than its fair share at every player count, "
            "beyond the 95% interval: skill beats luck from 2 to "
            f"{points[-1]['players']} players."
        )
    if not above:
        return (
            f"At no player count is {study.strong}'s win rate clearly (beyond the 95% "
            "interval) above its fair share: luck dominates, or more games are needed."
        )
    return (
        f"{study.strong}'s win rate is clearly above its fair share with "
        f"{', '.join(map(str, above))} players only."
    )


def write_report(paths: Sequence[str | Path], out_dir: str | Path = "report") -> list[Path]:
    """Read results files, write their plots (PNG and SVG) and `report.md` in `out_dir`.

    Returns the files written, `report.md` last. Raises `TournamentError` for a
    missing or bad results file (before anything is written).
    """
    documents = [(Path(p), load_results(p)) for p in paths]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    lines = ["# Skyjo bot tournament report", ""]
    seen = {"tournament": 0, "study": 0}
    for path, doc in documents:
        kind = "tournament" if isinstance(doc, TournamentResult) else "study"
        seen[kind] += 1
        prefix = "" if seen[kind] == 1 else f"{seen[kind]}-"
        lines += [f"Source: `{path.name}`", ""]
        if isinstance(doc, TournamentResult):
            written += plot_win_rates(doc, out, f"{prefix}win_rates")
            written += plot_score_distributions(doc, out, f"{prefix}score_distributions")
            written += plot_turn_curves(doc, out, f"{prefix}turn_curves")
            lines += _tournament_section(doc, prefix)
        else:
            written += plot_luck(doc, out, f"{prefix}luck")
            lines += _study_section(doc, prefix)
    report = out / "report.md"
    report.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    written.append(report)
    return written


__all__ = [
    "FORMATS",
    "SUMMARY_HEADER",
    "format_wins",
    "incidents_text",
    "plot_luck",
    "plot_score_distributions",
    "plot_turn_curves",
    "plot_win_rates",
    "summary_rows",
    "verdict",
    "write_report",
]
