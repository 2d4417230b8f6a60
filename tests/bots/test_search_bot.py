"""The search bot (`SearchBot`): playouts by the `expected`
bot's choice on the kernel, critical decisions searched, the valuer."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from skyjo import kernel
from skyjo.bots import BotError, bot_names, make_bot
from skyjo.bots.determinize import Sampler
from skyjo.bots.expected import ExpectedBot
from skyjo.bots.search import SearchBot, Valuer, critical
from skyjo.engine import Phase, State, new_game, step
from skyjo.kernel import playout_expected as pe
from skyjo.kernel import valuation as va
from skyjo.kernel.playouts import EXPECTED, Playouts
from skyjo.observation import observe
from skyjo.rules import Rules

FAST = {"iterations": 60}  # a small budget: the tests check behaviour, not strength


def _positions(seed: int, players: int, rules: Rules | None = None) -> list[State]:
    """Every state of a game between `expected` bots (reveals and mid-turn states
    included)."""
    state = new_game(players, seed=seed, rules=rules or Rules(target_score=50))
    bots = [make_bot("expected", seed * 10 + p) for p in range(players)]
    states = []
    while state.phase != Phase.GAME_OVER:
        states.append(state)
        state = step(state, bots[state.player].choose(observe(state, state.player)))
    return states


def _turns(states: list[State]) -> list[State]:
    return [s for s in states if s.phase in (Phase.TURNS, Phase.FINAL_TURNS)]


def test_the_registry_makes_the_search_with_its_options() -> None:
    assert "search" in bot_names()
    assert isinstance(make_bot("search", 1), SearchBot)
    assert isinstance(make_bot("search:gap=1.5,turns=300", 1), SearchBot)
    with pytest.raises(BotError, match="bad options"):
        make_bot("search:version=1", 1)  # the first search is gone
    with pytest.raises(BotError, match="bad options"):
        make_bot("search:policy=greedy", 1)  # an option of the first search only


def _policy_choice(state: State, cards: np.ndarray, turns: int = 0) -> int:
    """The playout policy's action for the player to act, in the world dealt
    from `cards` for what that player sees."""
    sampler = Sampler(observe(state, state.player))
    t = kernel.new_tables(1, state.num_players)
    sampler.load(t, 0, cards)
    t.turns[0] = turns
    floats, ints = pe.scratch()
    return int(pe.choose(t, 0, pe.params(), floats, ints))


@pytest.mark.parametrize("players", [2, 4])
def test_the_playout_policy_never_peeks(players: int) -> None:
    """Worlds that differ only in what the player to act cannot see (face-down
    cards, the draw pile's order, another player's fresh card) get the same
    choice, at the start of a turn and with a card in hand, hurried or not."""
    gen = np.random.Generator(np.random.PCG64(5))
    checked = 0
    for state in _turns(_positions(3, players))[::3]:
        sampler = Sampler(observe(state, state.player))
        for turns in (0, 1000):
            choices = {_policy_choice(state, sampler.deal(gen), turns) for _ in range(4)}
            assert len(choices) == 1
        checked += 1
    assert checked > 20


def test_the_playout_policy_counts_a_known_draw_pile() -> None:
    """After a reshuffle the draw pool is the draw pile's values, the face-down
    pool the other unseen cards: counted from the table, not dealt."""
    state = _turns(_positions(3, 2))[10]
    sampler = Sampler(observe(state, state.player))
    t = kernel.new_tables(1, 2)
    sampler.load(t, 0, sampler.deal(np.random.Generator(np.random.PCG64(1))))
    _, ints = pe.scratch()
    pe.pools(t, 0, ints)
    unseen = ints[: va.VALUES].copy()
    assert (unseen == ints[va.VALUES : 2 * va.VALUES]).all()
    assert unseen.sum() == len(sampler.pool)
    t.reshuffles[0] = 1  # say the draw pile was reshuffled: its values are known
    pe.pools(t, 0, ints)
    pile = np.zeros(va.VALUES, np.int64)
    for card in t.piles[0, kernel.DRAW_PILE, t.draw_top[0] : t.draw_end[0]]:
        pile[card - va.LOWEST] += 1
    assert (ints[va.VALUES : 2 * va.VALUES] == pile).all()
    assert (ints[: va.VALUES] == unseen - pile).all()


def test_playouts_with_the_expected_policy_end_their_rounds() -> None:
    state = _turns(_positions(4, 4))[0]
    sampler = Sampler(observe(state, state.player))
    gen = np.random.Generator(np.random.PCG64(2))
    playouts = Playouts(random.Random(3), EXPECTED)
    t = kernel.new_tables(1, 4)
    for _ in range(5):
        sampler.load(t, 0, sampler.deal(gen))
        playouts.play_out(t, 0)
        assert t.phase[0] in (Phase.ROUND_OVER, Phase.GAME_OVER)


@pytest.mark.parametrize("players", [2, 4])
def test_search_plays_legal_moves_in_every_phase(players: int) -> None:
    """Whole games (a few seeds, until the bot has acted in every phase, with
    and without a card in hand): every action legal."""
    rules = Rules(target_score=40, ender_penalty="always" if players == 4 else "positive")
    every = {(Phase.REVEAL, True), (Phase.TURNS, True), (Phase.TURNS, False)}
    every |= {(Phase.FINAL_TURNS, True), (Phase.FINAL_TURNS, False), (Phase.ROUND_OVER, True)}
    phases: set[tuple[int, bool]] = set()
    for seed in range(11, 31):
        state = new_game(players, seed=seed, rules=rules)
        bots = [SearchBot(seed, **FAST)] + [make_bot("expected", s) for s in range(1, players)]
        while state.phase != Phase.GAME_OVER:
            obs = observe(state, state.player)
            action = bots[state.player].choose(obs)
            assert action in obs.legal_actions
            if state.player == 0:
                phases.add((state.phase, state.held is None))
            state = step(state, action)
        if phases >= every:
            break
    assert phases >= every, every - phases


def test_seeded_search_is_deterministic() -> None:
    states = _turns(_positions(7, 3))[:14]

    def choices(seed: int) -> list[int]:
        bot = SearchBot(seed, **FAST, gap=100.0, calm=1.0)  # search every decision
        return [bot.choose(observe(s, s.player)) for s in states]

    assert choices(3) == choices(3)


def test_search_always_weighs_the_new_expected_choice() -> None:
    """The prior's choice is a candidate, and is played unless beaten clearly."""
    state = [s for s in _turns(_positions(2, 2)) if s.held is not None][3]
    obs = observe(state, state.player)
    bot = SearchBot(1, iterations=40, gap=100.0, confidence=1e9, calm=1.0)
    prior = make_bot("expected", 1)
    assert bot.choose(obs) == prior.choose(obs)
    assert bot.last_values  # it did search


