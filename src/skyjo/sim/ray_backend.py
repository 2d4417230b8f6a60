"""Run a tournament's chunks of games as Ray tasks (`skyjo tournament --backend ray`).

Ray is optional: `pip install 'skyjo[ray]'`. Each chunk of consecutive games
(`skyjo.sim.tournament.Chunk`) is one task, played by the function the caller
gives (`skyjo.sim.tournament.play_chunk`, pickled by reference: this module
never imports the tournament); the tasks return their games, which the caller
puts back in game order, so a Ray run gives exactly the results of a local run
with the same seed.

The cluster: `address` as for `ray.init` (`"auto"`, `"ray://host:10001"`, ...).
Without an address, a Ray instance already started in this process is used,
else a local one is started (and shut down afterwards). Every node needs the
`skyjo` package (and the bots' dependencies) installed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from skyjo.sim.results import GameResult, ProgressCallback

#: What to install when Ray is missing.
INSTALL_HINT = "pip install 'skyjo[ray]'"


class RayUnavailableError(ValueError):
    """`--backend ray` without Ray installed."""


def ray_module() -> Any:
    """The `ray` module, or `RayUnavailableError` saying what to install."""
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(
            f"--backend ray needs Ray, which is not installed: {INSTALL_HINT}"
        ) from None
    return ray


class Span(Protocol):
    """A run of consecutive games: games `start` to `stop - 1`."""

    @property
    def start(self) -> int: ...

    @property
    def stop(self) -> int: ...


S = TypeVar("S", bound=Span)


def run_ray(
    play: Callable[[S], list[GameResult]],
    chunks: Sequence[S],
    address: str | None = None,
    progress: ProgressCallback | None = None,
) -> Iterator[list[GameResult]]:
    """Play each chunk as a Ray task running `play(chunk)`; yield each chunk's
    games as it finishes."""
    total = sum(c.stop - c.start for c in chunks)
    done = 0
    for _, games in map_ray(play, chunks, address):
        done += len(games)
        if progress:
            progress(done, total)
        yield games


T = TypeVar("T")
R = TypeVar("R")


def map_ray(
    work: Callable[[T], R], items: Sequence[T], address: str | None = None
) -> Iterator[tuple[int, R]]:
    """Run `work(item)` for each item as a Ray task on the cluster at `address`
    (see the module); yield (index of the item, its result) as each finishes."""
    ray = ray_module()
    started = False
    if not ray.is_initialized():
        # No usage statistics sent anywhere unless the user asked for them.
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            options["address"] = address
        else:  # a new single-machine instance: keep it on the loopback interface
            options["_node_ip_address"] = "127.0.0.1"
        ray.init(**options)
        started = True
    try:
        task = ray.remote(work)
        pending = {task.remote(item): i for i, item in enumerate(items)}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                yield pending.pop(ref), ray.get(ref)
    finally:
        if started:
            ray.shutdown()


__all__ = ["INSTALL_HINT", "RayUnavailableError", "map_ray", "ray_module", "run_ray"]
