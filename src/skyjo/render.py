"""Plain-text rendering of observations, events and (for tests) whole states.

No colours and no Rich here: the terminal UI wraps these strings. Everything is
pure and deterministic, so the output can be compared with golden files.

Legend of a player's view (`render_grid`, `render_observation`): every grid cell
is three characters wide, grids are drawn row by row (position `[row, col]`,
RULES.md 2.1):

- a face-up card: its value, right-aligned (`  7`, ` -2`, ` 12`);
- a face-down card: `  #` (its value is never shown);
- a card of a cleared column: `  .`.

`render_state` is the *full-information* view used by the golden playthroughs
and for debugging: it shows face-down values too, so it must never be shown to a
player. Its cells are four characters wide: ` 7 ` face up, `[ 7]` face down,
`( 7)` a card of a cleared column.

Event sentences (`describe_event`) name players by `names[seat]` and a
position as people count it, from 1: `row 1, column 3` is `[0, 2]` in RULES.md
and in `action_name` (records and APIs keep those positions from 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from skyjo.engine import DRAW, Phase, State
from skyjo.events import Event
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, Observation, observe
from skyjo.rules import COLS, GRID_SIZE, ROWS
from skyjo.scoring import winners
from skyjo.wording import possessive

__all__ = [
    "describe_event",
    "describe_events",
    "render_grid",
    "render_observation",
    "render_state",
    "visible",
]

#: Seats drawn side by side before wrapping to a new band of grids.
SEATS_PER_BAND = 4
_GAP = "    "
_PHASE_NAMES = {
    Phase.REVEAL: "opening reveals",
    Phase.TURNS: "turns",
    Phase.FINAL_TURNS: "final turns",
    Phase.ROUND_OVER: "round over",
    Phase.GAME_OVER: "game over",
}


# --- text safe for a terminal -----------------------------------------------------

#: Every control character (C0, DEL, C1) and its escaped form, `\x1b` for ESC.
_CONTROL_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}


def visible(text: str, keep: str = "") -> str:
    """`text` with every control character but those in `keep` written as its
    escape (ESC as `\x1b`), so that a name read from a record or an argument
    reaches a terminal as text, never as a command (colours, cursor moves, a
    changed window title)."""
    return text.translate(_escapes(keep))


@cache
def _escapes(keep: str) -> dict[int, str]:
    """The translation table of `visible`, for the characters `keep` left as they are."""
    return {code: escape for code, escape in _CONTROL_ESCAPES.items() if chr(code) not in keep}


# --- small helpers -------------------------------------------------------------


def _name(names: Sequence[str], seat: int | None) -> str:
    """The name of `seat`, or `seat N` when `names` is too short."""
    if seat is None:
        return "someone"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _where(position: int) -> str:
    """A grid index as a person counts it: `row 1, column 3` for index 2
    (`[0, 2]` in RULES.md), rows and columns from 1."""
    row, col = divmod(position, COLS)
    return f"row {row + 1}, column {col + 1}"


def _a(card: int) -> str:
    """`card` with its indefinite article: `a 7`, `an 8`, `an 11`, `a -2`."""
    return f"an {card}" if card in (8, 11) else f"a {card}"


def _count(n: int, word: str) -> str:
    """`1 card`, `2 cards`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(words: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _scores(names: Sequence[str], scores: Iterable[int]) -> str:
    """`Ana 12, Ben 28`."""
    return ", ".join(f"{_name(names, seat)} {s}" for seat, s in enumerate(scores))


def _side_by_side(blocks: Sequence[Sequence[str]], per_band: int = SEATS_PER_BAND) -> list[str]:
    """Lay text blocks out left to right, `per_band` to a band, bands one under
    another (separated by a blank line). Trailing spaces are removed."""
    lines: list[str] = []
    for start in range(0, len(blocks), per_band):
        band = blocks[start : start + per_band]
        widths = [max((len(line) for line in block), default=0) for block in band]
        height = max(len(block) for block in band)
        if start:
            lines.append("")
        for i in range(height):
            cells = [
                (block[i] if i < len(block) else "").ljust(width)
                for block, width in zip(band, widths, strict=True)
            ]
            lines.append(_GAP.join(cells).rstrip())
    return lines


# --- a player's view -------------------------------------------------------------


def render_grid(cards: Sequence[int | None], status: Sequence[int]) -> list[str]:
    """Three lines drawing one seat's grid, row by row, from an `Observation`'s
    `cards[seat]` and `status[seat]`.

    Each cell is three characters: a face-up value right-aligned, `  #` for a
    face-down card and `  .` for a card of a cleared column. A face-down card's
    value is never drawn, even if `cards` holds one.
    """
    if len(cards) != GRID_SIZE or len(status) != GRID_SIZE:
        raise ValueError(f"a grid has {GRID_SIZE} cards, not {len(cards)} and {len(status)}")
    cells = []
    for value, st in zip(cards, status, strict=True):
        if st == CLEARED:
            cells.append("  .")
        elif st == FACE_DOWN or value is None:
            cells.append("  #")
        else:
            cells.append(f"{value:>3}")
    return ["".join(cells[r * COLS : (r + 1) * COLS]) for r in range(ROWS)]


def _visible_score(cards: Sequence[int | None], status: Sequence[int]) -> int:
    """The sum of the face-up cards that are not cleared."""
    return sum(v for v, st in zip(cards, status, strict=True) if st == FACE_UP and v is not None)


def _held_text(obs: Observation) -> str:
    """`, holding the 7 drawn from the draw pile`, or '' when no card is held."""
    if obs.source is None:
        return ""
    pile = "draw pile" if obs.source == "deck" else "discard pile"
    verb = "drawn from" if obs.source == "deck" else "taken from"
    if obs.held is None:
        return f", holding a card {verb} the {pile}"
    return f", holding the {obs.held} {verb} the {pile}"


def _status_line(obs: Observation, names: Sequence[str], held: str | None = None) -> str:
    """The first line of `render_observation`: round, phase and whose turn;
    `held` replaces the description of the held card drawn from `obs`."""
    who = _name(names, obs.current_player)
    head = f"round {obs.round + 1}, {_PHASE_NAMES[obs.phase]}"
    if obs.phase == Phase.REVEAL:
        left = 2 - (GRID_SIZE - sum(st == FACE_DOWN for st in obs.status[obs.current_player]))
        return f"{head}: {who} to turn up {left} card{'s' if left != 1 else ''}"
    if obs.phase in (Phase.TURNS, Phase.FINAL_TURNS):
        line = f"{head}: {who} to play{_held_text(obs) if held is None else held}"
        if obs.ender is not None:
            line += f" ({_name(names, obs.ender)} ended the round: one more turn each)"
        return line
    if obs.phase == Phase.ROUND_OVER:
        return f"{head}: ended by {_name(names, obs.ender)}; {who} deals the next round"
    best = winners(dict(enumerate(obs.totals)))
    return f"{head}: {_join([_name(names, s) for s in best])} {'wins' if len(best) == 1 else 'win'}"


def _piles_line(obs: Observation) -> str:
    """The discard pile's top and size, and the draw pile's size."""
    if obs.discard_pile:
        discard = f"{obs.discard_pile[-1]} on top, {_count(len(obs.discard_pile), 'card')}"
    else:
        discard = "empty"
    return f"discard pile: {discard}; draw pile: {_count(obs.draw_pile_size, 'card')}"


def render_observation(obs: Observation, names: Sequence[str], spectator: bool = False) -> str:
    """A compact table-side view of what `obs.viewer` may see (with
    `spectator`, the viewer is not marked: for an observation taken between
    turns, it is what someone watching the table sees).

    Lines: round, phase and whose turn (with the held card when the viewer may
    see it); the discard pile's top card and size and the draw pile's size; then
    each seat's grid (see `render_grid`), side by side four to a band, headed by
    the seat's name (`>` marks the player to act, `(you)` the viewer) and
    followed by the visible score, the total and, once a round is over, that
    round's score. Face-down values never appear.
    """
    if len(names) < obs.num_players:
        raise ValueError(f"{obs.num_players} players need {obs.num_players} names")
    playing = obs.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER)
    over = not playing and len(obs.round_scores) == obs.round + 1
    blocks = []
    for seat in range(obs.num_players):
        mark = "> " if playing and seat == obs.current_player else ""
        you = " (you)" if seat == obs.viewer and not spectator else ""
        ender = " (ended)" if seat == obs.ender else ""
        block = [f"{mark}{_name(names, seat)}{you}{ender}"]
        block += render_grid(obs.cards[seat], obs.status[seat])
        block.append(f"shows {_visible_score(obs.cards[seat], obs.status[seat])}")
        if over:
            block.append(f"round {obs.round_scores[-1][seat]}")
        block.append(f"total {obs.totals[seat]}")
        blocks.append(block)
    lines = [_status_line(obs, names), _piles_line(obs), ""]
    lines += _side_by_side(blocks)
    lines += ["", "# face down, . cleared column"]
    return "\n".join(lines)


