"""Replaying a game record through the engine, step by step (RULES.md 2, 5, 6).

`steps(record)` is the package's one replayer: it deals each round from the
record's deck (or the seed), plays each reveal and turn, and makes each
reshuffle the record's, checking every move, and yields the engine's state
and events after each step. Everything that replays a record walks it:
`replay` (the final state and each round's summary), `skyjo replay` and its
`--watch` (`skyjo.tui.replay`), and the web's replays (`skyjo.web.replays`).
`replay_summary` gives the `skyjo replay --json` document of RULES.md 6.

A record that does not replay raises `skyjo.record.RecordError`, whose
message names the round, the turn and the reason (see `skyjo.record`), with
its kind and params: an illegal move carries the engine's
(`engine.why_illegal`).

When a record has a seed and a deck (or a reshuffle) is exactly what the
engine would have shuffled from its key, the replay lets the engine shuffle,
so that the replayed state, the key included, equals the state of the game
that was played; a game resumed from its record thus goes on as it would
have.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from skyjo import engine
from skyjo.engine import NEXT_ROUND, REVEAL, IllegalActionError, Phase, RoundResult, State
from skyjo.events import Event
from skyjo.record import (
    Record,
    RecordError,
    RoundRecord,
    Turn,
    _At,
    _refused,
    read_record,
)
from skyjo.scoring import winners

__all__ = ["Replay", "RoundSummary", "Step", "replay", "replay_summary", "steps"]


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """How a round of a replay stands (RULES.md 6): its ender (a seat, None until
    someone ends it, RULES.md 2.8) and, once scored, its result (RULES.md 2.9, 2.10)."""

    ender: int | None
    result: RoundResult | None


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the record, the engine's final `state` and each round's summary."""

    record: Record
    state: State
    rounds: tuple[RoundSummary, ...]

    @property
    def finished(self) -> bool:
        """Whether the game is over: a total reached the target (RULES.md 3)."""
        return self.state.phase == Phase.GAME_OVER


class Step(NamedTuple):
    """One step of a replayed record (`steps`): the engine's `state` after it and
    its `events`; the engine `action` and the `seat` that played it (both None
    for the first deal)."""

    state: State
    events: tuple[Event, ...]
    action: int | None = None
    seat: int | None = None


def steps(record: Record | str | bytes | Mapping[str, Any]) -> Iterator[Step]:
    """Replay a game record through the engine step by step, checking every move
    (RULES.md 2, 5): the one replayer of the package (`replay`, `skyjo replay`
    and its `--watch`, the web's replays all walk it).

    The first step is round 1's deal (RULES.md 2.1-2.2); then one step per
    engine action: each opening reveal (2.3), each turn as its two actions
    (2.5), and `NEXT_ROUND`, the deal of each later round from its deck (or
    from the seed), with the engine's `dealt` event. Before a draw from an
    empty draw pile (2.7) the record's next reshuffle becomes the draw pile; if
    the record gives none, the engine shuffles from the seed (an error without
    one); either way the draw's step begins with the `reshuffled` event, as
    the engine's own `DRAW` on an empty pile reports it.

    Raises `RecordError` (once the steps before it are yielded) naming the
    round, the turn and the reason for an illegal move (with the engine's
    kind: `engine.why_illegal`), a turn by the wrong player, a turn after the
    round ended, a round after the game is over or before the previous one is
    finished, a wrong or unused reshuffle. The record may stop anywhere (a
    game in progress).
    """
    if not isinstance(record, Record):
        record = read_record(record)
    names = record.players
    state: State | None = None
    for number, rnd in enumerate(record.rounds, start=1):
        at = _At(round=number)
        if state is None:
            state = _first_deal(record, rnd, at)
            yield Step(state, ())
        else:
            seat = state.player
            state, events = _next_deal(state, record, rnd, at)
            yield Step(state, events, NEXT_ROUND, seat)
        for seat, pair in enumerate(rnd.reveals):
            here = at.but(turn="reveals", player=names[seat])
            for k in pair:
                if state.phase != Phase.REVEAL or state.player != seat:
                    raise here.error(
                        f"it is not {names[seat]}'s turn to reveal",
                        "not_your_reveal",
                        {"player": names[seat]},
                    )
                state, events = _apply(state, REVEAL + k, here, names)
                yield Step(state, events, REVEAL + k, seat)
        used = 0
        for t, turn in enumerate(rnd.turns, start=1):
            here = at.but(turn=t)
            state, before = _start_turn(state, turn, rnd, used, record.seed, here, names)
            used += bool(before)
            here = here.but(player=names[state.player])
            for action in turn.actions():
                seat = state.player
                state, events = _apply(state, action, here, names)
                yield Step(state, before + events, action, seat)
                before = ()
        if used < len(rnd.reshuffles):
            given = len(rnd.reshuffles)
            raise at.error(
                f"the record gives {given} reshuffle{'s' if given != 1 else ''} but the draw "
                f"pile {_ran_out(used)}: reshuffle {used + 1} is never used",
                "reshuffle_unused",
                {"given": given, "used": used},
            )


