"""The `learned` bot: a policy network trained on the agents' environments
(`skyjo.env`), played with NumPy alone (playing never imports PyTorch).

    learned                      the shipped policy, skyjo/bots/data/learned.npz
    learned:path=my-policy.npz   a policy file of your own

At each decision the bot encodes what its seat sees exactly as the
environments do (`skyjo.bots.encoding.encode_float32`: the observation at the
policy's seat slots, the seats past the table's players padding, scaled for
the table's target score), runs the network, and plays the legal action with
the highest logit; of equal logits, the lowest action id. Without advice it
is deterministic (its seed unused); with advice, its seed seeds the advisor.

A policy file, format `skyjo-policy/1` (docs/bots.md), is a NumPy `.npz`:

- `meta`: a 0-d array of a JSON string, `{"format": "skyjo-policy/1",
  "slots": S, "activation": "tanh" or "relu", "players": [2, ...] (the table
  sizes it was trained on), "description": "..."}`; other keys are ignored;
- `w0, b0, ..., w{k-1}, b{k-1}`: float32, `w_i` of shape (in_i, out_i) and
  `b_i` (out_i,): `h = activation(h @ w_i + b_i)` for every layer but the
  last, which gives the 39 actions' logits. `in_0` is the observation's size
  at S slots (41·S + 48: it depends on S only, not on the table's players);
- any other array (a value head `vw0, vb0, ...`) is ignored;
- `meta["advice"]` (optional): the name of a bot of the ladder the kernel
  also plays (`random`, `greedy`, `basic`, `expected`) whose move the network
  sees: its input is then the observation followed by that bot's choice as
  a one-hot of the 39 actions (`in_0` 39 larger), as `skyjo train` feeds it
  (`skyjo.bots.encoding.with_advice`). The bot asks its own advisor, seeded with its seed.

`load_policy` reads a file without pickle and checks all of it, once per
process for each file (by its resolved path and modification time): a file
that is not one is a `BotError` naming the file and what is wrong. A policy
of S slots plays tables of up to S players.
"""

from __future__ import annotations

import json
import os
import re
import stat
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from skyjo.bots.base import BotError
from skyjo.bots.encoding import encode_float32, with_advice
from skyjo.engine import NUM_ACTIONS
from skyjo.kernel.layout import Layout
from skyjo.observation import Observation
from skyjo.rules import MAX_PLAYERS, MIN_PLAYERS

#: The format of the files this bot reads (`meta["format"]`).
FORMAT = "skyjo-policy/1"
#: The policy `learned` plays without a `path`: package data, put there by the trainer.
SHIPPED = Path(__file__).resolve().parent / "data" / "learned.npz"


def _relu(h: np.ndarray) -> np.ndarray:
    return np.maximum(h, np.float32(0))


#: The hidden layers' activation, by `meta["activation"]`.
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {"tanh": np.tanh, "relu": _relu}
#: The bots a policy may take advice from: those `skyjo train` compiles.
ADVISORS = ("random", "greedy", "basic", "expected")
#: The names of the policy's arrays: `w0`, `b0`, `w1`... (no leading zeros).
_LAYER = re.compile(r"([wb])(0|[1-9][0-9]*)")
#: The errors of reading a damaged or foreign file, or a member stored with pickle.
_UNREADABLE = (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error)


