"""Plain-text rendering: grids, a player's view of the table, event sentences."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    Phase,
    State,
    legal_actions,
    new_game,
    step,
    step_with_events,
)
from skyjo.events import EVENT_KINDS, Event, visible_event
from skyjo.observation import CLEARED, FACE_DOWN, FACE_UP, observe
from skyjo.render import (
    describe_event,
    describe_events,
    render_grid,
    render_observation,
    render_state,
    visible,
)
from skyjo.rules import CARD_COUNTS, DECK, Rules

NAMES = ("Ana", "Ben", "Cleo")

# Two players. Ana's column 0 is three 5s; Ben's column 3 is three 9s, which
# stay face down until the round ends.
ANA = [5, 12, 12, 11, 5, 10, 10, 11, 5, 12, 8, -2]
BEN = [10, 11, 12, 9, 0, -1, 0, 9, 10, 11, 12, 9]
FIRST_DISCARD = 3
FIRST_DRAWS = [7, 11]


def crafted_deck(*top: int) -> list[int]:
    """`top` followed by the rest of the 150 cards in increasing order."""
    rest = Counter(DECK)
    rest.subtract(top)
    assert min(rest.values()) >= 0, "more copies of a card than the deck holds"
    deck = [*top, *sorted(rest.elements())]
    assert Counter(deck) == CARD_COUNTS
    return deck


def opening(rules: Rules | None = None) -> State:
    """The crafted deal: Ana turns up her 5s at [0, 0] and [1, 0], Ben his 10 at
    [0, 0] and 12 at [0, 2] (22 against 10: Ben starts)."""
    deck = crafted_deck(*ANA, *BEN, FIRST_DISCARD, *FIRST_DRAWS)
    state = new_game(2, deck=deck, rules=rules)
    for action in (REVEAL + 0, REVEAL + 4, REVEAL + 0, REVEAL + 2):
        state = step(state, action)
    return state


def play(state: State, *actions: int) -> tuple[State, list[str]]:
    """Apply `actions` and return the new state and every event's sentence."""
    lines: list[str] = []
    for action in actions:
        before = state
        state, events = step_with_events(state, action)
        lines += describe_events(events, NAMES, before)
    return state, lines


def first_turns(rules: Rules | None = None) -> tuple[State, list[str]]:
    """Ben takes the discard and exchanges a face-down card; Ana draws and
    flips, clearing column 0; Ben draws and exchanges a face-up card."""
    return play(opening(rules), TAKE_DISCARD, SWAP + 5, DRAW, FLIP + 8, DRAW, SWAP + 0)


# --- render_grid ---------------------------------------------------------------


def test_render_grid_legend() -> None:
    up, down, gone = FACE_UP, FACE_DOWN, CLEARED
    cards = [7, None, 5, -2, 12, None, 5, 0, None, None, 5, 1]
    status = [up, down, gone, up, up, down, gone, up, down, down, gone, up]
    assert render_grid(cards, status) == [
        "  7  #  . -2",
        " 12  #  .  0",
        "  #  #  .  1",
    ]


def test_render_grid_never_draws_a_face_down_value() -> None:
    cards = list(range(12))
    status = [FACE_DOWN] * 12
    assert render_grid(cards, status) == ["  #  #  #  #"] * 3


def test_render_grid_needs_twelve_cards() -> None:
    with pytest.raises(ValueError, match="12 cards"):
        render_grid([1, 2, 3], [FACE_UP] * 3)


# --- render_observation -----------------------------------------------------------


def test_render_observation_of_a_known_position() -> None:
    state, _ = first_turns()
    assert render_observation(observe(state, 0), NAMES).split("\n") == [
        "round 1, turns: Ana to play",
        "discard pile: 10 on top, 6 cards; draw pile: 123 cards",
        "",
        "> Ana (you)     Ben",
        "  .  #  #  #     11  # 12  #",
        "  .  #  #  #      #  3  #  #",
        "  .  #  #  #      #  #  #  #",
        "shows 0         shows 26",
        "total 0         total 0",
        "",
        "# face down, . cleared column",
    ]


def test_render_observation_shows_a_held_card_to_the_drawer_only() -> None:
    state = step(first_turns()[0], DRAW)
    drawn = state.held
    assert render_observation(observe(state, 0), NAMES).startswith(
        f"round 1, turns: Ana to play, holding the {drawn} drawn from the draw pile\n"
    )
    assert render_observation(observe(state, 1), NAMES).startswith(
        "round 1, turns: Ana to play, holding a card drawn from the draw pile\n"
    )


