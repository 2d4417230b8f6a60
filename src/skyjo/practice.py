"""A position of a played game to play on from, its unseen cards dealt afresh:
the coach's "play on from here" (docs/review.md).

`position(record, step, rng)` replays a game record (RULES.md 5) to `step` (as
`skyjo.replayer.steps` counts them: the first deal is step 0), a table where a
seat is to take or place a card, and writes the game so far as a record whose
round in play has the cards nobody has seen in a new random order: the
face-down cards and the rest of the draw pile together; after a reshuffle in
the round, the face-down cards among themselves and the new draw pile among
itself (RULES.md 2.7: its values were seen on the discard pile, not its
order). Everything every player saw stays as it was, a card in hand
included; nobody knows what comes next. That record is replayed (and so
checked) into the state to play on from, given a fresh shuffle key and seed,
so that the later rounds are new deals too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from skyjo.engine import Phase, State
from skyjo.record import Record, read_record, write_record
from skyjo.replayer import replay, steps
from skyjo.rules import GRID_SIZE

#: The phases at which a seat takes or places a card.
PLAYING = (Phase.TURNS, Phase.FINAL_TURNS)


class PracticeError(ValueError):
    """A step nobody plays on from: past the record's end, or not a turn."""


def position(
    record: Record | Mapping[str, Any] | str, step: int, rng: random.Random
) -> tuple[State, int]:
    """The state to play on from at `step` of `record` (see the module), and the
    seat to act there. Raises `PracticeError` for a step that is no seat's turn,
    `RecordError` for a record that does not replay."""
    read = record if isinstance(record, Record) else read_record(record)
    state = _state_at(read, step)
    if state.phase not in PLAYING:
        raise PracticeError(f"step {step} is not a turn (the opening reveals, or a round's end)")
    written = write_record(state, read.players)
    current = written["rounds"][-1]
    _shuffle_unseen(current, state, rng)
    replayed = replay(written).state
    key = rng.getrandbits(64)
    return replayed._replace(game=replayed.game._replace(key=key, seed=key)), state.player


def _state_at(record: Record, step: int) -> State:
    if step < 0:
        raise PracticeError(f"a step counts from 0, not {step}")
    for number, done in enumerate(steps(record)):
        if number == step:
            return done.state
    raise PracticeError(f"the game has no step {step}")


def _shuffle_unseen(current: dict[str, Any], state: State, rng: random.Random) -> None:
    """Deal the round in play's unseen cards afresh, in its record `current`."""
    deck = current["deck"]
    down = [i for i in range(GRID_SIZE * state.num_players) if (state.hidden_bits >> i) & 1]
    piles = current["reshuffles"]
    if piles:  # the draw pile came from a reshuffle: its order alone is unknown
        pile = piles[-1]
        start = len(pile) - (len(state.draw_pile) - state.draw_top)
        _permute(pile, range(start, len(pile)), rng)
        _permute(deck, down, rng)
    else:
        _permute(deck, [*down, *range(state.draw_top, len(deck))], rng)


def _permute(cards: list[int], places: Any, rng: random.Random) -> None:
    """Shuffle the values of `cards` at `places` among those places."""
    places = list(places)
    values = [cards[i] for i in places]
    rng.shuffle(values)
    for i, value in zip(places, values, strict=True):
        cards[i] = value
