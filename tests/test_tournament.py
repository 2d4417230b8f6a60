"""Tournaments: seeding, seat rotation, workers, results files, the luck study,
and the `skyjo tournament` command (RULES.md 6 for its errors)."""

from __future__ import annotations

import io
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from rich.console import Console, RenderableType
from typer.testing import CliRunner, Result

import skyjo.bots
from skyjo.bots import BotError, bot_names
from skyjo.cli import app
from skyjo.engine import DRAW, SWAP, TAKE_DISCARD, IllegalActionError, Phase
from skyjo.match import MAX_NAME
from skyjo.observation import Observation
from skyjo.rules import Rules
from skyjo.seeds import bot_seed
from skyjo.sim import (
    StudyResult,
    TournamentConfig,
    TournamentError,
    TournamentResult,
    load_results,
    luck_configs,
    make_config,
    run_luck_study,
    run_tournament,
    save_results,
)
from skyjo.sim.commands import BotTable, bot_cells, shorten, tournament_command, tournament_tables
from skyjo.sim.tournament import (
    MAX_ROUND_TURNS,
    deal_seed,
    game_seeds,
    make_chunks,
    make_lineup,
    parse_bots,
    play_chunk,
    seat_lineup,
    seat_names,
)

#: A fast registered bot besides `random`, when the bots of the issue are there.
FAST = "greedy" if "greedy" in bot_names() else "random"
#: Short games keep the tests fast: the first to 40 points ends it.
SHORT = Rules(target_score=40)


class LowBot:
    """A test bot far better than random: keeps low cards, discards high ones.

    Registered in this process only, while a test runs (`registered_test_bots`),
    so it plays with workers=1; the multi-process tests use the package's bots.
    """

    name = "low"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if DRAW in legal:  # the first step of a turn
            top = obs.discard_pile[-1]
            return TAKE_DISCARD if top <= 3 else DRAW
        swaps = [a for a in legal if SWAP <= a < SWAP + 12]
        if not swaps:
            return legal[0]  # the opening reveals
        held = obs.held
        assert held is not None
        mine = obs.cards[obs.viewer]
        up = [a for a in swaps if mine[a - SWAP] is not None]
        down = [a for a in swaps if mine[a - SWAP] is None]
        worst = max(up, key=lambda a: mine[a - SWAP] or 0, default=None)
        worst_value = -9 if worst is None else mine[worst - SWAP] or 0
        if worst is not None and held < worst_value and worst_value >= 5:
            return worst
        if held <= 4 and down:
            return down[0]
        flips = [a for a in legal if a not in swaps]
        if flips:
            return flips[0]
        return worst if worst is not None and held < worst_value else (down or swaps)[0]


class CheatBot:
    """Answers an action that is never legal."""

    name = "cheat"

    def __init__(self, seed: int) -> None:
        pass

    def choose(self, obs: Observation) -> int:
        return 99


class StallBot:
    """Never turns a card after the opening: takes the discard and exchanges it
    with a face-up card, so a round between two of them never ends."""

    name = "stall"

    def __init__(self, seed: int) -> None:
        pass

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if TAKE_DISCARD in legal:
            return TAKE_DISCARD
        mine = obs.cards[obs.viewer]
        face_up = [a for a in legal if SWAP <= a < SWAP + 12 and mine[a - SWAP] is not None]
        return face_up[0] if face_up else legal[0]


class MoodyBot:
    """Plays like `LowBot` in a game's first round; from the second on, stalls like
    `StallBot` if its seed is even. A game stalls when all its bots do."""

    name = "moody"

    def __init__(self, seed: int) -> None:
        self.stalls = seed % 2 == 0
        self.low = LowBot(seed)
        self.stall = StallBot(seed)

    def choose(self, obs: Observation) -> int:
        bot = self.stall if self.stalls and obs.round >= 1 else self.low
        return bot.choose(obs)


class SeedBot(LowBot):
    """Notes every seed it is given (in seat order, game after game, with one worker)."""

    name = "seed"
    seen: ClassVar[list[int]] = []

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        if seed:  # seed 0: the bot `make_config` builds to check the options
            SeedBot.seen.append(seed)


