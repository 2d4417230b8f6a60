"""`skyjo train`: the learned value of the `best` bot, from scratch, by
self-play on the kernel (docs/model-card.md says how the shipped file was made).

A run is a sequence of stages, each written to its own folder under `out`
so that `resume` goes on after the last finished one:

0. **base**: games of the `expected` bot against itself at each table size
   of `players` (`base_games`), their positions kept with chance `keep`
   (`skyjo.train.value_data.generate`); a network is fitted to them from
   scratch, Monte-Carlo targets (`skyjo.train.value_fit`);
1. ... `iterations`: **self-play**: games of the last network's bot (the
   expectimax, unguarded: where it errs, its own games show it) against
   itself and against `expected`, `selfplay_games` a table size; the
   network goes on learning on every game so far (the self-play games
   weighed `selfplay_weight`), its win targets bootstrapped at the rounds'
   boundaries by the last network.

After each stage the network plays `eval_games` compiled games as the
`best` bot plays (`margin`, `depth`) against `expected` at 2 players, and as
one of 4 against three `expected`; the figures go to `curve.csv` and
`curve.png`. The last network is `value.npz` (format `skyjo-value/1`, which
`best:path=...` plays), with `calibration.csv`: its predicted chance to win
against the frequency observed, on positions of games it never trained on.

Games are played by `workers` processes of this machine, or as Ray tasks on
the cluster at `address` (`skyjo.sim.ray_backend.map_ray`); every chunk of
games has its own seed, so a run is the same wherever it runs. Everything
stops on counts (games, minibatches), never on time: the same command and
seed play the same games and fit the same minibatches (the same file, but
for PyTorch's floating-point order across machines).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from skyjo.kernel import expectimax, value
from skyjo.train.value_data import Games, Spec, generate
from skyjo.train.value_fit import FitConfig, fit
from skyjo.train.value_net import ValueNet

#: Games per task: small enough to spread, large enough to pay for a process.
CHUNK_GAMES = 500


@dataclass(frozen=True)
class ValueConfig:
    """A run (see the module); every field is a `skyjo train` option."""

    out: str = "runs/best"
    players: tuple[int, ...] = (2, 3, 4)
    base_games: tuple[int, ...] = (48_000, 4_000, 12_000)
    iterations: int = 1
    selfplay_games: tuple[int, ...] = (4_000, 400, 1_600)
    selfplay_weight: float = 3.0
    keep: float = 0.35
    hidden: int = 64
    base_steps: int = 4_000
    steps: int = 2_000
    batch: int = 4096
    lr: float = 2e-3
    margin: float = 0.03
    depth: str = "shallow"
    eval_games: int = 1_000
    seed: int = 0
    workers: int = 2
    threads: int = 2
    address: str | None = None
    resume: bool = False

    def __post_init__(self) -> None:
        for name in ("base_games", "selfplay_games"):
            if len(getattr(self, name)) != len(self.players):
                raise ValueError(f"--{name.replace('_', '-')} needs one count per table size")
        if not all(2 <= p <= 8 for p in self.players):
            raise ValueError("--players are table sizes from 2 to 8")
        if not 0 < self.keep <= 1:
            raise ValueError("--keep is a chance above 0, at most 1")


@dataclass
class Stage:
    """A finished stage: its number, its evaluation and its validation losses."""

    stage: int
    games: int
    win_loss: float
    points_rmse: float
    evaluation: dict[str, float] = field(default_factory=dict)


# --- the work of a task (in a worker process or on a Ray node) ------------------------


@dataclass(frozen=True)
class Job:
    """One task: a chunk of games (`value_data.Spec`) with the value file to play."""

    spec: Spec
    net_file: str | None


def run_job(job: Job) -> Games:
    """Play one chunk (a top-level function: pickled by reference)."""
    net = value.load(Path(job.net_file))[0] if job.net_file else None
    return generate(replace(job.spec, net=net))


def run_jobs(jobs: Sequence[Job], config: ValueConfig, done: Callable[[Job], None]) -> list[Games]:
    """Every job's games, in the jobs' order, on this machine's workers or on Ray."""
    results: list[Games | None] = [None] * len(jobs)
    for index, games in _each(jobs, config):
        results[index] = games
        done(jobs[index])
    return [g for g in results if g is not None]


