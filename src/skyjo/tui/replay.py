"""Replay a game record step by step on the game's board (`skyjo replay --watch`).

A record (RULES.md 5) is replayed by `skyjo.replayer.steps`, which checks
it: its steps are the engine's states along the game's actions, dealt from
the record's decks and reshuffled in its order, so a record without a seed
replays as well. A record shows everything: the board shows every card,
face-down ones in brackets, and every drawn card.

Keys: right (or l) a step forward, left (or h) a step back, ] and [ a round
forward and back, 1 to 9 the start of that round, Home and End the first and
last step, space plays on by itself.

With a review (`skyjo replay --watch --review`, `skyjo.analysis.review`),
each rated step adds a line to the log: its label (marked ?!, ? or ?? as
chess marks them), the points lost, the better move and the reason; the
status line shows the label of the step on the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.timer import Timer

from skyjo.analysis.rating import MARKS, Decision
from skyjo.analysis.review import Review
from skyjo.analysis.tables import move_text
from skyjo.engine import State
from skyjo.record import Record
from skyjo.replayer import steps
from skyjo.tui.game import BoardApp
from skyjo.tui.narrate import event_lines
from skyjo.tui.screens import HelpScreen, TextScreen, scoresheet
from skyjo.tui.view import TableView, from_state

#: Seconds between two steps when the replay plays on by itself.
AUTOPLAY = 0.5


@dataclass(frozen=True, slots=True)
class Frame:
    """A step of a replay: the state after it and what it did, in words."""

    state: State
    lines: tuple[Text, ...]
    rated: Decision | None = None


def mark(decision: Decision) -> Text:
    """A rated step's line: "  ?? blunder, 12.0 points; better: swap 2,4 (why)"."""
    sign = MARKS[decision.label]
    head = f"  {sign + ' ' if sign else ''}{decision.label}"
    if decision.label == "best":
        return Text(head, style="green")
    better = f"; better: {move_text(decision.best)}" if decision.best != decision.action else ""
    style = {"good": "green", "inaccuracy": "yellow"}.get(decision.label, "red")
    return Text(f"{head}, {decision.loss:.1f} points{better} ({decision.reason})", style=style)


def frames(record: Record, review: Review | None = None) -> list[Frame]:
    """Every step of the recorded game (`skyjo.replayer.steps`), the dealt first
    round first, each rated step marked when a `review` is given; a record
    that does not replay raises `RecordError`."""
    names = record.players
    rated = {d.step: d for d in review.decisions} if review is not None else {}
    shown: list[Frame] = []
    before: State | None = None
    for number, (state, events, _, _) in enumerate(steps(record)):
        if before is None:
            lines = [Text(f"Replay: {', '.join(names)}; round 1 dealt")]
        else:
            lines = event_lines(events, names, before, state.results, state.rules.ender_penalty)
        decision = rated.get(number)
        if decision is not None:
            lines.append(mark(decision))
        shown.append(Frame(state, tuple(lines), decision))
        before = state
    return shown


def round_starts(steps: Sequence[Frame]) -> list[int]:
    """The index of each round's first step (its deal)."""
    starts = [0]
    for index in range(1, len(steps)):
        if steps[index].state.round != steps[index - 1].state.round:
            starts.append(index)
    return starts


class ReplayApp(BoardApp):
    """A recorded game, step by step, forward and back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", "Next", key_display="→"),
        Binding("left,h", "step(-1)", "Back", key_display="←"),
        Binding("right_square_bracket", "round(1)", "Round", key_display="]"),
        Binding("left_square_bracket", "round(-1)", "Round back", show=False),
        Binding("home", "go(0)", "Start", show=False),
        Binding("end", "go(-1)", "End", show=False),
        Binding("space", "autoplay", "Play"),
        Binding("s", "scores", "Scores", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "quit", "Quit"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        *(Binding(str(n), f"to_round({n})", show=False) for n in range(1, 10)),
    ]

    def __init__(
        self, record: Record, *, autoplay: float = AUTOPLAY, review: Review | None = None
    ) -> None:
        super().__init__(record.players)
        self.steps = frames(record, review)
        self.starts = round_starts(self.steps)
        self.index = 0
        self.delay = autoplay
        self.timer: Timer | None = None

    def on_mount(self) -> None:
        self.go(0)

    def table(self) -> TableView:
        return from_state(self.steps[self.index].state, self.names)

    def go(self, index: int) -> None:
        """Show step `index` and the log up to it."""
        self.index = max(0, min(index, len(self.steps) - 1))
        self.draw_board(self.table())
        log = self.game_log
        log.clear()
        first = max(0, self.index - 200)
        for frame in self.steps[first : self.index + 1]:
            log.say(list(frame.lines))
        self.set_prompt(self.where(), "→ ←: a step · ] [: a round · 1-9: round N · space: play")

    def where(self) -> Text:
        """`Step 37 of 412 · round 2 of 5`, and the step's label when rated."""
        frame = self.steps[self.index]
        rnd = frame.state.round
        last = len(self.steps) - 1
        shown = f"Replay: step {self.index} of {last} · round {rnd + 1} of {len(self.starts)}"
        if frame.rated is not None:
            shown += f" · {self.names[frame.rated.seat]}: {frame.rated.label}"
            if frame.rated.label != "best":
                shown += f" ({frame.rated.loss:.1f} points)"
        return Text(shown)

    def action_step(self, delta: int) -> None:
        self.go(self.index + delta)

    def action_go(self, index: int) -> None:
        self.go(index if index >= 0 else len(self.steps) - 1)

    def action_round(self, delta: int) -> None:
        rnd = self.steps[self.index].state.round
        if delta < 0 and self.index != self.starts[rnd]:
            self.go(self.starts[rnd])
        else:
            self.go(self.starts[max(0, min(rnd + delta, len(self.starts) - 1))])

    def action_to_round(self, number: int) -> None:
        if number <= len(self.starts):
            self.go(self.starts[number - 1])
        else:
            self.warn(f"The game has {len(self.starts)} rounds")

    def action_autoplay(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
            return
        self.timer = self.set_interval(self.delay, self.autostep)

    def autostep(self) -> None:
        """One step of the autoplay's timer; none once the app is shutting down
        (a tick may come after its board is gone)."""
        if not self.is_running:
            return
        if self.index >= len(self.steps) - 1 and self.timer is not None:
            self.timer.stop()
            self.timer = None
            return
        self.go(self.index + 1)

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_scores(self) -> None:
        self.push_screen(TextScreen([scoresheet(self.table())]))
