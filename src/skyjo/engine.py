"""The pure core of Skyjo: state, actions, legal mask, step.

A game is a small immutable `State` (a named tuple of ints and tuples) and a
few pure functions over it, in the style of pgx and OpenSpiel:

- `new_game(num_players, seed=...)` deals the first round;
- `legal_actions(state)` / `legal_action_mask(state)` list what the player to
  act may do, in one flat integer action space of `NUM_ACTIONS` actions;
- `step(state, action)` returns the next state (`step_with_events` also says
  what happened); an illegal action raises `IllegalActionError` and changes
  nothing;
- what one player may see is in `skyjo.observation` (`observe`), the events
  a step reports and the history a state holds in `skyjo.events`; both are
  beside the engine, and the engine imports `skyjo.events` only;
- the action ids and names, `Phase`, `GAME_INFO` and the engine's errors are
  in `skyjo.actions`, re-exported here.

A turn is split into two actions so that a player who draws sees the card
before deciding (RULES.md 2.5): first `DRAW` or `TAKE_DISCARD`, then
`SWAP + k` (exchange the held card with grid position k) or, after drawing
only, `FLIP + k` (discard the drawn card and turn up position k). The opening
reveals (RULES.md 2.3) are `REVEAL + k` actions, two per player in seat order,
and `NEXT_ROUND` deals the next round once a round is over.

Randomness comes only from the state's `key`, set from an explicit seed: the
same seed and actions always give the same game. Grid positions are indices
0-11, laid row by row (`index = row * 4 + col`, RULES.md 5).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from skyjo.actions import (
    ACTION_NAMES,
    DRAW,
    FLIP,
    GAME_INFO,
    NEXT_ROUND,
    NUM_ACTIONS,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    EngineError,
    GameInfo,
    IllegalActionError,
    Phase,
    Reason,
    _integral,
    _shown,
    action_from_name,
    action_name,
    where,
)
from skyjo.events import Event, History
from skyjo.rules import (
    COLS,
    COLUMNS,
    GRID_SIZE,
    Rules,
    check_deck,
    check_player_count,
)
from skyjo.scoring import column_clears, is_game_over, round_scores
from skyjo.shuffle import shuffled, shuffled_deck

ALL_POSITIONS = (1 << GRID_SIZE) - 1  # a bitmask with every grid position set
_BIT = tuple(1 << k for k in range(GRID_SIZE))
_COLUMN = COLUMNS
_COLUMN_MASK = tuple(sum(_BIT[k] for k in column) for column in COLUMNS)


# Plain ints for the hot paths (an IntEnum attribute look-up costs more).
_REVEAL, _TURNS, _FINAL_TURNS, _ROUND_OVER, _GAME_OVER = (int(p) for p in Phase)


class RoundResult(NamedTuple):
    """The score of one finished round (RULES.md 2.9, 2.10), seat-indexed."""

    ender: int
    raw: tuple[int, ...]
    scores: tuple[int, ...]
    doubled: bool


class Game(NamedTuple):
    """The part of a `State` that changes only between rounds."""

    rules: Rules
    seed: int | None  #: the game's seed, as given to `new_game`
    round: int  #: index of the round in play, from 0
    starter: int  #: who started the round (-1 until the reveals are done)
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    key: int  #: seeds the next shuffle
    decks: tuple[tuple[int, ...], ...]  #: the deck dealt in each round
    reshuffles: tuple[tuple[tuple[int, ...], ...], ...]  #: per round, each new draw pile


class _StateFields(NamedTuple):
    phase: int  #: a `Phase`
    player: int  #: the seat to act
    held: int | None  #: the card in hand between the two actions of a turn
    source: int  #: DRAW or TAKE_DISCARD while a card is held, else -1
    cells: tuple[int, ...]  #: every seat's 12 card values: seat p's are cells[12p:12p+12]
    hidden_bits: int  #: bit 12p+k set: seat p's card at k is face down
    cleared_bits: int  #: bit 12p+k set: seat p's position k is in a cleared column
    draw_pile: tuple[int, ...]
    draw_top: int
    discard_pile: tuple[int, ...]
    ender: int | None  #: who ended the round (RULES.md 2.8)
    num_players: int
    history: History  #: every action of the game, oldest first
    game: Game


class State(_StateFields):
    """One moment of a game. Immutable: a named tuple of ints and tuples.

    The table is array-shaped, as a vectorized port would hold it: `cells`
    holds every seat's grid (row by row) one after the other, and two
    bitboards mark the face-down cards (`hidden_bits`) and the cleared
    columns (`cleared_bits`). The draw pile is `draw_pile[draw_top:]`, top
    first; the discard pile is `discard_pile`, top last. What changes only
    between rounds is in `game`; its fields read as the state's own
    (`state.totals`), and so do per-seat views (`state.grids`,
    `state.hidden`, `state.cleared`: 12-bit masks per seat).
    """

    __slots__ = ()

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def seed(self) -> int | None:
        return self.game.seed

    @property
    def round(self) -> int:
        return self.game.round

    @property
    def starter(self) -> int:
        return self.game.starter

    @property
    def totals(self) -> tuple[int, ...]:
        return self.game.totals

    @property
    def results(self) -> tuple[RoundResult, ...]:
        return self.game.results

    @property
    def key(self) -> int:
        return self.game.key

    @property
    def decks(self) -> tuple[tuple[int, ...], ...]:
        return self.game.decks

    @property
    def reshuffles(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        return self.game.reshuffles

    @property
    def grids(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's 12 card values, row by row."""
        cells = self.cells
        return tuple(cells[i : i + GRID_SIZE] for i in range(0, len(cells), GRID_SIZE))

    @property
    def hidden(self) -> tuple[int, ...]:
        """Each seat's face-down positions, as a 12-bit mask."""
        return _split_bits(self.hidden_bits, self.num_players)

    @property
    def cleared(self) -> tuple[int, ...]:
        """Each seat's cleared positions, as a 12-bit mask."""
        return _split_bits(self.cleared_bits, self.num_players)

    def _replace(self, **changes: Any) -> State:
        """A copy with some fields changed; accepts the `game` fields and the
        per-seat views (`grids`, `hidden`, `cleared`) too."""
        game = {name: changes.pop(name) for name in Game._fields if name in changes}
        if game:
            changes["game"] = changes.get("game", self.game)._replace(**game)
        if "grids" in changes:
            changes["cells"] = tuple(v for grid in changes.pop("grids") for v in grid)
        if "hidden" in changes:
            changes["hidden_bits"] = _join_bits(changes.pop("hidden"))
        if "cleared" in changes:
            changes["cleared_bits"] = _join_bits(changes.pop("cleared"))
        return super()._replace(**changes)


