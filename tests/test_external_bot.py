"""External bots (docs/bot-protocol.md): real subprocesses that play, misbehave
and are replaced by the fallback bot, without ever corrupting a game.

Every bot here is a small script run with this interpreter: the example bots of
the documentation (examples/bots: a random one, a policy network's) and
tests/bots/misbehave.py, whose modes misbehave in one way each. No test waits
on a clock: a late bot is one that does not answer (the engine's timeout is
then short), and the stale-answer bot answers a request only once the next one
arrives.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import json
import logging
import os
import select
import shlex
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from skyjo.bots import BotError, make_bot
from skyjo.bots.base import Bot
from skyjo.bots.encoding import encode_float32
from skyjo.bots.external import PROTOCOL, ExternalBot, split_command
from skyjo.bots.random_bot import RandomBot
from skyjo.engine import (
    DRAW,
    FLIP,
    NUM_ACTIONS,
    State,
    current_player,
    history,
    is_over,
    new_game,
    step,
)
from skyjo.kernel.layout import Layout
from skyjo.observation import Observation, observe
from skyjo.rules import GRID_SIZE, Rules
from skyjo.seeds import bot_seed, fresh_seed
from skyjo.shuffle import shuffled_deck

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
POLICY_EXAMPLE = ROOT / "examples" / "bots" / "policy_bot.py"
SKYJO_EXAMPLE = ROOT / "examples" / "bots" / "skyjo_bot.py"
MISBEHAVE = Path(__file__).resolve().parent / "bots" / "misbehave.py"
RECORDER = Path(__file__).resolve().parent / "bots" / "recorder.py"
SHORT = Rules(target_score=40)  # a game of a round or two: enough to reach every phase


def misbehaving(mode: str, seed: int = 1, *extra: str, **options: object) -> ExternalBot:
    """An ExternalBot running tests/bots/misbehave.py in `mode`."""
    options = {"timeout": 5.0, "grace": 0.5, **options}
    return ExternalBot(seed, [sys.executable, str(MISBEHAVE), mode, *extra], **options)  # type: ignore[arg-type]


def example(seed: int, **options: object) -> ExternalBot:
    options = {"timeout": 5.0, **options}
    return ExternalBot(seed, [sys.executable, str(EXAMPLE)], **options)  # type: ignore[arg-type]


def play(bots: Sequence[Bot], seed: int, rules: Rules = SHORT) -> tuple[State, list[int]]:
    """A whole game, and how many decisions each seat took. Every move is
    checked legal (and `step` would raise on an illegal one); external bots
    hear the result and are closed at the end."""
    state = new_game(len(bots), seed=seed, rules=rules)
    counts = [0] * len(bots)
    try:
        while not is_over(state):
            seat = current_player(state)
            assert seat is not None
            view = observe(state, seat)
            action = bots[seat].choose(view)
            assert action in view.legal_actions
            state = step(state, action)
            counts[seat] += 1
        for seat, bot in enumerate(bots):
            if isinstance(bot, ExternalBot):
                bot.game_over(observe(state, seat))
    finally:
        for bot in bots:
            if isinstance(bot, ExternalBot):
                bot.close()
    assert is_over(state)
    return state, counts


def assert_reaped(bot: ExternalBot) -> None:
    """The program has exited and been waited for: no zombie is left."""
    assert bot.process is not None
    assert bot.process.poll() is not None
    assert bot.process.returncode is not None
    assert not bot.alive


def kinds(bot: ExternalBot) -> list[str]:
    return [incident["kind"] for incident in bot.incidents]


# --- playing well ------------------------------------------------------------------


def test_the_example_bot_plays_a_two_player_game_to_the_end() -> None:
    bot = example(3)
    _, counts = play([bot, RandomBot(4)], seed=11, rules=Rules())
    assert bot.incidents == [] and bot.stale_answers == 0
    assert bot.remote_name == "example-random"
    assert_reaped(bot)
    assert bot.process is not None and bot.process.returncode == 0  # it left at bye
    assert counts[0] > 10


def test_three_example_bots_play_a_three_player_game() -> None:
    bots = [example(seed) for seed in (1, 2, 3)]
    play(bots, seed=5, rules=Rules())
    for seat, bot in enumerate(bots):
        assert bot.incidents == []
        assert bot.seat == seat
        assert_reaped(bot)


def test_the_policy_example_answers_its_networks_best_legal_action(tmp_path: Path) -> None:
    """examples/bots/policy_bot.py (docs/bot-protocol.md) encodes each `act`
    message's observation as the environments do (`encode_float32`, at the
    file's slots) and answers the legal action of highest logit of its network,
    here a small random one (its biases draw, then turn a card up: rounds end)."""
    rng = np.random.default_rng(5)
    sizes = (Layout(2, 8).size, 16, NUM_ACTIONS)
    pairs = enumerate(itertools.pairwise(sizes))
    arrays = {f"W{i}": rng.normal(0.0, 0.1, shape) for i, shape in pairs}
    arrays |= {f"b{i}": np.zeros(size) for i, size in enumerate(sizes[1:])}
    arrays["b1"][[DRAW, *range(FLIP, FLIP + GRID_SIZE)]] = 1.0
    np.savez(tmp_path / "policy.npz", slots=8, **arrays)

    def best(view: Observation) -> int:
        hidden = np.tanh(encode_float32(view, 8) @ arrays["W0"] + arrays["b0"])
        logits = hidden @ arrays["W1"] + arrays["b1"]
        return max(view.legal_actions, key=lambda action: (logits[action], -action))

    argv = [sys.executable, str(POLICY_EXAMPLE), str(tmp_path / "policy.npz")]
    bot, other = ExternalBot(3, argv, timeout=30.0), RandomBot(4)
    state, moves = new_game(2, seed=6, rules=SHORT), 0
    try:
        while not is_over(state):
            seat = current_player(state)
            assert seat is not None
            view = observe(state, seat)
            action = (bot if seat == 0 else other).choose(view)
            if seat == 0:
                assert action == best(view)
                moves += 1
            state = step(state, action)
    finally:
        bot.close()
    assert bot.incidents == [] and bot.remote_name == "policy" and moves > 10


def test_search_plays_over_the_protocol_the_moves_it_plays_inside() -> None:
    """examples/bots/skyjo_bot.py runs `search` in a program outside, on the
    observations read back from the protocol (cleared columns' cards included,
    against `greedy`, who clears columns): each of its moves is the move the same
    `search`, seeded alike, plays on the engine's own observation."""
    spec = "search:turns=150"
    argv = [sys.executable, str(SKYJO_EXAMPLE), spec]
    bot = ExternalBot(3, argv, timeout=60.0, handshake_timeout=60.0)
    inside, other = make_bot(spec, 3), make_bot("greedy", 4)
    state, moves, cleared = new_game(2, seed=8, rules=SHORT), 0, 0
    try:
        while not is_over(state):
            seat = current_player(state)
            view = observe(state, seat)
            action = (bot if seat == 0 else other).choose(view)
            if seat == 0:
                assert action == inside.choose(view), len(state.history)
                moves += 1
                cleared += bool(state.cleared_bits)
            state = step(state, action)
    finally:
        bot.close()
    assert bot.incidents == [] and bot.remote_name == spec
    assert moves > 10 and cleared > 0, (moves, cleared)


