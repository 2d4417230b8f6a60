"""The `external` bot: any program that speaks the line-based JSON protocol.

The program runs as a subprocess. The engine writes one JSON object per line
on its standard input (a `hello`, then an `act` per decision, then `result`
and `bye`) and reads one JSON object per line from its standard output (a
`ready`, then an `{"id": ..., "action": ...}` per `act`). The protocol is
documented in docs/bot-protocol.md; `examples/bots/random_bot.py` is a
complete bot in a few lines.

The program never touches the game: `ExternalBot.choose` only ever returns
one of the observation's legal actions. A program that answers late, answers
an illegal or malformed action, crashes or closes its output is reported (in
`ExternalBot.incidents` and on the `skyjo.bots.external` logger) and the move
is the fallback bot's. After a crash, a failed handshake or too many timeouts
in a row the program is stopped and every later move is the fallback's.

    bot = make_bot("external:command=python examples/bots/random_bot.py,timeout=0.5", seed=7)
    with bot:
        action = bot.choose(observe(state, seat))
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from typing import IO, Any

from skyjo.bots import make_bot
from skyjo.bots.base import Bot, BotError
from skyjo.engine import ACTION_NAMES, action_from_name
from skyjo.observation import Observation
from skyjo.rules import Rules
from skyjo.scoring import winners

PROTOCOL = "skyjo-bot/1"  #: the protocol version sent in `hello`
MAX_LINE = 1 << 20  #: the longest line (in bytes, without the newline) a bot may write
MAX_PENDING = 256  #: unread lines from a bot beyond which it is flooding its output
MAX_DEPTH = 32  #: the deepest nesting of arrays and objects accepted in a bot's line
STDERR_TAIL = 5  #: how many of the bot's last stderr lines a crash report quotes
STDERR_MODES = ("log", "inherit", "discard")
#: A first word that stands for the Python interpreter running the engine.
PYTHON_ALIASES = ("python", "python3")

INCIDENT_KINDS = ("timeout", "illegal", "malformed", "crashed")

_log = logging.getLogger(__name__)


class _Signal:
    """A marker the reader threads put on the line queue instead of a line."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


_EOF = _Signal("end of output")
_TOO_LONG = _Signal("line too long")
_FLOOD = _Signal("flood")
_STDIN_CLOSED = _Signal("stdin closed")
_CLOSE = _Signal("close")


class _Incident(Exception):
    """Something a bot did wrong; `fatal` ones stop the program."""

    def __init__(self, kind: str, detail: str, fatal: bool = False) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.fatal = fatal


def split_command(command: str | Sequence[str]) -> list[str]:
    """The argument list of `command`: a string is split as a POSIX shell
    would (`shlex.split`, no shell runs); a first word `python` or `python3`
    stands for the interpreter running the engine (`sys.executable`)."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise BotError(f"bad external bot command {command!r}: {error}") from None
    elif isinstance(command, Sequence):
        argv = [str(arg) for arg in command]
    else:
        argv = [str(command)]  # a spec value such as command=42 is typed as a number
    if not argv or not argv[0]:
        raise BotError("an external bot needs a command: external:command=PROGRAM ARGS...")
    if argv[0] in PYTHON_ALIASES:
        argv[0] = sys.executable
    return argv


_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


def _nested_too_deeply(line: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON `line` nests arrays and objects more than `limit` deep.

    Cheap, and safe on any input: a line with at most `limit` opening
    brackets is never scanned; otherwise the strings are cut out and the
    innermost bracket pairs removed `limit` times, all with bytes methods (no
    recursion, no Python loop over the bytes). A line whose brackets do not
    pair up is not JSON: it is left to `json.loads` to refuse.
    """
    if line.count(b"[") + line.count(b"{") <= limit:
        return False
    unescaped = line.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = b"".join(unescaped.split(b'"')[::2]).translate(None, _NOT_BRACKETS)
    for _ in range(limit):
        inner = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if inner == brackets:
            return False  # unpaired brackets: not JSON at all
        brackets = inner
    return bool(brackets)


def _parse_line(line: bytes) -> object:
    """The JSON value of one line of a bot's output, or a `malformed` incident
    (not UTF-8, not JSON, or nested more than `MAX_DEPTH` deep)."""
    if _nested_too_deeply(line):
        raise _Incident("malformed", f"nested more than {MAX_DEPTH} deep: {_short(line)}")
    try:
        return json.loads(line.decode("utf-8"))
    except RecursionError:  # unpaired brackets, nested deeper than the parser can go
        raise _Incident("malformed", f"nested too deeply: {_short(line)}") from None
    except (UnicodeDecodeError, ValueError):
        raise _Incident("malformed", f"not a line of JSON: {_short(line)}") from None