def _split_bits(bits: int, num_players: int) -> tuple[int, ...]:
    return tuple(bits >> (GRID_SIZE * p) & ALL_POSITIONS for p in range(num_players))


def _join_bits(masks: Any) -> int:
    return sum(mask << (GRID_SIZE * p) for p, mask in enumerate(masks))


_new = tuple.__new__  # _new(State, fields): a State from a list of its fields
#: Each field's index in a `State`: a step copies the fields (`[*state]`),
#: sets those it changes and builds the next state with `_new` (the hot path:
#: `_replace` takes seven times as long).
_PHASE, _PLAYER, _HELD, _SOURCE, _CELLS, _HIDDEN_BITS, _CLEARED_BITS = range(7)
_DRAW_PILE, _DRAW_TOP, _DISCARD_PILE, _ENDER, _NUM_PLAYERS, _HISTORY, _GAME = range(7, 14)


# --- dealing ----------------------------------------------------------------


def new_game(
    num_players: int,
    seed: int | None = None,
    rules: Rules | None = None,
    deck: tuple[int, ...] | list[int] | None = None,
) -> State:
    """Deal the first round (RULES.md 2.1-2.2).

    `seed` drives every shuffle of the game; it may be left out only when the
    first `deck` is given (then later rounds need explicit decks via
    `start_round`, or use key 0).
    """
    check_player_count(num_players)
    if seed is None and deck is None:
        raise EngineError(
            "new_game needs an explicit seed (or a deck): randomness is never implicit",
            "seed_missing",
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise EngineError(
            f"a seed must be an integer, not {_shown(seed)}",
            "seed_not_integer",
            {"value": _shown(seed)},
        )
    if rules is not None and not isinstance(rules, Rules):
        raise EngineError(
            "rules must be a skyjo.Rules (e.g. Rules(ender_penalty='always')), "
            f"not {_shown(rules)}",
            "rules_not_rules",
            {"value": _shown(rules)},
        )
    game = Game(
        rules=rules or Rules(),
        seed=seed,
        round=-1,
        starter=-1,
        totals=(0,) * num_players,
        results=(),
        key=0 if seed is None else seed,
        decks=(),
        reshuffles=(),
    )
    state = State(_ROUND_OVER, 0, None, -1, (), 0, 0, (), 0, (), None, num_players, History(), game)
    return _deal(state, deck, None)


def start_round(
    state: State, deck: tuple[int, ...] | list[int], events: list[Event] | None = None
) -> State:
    """Deal the next round from an explicit `deck` (top first), as a replay
    does: the `NEXT_ROUND` action with the deck given, not shuffled from the key."""
    if state.phase != Phase.ROUND_OVER:
        raise IllegalActionError(
            "a new round can only be dealt once a round is over",
            "round_not_over",
            {"phase": Phase(state.phase).name.lower()},
        )
    return _deal(state, deck, events)


def _deal(
    state: State, deck: tuple[int, ...] | list[int] | None, events: list[Event] | None
) -> State:
    """Deal 12 cards to each seat and start the discard pile (RULES.md 2.1-2.2, 5)."""
    game = state.game
    key = game.key
    if deck is None:
        cards, key = shuffled_deck(key)
    else:
        cards = check_deck(deck)
    n = state.num_players
    dealt = GRID_SIZE * n
    if events is not None:
        events.append(Event("dealt"))
    game = game._replace(
        round=game.round + 1,
        starter=-1,
        key=key,
        decks=(*game.decks, cards),
        reshuffles=(*game.reshuffles, ()),
    )
    return State(
        phase=_REVEAL,
        player=0,
        held=None,
        source=-1,
        cells=cards[:dealt],
        hidden_bits=(1 << dealt) - 1,
        cleared_bits=0,
        draw_pile=cards,
        draw_top=dealt + 1,
        discard_pile=(cards[dealt],),
        ender=None,
        num_players=n,
        history=state.history.plus(NEXT_ROUND) if game.round > 0 else state.history,
        game=game,
    )


# --- legal actions ------------------------------------------------------------


def _positions(mask: int) -> tuple[int, ...]:
    return tuple(k for k in range(GRID_SIZE) if mask & _BIT[k])


# Precomputed per 12-bit mask: the positions it holds, as action ids.
_REVEALS = tuple(tuple(REVEAL + k for k in _positions(m)) for m in range(1 << GRID_SIZE))
_SWAPS = tuple(
    tuple(SWAP + k for k in _positions(ALL_POSITIONS & ~m)) for m in range(1 << GRID_SIZE)
)
_FLIPS = tuple(tuple(FLIP + k for k in _positions(m)) for m in range(1 << GRID_SIZE))
_SOURCES = (DRAW, TAKE_DISCARD)


def legal_actions(state: State) -> tuple[int, ...]:
    """The legal actions of the player to act, in increasing order."""
    if state.held is not None:  # the second step of a turn
        shift = GRID_SIZE * state.player
        swaps = _SWAPS[state.cleared_bits >> shift & ALL_POSITIONS]
        if state.source == DRAW:
            return swaps + _FLIPS[state.hidden_bits >> shift & ALL_POSITIONS]
        return swaps
    phase = state.phase
    if phase == _TURNS or phase == _FINAL_TURNS:
        return _SOURCES
    if phase == _REVEAL:
        return _REVEALS[state.hidden_bits >> GRID_SIZE * state.player & ALL_POSITIONS]
    if phase == _ROUND_OVER:
        return (NEXT_ROUND,)
    return ()


def legal_action_mask(state: State) -> tuple[bool, ...]:
    """A boolean per action id: True where the action is legal."""
    legal = set(legal_actions(state))
    return tuple(a in legal for a in range(NUM_ACTIONS))


def current_player(state: State) -> int | None:
    """The seat to act, or None once the game is over."""
    return None if state.phase == Phase.GAME_OVER else state.player


def is_over(state: State) -> bool:
    return state.phase == Phase.GAME_OVER


# --- step ---------------------------------------------------------------------


def step(state: State, action: int, events: list[Event] | None = None) -> State:
    """Apply one legal action and return the new state (RULES.md 2).

    An illegal action raises `IllegalActionError` naming the reason; nothing
    is ever replaced by another action. When `events` is a list, what happened
    is appended to it.
    """
    if type(action) is not int:  # a NumPy integer is welcome; a bool or a float is not
        action = _action_id(state, action)
    if state.held is not None:  # the second step of a turn
        shift = GRID_SIZE * state.player
        if SWAP <= action < FLIP:
            if not state.cleared_bits >> (shift + action - SWAP) & 1:
                return _place(state, action, action - SWAP, False, events)
        elif (
            FLIP <= action < NEXT_ROUND
            and state.source == DRAW
            and state.hidden_bits >> (shift + action - FLIP) & 1
        ):
            return _place(state, action, action - FLIP, True, events)
    else:
        phase = state.phase
        if phase == _TURNS or phase == _FINAL_TURNS:
            if action == DRAW:
                return _draw(state, events)
            if action == TAKE_DISCARD:
                return _take_discard(state, events)
        elif phase == _REVEAL:
            shift = GRID_SIZE * state.player
            if REVEAL <= action < DRAW and state.hidden_bits >> (shift + action) & 1:
                return _reveal(state, action - REVEAL, events)
        elif phase == _ROUND_OVER and action == NEXT_ROUND:
            return _deal(state, None, events)
    raise IllegalActionError(*_reason_args(state, action))


def step_with_events(state: State, action: int) -> tuple[State, tuple[Event, ...]]:
    """Like `step`, and also return what happened, in order."""
    events: list[Event] = []
    new = step(state, action, events)
    return new, tuple(events)


def _action_id(state: State, action: Any) -> int:
    """The int action id of an integral `action`; anything else is illegal."""
    as_int = _integral(action)
    if as_int is None:
        raise IllegalActionError(*_reason_args(state, action))
    return as_int


def why_illegal(state: State, action: Any, who: str | None = None) -> Reason:
    """Why `action` is not legal in `state` (RULES.md 2.3-2.5): the kind, the
    params and the sentence. The sentence calls the player to act `who`
    (by default ``seat N``); `params` holds the seat's number."""
    as_int = _integral(action)
    if as_int is None:
        shown = _shown(action)
        return Reason(
            "action_not_integer", {"value": shown}, f"an action is an integer, not {shown}"
        )
    action = as_int
    if not 0 <= action < NUM_ACTIONS:
        return Reason(
            "action_unknown",
            {"action": action, "last": NUM_ACTIONS - 1},
            f"there is no action {action} (actions are 0 to {NUM_ACTIONS - 1})",
        )
    seat = state.player
    who = who if who is not None else f"seat {seat}"
    name = action_name(action)
    phase = state.phase
    mine = {"seat": seat, "action": action}
    if phase == Phase.GAME_OVER:
        return Reason("game_over", {"action": action}, f"the game is over: no {name}")
    if phase == Phase.ROUND_OVER:
        return Reason(
            "round_over",
            {"action": action},
            f"the round is over: the only action is next round, not {name}",
        )
    if phase == Phase.REVEAL:
        if not REVEAL <= action < REVEAL + GRID_SIZE:
            return Reason("reveal_first", mine, f"{who} must first turn up two cards, not {name}")
        k = action - REVEAL
        return Reason(
            "reveal_face_up",
            _at(seat, k),
            f"{who} cannot reveal {where(k)}: that card is already face up",
        )
    k = (action - SWAP) % GRID_SIZE  # the position of an exchange or a flip
    if state.held is None:
        if action in (SWAP + k, FLIP + k):
            return Reason(
                "take_first", mine, f"{who} must first draw or take the discard, not {name}"
            )
        return Reason(
            "not_a_first_step", mine, f"{who} is taking a turn: {name} is not a turn's first step"
        )
    if action in (DRAW, TAKE_DISCARD):
        return Reason(
            "must_place", mine, f"{who} already holds a card and must place it, not {name}"
        )
    if action == FLIP + k and state.source == TAKE_DISCARD:
        return Reason(
            "discard_not_put_back",
            {"seat": seat},
            f"{who} took the discard and must exchange it: it may not be put back",
        )
    if action == FLIP + k:
        if state.cleared[seat] & _BIT[k]:
            return Reason(
                "flip_cleared",
                _at(seat, k),
                f"{who} cannot flip {where(k)}: that column is cleared",
            )
        return Reason(
            "flip_face_up",
            _at(seat, k),
            f"{who} cannot flip {where(k)}: that card is already face up",
        )
    if action == SWAP + k:
        return Reason(
            "exchange_cleared",
            _at(seat, k),
            f"{who} cannot exchange {where(k)}: that column is cleared",
        )
    return Reason("place_held", mine, f"{who} must place the held card, not {name}")


def _reason_args(state: State, action: Any) -> tuple[str, str, dict[str, Any]]:
    """The arguments of the `IllegalActionError` for `action` in `state`."""
    kind, params, sentence = why_illegal(state, action)
    return sentence, kind, params


def _at(seat: int, k: int) -> dict[str, Any]:
    """The params of a reason about seat's grid position k: `[row, col]`."""
    return {"seat": seat, "position": list(divmod(k, COLS))}


def _reveal(state: State, k: int, events: list[Event] | None) -> State:
    """Turn up one of the two opening cards (RULES.md 2.3); after the last
    reveal, the starter is chosen (RULES.md 2.4)."""
    fields = [*state]
    p, cells = fields[_PLAYER], fields[_CELLS]
    shift = GRID_SIZE * p
    if events is not None:
        events.append(Event("revealed", p, cells[shift + k], k))
    hidden_bits = fields[_HIDDEN_BITS] = fields[_HIDDEN_BITS] & ~(1 << (shift + k))
    fields[_HISTORY] = fields[_HISTORY].plus(REVEAL + k)
    if (hidden_bits >> shift & ALL_POSITIONS).bit_count() == GRID_SIZE - 2:  # two are up
        following = p + 1
        if following == fields[_NUM_PLAYERS]:  # every player has revealed: the round starts
            game = fields[_GAME]
            following = _starter(cells, hidden_bits, game.results)
            fields[_PHASE] = _TURNS
            fields[_GAME] = game._replace(starter=following)
        fields[_PLAYER] = following
    return _new(State, fields)


def _starter(cells: tuple[int, ...], hidden_bits: int, results: tuple[RoundResult, ...]) -> int:
    """Round 1: the highest total of the two face-up cards, the lowest seat on a
    tie (RULES.md 2.4 Decision); later rounds: the previous round's ender."""
    if results:
        return results[-1].ender
    totals = [
        sum(cells[i] for i in range(shift, shift + GRID_SIZE) if not hidden_bits >> i & 1)
        for shift in range(0, len(cells), GRID_SIZE)
    ]
    return totals.index(max(totals))


def _draw(state: State, events: list[Event] | None) -> State:
    """Draw the top card of the draw pile, reshuffling first if it is empty
    (RULES.md 2.5, 2.7)."""
    fields = [*state]
    top, pile = fields[_DRAW_TOP], fields[_DRAW_PILE]
    if top == len(pile):
        fields = [*_reshuffle(state, None, events)]
        top, pile = fields[_DRAW_TOP], fields[_DRAW_PILE]
    card = fields[_HELD] = pile[top]
    if events is not None:
        events.append(Event("drew", fields[_PLAYER], card))
    fields[_SOURCE], fields[_DRAW_TOP] = DRAW, top + 1
    fields[_HISTORY] = fields[_HISTORY].plus(DRAW)
    return _new(State, fields)


def _take_discard(state: State, events: list[Event] | None) -> State:
    """Take the top card of the discard pile (RULES.md 2.5)."""
    fields = [*state]
    discard_pile = fields[_DISCARD_PILE]
    card = fields[_HELD] = discard_pile[-1]
    if events is not None:
        events.append(Event("took_discard", fields[_PLAYER], card))
    fields[_SOURCE], fields[_DISCARD_PILE] = TAKE_DISCARD, discard_pile[:-1]
    fields[_HISTORY] = fields[_HISTORY].plus(TAKE_DISCARD)
    return _new(State, fields)


def reshuffle(
    state: State,
    order: tuple[int, ...] | list[int] | None = None,
    events: list[Event] | None = None,
) -> State:
    """Turn the discard pile, all but its top card, into a new draw pile
    (RULES.md 2.7): `order` (top first), as a replay gives it, else shuffled
    from the state's key."""
    if state.draw_top != len(state.draw_pile):
        raise IllegalActionError(
            "the draw pile is not empty: there is nothing to reshuffle",
            "draw_pile_not_empty",
            {"draw_pile_size": len(state.draw_pile) - state.draw_top},
        )
    return _reshuffle(state, order, events)


def _reshuffle(
    state: State, order: tuple[int, ...] | list[int] | None, events: list[Event] | None
) -> State:
    below_top = state.discard_pile[:-1]
    key = state.key
    if order is None:
        pile, key = shuffled(below_top, key)
    else:
        pile = tuple(order)
        if Counter(pile) != Counter(below_top):
            raise IllegalActionError(
                "the reshuffled draw pile is not the discard pile less its top card",
                "reshuffle_not_discard_pile",
                {"given": len(pile), "expected": len(below_top)},
            )
    if events is not None:
        events.append(Event("reshuffled", count=len(pile)))
    reshuffles = state.reshuffles[:-1] + ((*state.reshuffles[-1], pile),)
    return state._replace(
        draw_pile=pile,
        draw_top=0,
        discard_pile=state.discard_pile[-1:],
        game=state.game._replace(key=key, reshuffles=reshuffles),
    )


def _place(state: State, action: int, k: int, flip: bool, events: list[Event] | None) -> State:
    """Finish a turn at a grid position k, then pass the turn.

    `SWAP + k`, exchange (RULES.md 2.5): the held card takes position k and
    the card that was there goes face up on the discard pile; k may be face up
    or face down but not cleared. `FLIP + k`, only with a drawn card: it goes
    on the discard pile and the face-down card at k is turned up. Then the
    column of k is cleared if it holds three equal face-up cards, its cards
    going on top of the discard pile (2.6); a player with no face-down card
    left ends the round (2.8); and the round ends when play comes back to the
    ender. `step` has checked that the action is legal.
    """
    fields = [*state]
    p, held, cells = fields[_PLAYER], fields[_HELD], fields[_CELLS]
    discard, ender = fields[_DISCARD_PILE], fields[_ENDER]
    shift = GRID_SIZE * p
    i = shift + k
    hidden_bits = fields[_HIDDEN_BITS] = fields[_HIDDEN_BITS] & ~(1 << i)
    if flip:
        discard += (held,)
        if events is not None:
            events.append(Event("discarded", p, held))
            events.append(Event("flipped", p, cells[i], k))
    else:
        discard += (cells[i],)
        if events is not None:
            events.append(Event("exchanged", p, held, k, (cells[i],)))
        changed = list(cells)
        changed[i] = held
        cells = fields[_CELLS] = tuple(changed)
    mine = hidden_bits >> shift & ALL_POSITIONS  # this player's face-down cards
    col = k % COLS
    if not mine & _COLUMN_MASK[col]:
        a, b, c = _COLUMN[col]
        a, b, c = cells[shift + a], cells[shift + b], cells[shift + c]
        if column_clears(a, b, c):
            fields[_CLEARED_BITS] |= _COLUMN_MASK[col] << shift
            discard += (a, b, c)
            if events is not None:
                events.append(Event("column_cleared", p, a, col, (a, b, c)))
    if ender is None and not mine:
        ender = fields[_ENDER] = p
        fields[_PHASE] = _FINAL_TURNS
        if events is not None:
            events.append(Event("final_turns", p))
    following = p + 1 if p + 1 < fields[_NUM_PLAYERS] else 0
    fields[_PLAYER], fields[_HELD], fields[_SOURCE] = following, None, -1
    fields[_DISCARD_PILE], fields[_HISTORY] = discard, fields[_HISTORY].plus(action)
    state = _new(State, fields)
    if following == ender:
        return _end_round(state, events)
    return state


def _end_round(state: State, events: list[Event] | None) -> State:
    """Turn up every card, clear the columns that now hold three equal cards,
    and score the round with the ender's penalty (RULES.md 2.9, 2.10, 3)."""
    cells, hidden_bits, cleared_bits = state.cells, state.hidden_bits, state.cleared_bits
    discard, ender = state.discard_pile, state.ender
    assert ender is not None
    raw = []
    for shift in range(0, GRID_SIZE * state.num_players, GRID_SIZE):
        p = shift // GRID_SIZE
        grid = cells[shift : shift + GRID_SIZE]
        if events is not None and hidden_bits >> shift & ALL_POSITIONS:
            shown = tuple(grid[k] for k in _positions(hidden_bits >> shift & ALL_POSITIONS))
            events.append(Event("revealed", p, None, None, shown))
        cleared = cleared_bits >> shift
        score = 0
        for col in range(COLS):
            a, b, c = grid[col], grid[col + COLS], grid[col + 2 * COLS]
            if cleared & 1 << col:
                continue
            if column_clears(a, b, c):
                cleared_bits |= _COLUMN_MASK[col] << shift
                discard += (a, b, c)
                if events is not None:
                    events.append(Event("column_cleared", p, a, col, (a, b, c)))
            else:
                score += a + b + c
        raw.append(score)
    rules, seed, round_index, starter, totals, results, key, decks, reshuffles = state.game
    scores, doubled = round_scores(raw, ender, rules.ender_penalty)
    totals = tuple(t + s for t, s in zip(totals, scores, strict=True))
    over = is_game_over(totals, rules.target_score)
    if events is not None:
        events.append(Event("round_ended", ender, None, None, None, tuple(scores)))
        if doubled:
            events.append(Event("ender_doubled", ender, scores[ender]))
        if over:
            events.append(Event("game_over", None, None, None, None, totals))
    results += (RoundResult(ender, tuple(raw), tuple(scores), doubled),)
    fields = [*state]
    fields[_PHASE], fields[_PLAYER] = _GAME_OVER if over else _ROUND_OVER, ender
    fields[_HIDDEN_BITS], fields[_CLEARED_BITS], fields[_DISCARD_PILE] = 0, cleared_bits, discard
    fields[_GAME] = Game(rules, seed, round_index, starter, totals, results, key, decks, reshuffles)
    return _new(State, fields)


# --- reading a state -------------------------------------------------------------


def history(state: State) -> list[int]:
    """Every action of the game so far, oldest first (NEXT_ROUND between rounds)."""
    return list(state.history)


def raw_score(state: State, seat: int) -> int:
    """The sum of the seat's cards that are not cleared, face-down ones included."""
    cleared = state.cleared[seat]
    return sum(v for k, v in enumerate(state.grids[seat]) if not cleared & _BIT[k])


def cards_in_play(state: State) -> list[int]:
    """Every card of the round, wherever it is: draw pile, discard pile (with
    cleared columns), hand and uncleared grid positions. Always the 150 cards."""
    cards = list(state.draw_pile[state.draw_top :]) + list(state.discard_pile)
    if state.held is not None:
        cards.append(state.held)
    for grid, cleared in zip(state.grids, state.cleared, strict=True):
        cards += (v for k, v in enumerate(grid) if not cleared & _BIT[k])
    return cards


__all__ = [  # the core's API: the actions (skyjo.actions) are read from here too
    "ACTION_NAMES",
    "ALL_POSITIONS",
    "DRAW",
    "FLIP",
    "GAME_INFO",
    "NEXT_ROUND",
    "NUM_ACTIONS",
    "REVEAL",
    "SWAP",
    "TAKE_DISCARD",
    "EngineError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Phase",
    "Reason",
    "RoundResult",
    "State",
    "action_from_name",
    "action_name",
    "cards_in_play",
    "current_player",
    "history",
    "is_over",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "raw_score",
    "reshuffle",
    "start_round",
    "step",
    "step_with_events",
    "where",
    "why_illegal",
]