def test_the_example_bot_is_deterministic_from_its_seed() -> None:
    first, _ = play([example(9), example(10)], seed=2)
    again, _ = play([example(9), example(10)], seed=2)
    assert history(first) == history(again)


def test_answers_may_name_the_action() -> None:
    bot = misbehaving("names")
    play([RandomBot(1), bot], seed=3)
    assert bot.incidents == []
    assert_reaped(bot)


def test_the_bot_hears_hello_every_decision_result_and_bye(tmp_path: Path) -> None:
    log = tmp_path / "messages.txt"
    with misbehaving("record", 7, str(log)) as bot:
        _, counts = play([RandomBot(1), RandomBot(2), bot], seed=4)
    assert_reaped(bot)
    lines = log.read_text().splitlines()
    hello = json.loads(lines[0])
    assert hello["protocol"] == PROTOCOL and hello["id"] == 0
    assert hello["seat"] == 2 and hello["num_players"] == 3 and hello["seed"] == 7
    assert hello["rules"] == SHORT.to_dict()
    assert [json.loads(line) for line in lines[1:]] == (["act"] * counts[2] + ["result", "bye"])


def recorder(seed: int, log: Path, **options: object) -> ExternalBot:
    """An ExternalBot running tests/bots/recorder.py, which writes every
    message it receives to `log`."""
    options = {"timeout": 5.0, "grace": 0.5, **options}
    return ExternalBot(seed, [sys.executable, str(RECORDER), str(log)], **options)  # type: ignore[arg-type]


