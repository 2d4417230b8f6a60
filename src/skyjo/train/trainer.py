"""`skyjo train`: imitation of the teacher, then PPO, on the vector
environment, with checkpoints, evaluations against the ladder and a learning
curve (docs/model-card.md says how the shipped bot was made with it).

Every `eval_every` decisions (and at the end) the deterministic policy (the
legal action of highest logit, as the `learned` bot plays) plays
`eval_games` games against each lineup of `evaluate_against`; the figures go
to `curve.csv`, `curve.png` and the progress line, the policy to
`policy.npz` (format "skyjo-policy/1", the `learned` bot's) and the whole
state to `checkpoint.pt`, from which `resume=True` goes on.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.distributions import Categorical

from skyjo.bots.encoding import with_advice
from skyjo.engine import NUM_ACTIONS
from skyjo.env.vector import SkyjoVectorEnv, kernel_policy
from skyjo.kernel.policies import POLICIES
from skyjo.train.evaluate import Strength, evaluate
from skyjo.train.policy_file import write_policy
from skyjo.train.ppo import ActorCritic, Potential, advantages


@dataclass(frozen=True)
class TrainConfig:
    """What a run does; every field is a `skyjo train` option."""

    out: str = "runs/learned"
    players: int = 2
    slots: int = 8
    opponents: tuple[str, ...] = ("expected",)
    teacher: str = "expected"
    advice: str | None = "expected"  # a compiled bot whose move the policy sees, or None
    imitation: int = 1_000_000  # decisions of the imitation stage
    decisions: int = 40_000_000  # decisions of the PPO stage
    minutes: float | None = None  # stop after this long (with a last evaluation)
    tables: int = 256
    steps: int = 64  # decisions a table per rollout
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 1e-4
    imitation_lr: float = 1e-3
    epochs: int = 4
    minibatch: int = 4096
    gamma: float = 0.997
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.003
    value_coef: float = 0.5
    margin: float = 1.0
    eval_every: int = 2_000_000
    eval_games: int = 1000
    evaluate_against: tuple[tuple[str, ...], ...] = (("greedy",), ("expected",))
    seed: int = 0
    threads: int = 1
    resume: bool = False

    def __post_init__(self) -> None:
        """Refuse a run that cannot start, naming the setting (ValueError)."""
        at_least = {
            "players": (self.players, 2), "tables": (self.tables, 1), "steps": (self.steps, 1),
            "imitation": (self.imitation, 0), "decisions": (self.decisions, 0),
            "eval_every": (self.eval_every, 1), "eval_games": (self.eval_games, 1),
            "threads": (self.threads, 1), "epochs": (self.epochs, 1),
            "minibatch": (self.minibatch, 1),
        }  # fmt: skip
        for name, (value, low) in at_least.items():
            if value < low:
                raise ValueError(f"{name} must be at least {low}, not {value}")
        if self.slots < self.players:
            raise ValueError(f"{self.slots} slots cannot hold {self.players} players")
        if self.minutes is not None and not self.minutes > 0:
            raise ValueError(f"minutes must be more than 0, not {self.minutes}")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden layers need widths of at least 1, not {self.hidden}")
        if not self.opponents or not self.evaluate_against or not all(self.evaluate_against):
            raise ValueError("opponents and every lineup evaluated need at least one bot")
        bots = {*self.opponents, self.teacher, *sum(self.evaluate_against, ())}
        for spec in bots | ({self.advice} if self.advice else set()):
            if kernel_policy(spec) is None:
                raise ValueError(
                    f"training plays the compiled bots {', '.join(POLICIES)} "
                    f"(without options), not {spec!r}"
                )
        for lineup in (self.opponents, *self.evaluate_against):
            if len(lineup) not in (1, self.players - 1):
                raise ValueError(
                    f"{len(lineup)} opponents for {self.players} players: give one "
                    f"(it takes every other seat) or {self.players - 1}"
                )


@dataclass
class Progress:
    """Where a run is: decisions done per stage, seconds, evaluations."""

    imitated: int = 0
    trained: int = 0
    seconds: float = 0.0
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)  # the last update's (the last minibatch)

    @property
    def decisions(self) -> int:
        return self.imitated + self.trained


Report = Callable[[Progress, str], None]


class Run:
    """One training run (module docstring)."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.out = Path(config.out)
        self.out.mkdir(parents=True, exist_ok=True)
        torch.set_num_threads(config.threads)
        torch.manual_seed(config.seed)
        self.rng = np.random.default_rng(config.seed)
        self.envs = SkyjoVectorEnv(
            config.tables,
            opponents=seated(config.opponents, config.players),
            reward="win",
            slots=config.slots,
        )
        self.layout = self.envs.layout
        self.potential = Potential.of(self.layout)
        self.size = self.layout.size + (NUM_ACTIONS if config.advice else 0)
        self.net = ActorCritic(self.size, config.hidden)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.imitation_lr, eps=1e-5)
        self.progress = Progress()
        if config.resume and (self.out / "checkpoint.pt").exists():
            self._load()
        self.obs, info = self.envs.reset(seed=config.seed * 1_000_003)
        self.mask = info["action_mask"]
        self.phi = self.potential(self.obs)
        self.advised = self._advised(self.envs, self.obs)

    # --- the stages -------------------------------------------------------------------

    def run(self, report: Report) -> Progress:
        c, p = self.config, self.progress
        started = time.perf_counter() - p.seconds
        next_eval = (p.decisions // c.eval_every + 1) * c.eval_every
        while p.decisions < c.imitation + c.decisions and not self._out_of_time():
            imitating = p.imitated < c.imitation
            if imitating:
                beta = max(0.0, 1.0 - 2 * p.imitated / max(c.imitation, 1))
                self._imitate(beta)
                p.imitated += c.tables * c.steps
            else:
                if p.trained == 0:
                    for group in self.optimizer.param_groups:
                        group["lr"] = c.lr
                self._ppo()
                p.trained += c.tables * c.steps
            p.seconds = time.perf_counter() - started
            stage = "imitation" if imitating else "ppo"
            if (
                p.decisions >= next_eval
                or p.decisions >= c.imitation + c.decisions
                or self._out_of_time()
            ):
                self.checkpoint(report, stage)
                next_eval = (p.decisions // c.eval_every + 1) * c.eval_every
            report(p, stage)
        return p

    def _out_of_time(self) -> bool:
        minutes = self.config.minutes
        return minutes is not None and self.progress.seconds >= 60 * minutes

    def _rollout(self, teacher: bool, beta: float) -> dict[str, np.ndarray]:
        """`steps` decisions at every table: the policy's sampled actions (the
        teacher's with probability `beta`), their log-probabilities, values,
        shaped rewards, ends and the teacher's labels."""
        c = self.config
        shape = (c.steps, c.tables)
        buf = {
            "obs": np.empty((*shape, self.size), np.float32),
            "mask": np.empty((*shape, NUM_ACTIONS), np.int8),
            "action": np.empty(shape, np.int64),
            "logp": np.empty(shape, np.float32),
            "value": np.empty(shape, np.float32),
            "reward": np.empty(shape, np.float32),
            "done": np.empty(shape, np.float32),
            "label": np.full(shape, -1, np.int64),
        }
        for t in range(c.steps):
            obs_t = torch.from_numpy(self.advised)
            mask_t = torch.from_numpy(self.mask)
            with torch.no_grad():
                logits = self.net.logits(obs_t, mask_t)
                value = self.net.value(obs_t).squeeze(-1)
                dist = Categorical(logits=logits)
                action = dist.sample()
            actions = action.numpy()
            if teacher:  # the teacher's moves, asked once when it is also the advice
                same = c.teacher == c.advice and self.advice is not None
                labels = self.advice if same else self.envs.teacher_actions(c.teacher)
                buf["label"][t] = labels
                if beta > 0:
                    actions = np.where(self.rng.random(c.tables) < beta, labels, actions)
                    action = torch.from_numpy(actions)
            buf["obs"][t], buf["mask"][t], buf["action"][t] = self.advised, self.mask, actions
            buf["logp"][t] = dist.log_prob(action).numpy()
            buf["value"][t] = value.numpy()
            obs, reward, terminated, truncated, info = self.envs.step(actions)
            done = terminated | truncated
            after = self.potential(obs)
            if done.any():
                final = np.stack(info["final_obs"][done])
                ended_phi = self.potential(final)
                shaped_next = after.copy()
                shaped_next[done] = ended_phi
            else:
                shaped_next = after
            buf["reward"][t] = reward + c.margin * (shaped_next - self.phi)
            buf["done"][t] = done
            self.obs, self.mask, self.phi = obs, info["action_mask"], after
            self.advised = self._advised(self.envs, obs)
        with torch.no_grad():
            last = self.net.value(torch.from_numpy(self.advised)).squeeze(-1).numpy()
        adv = advantages(buf["reward"], buf["value"], buf["done"], last, c.gamma, c.lam)
        buf["adv"], buf["ret"] = adv, adv + buf["value"]
        return {k: v.reshape(c.steps * c.tables, *v.shape[2:]) for k, v in buf.items()}

    def _advised(self, envs: SkyjoVectorEnv, obs: np.ndarray) -> np.ndarray:
        """The network's input: the observation, then (with `advice`) the
        advising bot's move as a one-hot of the 39 actions."""
        advice = self.config.advice
        if not advice:
            self.advice = None
            return obs
        self.advice = envs.teacher_actions(advice)  # the labels too, where it is the teacher
        return with_advice(obs, self.advice)

    def _batches(self, size: int) -> list[np.ndarray]:
        c = self.config
        order = self.rng.permutation(size)
        return [order[i : i + c.minibatch] for i in range(0, size, c.minibatch)]

    def _imitate(self, beta: float) -> None:
        """One DAgger round: the teacher's labels by cross-entropy, the critic on the returns."""
        c = self.config
        data = {k: torch.from_numpy(v) for k, v in self._rollout(True, beta).items()}
        for _ in range(c.epochs):
            for idx in self._batches(len(data["action"])):
                b = torch.from_numpy(idx)
                logits = self.net.logits(data["obs"][b], data["mask"][b])
                policy_loss = nn_cross_entropy(logits, data["label"][b])
                value = self.net.value(data["obs"][b]).squeeze(-1)
                value_loss = ((value - data["ret"][b]) ** 2).mean()
                self._step(policy_loss + c.value_coef * value_loss)
        labelled = data["label"] >= 0
        same = logits.argmax(dim=1) == data["label"][b]
        self.progress.stats = {
            "cross_entropy": round(policy_loss.item(), 4),
            "value_loss": round(value_loss.item(), 4),
            "agreement": round(float(same[labelled[b]].float().mean()), 4),
        }

    def _ppo(self) -> None:
        """One PPO iteration: a rollout, then `epochs` passes of minibatches."""
        c = self.config
        data = {k: torch.from_numpy(v) for k, v in self._rollout(False, 0.0).items()}
        adv = data["adv"]
        data["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(c.epochs):
            for idx in self._batches(len(data["action"])):
                b = torch.from_numpy(idx)
                dist = Categorical(logits=self.net.logits(data["obs"][b], data["mask"][b]))
                ratio = torch.exp(dist.log_prob(data["action"][b]) - data["logp"][b])
                a = data["adv"][b]
                clipped = torch.clamp(ratio, 1 - c.clip, 1 + c.clip)
                policy_loss = -torch.min(ratio * a, clipped * a).mean()
                value = self.net.value(data["obs"][b]).squeeze(-1)
                value_loss = ((value - data["ret"][b]) ** 2).mean()
                entropy = dist.entropy().mean()
                self._step(policy_loss + c.value_coef * value_loss - c.entropy * entropy)
        with torch.no_grad():
            log_ratio = torch.log(ratio)
            self.progress.stats = {
                "entropy": round(entropy.item(), 4),
                "value_loss": round(value_loss.item(), 4),
                "approx_kl": round(float(((ratio - 1) - log_ratio).mean()), 5),
                "clipped": round(float(((ratio - 1).abs() > c.clip).float().mean()), 4),
            }

    def _step(self, loss: torch.Tensor) -> None:
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
        self.optimizer.step()

    # --- evaluation, files ---------------------------------------------------------------

    def policy(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The deterministic policy: the legal action of highest logit."""
        with torch.no_grad():
            logits = self.net.logits(torch.from_numpy(obs), torch.from_numpy(mask))
        return logits.argmax(dim=1).numpy()

    def evaluate(self) -> list[Strength]:
        c = self.config
        return [
            evaluate(
                self.policy,
                seated(lineup, c.players),
                c.eval_games,
                slots=c.slots,
                advice=c.advice,
            )
            for lineup in c.evaluate_against
        ]

    def checkpoint(self, report: Report, stage: str) -> None:
        """Evaluate, then write policy.npz, checkpoint.pt, curve.csv and curve.png."""
        report(self.progress, f"{stage}: evaluating")
        results = self.evaluate()
        p = self.progress
        row: dict[str, Any] = {
            "decisions": p.decisions, "seconds": round(p.seconds, 1), "stage": stage,
            **{name: p.stats.get(name, "") for name in STATS},
        }  # fmt: skip
        for s in results:
            low, high = s.interval
            key = "+".join(s.opponents)
            row[key] = round(s.rate, 4)
            row[f"{key}_low"], row[f"{key}_high"] = round(low, 4), round(high, 4)
        p.evaluations.append(row)
        self.write_policy(self.out / "policy.npz")
        torch.save(
            {
                "net": self.net.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "progress": asdict(p),
                "config": asdict(self.config),
            },
            self.out / "checkpoint.pt",
        )
        self._write_curve()

    def write_policy(self, path: Path) -> None:
        c, p = self.config, self.progress
        meta = {
            "slots": c.slots,
            "activation": "tanh",
            "players": [c.players],
            "advice": c.advice,
            "description": (
                f"skyjo train: {p.imitated:,} decisions imitating {c.teacher}, "
                f"{p.trained:,} of PPO against {','.join(c.opponents)}"
            ),
            "config": asdict(c),
            "evaluations": p.evaluations,
        }
        write_policy(path, self.net.layers(self.net.policy), meta)

    def _write_curve(self) -> None:
        rows = self.progress.evaluations
        keys = list(dict.fromkeys(k for row in rows for k in row))
        with open(self.out / "curve.csv", "w", newline="") as f:
            writer = csv.DictWriter(f, keys)
            writer.writeheader()
            writer.writerows(rows)
        plot_curve(rows, self.config.evaluate_against, self.out / "curve.png")
        (self.out / "config.json").write_text(json.dumps(asdict(self.config), indent=2))

    def _load(self) -> None:
        state = torch.load(self.out / "checkpoint.pt", weights_only=False)
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.progress = Progress(**state["progress"])


#: The training statistics a curve's row holds (the last update's, empty in the other stage).
STATS = ("cross_entropy", "agreement", "entropy", "approx_kl", "clipped", "value_loss")


def seated(lineup: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The bots of every other seat: one bot given takes them all."""
    return lineup * (players - 1) if len(lineup) == 1 else lineup


def nn_cross_entropy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of the rows with a label (>= 0)."""
    keep = labels >= 0
    return torch.nn.functional.cross_entropy(logits[keep], labels[keep])


def plot_curve(
    rows: list[dict[str, Any]], lineups: tuple[tuple[str, ...], ...], path: Path
) -> None:
    """Win rate (with its 95% interval) against each lineup by decisions trained."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    x = [row["decisions"] / 1e6 for row in rows]
    for lineup in lineups:
        key = "+".join(lineup)
        y = [100 * row[key] for row in rows]
        low = [100 * row[f"{key}_low"] for row in rows]
        high = [100 * row[f"{key}_high"] for row in rows]
        axes.plot(x, y, marker="o", label=f"vs {key}")
        axes.fill_between(x, low, high, alpha=0.2)
    axes.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    axes.set_xlabel("decisions trained (millions)")
    axes.set_ylabel("games won (%)")
    axes.set_ylim(0, 100)
    axes.legend()
    axes.set_title("skyjo train: the learning curve")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