def _short(text: str | bytes, limit: int = 80) -> str:
    """`text` cut to `limit` characters, for an incident's detail."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


class _Process:
    """The bot's process and the threads around it.

    A reader thread turns the bot's stdout into a queue of lines (so that the
    engine waits with `queue.get(timeout=...)`, never polls), a writer thread
    writes the engine's messages (so that a bot that stops reading its stdin
    never blocks the engine), and with `stderr="log"` a third thread logs the
    bot's stderr and keeps its last lines for crash reports.
    """

    def __init__(
        self,
        argv: list[str],
        *,
        label: str,
        stderr: str,
        max_line: int,
        cwd: str | None,
    ) -> None:
        self.label = label
        self.max_line = max_line
        self.lines: queue.Queue[bytes | _Signal] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL)
        self._outbox: queue.Queue[bytes | _Signal] = queue.Queue()
        self._closed = False
        err: int | None = {"log": subprocess.PIPE, "inherit": None}.get(stderr, subprocess.DEVNULL)
        posix = os.name == "posix"
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            cwd=cwd,
            bufsize=-1,  # buffered: the writer flushes each message
            # Its own process group: the whole group is stopped at close, and
            # a Ctrl-C meant for the engine does not reach the bot.
            start_new_session=posix,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._writer = self._thread(self._write, self.proc.stdin, "writer")
        #: The bot's output pipes, each with the thread that reads it.
        self._readers = [(self.proc.stdout, self._thread(self._read, self.proc.stdout, "reader"))]
        if self.proc.stderr is not None:
            stderr_reader = self._thread(self._read_stderr, self.proc.stderr, "stderr")
            self._readers.append((self.proc.stderr, stderr_reader))

    def _thread(self, target: Any, stream: IO[bytes], role: str) -> threading.Thread:
        thread = threading.Thread(
            target=target, args=(stream,), name=f"{self.label} {role}", daemon=True
        )
        thread.start()
        return thread

    # --- threads -------------------------------------------------------------

    def _read(self, stream: IO[bytes]) -> None:
        """Queue the bot's output lines (without the newline) until its end."""
        limit = self.max_line + 1
        try:
            while True:
                line = stream.readline(limit)
                if not line:
                    break
                if line.endswith(b"\n"):
                    self.lines.put(line[:-1])
                elif len(line) < limit:  # the last line, without a newline
                    self.lines.put(line)
                else:
                    self.lines.put(_TOO_LONG)
                    while line and not line.endswith(b"\n"):  # skip the rest of that line
                        line = stream.readline(limit)
                if self.lines.qsize() > MAX_PENDING:
                    self.lines.put(_FLOOD)
                    return  # stop reading: the bot is stopped when the engine sees this
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _write(self, stream: IO[bytes]) -> None:
        """Write the queued messages; close the bot's stdin at `_CLOSE`."""
        try:
            while True:
                data = self._outbox.get()
                if data is _CLOSE:
                    break
                assert isinstance(data, bytes)
                stream.write(data)
                stream.flush()
        except (OSError, ValueError):
            self.lines.put(_STDIN_CLOSED)
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _read_stderr(self, stream: IO[bytes]) -> None:
        """Log each line the bot writes on stderr and keep the last ones."""
        try:
            while True:
                line = stream.readline(self.max_line)
                if not line:
                    break
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                self.stderr_tail.append(text)
                _log.info("%s stderr: %s", self.label, text)
        except (OSError, ValueError):
            pass

    # --- the engine's side -------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message for the bot, as one line of JSON."""
        if not self._closed:
            data = json.dumps(message, separators=(",", ":")).encode() + b"\n"
            self._outbox.put(data)

    def exit_detail(self, grace: float) -> str:
        """How the bot ended, once its output has ended: its exit status and
        the last lines of its stderr. Helpers it left behind are stopped."""
        try:
            code = self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            return "closed its standard output"
        self._end_group(grace)  # a helper holding the bot's stderr would keep it open
        if len(self._readers) == 2:
            self._readers[1][1].join(grace)  # the stderr reader, for the last lines
        detail = f"exited with status {code}"
        if self.stderr_tail:
            detail += "; stderr ends with: " + " | ".join(self.stderr_tail)
        return detail

    def close(self, grace: float) -> None:
        """Close the bot's stdin and wait up to `grace` seconds for it to exit
        (then terminate its process group, wait `grace` again, and kill it);
        then end whatever is left of its process group, the helpers it started,
        and close its pipes. The process is always reaped: no zombie is left
        behind, nor any thread or pipe of this bot, unless a process that left
        the group holds the pipe (then its reader is given `grace` seconds)."""
        if self._closed:
            return
        self._closed = True
        self._outbox.put(_CLOSE)
        self._wait_or_stop(grace)
        self._end_group(grace)
        self._writer.join(grace)
        for stream, reader in self._readers:
            reader.join(grace)  # at once on POSIX: the group that held the pipe is gone
            if not reader.is_alive():  # closing a pipe while a thread reads it would block
                stream.close()

    def _wait_or_stop(self, grace: float) -> None:
        """Wait up to `grace` seconds for the bot to exit; then terminate it,
        wait `grace` again, kill it, and reap it."""
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            self._stop(kill=False)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self._stop(kill=True)
                self.proc.wait()

    def _end_group(self, grace: float) -> None:
        """End the processes left in the bot's process group once the bot has
        exited (helpers it started): SIGTERM, then SIGKILL as soon as the
        bot's output pipes are closed (when the helpers that held them have
        exited), or after `grace` seconds. Nothing to do off POSIX, or when
        the group is already empty."""
        if os.name != "posix" or not self._signal_group(signal.SIGTERM):
            return
        deadline = time.monotonic() + grace
        for _, reader in self._readers:
            reader.join(max(0.0, deadline - time.monotonic()))
        self._signal_group(signal.SIGKILL)

    def _signal_group(self, signum: int) -> bool:
        """Send `signum` to the bot's process group (its id is the bot's pid:
        the bot leads its own session); False if no process is left in it."""
        try:
            os.killpg(self.proc.pid, signum)
        except OSError:  # ProcessLookupError: the group is empty
            return False
        return True

    def _stop(self, kill: bool) -> None:
        """Terminate (SIGTERM) or kill (SIGKILL) the bot and its process group."""
        if self.proc.poll() is not None:
            return
        try:
            if os.name == "posix":
                os.killpg(self.proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
            elif kill:
                self.proc.kill()
            else:
                self.proc.terminate()
        except OSError:  # it has just exited
            pass


def _player_names(players: Sequence[str] | None, num_players: int) -> list[str]:
    """The `players` of `hello`: the runner's names for the seats, in seat
    order, or "seat 0", "seat 1"... when it gave none."""
    if players is None:
        return [f"seat {seat}" for seat in range(num_players)]
    names = [] if isinstance(players, str) else list(players)
    if len(names) != num_players or not all(isinstance(name, str) for name in names):
        raise ValueError(f"players must be {num_players} names, one a seat, not {players!r}")
    return names


def _close_quietly(process: _Process, grace: float) -> None:
    """The finalizer of an `ExternalBot` that was never closed."""
    with contextlib.suppress(Exception):  # at interpreter exit, little is left to report to
        process.close(grace)


class ExternalBot:
    """A bot played by an external program through docs/bot-protocol.md.

    `command` is the program and its arguments: a list, or a string split
    with `shlex` (no shell is involved; `python` stands for this interpreter).
    The program is started, and greeted with `hello`, at the first decision or
    at `start()`. Each decision waits at most `timeout` seconds, the handshake
    `handshake_timeout`; after `max_timeouts` timeouts in a row the program is
    stopped. `fallback` is the spec of the bot that plays a move the program
    did not (seeded with `seed`). `stderr` is "log" (each line on the
    `skyjo.bots.external` logger, at INFO), "inherit" or "discard". `close()`
    (or leaving a `with` block) says `bye` and waits `grace` seconds before
    terminating, then killing, the program, and then stops the helper
    processes it left in its process group.

    `incidents` lists what went wrong, each a dict with `seat`, `turn` (the
    number of the decision, from 1; 0 for the handshake), `kind` (timeout,
    illegal, malformed or crashed) and `detail`.
    """

    def __init__(
        self,
        seed: int,
        command: str | Sequence[str] | None = None,
        timeout: float = 1.0,
        fallback: str = "random",
        name: str = "external",
        handshake_timeout: float = 5.0,
        max_timeouts: int = 3,
        stderr: str = "log",
        grace: float = 1.0,
        max_line: int = MAX_LINE,
        cwd: str | None = None,
    ) -> None:
        if command is None:
            raise BotError("an external bot needs a command: external:command=PROGRAM ARGS...")
        self.argv = split_command(command)
        for label, value in (
            ("timeout", timeout),
            ("handshake_timeout", handshake_timeout),
            ("grace", grace),
        ):
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise BotError(f"{label} must be a number of seconds above 0, not {value!r}")
        if isinstance(max_timeouts, bool) or not isinstance(max_timeouts, int) or max_timeouts < 1:
            raise BotError(f"max_timeouts must be an integer of at least 1, not {max_timeouts!r}")
        if isinstance(max_line, bool) or not isinstance(max_line, int) or max_line < 1:
            raise BotError(f"max_line must be a positive integer, not {max_line!r}")
        if stderr not in STDERR_MODES:
            raise BotError(f"stderr must be one of {', '.join(STDERR_MODES)}, not {stderr!r}")
        if str(fallback).partition(":")[0].strip() == "external":
            raise BotError("the fallback of an external bot must not be another external bot")
        self.name = str(name)
        self.seed = seed
        self.timeout = float(timeout)
        self.handshake_timeout = float(handshake_timeout)
        self.max_timeouts = max_timeouts
        self.grace = float(grace)
        self.max_line = max_line
        self.stderr = stderr
        self.cwd = cwd
        self.fallback: Bot = make_bot(str(fallback), seed)
        #: What went wrong, in order: dicts with seat, turn, kind and detail.
        self.incidents: list[dict[str, Any]] = []
        #: The name the program gave in its `ready` answer.
        self.remote_name: str | None = None
        #: Answers to an earlier request that came too late and were dropped.
        self.stale_answers = 0
        self.seat: int | None = None
        self._process: _Process | None = None
        self._finalizer: weakref.finalize | None = None
        self._alive = True  # False once the program is stopped: the fallback plays
        self._turn = 0
        self._timeouts_in_a_row = 0
        self._result_sent = False

    # --- the Bot protocol ---------------------------------------------------------

    def choose(self, observation: Observation) -> int:
        """The program's answer to this decision, or the fallback's move if it
        has none in time, answers something illegal or malformed, or is gone."""
        self._turn += 1
        legal = observation.legal_actions
        if self._alive and self._process is None:
            self.start(observation.viewer, observation.num_players, observation.rules)
        if self._alive:
            try:
                return self._ask(observation)
            except _Incident as incident:
                self._report(incident)
        action = self.fallback.choose(observation)
        assert action in legal, f"the fallback bot {self.fallback.name!r} chose {action!r}"
        return action

    # --- the program's life ---------------------------------------------------------

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The program's process, once started."""
        return None if self._process is None else self._process.proc

    @property
    def alive(self) -> bool:
        """Whether the program still plays (False once stopped or closed)."""
        return self._alive

    def start(
        self,
        seat: int,
        num_players: int,
        rules: Rules | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        """Start the program and shake hands (`hello`, answered by `ready`).

        Runners call it before the game's first move, with the seats' names
        in seat order (`players`, sent in `hello`); otherwise `choose` does it
        at the first decision, and the names are "seat 0", "seat 1"... A
        program that cannot start or does not answer `ready` is reported and
        never asked again.
        """
        names = _player_names(players, num_players)
        if self._process is not None or not self._alive:
            return
        self.seat = seat
        label = f"external bot {self.name!r} (seat {seat})"
        try:
            self._process = _Process(
                self.argv, label=label, stderr=self.stderr, max_line=self.max_line, cwd=self.cwd
            )
        except OSError as error:
            self._report(_Incident("crashed", f"could not start {self.argv!r}: {error}", True), 0)
            return
        self._finalizer = weakref.finalize(self, _close_quietly, self._process, self.grace)
        self._process.send(
            {
                "type": "hello",
                "id": 0,
                "protocol": PROTOCOL,
                "seat": seat,
                "num_players": num_players,
                "players": names,
                "rules": (rules or Rules()).to_dict(),
                "seed": self.seed,
                "timeout_ms": round(self.timeout * 1000),
                "max_line": self.max_line,
            }
        )
        try:
            reply = self._receive(0, self.handshake_timeout)
            if reply.get("type") != "ready":
                got = _short(json.dumps(reply))
                raise _Incident("malformed", f"expected a ready answer to hello, got {got}")
            protocol = reply.get("protocol", PROTOCOL)
            if protocol != PROTOCOL:
                raise _Incident("malformed", f"speaks {protocol!r}, not {PROTOCOL!r}")
            self.remote_name = str(reply.get("name") or "")
        except _Incident as incident:
            if incident.kind == "timeout":
                incident.detail = f"no ready answer to hello within {self.handshake_timeout:g} s"
            incident.fatal = True
            self._report(incident, 0)

    def game_over(self, observation: Observation) -> None:
        """Tell the program the game is over (`result`, with the final
        observation, the totals and the winning seats), once. It answers
        nothing; a program that was stopped, or never started, hears nothing."""
        if self._alive and self._process is not None and not self._result_sent:
            self._result_sent = True
            totals = list(observation.totals)
            self._process.send(
                {
                    "type": "result",
                    "observation": observation.to_dict(),
                    "totals": totals,
                    "winners": winners(dict(enumerate(totals))),
                }
            )

    def close(self) -> None:
        """Say `bye`, then stop the program (terminate, then kill, after
        `grace` seconds each) and reap it, stop the helpers left in its process
        group, and close its pipes. Later decisions are the fallback's."""
        self._alive = False
        if self._process is not None:
            self._process.send({"type": "bye"})
            if self._finalizer is not None:
                self._finalizer()  # closes the process, once

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- one exchange ------------------------------------------------------------------

    def _ask(self, observation: Observation) -> int:
        """Send `act` for this decision and read the legal action it answers."""
        assert self._process is not None
        request = self._turn
        legal = observation.legal_actions
        self._process.send(
            {
                "type": "act",
                "id": request,
                "observation": observation.to_dict(),
                "legal_actions": [{"id": a, "name": ACTION_NAMES[a]} for a in legal],
                "deadline_ms": round(self.timeout * 1000),
            }
        )
        try:
            reply = self._receive(request, self.timeout)
        except _Incident as incident:
            if incident.kind == "timeout":
                self._timeouts_in_a_row += 1
                if self._timeouts_in_a_row >= self.max_timeouts:
                    incident.fatal = True
                    incident.detail += f"; stopped after {self.max_timeouts} timeouts in a row"
            raise
        self._timeouts_in_a_row = 0
        action = reply.get("action")
        if isinstance(action, str):
            try:
                action = action_from_name(action)
            except ValueError:
                raise _Incident("illegal", f"there is no action named {_short(action)}") from None
        elif isinstance(action, bool) or not isinstance(action, int):
            raise _Incident("malformed", f"no action id or name in {_short(json.dumps(reply))}")
        if action not in legal:
            raise _Incident("illegal", f"action {action} is not one of the legal {list(legal)}")
        return action

    def _receive(self, request: int, timeout: float) -> dict[str, Any]:
        """The bot's answer to `request`, read within `timeout` seconds.
        Answers to earlier requests are dropped; anything else is an incident."""
        assert self._process is not None
        lines = self._process.lines
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise queue.Empty
                item = lines.get(timeout=remaining)
            except queue.Empty:
                raise _Incident("timeout", f"no answer within {timeout:g} s") from None
            if isinstance(item, _Signal):
                raise self._signal_incident(item)
            message = _parse_line(item)
            if not isinstance(message, dict):
                raise _Incident("malformed", f"not a JSON object: {_short(item)}")
            answered = message.get("id")
            if isinstance(answered, bool) or not isinstance(answered, int):
                raise _Incident("malformed", f"no request id in {_short(item)}")
            if answered == request:
                return message
            if answered > request:
                raise _Incident("malformed", f"answers request {answered}, which was never sent")
            self.stale_answers += 1
            _log.debug("%s: dropped a late answer to request %d", self._process.label, answered)

    def _signal_incident(self, item: _Signal) -> _Incident:
        assert self._process is not None
        if item is _TOO_LONG:
            return _Incident("malformed", f"a line longer than {self.max_line} bytes")
        if item is _FLOOD:
            return _Incident("malformed", f"more than {MAX_PENDING} unanswered lines", True)
        if item is _STDIN_CLOSED:
            detail = "stopped reading its standard input"
            if self._process.proc.poll() is not None:
                detail = self._process.exit_detail(self.grace)
            return _Incident("crashed", detail, True)
        return _Incident("crashed", self._process.exit_detail(self.grace), True)

    def _report(self, incident: _Incident, turn: int | None = None) -> None:
        """Record an incident, log it, and stop the program if it is fatal."""
        record = {
            "seat": self.seat,
            "turn": self._turn if turn is None else turn,
            "kind": incident.kind,
            "detail": incident.detail,
        }
        self.incidents.append(record)
        _log.warning(
            "external bot %r (seat %s), turn %d: %s: %s; the %s bot plays instead",
            self.name,
            self.seat,
            record["turn"],
            incident.kind,
            incident.detail,
            self.fallback.name,
        )
        if incident.fatal:
            self.close()


__all__ = ["INCIDENT_KINDS", "MAX_LINE", "PROTOCOL", "ExternalBot", "split_command"]
