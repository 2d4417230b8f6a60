"""Bots that think in worker processes, so that a `search` bot never holds the
server's event loop (nor its GIL) while it thinks.

`Thinkers` holds a few single-process pools. A room's match is made with
`Thinkers.maker(code)` as its bot factory: each bot is a `RemoteBot` stand-in
whose `choose` sends the observation to the one worker that keeps the real bot
of that (room, seat, match), and waits for the answer (in the room's worker
thread, off the event loop). The real bot lives in that worker from its first
move to the game's end and sees every observation of its seat in order, so its
choices are the ones it would make in the server's own process: a seeded bot
stays deterministic for the match. Bots are pinned to a worker by their key, so
one search bot keeps one worker busy and the others serve the other rooms.

The workers start in the background: a server answers at once, and a bot's
first move waits for its worker if it is not up yet (starting one takes a
Python and its imports: a tenth of a second on a quiet fast machine, seconds
on a slow busy one). Nor does the server build a bot to check a ladder bot's
bare name (`maker`): it would import that bot's modules (NumPy and Numba for
`expected` and `search`, half a second) into a process that never runs it.

If a worker dies, its pool is replaced and the bots it held start afresh from
what they see (as on a resumed match, `skyjo.match`).

A worker never outlives its server, however the server dies. On Linux the
kernel kills it when its parent goes (`PR_SET_PDEATHSIG`, set as it starts):
at once, whatever the worker is doing, even when its own Python cannot run
(stopped, starved of CPU, deep in compiled code that holds its GIL). The
kernel sends that signal when the *thread* that spawned the worker ends, not
only the process, so every worker is spawned from one thread that lives as
long as the `Thinkers` (`_spawner`). Elsewhere, and as a second guard, a thread
of the worker checks every `WATCH_EVERY` seconds that its parent is still the
server, which needs that thread to be scheduled and to get the GIL.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import zlib
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from skyjo.bots import Bot, make_bot
from skyjo.observation import Observation

#: A bot's key in its worker: (room code, match number, bot seed).
Key = tuple[str, int, int]
#: How much lower the workers' scheduling priority is than the server's.
WORKER_NICENESS = 10
#: How often (seconds) a worker checks that its server is still there.
WATCH_EVERY = 1.0
#: prctl(2)'s option to have the kernel signal a process when its parent thread ends.
PR_SET_PDEATHSIG = 1

log = logging.getLogger("skyjo.web")

# --- in the worker process --------------------------------------------------------

_bots: dict[Key, Bot] = {}


def _choose(key: Key, spec: str, seed: int, start: tuple[Any, ...] | None, obs: Observation) -> int:
    bot = _bots.get(key)
    if bot is None:
        bot = _bots[key] = make_bot(spec, seed)
        begin = getattr(bot, "start", None)
        if start is not None and callable(begin):
            seat, players, rules, names = start
            begin(seat, players, rules, players=names)
    return int(bot.choose(obs))


def _end(key: Key, final: Observation | None) -> None:
    bot = _bots.pop(key, None)
    if bot is None:
        return
    if final is not None and callable(getattr(bot, "game_over", None)):
        bot.game_over(final)  # type: ignore[attr-defined]
    if callable(getattr(bot, "close", None)):
        bot.close()  # type: ignore[attr-defined]


def _ready() -> bool:
    return True


def _start_worker(server: int) -> None:
    """A worker's start: so that a worker never outlives its server (a server
    killed with SIGKILL cannot stop its workers itself), the kernel's
    parent-death signal (`die_with_parent`); then a lower priority, so the
    server's event loop answers first (a worker seen with it has the signal
    set), and a watch on the server."""
    die_with_parent()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_watch, args=(server,), daemon=True, name="watch").start()


def die_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when the thread that spawned it ends
    (prctl PR_SET_PDEATHSIG); False where that cannot be asked (another system,
    no C library). A parent gone before the request is the watch's to notice."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(server: int) -> None:
    """Exit once the parent is no longer `server` (it died: the worker was
    given to another process), checking every `WATCH_EVERY` seconds."""
    while os.getppid() == server:
        time.sleep(WATCH_EVERY)
    os._exit(0)  # the server is gone: so is every game this worker thought for


# --- in the server ------------------------------------------------------------------


class Thinkers:
    """`processes` worker processes (each a pool of one), started in the background."""

    def __init__(self, processes: int) -> None:
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        #: The one thread that spawns every worker: it lives until `close`, so the
        #: kernel's parent-death signal fires when the server dies, not before.
        self._spawner = ThreadPoolExecutor(1, thread_name_prefix="skyjo-spawner")
        #: Each worker's pool, once started (the spawner starts them in turn).
        self._pools = [self._pool() for _ in range(processes)]
        self._lock = threading.Lock()
        self._matches = itertools.count(1)

    def _pool(self) -> Future[ProcessPoolExecutor]:
        """A new pool of one worker, to be started (in the spawner thread); a
        failure to start it is logged (and raised to the bots that wait for it)."""
        started = self._spawner.submit(self._started_pool)
        started.add_done_callback(_report)
        return started

    def _started_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(
            1, mp_context=self._context, initializer=_start_worker, initargs=(os.getpid(),)
        )
        pool.submit(_ready).result()  # spawned here, by this thread; skyjo imported
        return pool

    def wait(self) -> None:
        """Wait until every worker has started (a failure to start raises here)."""
        for pool in list(self._pools):
            pool.result()

    def maker(self, code: str) -> Any:
        """The bot factory of one match of room `code` (for `Match(make=...)`)."""
        from skyjo.web.settings import LADDER  # (not in the workers: it imports SQLAlchemy)

        match = next(self._matches)

        def make(spec: str, seed: int) -> RemoteBot:
            if spec not in LADDER:  # a ladder bot's bare name always makes a bot
                make_bot(spec, seed)  # bad options fail here, at once, as in-process
            return RemoteBot(self, (code, match, seed), spec, seed)

        return make

    def call(self, key: Key, function: Any, *args: Any) -> Any:
        """Run `function(key, *args)` in the worker that keeps `key`'s bot (once it
        has started)."""
        index = zlib.crc32(repr(key).encode()) % len(self._pools)
        started = self._pools[index]
        try:
            return started.result().submit(function, key, *args).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pools[index] is started:
                    self._pools[index] = self._pool()
            raise

    def tell(self, key: Key, function: Any, *args: Any) -> None:
        """Run `function(key, *args)` in `key`'s worker without waiting (the end of
        a game may be told from the event loop, which must not wait for a worker):
        sent at once, or once the worker has started."""
        index = zlib.crc32(repr(key).encode()) % len(self._pools)

        def send(started: Future[ProcessPoolExecutor]) -> None:
            # a pool shut down, gone, or that never started: nobody is left to tell
            with contextlib.suppress(RuntimeError, BrokenProcessPool, OSError, CancelledError):
                started.result().submit(function, key, *args)

        self._pools[index].add_done_callback(send)

    def close(self) -> None:
        """Stop every worker and wait for it (a move it is thinking of ends
        first; a worker not started yet is not started). Waiting releases the
        pools' queues here, with their semaphores: not waiting left them to
        the interpreter's exit, which `skyjo serve` never reaches on SIGTERM
        (uvicorn raises the signal again after its shutdown), and the resource
        tracker reported them leaked."""
        for started in self._pools:
            started.cancel()  # not begun: it never will
        for started in self._pools:
            # (one that could not start was logged: `_report`)
            with contextlib.suppress(CancelledError, BrokenProcessPool, OSError, RuntimeError):
                started.result().shutdown(wait=True, cancel_futures=True)
        self._spawner.shutdown(wait=True)


def _report(started: Future[ProcessPoolExecutor]) -> None:
    if not started.cancelled() and started.exception() is not None:
        log.error("a bot worker could not start", exc_info=started.exception())


class RemoteBot:
    """A bot of a match whose thinking happens in a worker process."""

    def __init__(self, thinkers: Thinkers, key: Key, spec: str, seed: int) -> None:
        self.name = spec
        self._thinkers = thinkers
        self._key = key
        self._spec = spec
        self._seed = seed
        self._start: tuple[Any, ...] | None = None

    def start(self, seat: int, num_players: int, rules: Any, players: Any = None) -> None:
        self._start = (seat, num_players, rules, players)

    def choose(self, observation: Observation) -> int:
        args = (self._spec, self._seed, self._start, observation)
        return int(self._thinkers.call(self._key, _choose, *args))

    def game_over(self, observation: Observation) -> None:
        self._end(observation)

    def close(self) -> None:
        self._end(None)

    def _end(self, final: Observation | None) -> None:
        self._thinkers.tell(self._key, _end, final)