def test_search_searches_only_critical_decisions_by_default() -> None:
    """With `calm=0` (the default) a decision where the round cannot end within
    a turn or two is the prior's, unsearched; a critical one is searched (the
    gap rule aside), and `calm=1` searches the calm ones too."""
    states = [s for s in _turns(_positions(4, 2)) if s.held is not None]
    calm = [s for s in states if not critical(observe(s, s.player))]
    tense = [s for s in states if critical(observe(s, s.player))]
    assert len(calm) > 5 and len(tense) > 5
    for state in calm[:5]:
        obs = observe(state, state.player)
        bot = SearchBot(1, **FAST)
        assert bot.choose(obs) == make_bot("expected", 1).choose(obs)
        assert not bot.last_values
        searching = SearchBot(1, **FAST, calm=1.0)
        searching.choose(obs)
        assert searching.last_values
    for state in tense[:5]:
        bot = SearchBot(1, **FAST)
        bot.choose(observe(state, state.player))
        assert bot.last_values


@pytest.mark.parametrize("calm", [-1.0, True, "x"])
def test_search_refuses_a_bad_calm(calm: object) -> None:
    with pytest.raises(ValueError, match="calm must be a number, 0 or more"):
        SearchBot(1, calm=calm)  # type: ignore[arg-type]


def test_the_prior_s_decision_is_its_choice_and_counts_no_turn() -> None:
    """`ExpectedBot.decision` (what the gap rule reads) gives the action
    `choose` plays, and calling it does not move the bot's turn count."""
    states = _turns(_positions(6, 3))
    assert len(states) > 30
    for state in states[:30]:
        obs = observe(state, state.player)
        watched, played = ExpectedBot(2, patience=3), ExpectedBot(2, patience=3)
        for _ in range(5):  # past its patience: the hurried options
            action, values = watched.decision(obs)
            assert action == played.choose(obs) == watched.choose(obs)
        if obs.held is None:
            assert values[1] < 1e17  # drawing's value


