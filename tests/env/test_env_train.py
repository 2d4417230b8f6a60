"""examples/train.py's quick mode runs end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TRAIN = Path(__file__).resolve().parents[2] / "examples" / "train.py"


def test_quick_training_runs_and_reports_the_tournament() -> None:
    done = subprocess.run(
        [sys.executable, str(TRAIN), "--quick"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "iteration  2:" in done.stdout
    for row in ("trained vs random: wins", "trained vs greedy: wins", "greedy vs random: wins"):
        assert row in done.stdout
