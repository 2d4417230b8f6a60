"""Watch bots play a whole game in the terminal (the `skyjo play` command).

The engine runs the game; each bot chooses from its own observation; what
happened is told one sentence per event, and the table is drawn as a
spectator sees it (no face-down value) after every turn when pacing, and at
every round's end.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from skyjo.bots import make_bot, parse_spec
from skyjo.engine import (
    DRAW,
    TAKE_DISCARD,
    Phase,
    State,
    new_game,
    observe,
    step_with_events,
)
from skyjo.render import describe_events, render_observation
from skyjo.rules import Rules
from skyjo.scoring import winners


def seat_names(specs: Sequence[str]) -> list[str]:
    """`Greedy 1`, `Random 2`, ...: the bot's name and its seat, counted from 1."""
    return [f"{parse_spec(spec)[0].title()} {seat + 1}" for seat, spec in enumerate(specs)]


def watch(
    specs: Sequence[str],
    seed: int,
    rules: Rules,
    console: Console,
    pace: float = 0.0,
) -> State:
    """Play one game between the bots `specs` (one per seat) and narrate it."""
    names = seat_names(specs)
    bots = [make_bot(spec, seed=seed * 100 + seat) for seat, spec in enumerate(specs)]
    state = new_game(len(specs), seed=seed, rules=rules)
    console.print(f"[bold]Skyjo[/]: {', '.join(names)}; seed {seed}; target {rules.target_score}")
    while state.phase != Phase.GAME_OVER:
        before = state
        action = bots[state.player].choose(observe(state, state.player))
        state, events = step_with_events(state, action)
        for line in describe_events(events, names, before):
            console.print(f"  {line}")
        turn_done = action not in (DRAW, TAKE_DISCARD) and before.held is not None
        if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) or (pace and turn_done):
            view = render_observation(observe(state, 0), names, spectator=True)
            console.print(view, highlight=False, markup=False)
            time.sleep(pace)
    console.print(scoresheet(state, names))
    return state


def scoresheet(state: State, names: Sequence[str]) -> Table:
    """Round scores, totals and the winners (ties share the win, RULES.md 3)."""
    table = Table(title="Scoresheet")
    table.add_column("round")
    for name in names:
        table.add_column(name, justify="right")
    for index, result in enumerate(state.results, start=1):
        cells = [
            f"{score}{' (x2)' if result.doubled and seat == result.ender else ''}"
            for seat, score in enumerate(result.scores)
        ]
        table.add_row(str(index), *cells)
    table.add_row("total", *(str(t) for t in state.totals), style="bold")
    best = winners(dict(enumerate(state.totals)))
    table.caption = "Winner: " + " and ".join(names[seat] for seat in best)
    return table
