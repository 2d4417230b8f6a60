"""`skyjo train`: a few-second run end to end (its files, its figures, its
resumption), the policy file read back in NumPy giving the trainer's own
choices, imitation that learns its teacher, and the pieces (advantages,
the shaping's potential, Wilson's interval, the settings refused)."""

from __future__ import annotations

import builtins
import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from skyjo.bots.encoding import with_advice
from skyjo.bots.learned import load_policy
from skyjo.cli import app
from skyjo.env import SkyjoVectorEnv
from skyjo.train.evaluate import wilson
from skyjo.train.ppo import Potential, advantages
from skyjo.train.trainer import Run, TrainConfig

TINY = [
    "--imitation", "4096", "--decisions", "4096", "--tables", "64", "--steps", "32",
    "--hidden", "16", "--eval-every", "4096", "--eval-games", "20",
]  # fmt: skip


def numpy_policy(path: Path) -> tuple[dict[str, Any], list[tuple[np.ndarray, np.ndarray]]]:
    """The policy file's meta and layers, read as the `learned` bot reads them."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(len(meta["config"]["hidden"]) + 1)]
    return meta, layers


def test_a_tiny_run_writes_its_policy_checkpoint_and_curve(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "--out", str(out), *TINY, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["imitated"] == 4096 and summary["trained"] == 4096
    assert {p.name for p in out.iterdir()} >= {
        "policy.npz", "checkpoint.pt", "curve.csv", "curve.png", "config.json",
    }  # fmt: skip
    rows = list(csv.DictReader((out / "curve.csv").read_text().splitlines()))
    assert [int(r["decisions"]) for r in rows] == [4096, 8192]
    assert [r["stage"] for r in rows] == ["imitation", "ppo"]
    assert 0 <= float(rows[0]["agreement"]) <= 1 and rows[0]["approx_kl"] == ""
    assert float(rows[1]["entropy"]) > 0 and rows[1]["agreement"] == ""
    for r in rows:
        for lineup in ("greedy", "expected"):
            assert float(r[f"{lineup}_low"]) <= float(r[lineup]) <= float(r[f"{lineup}_high"])
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    meta, layers = numpy_policy(out / "policy.npz")
    assert meta["format"] == "skyjo-policy/1" and meta["slots"] == 8
    assert meta["activation"] == "tanh" and meta["players"] == [2]
    assert meta["advice"] == "expected"  # the input ends with expected's move, one-hot
    assert [w.shape for w, _ in layers] == [(376 + 39, 16), (16, 39)]
    assert all(w.dtype == np.float32 for w, _ in layers)

    longer = [*TINY[:3], "8192", *TINY[4:]]  # the PPO stage goes on to 8,192 decisions
    again = CliRunner().invoke(app, ["train", "--out", str(out), *longer, "--resume", "--json"])
    assert again.exit_code == 0, again.output
    resumed = json.loads(again.stdout)
    assert (resumed["imitated"], resumed["trained"]) == (4096, 8192)
    assert len(resumed["evaluations"]) == 3


def test_the_policy_file_plays_as_the_trainer_does(tmp_path: Path) -> None:
    """The `learned` bot's NumPy inference over the file gives the trainer's
    deterministic choices, on real observations."""
    run = Run(TrainConfig(out=str(tmp_path), hidden=(24, 12), tables=32))
    for _ in range(3):  # move the weights away from their start
        run._imitate(1.0)
    run.write_policy(tmp_path / "p.npz")
    policy = load_policy(tmp_path / "p.npz")  # the learned bot's NumPy inference
    envs = SkyjoVectorEnv(64, opponents=["greedy"], slots=8)
    obs, info = envs.reset(seed=5)
    for _ in range(30):
        advised = with_advice(obs, envs.teacher_actions("expected"))
        mine = run.policy(advised, info["action_mask"])
        np.testing.assert_array_equal(policy.actions(advised, info["action_mask"]), mine)
        assert (info["action_mask"][np.arange(64), mine] == 1).all()
        obs, _, _, _, info = envs.step(mine)


def test_imitation_learns_its_teacher(tmp_path: Path) -> None:
    """After a few rounds of imitation the policy agrees with `greedy` on
    far more decisions than at the start (not all: greedy breaks ties and picks
    the card it flips at random)."""

    def agreement(run: Run) -> float:
        envs = SkyjoVectorEnv(128, opponents=["greedy"], slots=8)
        obs, info = envs.reset(seed=99)
        same = total = 0
        for _ in range(40):
            labels = envs.teacher_actions("greedy")
            mine = run.policy(obs, info["action_mask"])
            same += int((mine == labels).sum())
            total += len(labels)
            obs, _, _, _, info = envs.step(labels)
        return same / total

    config = TrainConfig(
        out=str(tmp_path), teacher="greedy", opponents=("greedy",), hidden=(64,), tables=128,
        steps=32, minibatch=1024, advice=None,
    )  # fmt: skip
    run = Run(config)
    before = agreement(run)
    for _ in range(12):
        run._imitate(1.0)
    after = agreement(run)
    assert before < 0.3 and after > 0.5  # measured: 0.22, then 0.59


def test_advantages_are_the_discounted_td_errors() -> None:
    rewards = np.array([[1.0], [0.0], [2.0]], np.float32)
    values = np.array([[0.5], [0.2], [1.0]], np.float32)
    dones = np.array([[0.0], [1.0], [0.0]], np.float32)
    last = np.array([3.0], np.float32)
    gamma, lam = 0.9, 0.8
    d2 = 2.0 + gamma * 3.0 - 1.0  # goes on past the rollout
    d1 = 0.0 - 0.2  # the episode ends after step 1: nothing follows
    d0 = 1.0 + gamma * 0.2 - 0.5
    expected = [d0 + gamma * lam * d1, d1, d2]
    got = advantages(rewards, values, dones, last, gamma, lam)[:, 0]
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_the_potential_is_the_lowest_rival_total_minus_ones_own() -> None:
    envs = SkyjoVectorEnv(1, opponents=["greedy", "greedy", "greedy"], slots=8)
    layout = envs.layout
    obs = np.zeros((1, layout.size), np.float32)
    obs[0, layout.offsets["present"]] = [1, 1, 1, 1, 0, 0, 0, 0]
    obs[0, layout.offsets["totals"]] = [0.5, 0.7, 0.4, 0.9, 0, 0, 0, 0]
    assert Potential.of(layout)(obs)[0] == pytest.approx(-0.1)


def test_wilsons_interval() -> None:
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1"], "players must be at least 2, not 1"),
        (["--opponents", "search"], "compiled bots random, greedy, basic, expected"),
        (["--players", "3", "--opponents", "greedy,random,basic"], "3 opponents for 3 players"),
        (["--hidden", "0"], "widths of at least 1"),
        (["--hidden", "x"], "--hidden is 'x'"),
        (["--eval-games", "0"], "eval_games must be at least 1, not 0"),
    ],
)
def test_bad_settings_are_refused_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["train", *args])
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_without_pytorch_it_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def no_torch(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError("No module named 'torch'", name="torch")
        return real(name, *args, **kwargs)

    for name in [m for m in __import__("sys").modules if m.startswith("skyjo.train")]:
        monkeypatch.delitem(__import__("sys").modules, name)
    monkeypatch.setattr(builtins, "__import__", no_torch)
    result = CliRunner().invoke(app, ["train"])
    assert result.exit_code == 2
    assert "skyjo train needs PyTorch: pip install 'skyjo[train]'" in result.stderr
    assert torch.__version__  # the real one is untouched
