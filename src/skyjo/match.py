"""A match: the seats of a table, who plays each, and one game driven to its end.

The engine (`skyjo.engine`) knows the rules and nothing of players. A
`Match` holds what a table needs around it, once, for every interface (the
terminal, a web room, a tournament, an agent environment):

- the seats: each has a name and is played by a bot (any spec of
  `skyjo.bots`) or by a human, whose moves arrive from outside through
  `play(seat, action)`; `set_player` hands a seat to a bot and back;
- the game: `advance()` lets the bots play until a human must move or the
  game is over; `play_bot()` plays one bot move (an interface that paces bots
  or thinks off its event loop calls it itself);
- what each viewer may see: every step is an `Update` whose `view(viewer)`
  holds the events and the observation of one seat, or of a spectator
  (`viewer=None`: face-up cards only), never more;
- the bots' lifecycle: each bot is seeded with `skyjo.seeds.bot_seed` (a
  one-way hash, so nothing a bot is told gives the deal away), started with
  the seats' names, told the result at the game's end, and closed;
- the round limit: a round that reaches `GAME_INFO.max_round_turns` turns is
  stalled; the match then stops (`stalled` says why) and refuses every move.

A match saves to a JSON document (`to_dict`, `from_dict`): the seats, the
secret seed and the game record (RULES.md 5, half turns included), from which
the same state, key included, is restored; the same moves then give the same
game. Bots start afresh on a resumed match (a bot's memory of the game is not
saved), so a seeded bot's later choices may differ from an unbroken match.
The document holds the secret: it stays with the server, as the state does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from skyjo import names as naming
from skyjo.bots import Bot, make_bot, parse_spec
from skyjo.engine import (
    GAME_INFO,
    NEXT_ROUND,
    SWAP,
    IllegalActionError,
    Phase,
    State,
    new_game,
    step,
    step_with_events,
)
from skyjo.errors import SkyjoError
from skyjo.events import Event, visible_event
from skyjo.names import MAX_NAME, NameRefused, name_key
from skyjo.observation import Observation, observe, observe_views
from skyjo.record import Record, RecordError, load_record, read_record, write_record
from skyjo.replayer import replay
from skyjo.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError, check_player_count
from skyjo.scoring import winners
from skyjo.seeds import bot_seed, fresh_seed

#: The `format` of a saved match.
FORMAT = "skyjo-match/1"
#: The bot that plays a human's turn when an interface asks it to (`play_for`).
STAND_IN = "expected"


class MatchError(SkyjoError):
    """A move or a change the match refuses; the match is unchanged. `kind`
    names the sentence and `params` the values it names (`skyjo.errors`)."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        # check_name, check_names (NAME_KINDS)
        **NameRefused.KINDS,
        # check_seats
        "player_count": ("min", "max", "count"),
        # a seat given to a match
        "seat_not_integer": ("value",),
        "seat_out_of_range": ("seat", "seats"),
        # from_dict
        "not_saved_match": ("format",),
        "saved_match_damaged": ("error",),
        "saved_match_mismatch": (),
    }