class GreetedBot(LowBot):
    """Notes what a runner tells it (`start`, `game_over`, `close`) and when."""

    name = "greeted"
    events: ClassVar[list[tuple[Any, ...]]] = []

    def start(self, seat: int, num_players: int, rules: Rules, players: list[str]) -> None:
        self.events.append(("start", seat, num_players, rules, players))

    def choose(self, obs: Observation) -> int:
        if not self.events or self.events[-1][0] != "choose":
            self.events.append(("choose", obs.viewer))
        return super().choose(obs)

    def game_over(self, obs: Observation) -> None:
        self.events.append(("game_over", obs.viewer, obs.phase, obs.totals))

    def close(self) -> None:
        self.events.append(("close",))


#: Bots registered for these tests only (see `registered_test_bots`).
TEST_BOTS = {
    "test-moody": f"{__name__}:MoodyBot",
    "test-greeted": f"{__name__}:GreetedBot",
    "test-seed": f"{__name__}:SeedBot",
    "test-low": f"{__name__}:LowBot",
    "test-cheat": f"{__name__}:CheatBot",
    "test-stall": f"{__name__}:StallBot",
}


@contextmanager
def registered_test_bots() -> Iterator[None]:
    """Register the test bots in this process while the block runs, so that no
    other test module ever sees them in the registry."""
    for name, target in TEST_BOTS.items():
        skyjo.bots.register(name, target)
    try:
        yield
    finally:
        for name in TEST_BOTS:
            skyjo.bots.unregister(name)


@pytest.fixture(autouse=True)
def _test_bots() -> Iterator[None]:
    with registered_test_bots():
        yield


def run(*args: str) -> Result:
    """Run `skyjo ARGS...` in-process."""
    env = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
    return CliRunner().invoke(app, list(args), env=env)


