"""The value network in PyTorch, for training: the very network that
`skyjo.kernel.value.forward` evaluates in compiled code, on batches of public
records expanded by `value.features_batch` (`inputs`).

`ValueNet.export()` gives its weights as a `value.Net` (float32 NumPy
arrays); `tests/train` checks that both networks give the same values.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from skyjo.kernel import value
from skyjo.rules import COLS, MAX_PLAYERS


def inputs(records: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """(cols, ctx, glob, present) tensors of a batch of public records."""
    m = len(records)
    cols = np.zeros((m, MAX_PLAYERS, COLS), np.int64)
    ctx = np.zeros((m, MAX_PLAYERS, value.NCTX), np.float32)
    glob = np.zeros((m, value.NGLOB), np.float32)
    value.features_batch(records, cols, ctx, glob)
    present = np.arange(MAX_PLAYERS)[None, :] < records[:, value.NPLAYERS].astype(np.int64)[:, None]
    return (
        torch.from_numpy(cols),
        torch.from_numpy(ctx),
        torch.from_numpy(glob),
        torch.from_numpy(present),
    )


def kind_features() -> np.ndarray:
    """What the network knows of a column kind before training (`value.KINDS` x
    `KIND_FEATURES`): for each of the 16 symbols (a card value or face down)
    whether the column holds at least one, two, three of it; whether it is
    cleared; how many cards are face up (one-hot 0 to 3). A kind's embedding
    is a learned linear map of these plus a residual of its own that starts
    at 0 and is held near it (`residual_decay`): a kind seldom met is then
    embedded by what it is made of, not by its initial noise."""
    out = np.zeros((value.KINDS, KIND_FEATURES), np.float32)
    for kind in range(value.KINDS):
        if kind == value.CLEARED_KIND:
            out[kind, 3 * value.SYMBOLS] = 1.0
            continue
        cells = value.KIND_CELLS[kind]
        for sym in range(value.SYMBOLS):
            count = int((cells == sym).sum())
            for c in range(count):
                out[kind, 3 * sym + c] = 1.0
        up = int((cells != value.DOWN).sum())
        out[kind, 3 * value.SYMBOLS + 1 + up] = 1.0
    return out


#: The size of `kind_features`' rows.
KIND_FEATURES = 3 * value.SYMBOLS + 5


class ValueNet(nn.Module):
    """See `skyjo.kernel.value`: column embeddings summed per seat, a seat
    layer, a third layer over the seat, the others' mean, its context and the
    shared facts, and two heads (win logit, round points / POINTS_HEAD)."""

    def __init__(self, h1: int = 64, h2: int = 64, h3: int = 64) -> None:
        super().__init__()
        self.register_buffer("kinds", torch.from_numpy(kind_features()))
        self.compose = nn.Linear(KIND_FEATURES, h1, bias=False)
        self.residual = nn.Parameter(torch.zeros(value.KINDS, h1))
        self.b1 = nn.Parameter(torch.zeros(h1))
        self.seat = nn.Linear(h1, h2)
        self.own = nn.Linear(h2, h3, bias=False)
        self.others = nn.Linear(h2, h3, bias=False)
        self.context = nn.Linear(value.NCTX, h3, bias=False)
        self.shared = nn.Linear(value.NGLOB, h3)
        self.head = nn.Linear(h3, 2)
        self.wide = nn.Linear(value.NCTX, 2, bias=False)

    def forward(
        self, cols: torch.Tensor, ctx: torch.Tensor, glob: torch.Tensor, present: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(win logits with absent seats at -inf, round points / POINTS_HEAD), each (B, 8)."""
        h1 = torch.relu(self.embedding()[cols].sum(dim=2) + self.b1)
        h2 = torch.relu(self.seat(h1)) * present.unsqueeze(-1)
        count = present.sum(dim=1, keepdim=True).clamp(min=2).unsqueeze(-1)
        others = self.others(h2)
        mean_others = (others.sum(dim=1, keepdim=True) - others) / (count - 1)
        h3 = torch.relu(
            self.own(h2) + mean_others + self.context(ctx) + self.shared(glob).unsqueeze(1)
        )
        out = self.head(h3) + self.wide(ctx)
        logits = out[..., 0].masked_fill(~present, float("-inf"))
        return logits, out[..., 1] * present

    def embedding(self) -> torch.Tensor:
        """Each column kind's embedding (KINDS x H1)."""
        return self.compose(self.kinds) + self.residual

    def export(self) -> value.Net:
        """The weights as the compiled network takes them."""

        def a(x: torch.Tensor) -> np.ndarray:
            return np.ascontiguousarray(x.detach().cpu().numpy().astype(np.float32))

        return value.Net(
            E=a(self.embedding()),
            b1=a(self.b1),
            W2=a(self.seat.weight.T),
            b2=a(self.seat.bias),
            A=a(self.own.weight.T),
            B=a(self.others.weight.T),
            C=a(self.context.weight.T),
            D=a(self.shared.weight.T),
            b3=a(self.shared.bias),
            Wo=a(self.head.weight.T),
            bo=a(self.head.bias),
            U=a(self.wide.weight.T),
        )