# --- events -------------------------------------------------------------------


def describe_event(
    event: Event,
    names: Sequence[str],
    *,
    round_index: int | None = None,
    face_down: bool | None = None,
    doubled: bool = False,
) -> str:
    """One readable sentence for an engine `Event` (no final full stop).

    The event alone does not say everything, so a caller that knows more may
    pass it (`describe_events` does, from the state or observation before the
    action):

    - `round_index`: the round index (from 0) of a `round_ended` event, or of the
      round a `dealt` event starts;
    - `face_down`: whether the card given away in an `exchanged` event was
      face down;
    - `doubled`: whether the ender's score in a `round_ended` event was doubled
      (RULES.md 2.10): the tag "(doubled)" follows the ender's score, the
      event's `player`, and no one else's.
    """
    kind = event.kind
    who = _name(names, event.player)
    card = event.card
    where = _where(event.position) if event.position is not None else "?"
    if kind == "dealt":
        return "the cards were dealt" if round_index is None else f"round {round_index + 1} dealt"
    if kind == "revealed":
        if event.position is None:  # the turn-up of every face-down card at the round's end
            cards = [str(c) for c in event.cards or ()]
            return f"{possessive(who)} face-down cards were turned up: {', '.join(cards)}"
        return f"{who} turned up {_a(card or 0)} at {where}"
    if kind == "drew":
        return f"{who} drew a card" if card is None else f"{who} drew {_a(card)}"
    if kind == "took_discard":
        return f"{who} took the {card} from the discard pile"
    if kind == "exchanged":
        old = event.cards[0] if event.cards else "?"
        how = "face-down " if face_down else "face-up " if face_down is False else ""
        return f"{who} exchanged the {card} for the {how}{old} at {where}"
    if kind == "discarded":
        return f"{who} discarded the {card}"
    if kind == "flipped":
        return f"{who} turned up {_a(card or 0)} at {where}"
    if kind == "column_cleared":
        col = event.position % COLS + 1 if event.position is not None else "?"
        return f"{who} cleared column {col} (three {card}s)"
    if kind == "reshuffled":
        return f"the draw pile was empty: {_count(event.count or 0, 'card')} reshuffled"
    if kind == "final_turns":
        return f"{who} turned up every card: everyone else plays once more"
    if kind == "round_ended":
        head = "round over" if round_index is None else f"round {round_index + 1} over"
        scores = [
            f"{_name(names, seat)} {score}"
            + (" (doubled)" if doubled and seat == event.player else "")
            for seat, score in enumerate(event.scores or ())
        ]
        return f"{head}: {', '.join(scores)}"
    if kind == "ender_doubled":
        return f"{who} ended the round and is doubled: {card}"
    if kind == "game_over":
        totals = event.scores or ()
        if not totals:
            return "game over"
        best = winners(dict(enumerate(totals)))
        won = "wins" if len(best) == 1 else "win"
        return (
            f"game over: {_scores(names, totals)}; {_join([_name(names, s) for s in best])} {won}"
        )
    return f"{kind} ({who})"


