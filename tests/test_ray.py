"""`--backend ray`: a local Ray instance plays the same games as the local backend.

Ray is a test dependency (the `test` extra), so this test always runs. The
instance is local, with two CPUs, no dashboard and no usage statistics; it
listens on localhost only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # before Ray is imported

import ray

from skyjo.bots import bot_names
from skyjo.rules import Rules
from skyjo.sim import make_config, run_tournament

FAST = "greedy" if "greedy" in bot_names() else "random"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        _node_ip_address="127.0.0.1",
        log_to_driver=False,
        configure_logging=False,
    )
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_backend_gives_the_local_results(local_ray: None) -> None:
    config = make_config(
        f"random,{FAST}", players=3, games=9, seed=11, rules=Rules(target_score=40)
    )
    local = run_tournament(config, workers=1)
    done: list[int] = []
    on_ray = run_tournament(config, backend="ray", progress=lambda d, _: done.append(d))
    assert on_ray == local
    assert on_ray.to_dict() == local.to_dict()
    assert done[-1] == 9  # several tasks reported progress
    assert len(done) > 1
