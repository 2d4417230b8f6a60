"""`skyjo train`'s work: a value run (`skyjo.train.value_run`) with a progress
bar (Rich), and its summary."""

from __future__ import annotations

from typing import Any

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from skyjo.train.value_run import Run, Stage, ValueConfig


def figures(stage: Stage) -> str:
    """A stage's evaluation, one short line: "2p 51.2% · 4p 26.0%"."""
    shown = [(k, v) for k, v in stage.evaluation.items() if not k.endswith(("_low", "_high"))]
    return " · ".join(f"{k} {100 * v:.1f}%" for k, v in shown)


def train(config: ValueConfig, show: bool) -> dict[str, Any]:
    """Run `config`; a progress bar on standard error when `show`; the summary."""
    run = Run(config)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f}"),
        TimeElapsedColumn(),
        TextColumn("{task.fields[figures]}"),
        disable=not show,
        transient=False,
    ) as bar:
        last = figures(run.stages[-1]) if run.stages else ""
        task = bar.add_task("starting", total=1, figures=last)

        def report(what: str, done: int, total: int) -> None:
            shown = figures(run.stages[-1]) if run.stages else ""
            bar.update(task, description=what, completed=done, total=total, figures=shown)

        stages = run.run(report)
    return {
        "out": config.out,
        "value": f"{config.out}/value.npz",
        "stages": [
            {
                "stage": s.stage,
                "games": s.games,
                "win_loss": round(s.win_loss, 5),
                "points_rmse": round(s.points_rmse, 3),
                "evaluation": {k: round(v, 4) for k, v in s.evaluation.items()},
            }
            for s in stages
        ],
    }
