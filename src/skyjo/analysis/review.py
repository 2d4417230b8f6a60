"""The review of a game: every decision of every player rated (RULES.md 6,
`skyjo review`; docs/review.md says how to read it).

`review(record)` walks the record with the package's replayer and, at each
decision of a reviewed seat (an opening reveal, the take of a turn, its
placement), values every option from that player's observation
(`skyjo.analysis.evaluator`: what the player could see, nothing hidden). The
*best* option is the one with the fewest expected round points; the chosen
option's `loss` is its expected points above the best's, and its label
follows the thresholds of `LABELS`. A choice labelled worse than `good` is
checked by playouts on common card orders (`skyjo.analysis.check`): if its
interval reaches zero, it is within the noise and labelled `good`.

Per player: the `accuracy` (0 to 100) is the mean over non-forced decisions
of lichess's accuracy curve on the round points lost (`rating.accuracy`);
`points_lost` the expected round points lost per non-forced decision (GNU
Backgammon's error rate); the count of each label; and `luck`, the round
points the cards gave or took against their expectation: each card drawn
from the deck (the mean, over the unseen cards, of the best placement of a
card drawn, less that of the card drawn), each face-down card the player
turned up or exchanged unseen, and the cards left face down at a round's end
(the expected score just before the final reveal, less the score). Positive
luck is points saved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from skyjo.analysis import check, reasons
from skyjo.analysis.evaluator import Evaluator, Worth
from skyjo.analysis.rating import (
    LABEL_NAMES,
    Decision,
    Progress,
    accuracy,
    label_of,
    part_of,
    target,
)
from skyjo.bots.determinize import Sampler
from skyjo.engine import DRAW, NEXT_ROUND, TAKE_DISCARD, Phase, State, step
from skyjo.observation import Observation, observe
from skyjo.record import Record, read_record
from skyjo.replayer import steps
from skyjo.rules import GRID_SIZE


@dataclass(slots=True)
class PlayerReview:
    """One player's summary (see the module)."""

    seat: int
    name: str
    accuracy: float = 100.0
    points_lost: float = 0.0
    decisions: int = 0
    forced: int = 0
    labels: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABEL_NAMES, 0))
    luck: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The player in `skyjo review --json` (RULES.md 6)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "accuracy": round(self.accuracy, 1),
            "points_lost": round(self.points_lost, 2),
            "decisions": self.decisions,
            "forced": self.forced,
            "labels": dict(self.labels),
            "luck": round(self.luck, 1),
        }


@dataclass(frozen=True, slots=True)
class Review:
    """A reviewed game: each reviewed player's summary and every rated decision,
    in play order."""

    players: tuple[PlayerReview, ...]
    decisions: tuple[Decision, ...]
    names: tuple[str, ...]
    worlds: int

    def to_dict(self) -> dict[str, Any]:
        """The `skyjo review --json` document (RULES.md 6)."""
        return {
            "players": [p.to_dict() for p in self.players],
            "decisions": [d.to_dict(self.names) for d in self.decisions],
            "evaluator": {
                "value": "the shipped learned value (skyjo/bots/data/value.npz)",
                "search": "one-ply expectimax, the draw searched one ply further",
                "check_worlds": self.worlds,
            },
        }


def decision_count(record: Record, seats: Iterable[int] | None = None) -> int:
    """How many decisions `review` rates (a replay without valuing)."""
    wanted = set(range(len(record.players)) if seats is None else seats)
    return sum(
        1
        for s in steps(record)
        if s.action is not None and s.action != NEXT_ROUND and s.seat in wanted
    )


def review(
    record: Record | str | bytes | Mapping[str, Any],
    seats: Iterable[int] | None = None,
    evaluator: Evaluator | None = None,
    worlds: int = check.WORLDS,
    progress: Progress | None = None,
) -> Review:
    """Rate every decision of the `seats` (default: all) in a game record (see
    the module); `worlds` per playout check (0: no checks); `progress(done,
    total)` after each decision. Raises `RecordError` for a record that does
    not replay (RULES.md 5, 6)."""
    if not isinstance(record, Record):
        record = read_record(record)
    wanted = sorted(set(range(len(record.players)) if seats is None else seats))
    total = decision_count(record, wanted)
    walk = _Walk(record, wanted, evaluator or Evaluator(), worlds, progress, total)
    return walk.run()


