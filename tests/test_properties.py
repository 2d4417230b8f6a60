"""Invariants of the engine over random games (Hypothesis).

Hypothesis picks the table (2 to 8 players, every `ender_penalty`, a few target
scores, the seed) and either every action (`st.data()`) or the seed of a
random player. After every step the checker below holds the engine to the
rules: all 150 cards are somewhere, the mask matches the phase, no observation
shows a face-down card or anything of the draw pile order, a turn is exactly
two steps, each round is scored from the cards left, the totals add up.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    NUM_ACTIONS,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    Phase,
    State,
    cards_in_play,
    history,
    legal_action_mask,
    legal_actions,
    new_game,
    step,
)
from skyjo.observation import observe
from skyjo.rules import CARD_COUNTS, COLS, ENDER_PENALTIES, GRID_SIZE, Rules

#: Deterministic: the same examples on every run, and none saved between runs.
SETTINGS = {"deadline": None, "derandomize": True, "database": None}
COLUMNS = [(c, c + COLS, c + 2 * COLS) for c in range(COLS)]
PLAYING = (Phase.TURNS, Phase.FINAL_TURNS)
SCORED = (Phase.ROUND_OVER, Phase.GAME_OVER)

tables = st.tuples(
    st.integers(2, 8),
    st.sampled_from(ENDER_PENALTIES),
    st.sampled_from([1, 40, 100, 250]),
    st.integers(0, 2**63 - 1),
)


def bit(mask: int, k: int) -> bool:
    return bool(mask >> k & 1)


# ------------------------------------------------------------------ checks


def check_cards(state: State) -> None:
    assert Counter(cards_in_play(state)) == CARD_COUNTS
    assert Counter(state.decks[-1]) == CARD_COUNTS


def check_mask(state: State) -> None:
    mask = legal_action_mask(state)
    legal = legal_actions(state)
    assert len(mask) == NUM_ACTIONS
    assert tuple(a for a in range(NUM_ACTIONS) if mask[a]) == legal
    assert (not any(mask)) == (state.phase == Phase.GAME_OVER)


def twin(state: State) -> State:
    """The same table as far as anyone can see: the draw pile in another order
    and the face-down cards moved around among the face-down positions."""
    spots = [
        (seat, k)
        for seat, hidden in enumerate(state.hidden)
        for k in range(GRID_SIZE)
        if bit(hidden, k)
    ]
    grids = [list(g) for g in state.grids]
    values = [grids[seat][k] for seat, k in spots]
    values = values[1:] + values[:1]
    for (seat, k), v in zip(spots, values, strict=True):
        grids[seat][k] = v
    rest = state.draw_pile[state.draw_top :]
    return state._replace(
        grids=tuple(tuple(g) for g in grids),
        draw_pile=state.draw_pile[: state.draw_top] + rest[::-1],
    )


def check_observations(state: State) -> None:
    grids, hidden, cleared = state.grids, state.hidden, state.cleared
    # what each viewer must see: None face down, "x" cleared in to_dict
    cards = [
        tuple(None if bit(h, k) else v for k, v in enumerate(g))
        for g, h in zip(grids, hidden, strict=True)
    ]
    status = [
        tuple(2 if bit(c, k) else 0 if bit(h, k) else 1 for k in range(GRID_SIZE))
        for h, c in zip(hidden, cleared, strict=True)
    ]
    cells = [
        ["x" if s == 2 else v for v, s in zip(cs, ss, strict=True)]
        for cs, ss in zip(cards, status, strict=True)
    ]
    other = twin(state)
    # the player to act and the next one: a drawer and someone who may not see
    # the drawn card (every seat is both in turn over a game)
    for viewer in {state.player, (state.player + 1) % state.num_players}:
        obs = observe(state, viewer)
        assert list(obs.cards) == cards
        assert list(obs.status) == status
        if state.held is None or (state.source == DRAW and viewer != state.player):
            assert obs.held is None
        else:
            assert obs.held == state.held
        data = obs.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert [[v for row in g for v in row] for g in data["grids"]] == cells
        assert observe(other, viewer) == obs  # nothing hidden shows through


def expected_scores(raw: tuple[int, ...], ender: int, penalty: str) -> tuple[int, ...]:
    """RULES.md 2.10, written out again here."""
    lower_or_equal = any(r <= raw[ender] for seat, r in enumerate(raw) if seat != ender)
    doubled = {
        "positive": raw[ender] > 0 and lower_or_equal,
        "always": lower_or_equal,
        "none": False,
    }[penalty]
    return tuple(2 * r if seat == ender and doubled else r for seat, r in enumerate(raw))


def check_round_end(before: State, state: State) -> None:
    """The round just scored: every card up, three-of-a-kind columns (and only
    they) cleared, raw scores = the cards left, the penalty, the totals."""
    assert state.hidden == (0,) * state.num_players
    result = state.results[-1]
    assert result.ender == before.ender
    raw = []
    for grid, cleared in zip(state.grids, state.cleared, strict=True):
        for col in COLUMNS:
            gone = all(bit(cleared, k) for k in col)
            assert gone or not any(bit(cleared, k) for k in col)
            assert gone == (len({grid[k] for k in col}) == 1)
        raw.append(sum(v for k, v in enumerate(grid) if not bit(cleared, k)))
    assert result.raw == tuple(raw)
    assert result.scores == expected_scores(result.raw, result.ender, state.rules.ender_penalty)
    assert result.doubled == (result.scores != result.raw)
    totals = tuple(map(sum, zip(*(r.scores for r in state.results), strict=True)))
    assert state.totals == totals
    over = any(t >= state.rules.target_score for t in totals)
    assert (state.phase == Phase.GAME_OVER) == over
    assert state.player == result.ender


class Checker:
    """Follows one game step by step and checks every invariant."""

    def __init__(self, state: State) -> None:
        self.final_turns = 0  # turns completed since the ender's
        self.check(state)

    def check(self, state: State) -> None:
        check_cards(state)
        check_mask(state)
        check_observations(state)

    def step(self, state: State, action: int) -> State:
        after = step(state, action)
        self.check(after)
        n = state.num_players
        p = state.player
        if state.phase == Phase.REVEAL:
            assert REVEAL <= action < REVEAL + GRID_SIZE
            if after.phase == Phase.TURNS:
                # round 1: highest two-card total, lowest seat; later: the last ender
                if state.results:
                    assert after.player == state.results[-1].ender
                else:
                    shown = [
                        sum(v for k, v in enumerate(g) if not bit(h, k))
                        for g, h in zip(after.grids, after.hidden, strict=True)
                    ]
                    assert after.player == shown.index(max(shown))
        elif action in (DRAW, TAKE_DISCARD):  # the first step of a turn
            assert state.held is None
            assert (after.player, after.phase) == (p, state.phase)
            assert after.held is not None
            assert legal_actions(after) and all(a >= SWAP for a in legal_actions(after))
        elif SWAP <= action < FLIP + GRID_SIZE:  # the second and last step
            assert state.held is not None
            assert after.held is None
            if state.phase == Phase.FINAL_TURNS:
                self.final_turns += 1
            if after.phase in PLAYING:
                assert after.player == (p + 1) % n
                if state.ender is None:  # the first to have no face-down card ends
                    assert (after.ender == p) == (after.hidden[p] == 0)
                    assert after.ender in (None, p)
                    self.final_turns = 0
                else:  # the ender stays the first one
                    assert after.ender == state.ender
            else:
                assert after.phase in SCORED
                assert self.final_turns == n - 1  # one more turn for each other player
                check_round_end(state, after)
        else:
            assert action == NEXT_ROUND
            assert after.phase == Phase.REVEAL
            assert after.round == state.round + 1
        return after


def play_game(players, penalty, target, seed, choose) -> tuple[State, list[int]]:
    """Play to the end, with `choose(legal)` picking each action, checking all."""
    rules = Rules(target_score=target, ender_penalty=penalty)
    state = new_game(players, seed=seed, rules=rules)
    checker = Checker(state)
    actions: list[int] = []
    while state.phase != Phase.GAME_OVER:
        action = choose(state, legal_actions(state))
        actions.append(action)
        state = checker.step(state, action)
    assert history(state) == actions
    event(f"rounds: {len(state.results)}")
    event(f"reshuffled: {any(state.reshuffles)}")
    event(f"some ender doubled: {any(r.doubled for r in state.results)}")
    return state, actions


# ------------------------------------------------------------- properties


def random_player(seed: int, patience: float):
    """Picks uniformly among the legal actions; but with probability `patience`
    a player holding a card exchanges it for a face-up one, so that rounds last
    long and the draw pile runs out."""
    rng = random.Random(seed)

    def choose(state: State, legal: tuple[int, ...]) -> int:
        if state.held is not None and rng.random() < patience:
            face_up = [
                a for a in legal if a < FLIP and not bit(state.hidden[state.player], a - SWAP)
            ]
            if face_up:
                return rng.choice(face_up)
        return rng.choice(legal)

    return choose


@settings(max_examples=50, **SETTINGS)
@given(table=tables, choices=st.integers(0, 2**32), patience=st.sampled_from([0.0, 0.7]))
def test_random_games_keep_every_invariant(table, choices, patience):
    state, actions = play_game(*table, choose=random_player(choices, patience))
    assert state.phase == Phase.GAME_OVER
    # the same seed and actions replay to the same final state
    players, penalty, target, seed = table
    again = new_game(players, seed=seed, rules=Rules(target_score=target, ender_penalty=penalty))
    for action in actions:
        again = step(again, action)
    assert again == state


@settings(
    max_examples=25,
    **SETTINGS,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(table=tables, data=st.data())
def test_games_with_every_action_chosen_by_hypothesis_keep_every_invariant(table, data):
    rng = random.Random(0)
    steps = 0

    def choose(state: State, legal: tuple[int, ...]) -> int:
        nonlocal steps
        steps += 1
        if steps > 300:  # a long game: finish it at random to bound the example's size
            return rng.choice(legal)
        return legal[data.draw(st.integers(0, len(legal) - 1), label="action")]

    play_game(*table, choose=choose)


@settings(max_examples=30, **SETTINGS)
@given(
    players=st.integers(2, 8),
    seed=st.integers(0, 2**63 - 1),
    choices=st.integers(0, 2**32),
    length=st.integers(0, 400),
)
def test_the_same_seed_and_actions_give_the_same_game_at_every_step(players, seed, choices, length):
    rng = random.Random(choices)
    first = new_game(players, seed=seed)
    second = new_game(players, seed=seed)
    assert first == second
    for _ in range(length):
        legal = legal_actions(first)
        if not legal:
            break
        action = rng.choice(legal)
        first, second = step(first, action), step(second, action)
        assert first == second
    assert first.decks == second.decks
    assert first.reshuffles == second.reshuffles
