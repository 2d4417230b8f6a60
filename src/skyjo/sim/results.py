"""What the parts of a tournament share: its settings, its results and their files.

`skyjo.sim.tournament` plays the games, `skyjo.sim.stats` sums them up,
`skyjo.sim.ray_backend` plays them on a Ray cluster and `skyjo.sim.report`
draws them: each imports these types from here, so none of them needs another
to know what a game's result is (and no module of `skyjo.sim` imports one that
imports it back).

Results file (`--out`), one compact JSON object of format `skyjo-tournament/1`:

- `config`: bots (the labels), specs (each label's bot spec), lineup, players,
  games, seed, rules, rotation, turn_sample;
- `summary`: what `--json` prints (see `skyjo.sim.stats.summarize`);
- `games`, in game order: `index`, `seats` (the bot label of each seat),
  `totals`, `winners` (seats), `turns`, `stalled`, `rounds` (per round
  `ender`, `raw`, `scores`, `doubled`, seat-indexed) and, for the first
  `turn_sample` games, `trajectories` (per round, per seat, the grid values);
  a stalled game also has `stalled_round`, and a game where a bot reported
  incidents (an external bot that timed out, answered an illegal or malformed
  move or crashed, see docs/bot-protocol.md) has `incidents` (`seat`, `turn`,
  `kind`, `detail`).

A luck study (`--study luck`) writes format `skyjo-study/1`: `strong`, `weak`,
`games`, `seed` and `points`, one per player count n (`players`, `games`,
`wins`, `win_rate`, `win_rate_ci95`, `fair_share` = 1/n, `edge` = win rate
times n, and that tournament's `summary`), without per-game records.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from skyjo.engine import RoundResult
from skyjo.rules import Rules
from skyjo.scoring import winners

#: The `format` of a tournament results file.
FORMAT = "skyjo-tournament/1"
#: The `format` of a luck-versus-skill study file.
STUDY_FORMAT = "skyjo-study/1"
#: How many games keep their per-turn trajectories in a results file, by default.
DEFAULT_TURN_SAMPLE = 100

#: Called with (games done, games in all) as chunks of games finish.
ProgressCallback = Callable[[int, int], None]


class TournamentError(ValueError):
    """Bad tournament settings: no bots, too many bots for the seats, games < 1..."""


@dataclass(frozen=True)
class TournamentConfig:
    """What a tournament plays: the lineup, how many games, the seed and the rules."""

    bots: tuple[str, ...]  #: the distinct bot labels, in `--bots` order
    lineup: tuple[str, ...]  #: one label per seat before rotation
    games: int
    seed: int
    rules: Rules = field(default_factory=Rules)
    turn_sample: int = DEFAULT_TURN_SAMPLE
    #: the spec of each of `bots`, in the same order (none: each label is its spec)
    specs: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.lineup)

    def spec(self, label: str) -> str:
        """The bot spec that `label` stands for."""
        return self.specs[self.bots.index(label)] if self.specs else label

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (see the results file format in the module docstring)."""
        return {
            "bots": list(self.bots),
            "specs": list(self.specs or self.bots),
            "lineup": list(self.lineup),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "rotation": "seat s of game g plays lineup[(s + g) % players]",
            "turn_sample": self.turn_sample,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        """The inverse of `to_dict`."""
        return cls(
            bots=tuple(data["bots"]),
            lineup=tuple(data["lineup"]),
            games=int(data["games"]),
            seed=int(data["seed"]),
            rules=Rules.from_dict(data.get("rules", {})),
            turn_sample=int(data.get("turn_sample", DEFAULT_TURN_SAMPLE)),
            specs=tuple(data.get("specs", data["bots"])),
        )


class Incident(NamedTuple):
    """Something a bot did wrong in a game (`ExternalBot.incidents`): at `seat`, at
    its decision `turn` (from 1; 0 for the handshake), of `kind` timeout,
    illegal, malformed or crashed. The fallback bot played that move."""

    seat: int
    turn: int
    kind: str
    detail: str


@dataclass(frozen=True)
class GameResult:
    """One row of a tournament's results (not a RULES.md 5 game record): who sat
    where, every round, the totals.

    `trajectories[r][s]` is seat `s`'s grid value after the deal and after each
    of its turns in round `r` (see the module docstring); it is None once
    dropped (past the tournament's `turn_sample`).

    A game whose round `stalled_round` (from 1) reached `MAX_ROUND_TURNS`
    turns was stopped there: `rounds`, `totals` and `trajectories` are those of
    the rounds finished before it, and it has no winner. `incidents` lists what
    the seats' bots reported as going wrong (external bots do), in seat order.
    """

    index: int
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    turns: int  #: every player's turns, all rounds together
    trajectories: tuple[tuple[tuple[int, ...], ...], ...] | None = None
    stalled_round: int | None = None
    incidents: tuple[Incident, ...] = ()

    @property
    def stalled(self) -> bool:
        """Whether the game was stopped in a round that would not end."""
        return self.stalled_round is not None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total: they share the win (RULES.md 3); none
        in a stalled game."""
        if self.stalled_round is not None:
            return ()
        return tuple(winners(dict(enumerate(self.totals))))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (see the results file format in the module docstring)."""
        data: dict[str, Any] = {
            "index": self.index,
            "seats": list(self.seats),
            "totals": list(self.totals),
            "winners": list(self.winners),
            "turns": self.turns,
            "stalled": self.stalled,
            "rounds": [
                {
                    "ender": r.ender,
                    "raw": list(r.raw),
                    "scores": list(r.scores),
                    "doubled": r.doubled,
                }
                for r in self.rounds
            ],
        }
        if self.stalled_round is not None:
            data["stalled_round"] = self.stalled_round
        if self.incidents:
            data["incidents"] = [incident._asdict() for incident in self.incidents]
        if self.trajectories is not None:
            data["trajectories"] = [[list(seat) for seat in rnd] for rnd in self.trajectories]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        """The inverse of `to_dict`."""
        trajectories = data.get("trajectories")
        return cls(
            index=int(data["index"]),
            seats=tuple(data["seats"]),
            totals=tuple(data["totals"]),
            rounds=tuple(
                RoundResult(r["ender"], tuple(r["raw"]), tuple(r["scores"]), bool(r["doubled"]))
                for r in data["rounds"]
            ),
            turns=int(data["turns"]),
            trajectories=None
            if trajectories is None
            else tuple(tuple(tuple(seat) for seat in rnd) for rnd in trajectories),
            stalled_round=data.get("stalled_round"),
            incidents=tuple(Incident(**incident) for incident in data.get("incidents", ())),
        )


@dataclass(frozen=True)
class TournamentResult:
    """A played tournament: its settings, every game in order and the summary."""

    config: TournamentConfig
    games: tuple[GameResult, ...]
    summary: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (see the results file format in the module docstring)."""
        return {
            "format": FORMAT,
            "config": self.config.to_dict(),
            "summary": self.summary,
            "games": [game.to_dict() for game in self.games],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentResult:
        """The inverse of `to_dict`."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TournamentError(f"not a tournament results file (format {FORMAT!r})")
        return cls(
            config=TournamentConfig.from_dict(data["config"]),
            games=tuple(GameResult.from_dict(g) for g in data["games"]),
            summary=data["summary"],
        )


@dataclass(frozen=True)
class StudyResult:
    """How often the stronger bot wins against n-1 copies of the weaker, by n.

    `points` holds, per player count, the tournament's summary plus the
    stronger bot's win rate, its 95% interval and the fair share 1/n.
    """

    strong: str
    weak: str
    games: int
    seed: int
    points: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (see the results file format in the module docstring)."""
        return {
            "format": STUDY_FORMAT,
            "study": "luck",
            "strong": self.strong,
            "weak": self.weak,
            "games": self.games,
            "seed": self.seed,
            "points": list(self.points),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StudyResult:
        """The inverse of `to_dict`."""
        return cls(
            strong=data["strong"],
            weak=data["weak"],
            games=int(data["games"]),
            seed=int(data["seed"]),
            points=tuple(data["points"]),
        )

    def summary(self) -> dict[str, Any]:
        """The study without the per-count tournament summaries (what `--json` prints)."""
        doc = self.to_dict()
        doc["points"] = [{k: v for k, v in p.items() if k != "summary"} for p in self.points]
        return doc


# --------------------------------------------------------------------------
# Results files
# --------------------------------------------------------------------------


def save_results(document: TournamentResult | StudyResult, path: str | Path) -> None:
    """Write a tournament's or a study's results as one compact JSON file."""
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document.to_dict(), out, separators=(",", ":"))
        out.write("\n")


def load_results(path: str | Path) -> TournamentResult | StudyResult:
    """Read a results file written by `save_results` (`TournamentError` if it is not one)."""
    try:
        with open(path, encoding="utf-8") as source:
            data = json.load(source)
    except FileNotFoundError:
        raise TournamentError(f"no results file {str(path)!r}") from None
    except IsADirectoryError:
        raise TournamentError(f"{str(path)!r} is a folder, not a results file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise TournamentError(f"cannot read {str(path)!r}: {error}") from None
    except json.JSONDecodeError as error:
        raise TournamentError(f"{str(path)!r} is not JSON: {error}") from None
    kind = data.get("format") if isinstance(data, dict) else None
    try:
        if kind == FORMAT:
            return TournamentResult.from_dict(data)
        if kind == STUDY_FORMAT:
            return StudyResult.from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        raise TournamentError(f"{str(path)!r} is a damaged results file: {error!r}") from None
    raise TournamentError(
        f"{str(path)!r} is not a results file of skyjo tournament (format {FORMAT!r} "
        f"or {STUDY_FORMAT!r})"
    )


__all__ = [
    "DEFAULT_TURN_SAMPLE",
    "FORMAT",
    "STUDY_FORMAT",
    "GameResult",
    "Incident",
    "ProgressCallback",
    "StudyResult",
    "TournamentConfig",
    "TournamentError",
    "TournamentResult",
    "load_results",
    "save_results",
]