def test_the_cheap_decision_is_the_bot_s_where_no_flip_is_weighed() -> None:
    """At the start of a turn and with a card taken from the discard pile,
    `decide_cheap` chooses as `valuation.decide` (no exact draw expectation)."""
    bot = ExpectedBot(1, exact_draw=0)
    checked = 0
    for state in _turns(_positions(5, 3)):
        obs = observe(state, state.player)
        if obs.source == "deck" and obs.held is not None:
            continue
        args = bot.arguments(obs)
        cheap = pe.decide_cheap(*args, bot.options(), np.zeros(3))
        assert cheap == va.decide(*args, bot.options(), np.zeros(3))
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("players", [2, 4])
def test_search_plays_as_its_prior_until_a_critical_decision(players: int) -> None:
    """Reveals included, the bot's moves are its prior's (`expected` with the
    same seed) at every decision before the first critical one: what makes
    paired games (`research/paired.py`) identical until the search first acts."""
    for seed in (3, 4):
        state = new_game(players, seed=seed)
        search, prior = SearchBot(seed, **FAST), ExpectedBot(seed)
        rivals = [make_bot("expected", seed * 10 + p) for p in range(players)]
        compared = 0
        while True:
            obs = observe(state, state.player)
            if state.player == 0:
                if state.phase != Phase.REVEAL and critical(obs):
                    break
                action = search.choose(obs)
                assert action == prior.choose(obs)
                compared += 1
            else:
                action = rivals[state.player].choose(obs)
            state = step(state, action)
        assert compared > 10


def test_the_full_decision_is_the_bot_s_everywhere() -> None:
    """With `full`, `decide_cheap` chooses as `valuation.decide` at every
    decision, a drawn card's discard-and-flip included (where the cheap one
    may not: its look-ahead after a flip is the grid's as it is now)."""
    bot = ExpectedBot(1)
    drawn = differ = 0
    for state in _turns(_positions(5, 3)):
        obs = observe(state, state.player)
        args = bot.arguments(obs)
        exact = va.decide(*args, bot.options(), np.zeros(3))
        assert pe.decide_cheap(*args, bot.options(), np.zeros(3), True) == exact
        if obs.held is not None and obs.source == "deck":
            drawn += 1
            differ += pe.decide_cheap(*args, bot.options(), np.zeros(3)) != exact
    assert drawn > 20
    assert differ > 0  # the check can tell the two apart


def test_search_s_critical_set_follows_down() -> None:
    """`down` sets how few face-down cards make a decision critical: with
    `down=12` every decision is searched, with the default a calm one is not."""
    states = [s for s in _turns(_positions(4, 2)) if s.held is not None]
    calm = [s for s in states if not critical(observe(s, s.player))]
    assert calm
    obs = observe(calm[0], calm[0].player)
    assert critical(obs, 12) and not critical(obs, 2)
    default, wide = SearchBot(1, **FAST), SearchBot(1, **FAST, down=12)
    default.choose(obs)
    wide.choose(obs)
    assert not default.last_values and wide.last_values


def test_search_searches_the_rounds_that_may_end_the_game_with_late() -> None:
    """With `late=20`, a calm decision is searched once some total is within 20
    points of the target (50 here), and not before; without it, neither is."""
    games = (_turns(_positions(seed, 2)) for seed in (4, 5, 6))
    states = [s for game in games for s in game if s.held is not None]
    calm = [observe(s, s.player) for s in states if not critical(observe(s, s.player))]
    early = [obs for obs in calm if max(obs.totals) < 30]
    near = [obs for obs in calm if max(obs.totals) >= 30]
    assert early and near
    for obs, searched in ((early[0], False), (near[0], True)):
        default, late = SearchBot(1, **FAST), SearchBot(1, **FAST, late=20)
        default.choose(obs)
        late.choose(obs)
        assert not default.last_values
        assert bool(late.last_values) is searched


@pytest.mark.parametrize("late", [-1, 2.5, True, "x"])
def test_search_refuses_a_bad_late(late: object) -> None:
    with pytest.raises(ValueError, match="late must be a whole number of points, 0 or more"):
        SearchBot(1, late=late)  # type: ignore[arg-type]


@pytest.mark.parametrize("down", [-1, 13, 2.5, True, "x"])
def test_search_refuses_a_bad_down(down: object) -> None:
    with pytest.raises(ValueError, match="down must be a whole number from 0 to 12"):
        SearchBot(1, down=down)  # type: ignore[arg-type]