def received(log: Path) -> list[dict[str, object]]:
    """The messages a recorder bot received, in order."""
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_hello_names_the_players_the_runner_gives(tmp_path: Path) -> None:
    log = tmp_path / "messages.jsonl"
    bot = recorder(7, log)
    bot.start(1, 3, SHORT, players=["Ana", "Ben", "Cleo"])
    play([RandomBot(1), bot, RandomBot(2)], seed=4)
    hello = received(log)[0]
    assert hello["players"] == ["Ana", "Ben", "Cleo"] and hello["seat"] == 1


def test_hello_names_seats_when_the_bot_starts_at_its_first_decision(tmp_path: Path) -> None:
    log = tmp_path / "messages.jsonl"
    play([RandomBot(1), recorder(7, log)], seed=4)
    assert received(log)[0]["players"] == ["seat 0", "seat 1"]


@pytest.mark.parametrize("players", [["Ana", "Ben"], ["Ana", "Ben", 3], "Ana"])
def test_players_must_name_every_seat(players: object) -> None:
    bot = example(1)
    with pytest.raises(ValueError, match="players must be 3 names"):
        bot.start(0, 3, SHORT, players=players)  # type: ignore[arg-type]
    assert bot.process is None  # nothing was started


def test_result_and_bye_are_the_documented_messages(tmp_path: Path) -> None:
    """`result` carries the final observation, the totals and the winners
    (the lowest total, ties sharing), and comes once; `bye` is alone."""
    log = tmp_path / "messages.jsonl"
    bot = recorder(7, log)
    state, _ = play([RandomBot(1), bot], seed=4)
    *_, result, bye = received(log)
    totals = list(state.totals)
    assert result == {
        "type": "result",
        "observation": json.loads(json.dumps(observe(state, 1).to_dict())),
        "totals": totals,
        "winners": [seat for seat, total in enumerate(totals) if total == min(totals)],
    }
    assert bye == {"type": "bye"}


def test_the_result_is_sent_once(tmp_path: Path) -> None:
    """A runner that calls game_over twice does not repeat `result`."""
    log = tmp_path / "messages.jsonl"
    view = observe(new_game(2, seed=3), 0)
    with recorder(1, log) as bot:
        bot.start(0, 2, SHORT)
        bot.game_over(view)
        bot.game_over(view)
    assert [m["type"] for m in received(log)] == ["hello", "result", "bye"]


# --- what a bot is sent reveals nothing of the deal ----------------------------------

SEED_MASK = (1 << 63) - 1


def old_tournament_seeds(seed: int, game: int, players: int) -> list[int]:
    """The deal's seed then each seat's bot seed, as tournaments drew them
    before skyjo.seeds: NumPy's SeedSequence(seed, spawn_key=(game,)) words."""
    sequence = np.random.SeedSequence(seed, spawn_key=(game,))
    return [int(word) & SEED_MASK for word in sequence.generate_state(players + 1, np.uint64)]