def describe_events(
    events: Sequence[Event], names: Sequence[str], before: State | Observation | None = None
) -> list[str]:
    """A sentence per event of one action, with the context `describe_event`
    cannot read from the events alone taken from `before`, the state (or any
    player's observation) just before the action: the round number, whether an
    exchanged card was face down, whether the ender was doubled."""
    doubled = any(e.kind == "ender_doubled" for e in events)
    lines = []
    for event in events:
        face_down: bool | None = None
        round_index: int | None = None
        if before is not None:
            if event.kind == "exchanged" and event.player is not None:
                face_down = _was_face_down(before, event.player, event.position)
            elif event.kind == "round_ended":
                round_index = before.round
            elif event.kind == "dealt":
                round_index = before.round + 1
        lines.append(
            describe_event(
                event,
                names,
                round_index=round_index,
                face_down=face_down,
                doubled=doubled and event.kind == "round_ended",
            )
        )
    return lines


def _was_face_down(before: State | Observation, seat: int, position: int | None) -> bool | None:
    """Whether `seat`'s card at `position` is face down in `before`."""
    if position is None:
        return None
    if isinstance(before, State):
        return bool(before.hidden[seat] >> position & 1)
    return before.status[seat][position] == FACE_DOWN


# --- the full-information view (tests and debugging only) ------------------------


