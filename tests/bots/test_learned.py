"""The `learned` bot (skyjo.bots.learned): a `skyjo-policy/1` network played with
NumPy on the environments' own observation; its legal moves, its tie rule, its
files (and every way a file is refused), tournaments in worker processes, the
terminal, and no PyTorch."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from played_states import states  # tests/played_states.py
from policies import policy_arrays, write_policy  # tests/policies.py
from typer.testing import CliRunner

import skyjo.env
from skyjo.bots import BotError, bot_names, make_bot
from skyjo.bots import learned as learned_module
from skyjo.bots.encoding import encode_float32
from skyjo.bots.learned import FORMAT, LearnedBot, Policy, load_policy
from skyjo.cli import app
from skyjo.engine import DRAW, NEXT_ROUND, NUM_ACTIONS, REVEAL, SWAP, TAKE_DISCARD, Phase
from skyjo.env import SkyjoEnv
from skyjo.match import Match, Seat
from skyjo.observation import observe
from skyjo.rules import Rules
from skyjo.sim import make_config, run_tournament

ROOT = Path(__file__).resolve().parents[2]


def _reference_logits(arrays: dict[str, np.ndarray], x: np.ndarray) -> list[float]:
    """The network written out: sums of products in Python floats, layer by layer."""
    activation = {"tanh": math.tanh, "relu": lambda v: max(v, 0.0)}[
        json.loads(str(arrays["meta"]))["activation"]
    ]
    count = sum(1 for name in arrays if name[0] == "w" and name[1:].isdigit())
    h = [float(v) for v in x]
    for i in range(count):
        w, b = arrays[f"w{i}"].tolist(), arrays[f"b{i}"].tolist()
        out = [b[j] + sum(h[r] * w[r][j] for r in range(len(h))) for j in range(len(b))]
        h = [activation(v) for v in out] if i < count - 1 else out
    return h


@pytest.mark.parametrize("activation", ["tanh", "relu"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bot_plays_the_networks_choice_on_the_environments_observation(
    tmp_path: Path, activation: str, players: int
) -> None:
    """In SkyjoEnv's games (slots 4, float32), the bot's move from its `Observation`
    is the legal action of highest logit of the network written out by hand on
    the environment's own observation, and its logits are those."""
    arrays = policy_arrays(slots=4, activation=activation, seed=players)
    path = write_policy(tmp_path / "p.npz", arrays)
    bot = make_bot(f"learned:path={path}", 1)
    table = gymnasium.make(
        skyjo.env.ENV_ID,
        opponents=["greedy"] * (players - 1),
        rules=Rules(target_score=50),
        seat=None,
        slots=4,
        engine="reference",
        observation="float32",
    )
    env: SkyjoEnv = table.unwrapped  # type: ignore[assignment]
    decided = clear = 0
    for game in range(2):
        x, info = table.reset(seed=game)
        over = False
        while not over and decided < 60 * (game + 1):
            reference = _reference_logits(arrays, x)
            logits = bot.policy.logits(x)  # type: ignore[attr-defined]
            np.testing.assert_allclose(logits, reference, rtol=1e-4, atol=1e-4)
            legal = sorted(np.flatnonzero(info["action_mask"]).tolist())
            best = max(legal, key=lambda a: (reference[a], -a))
            margin = reference[best] - max((reference[a] for a in legal if a != best), default=-1e9)
            action = bot.choose(observe(env.game_state, env.seat))
            if margin > 1e-3:  # (a closer call may go either way in float32)
                assert action == best
                clear += 1
            decided += 1
            x, _, done, truncated, info = table.step(action)
            over = done or truncated
    assert decided >= 60 and clear > 0.9 * decided, (decided, clear)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_chosen_action_is_always_legal(tmp_path: Path, players: int) -> None:
    """Over every kind of state (reveals, draws, held cards, reshuffles, round
    ends), with a network that most prefers actions that are often illegal."""
    arrays = policy_arrays(slots=4, seed=10 + players)
    arrays["b1"] = arrays["b1"].copy()
    arrays["b2"] = arrays["b2"].copy()
    arrays["b2"][[NEXT_ROUND, TAKE_DISCARD, SWAP + 5]] += 50.0
    bot = make_bot(f"learned:path={write_policy(tmp_path / 'p.npz', arrays)}", 3)
    masked = checked = 0
    played = states(players, 2, seed=players)
    assert any(s.reshuffles[-1] for s in played)
    for state in played[::3]:
        view = observe(state, state.player)
        if not view.legal_actions:
            continue
        action = bot.choose(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        favourite = int(np.argmax(bot.policy.logits(encode_float32(view, 4))))  # type: ignore[attr-defined]
        masked += favourite not in view.legal_actions
        checked += 1
    assert checked > 300 and masked > 50, (checked, masked)


def test_of_equal_logits_the_lowest_legal_action_wins(tmp_path: Path) -> None:
    flat = policy_arrays(slots=2, hidden=(8,))
    for name in ("w0", "b0", "w1", "b1"):
        flat[name] = np.zeros_like(flat[name])
    even = load_policy(write_policy(tmp_path / "even.npz", flat))
    two = dict(flat, b1=np.zeros(NUM_ACTIONS, np.float32))
    two["b1"][[SWAP + 7, SWAP + 2, REVEAL + 9, REVEAL + 4]] = 1.0
    pair = load_policy(write_policy(tmp_path / "pair.npz", two))
    played = states(2, 1, seed=3)
    seen = set()
    for state in played[:400]:
        view = observe(state, state.player)
        if not view.legal_actions:
            continue
        legal = view.legal_actions
        assert even.choose(view) == min(legal)
        ties = [a for a in (REVEAL + 4, REVEAL + 9, SWAP + 2, SWAP + 7) if a in legal]
        assert pair.choose(view) == (min(ties) if ties else min(legal))
        seen.add(view.phase)
        x = encode_float32(view, 2)
        masks = np.zeros((2, NUM_ACTIONS), np.int8)
        masks[:, list(legal)] = 1
        assert pair.actions(np.stack([x, x]), masks).tolist() == [pair.choose(view)] * 2
    assert {Phase.REVEAL, Phase.TURNS} <= seen


def test_learned_path_makes_the_bot_from_a_file_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_policy(tmp_path / "p.npz", slots=3, description="three seats")
    bot = make_bot(f"learned:path={path}", 5)
    assert isinstance(bot, LearnedBot) and bot.name == "learned"
    policy = bot.policy
    assert isinstance(policy, Policy)
    assert (policy.slots, policy.activation, policy.players) == (3, "tanh", (2, 3))
    assert policy.description == "three seats" and policy.path == path
    assert [w.shape for w, _ in policy.layers] == [(171, 24), (24, 16), (16, 39)]
    with pytest.raises(ValueError, match="read-only"):
        policy.layers[0][0][0, 0] = 1.0
    # the same file, however named, is read once
    monkeypatch.chdir(tmp_path)
    os.symlink(path, tmp_path / "link.npz")
    for spelling in ("p.npz", "./link.npz", str(path)):
        assert make_bot(f"learned:path={spelling}", 9).policy is policy  # type: ignore[attr-defined]
    # a file changed is read again
    write_policy(path, slots=3, seed=99)
    os.utime(path, ns=(os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns + 10**9))
    again = load_policy(path)
    assert again is not policy and not np.array_equal(again.layers[0][0], policy.layers[0][0])
    # the seed is taken and unused: the bot is deterministic
    view = observe(states(3, 1, seed=2)[50], states(3, 1, seed=2)[50].player)
    assert len({make_bot(f"learned:path={path}", s).choose(view) for s in range(20)}) == 1


def test_the_shipped_policy_is_package_data_and_its_absence_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = learned_module.SHIPPED.relative_to(ROOT / "src" / "skyjo").as_posix()
    patterns = pyproject["tool"]["setuptools"]["package-data"]["skyjo"]
    assert any(fnmatch(shipped, pattern) for pattern in patterns), (shipped, patterns)
    monkeypatch.setattr(learned_module, "SHIPPED", tmp_path / "data" / "learned.npz")
    with pytest.raises(BotError, match=r"shipped policy is missing \(.*learned\.npz\).*path="):
        make_bot("learned", 1)
    monkeypatch.setattr(learned_module, "SHIPPED", write_policy(tmp_path / "x.npz", slots=2))
    assert make_bot("learned", 1).policy.path == tmp_path / "x.npz"  # type: ignore[attr-defined]


def test_the_registry_has_it_after_expected_before_search() -> None:
    names = bot_names()
    assert names.index("expected") + 1 == names.index("learned") == names.index("search") - 1


def _bad(path: Path, **changes: object) -> Path:
    """A policy file with arrays replaced (a value) or removed (None)."""
    arrays = policy_arrays(slots=2, hidden=(8,))
    for name, value in changes.items():
        if value is None:
            del arrays[name]
        else:
            arrays[name] = value  # type: ignore[assignment]
    return write_policy(path, arrays)


def _meta(**changes: object) -> np.ndarray:
    meta = {"format": FORMAT, "slots": 2, "activation": "tanh", "players": [2]}
    meta.update(changes)
    return np.array(json.dumps({k: v for k, v in meta.items() if v is not None}))


W0 = policy_arrays(slots=2, hidden=(8,))["w0"]
BAD_FILES = {
    "not npz": (lambda p: p.write_text("not numpy") and p, "not a NumPy .npz file"),
    "truncated": (
        lambda p: p.write_bytes(write_policy(p, slots=2).read_bytes()[:300]) and p,
        "not a NumPy .npz file",
    ),
    "npy": (lambda p: np.save(p.with_suffix(".npy"), W0) or p.with_suffix(".npy"), r"\.npy"),
    "no meta": (lambda p: _bad(p, meta=None), "no meta array"),
    "meta not a string": (lambda p: _bad(p, meta=np.arange(3)), "0-d array of a JSON string"),
    "meta not json": (lambda p: _bad(p, meta=np.array("{slots")), "meta is not JSON"),
    "meta not an object": (lambda p: _bad(p, meta=np.array("[2]")), "a JSON object"),
    "wrong format": (
        lambda p: _bad(p, meta=_meta(format="skyjo-policy/2")),
        "meta says format 'skyjo-policy/2': this bot reads 'skyjo-policy/1'",
    ),
    "no format": (lambda p: _bad(p, meta=_meta(format=None)), "meta says no format"),
    "slots": (lambda p: _bad(p, meta=_meta(slots=9)), "slots must be .* from 2 to 8, not 9"),
    "slots bool": (lambda p: _bad(p, meta=_meta(slots=True)), "not True"),
    "activation": (lambda p: _bad(p, meta=_meta(activation="gelu")), "tanh or relu, not 'gelu'"),
    "players": (lambda p: _bad(p, meta=_meta(players=[2, 3])), r"players .* from 2 to its 2"),
    "no players": (lambda p: _bad(p, meta=_meta(players=None)), "players .* not None"),
    "pickled meta": (lambda p: _bad(p, meta=np.array({"a": 1})), "meta cannot be read"),
    "no layer": (
        lambda p: _bad(p, w0=None, b0=None, w1=None, b1=None),
        "no layer: a policy's layers are the arrays w0, b0",
    ),
    "missing bias": (
        lambda p: _bad(p, b1=None),
        r"layer 1 is missing its b1 \(a policy of 2 layers has w0, b0 to w1, b1\)",
    ),
    "missing layer": (
        lambda p: _bad(p, w3=np.zeros((39, 39), np.float32), b3=np.zeros(39, np.float32)),
        "layer 2 is missing its w2",
    ),
    "float64": (lambda p: _bad(p, w0=W0.astype(np.float64)), "w0 is float64, not float32"),
    "nan": (
        lambda p: _bad(p, b0=np.full(8, np.nan, np.float32)),
        "b0 holds values that are not finite",
    ),
    "w not a matrix": (
        lambda p: _bad(p, w1=np.zeros(8, np.float32)),
        r"w1 must be a matrix \(inputs, outputs\), not of shape \(8,\)",
    ),
    "bias shape": (
        lambda p: _bad(p, b0=np.zeros(7, np.float32)),
        r"b0 has shape \(7,\), but layer 0 has 8 outputs",
    ),
    "layers do not chain": (
        lambda p: _bad(p, w1=np.zeros((9, 39), np.float32)),
        r"w1 takes 9 inputs, but layer 0 gives 8 \(w0 is \(130, 8\)\)",
    ),
    "input size": (
        lambda p: _bad(p, meta=_meta(slots=3, players=[2, 3])),
        r"w0 takes 130 inputs, but the observation at 3 slots has 171",
    ),
    "output size": (
        lambda p: _bad(p, w1=np.zeros((8, 38), np.float32), b1=np.zeros(38, np.float32)),
        r"its last layer \(w1\) gives 38 outputs, not a logit for each of the 39 actions",
    ),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_file_that_is_not_a_policy_is_refused_saying_why(tmp_path: Path, case: str) -> None:
    make, message = BAD_FILES[case]
    path = make(tmp_path / "bad.npz")
    with pytest.raises(BotError, match=message) as refused:
        make_bot(f"learned:path={path}", 1)
    assert str(refused.value).startswith(f"policy {path}: "), str(refused.value)


def test_a_missing_file_or_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BotError, match=f"^policy {tmp_path / 'nothing.npz'}: no such file$"):
        make_bot(f"learned:path={tmp_path / 'nothing.npz'}", 1)
    with pytest.raises(BotError, match=f"^policy {tmp_path}: a folder, not a policy file"):
        make_bot(f"learned:path={tmp_path}", 1)
    with pytest.raises(BotError, match="bad options for bot 'learned:size=3'"):
        make_bot("learned:size=3", 1)


def test_a_table_with_more_players_than_the_slots_is_refused(tmp_path: Path) -> None:
    path = write_policy(tmp_path / "two.npz", slots=2)
    spec = f"learned:path={path}"
    too_many = r"observation has 2 seat slots \(trained for 2 players\), too few for a 3-player"
    with pytest.raises(BotError, match=too_many):
        Match([Seat("a", spec), Seat("b", "greedy"), Seat("c", "greedy")], seed=1)
    state = states(3, 1, seed=1)[30]
    with pytest.raises(BotError, match=too_many):
        make_bot(spec, 1).choose(observe(state, state.player))
    match = Match([Seat("a", spec), Seat("b", "greedy")], seed=1, rules=Rules(target_score=30))
    while not match.over:
        match.play_bot()
    assert match.state.phase == Phase.GAME_OVER


def test_learned_plays_whole_tournaments_in_worker_processes(tmp_path: Path) -> None:
    path = write_policy(tmp_path / "p.npz", slots=4)
    spec = f"learned:path={path}"
    results = []
    for workers in (1, 2):
        config = make_config(
            [spec, "greedy", "random"], games=4, seed=1, rules=Rules(target_score=40)
        )
        result = run_tournament(config, workers=workers)
        assert len(result.games) == 4
        row = next(b for b in result.summary["bots"] if b["bot"] == spec)
        assert row["seats"] == 4 and row["rounds"] > 4 and not row["incidents"]
        results.append([(g.index, g.totals) for g in result.games])
    assert results[0] == results[1]  # the same games, whatever the processes


def test_the_terminal_watches_a_learned_bot_play(tmp_path: Path) -> None:
    path = write_policy(tmp_path / "p.npz", slots=2)
    result = CliRunner().invoke(
        app, ["watch", "--bots", f"learned:path={path},greedy", "--seed", "4", "--target", "30"]
    )
    assert result.exit_code == 0, result.output
    assert "Learned" in result.output and "wins" in result.output


def test_the_commands_help_names_every_bot() -> None:
    for command in ("play", "watch", "tournament"):
        result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0
        text = " ".join(result.output.replace("│", " ").split())
        assert "random, greedy, basic, expected, learned, search, external" in text, text


def test_playing_never_imports_torch(tmp_path: Path) -> None:
    """A whole game of a learned bot, in a fresh interpreter."""
    path = write_policy(tmp_path / "p.npz", slots=2)
    script = (
        "import sys\n"
        "from skyjo.match import Match, Seat\n"
        "from skyjo.rules import Rules\n"
        f"match = Match([Seat('a', 'learned:path={path}'), Seat('b', 'greedy')], seed=2,"
        " rules=Rules(target_score=30))\n"
        "while not match.over:\n"
        "    match.play_bot()\n"
        "print(match.state.phase, 'torch' in sys.modules, 'numpy' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["4", "False", "True"], done.stdout + done.stderr


def test_draw_is_an_action_the_network_can_choose(tmp_path: Path) -> None:
    """A network that favours drawing draws whenever it may (a check on the
    action ids: logit i is action i)."""
    arrays = policy_arrays(slots=2, hidden=(4,))
    arrays["b1"] = arrays["b1"].copy()
    arrays["b1"][DRAW] += 100.0
    bot = make_bot(f"learned:path={write_policy(tmp_path / 'd.npz', arrays)}", 1)
    views = [observe(s, s.player) for s in states(2, 1, seed=6)[:300]]
    turns = [v for v in views if DRAW in v.legal_actions]
    assert turns and all(bot.choose(v) == DRAW for v in turns)


@pytest.mark.parametrize("advised", [False, True])
def test_the_bot_protocols_example_plays_as_the_learned_bot(tmp_path: Path, advised: bool) -> None:
    """examples/bots/policy_bot.py (docs/bot-protocol.md) reads each `act` message's
    observation back, encodes it and runs the network (with its advisor's move,
    for a policy with advice): over the protocol, the same game, move for move,
    as `learned:path=` in the engine's process."""
    if advised:
        path = advised_policy(tmp_path / "p.npz", "expected", 0.3)
    else:
        path = write_policy(tmp_path / "p.npz", slots=3, seed=4)
    example = ROOT / "examples" / "bots" / "policy_bot.py"
    games = []
    for spec in (
        f"external:command=python {example} {path},timeout=10,handshake_timeout=60",
        f"learned:path={path}",
    ):
        seats = [Seat("a", spec), Seat("b", "greedy"), Seat("c", "random")]
        with Match(seats, seed=5, rules=Rules(target_score=30)) as match:
            while not match.over:
                match.play_bot()
            assert match.incidents == {}, match.incidents
            games.append(list(match.state.history))
    assert games[0] == games[1] and len(games[0]) > 50


def advised_policy(path: Path, advice: str, trust: float) -> Path:
    """One linear layer over the observation and the advice: the advised move's
    logit raised by `trust`, the others small and random."""
    size = learned_module.Layout(8, 8).size
    rng = np.random.default_rng(4)
    w = (rng.standard_normal((size + NUM_ACTIONS, NUM_ACTIONS)) * 0.01).astype(np.float32)
    w[size:] += np.eye(NUM_ACTIONS, dtype=np.float32) * trust
    meta = {"format": FORMAT, "slots": 8, "activation": "tanh", "players": [2], "advice": advice}
    np.savez(path, meta=np.array(json.dumps(meta)), w0=w, b0=np.zeros(NUM_ACTIONS, np.float32))
    return path


def test_a_policy_with_advice_sees_its_advisors_move(tmp_path: Path) -> None:
    """`advice` in the meta: the network's input ends with the advisor's move
    (one-hot), the advisor seeded with the bot's seed. A network that trusts
    it plays exactly the advisor's games; one that ignores it does not."""
    trusting = advised_policy(tmp_path / "trust.npz", "expected", 100.0)
    ignoring = advised_policy(tmp_path / "ignore.npz", "expected", 0.0)
    bot = make_bot(f"learned:path={trusting}", 7)
    advisor = make_bot("expected", 7)
    other = make_bot(f"learned:path={ignoring}", 7)
    differs = 0
    for state in states(2, 1, seed=4)[::5]:
        if state.phase == Phase.GAME_OVER:
            continue
        view = observe(state, state.player)
        assert bot.choose(view) == advisor.choose(view)
        differs += other.choose(view) != make_bot("expected", 7).choose(view)
    assert differs > 10
    assert load_policy(trusting).advice == "expected"


def test_advice_must_be_a_compiled_bot_and_widen_the_input(tmp_path: Path) -> None:
    path = advised_policy(tmp_path / "p.npz", "search", 1.0)
    with pytest.raises(BotError, match="advice must be null or one of random, greedy, basic"):
        load_policy(path)
    data = dict(np.load(advised_policy(tmp_path / "q.npz", "expected", 1.0)))
    meta = json.loads(str(data["meta"]))
    del meta["advice"]
    data["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "r.npz", **data)
    with pytest.raises(BotError, match=r"w0 takes 415 inputs, but the observation at 8 slots"):
        load_policy(tmp_path / "r.npz")