def assert_bad_input(result: Result, *fragments: str) -> None:
    """RULES.md 6: exit status 2, one line on stderr, nothing on stdout."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("skyjo: error: ")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# --------------------------------------------------------------------------
# Lineups, rotation and seeds
# --------------------------------------------------------------------------


def test_bots_are_cycled_to_fill_the_seats() -> None:
    assert make_lineup(["a", "b"], 4) == ["a", "b", "a", "b"]
    assert make_lineup(["a", "b", "c"], 5) == ["a", "b", "c", "a", "b"]
    assert make_lineup(["a", "b", "c"]) == ["a", "b", "c"]
    assert make_lineup(["a"]) == ["a", "a"]
    with pytest.raises(TournamentError, match="3 bots cannot share 2 seats"):
        make_lineup(["a", "b", "c"], 2)
    with pytest.raises(TournamentError, match="2 to 8 players"):
        make_lineup(["a"], 9)


def test_bot_options_stay_with_their_spec() -> None:
    assert parse_bots("search:budget=1,iterations=9,greedy") == [
        "search:budget=1,iterations=9",
        "greedy",
    ]
    assert parse_bots(" random , greedy ") == ["random", "greedy"]
    with pytest.raises(TournamentError):
        parse_bots(" , ")


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_each_bot_sits_in_each_seat_equally_often(players: int) -> None:
    lineup = [f"bot{i}" for i in range(players)]
    for rounds in (1, 3):
        seen = Counter(
            (label, seat)
            for g in range(rounds * players)
            for seat, label in enumerate(seat_lineup(lineup, g))
        )
        assert set(seen.values()) == {rounds}
        assert len(seen) == players * players


def test_played_games_rotate_the_seats() -> None:
    config = make_config(["random", "test-low"], players=2, games=4, seed=3, rules=SHORT)
    result = run_tournament(config, workers=1)
    assert [g.seats for g in result.games] == [
        ("random", "test-low"),
        ("test-low", "random"),
        ("random", "test-low"),
        ("test-low", "random"),
    ]
    assert [b["seats"] for b in result.summary["bots"]] == [4, 4]


def test_game_seeds_depend_on_seed_and_game_only() -> None:
    deal, bots = game_seeds(1, 5, 4)
    assert (deal, bots) == game_seeds(1, 5, 4)
    assert deal == deal_seed(1, 5) != deal_seed(1, 6)  # the deal's seed alone, for the match
    assert len(bots) == 4 and len(set(bots + [deal])) == 5
    assert game_seeds(1, 6, 4) != (deal, bots)
    assert game_seeds(2, 5, 4) != (deal, bots)
    assert all(0 <= s < 2**63 for s in [deal, *bots])


def test_bot_seeds_are_one_way_hashes_of_the_deal_seed() -> None:
    deal, bots = game_seeds(1, 5, 4)
    # the deal's seed is the first word of the game's SeedSequence, as it always was
    words = np.random.SeedSequence(1, spawn_key=(5,)).generate_state(5, dtype=np.uint64)
    assert deal == int(words[0]) & (2**63 - 1)
    # a bot's seed is no word of that sequence, only a hash of the deal's seed and the seat
    assert bots == [bot_seed(deal, seat) for seat in range(4)]
    assert not {int(w) & (2**63 - 1) for w in words} & set(bots)


def test_each_seat_gets_its_bot_seed() -> None:
    SeedBot.seen.clear()
    config = make_config("test-seed", players=3, games=2, seed=4, rules=SHORT)
    run_tournament(config, workers=1)
    expected = [seed for g in range(2) for seed in game_seeds(4, g, 3)[1]]
    assert SeedBot.seen == expected


def test_a_tournament_without_a_seed_draws_one_and_shows_it() -> None:
    first = make_config("random", players=2, games=2, rules=SHORT)
    second = make_config("random", players=2, games=2, rules=SHORT)
    assert first.seed != second.seed and 0 <= first.seed < 2**63
    outcome = tournament_command("random,test-low", games=3, workers=1, show_progress=False)
    seed = outcome.summary["seed"]
    assert isinstance(outcome.document, TournamentResult)
    assert (
        outcome.document.config.seed == seed
        and outcome.document.to_dict()["config"]["seed"] == seed
    )
    shown = [item for item in tournament_tables(outcome) if isinstance(item, str)]
    assert shown[-1] == f"Seed {seed}: --seed {seed} plays the same games again."
    again = tournament_command(
        "random,test-low", games=3, seed=seed, workers=1, show_progress=False
    )
    assert again.document == outcome.document
    study = tournament_command("test-low,random", players=3, games=2, workers=1, study="luck")
    assert isinstance(study.document, StudyResult)
    assert study.summary["seed"] == study.document.seed
    assert {p["summary"]["seed"] for p in study.document.points} == {study.document.seed}


# --------------------------------------------------------------------------
# What the runner tells the bots
# --------------------------------------------------------------------------


def test_bots_are_started_before_the_game_and_told_its_end() -> None:
    config = make_config("test-greeted,random", players=2, games=2, seed=1, rules=SHORT)
    GreetedBot.events.clear()
    result = run_tournament(config, workers=1)
    events = GreetedBot.events
    game0, game1 = result.games
    # game 0: the bot sits at seat 0, game 1 at seat 1 (the seats rotate)
    starts = [e for e in events if e[0] == "start"]
    assert starts == [
        ("start", 0, 2, SHORT, ["test-greeted", "random"]),
        ("start", 1, 2, SHORT, ["random", "test-greeted"]),
    ]
    ends = [e for e in events if e[0] == "game_over"]
    assert ends == [
        ("game_over", 0, Phase.GAME_OVER, game0.totals),
        ("game_over", 1, Phase.GAME_OVER, game1.totals),
    ]
    # per game: start, then the moves, then game_over, then close
    kinds = [e[0] for e in events]
    assert kinds.count("close") == 2
    assert [k for k in kinds if k != "choose"] == ["start", "game_over", "close"] * 2
    first_choose = next(i for i, e in enumerate(events) if e[0] == "choose")
    assert events[first_choose - 1][0] == "start"


PROTOCOL_LOGGER = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    log.write(json.dumps({k: message.get(k) for k in ("type", "seat", "players", "winners")}))
    log.write("\\n")
    log.flush()
    if message["type"] == "hello":
        print(json.dumps({"id": 0, "type": "ready"}), flush=True)
    elif message["type"] == "act":
        print(json.dumps({"id": message["id"], "action": message["legal_actions"][0]["id"]}),
              flush=True)
    elif message["type"] == "bye":
        break
"""