def test_render_observation_shows_a_card_taken_from_the_discard_to_everyone() -> None:
    state = step(first_turns()[0], TAKE_DISCARD)
    for viewer in (0, 1):
        assert render_observation(observe(state, viewer), NAMES).startswith(
            "round 1, turns: Ana to play, holding the 10 taken from the discard pile\n"
        )


def test_render_observation_in_the_opening() -> None:
    state = new_game(2, deck=crafted_deck(*ANA, *BEN, FIRST_DISCARD, *FIRST_DRAWS))
    assert render_observation(observe(state, 1), NAMES).startswith(
        "round 1, opening reveals: Ana to turn up 2 cards\n"
        "discard pile: 3 on top, 1 card; draw pile: 125 cards\n"
    )
    state = step(state, REVEAL + 3)
    assert "Ana to turn up 1 card\n" in render_observation(observe(state, 1), NAMES)


def test_face_down_values_never_appear() -> None:
    """Ben's face-down cards are all 11s; no 11 is face up, on the discard
    pile's top, in a score or in a pile size: no `11` may be rendered."""
    ana = [5, 1, 2, 3, 5, 4, 4, 6, 5, 7, 8, -2]
    ben = [9, 0, *[11] * 10]
    state = new_game(2, deck=crafted_deck(*ana, *ben, FIRST_DISCARD))
    for action in (REVEAL + 0, REVEAL + 1, REVEAL + 0, REVEAL + 1):
        state = step(state, action)
    for viewer in (0, 1):
        text = render_observation(observe(state, viewer), NAMES)
        assert "11" not in text, text
        assert "#" in text


def _with_hidden_values_changed(state: State, rng: random.Random) -> State:
    """`state` with every face-down card and the draw pile replaced at random
    (the result need not be a consistent deck: only what is hidden changes)."""
    grids = tuple(
        tuple(rng.randint(-2, 12) if hidden >> k & 1 else v for k, v in enumerate(grid))
        for grid, hidden in zip(state.grids, state.hidden, strict=True)
    )
    pile = state.draw_pile[: state.draw_top] + tuple(
        rng.randint(-2, 12) for _ in state.draw_pile[state.draw_top :]
    )
    held = state.held
    if held is not None and state.source == DRAW:
        held = rng.randint(-2, 12)
    return state._replace(grids=grids, draw_pile=pile, held=held)


@pytest.mark.parametrize("seed", range(6))
def test_rendering_does_not_depend_on_what_is_hidden(seed: int) -> None:
    """Through whole random games, changing the face-down cards (and another
    player's drawn card) never changes a player's rendered view."""
    rng = random.Random(seed)
    state = new_game(2 + seed % 7, seed=seed)
    names = [f"P{i}" for i in range(state.num_players)]
    while state.phase != Phase.GAME_OVER:
        other = _with_hidden_values_changed(state, rng)
        for viewer in range(state.num_players):
            if state.held is not None and state.source == DRAW and viewer == state.player:
                continue  # the drawer sees the drawn card
            assert render_observation(observe(other, viewer), names) == render_observation(
                observe(state, viewer), names
            )
        state = step(state, rng.choice(legal_actions(state)))


def test_render_observation_needs_a_name_per_seat() -> None:
    with pytest.raises(ValueError, match="2 players need 2 names"):
        render_observation(observe(opening(), 0), ["Ana"])


# --- describe_event --------------------------------------------------------------


def test_the_sentences_of_the_first_turns() -> None:
    assert first_turns()[1] == [
        "Ben took the 3 from the discard pile",
        "Ben exchanged the 3 for the face-down -1 at row 2, column 2",
        "Ana drew a 7",
        "Ana discarded the 7",
        "Ana turned up a 5 at row 3, column 1",
        "Ana cleared column 1 (three 5s)",
        "Ben drew an 11",
        "Ben exchanged the 11 for the face-up 10 at row 1, column 1",
    ]


def test_the_sentences_of_the_opening() -> None:
    state = new_game(2, deck=crafted_deck(*ANA, *BEN, FIRST_DISCARD, *FIRST_DRAWS))
    _, lines = play(state, REVEAL + 0, REVEAL + 11, REVEAL + 9, REVEAL + 1)
    assert lines == [
        "Ana turned up a 5 at row 1, column 1",
        "Ana turned up a -2 at row 3, column 4",
        "Ben turned up an 11 at row 3, column 2",
        "Ben turned up an 11 at row 1, column 2",
    ]


