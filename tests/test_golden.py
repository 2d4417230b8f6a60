"""Golden playthroughs: whole seeded games written out as readable text (OpenSpiel style).

Each file under `tests/golden/` is one complete game between random players:
every action is `random.Random(seed).choice(legal_actions(state))`, on a game
dealt by `new_game(n, seed=seed, rules=rules)`. The file shows, for every action,
the acting seat, the action name and the events it produced (`describe_events`);
after the deal, the opening reveals, every completed turn and every round end,
the full-information table (`render_state`: face-down cards as `[ 7]`); and at
the end every round's results and the totals.

This test replays each game in memory and compares the text with the file, so
any change in the engine's behaviour (or in the rendering) shows up as a diff.
After an intended change, regenerate the files and review the diff:

    SKYJO_UPDATE_GOLDEN=1 pytest tests/test_golden.py
    python tests/test_golden.py --update
"""

from __future__ import annotations

import difflib
import itertools
import os
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from skyjo.engine import (
    NEXT_ROUND,
    Phase,
    State,
    action_name,
    cards_in_play,
    legal_actions,
    new_game,
    step_with_events,
)
from skyjo.render import describe_events, render_state
from skyjo.rules import CARD_COUNTS, Rules
from skyjo.scoring import winners

GOLDEN_DIR = Path(__file__).parent / "golden"
NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hugo")
UPDATE_COMMANDS = (
    "SKYJO_UPDATE_GOLDEN=1 pytest tests/test_golden.py",
    "python tests/test_golden.py --update",
)
#: How many differing lines of a unified diff a failure shows.
DIFF_LINES = 60


@dataclass(frozen=True)
class Playthrough:
    """One golden game: its file name, seat count, seed and rules."""

    filename: str
    num_players: int
    seed: int
    rules: Rules = field(default_factory=Rules)

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / self.filename


PLAYTHROUGHS = (
    Playthrough("2p-seed1.txt", 2, 1),
    Playthrough("3p-seed2-always-50.txt", 3, 2, Rules(ender_penalty="always", target_score=50)),
    Playthrough("5p-seed3.txt", 5, 3),
    Playthrough("8p-seed4-target30.txt", 8, 4, Rules(target_score=30)),
    # Random players pass 100 in one round: a high target plays several rounds,
    # so that dealing the next round and its starter (the previous ender) show;
    # seed 6 also clears two columns.
    Playthrough("2p-seed6-target300.txt", 2, 6, Rules(target_score=300)),
)


class RandomChooser:
    """Chooses uniformly among the legal actions with its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> int:
        return self.rng.choice(legal_actions(state))


def _indent(text: str, prefix: str = "    ") -> list[str]:
    """`text`'s lines with `prefix` before each non-empty one."""
    return [prefix + line if line else "" for line in text.split("\n")]


def _header(game: Playthrough, names: tuple[str, ...]) -> list[str]:
    """The comment lines that open a golden file."""
    rules = game.rules
    return [
        f"# Skyjo golden playthrough: {game.num_players} players, seed {game.seed}.",
        f"# Regenerate with: {UPDATE_COMMANDS[0]}",
        f"#              or: {UPDATE_COMMANDS[1]}",
        "# (then review the diff: any change here is a change in the engine's behaviour).",
        "#",
        "# players: " + ", ".join(f"{name} (seat {i})" for i, name in enumerate(names)),
        f"# rules: target_score={rules.target_score}, ender_penalty={rules.ender_penalty}",
        f"# seed: {game.seed}: new_game({game.num_players}, seed={game.seed}, rules=...), and every"
        f" action is random.Random({game.seed}).choice(legal_actions(state))",
        "# tables: full information: ` 7 ` face up, `[ 7]` face down, `( 7)` cleared column",
        "# positions: [row, col] from 0 in action names (RULES.md); the sentences count from 1",
        "# `shows` is the visible score, `holds` the sum of every uncleared card",
    ]