def replay(record: Record | str | bytes | Mapping[str, Any]) -> Replay:
    """Replay a game record through the engine, checking every move (RULES.md 2,
    5): every step of `steps`, and the final state with each round's summary.
    Raises `RecordError` as `steps` does."""
    if not isinstance(record, Record):
        record = read_record(record)
    state: State | None = None
    for state, _, _, _ in steps(record):  # noqa: B007 - the last state is the replay's
        pass
    assert state is not None  # a record holds at least one round
    return Replay(record, state, _summaries(state))


def _first_deal(record: Record, rnd: RoundRecord, at: _At) -> State:
    """Deal round 1 (RULES.md 2.1-2.2) from its deck, or from the seed."""
    n, seed, rules = len(record.players), record.seed, record.rules
    try:
        if rnd.deck is None or (seed is not None and engine.shuffled_deck(seed)[0] == rnd.deck):
            return engine.new_game(n, seed, rules)
        return engine.new_game(n, seed, rules, deck=rnd.deck)
    except ValueError as error:
        raise _refused(at, error, "deal_refused") from error


def _next_deal(
    state: State, record: Record, rnd: RoundRecord, at: _At
) -> tuple[State, tuple[Event, ...]]:
    """Deal a later round, once the previous one is over and the game is not
    (RULES.md 3); the state and the engine's events (`dealt`)."""
    names = record.players
    previous = at.round - 1 if at.round is not None else 0
    if state.phase == Phase.GAME_OVER:
        totals = ", ".join(f"{n} {t}" for n, t in zip(names, state.totals, strict=True))
        raise at.error(
            f"the game is over after round {previous} (totals {totals}; target "
            f"{record.rules.target_score}): no round may follow",
            "round_after_game_over",
            {
                "round": previous,
                "totals": dict(zip(names, state.totals, strict=True)),
                "target": record.rules.target_score,
            },
        )
    if state.phase != Phase.ROUND_OVER:
        raise at.error(
            f"round {previous} is unfinished, so no new round can start: {_stand(state, names)}",
            "round_unfinished",
            {"round": previous, **_stand_params(state, names)},
        )
    try:
        if rnd.deck is None or (
            record.seed is not None and engine.shuffled_deck(state.key)[0] == rnd.deck
        ):
            return engine.step_with_events(state, NEXT_ROUND)
        events: list[Event] = []
        return engine.start_round(state, rnd.deck, events), tuple(events)
    except ValueError as error:
        raise _refused(at, error, "deal_refused") from error


def _start_turn(
    state: State,
    turn: Turn,
    rnd: RoundRecord,
    used: int,
    seed: int | None,
    at: _At,
    names: tuple[str, ...],
) -> tuple[State, tuple[Event, ...]]:
    """Check that `turn` may be played now by the player to act (RULES.md 2.5),
    and reshuffle first if it draws from an empty pile with reshuffle number
    `used` + 1 of the record (RULES.md 2.7). The state and the reshuffle's
    events: one `reshuffled` event when a reshuffle of the record was used."""
    if state.phase not in (Phase.TURNS, Phase.FINAL_TURNS):
        kind, params, reason = _no_turn_now(state, names)
        raise at.but(player=turn.player).error(reason, kind, params)
    who = names[state.player]
    at = at.but(player=who)
    if turn.player is not None and turn.player != who:
        raise at.error(
            f"the turn names {turn.player}, but it is {who}'s turn",
            "not_your_turn",
            {"named": turn.player, "player": who},
        )
    if turn.take == "deck" and state.draw_top == len(state.draw_pile):
        if used < len(rnd.reshuffles):
            return _apply_reshuffle(state, rnd.reshuffles[used], used + 1, seed, at)
        if seed is None:
            raise at.error(
                f"{who} draws from an empty draw pile, and the record gives no "
                f"reshuffle {used + 1} (nor a seed to shuffle one)",
                "reshuffle_missing",
                {"player": who, "reshuffle": used + 1},
            )
    return state, ()