def test_search_with_full_playouts_plays_legal_moves() -> None:
    """`full=1,exact_draw=1` (playouts by the prior's own choice) plays a whole
    game to its end, every move legal (the engine refuses any other)."""
    state = new_game(2, seed=9, rules=Rules(target_score=30))
    bots = [make_bot("search:full=1,exact_draw=1,iterations=30", 1), make_bot("expected", 2)]
    while state.phase != Phase.GAME_OVER:
        state = step(state, bots[state.player].choose(observe(state, state.player)))
    assert max(state.totals) >= 30


def _win_chances(players: int, rows: list[tuple[int, ...]], joint: int) -> list[float]:
    """`Valuer`'s values (seat 0 viewing) of tables with these totals."""
    obs = observe(new_game(players, seed=1), 0)
    t = kernel.new_tables(len(rows), players, players=players)
    for b, totals in enumerate(rows):
        t.totals[b] = totals
    out = np.zeros(len(rows))
    Valuer(obs, joint)(t, np.arange(len(rows)), out)
    return out.tolist()


def test_the_joint_win_chance_shares_the_viewers_own_future() -> None:
    """`joint=1`: a player level with three others has a quarter of the win
    (the pairwise product says an eighth); an uneven table gives the integral
    over the viewer's own normal future (here a fine Riemann sum), each
    player's total with a spread of 16 / sqrt(2) points a round."""
    level = (50, 50, 50, 50)
    assert _win_chances(4, [level], 0)[0] == pytest.approx(0.125, rel=1e-12)
    assert _win_chances(4, [level], 1)[0] == pytest.approx(0.25, abs=1e-6)
    uneven = (60, 45, 70, 80)  # seat 0 views; 20 to go for the leader
    rounds = max(1.0, 0.5 + 20 / (22 + 5 * math.log2(4)))
    each = 16 * math.sqrt(rounds / 2)

    def integrand(z: float) -> float:
        density = math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
        for other in uneven[1:]:
            density *= 0.5 * (1 + math.erf(((other - 60) / each - z) / math.sqrt(2)))
        return density

    step_ = 0.001
    integral = sum(integrand(-10 + i * step_) for i in range(20_001)) * step_
    joint, pairwise = _win_chances(4, [uneven], 1)[0], _win_chances(4, [uneven], 0)[0]
    assert joint == pytest.approx(integral, abs=1e-6)
    assert joint > pairwise + 0.01  # the pairwise product undervalues it


def test_the_joint_win_chance_changes_nothing_at_two_players() -> None:
    rows = [(50, 50), (40, 60), (70, 55), (99, 0)]
    assert _win_chances(2, rows, 1) == _win_chances(2, rows, 0)


@pytest.mark.parametrize("value", [2, -1, 0.5, True])
def test_joint_must_be_0_or_1(value: object) -> None:
    with pytest.raises(ValueError, match=f"joint must be 0 or 1, not {value!r}"):
        SearchBot(1, joint=value)  # type: ignore[arg-type]


def test_search_plays_a_given_prior_where_it_does_not_search() -> None:
    """`prior` replaces the default `expected`: at calm decisions the bot plays
    that prior's moves (here the look-ahead weighed 0, which plays otherwise
    than the default somewhere in these games), and `prior` is the bot given."""
    differ = 0
    for state in _turns(_positions(5, 2)):
        obs = observe(state, state.player)
        if critical(obs) or len(obs.legal_actions) == 1:
            continue
        given = ExpectedBot(5, lookahead=0.0)
        search = SearchBot(5, prior=given, **FAST)
        assert search.prior is given
        action = search.choose(obs)
        assert action == ExpectedBot(5, lookahead=0.0).choose(obs)
        differ += action != ExpectedBot(5).choose(obs)
    assert differ > 0


@pytest.mark.parametrize("prior", [1, "expected", SearchBot(1)])
def test_search_refuses_a_prior_that_is_not_expected(prior: object) -> None:
    with pytest.raises(ValueError, match="prior must be an `expected` bot"):
        SearchBot(1, prior=prior)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="prior"):
        make_bot("search:prior=1", 1)


def test_the_expected_bot_s_options_are_a_copy_of_its_own() -> None:
    bot = ExpectedBot(1, lookahead=0.5, denial=2.0)
    options = bot.options()
    assert options[va.LOOKAHEAD] == 0.5 and options[va.DENIAL] == 2.0
    options[va.LOOKAHEAD] = 9.0
    assert bot.options()[va.LOOKAHEAD] == 0.5
