"""The learned value's compiled side: column kinds, the public record, the
network, and the expectimax over it (skyjo.kernel.value, skyjo.kernel.expectimax)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from played_states import states

from skyjo import kernel
from skyjo.bots.determinize import Sampler
from skyjo.engine import TAKE_DISCARD, Phase, State, legal_actions
from skyjo.kernel import expectimax, value
from skyjo.kernel.table import HIDDEN, PHASE, PLAYER
from skyjo.observation import observe
from skyjo.rules import MAX_PLAYERS


def random_net(seed: int = 0, hidden: int = 16) -> value.Net:
    rng = np.random.default_rng(seed)
    return value.Net(
        **{
            name: (rng.standard_normal(shape) * 0.3).astype(np.float32)
            for name, shape in value.shapes(hidden, hidden, hidden).items()
        }
    )


def decisions(players: int, seed: int) -> list[State]:
    """States of played games where the player to act has a choice to make."""
    found = []
    for state in states(players, 2, seed):
        if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            continue
        if len(legal_actions(state)) > 1:
            found.append(state)
    return found


def table_of(state: State, hidden_cards: str = "true") -> kernel.Tables:
    """A kernel table of `state`: with its true face-down cards and draw pile,
    or ("placeholder") with what a player's view gives (`Sampler`: the unseen
    cards in sorted order, wherever they fall)."""
    t = kernel.new_tables(1, MAX_PLAYERS)
    if hidden_cards == "true":
        kernel.load_state(t, 0, state)
    else:
        sampler = Sampler(observe(state, state.player))
        kernel.load_state(t, 0, sampler.state(np.array(sampler.pool), 0))
    return t


def test_a_column_kind_is_its_multiset_of_cells() -> None:
    seen = set()
    for x, y, z in itertools.product(range(value.SYMBOLS), repeat=3):
        kind = int(value.KIND[x, y, z])
        assert sorted((x, y, z)) == list(value.KIND_CELLS[kind])
        seen.add(kind)
    assert len(seen) == value.CLEARED_KIND == 816
    assert value.KINDS == 817
    assert list(value.KIND_CELLS[value.CLEARED_KIND]) == [value.DOWN] * 3


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_public_record_never_holds_a_face_down_card_nor_the_deck(players: int) -> None:
    """The record of the true table and of a table with placeholders for every
    unseen card (another deck order, other face-down cards) are the same."""
    ints = value.scratch()
    for state in decisions(players, seed=11)[::7]:
        if state.held is not None and state.source == "deck":
            continue  # a freshly drawn card: the player to act sees it, the placeholder holds it
        mine = np.zeros(value.RECORD, np.int16)
        other = np.zeros(value.RECORD, np.int16)
        value.public(table_of(state), 0, mine, ints)
        value.public(table_of(state, "placeholder"), 0, other, ints)
        mine[value.ROUND_TURNS] = other[value.ROUND_TURNS] = 0  # not in an observation
        assert mine.tolist() == other.tolist()


def test_the_record_is_relative_to_the_player_to_act() -> None:
    state = next(s for s in decisions(3, seed=5) if s.phase == Phase.TURNS and s.player == 1)
    record = np.zeros(value.RECORD, np.int16)
    value.public(table_of(state), 0, record, value.scratch())
    totals = [int(record[j * value.SLOT + value.SEAT_TOTAL]) for j in range(3)]
    assert totals == [state.totals[1], state.totals[2], state.totals[0]]
    assert record[value.NPLAYERS] == 3
    downs = [int(record[j * value.SLOT + value.N_DOWN]) for j in range(3)]
    assert downs == [bin(state.hidden[(1 + j) % 3]).count("1") for j in range(3)]


def test_the_win_chances_are_a_distribution_over_the_seats_present() -> None:
    net = random_net()
    wk = value.work(net)
    win = np.zeros(MAX_PLAYERS, np.float32)
    pts = np.zeros(MAX_PLAYERS, np.float32)
    for players in (2, 4, 8):
        for state in decisions(players, seed=3)[::50]:
            record = np.zeros(value.RECORD, np.int16)
            value.public(table_of(state), 0, record, value.scratch())
            value.forward(net, record, wk, win, pts)
            assert win[:players].sum() == pytest.approx(1.0, abs=1e-5)
            assert (win[:players] > 0).all() and not win[players:].any()


@pytest.mark.parametrize("depth", [expectimax.SHALLOW, expectimax.FULL])
def test_a_decision_depends_only_on_what_the_player_sees(depth: int) -> None:
    """Two tables alike to the player to act but for the face-down cards and
    the deck's order get the same choice and the same value of every option."""
    net = random_net(seed=1)
    wk = value.work(net)
    scratch = expectimax.make_scratch()
    for state in decisions(2, seed=21)[::40]:
        if state.held is not None and state.source == "deck":
            continue
        results = []
        for hidden_cards in ("true", "placeholder"):
            t = table_of(state, hidden_cards)
            s, rec, ints, win, pts, values = scratch
            action = expectimax.decide(net, t, 0, s, rec, ints, wk, win, pts, 0.0, depth, values)
            results.append((action, values.copy()))
        (a, va), (b, vb) = results
        assert a == b and a in legal_actions(state)
        np.testing.assert_allclose(va, vb, rtol=1e-6, atol=1e-7)