class _Walk:
    """The review's pass over the record (one per `review`)."""

    def __init__(
        self,
        record: Record,
        seats: list[int],
        evaluator: Evaluator,
        worlds: int,
        progress: Progress | None,
        total: int,
    ) -> None:
        self.record, self.seats, self.evaluator = record, set(seats), evaluator
        self.worlds, self.progress, self.total = worlds, progress, total
        self.players = {s: PlayerReview(s, record.players[s]) for s in seats}
        self.decisions: list[Decision] = []
        self.drawn: dict[int, Worth] = {}  # seat -> the worth of its draw, before the card
        self.number = 0  # the step of the record being rated

    def run(self) -> Review:
        prev: State | None = None
        rnd, turn = -1, -1
        for number, done in enumerate(steps(self.record)):
            self.number = number  # seeds the samples of this step: alike for any seats
            action, seat = done.action, done.seat
            if action is None or action == NEXT_ROUND:
                rnd, turn, prev = rnd + 1, -1, done.state
                continue
            assert prev is not None and seat is not None
            part = part_of(action)
            turn += part == "take"
            if seat in self.seats:
                self._rate(prev, action, seat, rnd, None if part == "reveal" else turn)
            if done.state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
                self._final_reveal(prev, done.state, action)
            prev = done.state
        return self._summary()

    def _rate(self, prev: State, action: int, seat: int, rnd: int, turn: int | None) -> None:
        obs = observe(prev, seat)
        standing = tuple(w.win for w in self.evaluator.standing(obs))
        kinds = self.evaluator.options(obs)
        options = {a: kinds.get(a) or self.evaluator.option(obs, a) for a in obs.legal_actions}
        chosen = options[action]
        best = min(kinds, key=lambda a: (kinds[a].points, -kinds[a].win, a))
        top = kinds[best]
        if chosen.points <= top.points:
            best, top = action, chosen  # an option alike to the best, or tied with it
        loss = max(0.0, chosen.points - top.points)
        win_lost = max(0.0, max(w.win for w in options.values()) - chosen.win)
        decision = Decision(
            rnd, turn, part_of(action), self.number, seat, action, chosen, best, top, options, loss,
            win_lost, label_of(loss), standing=standing, kinds=len(kinds),
        )  # fmt: skip
        decision = replace(decision, luck=self._luck(obs, prev, action, seat, decision))
        if decision.label not in ("best", "good") and decision.part != "reveal" and self.worlds:
            decision = self._checked(obs, decision)
        why = reasons.why(obs, decision)
        reason = reasons.text(why)
        c = decision.check
        if c is not None and not c.clear:
            low, high = round(c.low, 2), round(c.high, 2)
            reason += "; " + reasons.text(reasons.Why("noise", {"low": low, "high": high}))
        decision = replace(decision, reason=reason, why=why.to_dict())
        self.decisions.append(decision)
        if self.progress is not None:
            self.progress(len(self.decisions), self.total)

    def _luck(
        self, obs: Observation, prev: State, action: int, seat: int, decision: Decision
    ) -> float | None:
        """The round points the chance of this decision gave: a card drawn (at
        its placement), a face-down card turned up or exchanged unseen."""
        luck = None
        if action == DRAW:
            self.drawn[seat] = decision.chosen
            return None
        if decision.part == "place" and seat in self.drawn:
            luck = self.drawn.pop(seat).points - decision.top.points
        k = target(action)[1]
        if decision.part != "take" and (prev.hidden[seat] >> k) & 1:
            card = prev.cells[GRID_SIZE * seat + k]
            after = self.evaluator.known(obs, action, card)[seat]
            luck = (luck or 0.0) + decision.chosen.points - after.points
        if luck is not None:
            self.players[seat].luck += luck
        return luck

    def _final_reveal(self, prev: State, after: State, action: int) -> None:
        """Each reviewed seat's luck of the cards left face down at the round's
        end: its expected score just before the final reveal (`expected_scores`)
        less its score."""
        expected = expected_scores(prev, action, self.number)
        scores = after.results[-1].scores
        for seat in self.seats:
            self.players[seat].luck += expected[seat] - scores[seat]

    def _checked(self, obs: Observation, decision: Decision) -> Decision:
        """The decision after its playout check (`skyjo.analysis.check`)."""
        chosen, other = _moves(obs, decision, self.evaluator)
        verdict = check.compare(obs, chosen, other, self.worlds, self.number)
        label = decision.label if verdict.clear else "good"
        return replace(decision, check=verdict, label=label)

    def _summary(self) -> Review:
        for player in self.players.values():
            mine = [d for d in self.decisions if d.seat == player.seat]
            free = [d for d in mine if not d.forced]
            player.decisions, player.forced = len(free), len(mine) - len(free)
            for d in mine:
                player.labels[d.label] += 1
            if free:
                player.accuracy = sum(accuracy(d.loss) for d in free) / len(free)
                player.points_lost = sum(d.loss for d in free) / len(free)
        return Review(
            tuple(self.players[s] for s in sorted(self.players)),
            tuple(self.decisions),
            self.record.players,
            self.worlds,
        )


