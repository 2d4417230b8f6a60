"""Fitting the value network to self-play data (PyTorch, CPU).

`fit(games, config)` trains a `ValueNet` on the records of `games` (a list of
`skyjo.train.value_data.Games`, each with a weight) against their targets
(`value_data.targets`, bootstrapped at the rounds' boundaries by the network
given): cross-entropy of the seats' win shares against the softmax of their
win logits, plus half the squared error of the round points (in tens), by
Adam with a one-cycle schedule over `steps` minibatches. Each game's records
go wholly to training or to validation (1 game in 20), so the validation
loss is measured on games the network never saw. Seeded: the same data and
config give the same network.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from skyjo.kernel import value
from skyjo.train.value_data import Games, targets
from skyjo.train.value_net import ValueNet, inputs


@dataclass(frozen=True)
class FitConfig:
    """How a network is fitted (see the module)."""

    hidden: int = 64
    steps: int = 6000
    batch: int = 4096
    lr: float = 2e-3
    points_weight: float = 0.5
    residual_decay: float = 1e-4
    seed: int = 0
    threads: int = 2


@dataclass
class Fitted:
    """A fitted network and its validation losses (win cross-entropy, points RMSE)."""

    net: ValueNet
    win_loss: float
    points_rmse: float


def fit(
    parts: list[tuple[Games, float]],
    config: FitConfig,
    bootstrap: value.Net | None = None,
    start: ValueNet | None = None,
    report: Callable[[int, int], None] | None = None,
) -> Fitted:
    """Fit a network (from `start`, else new) to `parts` (games, weight); see the module."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(config.seed)
    records, win, points, weights, held_out = [], [], [], [], []
    for games, weight in parts:
        w, p = targets(games, bootstrap)
        records.append(games.records)
        win.append(w)
        points.append(p)
        weights.append(np.full(len(w), weight, np.float64))
        held_out.append(games.where[:, 0] % 20 == 19)
    all_records = np.concatenate(records)
    all_win = np.concatenate(win)
    all_points = np.concatenate(points)
    valid = np.concatenate(held_out)
    train_rows = np.nonzero(~valid)[0]
    valid_rows = np.nonzero(valid)[0][:200_000]
    cdf = np.cumsum(np.concatenate(weights)[train_rows])
    cdf /= cdf[-1]
    net = start if start is not None else ValueNet(config.hidden, config.hidden, config.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=config.lr)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=config.lr, total_steps=config.steps, pct_start=0.05
    )

    def losses(rows: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        cols, ctx, glob, present = inputs(all_records[rows])
        logits, pts = net(cols, ctx, glob, present)
        log_p = torch.log_softmax(logits, 1).masked_fill(~present, 0)
        ce = -(torch.from_numpy(all_win[rows]) * log_p).sum(1).mean()
        err = (pts - torch.from_numpy(all_points[rows]) / value.POINTS_HEAD) ** 2
        return ce, (err * present).sum() / present.sum()

    for step in range(1, config.steps + 1):
        rows = train_rows[np.minimum(np.searchsorted(cdf, rng.random(config.batch)), len(cdf) - 1)]
        ce, mse = losses(rows)
        loss = ce + config.points_weight * mse + config.residual_decay * (net.residual**2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        schedule.step()
        if report is not None and (step % 100 == 0 or step == config.steps):
            report(step, config.steps)
    net.eval()
    ce_sum, mse_sum = 0.0, 0.0
    with torch.no_grad():
        for i in range(0, len(valid_rows), 20_000):
            rows = valid_rows[i : i + 20_000]
            ce, mse = losses(rows)
            ce_sum += float(ce) * len(rows)
            mse_sum += float(mse) * len(rows)
    net.train()
    count = max(len(valid_rows), 1)
    return Fitted(net, ce_sum / count, (mse_sum / count) ** 0.5 * value.POINTS_HEAD)