def _each(jobs: Sequence[Job], config: ValueConfig) -> Iterator[tuple[int, Games]]:
    if config.address is not None:
        from skyjo.sim.ray_backend import map_ray

        yield from map_ray(run_job, jobs, None if config.address == "local" else config.address)
        return
    if config.workers <= 1:
        for i, job in enumerate(jobs):
            yield i, run_job(job)
        return
    with ProcessPoolExecutor(config.workers) as pool:
        futures = {pool.submit(run_job, job): i for i, job in enumerate(jobs)}
        for future in as_completed(futures):
            yield futures[future], future.result()


def chunks(lineups: Sequence[tuple[str, ...]], games: int, seed: int, **spec: Any) -> list[Spec]:
    """`games` games spread over the lineups and over chunks of CHUNK_GAMES,
    each chunk seeded from `seed` and its index."""
    specs = []
    per = math.ceil(games / len(lineups))
    for li, seats in enumerate(lineups):
        for start in range(0, per, CHUNK_GAMES):
            count = min(CHUNK_GAMES, per - start)
            chunk_seed = int(np.random.SeedSequence([seed, li, start]).generate_state(1)[0])
            specs.append(
                Spec(players=len(seats), games=count, seats=seats, seed=chunk_seed, **spec)
            )
    return specs


# --- the run -------------------------------------------------------------------------


