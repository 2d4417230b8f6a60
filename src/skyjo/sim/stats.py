"""Tournament statistics: wins, win rates with intervals, scores, ratings.

Everything here reads games *in game order* (`GameResult.index`), so the
numbers depend only on the tournament's settings, never on how the games were
spread over workers.

- Wins: the seats with the lowest final total share the win (RULES.md 3):
  with k winners each gets 1/k of a win, kept as an exact fraction.
- Win rate: a bot's wins per seat it played (so the fair share is 1/players
  for every bot, copies included), with a 95% **Wilson score interval**
  (`wilson_interval`). Seats of one game are not independent, so with
  several copies of a bot in a game the interval is a little optimistic.
- Mean round score (after the ender's penalty), mean game score (final
  total), rounds ended per round played, and how often its endings were
  doubled.
- Rating: OpenSkill's Plackett-Luce model, one update per game in game
  order, each seat a one-player team ranked by its final total (equal totals
  share a rank). A bot holding several seats gets the mean of its seats'
  updated ratings. `ordinal` is the conservative mu - 3 sigma.
- Incidents: per bot, how many times each kind of incident (timeout,
  illegal, malformed, crashed: an external bot's, `skyjo.bots.external`)
  happened, in every game, stalled ones included; the fallback bot played
  those moves (after a crash, every later move of that game).
- Stalled games (`GameResult.stalled`: a round that would not end) count
  neither as a win nor as a loss: they are left out of every figure above
  (a bot's `seats` are its seats in finished games) and of the turn curves;
  the summary gives their number (`stalled_games`) and, per game, the round
  that stalled, the seats and the totals of the rounds finished before it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from skyjo.sim.results import GameResult, TournamentConfig

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054
CI_METHOD = "Wilson score interval, 95%"
RATING_MODEL = "OpenSkill Plackett-Luce (openskill.py defaults), games in order"


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `successes / trials` (default 95%).

    Fractional successes (shared wins) are allowed. With no trials the
    interval is the whole [0, 1].
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass
class TurnCurves:
    """Per bot, the sum and count of grid values by own-turn number (0 = the deal).

    Integer sums: adding games in any order gives the same curves.
    """

    sums: dict[str, list[int]] = field(default_factory=dict)
    counts: dict[str, list[int]] = field(default_factory=dict)

    def add(self, game: GameResult) -> None:
        """Add one game's trajectories (a game without them, or stalled, adds nothing)."""
        if game.trajectories is None or game.stalled:
            return
        for rnd in game.trajectories:
            for label, values in zip(game.seats, rnd, strict=True):
                sums = self.sums.setdefault(label, [])
                counts = self.counts.setdefault(label, [])
                if len(sums) < len(values):
                    grow = len(values) - len(sums)
                    sums.extend([0] * grow)
                    counts.extend([0] * grow)
                for t, value in enumerate(values):
                    sums[t] += value
                    counts[t] += 1

    def to_dict(self, min_share: float = 0.01) -> dict[str, dict[str, list[Any]]]:
        """Per bot: the mean grid value and the count by turn number, up to the last
        turn that at least `min_share` of its seat-rounds reached (the long tail
        of a few very long rounds is dropped)."""
        curves = {}
        for label in sorted(self.sums):
            sums, counts = self.sums[label], self.counts[label]
            min_count = max(1, math.ceil(min_share * counts[0])) if counts else 1
            keep = [t for t, c in enumerate(counts) if c >= min_count]
            last = keep[-1] + 1 if keep else 0
            curves[label] = {
                "mean": [round(s / c, 4) for s, c in zip(sums[:last], counts[:last], strict=True)],
                "count": counts[:last],
            }
        return curves


@dataclass
class _BotTally:
    seats: int = 0
    wins: Fraction = Fraction(0)
    game_score: int = 0
    rounds: int = 0
    round_score: int = 0
    ended: int = 0
    doubled: int = 0
    scores: list[int] = field(default_factory=list)


def finished(games: Iterable[GameResult]) -> list[GameResult]:
    """The games that were not stalled, in game order: those the statistics count."""
    return sorted((g for g in games if not g.stalled), key=lambda g: g.index)


def tally(games: Sequence[GameResult]) -> dict[str, _BotTally]:
    """Per bot label: seats, shared wins, score sums, rounds ended and doubled
    (in finished games)."""
    tallies: dict[str, _BotTally] = defaultdict(_BotTally)
    for game in finished(games):
        winners = game.winners
        share = Fraction(1, len(winners))
        for seat, label in enumerate(game.seats):
            bot = tallies[label]
            bot.seats += 1
            bot.game_score += game.totals[seat]
            bot.scores.append(game.totals[seat])
            if seat in winners:
                bot.wins += share
        for rnd in game.rounds:
            for seat, label in enumerate(game.seats):
                bot = tallies[label]
                bot.rounds += 1
                bot.round_score += rnd.scores[seat]
            ender = tallies[game.seats[rnd.ender]]
            ender.ended += 1
            ender.doubled += rnd.doubled
    return tallies