def test_the_chosen_option_is_the_best_valued_and_options_are_legal() -> None:
    net = random_net(seed=2)
    wk = value.work(net)
    s, rec, ints, win, pts, values = expectimax.make_scratch()
    for state in decisions(3, seed=8)[::25]:
        t = table_of(state)
        action = expectimax.decide(net, t, 0, s, rec, ints, wk, win, pts, 0.0, 0, values)
        listed = [(w, int(a)) for w, _, a in values.tolist() if a >= 0]
        legal = legal_actions(state)
        assert all(a in legal for _, a in listed)
        assert action == max(listed)[1] or max(listed)[0] == dict((a, w) for w, a in listed)[action]
        assert all(0.0 <= w <= 1.0 for w, _ in listed)


def test_the_search_leaves_the_table_untouched() -> None:
    net = random_net(seed=4)
    wk = value.work(net)
    s, rec, ints, win, pts, values = expectimax.make_scratch()
    for state in decisions(2, seed=31)[::60]:
        t = table_of(state)
        before = kernel.view(t, 0)
        expectimax.decide(net, t, 0, s, rec, ints, wk, win, pts, 0.0, 1, values)
        assert kernel.view(t, 0) == before


def test_a_round_left_due_is_seen_before_its_final_reveal() -> None:
    """`hand_on` stops where `pass_turn` would score the round: the record
    says so (nobody has a turn left) and scoring it then ends the round (the
    parity tests check `place` = `move` + `pass_turn` over whole games)."""
    state = next(s for s in decisions(2, seed=13) if s.phase == Phase.TURNS)
    t = table_of(state)
    ints = value.scratch()
    record = np.zeros(value.RECORD, np.int16)
    due = 0
    while t.slots[0, PHASE] != int(Phase.ROUND_OVER) and t.slots[0, PHASE] != int(Phase.GAME_OVER):
        if t.held[0] == kernel.NO_CARD:
            kernel.step(t, 0, TAKE_DISCARD)
        hidden = int(t.seats[0, HIDDEN, t.slots[0, PLAYER]])
        k = next(i for i in range(12) if hidden >> i & 1) if hidden else 0
        while t.cleared[0, t.slots[0, PLAYER]] >> k & 1:
            k += 1
        kernel.move(t, 0, k, False)
        if kernel.hand_on(t, 0):
            value.public(t, 0, record, ints)
            assert record[value.PHASE_CODE] == value.PH_DUE
            assert not any(record[j * value.SLOT + value.FLAGS] & value.TO_PLAY for j in range(2))
            kernel.end_round(t, 0)
            due += 1
    assert due == 1
