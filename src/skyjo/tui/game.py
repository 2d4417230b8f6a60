"""The terminal game (`skyjo play`): humans, hot-seat, against bots.

Every move goes through the match driver (`skyjo.match.Match`): a human's
key or click becomes `Match.play(seat, action)`, a bot's move is
`Match.play_bot()`, run in a worker thread after a short pause so the
interface never freezes and people can follow. The board shows one seat's
observation (`Match.observation`), the log that seat's view of each step
(`Update.events_for`): no screen holds a face-down value or a card another
player drew.

With several humans (hot-seat), a screen hides the board before each human's
turn until that human presses Enter. With a save file, the match is written
after every step, half turns included (`lineup.save_match`).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    IllegalActionError,
    Phase,
)
from skyjo.match import Match, MatchError, Update
from skyjo.observation import CLEARED, Observation
from skyjo.rules import COLS, GRID_SIZE
from skyjo.tui import board
from skyjo.tui.board import GameLog, Piles, SeatGrid, Table
from skyjo.tui.lineup import save_match
from skyjo.tui.narrate import event_lines
from skyjo.tui.screens import (
    HelpScreen,
    PassScreen,
    QuitScreen,
    RoundOverScreen,
    TextScreen,
    scoresheet,
)
from skyjo.tui.view import TableView, from_observation
from skyjo.wording import agree

#: Seconds a bot waits before each move, so that people can follow.
DEFAULT_PAUSE = 0.6

CSS = """
Screen { layout: vertical; }
#too-small { height: auto; padding: 0 1; background: $error; color: $text; text-style: bold; }
#status { height: auto; padding: 0 1; background: $primary-background; text-style: bold; }
#middle { height: 1fr; min-height: 4; }
#prompt { height: auto; min-height: 2; padding: 0 1; background: $boost; }
SeatGrid.-turn { background: $boost; }
"""


#: The smallest terminal the board is laid out for: below it, grids run together.
MIN_WIDTH, MIN_HEIGHT = 80, 24


def size_warning(width: int, height: int) -> str | None:
    """What to tell a player whose terminal is smaller than the board needs, or None."""
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return None
    return (
        f"This terminal is {width}x{height}: Skyjo needs at least {MIN_WIDTH}x{MIN_HEIGHT}. "
        "Make the window larger or the font smaller."
    )


#: The status line's padding, left and right.
STATUS_PADDING = 2


def join_parts(parts: list[Text], width: int | None) -> Text:
    """`parts` joined by ` · `, a line break instead before a part that would
    go past `width` cells (None: one line), so that a line never stops in the
    middle of a part (at 80 columns, "last turns: Expected ended the round" is
    kept whole on the next line). A part wider than `width` is left to wrap."""
    text = Text("")
    line = 0
    for part in parts:
        if line and width is not None and line + 3 + part.cell_len > width:
            text.append("\n")
            line = 0
        elif line:
            text.append(" · ")
            line += 3
        text.append_text(part)
        line += part.cell_len
    return text


class BoardApp(App[None]):
    """The board shared by the game and the replay: status, grids, piles, log, prompt."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    TITLE = "Skyjo"

    def __init__(self, names: tuple[str, ...]) -> None:
        super().__init__()
        self.names = names
        self.view: TableView | None = None
        self.prompt_line = Text("")

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")
        yield Static(id="status")
        yield Table(len(self.names))
        with Horizontal(id="middle"):
            yield Piles()
            yield GameLog()
        yield Static(id="prompt")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        warning = size_warning(event.size.width, event.size.height)
        small = self.query_one("#too-small", Static)
        small.update(warning or "")
        small.display = warning is not None
        self.query_one(Table).lay_out(event.size)
        if self.view is not None:
            self.show_status(self.view, event.size.width)

    def show_status(self, view: TableView, width: int | None = None) -> None:
        """The status line(s): its parts on as few lines as the terminal's
        `width` allows, a part moved whole to the next line rather than cut."""
        width = self.size.width if width is None else width
        status = self.query_one("#status", Static)
        status.update(join_parts(self.status_parts(view), width - STATUS_PADDING))

    @property
    def game_log(self) -> GameLog:
        return self.query_one(GameLog)

    def say(self, lines: list[Text]) -> None:
        self.game_log.say(lines)

    def set_prompt(self, first: Text | str, second: Text | str = "") -> None:
        """The prompt's two lines: what to do, and a hint or why a key did nothing."""
        first = first if isinstance(first, Text) else Text(first)
        self.prompt_line = first
        second = second if isinstance(second, Text) else Text(second, style="dim")
        self.query_one("#prompt", Static).update(Text("\n").join([first, second]))

    def warn(self, reason: str) -> None:
        """Say why a key did nothing (the game is unchanged)."""
        self.set_prompt(self.prompt_line, Text(reason, style="bold red"))

    def status_parts(self, view: TableView) -> list[Text]:
        """`Skyjo`, `round 2`, `target 100`, `Ana to play`, and in the last
        turns `last turns: Ben ended the round`."""
        who = view.seats[view.current].name
        parts = [Text("Skyjo"), Text(f"round {view.round + 1}"), Text(f"target {view.target}")]
        if view.phase == Phase.REVEAL:
            parts.append(Text(who).append(f" {agree(who, 'turns', 'turn')} up two cards"))
        elif view.playing:
            parts.append(Text(who).append(" to play"))
            if view.ender is not None:
                ender = view.seats[view.ender].name
                parts.append(Text("last turns: ").append(ender).append(" ended the round"))
        elif view.phase == Phase.ROUND_OVER:
            parts.append(Text("round over"))
        else:
            parts.append(Text("game over"))
        return parts

    def draw_board(
        self,
        view: TableView,
        *,
        picker: int | None = None,
        cursor: int | None = None,
        flip_mode: bool = False,
    ) -> None:
        """Draw `view`; `picker` is the seat choosing a card (its grid shows
        `cursor` and dims what it may not choose)."""
        self.view = view
        self.show_status(view)
        table = self.query_one(Table)
        over = not view.playing and len(view.results) == view.round + 1
        for seat, shown in enumerate(view.seats):
            grid = table.grid(seat)
            turn = view.playing and seat == view.current
            marks = ("▶ " if turn else "") + ("⚑ " if seat == view.ender else "")
            picking = seat == picker
            grid.set_class(turn, "-turn")
            grid.show(
                shown,
                marks=marks,
                cursor=cursor if picking else None,
                choosable=board.choosable(view, flip_mode) if picking else None,
                round_score=view.results[-1].scores[seat] if over else None,
            )
        self.query_one(Piles).show(view, flip_mode=flip_mode)