def integers_in(value: object) -> set[int]:
    """Every integer anywhere in a JSON value."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(integers_in(item) for item in value))
    return set()


def guessed_secrets(messages: Sequence[dict[str, object]]) -> set[int]:
    """An attacker's guesses at the game's seed (from which every deck is
    shuffled), from everything its bot was sent: every integer it saw, taken
    as the game's seed, as the old `seed * 100 + seat` bot seed of
    `skyjo play`, or as a tournament's seed; the deal seed of any old
    tournament seed below 1,000 and game below 10 whose bot seed for this
    seat is hello's; and any game seed up to 10,000 whose
    `skyjo.seeds.bot_seed` for this seat is hello's."""
    hello = messages[0]
    seat, players, seed = hello["seat"], hello["num_players"], hello["seed"]
    assert isinstance(seat, int) and isinstance(players, int) and isinstance(seed, int)
    guesses: set[int] = set()
    for value in integers_in(list(messages)):
        guesses |= {value, value - seat, (value - seat) // 100}
        if value >= 0:
            guesses |= {old_tournament_seeds(value, g, players)[0] for g in range(10)}
    for tournament in range(1000):
        for game in range(10):
            deal, *bots = old_tournament_seeds(tournament, game, players)
            if bots[seat] == seed:
                guesses.add(deal)
    guesses |= {secret for secret in range(10_001) if bot_seed(secret, seat) == seed}
    return guesses


def test_a_bot_that_knows_the_shuffle_code_tries_to_predict_the_deck_and_fails(
    tmp_path: Path,
) -> None:
    """A bot that knows the project's shuffle code tries to predict the deck
    from everything it is sent, and fails: the runner seeds it as runners do,
    with `bot_seed(secret, seat)` of a fresh secret."""
    log = tmp_path / "messages.jsonl"
    secret, seat = fresh_seed(), 1
    bot = recorder(bot_seed(secret, seat), log)
    state, _ = play([RandomBot(2), bot], seed=secret)
    messages = received(log)
    assert [m["type"] for m in messages[:2]] == ["hello", "act"] and messages[0]["seat"] == seat
    guesses = guessed_secrets(messages)
    assert messages[0]["seed"] in guesses and secret not in guesses
    for guess in guesses:
        deck, _ = shuffled_deck(guess)
        assert deck not in state.decks


@pytest.mark.parametrize(
    ("hello_seed", "secret"),
    [
        (4242 * 100 + 1, 4242),  # the old bot seed of `skyjo play --seed 4242`
        (old_tournament_seeds(7, 3, 2)[2], old_tournament_seeds(7, 3, 2)[0]),  # an old tournament
        (bot_seed(4242, 1), 4242),  # an explicit, small --seed (docs/bot-protocol.md, the seed)
    ],
)
def test_the_same_attacker_finds_the_deck_when_the_seed_gives_it_away(
    hello_seed: int, secret: int
) -> None:
    """The attack of the test above is a real one: it finds the game's seed
    from the seeds bots were sent before skyjo.seeds, and from a seed that
    was chosen small."""
    hello = {"type": "hello", "seat": 1, "num_players": 2, "seed": hello_seed}
    assert secret in guessed_secrets([hello])


# --- the spec ----------------------------------------------------------------------------


def test_a_spec_gives_the_command_and_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    spec = "external:command=python examples/bots/random_bot.py,timeout=2,name=ex,grace=0.5"
    bot = make_bot(spec, seed=5)
    assert isinstance(bot, ExternalBot)
    assert bot.argv == [sys.executable, "examples/bots/random_bot.py"]
    assert (bot.timeout, bot.name, bot.grace) == (2.0, "ex", 0.5)
    play([bot, make_bot("random", 6)], seed=8)
    assert bot.incidents == []
    assert_reaped(bot)


def test_a_quoted_path_with_spaces_and_equals_signs_stays_one_argument() -> None:
    assert split_command("python '/my bots/a=b.py' --depth=3") == [
        sys.executable,
        "/my bots/a=b.py",
        "--depth=3",
    ]
    spec = f"external:command={shlex.quote(sys.executable)} '/my bots/a=b.py' --x=1"
    assert make_bot(spec, seed=1).argv == [sys.executable, "/my bots/a=b.py", "--x=1"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    [
        "external",
        "external:timeout=1",
        "external:command=",
        "external:command='unclosed",
        "external:command=python bot.py,timeout=0",
        "external:command=python bot.py,timeout=soon",
        "external:command=python bot.py,stderr=shout",
        "external:command=python bot.py,max_timeouts=0",
        "external:command=python bot.py,fallback=external",
        "external:command=python bot.py,fallback=nobody",
        "external:command=python bot.py,colour=red",
    ],
)
def test_bad_specs_are_refused(spec: str) -> None:
    with pytest.raises(BotError):
        make_bot(spec, seed=1)


# --- misbehaving ---------------------------------------------------------------------------


def test_illegal_answers_are_replaced_and_reported() -> None:
    bot = misbehaving("illegal")
    _, counts = play([bot, RandomBot(2)], seed=6)
    assert kinds(bot) == ["illegal"] * counts[0]
    assert [i["turn"] for i in bot.incidents] == list(range(1, counts[0] + 1))
    assert all(i["seat"] == 0 and "not one of the legal" in i["detail"] for i in bot.incidents)
    assert_reaped(bot)


def test_an_unknown_action_name_is_illegal() -> None:
    bot = misbehaving("unknown-name")
    play([RandomBot(1), bot], seed=6)
    assert set(kinds(bot)) == {"illegal"}
    assert "fly" in bot.incidents[0]["detail"]
    assert_reaped(bot)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("garbage", "not a line of JSON"),
        ("array", "not a JSON object"),
        ("noid", "no request id"),
        ("noaction", "no action"),
        ("badbytes", "not a line of JSON"),
        ("long", "longer than 1000 bytes"),
        ("future-id", "never sent"),
    ],
)
def test_malformed_answers_are_replaced_and_reported(mode: str, words: str) -> None:
    bot = misbehaving(mode, max_line=1000)
    _, counts = play([RandomBot(3), bot], seed=7)
    assert kinds(bot) == ["malformed"] * counts[1]
    assert words in bot.incidents[0]["detail"]
    assert_reaped(bot)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("deep", "nested more than 32 deep"),
        ("deep-answer", "nested more than 32 deep"),
        ("deep-unclosed", "nested too deeply"),
    ],
)
def test_deeply_nested_answers_are_malformed_not_a_crash_of_the_engine(
    mode: str, words: str
) -> None:
    """100,000 nested arrays (200 KB, under the line limit) would make the
    JSON parser raise RecursionError; 40 would parse. All are refused alike."""
    bot = misbehaving(mode)
    _, counts = play([RandomBot(3), bot], seed=7)
    assert kinds(bot) == ["malformed"] * counts[1]
    assert all(words in i["detail"] for i in bot.incidents)
    assert all(len(i["detail"]) < 200 for i in bot.incidents)
    assert_reaped(bot)