def finished_round(rules: Rules) -> tuple[State, list[str]]:
    """After the first turns, Ana turns up her cards one by one (drawing and
    discarding) while Ben draws and exchanges at [0, 0], until the round ends."""
    state, _ = first_turns(rules)
    lines: list[str] = []
    while state.phase in (Phase.TURNS, Phase.FINAL_TURNS):
        if state.player == 0:
            first_hidden = next(k for k in range(12) if state.hidden[0] >> k & 1)
            state, said = play(state, DRAW, FLIP + first_hidden)
        else:
            state, said = play(state, DRAW, SWAP + 0)
        lines += said
    return state, lines


def test_the_sentences_of_a_round_end_and_game_over() -> None:
    state, lines = finished_round(Rules(ender_penalty="always", target_score=50))
    assert state.phase == Phase.GAME_OVER
    # Ana: 12 + 12 + 11 + 10 + 10 + 11 + 12 + 8 - 2 = 84, not the lowest: doubled.
    # Ben: column 0 is 0 + 0 + 10, column 1 11 + 3 + 11, column 2 12 + 0 + 12,
    # column 3 (three 9s, face down until now) is cleared: 59.
    assert lines[-9:] == [
        "Ana turned up a -2 at row 3, column 4",
        "Ana turned up every card: everyone else plays once more",
        "Ben drew a 0",
        "Ben exchanged the 0 for the face-up 0 at row 1, column 1",
        "Ben's face-down cards were turned up: 11, 9, 0, 0, 9, 10, 11, 12, 9",
        "Ben cleared column 4 (three 9s)",
        "round 1 over: Ana 168 (doubled), Ben 59",
        "Ana ended the round and is doubled: 168",
        "game over: Ana 168, Ben 59; Ben wins",
    ]
    assert render_observation(observe(state, 1), NAMES).split("\n")[:10] == [
        "round 1, game over: Ben wins",
        "discard pile: 9 on top, 27 cards; draw pile: 105 cards",
        "",
        "Ana (ended)     Ben (you)",
        "  . 12 12 11      0 11 12  .",
        "  . 10 10 11      0  3  0  .",
        "  . 12  8 -2     10 11 12  .",
        "shows 84        shows 59",
        "round 168       round 59",
        "total 168       total 59",
    ]


def test_the_sentences_of_the_next_round() -> None:
    state, _ = finished_round(Rules(target_score=1000))
    assert state.phase == Phase.ROUND_OVER
    _, lines = play(state, NEXT_ROUND)
    assert lines == ["round 2 dealt"]


def test_a_drawn_card_others_may_not_see() -> None:
    _, events = step_with_events(first_turns()[0], DRAW)
    assert describe_event(visible_event(events[0], 0), NAMES) == "Ana drew a -2"
    assert describe_event(visible_event(events[0], 1), NAMES) == "Ana drew a card"


def test_an_observation_gives_the_same_context_as_the_state() -> None:
    """`describe_events` reads the same round and face-down facts from any
    player's observation as from the state."""
    state = opening()
    for action in (TAKE_DISCARD, SWAP + 5, DRAW, SWAP + 1):
        before = state
        state, events = step_with_events(state, action)
        from_state = describe_events(events, NAMES, before)
        for viewer in (0, 1):
            seen = [visible_event(e, viewer) for e in events]
            from_observation = describe_events(seen, NAMES, observe(before, viewer))
            if action == DRAW and viewer != before.player:
                assert from_observation == ["Ana drew a card"]
            else:
                assert from_observation == from_state
    assert from_state == ["Ana exchanged the 7 for the face-down 12 at row 1, column 2"]