@dataclass(frozen=True, eq=False)
class Policy:
    """A checked `skyjo-policy/1` network (`load_policy`); its arrays are read-only."""

    path: Path
    meta: dict[str, Any]
    slots: int
    activation: str
    players: tuple[int, ...]
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    advice: str | None = None

    @property
    def description(self) -> str:
        return str(self.meta.get("description", ""))

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The network's 39 logits of float32 observations `x` (one, or a batch in rows)."""
        h = np.asarray(x, np.float32)
        activation = ACTIVATIONS[self.activation]
        *hidden, (w, b) = self.layers
        for w_i, b_i in hidden:
            h = activation(h @ w_i + b_i)
        return h @ w + b

    def act(self, x: np.ndarray, legal: Sequence[int]) -> int:
        """The legal action of highest logit for observation `x`; of equal logits,
        the lowest action id."""
        if not legal:
            raise ValueError("no legal action to choose from")
        actions = np.array(sorted(legal), np.int64)
        return int(actions[np.argmax(self.logits(x)[actions])])

    def actions(self, x: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """`act` over a batch: observations in rows, the 39-entry masks of their
        legal actions (nonzero: legal), one action a row (int64)."""
        legal = np.asarray(masks) != 0
        if not legal.any(axis=-1).all():
            raise ValueError("a row of the masks has no legal action")
        scores = np.where(legal, self.logits(x), -np.inf)
        return np.argmax(scores, axis=-1).astype(np.int64)  # the first of equal maxima

    def check_table(self, num_players: int) -> None:
        """A `BotError` unless the policy's slots hold `num_players` seats."""
        if num_players > self.slots:
            raise BotError(
                f"policy {self.path}: its observation has {self.slots} seat slots "
                f"(trained for {_counts(self.players)} players), too few for a "
                f"{num_players}-player table"
            )

    def choose(self, observation: Observation, advised: int | None = None) -> int:
        """The action of the seat that sees `observation` (see the module
        docstring); `advised`: the advisor's move, for a policy with advice."""
        self.check_table(observation.num_players)
        x = encode_float32(observation, self.slots)
        if self.advice is not None:
            if advised is None:
                raise ValueError(f"policy {self.path} needs the move of its advisor, {self.advice}")
            x = with_advice(x[None], np.array([advised]))[0]
        return self.act(x, observation.legal_actions)


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """The policy in file `path` (format `skyjo-policy/1`), read once per process
    while the file is unchanged; a `BotError` naming the file and its fault."""
    where = Path(path).expanduser()
    try:
        resolved = where.resolve(strict=True)
        status = resolved.stat()
    except FileNotFoundError:
        raise BotError(f"policy {where}: no such file") from None
    except OSError as error:
        raise BotError(f"policy {where}: cannot be read ({error.strerror or error})") from None
    if stat.S_ISDIR(status.st_mode):
        raise BotError(f"policy {where}: a folder, not a policy file (.npz)")
    return _load(str(resolved), status.st_mtime_ns, status.st_size)


@lru_cache(maxsize=16)
def _load(path: str, mtime_ns: int, size: int) -> Policy:
    """Read and check the file (the cache's key: its path, modification time and size)."""
    where = Path(path)

    def fail(problem: str) -> BotError:
        return BotError(f"policy {where}: {problem}")

    try:
        data = np.load(where, allow_pickle=False)
    except _UNREADABLE:
        raise fail("not a NumPy .npz file (np.savez writes one)") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise fail("a single NumPy array (.npy), not an .npz of named arrays (np.savez)")
    with data:
        names = set(data.files)

        def read(name: str) -> np.ndarray:
            try:
                return np.asarray(data[name])
            except _UNREADABLE:
                raise fail(
                    f"its array {name} cannot be read (damaged, or stored with pickle)"
                ) from None

        if "meta" not in names:
            raise fail("no meta array (a JSON string of its format, slots, activation, players)")
        meta = _meta(read("meta"), fail)
        slots = meta["slots"]
        layers = _layers(names, read, fail)
    inputs = Layout(slots, slots).size
    advice = meta.get("advice")
    if advice is not None and advice not in ADVISORS:
        raise fail(f"meta's advice must be null or one of {', '.join(ADVISORS)}, not {advice!r}")
    if layers[0][0].shape[0] != inputs + (NUM_ACTIONS if advice else 0):
        advised = f" and the {NUM_ACTIONS} of its advice" if advice else ""
        raise fail(
            f"w0 takes {layers[0][0].shape[0]} inputs, but the observation at {slots} "
            f"slots has {inputs} (41 x slots + 48){advised}"
        )
    last = len(layers) - 1
    if layers[last][0].shape[1] != NUM_ACTIONS:
        raise fail(
            f"its last layer (w{last}) gives {layers[last][0].shape[1]} outputs, "
            f"not a logit for each of the {NUM_ACTIONS} actions"
        )
    return Policy(where, meta, slots, meta["activation"], tuple(meta["players"]), layers, advice)


def _meta(array: np.ndarray, fail: Callable[[str], BotError]) -> dict[str, Any]:
    """The checked JSON object of the `meta` array."""
    if array.shape != () or array.dtype.kind not in "US":
        raise fail("meta must be a 0-d array of a JSON string: np.array(json.dumps({...}))")
    value = array[()]
    try:
        text = value.decode() if isinstance(value, bytes) else str(value)
        meta = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise fail(f"meta is not JSON ({error})") from None
    if not isinstance(meta, dict):
        raise fail("meta must be a JSON object")
    if meta.get("format") != FORMAT:
        found = "no format" if "format" not in meta else f"format {meta['format']!r}"
        raise fail(f"meta says {found}: this bot reads {FORMAT!r}")
    slots = meta.get("slots")
    if not _integer(slots, MIN_PLAYERS, MAX_PLAYERS):
        raise fail(
            f"meta's slots must be a number of seats from {MIN_PLAYERS} to {MAX_PLAYERS}, "
            f"not {slots!r}"
        )
    if meta.get("activation") not in ACTIVATIONS:
        raise fail(
            f"meta's activation must be {' or '.join(ACTIVATIONS)}, not {meta.get('activation')!r}"
        )
    players = meta.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(_integer(n, MIN_PLAYERS, slots) for n in players)
    ):
        raise fail(
            f"meta's players (the table sizes it was trained on) must be a list of player "
            f"counts from {MIN_PLAYERS} to its {slots} slots, not {players!r}"
        )
    return meta