def test_a_bot_that_stops_answering_times_out_then_is_stopped() -> None:
    bot = misbehaving("silent", timeout=0.2, max_timeouts=3)
    play([bot, RandomBot(4)], seed=8)
    assert kinds(bot) == ["timeout"] * 3
    assert [i["turn"] for i in bot.incidents] == [1, 2, 3]
    assert "stopped after 3 timeouts" in bot.incidents[-1]["detail"]
    assert_reaped(bot)


def test_a_bot_that_crashes_mid_game_is_replaced_for_the_rest_of_the_game() -> None:
    bot = misbehaving("crash")
    _, counts = play([RandomBot(5), bot, RandomBot(6)], seed=9)
    assert counts[1] > 6
    assert kinds(bot) == ["crashed"]
    incident = bot.incidents[0]
    assert incident["seat"] == 1 and incident["turn"] == 6
    assert "exited with status 1" in incident["detail"] and "boom" in incident["detail"]
    assert_reaped(bot)


def test_incidents_and_the_bots_stderr_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="skyjo.bots.external")
    bot = misbehaving("crash", name="crashy")
    play([bot, RandomBot(6)], seed=9)
    messages = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert any(level == logging.INFO and "RuntimeError: boom" in m for level, m in messages)
    warnings = [m for level, m in messages if level == logging.WARNING]
    assert len(warnings) == 1
    assert "'crashy' (seat 0), turn 6: crashed" in warnings[0]
    assert "the random bot plays instead" in warnings[0]


def test_a_discarded_stderr_is_not_quoted() -> None:
    bot = misbehaving("crash", stderr="discard")
    play([bot, RandomBot(6)], seed=9)
    assert kinds(bot) == ["crashed"]
    assert bot.incidents[0]["detail"] == "exited with status 1"
    assert_reaped(bot)


def test_a_bot_that_closes_its_output_is_a_crash() -> None:
    bot = misbehaving("close-stdout", grace=0.2)
    play([bot, RandomBot(6)], seed=10)
    assert kinds(bot) == ["crashed"]
    assert bot.incidents[0]["turn"] == 4
    assert_reaped(bot)


def test_a_bot_that_never_answers_the_handshake_is_never_asked_again() -> None:
    bot = misbehaving("no-hello", handshake_timeout=0.2, grace=0.2)
    play([bot, RandomBot(7)], seed=11)
    assert kinds(bot) == ["timeout"]
    assert bot.incidents[0]["turn"] == 0
    assert "no ready answer to hello" in bot.incidents[0]["detail"]
    assert_reaped(bot)