def play(game: Playthrough) -> str:
    """Play `game` to the end and return its golden text."""
    names = NAMES[: game.num_players]
    choose = RandomChooser(game.seed)
    state = new_game(game.num_players, seed=game.seed, rules=game.rules)
    lines = _header(game, names)
    lines += [
        "",
        f"=== round {state.round + 1} ===",
        "",
        "dealt:",
        *_indent(render_state(state, names)),
    ]
    turn = 0
    for number in itertools.count(1):
        if state.phase == Phase.GAME_OVER:
            break
        assert Counter(cards_in_play(state)) == CARD_COUNTS, f"action {number}: cards lost"
        before = state
        action = choose(state)
        state, events = step_with_events(state, action)
        if action == NEXT_ROUND:
            turn = 0
            lines += ["", f"=== round {state.round + 1} ==="]
        lines.append("")
        lines.append(f"#{number} {names[before.player]}: {action_name(action)}")
        lines += ["  - " + line for line in describe_events(events, names, before)]
        title = None
        if action == NEXT_ROUND:
            title = "dealt"
        elif before.phase == Phase.REVEAL and state.phase != Phase.REVEAL:
            title = f"after the reveals ({names[state.starter]} starts)"
        elif before.held is not None:
            turn += 1
            title = f"after turn {turn}"
            if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
                title += f": round {before.round + 1} over"
        if title is not None:
            lines += [f"  {title}:", *_indent(render_state(state, names))]
    lines += ["", "=== results ===", ""]
    for index, result in enumerate(state.results):
        doubled = ", doubled" if result.doubled else ""
        lines.append(f"round {index + 1}: ended by {names[result.ender]}{doubled}")
        lines.append(
            "  raw:    " + ", ".join(f"{n} {s}" for n, s in zip(names, result.raw, strict=True))
        )
        lines.append(
            "  scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, result.scores, strict=True))
        )
    lines.append(
        "totals: " + ", ".join(f"{n} {t}" for n, t in zip(names, state.totals, strict=True))
    )
    lines.append("winners: " + ", ".join(winners(dict(zip(names, state.totals, strict=True)))))
    return "\n".join(lines) + "\n"


def first_differences(expected: str, actual: str, limit: int = DIFF_LINES) -> str:
    """The start of a unified diff from `expected` (the file) to `actual`."""
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            "golden file",
            "this run",
            n=3,
            lineterm="",
        )
    )
    more = f"\n... ({len(diff) - limit} more diff lines)" if len(diff) > limit else ""
    return "\n".join(diff[:limit]) + more


def update(game: Playthrough) -> None:
    """Rewrite `game`'s golden file."""
    game.path.parent.mkdir(parents=True, exist_ok=True)
    game.path.write_text(play(game), encoding="utf-8")


@pytest.mark.parametrize("game", PLAYTHROUGHS, ids=[g.filename for g in PLAYTHROUGHS])
def test_golden_playthrough(game: Playthrough) -> None:
    if os.environ.get("SKYJO_UPDATE_GOLDEN") == "1":
        update(game)
    actual = play(game)
    if not game.path.exists():
        pytest.fail(f"{game.path} is missing; create it with: {UPDATE_COMMANDS[0]}")
    expected = game.path.read_text(encoding="utf-8")
    if actual != expected:
        pytest.fail(
            f"{game.filename} differs from this run; if the change is intended, regenerate "
            f"with: {UPDATE_COMMANDS[0]}\n{first_differences(expected, actual)}",
            pytrace=False,
        )


def test_golden_games_are_complete() -> None:
    """Each golden file plays a whole game: it ends with the results."""
    for game in PLAYTHROUGHS:
        text = game.path.read_text(encoding="utf-8") if game.path.exists() else ""
        assert "\n=== results ===\n" in text, game.filename
        assert "game over" in text, game.filename


def main(argv: list[str]) -> int:
    """`python tests/test_golden.py --update` rewrites every golden file."""
    if argv != ["--update"]:
        print(f"usage: python {Path(__file__).name} --update", file=sys.stderr)
        return 2
    for game in PLAYTHROUGHS:
        update(game)
        print(f"wrote {game.path} ({game.path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