def incident_counts(games: Iterable[GameResult]) -> dict[str, dict[str, int]]:
    """Per bot label, the number of incidents of each kind, in every game given.

    Kinds are in the order of `skyjo.bots.external.INCIDENT_KINDS`, then any
    other a bot reported; a bot without incidents is left out.
    """
    from skyjo.bots.external import INCIDENT_KINDS

    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for game in games:
        for incident in game.incidents:
            counts[game.seats[incident.seat]][incident.kind] += 1
    order = {kind: k for k, kind in enumerate(INCIDENT_KINDS)}
    return {
        label: dict(
            sorted(kinds.items(), key=lambda item: (order.get(item[0], len(order)), item[0]))
        )
        for label, kinds in counts.items()
    }


def shared_wins(games: Sequence[GameResult]) -> dict[str, Fraction]:
    """Each bot's wins, a win shared by k tied seats counting 1/k to each."""
    return {label: t.wins for label, t in tally(games).items()}


def ratings(games: Sequence[GameResult], labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """OpenSkill Plackett-Luce ratings, updated game by game in game order.

    Each seat is a one-player team ranked by its final total (lowest first,
    equal totals tied); a bot with several seats in a game takes the mean of
    its seats' updated mu and sigma. Stalled games change no rating.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {label: model.rating(name=label) for label in labels}
    for game in finished(games):
        teams = [[current[label]] for label in game.seats]
        rated = model.rate(teams, ranks=[float(t) for t in game.totals])
        updated: dict[str, list[Any]] = defaultdict(list)
        for label, (player,) in zip(game.seats, rated, strict=True):
            updated[label].append(player)
        for label, players in updated.items():
            current[label] = model.rating(
                mu=sum(p.mu for p in players) / len(players),
                sigma=sum(p.sigma for p in players) / len(players),
                name=label,
            )
    return {
        label: {
            "mu": round(r.mu, 4),
            "sigma": round(r.sigma, 4),
            "ordinal": round(r.ordinal(), 4),
        }
        for label, r in current.items()
    }


def seat_win_rates(games: Sequence[GameResult], players: int) -> list[float]:
    """Shared wins per finished game of each seat, whoever sat there: the seat's own edge."""
    games = finished(games)
    wins = [Fraction(0)] * players
    for game in games:
        winners = game.winners
        for seat in winners:
            wins[seat] += Fraction(1, len(winners))
    return [round(float(w / max(1, len(games))), 6) for w in wins]


def _quantiles(values: Sequence[int]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}

    def at(q: float) -> float:
        return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])

    return {
        "min": float(ordered[0]),
        "p25": at(0.25),
        "median": at(0.5),
        "p75": at(0.75),
        "max": float(ordered[-1]),
    }


def summarize(
    config: TournamentConfig, games: Sequence[GameResult], curves: TurnCurves | None = None
) -> dict[str, Any]:
    """The tournament's summary: per bot statistics and rating, per seat win rates,
    mean grid value by turn, the stalled games. A JSON-ready dict (what `--json`
    prints); `games` counts every game played, stalled ones included."""
    played = sorted(games, key=lambda g: g.index)
    games = finished(played)
    tallies = tally(games)
    rated = ratings(games, config.bots)
    incidents = incident_counts(played)
    if curves is None:
        curves = TurnCurves()
        for game in games:
            curves.add(game)
    bots = []
    for label in config.bots:
        t = tallies.get(label, _BotTally())
        low, high = wilson_interval(float(t.wins), t.seats)
        bots.append(
            {
                "bot": label,
                "seats": t.seats,
                "wins": round(float(t.wins), 6),
                "win_rate": round(float(t.wins) / t.seats, 6) if t.seats else 0.0,
                "win_rate_ci95": [round(low, 6), round(high, 6)],
                "mean_round_score": round(t.round_score / t.rounds, 4) if t.rounds else None,
                "mean_game_score": round(t.game_score / t.seats, 4) if t.seats else None,
                "game_score_quantiles": _quantiles(t.scores),
                "rounds": t.rounds,
                "rounds_ended": t.ended,
                "ended_rate": round(t.ended / t.rounds, 6) if t.rounds else 0.0,
                "doubled": t.doubled,
                "doubled_rate": round(t.doubled / t.ended, 6) if t.ended else 0.0,
                "rating": rated[label],
                "incidents": incidents.get(label, {}),
            }
        )
    rounds = sum(len(g.rounds) for g in games)
    stalled = [g for g in played if g.stalled]
    return {
        "games": len(played),
        "stalled_games": len(stalled),
        "players": config.players,
        "seed": config.seed,
        "lineup": list(config.lineup),
        "rounds": rounds,
        "mean_rounds_per_game": round(rounds / len(games), 4) if games else 0.0,
        "mean_turns_per_game": round(sum(g.turns for g in games) / len(games), 4) if games else 0.0,
        "ci_method": CI_METHOD,
        "rating_model": RATING_MODEL,
        "bots": bots,
        "seat_win_rates": seat_win_rates(games, config.players),
        "turn_curves": curves.to_dict(),
        "stalled": [stalled_entry(g) for g in stalled],
    }


def stalled_entry(game: GameResult) -> dict[str, Any]:
    """What the summary says of a stalled game: which, the round, who sat where, the totals."""
    return {
        "game": game.index,
        "round": game.stalled_round,
        "seats": list(game.seats),
        "totals": list(game.totals),
    }


__all__ = [
    "CI_METHOD",
    "RATING_MODEL",
    "Z95",
    "TurnCurves",
    "finished",
    "incident_counts",
    "ratings",
    "seat_win_rates",
    "shared_wins",
    "stalled_entry",
    "summarize",
    "tally",
    "wilson_interval",
]
