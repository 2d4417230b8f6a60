"""bench/server.py, the web server's benchmark, kept working: a cluster measured on a
PostgreSQL server of its own (each worker count in turn, and direct to each room's
owner), the cores of a server counted over its whole process tree, and a cluster
on SQLite refused before anything starts."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_module() -> ModuleType:
    sys.path.insert(0, str(BENCH))  # its `machine` module, beside it
    spec = importlib.util.spec_from_file_location("bench_server", BENCH / "server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_the_cores_of_a_process_tree_count_a_grandchild_started_in_the_window() -> None:
    """A server's cores add up its workers and their bots' workers: processes two
    levels down, started after the window opened (counted from zero)."""
    server = bench_module()
    burn = "import sys, time\nwhile time.process_time() < 0.3: pass\nprint('done', flush=True)\n"
    burn += "sys.stdin.read()"
    middle = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {burn!r}])"
    outer = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {middle!r}])"
    process = subprocess.Popen(
        [sys.executable, "-c", outer], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        cores = server.Cores({"tree": lambda: list(server.tree(process.pid))})
        assert process.stdout is not None
        assert process.stdout.readline() == "done\n"  # the grandchild has burnt its 0.3 s
        used = cores.used()["tree_cores"]
        seconds = time.monotonic() - cores.begun
        assert used * seconds >= 0.25, (used, seconds)
        depths = sorted(server.tree(process.pid).values())
        assert depths == [0, 1, 2], depths  # as a supervisor, a worker, its bots' worker
    finally:
        assert process.stdin is not None
        process.stdin.close()  # the burning process reads its end, and every level ends
        process.kill()
        process.wait(timeout=30)


def test_a_cluster_is_measured_on_its_own_postgresql_each_count_in_turn() -> None:
    command = [sys.executable, str(BENCH / "server.py"), "--postgres", "--json", "--runs", "1"]
    command += ["--workers", "1", "--workers", "2", "--direct", "--rooms", "4"]
    command += ["--no-think-seconds", "1.5", "--bot-every", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    runs = json.loads(done.stdout.splitlines()[-1])["runs"]
    labels = [run["server"] for run in runs]
    assert labels == [
        "this tree, 1 workers",
        "this tree, 2 workers",
        "this tree, 2 workers, direct",
    ]
    for run in runs:
        assert run["errors"] == 0, run["first_errors"]
        assert run["moves"] > 0
        assert run["postgres_cores"] is not None
        total = run["server_cores"] + run["bot_workers_cores"]
        assert abs(run["server_total_cores"] - total) < 0.015


def test_a_cluster_on_sqlite_is_refused_naming_why() -> None:
    command = [sys.executable, str(BENCH / "server.py"), "--workers", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    said = " ".join(done.stderr.split())
    assert "--workers 2 needs PostgreSQL" in said, done.stderr