def _full_cell(value: int, hidden: bool, cleared: bool) -> str:
    """` 7 `, `[ 7]` (face down) or `( 7)` (cleared column)."""
    if cleared:
        return f"({value:>2})"
    if hidden:
        return f"[{value:>2}]"
    return f" {value:>2} "


def _preview(cards: Sequence[int], count: int = 5) -> str:
    """Up to `count` cards separated by spaces."""
    return " ".join(str(c) for c in cards[:count])


def render_state(state: State, names: Sequence[str]) -> str:
    """Everything the state holds, face-down cards included: for golden files
    and debugging only, never for a player.

    Lines: round, phase, whose turn and the held card; the discard pile (size
    and its top cards, top last) and the draw pile (size and its next cards,
    top first); then every grid, four seats to a band, headed by the seat's
    name and total, with ` 7 ` face up, `[ 7]` face down and `( 7)` cleared,
    followed by `shows` (the visible score) and `holds` (the raw score of all
    uncleared cards).
    """
    held = ""
    if state.held is not None:
        source = (
            "drawn from the draw pile" if state.source == DRAW else "taken from the discard pile"
        )
        held = f", holding the {state.held} {source}"
    lines = [_status_line(observe(state, state.player), names, held)]
    discard = state.discard_pile
    draw = state.draw_pile[state.draw_top :]
    more = "... " if len(discard) > 5 else ""
    shown = " ".join(str(c) for c in discard[-5:])
    lines.append(f"discard pile: {_count(len(discard), 'card')}, top last: {more}{shown}".rstrip())
    lines.append(
        f"draw pile: {_count(len(draw), 'card')}, top first: {_preview(draw)}"
        f"{' ...' if len(draw) > 5 else ''}".rstrip()
    )
    blocks = []
    for seat, grid in enumerate(state.grids):
        hidden, cleared = state.hidden[seat], state.cleared[seat]
        ended = " (ended)" if seat == state.ender else ""
        block = [f"{_name(names, seat)}{ended}, total {state.totals[seat]}"]
        cells = [
            _full_cell(v, bool(hidden >> k & 1), bool(cleared >> k & 1)) for k, v in enumerate(grid)
        ]
        block += [" ".join(cells[r * COLS : (r + 1) * COLS]) for r in range(ROWS)]
        up = sum(v for k, v in enumerate(grid) if not (hidden | cleared) >> k & 1)
        raw = sum(v for k, v in enumerate(grid) if not cleared >> k & 1)
        block.append(f"shows {up}, holds {raw}")
        blocks.append(block)
    lines.append("")
    lines += _side_by_side(blocks)
    return "\n".join(lines)