def _integer(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _layers(
    names: set[str], read: Callable[[str], np.ndarray], fail: Callable[[str], BotError]
) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The checked layers `(w_i, b_i)`: every one there, float32, finite, each
    taking the outputs of the one before."""
    indexes = [int(m[2]) for m in map(_LAYER.fullmatch, names) if m]
    if not indexes:
        raise fail("no layer: a policy's layers are the arrays w0, b0, w1, b1, ...")
    count = 1 + max(indexes)
    layers = []
    for i in range(count):
        for name in (f"w{i}", f"b{i}"):
            if name not in names:
                raise fail(
                    f"layer {i} is missing its {name} (a policy of {count} layers has w0, b0 "
                    f"to w{count - 1}, b{count - 1})"
                )
        w, b = read(f"w{i}"), read(f"b{i}")
        for name, array in ((f"w{i}", w), (f"b{i}", b)):
            if array.dtype != np.float32:
                raise fail(f"{name} is {array.dtype}, not float32")
            if not np.isfinite(array).all():
                raise fail(f"{name} holds values that are not finite (NaN or infinity)")
        if w.ndim != 2:
            raise fail(f"w{i} must be a matrix (inputs, outputs), not of shape {w.shape}")
        if b.shape != (w.shape[1],):
            raise fail(f"b{i} has shape {b.shape}, but layer {i} has {w.shape[1]} outputs (w{i})")
        if i and w.shape[0] != layers[-1][0].shape[1]:
            raise fail(
                f"w{i} takes {w.shape[0]} inputs, but layer {i - 1} gives "
                f"{layers[-1][0].shape[1]} (w{i - 1} is {layers[-1][0].shape})"
            )
        w.setflags(write=False)
        b.setflags(write=False)
        layers.append((w, b))
    return tuple(layers)


def _counts(players: Sequence[int]) -> str:
    """`[2, 3, 4]` as "2, 3 or 4"."""
    words = [str(n) for n in players]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class LearnedBot:
    """Plays a policy network (`learned`: the shipped one; `path`: a file's)."""

    name = "learned"

    def __init__(self, seed: int, path: object = None) -> None:
        if path is None:
            if not SHIPPED.is_file():
                raise BotError(
                    f"the learned bot's shipped policy is missing ({SHIPPED}): this copy of "
                    "skyjo has no trained weights; play a policy file with learned:path=FILE"
                )
            path = SHIPPED
        self.policy = load_policy(path if isinstance(path, os.PathLike) else str(path))
        self.advisor: Any = None
        if self.policy.advice is not None:
            from skyjo.bots import make_bot

            self.advisor = make_bot(self.policy.advice, seed)

    def start(self, seat: int, num_players: int, rules: Any, players: Any = None) -> None:
        """Before the game (runners call it): refuse a table too large for the policy now."""
        self.policy.check_table(num_players)

    def choose(self, observation: Observation) -> int:
        advised = None if self.advisor is None else self.advisor.choose(observation)
        return self.policy.choose(observation, advised)