class NotYourTurn(MatchError):
    """A seat moved when it was not its turn, or moved a seat a bot plays."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "not_your_turn": ("player", "you"),
        "seat_is_bot": ("player",),
        "human_turn": ("player",),
    }


class MatchOver(MatchError):
    """A move after the game is over or the match stalled (`reason`: `Match.stalled`)."""

    KINDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "game_over": (),
        "match_stopped": ("reason",),
    }


#: The kinds of `check_name` and `check_names`: what is wrong with a name.
NAME_KINDS: tuple[str, ...] = tuple(NameRefused.KINDS)


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: its name and who plays it (a bot spec, or None for a human)."""

    name: str
    bot: str | None = None

    @property
    def human(self) -> bool:
        return self.bot is None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class Update:
    """One step of the game: `number` counts the steps from 1, `seat` made
    `action`, and `state` is the state after it. `events` are everything that
    happened, for the server only: a viewer gets `view(viewer)`."""

    number: int
    seat: int
    action: int
    events: tuple[Event, ...]
    state: State

    def events_for(self, viewer: int | None) -> tuple[Event, ...]:
        """The events as `viewer` may see them (a drawn card only by its drawer)."""
        return tuple(visible_event(event, viewer) for event in self.events)

    def view(self, viewer: int | None) -> dict[str, Any]:
        """What `viewer` (a seat, or None for a spectator) receives of this step."""
        return {
            "number": self.number,
            "seat": self.seat,
            "action": self.action,
            "events": [event.to_dict() for event in self.events_for(viewer)],
            "observation": observe(self.state, viewer).to_dict(),
        }

    def views(self, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """`view(v)` for each of `viewers` (each once), what they all see alike made
        once (`skyjo.observation.observe_views`): a server tells every viewer."""
        observations = observe_views(self.state, dict.fromkeys(viewers))
        return {
            viewer: {
                "number": self.number,
                "seat": self.seat,
                "action": self.action,
                "events": [event.to_dict() for event in self.events_for(viewer)],
                "observation": observation,
            }
            for viewer, observation in observations.items()
        }


def check_name(name: Any) -> str:
    """A seat's name, normalised (`skyjo.names.check_name`); its refusal is a
    `MatchError` of the same `kind` and `params`."""
    try:
        return naming.check_name(name)
    except NameRefused as refused:
        raise MatchError(str(refused), refused.kind, refused.params) from None


def check_names(names: Sequence[Any]) -> tuple[str, ...]:
    """Each name checked and no two alike (`skyjo.names.check_names`); its
    refusal is a `MatchError` of the same `kind` and `params`."""
    try:
        return naming.check_names(names)
    except NameRefused as refused:
        raise MatchError(str(refused), refused.kind, refused.params) from None


def check_seats(seats: Sequence[Seat]) -> tuple[Seat, ...]:
    """2 to 8 seats with different valid names (`check_names`: the seats come
    back with their names normalised), each bot spec known."""
    seats = tuple(seats)
    try:
        check_player_count(len(seats))
    except RulesError as error:
        params = {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(seats)}
        raise MatchError(str(error), "player_count", params) from None
    names = check_names([seat.name for seat in seats])
    for seat in seats:
        if seat.bot is not None:
            parse_spec(seat.bot)  # a BotError (a ValueError) for a malformed spec
    return tuple(Seat(name, seat.bot) for name, seat in zip(names, seats, strict=True))


def _saved_seats(seats: Sequence[Seat]) -> tuple[Seat, ...]:
    """The seats of a saved match, checked as when they were made: 2 to 8,
    names of non-empty text all different as written, each bot spec known. A
    game saved before `check_name` grew stricter goes on under its names."""
    seats = tuple(seats)
    check_player_count(len(seats))
    names = [seat.name for seat in seats]
    if len(set(names)) != len(names) or not all(isinstance(n, str) and n.strip() for n in names):
        return check_seats(seats)  # what a saved match never holds: say why, as for new seats
    for seat in seats:
        if seat.bot is not None:
            parse_spec(seat.bot)
    return seats


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A match's game as it was at one step (`Match.checkpoint`), for `Match.restore`."""

    state: State
    steps: int
    stalled: str | None
    round_turns: int
    finished: bool


class Match:
    """Seats, their players and one game, driven through the engine.

    `seed` is the game's secret: it decides every deal, so it never leaves
    the driver (none given: a fresh unguessable one). `make` builds a bot
    from a spec and a seed (default `skyjo.bots.make_bot`); `record_events`
    False skips the events and `Update`s (a tournament only needs the state).
    """

    def __init__(
        self,
        seats: Sequence[Seat],
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        make: Callable[[str, int], Bot] = make_bot,
        record_events: bool = True,
        state: State | None = None,
        saved: bool = False,
    ) -> None:
        """`saved`: the seats of a saved match, whose names were checked by the
        rules of when they were made (`from_dict`); new seats go through `check_seats`."""
        self.seats = _saved_seats(seats) if saved else check_seats(seats)
        self.secret = fresh_seed() if seed is None else seed
        self.state = state or new_game(len(self.seats), seed=self.secret, rules=rules)
        self.rules = self.state.rules
        self.steps = 0  #: how many steps the game has had (the last update's number)
        self.stalled: str | None = None  #: why the match stopped at the round limit, if it did
        self._make = make
        self._record_events = record_events
        self._bots: dict[int, Bot] = {}
        self._stand_ins: dict[int, Bot] = {}
        self._round_turns = _turns_this_round(self.state)
        self._finished = False
        for seat in range(len(self.seats)):
            self._bot(seat)  # start every bot now: bad options fail here, not mid-game

    # --- reading ---------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        """Whether nothing more can be played: the game is over or stalled."""
        return self.state.phase == Phase.GAME_OVER or self.stalled is not None

    @property
    def to_move(self) -> int | None:
        """The seat whose move the game awaits, or None once it is over."""
        return None if self.over else self.state.player

    def against_bots(self, seat: int) -> bool:
        """Whether every seat but `seat` is a bot's (a game against bots alone)."""
        return not any(other.human for index, other in enumerate(self.seats) if index != seat)

    @property
    def waiting_for_human(self) -> bool:
        """Whether the game awaits a human's move."""
        seat = self.to_move
        return seat is not None and self.seats[seat].human

    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total once the game is over (ties share, RULES.md 3)."""
        if self.state.phase != Phase.GAME_OVER:
            return ()
        return tuple(winners(dict(enumerate(self.state.totals))))

    def observation(self, viewer: int | None) -> Observation:
        """What `viewer` (a seat, or None for a spectator) may see now."""
        if viewer is not None:
            self._check_seat(viewer)
        view = observe(self.state, viewer)
        if self.stalled is not None and view.legal_actions:
            view = _without_actions(view)
        return view

    def record(self) -> dict[str, Any]:
        """The game record so far (RULES.md 5). It holds the seed and the decks:
        give it only to whom may see everything (after the game, say)."""
        return write_record(self.state, self.names)

    def checkpoint(self) -> Checkpoint:
        """The game as it is now, to `restore` later (its state is immutable: cheap)."""
        return Checkpoint(self.state, self.steps, self.stalled, self._round_turns, self._finished)

    def restore(self, mark: Checkpoint) -> None:
        """Put the game back as it was at `mark`, a checkpoint of this match: the steps
        since are undone (a web room whose step could not be saved undoes it before
        anyone is told). The seats and bots stay as they are: a bot's memory of the
        undone steps is not undone, as it is not kept by a resumed match."""
        self.state, self.steps, self.stalled = mark.state, mark.steps, mark.stalled
        self._round_turns, self._finished = mark.round_turns, mark.finished

    # --- playing --------------------------------------------------------------------

    def play(self, seat: int, action: Any) -> Update | None:
        """A human's move for `seat`. Raises `NotYourTurn` when it is not that
        seat's turn or a bot plays the seat, `MatchOver` after the end, and
        `IllegalActionError` (naming why) for an illegal move; nothing changes then."""
        self._check_seat(seat)
        self._check_turn(seat)
        if not self.seats[seat].human:
            name = self.seats[seat].name
            raise NotYourTurn(f"{name}'s seat is played by a bot", "seat_is_bot", {"player": name})
        return self._apply(seat, action)

    def play_bot(self) -> Update | None:
        """One move of the bot whose turn it is (`NotYourTurn` if a human's)."""
        seat = self._turn_seat()
        if self.seats[seat].human:
            name = self.seats[seat].name
            raise NotYourTurn(f"it is {name}'s turn, a human's", "human_turn", {"player": name})
        return self._apply(seat, self._choose(self._bot(seat), seat))

    def play_for(self, seat: int) -> Update | None:
        """A stand-in bot (`STAND_IN`) plays this human seat's move (a turn timer ran out).
        It is made by the match's bot factory, so it thinks where the match's bots do."""
        self._check_seat(seat)
        self._check_turn(seat)
        stand_in = self._stand_ins.get(seat)
        if stand_in is None:
            stand_in = self._stand_ins[seat] = self._new_stand_in(seat)
        return self._apply(seat, self._choose(stand_in, seat))

    def advice(self, seat: int) -> int:
        """The move a fresh stand-in (`STAND_IN`, seeded as `play_for`'s) would play for
        this seat now, not played: a hint. Made by the match's bot factory (in a
        server's bot workers, not its own process) and closed after."""
        self._check_seat(seat)
        self._check_turn(seat)
        adviser = self._new_stand_in(seat)
        try:
            return int(self._choose(adviser, seat))
        finally:
            _close(adviser)

    def _new_stand_in(self, seat: int) -> Bot:
        """A new `STAND_IN` for `seat`, by the match's bot factory, seeded for that seat."""
        return self._make(STAND_IN, bot_seed(self.secret, ~seat))

    def advance(self, max_steps: int | None = None) -> list[Update]:
        """Let the bots play until a human must move, the game is over, or
        `max_steps` steps were played. Returns the updates (none without events)."""
        updates: list[Update] = []
        played = 0
        while not self.over and not self.waiting_for_human:
            if max_steps is not None and played >= max_steps:
                break
            update = self.play_bot()
            played += 1
            if update is not None:
                updates.append(update)
        return updates

    def set_player(self, seat: int, bot: str | None) -> None:
        """Hand `seat` to the bot `bot` (a spec), or back to a human (None).
        The seat keeps its name; a bot taking over starts from what it sees."""
        self._check_seat(seat)
        if bot is not None:
            parse_spec(bot)
        old = self._bots.pop(seat, None)
        if old is not None:
            _close(old)
        seats = list(self.seats)
        seats[seat] = Seat(seats[seat].name, bot)
        self.seats = tuple(seats)
        self._bot(seat)

    def reseated(self, seats: Sequence[Seat]) -> Match:
        """A fresh match of `seats` with these rules and this bot factory (a
        table whose seats changed before its game began); this one is closed."""
        self.close()
        return Match(seats, self.rules, make=self._make, record_events=self._record_events)

    def close(self) -> None:
        """Tell every bot the result (if the game is over) and release them."""
        for bot in (*self._bots.values(), *self._stand_ins.values()):
            _close(bot)
        self._bots.clear()
        self._stand_ins.clear()

    def __enter__(self) -> Match:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def incidents(self) -> dict[int, list[dict[str, Any]]]:
        """Per seat, what its bot did wrong (external bots report incidents)."""
        return {
            seat: list(getattr(bot, "incidents", ()))
            for seat, bot in self._bots.items()
            if getattr(bot, "incidents", None)
        }

    # --- saving -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The match as a JSON document: seats, secret, record, stall (see the module doc)."""
        return {
            "format": FORMAT,
            "seats": [seat.to_dict() for seat in self.seats],
            "secret": self.secret,
            "record": self.record(),
            "stalled": self.stalled,
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], *, make: Callable[[str, int], Bot] = make_bot
    ) -> Match:
        """The match saved by `to_dict`, at the same state (key and half turn included)."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise MatchError(
                f"not a saved match (format {FORMAT!r})", "not_saved_match", {"format": FORMAT}
            )
        try:
            seats = [Seat(str(s["name"]), s.get("bot")) for s in data["seats"]]
            secret = data["secret"]
            record = read_record(data["record"])
        except (KeyError, TypeError) as error:
            shown = f"{error!r:.80}"
            raise MatchError(
                f"a damaged saved match: {shown}", "saved_match_damaged", {"error": shown}
            ) from None
        if record.seed != secret or list(record.players) != [s.name for s in seats]:
            raise MatchError(
                "a damaged saved match: its record is not its seats' game", "saved_match_mismatch"
            )
        match = cls(seats, seed=secret, make=make, state=replay(record).state, saved=True)
        match.steps = len(match.state.history)
        match.stalled = data.get("stalled")
        return match

    def replay_moves(self, moves: Sequence[tuple[int, int, int]]) -> None:
        """Play again the steps saved after this match's snapshot (a room's move log:
        `(number, seat, action)` each, `skyjo.web.storage`): each must be the next
        step, by the seat whose turn it is, and legal, else `MatchError`
        (`saved_match_damaged`, as any damaged save) and the match is as far as the
        last good one."""
        for number, seat, action in moves:
            problem = None
            if self.over or number != self.steps + 1 or seat != self.state.player:
                problem = f"step {number} by seat {seat} does not follow step {self.steps}"
            else:
                try:
                    self._apply(seat, action)
                except IllegalActionError as error:
                    problem = f"step {number} is illegal: {error}"
            if problem is not None:
                raise MatchError(
                    f"a damaged saved match: {problem}", "saved_match_damaged", {"error": problem}
                )

    # --- inside -------------------------------------------------------------------

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int):
            shown = f"{seat!r:.40}"
            raise MatchError(
                f"a seat is an integer, not {shown}", "seat_not_integer", {"value": shown}
            )
        if not 0 <= seat < self.num_players:
            raise MatchError(
                f"there is no seat {seat} at this {self.num_players}-seat table",
                "seat_out_of_range",
                {"seat": seat, "seats": self.num_players},
            )

    def _check_turn(self, seat: int) -> None:
        turn = self._turn_seat()
        if turn != seat:
            player, you = self.seats[turn].name, self.seats[seat].name
            raise NotYourTurn(
                f"it is {player}'s turn, not {you}'s",
                "not_your_turn",
                {"player": player, "you": you},
            )

    def _turn_seat(self) -> int:
        if self.stalled is not None:
            raise MatchOver(
                f"the match stopped: {self.stalled}", "match_stopped", {"reason": self.stalled}
            )
        if self.state.phase == Phase.GAME_OVER:
            raise MatchOver("the game is over", "game_over")
        return self.state.player

    def _bot(self, seat: int) -> Bot | None:
        """The bot of `seat`, made and started on first use (None for a human)."""
        spec = self.seats[seat].bot
        if spec is None:
            return None
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self._make(spec, bot_seed(self.secret, seat))
            start = getattr(bot, "start", None)
            if callable(start):
                start(seat, self.num_players, self.rules, players=list(self.names))
        return bot

    def _choose(self, bot: Bot | None, seat: int) -> int:
        assert bot is not None
        return bot.choose(observe(self.state, seat))

    def _apply(self, seat: int, action: Any) -> Update | None:
        """Step the engine (an illegal action raises and changes nothing), count
        the round's turns against the limit, and tell the bots at the end."""
        before = self.state
        if self._record_events:
            state, events = step_with_events(before, action)
        else:
            state, events = step(before, action), ()
        self.state = state
        self.steps += 1
        if state.phase == Phase.REVEAL and before.phase != Phase.REVEAL:
            self._round_turns = 0
        elif before.held is not None:  # a placement ends a turn
            self._round_turns += 1
            if self._round_turns >= GAME_INFO.max_round_turns and state.phase in (
                Phase.TURNS,
                Phase.FINAL_TURNS,
            ):
                self.stalled = (
                    f"round {state.round + 1} reached {GAME_INFO.max_round_turns} turns "
                    "without ending"
                )
        if state.phase == Phase.GAME_OVER:
            self._tell_result()
        if not self._record_events:
            return None
        return Update(self.steps, seat, int(state.history[-1]), events, state)

    def _tell_result(self) -> None:
        """Send every bot that listens the final observation (protocol `result`)."""
        if self._finished:
            return
        self._finished = True
        for seat, bot in self._bots.items():
            game_over = getattr(bot, "game_over", None)
            if callable(game_over):
                game_over(observe(self.state, seat))


