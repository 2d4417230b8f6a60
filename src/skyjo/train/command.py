"""`skyjo train`'s work: a run with a progress bar (Rich), its summary."""

from __future__ import annotations

from typing import Any

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from skyjo.train.trainer import Progress as RunProgress
from skyjo.train.trainer import Run, TrainConfig


def last_figures(progress: RunProgress) -> str:
    """The last evaluation, one short line: "greedy 91.2% · expected 40.3%"."""
    if not progress.evaluations:
        return "not evaluated yet"
    row = progress.evaluations[-1]
    lineups = [k for k in row if f"{k}_low" in row]
    return " · ".join(f"{k} {100 * row[k]:.1f}%" for k in lineups)


def train(config: TrainConfig, show: bool) -> dict[str, Any]:
    """Run `config`; a progress bar on standard error when `show`; the summary."""
    run = Run(config)
    total = config.imitation + config.decisions
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} decisions"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[figures]}"),
        disable=not show,
        transient=False,
    ) as bar:
        task = bar.add_task("imitation", total=total, figures=last_figures(run.progress))
        bar.update(task, completed=run.progress.decisions)

        def report(progress: RunProgress, stage: str) -> None:
            bar.update(
                task,
                completed=progress.decisions,
                description=stage,
                figures=last_figures(progress),
            )

        progress = run.run(report)
    return {
        "out": config.out,
        "decisions": progress.decisions,
        "imitated": progress.imitated,
        "trained": progress.trained,
        "seconds": round(progress.seconds, 1),
        "evaluations": progress.evaluations,
        "policy": f"{config.out}/policy.npz",
    }
