"""The batch simulator (`skyjo.batch`) plays the reference engine's games.

Fed the same seeds, the compiled game loop on the kernel and the match driver
on the engine must give game for game, round by round, the same results:
every round's ender, raw and final scores and doubling, every seat's grid
value after the deal and after each of its turns, the totals and the turns.
The `random` bot agrees game for game too: its compiled policy draws from a
compiled copy of its `random.Random` (a Mersenne Twister), as `greedy` and
`basic` draw their tie-breaks. A few hundred games, 2 to 8 players, three
policies mixed, and `expected` in a few more; reshuffles (RULES.md 2.7) and
column clears (2.6, 2.9) are shown to occur in them.
"""

from __future__ import annotations

import pytest

from skyjo.batch import batch_policy, play_fast, play_seeded
from skyjo.sim.tournament import (
    TournamentError,
    choose_engine,
    game_seeds,
    make_config,
    play_game,
    resolve_bot,
    run_tournament,
    seat_lineup,
)

#: Per player count, a lineup mixing the three compiled policies, and games.
LINEUPS = {
    2: (["random", "greedy"], 60),
    3: (["greedy", "basic", "random"], 50),
    4: (["greedy", "greedy", "basic", "basic"], 40),
    5: (["basic", "random", "greedy", "greedy", "basic"], 30),
    6: (["greedy", "basic"] * 3, 25),
    7: (["random", "greedy", "basic", "greedy", "basic", "greedy", "basic"], 20),
    8: (["greedy"] * 4 + ["basic"] * 3 + ["random"], 20),
}
#: `expected` (slower on the reference engine): fewer games.
EXPECTED_LINEUPS = {
    2: (["expected", "random"], 8),
    3: (["expected", "greedy", "basic"], 8),
    6: (["expected", "expected", "greedy", "basic", "random", "greedy"], 6),
}
SEED = 2026


def both_ways(lineup: list[str], games: int, seed: int = SEED):  # type: ignore[no-untyped-def]
    """The reference engine's games (`play_game`) and the batch simulator's."""
    entries = [resolve_bot(spec) for spec in lineup]
    n = len(lineup)
    seats = [seat_lineup(entries, g) for g in range(games)]
    reference = [play_game(seats[g], g, seed) for g in range(games)]
    seeds = [game_seeds(seed, g, n) for g in range(games)]
    batch = play_seeded(
        [[entry.label for entry in entries] for entries in seats],
        [deal for deal, _ in seeds],
        [bots for _, bots in seeds],
    )
    return reference, batch


@pytest.fixture(scope="module")
def played():  # type: ignore[no-untyped-def]
    return {n: both_ways(lineup, games) for n, (lineup, games) in LINEUPS.items()}


def assert_same_games(reference, batch, players: int) -> None:  # type: ignore[no-untyped-def]
    """The two engines' games agree round by round."""
    for ref, got in zip(reference, batch, strict=True):
        game = f"{players} players, game {ref.index}"
        assert len(got.rounds) == len(ref.rounds), game
        for r, (mine, theirs) in enumerate(zip(got.rounds, ref.rounds, strict=True)):
            assert mine == theirs, f"{game}, round {r + 1}"
            assert got.trajectories[r] == ref.trajectories[r], f"{game}, round {r + 1}"
        assert got.totals == ref.totals, game
        assert got.turns == ref.turns, game
        assert got.stalled_round == ref.stalled_round, game
        assert got.totals  # and not a vacuous game
        assert min(got.totals) < 100 <= max(got.totals) or got.stalled_round


@pytest.mark.parametrize("players", sorted(LINEUPS))
def test_the_batch_engine_plays_the_reference_games_round_by_round(played, players) -> None:  # type: ignore[no-untyped-def]
    reference, batch = played[players]
    assert len(reference) == len(batch) == LINEUPS[players][1]
    assert_same_games(reference, batch, players)


@pytest.mark.parametrize("players", sorted(EXPECTED_LINEUPS))
def test_the_expected_bot_plays_the_same_games_on_both_engines(players: int) -> None:
    """`expected` counts cards (the unseen ones, the known draw pile after a
    reshuffle) and hurries after its patience: the same decisions compiled."""
    lineup, games = EXPECTED_LINEUPS[players]
    reference, batch = both_ways(lineup, games)
    assert_same_games(reference, batch, players)


def test_reshuffles_and_column_clears_occur_in_the_compared_games(played) -> None:  # type: ignore[no-untyped-def]
    """The games compared hold the rare events: reshuffles of the discard pile
    (RULES.md 2.7), column clears (2.6, 2.9), doubled enders (2.10)."""
    games = [game for _, batch in played.values() for game in batch]
    assert sum(game.reshuffles > 0 for game in games) >= 20
    assert sum(game.cleared > 0 for game in games) >= 50
    doubled = [r.doubled for _, batch in played.values() for g in batch for r in g.rounds]
    assert any(doubled) and not all(doubled)


def test_a_round_at_the_turn_limit_stalls_its_game() -> None:
    """The round limit, as the match driver applies it: a round reaching it
    stops the game, its turns counted, no round finished."""
    deal, bots = game_seeds(SEED, 0, 2)
    (game,) = play_seeded([["greedy", "basic"]], [deal], [bots], max_turns=10)
    assert game.stalled_round == 1
    assert game.turns == 10
    assert game.rounds == ()
    assert game.totals == (0, 0)


def test_a_tournament_gives_the_same_results_on_either_engine() -> None:
    config = make_config(["greedy", "random", "basic"], games=24, seed=5)
    batch = run_tournament(config, workers=1, engine="batch")
    reference = run_tournament(config, workers=1, engine="reference")
    assert batch.games == reference.games
    assert batch.summary == reference.summary


def test_the_engine_is_batch_by_default_when_every_bot_allows_it() -> None:
    assert choose_engine(make_config(["greedy", "basic"], games=1, seed=1)) == "batch"
    assert choose_engine(make_config(["greedy", "expected"], games=1, seed=1)) == "batch"
    assert choose_engine(make_config(["greedy", "search"], games=1, seed=1)) == "reference"
    assert choose_engine(make_config(["greedy:low=2", "basic"], games=1, seed=1)) == "reference"
    assert choose_engine(make_config(["expected:tempo=1", "basic"], games=1, seed=1)) == "reference"
    with pytest.raises(TournamentError, match="search"):
        choose_engine(make_config(["greedy", "search"], games=1, seed=1), "batch")
    with pytest.raises(TournamentError, match="unknown engine"):
        choose_engine(make_config(["greedy"], games=1, seed=1), "fast")
    assert batch_policy("random") == "random"
    assert batch_policy("search") is None


def test_the_fast_mode_plays_whole_games_deterministically() -> None:
    first = play_fast(4, "greedy", 40, seed=3, batch=8)
    assert first == play_fast(4, "greedy", 40, seed=3, batch=8)
    assert first.games == 40
    # 4 greedy players take dozens of turns a round, and a game has rounds
    assert first.turns > 40 * 40
    assert play_fast(4, "greedy", 40, seed=4, batch=8) != first
