"""Watch bots play a whole game in the terminal (the `skyjo watch` command).

A `Match` of bot seats runs the game (seeds, bots' lifecycle, the round
limit); what happened is told one sentence per event, and the table is drawn
as a spectator sees it (no face-down value) after every turn when pacing, and
at every round's end.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from skyjo.bots import parse_spec
from skyjo.engine import DRAW, TAKE_DISCARD, Phase, State
from skyjo.match import Match, Seat
from skyjo.observation import observe
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
) -> Match:
    """Play one game between the bots `specs` (one per seat) and narrate it.

    Names are printed as plain strings: give a console with markup and emoji
    codes off (`skyjo.commandline.console()`) so that they show as written.
    """
    names = seat_names(specs)
    seats = [Seat(name, spec) for name, spec in zip(names, specs, strict=True)]
    with Match(seats, rules, seed) as match:
        header = f": {', '.join(names)}; target {rules.target_score}"
        console.print(Text("Skyjo", style="bold"), header, sep="")
        before = match.state
        while not match.over:
            update = match.play_bot()
            assert update is not None
            for line in describe_events(update.events, names, before):
                console.print(f"  {line}")
            state = update.state
            turn_done = update.action not in (DRAW, TAKE_DISCARD) and before.held is not None
            if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) or (pace and turn_done):
                view = render_observation(observe(state, None), names, spectator=True)
                console.print(view, highlight=False, markup=False)
                time.sleep(pace)
            before = state
    if match.stalled:
        console.print(f"The game stopped: {match.stalled}.")
    console.print(scoresheet(match.state, names))
    console.print(f"Seed {seed} (play it again with --seed {seed})")
    return match


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
    if state.phase == Phase.GAME_OVER:
        best = winners(dict(enumerate(state.totals)))
        table.caption = "Winner: " + " and ".join(names[seat] for seat in best)
    else:
        table.caption = "No winner: the game did not finish"
    return table