EVERY_KIND = [
    (Event("dealt"), {}, "the cards were dealt"),
    (Event("dealt"), {"round_index": 2}, "round 3 dealt"),
    (Event("revealed", 1, 8, 6), {}, "Ben turned up an 8 at row 2, column 3"),
    (
        Event("revealed", 2, None, None, (4, -2, 12)),
        {},
        "Cleo's face-down cards were turned up: 4, -2, 12",
    ),
    (Event("drew", 0, 7), {}, "Ana drew a 7"),
    (Event("drew", 0), {}, "Ana drew a card"),
    (Event("took_discard", 1, 3), {}, "Ben took the 3 from the discard pile"),
    (
        Event("exchanged", 0, 7, 6, (11,)),
        {"face_down": True},
        "Ana exchanged the 7 for the face-down 11 at row 2, column 3",
    ),
    (
        Event("exchanged", 0, 7, 6, (11,)),
        {"face_down": False},
        "Ana exchanged the 7 for the face-up 11 at row 2, column 3",
    ),
    (Event("exchanged", 0, 7, 6, (11,)), {}, "Ana exchanged the 7 for the 11 at row 2, column 3"),
    (Event("discarded", 2, 12), {}, "Cleo discarded the 12"),
    (Event("flipped", 2, 4, 0), {}, "Cleo turned up a 4 at row 1, column 1"),
    (Event("column_cleared", 0, 5, 2, (5, 5, 5)), {}, "Ana cleared column 3 (three 5s)"),
    (Event("column_cleared", 0, -2, 3, (-2, -2, -2)), {}, "Ana cleared column 4 (three -2s)"),
    (
        Event("reshuffled", count=57),
        {},
        "the draw pile was empty: 57 cards reshuffled",
    ),
    (Event("final_turns", 1), {}, "Ben turned up every card: everyone else plays once more"),
    (
        Event("round_ended", 1, None, None, None, (12, 28)),
        {"round_index": 0, "doubled": True},
        "round 1 over: Ana 12, Ben 28 (doubled)",
    ),
    (  # the tag follows the doubled ender, not the last player (issue 29)
        Event("round_ended", 0, None, None, None, (8, 30, 0)),
        {"round_index": 2, "doubled": True},
        "round 3 over: Ana 8 (doubled), Ben 30, Cleo 0",
    ),
    (Event("round_ended", 0, None, None, None, (3, 9)), {}, "round over: Ana 3, Ben 9"),
    (Event("ender_doubled", 1, 28), {}, "Ben ended the round and is doubled: 28"),
    (
        Event("game_over", None, None, None, None, (45, 102, 45)),
        {},
        "game over: Ana 45, Ben 102, Cleo 45; Ana and Cleo win",
    ),
    (
        Event("game_over", None, None, None, None, (45, 102)),
        {},
        "game over: Ana 45, Ben 102; Ana wins",
    ),
]


@pytest.mark.parametrize(("event", "context", "sentence"), EVERY_KIND)
def test_each_event_kind_has_its_sentence(event: Event, context: dict, sentence: str) -> None:
    assert describe_event(event, NAMES, **context) == sentence


def test_every_event_kind_is_covered() -> None:
    kinds = {event.kind for event, _, _ in EVERY_KIND}
    assert kinds == set(EVENT_KINDS)
    for kind in EVENT_KINDS:  # each is documented
        assert f"`{kind}`" in (Event.__doc__ or "")


def test_a_reshuffle_from_the_engine() -> None:
    state = first_turns()[0]
    state = state._replace(draw_top=len(state.draw_pile))  # an empty draw pile
    _, events = step_with_events(state, DRAW)
    assert describe_events(events, NAMES, state)[0] == "the draw pile was empty: 5 cards reshuffled"


# --- render_state ----------------------------------------------------------------


def test_render_state_shows_everything() -> None:
    state, _ = first_turns()
    assert render_state(state, NAMES).split("\n") == [
        "round 1, turns: Ana to play",
        "discard pile: 6 cards, top last: ... 7 5 5 5 10",
        "draw pile: 123 cards, top first: -2 -2 -2 -2 -1 ...",
        "",
        "Ana, total 0           Ben, total 0",
        "( 5) [12] [12] [11]     11  [11]  12  [ 9]",
        "( 5) [10] [10] [11]    [ 0]   3  [ 0] [ 9]",
        "( 5) [12] [ 8] [-2]    [10] [11] [12] [ 9]",
        "shows 0, holds 84      shows 26, holds 97",
    ]


# ---------------------------------------------------------------- visible


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[31mAna", "\\x1b[31mAna"),
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
        ("a\x00b\x7fc\x9bd", "a\\x00b\\x7fc\\x9bd"),
        ("line\nnext\ttab\r", "line\\x0anext\\x09tab\\x0d"),
        ("Zoë [/] :smile: \u2212", "Zoë [/] :smile: \u2212"),
    ],
)
def test_visible_escapes_every_control_character(text: str, shown: str) -> None:
    assert visible(text) == shown


def test_visible_keeps_the_characters_asked_for() -> None:
    assert visible("a\nb\tc\x1b", keep="\n\t") == "a\nb\tc\\x1b"


def test_the_round_end_reveal_of_the_default_human_reads_your() -> None:
    reveal = Event("revealed", 0, None, None, (6, 8))
    assert describe_event(reveal, ["You", "Ben"]) == "Your face-down cards were turned up: 6, 8"
    assert describe_event(reveal, ["Ana", "Ben"]) == "Ana's face-down cards were turned up: 6, 8"
