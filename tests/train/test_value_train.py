"""The learned value's training side: self-play data, its targets, and the
PyTorch network that the compiled one evaluates (skyjo.train.value_data,
skyjo.train.value_net)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from skyjo.kernel import value
from skyjo.rules import MAX_PLAYERS
from skyjo.train.value_data import Games, Spec, generate, targets
from skyjo.train.value_net import ValueNet, inputs


@pytest.fixture(scope="module")
def games() -> Games:
    return generate(Spec(players=3, games=6, seats=("expected", "greedy", "expected"), seed=5))


def test_self_play_keeps_every_decision_and_each_round(games: Games) -> None:
    assert games.games == 6 and games.stalled == 0
    assert len(games.records) > 6 * 3 * 20
    assert set(games.where[:, 0]) == set(range(6))
    assert (games.records[:, value.NPLAYERS] == 3).all()
    # every round of every game has its scores and its record as dealt (seat 0 to reveal)
    for game in range(6):
        rounds = sorted(r for g, r in games.rounds.tolist() if g == game)
        assert rounds == list(range(len(rounds)))
    assert (games.starts[:, value.PHASE_CODE] == value.PH_REVEAL).all()
    assert (games.starts[:, value.N_DOWN] == 12).all()
    np.testing.assert_allclose(games.shares.sum(axis=1), 1.0)


def test_the_targets_are_what_happened_from_each_record_s_seats(games: Games) -> None:
    win, points = targets(games)
    for i in range(0, len(games.records), 37):
        game, rnd, seat0 = games.where[i]
        row = next(j for j, (g, r) in enumerate(games.rounds.tolist()) if (g, r) == (game, rnd))
        for slot in range(3):
            seat = (seat0 + slot) % 3
            assert points[i, slot] == games.scores[row, seat]
            assert win[i, slot] == games.shares[game, seat]
        assert not win[i, 3:].any() and not points[i, 3:].any()
        # the record's totals are the seats' totals before the round
        for slot in range(3):
            before = games.scores[
                [j for j, (g, r) in enumerate(games.rounds.tolist()) if g == game and r < rnd]
            ][:, (seat0 + slot) % 3].sum()
            assert games.records[i, slot * value.SLOT + value.SEAT_TOTAL] == before


def test_a_bootstrap_takes_the_next_round_s_value_as_dealt(games: Games) -> None:
    net = ValueNet(8, 8, 8).export()
    win, _ = targets(games, bootstrap=net)
    dealt = np.zeros((len(games.starts), MAX_PLAYERS), np.float32)
    value.evaluate(net, games.starts, value.work(net), dealt, np.zeros_like(dealt))
    last = {g: max(r for gg, r in games.rounds.tolist() if gg == g) for g in range(6)}
    for i in range(0, len(games.records), 29):
        game, rnd, seat0 = games.where[i]
        if rnd == last[game]:  # the game ended with this round: its result
            assert win[i, 0] == games.shares[game, seat0]
            continue
        row = games.rounds.tolist().index([game, rnd + 1])
        assert win[i, 0] == pytest.approx(dealt[row, seat0])
    np.testing.assert_allclose(win[:, :3].sum(axis=1), 1.0, atol=1e-5)


def test_games_join_and_save(games: Games, tmp_path) -> None:
    both = Games.join([games, games])
    assert both.games == 12 and len(both) == 2 * len(games)
    assert set(both.where[:, 0]) == set(range(12))
    path = tmp_path / "g.npz"
    both.save(str(path))
    again = Games.load(str(path))
    assert (again.records == both.records).all() and (again.rounds == both.rounds).all()


def test_the_compiled_network_is_the_trained_one(games: Games) -> None:
    torch.manual_seed(0)
    net = ValueNet(16, 12, 8)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.2)
    records = games.records[::5]
    with torch.no_grad():
        logits, points = net(*inputs(records))
    compiled = net.export()
    win = np.zeros((len(records), MAX_PLAYERS), np.float32)
    pts = np.zeros_like(win)
    value.evaluate(compiled, records, value.work(compiled), win, pts)
    np.testing.assert_allclose(win, torch.softmax(logits, 1).numpy(), atol=2e-6)
    np.testing.assert_allclose(pts, points.numpy() * value.POINTS_HEAD, atol=2e-4)