def _apply_reshuffle(
    state: State, order: tuple[int, ...], number: int, seed: int | None, at: _At
) -> tuple[State, tuple[Event, ...]]:
    """Make the discard pile, less its top card, the draw pile in `order`
    (RULES.md 2.7); the state and the engine's `reshuffled` event."""
    events: list[Event] = []
    if seed is not None:
        shuffled = engine.reshuffle(state, None, events)  # as the engine would: keeps the key
        if shuffled.draw_pile == order:
            return shuffled, tuple(events)
        events.clear()
    expected = Counter(state.discard_pile[:-1])
    given = Counter(order)
    if given != expected:
        value = next(v for v in sorted(set(given) | set(expected)) if given[v] != expected[v])
        raise at.error(
            f"reshuffle {number} is not the discard pile less its top card: it gives "
            f"{len(order)} cards for {len(state.discard_pile) - 1}, "
            f"{given[value]} of {value} instead of {expected[value]}",
            "reshuffle_not_discard_pile",
            {
                "reshuffle": number,
                "given": len(order),
                "expected": len(state.discard_pile) - 1,
                "card": value,
                "card_given": given[value],
                "card_expected": expected[value],
            },
        )
    try:
        return engine.reshuffle(state, order, events), tuple(events)
    except IllegalActionError as error:  # pragma: no cover - checked just above
        raise at.error(
            f"reshuffle {number}: {error}",
            "reshuffle_refused",
            {"reshuffle": number, "detail": str(error)},
        ) from error


def _apply(
    state: State, action: int, at: _At, names: tuple[str, ...]
) -> tuple[State, tuple[Event, ...]]:
    """One engine step and its events; an illegal action becomes a `RecordError`
    with the player's name, the engine's kind and params (`engine.why_illegal`)."""
    try:
        return engine.step_with_events(state, action)
    except IllegalActionError:
        kind, params, reason = engine.why_illegal(state, action, names[state.player])
        raise at.error(reason, kind, params) from None


def _no_turn_now(state: State, names: tuple[str, ...]) -> tuple[str, dict[str, Any], str]:
    """Why no turn can be played in `state` (the round is over or the reveals are
    not): the kind, the params and the reason."""
    if state.phase == Phase.REVEAL:
        who = names[state.player]
        return (
            "reveals_not_done",
            {"player": who},
            f"{who} has not turned up two cards yet: no turn can be played",
        )
    ender = names[state.ender] if state.ender is not None else "nobody"
    if state.phase == Phase.GAME_OVER:
        return (
            "turn_after_game_over",
            {"ender": ender},
            f"the round is over ({ender} ended it and every other player had one more "
            "turn) and so is the game: no turn may follow",
        )
    return (
        "turn_after_round_over",
        {"ender": ender},
        f"the round is over ({ender} ended it and every other player had one more turn): "
        "no turn may follow",
    )


def _stand(state: State, names: tuple[str, ...]) -> str:
    """Where an unfinished round stands, in words."""
    if state.phase == Phase.REVEAL:
        return f"{names[state.player]} has not turned up two cards yet"
    if state.ender is not None:
        return f"{names[state.ender]} ended it, but it is still {names[state.player]}'s last turn"
    return f"nobody has ended it yet and it is {names[state.player]}'s turn"


def _stand_params(state: State, names: tuple[str, ...]) -> dict[str, Any]:
    """Where an unfinished round stands, as params: its phase, the player to act
    and the ender (None until someone ends it)."""
    return {
        "phase": Phase(state.phase).name.lower(),
        "player": names[state.player],
        "ender": names[state.ender] if state.ender is not None else None,
    }


def _summaries(state: State) -> tuple[RoundSummary, ...]:
    """Each round's ender and result, from the final state (RULES.md 2.8-2.10)."""
    rounds = []
    for number in range(state.round + 1):
        if number < len(state.results):
            result = state.results[number]
            rounds.append(RoundSummary(result.ender, result))
        else:
            rounds.append(RoundSummary(state.ender, None))
    return tuple(rounds)


def replay_summary(replay: Replay, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The `skyjo replay --json` document of RULES.md 6.

    ``{"rounds": [{"ender": "Cleo", "raw": {...}, "scores": {...}}], "totals":
    {...}, "finished": bool, "winners": [...]}``: a round in progress has only
    its ender (null until someone ends it, RULES.md 2.8); `winners` is empty
    until the game is over and lists every player with the lowest total
    (RULES.md 3). `players` defaults to the record's names.
    """
    names = tuple(players) if players is not None else replay.record.players
    if len(names) != replay.state.num_players:
        raise RecordError(
            f"the game has {replay.state.num_players} players but {len(names)} names were given",
            kind="names_count",
            params={"players": replay.state.num_players, "names": len(names)},
        )
    rounds: list[dict[str, Any]] = []
    for summary in replay.rounds:
        if summary.result is None:
            rounds.append({"ender": None if summary.ender is None else names[summary.ender]})
        else:
            result = summary.result
            rounds.append(
                {
                    "ender": names[result.ender],
                    "raw": dict(zip(names, result.raw, strict=True)),
                    "scores": dict(zip(names, result.scores, strict=True)),
                }
            )
    totals = dict(zip(names, replay.state.totals, strict=True))
    finished = replay.finished
    return {
        "rounds": rounds,
        "totals": totals,
        "finished": finished,
        "winners": winners(totals) if finished else [],
    }


def _ran_out(count: int) -> str:
    if count == 0:
        return "never ran out"
    return "ran out only once" if count == 1 else f"ran out only {count} times"