#: The deals of the unseen cards that `expected_scores` averages over.
REVEAL_WORLDS = 200


def expected_scores(prev: State, action: int, seed: int = 0) -> list[float]:
    """Each seat's expected score of a round that `action` (the last move,
    played at `prev`) ends, before the final reveal (RULES.md 2.9, 2.10): the
    mean over `REVEAL_WORLDS` deals of the cards nobody has seen (what the
    mover saw, `Sampler`; the card the move turned up is the one it turned
    up), scored by the engine."""
    mover = prev.player
    k = target(action)[1]
    card = prev.cells[GRID_SIZE * mover + k] if (prev.hidden[mover] >> k) & 1 else None
    sampler = Sampler(observe(prev, mover))
    gen = np.random.Generator(np.random.PCG64(seed))
    sums = [0.0] * prev.num_players
    for _ in range(REVEAL_WORLDS):
        world = sampler.state(sampler.deal(gen), 0)
        if card is not None:
            world = _with_card(world, GRID_SIZE * mover + k, card)
        scores = step(world, action).results[-1].scores
        sums = [a + b for a, b in zip(sums, scores, strict=True)]
    return [total / REVEAL_WORLDS for total in sums]


def _with_card(world: State, at: int, card: int) -> State:
    """`world` with `card` at cell `at`, exchanged with a face-down cell (or a
    card of the draw pile) that holds it: a deal conditioned on that card."""
    cells = list(world.cells)
    if cells[at] == card:
        return world
    for j, value in enumerate(cells):
        if j != at and value == card and (world.hidden_bits >> j) & 1:
            cells[j], cells[at] = cells[at], card
            return world._replace(cells=tuple(cells))
    pile = list(world.draw_pile)
    j = pile.index(card, world.draw_top)
    pile[j], cells[at] = cells[at], card
    return world._replace(cells=tuple(cells), draw_pile=tuple(pile))


def _moves(obs: Any, decision: Decision, evaluator: Evaluator) -> tuple[check.Move, check.Move]:
    """The chosen and the best option as playout moves: taking the discard goes
    on with the value's best placement of it (which is what it is worth)."""

    def move(action: int) -> check.Move:
        if action != TAKE_DISCARD:
            return (action,)
        sampler = Sampler(obs)
        taken = step(sampler.state(np.array(sampler.pool), 0), TAKE_DISCARD)
        options = evaluator.options(observe(taken, obs.current_player))
        return (TAKE_DISCARD, min(options, key=lambda a: (options[a].points, a)))

    return move(decision.action), move(decision.best)
