"""Shared helpers of the tests (a plain module, imported as `helpers`: pytest puts
tests/ on sys.path with tests/conftest.py): deal a position drawn as rows of cards.

`new_game(n, deck=d)` deals seat i `d[12*i : 12*i+12]` row by row, `d[12*n]`
starts the discard pile and the rest is the draw pile, top first (RULES.md 5).
`deck_for` builds such a deck from grids written as three rows of four, so a
test shows its position the way a player sees the table. `assert_bad_input`
checks a command line's refusal of bad input (RULES.md 6).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from typer.testing import Result

from skyjo.engine import DRAW, FLIP, REVEAL, SWAP, Phase, State, new_game, step
from skyjo.render import visible
from skyjo.rules import CARD_COUNTS, COLS, ROWS, Rules

Grid = Sequence[Sequence[int]]  # three rows of four cards, top row first
Pos = tuple[int, int]  # [row, col]


def deck_for(grids: Sequence[Grid], discard_top: int, draw: Sequence[int] = ()) -> list[int]:
    """The 150-card deck that deals `grids` (one per seat), starts the discard
    pile with `discard_top` and puts `draw` on top of the draw pile; the cards
    left over follow in increasing value, so the deck is always all 150 cards."""
    chosen: list[int] = []
    for grid in grids:
        assert len(grid) == ROWS and all(len(row) == COLS for row in grid), grid
        chosen += [v for row in grid for v in row]
    chosen += [discard_top, *draw]
    left = Counter(CARD_COUNTS)
    left.subtract(chosen)
    too_many = {v: -n for v, n in left.items() if n < 0}
    assert not too_many, f"the position uses more cards than the deck holds: {too_many}"
    assert set(left) == set(CARD_COUNTS), f"not Skyjo cards: {set(left) - set(CARD_COUNTS)}"
    return chosen + [v for v in sorted(left) for _ in range(left[v])]


def at(row: int, col: int) -> int:
    """The grid index of [row, col]."""
    return row * COLS + col


def reveal(row: int, col: int) -> int:
    return REVEAL + at(row, col)


def swap(row: int, col: int) -> int:
    return SWAP + at(row, col)


def flip(row: int, col: int) -> int:
    return FLIP + at(row, col)


def play(state: State, *actions: int) -> State:
    """Apply the actions in order."""
    for action in actions:
        state = step(state, action)
    return state


def deal(
    grids: Sequence[Grid],
    discard_top: int,
    draw: Sequence[int] = (),
    rules: Rules | None = None,
) -> State:
    """A new game dealt from `deck_for(grids, discard_top, draw)`."""
    return new_game(len(grids), deck=deck_for(grids, discard_top, draw), rules=rules)


def reveal_all(state: State, reveals: Sequence[tuple[Pos, Pos]] | None = None) -> State:
    """Play the opening reveals, seat by seat; by default every seat turns up
    [0, 0] and [0, 1]."""
    reveals = reveals or [((0, 0), (0, 1))] * state.num_players
    for first, second in reveals:
        state = play(state, reveal(*first), reveal(*second))
    return state


def rows(values: Sequence[object]) -> list[list[object]]:
    """Twelve grid cells as three rows of four, for comparing with a drawn grid."""
    return [list(values[r * COLS : (r + 1) * COLS]) for r in range(ROWS)]


def with_face_down(state: State, face_down: Sequence[Sequence[Pos]]) -> State:
    """The same deal later in the round: for each seat, exactly the positions in
    `face_down` are still face down, as if earlier turns had turned up the rest
    with "draw, then discard and flip" (which leaves every grid value in place).
    Only what is face up changes: all 150 cards stay where they are."""
    assert state.held is None and not any(state.cleared)
    masks = tuple(sum(1 << at(r, c) for r, c in seat) for seat in face_down)
    assert len(masks) == state.num_players
    for now, later in zip(state.hidden, masks, strict=True):
        assert later & ~now == 0, "a face-up card cannot go face down again"
    for grid, mask in zip(state.grids, masks, strict=True):
        for col in range(COLS):  # a face-up column of three equal cards would have cleared
            cells = [at(r, col) for r in range(ROWS)]
            assert any(mask >> k & 1 for k in cells) or len({grid[k] for k in cells}) > 1
    return state._replace(hidden=masks)


def draw_and_flip(state: State, row: int, col: int) -> State:
    """One turn: draw, then discard the drawn card and turn up [row, col]."""
    return play(state, DRAW, flip(row, col))


def finish_round(state: State, ender: int) -> State:
    """Play the round from just after the default reveals to its end: `ender`
    has only [2, 0] still face down, every other seat [1, 1], [1, 2] and
    [2, 2]; on each turn the player draws, discards and flips its first
    face-down card. No grid value changes, so each raw score is the drawn grid's
    sum less its cleared columns, and every other seat still has a face-down
    card for the final reveal."""
    others = [(1, 1), (1, 2), (2, 2)]
    state = with_face_down(
        state, [[(2, 0)] if s == ender else others for s in range(len(state.grids))]
    )
    while state.phase in (Phase.TURNS, Phase.FINAL_TURNS):
        hidden = state.hidden[state.player]
        first = (hidden & -hidden).bit_length() - 1
        state = draw_and_flip(state, *divmod(first, COLS))
    return state


def empty_draw_pile(state: State) -> State:
    """Turns of "draw, then exchange with [0, 0]" until the draw pile is empty.
    Every seat must show its [0, 0] with a face-down card below it, so that no
    column clears and no one ends the round."""
    while len(state.draw_pile) > state.draw_top:
        state = play(state, DRAW, swap(0, 0))
    return state


def assert_bad_input(result: Result, *fragments: str) -> None:
    """RULES.md 6: exit status 2, one line on stderr, nothing on stdout; the line
    holds no control character (they are shown escaped) and each of `fragments`."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stderr.endswith("\n")
    assert lines[0].startswith("skyjo: error: ")
    assert visible(lines[0]) == lines[0], lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
