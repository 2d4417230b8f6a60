"""The coach's reviews of finished games (`skyjo.analysis`), made off the event loop.

A review costs seconds of CPU to a minute or so (docs/review.md): each one runs
in a process of its own, spawned by the one thread of `Reviews` (which runs
them one at a time, in the order they were asked for), at a lower priority
than the server, with the kernel's parent-death signal and a watch on the
server (`skyjo.web.thinking`): a review never outlives its server. The
process sends its progress (decisions rated, of all) and then the review
through a pipe; the review is kept in the database (`Store.save_review`)
under its record's id (`storage.upload_id`), so a game is reviewed once,
whoever asks and wherever it was played. `Reviews` holds only the reviews in
flight: one asked for again while it waits or runs is the same one. At most
`MAX_WAITING` wait; past that, `unavailable` (503) with a Retry-After.

The server's own process never imports the analysis (NumPy, Numba and the
learned value load in the review's process).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from skyjo.web.protocol import ProtocolError
from skyjo.web.thinking import _start_worker

#: How many reviews may wait for the one running.
MAX_WAITING = 8
#: How often (seconds) a review's process reports its progress, at most.
REPORT_EVERY = 0.25
#: What a refusal for a full queue suggests waiting, in seconds.
RETRY_AFTER = 30

log = logging.getLogger("skyjo.web")


# --- in the review's process ---------------------------------------------------------


def _work(record: dict[str, Any], send: Connection, server: int) -> None:
    """Review `record` (`skyjo.analysis.review`), reporting to `send`:
    ("progress", done, total) now and then, then ("done", review) or
    ("error", reason)."""
    _start_worker(server)
    try:
        from skyjo.analysis import review

        last = 0.0

        def progress(done: int, total: int) -> None:
            nonlocal last
            now = time.monotonic()
            if done == total or now - last >= REPORT_EVERY:
                send.send(("progress", done, total))
                last = now

        send.send(("done", review(record, progress=progress).to_dict()))
    except Exception as error:  # the server says it, and can be asked again
        send.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        send.close()


# --- in the server ---------------------------------------------------------------------


@dataclass(slots=True)
class Job:
    """A review in flight: its record's id and how far it got."""

    key: str
    running: bool = False
    done: int = 0
    total: int = 0
    failed: str | None = None
    future: Future[None] | None = field(default=None, repr=False)

    def progress(self) -> dict[str, Any]:
        """The answer while it is made: `queued` or `running`, done of total."""
        status = "running" if self.running else "queued"
        return {"status": status, "done": self.done, "total": self.total}


class Reviews:
    """The reviews in flight (see the module). `save(key, review)` keeps a finished one."""

    def __init__(self, save: Callable[[str, dict[str, Any]], None]) -> None:
        self._save = save
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        #: The one thread that spawns and waits for every review's process, in turn: it
        #: lives until `close`, so the parent-death signal fires when the server dies.
        self._runner = ThreadPoolExecutor(1, thread_name_prefix="skyjo-reviewer")
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._process: Any = None  #: the running review's process, if any
        self._closed = False

    def progress(self, key: str) -> dict[str, Any] | None:
        """How the review of `key` goes, or None when none is in flight; a review
        that failed is `unavailable`, naming why (asking again starts it again)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is None:
                return None
            if job.failed is not None:
                raise ProtocolError("unavailable", f"the review could not be made: {job.failed}")
            return job.progress()

    def start(self, key: str, record: dict[str, Any]) -> dict[str, Any]:
        """Start the review of `record` (id `key`) unless it is in flight; its progress."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.failed is None:
                return job.progress()
            waiting = sum(not j.running and j.failed is None for j in self._jobs.values())
            if waiting >= MAX_WAITING or self._closed:
                raise ProtocolError(
                    "unavailable",
                    f"the server is busy with {waiting} reviews: try again in a while",
                    "reviews_busy",
                    {"waiting": waiting, "retry_after": RETRY_AFTER},
                )
            job = self._jobs[key] = Job(key)
            job.future = self._runner.submit(self._run, job, record)
            return job.progress()

    def wait(self, key: str, timeout: float | None = None) -> None:
        """Wait until the review of `key` in flight is made or has failed (tests
        and tools; a page polls instead)."""
        with self._lock:
            job = self._jobs.get(key)
        if job is not None and job.future is not None:
            job.future.result(timeout)

    def _run(self, job: Job, record: dict[str, Any]) -> None:
        """Make one review in a process of its own (in the runner's thread)."""
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_work, args=(record, send, os.getpid()), daemon=True, name="skyjo-review"
        )
        try:
            with self._lock:
                if self._closed:
                    return
                job.running = True
                self._process = process
                process.start()
            send.close()
            review = self._receive(job, receive, process)
            self._save(job.key, review)
            with self._lock:
                self._jobs.pop(job.key, None)
        except Exception as error:
            log.warning("a review failed: %s", error)
            with self._lock:
                job.failed = str(error) or type(error).__name__
        finally:
            receive.close()
            with contextlib.suppress(ValueError, AssertionError):
                process.join(timeout=5)
                if process.is_alive():
                    process.kill()
                    process.join()
            with self._lock:
                self._process = None

    def _receive(self, job: Job, receive: Connection, process: Any) -> dict[str, Any]:
        """Read the review's messages until its review (or its failure)."""
        while True:
            if not receive.poll(0.5):
                if not process.is_alive() and not receive.poll(0):
                    raise RuntimeError("the review's process ended without a review")
                continue
            try:
                message = receive.recv()
            except EOFError:
                raise RuntimeError("the review's process ended without a review") from None
            if message[0] == "progress":
                job.done, job.total = message[1], message[2]
            elif message[0] == "done":
                return dict(message[1])
            else:
                raise RuntimeError(message[1])

    def close(self) -> None:
        """Stop: the waiting reviews never start, the running one's process is
        killed, and the runner's thread ends."""
        with self._lock:
            self._closed = True
            for job in self._jobs.values():
                if job.future is not None:
                    job.future.cancel()
            if self._process is not None and self._process.is_alive():
                self._process.kill()
        self._runner.shutdown(wait=True)