def test_an_external_bot_hears_hello_with_the_labels_then_result_and_bye(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(PROTOCOL_LOGGER)
    log = tmp_path / "log.jsonl"
    spec = f"external:command=python {script} {log}"
    config = make_config([spec, "random"], players=2, games=1, seed=1, rules=SHORT)
    result = run_tournament(config, workers=1)
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    names = seat_names([spec, "random"])  # a long spec is shortened to a seat's name
    assert names[1] == "random" and names[0].endswith(" #1") and len(names[0]) <= MAX_NAME
    assert messages[0] == {"type": "hello", "seat": 0, "players": names, "winners": None}
    assert [m["type"] for m in messages[-2:]] == ["result", "bye"]
    assert messages[-2]["winners"] == list(result.games[0].winners)
    assert {m["type"] for m in messages[1:-2]} == {"act"}


# --------------------------------------------------------------------------
# Workers and chunks
# --------------------------------------------------------------------------


def test_same_seed_same_results_whatever_the_workers() -> None:
    config = make_config(f"random,{FAST}", players=3, games=24, seed=7, rules=SHORT)
    one = run_tournament(config, workers=1)
    two = run_tournament(config, workers=2)
    assert len(make_chunks(config, 2)) > 2  # the games were really split
    assert one == two
    assert [g.index for g in two.games] == list(range(24))
    assert json.dumps(one.to_dict()) == json.dumps(two.to_dict())


def test_chunks_cover_every_game_once() -> None:
    config = make_config("random", players=2, games=37, seed=1, rules=SHORT)
    for workers in (1, 2, 3, 16):
        chunks = make_chunks(config, workers)
        covered = [g for c in chunks for g in range(c.start, c.stop)]
        assert covered == list(range(37))


def test_a_chunk_replays_the_same_games() -> None:
    config = make_config("random", players=2, games=6, seed=9, rules=SHORT)
    chunk = make_chunks(config, 1)[0]
    assert play_chunk(chunk) == play_chunk(chunk)


def test_progress_reaches_every_game() -> None:
    config = make_config("random", players=2, games=10, seed=1, rules=SHORT)
    calls: list[tuple[int, int]] = []
    run_tournament(config, workers=1, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (10, 10)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(BotError, match="unknown bot 'nobody'"):
        make_config("random,nobody", players=2, games=2)
    with pytest.raises(BotError, match="bad options for bot 'random:depth=3'"):
        make_config("random:depth=3", players=2, games=2)
    with pytest.raises(BotError, match="'search:turns=0': turns must be a positive number, not 0"):
        make_config("search:turns=0,random", players=2, games=2)
    with pytest.raises(TournamentError, match="at least 1 game"):
        make_config("random", players=2, games=0)
    with pytest.raises(TournamentError, match="seed"):
        make_config("random", players=2, games=2, seed=-1)
    config = make_config("random", players=2, games=2)
    with pytest.raises(TournamentError, match="workers"):
        run_tournament(config, workers=0)
    with pytest.raises(TournamentError, match="backend"):
        run_tournament(config, backend="moon")


def test_an_illegal_move_names_the_bot_and_the_game() -> None:
    config = make_config("random,test-cheat", players=2, games=1, seed=1)
    with pytest.raises(IllegalActionError, match=r"'test-cheat' .*game 0"):
        run_tournament(config, workers=1)


def test_a_stalled_game_is_kept_apart_and_the_tournament_goes_on() -> None:
    games, seed = 12, 3
    config = make_config("test-moody", players=2, games=games, seed=seed, rules=SHORT)
    result = run_tournament(config, workers=1)
    # a game stalls in round 2 when both bot seeds are even (and it has a round 2)
    both_even = [
        g for g in result.games if all(s % 2 == 0 for s in game_seeds(seed, g.index, 2)[1])
    ]
    stalled = [g for g in result.games if g.stalled]
    assert all(g in both_even for g in stalled) and 0 < len(stalled) < games
    assert all(len(g.rounds) == 1 for g in both_even if not g.stalled)  # over after round 1
    for game in stalled:
        assert game.winners == () and game.stalled_round == len(game.rounds) + 1 >= 2
        assert game.totals == tuple(map(sum, zip(*(r.scores for r in game.rounds), strict=True)))
        assert game.turns >= MAX_ROUND_TURNS
    summary = result.summary
    assert summary["games"] == games and summary["stalled_games"] == len(stalled)
    assert summary["stalled"] == [
        {
            "game": g.index,
            "round": g.stalled_round,
            "seats": list(g.seats),
            "totals": list(g.totals),
        }
        for g in stalled
    ]
    (moody,) = summary["bots"]
    assert moody["seats"] == 2 * (games - len(stalled))  # stalled games: neither won nor lost
    assert moody["wins"] == games - len(stalled)


# --------------------------------------------------------------------------
# Results files
# --------------------------------------------------------------------------


def test_results_file_round_trip(tmp_path: Path) -> None:
    config = make_config("random,test-low", players=2, games=6, seed=2, turn_sample=2, rules=SHORT)
    result = run_tournament(config, workers=1)
    path = tmp_path / "results.json"
    save_results(result, path)
    loaded = load_results(path)
    assert isinstance(loaded, TournamentResult)
    assert loaded == result
    doc = json.loads(path.read_text())
    assert doc["format"] == "skyjo-tournament/1"
    game = doc["games"][0]
    assert {"index", "seats", "totals", "winners", "rounds", "turns", "trajectories"} <= set(game)
    assert {"ender", "raw", "scores", "doubled"} == set(game["rounds"][0])
    # per-turn trajectories are kept for the first `turn_sample` games only
    assert ["trajectories" in g for g in doc["games"]] == [True, True] + [False] * 4
    trajectory = game["trajectories"][0]
    assert len(trajectory) == 2 and all(len(seat) >= 1 for seat in trajectory)
    # the last value of a round is the seat's raw score when it played last
    for rnd, raws in zip(game["trajectories"], game["rounds"], strict=True):
        assert any(seat[-1] == raw for seat, raw in zip(rnd, raws["raw"], strict=True))
    assert set(doc["summary"]["turn_curves"]) == {"random", "test-low"}


def test_load_results_refuses_other_files(tmp_path: Path) -> None:
    with pytest.raises(TournamentError, match="no results file"):
        load_results(tmp_path / "missing.json")
    (tmp_path / "x.json").write_text('{"format": "skyjo-record/1"}')
    with pytest.raises(TournamentError, match="not a results file"):
        load_results(tmp_path / "x.json")
    (tmp_path / "y.json").write_text("{oops")
    with pytest.raises(TournamentError, match="not JSON"):
        load_results(tmp_path / "y.json")
    (tmp_path / "z.json").write_text('{"format": "skyjo-tournament/1", "config": {}}')
    with pytest.raises(TournamentError, match="damaged"):
        load_results(tmp_path / "z.json")


# --------------------------------------------------------------------------
# The luck study
# --------------------------------------------------------------------------


def test_luck_study_plays_one_stronger_bot_against_weaker_copies(tmp_path: Path) -> None:
    configs = luck_configs("test-low,random", games=6, seed=1, max_players=4, rules=SHORT)
    assert [c.lineup for c in configs] == [
        ("test-low", "random"),
        ("test-low", "random", "random"),
        ("test-low", "random", "random", "random"),
    ]
    study = run_luck_study(configs, workers=1)
    assert [p["players"] for p in study.points] == [2, 3, 4]
    assert [p["fair_share"] for p in study.points] == [1 / 2, 1 / 3, 1 / 4]
    assert all(p["win_rate"] > p["fair_share"] for p in study.points)
    path = tmp_path / "luck.json"
    save_results(study, path)
    assert load_results(path) == study
    assert isinstance(study, StudyResult)
    assert "summary" not in study.summary()["points"][0]
    with pytest.raises(TournamentError, match="two bots"):
        luck_configs("random", games=2, seed=1)


# --------------------------------------------------------------------------
# skyjo tournament
# --------------------------------------------------------------------------


def test_tournament_json_prints_the_summary(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = run(
        "tournament", "--bots", f"random,{FAST}", "--players", "2", "--games", "4",
        "--seed", "1", "--workers", "1", "--out", str(out), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 4
    assert [b["bot"] for b in summary["bots"]] == list(dict.fromkeys(["random", FAST]))
    assert load_results(out).summary == summary  # type: ignore[union-attr]


def test_tournament_table_shows_every_bot() -> None:
    result = run("tournament", "--bots", "random,test-low", "--games", "2", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    for fragment in ("random", "test-low", "win %", "95% CI", "Wilson", "games/s"):
        assert fragment in result.stdout


def test_tournament_with_stalled_games_reports_them(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    args = ["tournament", "--bots", "test-stall", "--games", "2", "--workers", "1"]
    table = run(*args, "--out", str(out))
    assert table.exit_code == 0, table.stderr
    assert "Stalled: 2 of 2 games, a round with no end after 2000 turns: game 0 (round 1), " in (
        table.stdout
    )
    assert "left out of the figures above (neither won nor lost)" in table.stdout
    doc = json.loads(out.read_text())
    assert [(g["stalled"], g["stalled_round"], g["winners"]) for g in doc["games"]] == [
        (True, 1, []),
        (True, 1, []),
    ]
    assert doc["summary"]["stalled_games"] == 2
    loaded = load_results(out)
    assert isinstance(loaded, TournamentResult) and all(g.stalled for g in loaded.games)
    summary = json.loads(run(*args, "--json").stdout)
    assert summary["stalled_games"] == 2 and summary["bots"][0]["seats"] == 0


MISSING_BOT = "external:command=python /nonexistent/bot.py"


def test_tournament_reports_an_external_bots_incidents(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    args = ["tournament", "--bots", f"{MISSING_BOT},{FAST}", "--games", "2", "--workers", "1"]
    result = run(*args, "--seed", "1", "--out", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    missing, other = summary["bots"]
    assert missing["bot"] == MISSING_BOT
    assert missing["incidents"] == {"crashed": 2}  # at the handshake, once per game
    assert other["incidents"] == {}
    games = json.loads(out.read_text())["games"]
    for game in games:
        (incident,) = game["incidents"]
        assert incident["seat"] == game["seats"].index(MISSING_BOT)
        assert (incident["turn"], incident["kind"]) == (0, "crashed")
        assert "/nonexistent/bot.py" in incident["detail"]
    assert load_results(out).summary == summary  # type: ignore[union-attr]
    table = run(*args)
    assert table.exit_code == 0, table.stderr
    line = f"Incidents (the fallback bot played those moves): {MISSING_BOT}: crashed 2."
    assert line in table.stdout.splitlines()


def test_a_bots_name_option_labels_it() -> None:
    spec = f"{MISSING_BOT},name=mine"
    config = make_config(f"{spec},{FAST}", players=2, games=2, seed=1, rules=SHORT)
    assert (config.bots, config.lineup, config.spec("mine")) == (
        ("mine", FAST),
        ("mine", FAST),
        spec,
    )
    assert TournamentConfig.from_dict(config.to_dict()) == config
    result = run_tournament(config, workers=1)
    assert [g.seats for g in result.games] == [("mine", FAST), (FAST, "mine")]
    assert [b["bot"] for b in result.summary["bots"]] == ["mine", FAST]
    args = ["tournament", "--bots", f"{spec},{FAST}", "--games", "2", "--workers", "1"]
    summary = json.loads(run(*args, "--json").stdout)
    assert [b["bot"] for b in summary["bots"]] == ["mine", FAST]
    assert summary["bots"][0]["incidents"] == {"crashed": 2}
    table = run(*args).stdout
    assert "\nmine " in table and "command=" not in table.split("Win rate by seat")[0]


def test_labels_tell_the_bots_apart() -> None:
    with pytest.raises(TournamentError, match=r"two bots are labelled 'x' \('external:command=a,"):
        make_config("external:command=a,name=x,external:command=b,name=x")
    with pytest.raises(TournamentError, match="two bots are labelled 'random'"):
        make_config("external:command=a,name=random,random")
    with pytest.raises(TournamentError, match="empty name="):
        make_config("external:command=a,name=,random")
    config = make_config("random,random")  # the same spec twice: one bot, two seats
    assert (config.bots, config.lineup) == (("random",), ("random", "random"))


def rendered(items: list[RenderableType], width: int = 80) -> str:
    """What a console `width` columns wide shows of `items`."""
    console = Console(width=width, record=True, file=io.StringIO())
    for item in items:
        console.print(item)
    return console.export_text()


def assert_rows_whole(text: str, summary: dict[str, Any]) -> None:
    """Every bot's numbers are in the text, in order on one line, none cut."""
    for bot in summary["bots"]:
        cells = bot_cells(bot)
        assert re.search(r" +".join(map(re.escape, cells)) + "$", text, re.MULTILINE), cells


def test_the_table_fits_80_columns_whatever_the_labels() -> None:
    spec = f"{MISSING_BOT},timeout=0.5"
    outcome = tournament_command(f"{spec},test-low,random", games=3, seed=1, workers=1)
    text = rendered(tournament_tables(outcome))
    table = text.split("Win rate by seat")[0]
    assert max(map(len, table.splitlines())) <= 80
    assert "seats" in table and "rating" in table and "…" not in table.splitlines()[1]
    assert_rows_whole(text, outcome.summary)
    legend = re.search(rf"^(.+….+) = {re.escape(spec)}$", table, re.MULTILINE)
    assert legend, table  # the full label, under the table
    assert any(line.startswith(f"{legend[1]} ") for line in table.splitlines())
    # labels that would look alike shortened are wrapped instead
    summary = json.loads(json.dumps(outcome.summary))
    for k, bot in enumerate(summary["bots"]):
        bot["bot"] = f"external:command=python {'x' * 40}{k}{'y' * 40}.py"
    text = rendered([BotTable(summary)])
    assert max(map(len, text.splitlines())) <= 80 and "…" not in text
    assert_rows_whole(text, summary)
    # short labels are left alone, two spaces apart as ever
    text = rendered([BotTable(make_summary())])
    assert "…" not in text and "random    " in text


def make_summary() -> dict[str, Any]:
    config = make_config("random,test-low", players=2, games=2, seed=1, rules=SHORT)
    return run_tournament(config, workers=1).summary


def test_shorten_keeps_both_ends() -> None:
    assert shorten("abcdefghij", 5) == "ab…ij"
    assert shorten("abcdefghij", 6) == "abc…ij"
    assert shorten("abcdefghij", 10) == "abcdefghij"
    assert all(len(shorten("x" * 30, n)) == n for n in range(1, 31))


def test_study_command_prints_the_luck_table() -> None:
    result = run(
        "tournament", "--study", "luck", "--bots", "test-low,random", "--players", "3",
        "--games", "2", "--workers", "1", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    assert doc["study"] == "luck" and [p["players"] for p in doc["points"]] == [2, 3]


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--bots", "random,nobody"], ["unknown bot 'nobody'"]),
        (["--bots", "random", "--players", "9"], ["2 to 8 players"]),
        (["--bots", "random", "--players", "1"], ["2 to 8 players"]),
        (["--bots", "random", "--players", "two"], ["--players"]),
        (["--bots", "random", "--games", "0"], ["at least 1 game"]),
        (["--bots", "random", "--games", "-3"], ["at least 1 game"]),
        (["--bots", "random", "--workers", "0"], ["--workers"]),
        (["--bots", "random", "--backend", "moon"], ["backend"]),
        (["--bots", "a,b,c", "--players", "2"], ["unknown bot"]),
        (["--bots", "random,random,random", "--players", "2"], ["cannot share 2 seats"]),
        (["--bots", "random", "--study", "luck"], ["two bots"]),
        (["--bots", "random,greedy", "--study", "fate"], ["unknown study"]),
        (["--bots", "random", "--address", "auto"], ["--backend ray"]),
        (
            ["--bots", "external:command=a,name=x,external:command=b,name=x"],
            ["two bots are labelled 'x'", "name="],
        ),
        ([], ["--bots"]),
    ],
)
def test_tournament_bad_input(args: list[str], fragments: list[str]) -> None:
    assert_bad_input(run("tournament", *args), *fragments)


def test_ray_backend_without_ray_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    assert_bad_input(
        run("tournament", "--bots", "random", "--games", "2", "--backend", "ray"),
        "pip install 'skyjo[ray]'",
    )
    config = make_config("random", players=2, games=2, seed=1)
    with pytest.raises(ValueError, match=r"skyjo\[ray\]"):
        run_tournament(config, backend="ray")
    # the local backend does not need Ray
    assert run_tournament(config, workers=1).summary["games"] == 2