def load_game(path: str) -> Record:
    """The game record in the file `path` (RULES.md 5; ``-`` reads standard
    input), or the record inside a match saved there (`skyjo play --save`)."""
    try:
        return load_record(path)
    except RecordError:
        document = _saved_match(path)
        if document is None:
            raise
        return read_record(document["record"])


def _saved_match(path: str) -> dict[str, Any] | None:
    """The document in `path` if it is a saved match, else None."""
    try:
        with open(path, encoding="utf-8") as file:
            document = json.load(file)
    except (OSError, ValueError):
        return None
    if isinstance(document, dict) and document.get("format") == FORMAT:
        return document
    return None


def _turns_this_round(state: State) -> int:
    """How many turns the round in play has had (placements since the last deal)."""
    turns = 0
    for action in reversed(state.history.to_bytes()):
        if action == NEXT_ROUND:
            break
        if SWAP <= action < NEXT_ROUND:  # a placement ends a turn
            turns += 1
    return turns


def _without_actions(view: Observation) -> Observation:
    return replace(view, legal_actions=())


def _close(bot: Any) -> None:
    close = getattr(bot, "close", None)
    if callable(close):
        close()


__all__ = [
    "FORMAT",
    "MAX_NAME",
    "NAME_KINDS",
    "STAND_IN",
    "IllegalActionError",
    "Match",
    "MatchError",
    "MatchOver",
    "NotYourTurn",
    "Seat",
    "Update",
    "check_name",
    "check_names",
    "check_seats",
    "load_game",
    "name_key",
]