class GameApp(BoardApp):
    """A game of humans (hot-seat) and bots, through one `Match`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "Draw"),
        Binding("t", "take", "Take discard"),
        Binding("f", "flip_mode", "Discard & flip"),
        Binding("enter", "choose", "Choose", show=False),
        Binding("up", "move(-4)", "Up", show=False),
        Binding("down", "move(4)", "Down", show=False),
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("s", "scores", "Scores"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "quit_game", "Quit"),
        Binding("ctrl+q", "quit_game", "Quit", show=False, priority=True),
    ]

    def __init__(
        self, match: Match, *, save: Path | None = None, pause: float = DEFAULT_PAUSE
    ) -> None:
        super().__init__(match.names)
        self.match = match
        self.save_path = save
        self.pause = pause
        self.humans = tuple(seat for seat in range(match.num_players) if match.seats[seat].human)
        self.viewer: int | None = self.humans[0] if self.humans else None
        self.obs: Observation = match.observation(self.viewer)
        self.cursor = dict.fromkeys(range(match.num_players), 0)
        self.flip_mode = False
        self.busy = False  #: a bot is thinking
        self.seen_by: int | None = None  #: the human who last took the seat (hot-seat)
        self.picking: int | None = None  #: the human whose move the game awaits
        self.acknowledged = -1  #: the last round whose end was shown and dismissed
        self.errors: list[str] = []  #: save errors, said once

    @property
    def waiting(self) -> str | None:
        """What the app waits for: "move" (a human's), "pass" (the hot-seat
        screen), "round" (a round's or the game's end read), "screen" (help, a
        question), or None while it works (a bot thinks, a screen opens)."""
        if self.busy:
            return None
        screen = self.screen
        if isinstance(screen, PassScreen):
            return "pass"
        if isinstance(screen, RoundOverScreen):
            return "round"
        if screen is not self.screen_stack[0]:
            return "screen"
        return "move" if self.picking is not None else None

    # --- the flow of the game -------------------------------------------------

    def on_mount(self) -> None:
        target = self.match.rules.target_score
        self.say([Text(f"Skyjo: {len(self.names)} players, target {target}")])
        self.say([Text("Press ? for the rules and the keys.", style="dim")])
        if self.match.steps:
            self.say([Text(f"Resumed in round {self.obs.round + 1}, where the game stopped")])
        self.save()
        self.redraw()
        self.call_after_refresh(self.next_step)

    def table(self) -> TableView:
        humans = [seat.human for seat in self.match.seats]
        return from_observation(self.obs, self.names, humans)

    def redraw(self) -> None:
        """Draw the board, the cursor of the human choosing a card where that
        human left it: a move never moves it (after turning up a card, Enter
        again does not turn up its neighbour but says that card is face up)."""
        view = self.table()
        picker, cursor = self.picking, None
        allowed = board.choosable(view, self.flip_mode) if picker is not None else None
        if picker is not None and allowed:
            cursor = self.cursor[picker]
        self.draw_board(view, picker=picker, cursor=cursor, flip_mode=self.flip_mode)
        if picker is not None:
            self.set_prompt(self.instruction())

    def next_step(self) -> None:
        """Decide what comes next: the end, a round's end, a human's move or a bot's."""
        match = self.match
        self.picking = None
        if match.over:
            self.show_round_end(game_over=True)
            return
        phase = match.observation(None).phase
        if phase == Phase.ROUND_OVER and self.acknowledged < self.obs.round:
            self.show_round_end(game_over=False)
            return
        seat = match.to_move
        assert seat is not None
        if not match.seats[seat].human:
            self.start_bot(seat)
        elif phase == Phase.ROUND_OVER:
            self.act(seat, NEXT_ROUND)
        else:
            self.human_turn(seat)

    def human_turn(self, seat: int) -> None:
        """Hand the board to the human of `seat` (behind a pass screen in hot-seat)."""
        if len(self.humans) > 1 and self.seen_by != seat:
            self.set_prompt(Text(""))
            self.push_screen(PassScreen(self.names[seat]), lambda _: self.take_seat(seat))
            return
        self.take_seat(seat)

    def take_seat(self, seat: int) -> None:
        self.seen_by = self.viewer = self.picking = seat
        self.obs = self.match.observation(seat)
        self.flip_mode = False
        self.redraw()

    def start_bot(self, seat: int) -> None:
        self.busy = True
        self.set_prompt(Text(f"{self.names[seat]} is thinking…", style="italic"))
        phase = self.obs.phase
        pause = self.pause / 3 if phase in (Phase.REVEAL, Phase.ROUND_OVER) else self.pause
        self.bot_move(pause)

    @work(thread=True, group="bots")
    def bot_move(self, pause: float) -> None:
        """In a worker thread: wait `pause` seconds, then one bot move."""
        if pause:
            time.sleep(pause)
        update = self.match.play_bot()
        self.call_from_thread(self.bot_moved, update)

    def bot_moved(self, update: Update | None) -> None:
        """A bot's move, back from its worker thread; ignored once the app is
        shutting down (quit while a bot was thinking: the board is gone)."""
        self.busy = False
        if not self.is_running:
            return
        self.applied(update)

    def act(self, seat: int, action: int) -> bool:
        """A human's move; False (and why, in the prompt) when it is refused."""
        try:
            update = self.match.play(seat, action)
        except (MatchError, IllegalActionError) as error:
            self.warn(str(error))
            return False
        self.flip_mode = False
        self.applied(update)
        return True

    def applied(self, update: Update | None) -> None:
        """After a move: show it, and go on."""
        self.show_update(update)
        self.next_step()

    def show_update(self, update: Update | None) -> None:
        """Tell the move in the log, save the game and redraw the board."""
        before = self.obs
        self.obs = self.match.observation(self.viewer)
        if update is not None:
            events = update.events_for(self.viewer)
            penalty = self.obs.rules.ender_penalty
            self.say(event_lines(events, self.names, before, self.obs.results, penalty))
        self.save()
        self.picking = None
        self.redraw()

    def save(self) -> None:
        if self.save_path is None:
            return
        try:
            save_match(self.match, self.save_path)
        except OSError as error:
            message = f"The game could not be saved to {self.save_path}: {error}"
            if message not in self.errors:
                self.errors.append(message)
                self.say([Text(message, style="bold red")])

    def show_round_end(self, *, game_over: bool) -> None:
        view = self.table()
        if game_over:
            prompt = "q: quit · s: the scoresheet"
        else:
            who = self.names[self.match.to_move or 0]
            deals = agree(who, "deals", "deal")
            prompt = f"Enter: {who} {deals} round {view.round + 2} · s: the scoresheet"
        screen = RoundOverScreen(view, game_over, prompt, self.match.stalled)
        self.set_prompt(Text(prompt))
        self.push_screen(screen, lambda _: self.round_end_seen(game_over))

    def round_end_seen(self, game_over: bool) -> None:
        if game_over:
            self.exit()
            return
        self.acknowledged = self.obs.round
        self.next_step()

    # --- what the human may do -------------------------------------------------

    def instruction(self) -> Text:
        """What the human choosing now may do, in a line."""
        view = self.table()
        text = Text("")
        text.append(view.seats[view.current].name, style="bold")
        held = view.held
        if view.phase == Phase.REVEAL:
            left = view.reveals_left()
            cards = "a card" if left == 1 else f"{left} cards"
            text.append(f": turn up {cards} (arrows and Enter, or a click)")
        elif not view.holding:
            top = view.discard[-1] if view.discard else None
            text.append(f": d draw a card · t take the {top} from the discard pile")
        elif view.source == "discard":
            text.append(f": put the {held} in your grid (arrows and Enter)")
        elif self.flip_mode:
            text.append(f": discard the {held}, turn up a face-down card · f: exchange it")
        else:
            text.append(f": put the {held} in your grid · f: discard it, turn up a card")
        return text

    def turn_check(self) -> int | None:
        """The human whose move it is, or None after saying why keys wait."""
        if self.picking is not None and not self.busy:
            return self.picking
        if self.busy:
            self.warn("Wait: a bot is playing")
        return None

    def action_draw(self) -> None:
        self.take_card(DRAW)

    def action_take(self) -> None:
        self.take_card(TAKE_DISCARD)

    def take_card(self, source: int) -> None:
        """A turn's first step, DRAW or TAKE_DISCARD, when the seat may take a card."""
        seat = self.turn_check()
        if seat is None:
            return
        if self.obs.phase == Phase.REVEAL:
            self.warn("First turn up two of your cards")
        elif self.obs.source is not None:
            self.warn(f"You hold the {self.obs.held}: put it in your grid first")
        else:
            self.act(seat, source)

    def action_flip_mode(self) -> None:
        seat = self.turn_check()
        if seat is None:
            return
        if self.obs.phase == Phase.REVEAL:
            self.warn("First turn up two of your cards")
        elif self.obs.source == "deck":
            self.flip_mode = not self.flip_mode
            self.redraw()
        elif self.obs.source == "discard":
            self.warn("A card taken from the discard pile must be exchanged: it may not go back")
        else:
            self.warn("Draw a card first (d): then f discards it and turns up one of yours")

    def action_move(self, delta: int) -> None:
        seat = self.picking
        if seat is None:
            return
        k = self.cursor[seat]
        if abs(delta) == 1:
            row, col = divmod(k, COLS)
            k = row * COLS + (col + delta) % COLS
        else:
            k = (k + delta) % GRID_SIZE
        self.cursor[seat] = k
        self.redraw()

    def action_choose(self) -> None:
        seat = self.turn_check()
        if seat is None:
            return
        self.choose(seat, self.cursor[seat])

    def choose(self, seat: int, k: int) -> None:
        """Play position k of the human's grid, as the phase and the mode say."""
        obs = self.obs
        status = obs.status[seat][k]
        if obs.phase == Phase.REVEAL:
            action, why = REVEAL + k, "That card is already face up: choose a face-down one"
        elif obs.source is None:
            self.warn("Draw a card (d) or take the discard (t) first")
            return
        elif self.flip_mode:
            action, why = FLIP + k, "That card is face up: choose a face-down card to turn up"
        else:
            action, why = SWAP + k, "That column is cleared: choose another card"
        if action not in obs.legal_actions:
            self.warn(why if status != CLEARED else "That column is cleared: choose another card")
            return
        self.act(seat, action)

    def on_seat_grid_cell_clicked(self, message: SeatGrid.CellClicked) -> None:
        if message.seat != self.picking or self.busy:
            return
        self.cursor[message.seat] = message.position
        self.choose(message.seat, message.position)

    def on_piles_pile_clicked(self, message: Piles.PileClicked) -> None:
        if message.pile == "deck":
            self.action_draw()
        elif self.obs.source == "deck" and self.picking is not None:
            if not self.flip_mode:
                self.action_flip_mode()
        else:
            self.action_take()

    # --- other keys -------------------------------------------------------------

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_scores(self) -> None:
        view = self.table()
        self.push_screen(TextScreen([scoresheet(view), Text("\nEscape to go back.", style="dim")]))

    def action_quit_game(self) -> None:
        if self.match.over or self.save_path is not None:
            self.exit()
            return
        question = "Quit? This game is not saved (skyjo play --save FILE keeps it)."
        self.push_screen(QuitScreen(question), lambda yes: self.exit() if yes else None)