@pytest.mark.parametrize(
    ("mode", "kind"),
    [("exit-early", "crashed"), ("wrong-protocol", "malformed"), ("deep-hello", "malformed")],
)
def test_a_failed_handshake_hands_the_game_to_the_fallback(mode: str, kind: str) -> None:
    bot = misbehaving(mode)
    play([RandomBot(1), bot], seed=12)
    assert kinds(bot) == [kind]
    assert bot.incidents[0]["turn"] == 0
    assert_reaped(bot)


def test_a_program_that_cannot_start_is_a_crash(tmp_path: Path) -> None:
    bot = ExternalBot(1, [str(tmp_path / "no-such-bot")])
    play([bot, RandomBot(2)], seed=13)
    assert kinds(bot) == ["crashed"]
    assert "could not start" in bot.incidents[0]["detail"]
    assert bot.process is None and not bot.alive


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM can be ignored only on POSIX")
def test_a_bot_that_ignores_sigterm_is_killed() -> None:
    bot = misbehaving("stubborn", timeout=0.1, max_timeouts=1, grace=0.2)
    play([bot, RandomBot(8)], seed=14)
    assert kinds(bot) == ["timeout"]
    assert_reaped(bot)
    assert bot.process is not None and bot.process.returncode == -9  # SIGKILL


def bot_threads(bot: ExternalBot) -> list[threading.Thread]:
    """The threads of `bot` (reader, writer, stderr logger) still running."""
    return [t for t in threading.enumerate() if t.name.startswith(f"external bot {bot.name!r}")]


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits on the helper with a pidfd")
@pytest.mark.parametrize("mode", ["spawn", "spawn-quiet"])
def test_helpers_a_bot_started_are_stopped_with_it_and_hold_nothing_open(
    mode: str, tmp_path: Path
) -> None:
    """The bot starts a helper that would sleep a minute (with the bot's own
    stdout and stderr in "spawn"), then leaves cleanly at `bye`. Closing it
    ends the helper too, and leaves none of the bot's threads or pipes."""
    pid_file = tmp_path / "helper.pid"
    bot = misbehaving(mode, 1, str(pid_file), name=f"{mode} bot")
    bot.start(0, 2, SHORT)  # the bot writes the pid before it answers hello
    helper = os.pidfd_open(int(pid_file.read_text()))  # an fd that turns readable at its exit
    try:
        play([bot, RandomBot(2)], seed=16)
        assert bot.incidents == []
        assert_reaped(bot)
        assert bot.process is not None and bot.process.returncode == 0  # it left at bye
        # The helper has exited (a zombie of no one's, or already reaped by init);
        # without close() ending it, it would go on sleeping for a minute.
        assert select.select([helper], [], [], 10)[0] == [helper]
        assert bot_threads(bot) == []
        assert bot.process.stdout is not None and bot.process.stdout.closed
        assert bot.process.stderr is not None and bot.process.stderr.closed
    finally:
        with contextlib.suppress(OSError):  # a helper that survived a failed test
            signal.pidfd_send_signal(helper, signal.SIGKILL)
        os.close(helper)


def test_a_late_answer_is_never_taken_for_the_next_request() -> None:
    """The lag bot answers request 1 (with its largest legal action) only
    after request 2 arrives, then answers request 2 with its smallest."""
    state = new_game(2, seed=15)
    with misbehaving("lag", timeout=0.2) as bot:
        first = bot.choose(observe(state, 0))  # request 1: no answer yet
        assert kinds(bot) == ["timeout"]
        state = step(state, first)
        second_view = observe(state, 0)
        bot.timeout = 5.0  # now the bot answers, both requests at once
        second = bot.choose(second_view)
    assert second == min(second_view.legal_actions)  # not reveal [2, 3], the late answer
    assert kinds(bot) == ["timeout"]
    assert bot.stale_answers == 1
    assert_reaped(bot)


def test_closing_twice_and_choosing_after_close_use_the_fallback() -> None:
    bot = example(1)
    view = observe(new_game(2, seed=1), 0)
    assert bot.choose(view) in view.legal_actions
    bot.close()
    bot.close()
    assert bot.choose(view) in view.legal_actions
    assert bot.incidents == []
    assert_reaped(bot)


def test_an_abandoned_bot_is_stopped_when_collected() -> None:
    bot = example(2)
    view = observe(new_game(2, seed=2), 0)
    bot.choose(view)
    process = bot.process
    assert process is not None and process.poll() is None
    del bot
    gc.collect()
    assert process.poll() is not None