class Run:
    """A training run (see the module); `run(report)` does every stage left."""

    def __init__(self, config: ValueConfig) -> None:
        self.config = config
        self.out = Path(config.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.stages: list[Stage] = []
        if config.resume and (self.out / "progress.json").exists():
            saved = json.loads((self.out / "progress.json").read_text())
            self.stages = [Stage(**s) for s in saved["stages"]]
        (self.out / "config.json").write_text(json.dumps(asdict(self.config), indent=2))

    def stage_dir(self, stage: int) -> Path:
        return self.out / f"stage-{stage}"

    def games_of(self, stage: int) -> list[Games]:
        folder = self.stage_dir(stage)
        return [Games.load(str(p)) for p in sorted(folder.glob("games-*.npz"))]

    def run(self, report: Callable[[str, int, int], None]) -> list[Stage]:
        """Every stage not yet done; `report(what, done, total)` after each step."""
        for stage in range(len(self.stages), self.config.iterations + 1):
            self.stages.append(self._stage(stage, report))
            self._save()
        final = self.stage_dir(self.config.iterations) / "value.npz"
        (self.out / "value.npz").write_bytes(final.read_bytes())
        self._calibration()
        return self.stages

    def _stage(self, stage: int, report: Callable[[str, int, int], None]) -> Stage:
        c = self.config
        folder = self.stage_dir(stage)
        folder.mkdir(exist_ok=True)
        previous = self.stage_dir(stage - 1) / "value.npz" if stage else None
        jobs = self.jobs(stage, previous)
        total = sum(job.spec.games for job in jobs)
        done = [0]

        def one(job: Job) -> None:
            done[0] += job.spec.games
            report(f"stage {stage}: games", done[0], total)

        report(f"stage {stage}: games", 0, total)
        for i, games in enumerate(run_jobs(jobs, c, one)):
            games.save(str(folder / f"games-{i:04d}.npz"))
        parts = [(g, 1.0) for g in self.games_of(0)]
        for earlier in range(1, stage + 1):
            parts += [(g, c.selfplay_weight) for g in self.games_of(earlier)]
        bootstrap = value.load(previous)[0] if previous else None
        start = None
        if previous is not None:
            start = ValueNet(c.hidden, c.hidden, c.hidden)
            start.load_state_dict(torch.load(previous.with_suffix(".pt"), weights_only=True))
        steps = c.steps if stage else c.base_steps
        fit_config = FitConfig(
            hidden=c.hidden, steps=steps, batch=c.batch, lr=c.lr, seed=c.seed + stage,
            threads=c.threads,
        )  # fmt: skip
        fitted = fit(
            parts,
            fit_config,
            bootstrap=bootstrap,
            start=start,
            report=lambda s, n: report(f"stage {stage}: fit", s, n),
        )
        meta = {"stage": stage, "config": asdict(c), "hidden": [c.hidden] * 3}
        value.save(folder / "value.npz", fitted.net.export(), meta)
        torch.save(fitted.net.state_dict(), folder / "value.pt")
        evaluation = self._evaluate(folder / "value.npz", stage, report)
        return Stage(stage, total, fitted.win_loss, fitted.points_rmse, evaluation)

    def jobs(self, stage: int, previous: Path | None) -> list[Job]:
        c = self.config
        specs: list[Spec] = []
        counts = c.selfplay_games if stage else c.base_games
        for players, games in zip(c.players, counts, strict=True):
            if stage == 0:
                lineups = [("expected",) * players]
            else:
                lineups = [("value",) * players, ("value",) + ("expected",) * (players - 1)]
            seed = int(np.random.SeedSequence([c.seed, stage, players]).generate_state(1)[0])
            specs += chunks(lineups, games, seed, keep=c.keep, margin=-1.0)
        return [Job(spec, str(previous) if previous else None) for spec in specs]

    def _evaluate(
        self, net_file: Path, stage: int, report: Callable[[str, int, int], None]
    ) -> dict[str, float]:
        """The network's bot against `expected`: 2 players, and one of 4."""
        c = self.config
        depth = {"shallow": expectimax.SHALLOW, "full": expectimax.FULL}[c.depth]
        seed = int(np.random.SeedSequence([c.seed, stage, 99]).generate_state(1)[0])
        figures: dict[str, float] = {}
        for label, seats, games in (
            ("expected 2p", ("value", "expected"), c.eval_games),
            ("expected 4p", ("value", "expected", "expected", "expected"), c.eval_games // 2),
        ):
            specs = chunks([seats], games, seed, keep=0.0, margin=c.margin, depth=depth)
            jobs = [Job(s, str(net_file)) for s in specs]
            done = [0]

            def one(job: Job, label: str = label, games: int = games, done: list = done) -> None:
                done[0] += job.spec.games
                report(f"stage {stage}: {label}", done[0], games)

            results = np.concatenate([g.results[:, 0] for g in run_jobs(jobs, c, one)])
            mean = float(results.mean())
            half = 1.96 * float(results.std(ddof=1)) / math.sqrt(len(results))
            figures[label] = mean
            figures[f"{label}_low"] = mean - half
            figures[f"{label}_high"] = mean + half
        return figures

    def _save(self) -> None:
        stages = [asdict(s) for s in self.stages]
        (self.out / "progress.json").write_text(json.dumps({"stages": stages}, indent=2))
        labels = sorted({k for s in self.stages for k in s.evaluation})
        with (self.out / "curve.csv").open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["stage", "games", "win_loss", "points_rmse", *labels])
            for s in self.stages:
                row = [s.stage, s.games, round(s.win_loss, 5), round(s.points_rmse, 3)]
                writer.writerow(row + [round(s.evaluation.get(k, float("nan")), 4) for k in labels])
        _plot_curve(self.stages, self.out / "curve.png")

    def _calibration(self) -> None:
        """Predicted chance to win (the player to act's) against the observed
        share, in tenths, on the held-out games of the base stage."""
        net, _ = value.load(self.out / "value.npz")
        games = Games.join(self.games_of(0))
        rows = np.nonzero(games.where[:, 0] % 20 == 19)[0][:200_000]
        records = games.records[rows]
        win = np.zeros((len(rows), 8), np.float32)
        value.evaluate(net, records, value.work(net), win, np.zeros_like(win))
        seat0 = games.where[rows, 2]
        observed = games.shares[games.where[rows, 0], seat0]
        predicted = win[:, 0]
        with (self.out / "calibration.csv").open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["from", "to", "positions", "predicted", "observed"])
            for low in np.arange(0.0, 1.0, 0.1):
                inside = (predicted >= low) & (predicted < low + 0.1 + (low >= 0.9))
                if inside.any():
                    writer.writerow(
                        [
                            round(low, 1),
                            round(low + 0.1, 1),
                            int(inside.sum()),
                            round(float(predicted[inside].mean()), 4),
                            round(float(observed[inside].mean()), 4),
                        ]
                    )


def _plot_curve(stages: list[Stage], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = [s.stage for s in stages]
    for label, fair in (("expected 2p", 0.5), ("expected 4p", 0.25)):
        ys = [s.evaluation.get(label, float("nan")) for s in stages]
        low = [s.evaluation.get(f"{label}_low", float("nan")) for s in stages]
        high = [s.evaluation.get(f"{label}_high", float("nan")) for s in stages]
        line = ax.plot(xs, ys, marker="o", label=f"against {label}")[0]
        ax.fill_between(xs, low, high, alpha=0.2, color=line.get_color())
        ax.axhline(fair, color=line.get_color(), linestyle=":", linewidth=1)
    ax.set_xlabel("stage (0: expected's games; then self-play)")
    ax.set_ylabel("win share")
    ax.set_xticks(xs)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
