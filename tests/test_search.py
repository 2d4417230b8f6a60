"""The search bot: sampled worlds (determinize), fast playouts, and the search."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from helpers import deal, empty_draw_pile, reveal_all, with_face_down

from skyjo import kernel
from skyjo.bots import make_bot
from skyjo.bots.counting import pools, unseen_cards
from skyjo.bots.determinize import Sampler, determinize
from skyjo.bots.playout_policy import PolicyBot
from skyjo.bots.search import (
    CRITICAL_DOWN,
    TURNS_PER_OPPONENT,
    SearchBot,
    Valuer,
    critical,
    drawn_placing,
    placements,
)
from skyjo.engine import (
    DRAW,
    FLIP,
    SWAP,
    TAKE_DISCARD,
    Phase,
    State,
    cards_in_play,
    legal_actions,
    new_game,
    step,
)
from skyjo.kernel.playouts import LOWEST_CARD
from skyjo.observation import Observation, observe
from skyjo.rules import DECK, GRID_SIZE, Rules

FAST = {"iterations": 120}  # a small budget: the tests check behaviour, not strength
#: Every decision searched (by default only critical ones, and a turn's start only when
#: its prior hesitates): what the tests of the search itself ask for.
EVERYWHERE = {"calm": 1.0, "gap": 100.0}


def _check_world(obs: Observation, world: State) -> None:
    """`world` is a full state that `obs.viewer` cannot tell from the real one."""
    assert observe(world, obs.viewer) == obs
    assert Counter(cards_in_play(world)) == Counter(DECK)
    assert len(world.draw_pile) - world.draw_top == obs.draw_pile_size
    assert world.discard_pile == obs.discard_pile
    assert world.results == obs.results  # the true past rounds, enders and raw scores
    for seat in range(obs.num_players):
        for k in range(GRID_SIZE):
            if obs.cards[seat][k] is not None:  # face up or cleared: the value seen
                assert world.grids[seat][k] == obs.cards[seat][k]
    if obs.source == "deck":
        assert world.held is not None  # the drawn card is in the drawer's hand
    if obs.draw_pile_known is not None:  # the known cards make the pile and the unseen hand
        pile = list(world.draw_pile[world.draw_top :])
        if obs.source == "deck" and obs.held is None:
            pile.append(world.held)
        assert sorted(pile) == list(obs.draw_pile_known)


def _random_positions(seed: int, num_players: int, every: int = 3) -> list[State]:
    """States met in a whole game where seats play the policy (now and then a
    random legal action), every `every` actions, mid-turn states included."""
    rng = random.Random(seed)
    state = new_game(num_players, seed=seed, rules=Rules(target_score=60))
    bots = [PolicyBot(seed * 10 + i) for i in range(num_players)]
    states = []
    while state.phase != Phase.GAME_OVER:
        if rng.randrange(every) == 0:
            states.append(state)
        if rng.random() < 0.1:
            action = rng.choice(legal_actions(state))
        else:
            action = bots[state.player].choose(observe(state, state.player))
        state = step(state, action)
    states.append(state)
    return states


def _reshuffled_positions(seed: int, num_players: int) -> list[State]:
    """Every state of a round where, after the reveals, each player draws (now
    and then takes the discard) and exchanges the card with one of its two
    face-up cards, which neither clears a column nor ends the round, until the
    draw pile has been reshuffled twice; then the policy plays on to the next
    round. Mid-turn states are included: a drawn card held, seen by its
    drawer only."""
    rng = random.Random(seed)
    state = new_game(num_players, seed=seed, rules=Rules(target_score=500))
    bots = [PolicyBot(seed * 10 + i) for i in range(num_players)]
    states = []
    while state.phase == Phase.REVEAL:
        state = step(state, bots[state.player].choose(observe(state, state.player)))
    while len(state.reshuffles[-1]) < 2 or state.draw_top < 3:
        states.append(state)
        state = step(state, TAKE_DISCARD if rng.random() < 0.1 else DRAW)
        states.append(state)
        up = [k for k in range(GRID_SIZE) if not state.hidden[state.player] >> k & 1]
        state = step(state, SWAP + rng.choice(up))
    while state.round == 0 or state.phase == Phase.REVEAL:
        states.append(state)
        state = step(state, bots[state.player].choose(observe(state, state.player)))
    return [*states, state]


@pytest.mark.parametrize("num_players", range(2, 9))
def test_determinize_is_consistent_with_the_observation(num_players: int) -> None:
    """Worlds sampled at every step of whole games, and of a round whose draw pile
    is reshuffled twice, for every viewer (a spectator included)."""
    rng = random.Random(num_players)
    phases = set()
    kinds = set()
    positions = _random_positions(num_players, num_players, every=3 + num_players)
    reshuffled = [  # every fifth state (mid-turn ones too), and each between rounds
        state
        for i, state in enumerate(_reshuffled_positions(num_players, num_players))
        if i % 5 == 0 or state.phase not in (Phase.TURNS, Phase.FINAL_TURNS)
    ]
    for state in positions + reshuffled:
        phases.add((Phase(state.phase), state.held is not None))
        for viewer in [*range(num_players), None]:
            obs = observe(state, viewer)
            kinds.add((obs.draw_pile_known is not None, obs.source == "deck", obs.held is None))
            _check_world(obs, determinize(obs, rng))
    assert (Phase.TURNS, True) in phases and (Phase.REVEAL, False) in phases
    assert (Phase.ROUND_OVER, False) in phases and (Phase.GAME_OVER, False) in phases
    for known in (False, True):  # before and after a reshuffle: a card drawn, seen or not
        assert {(known, True, True), (known, True, False), (known, False, True)} <= kinds


def test_determinize_after_a_reshuffle_and_with_a_card_drawn() -> None:
    state = reveal_all(new_game(3, seed=11))
    state = empty_draw_pile(state)
    state = step(state, DRAW)  # reshuffles the discard pile
    assert state.reshuffles[-1] and state.held is not None
    rng = random.Random(0)
    for viewer in range(3):
        obs = observe(state, viewer)
        assert (obs.held is None) == (viewer != state.player)
        for _ in range(20):
            world = determinize(obs, rng)
            _check_world(obs, world)
        # the sampled world plays on: a reshuffle inside it works too
        world = empty_draw_pile(step(world, SWAP + 0))
        assert step(world, DRAW).held is not None


def test_determinize_samples_the_unseen_cards_uniformly() -> None:
    state = reveal_all(new_game(2, seed=3))
    obs = observe(state, 0)
    rng = random.Random(1)
    counts: Counter[int] = Counter()
    for _ in range(600):
        counts[determinize(obs, rng).grids[1][11]] += 1  # a face-down card of seat 1
    unseen = Counter(determinize(obs, rng).draw_pile) + Counter(
        v
        for seat in range(2)
        for k, v in enumerate(state.grids[seat])
        if state.hidden[seat] >> k & 1
    )
    total = sum(unseen.values())
    for value, n in unseen.items():  # within a generous margin of the expected count
        expected = 600 * n / total
        assert abs(counts[value] - expected) < 5 * expected**0.5 + 2


def _after_a_reshuffle(num_players: int, drawn: bool, left: int = 6) -> State:
    """A state of `_reshuffled_positions` after the round's first reshuffle,
    with at least `left` cards in the draw pile (exactly none if `left` is 0):
    its player holding a card just drawn, or at the start of a turn."""
    for state in _reshuffled_positions(num_players, num_players):
        size = len(state.draw_pile) - state.draw_top
        enough = size >= left if left else size == 0
        if state.reshuffles[-1] and enough and (state.source == DRAW) == drawn:
            return state
    raise AssertionError("no such state")


def test_after_a_reshuffle_the_pile_and_the_face_down_cards_are_dealt_apart() -> None:
    """Another player's drawn card and the draw pile come from the known pile,
    the face-down cards from the rest of the unseen cards, each uniformly."""
    state = _after_a_reshuffle(3, drawn=True)
    obs = observe(state, (state.player + 1) % 3)
    assert obs.held is None and obs.draw_pile_known is not None
    down, pile = pools(obs)
    assert pile == Counter(obs.draw_pile_known) and down != unseen_cards(obs)
    sampler = Sampler(obs)
    assert sampler.parts == (tuple(sorted(down.elements())), obs.draw_pile_known)
    gen = np.random.Generator(np.random.PCG64(5))
    seat, k = sampler.slots[0]
    counts: Counter[int] = Counter()
    tops: Counter[int] = Counter()
    t = kernel.new_tables(1, 3)
    for _ in range(600):
        cards = sampler.deal(gen)
        sampler.load(t, 0, cards)  # what the search plays out
        held = int(t.held[0])
        assert held != kernel.NO_CARD and t.source[0] == DRAW
        draw_pile = t.draw[0, t.draw_top[0] : t.draw_end[0]].tolist()
        assert sorted([*draw_pile, held]) == list(obs.draw_pile_known)
        assert Counter(int(t.cells[0, s, j]) for s, j in sampler.slots) == down
        counts[int(cards[0])] += 1
        tops[held] += 1
        assert t.cells[0, seat, k] == cards[0]
    for pool, seen in ((down, counts), (pile, tops)):  # a generous margin
        total = sum(pool.values())
        assert set(seen) <= set(pool)
        for value, n in pool.items():
            expected = 600 * n / total
            assert abs(seen[value] - expected) < 5 * expected**0.5 + 2


@pytest.mark.parametrize("reshuffled", [False, True])
def test_a_world_laid_on_a_table_is_its_engine_state(reshuffled: bool) -> None:
    """`Sampler.load` lays on a kernel table the world `Sampler.state` builds
    from the same cards (the kernel's view of both is the same), with no turn
    played yet; another player's unseen drawn card is dealt into the hand."""
    if reshuffled:
        state = _after_a_reshuffle(4, drawn=True)
    else:
        state = _random_positions(4, 4, every=1)[40]
    assert state.phase in (Phase.TURNS, Phase.FINAL_TURNS)
    sampler = Sampler(observe(state, (state.player + 1) % 4))
    assert sampler.deal_held == (state.source == DRAW)
    cards = sampler.deal(np.random.Generator(np.random.PCG64(2)))
    t = kernel.new_tables(3, 4)
    sampler.load(t, 2, cards)
    loaded = kernel.new_tables(1, 4)
    kernel.load_state(loaded, 0, sampler.state(cards, 0))
    expected = kernel.view(loaded, 0)
    assert kernel.view(t, 2) == expected and expected.reshuffles == reshuffled
    assert expected.held is not None or not sampler.deal_held
    assert kernel.view(t, 0).grids == ()  # the other tables are untouched


@pytest.mark.parametrize("empty", [False, True])
def test_after_a_reshuffle_the_search_places_only_cards_it_may_draw(empty: bool) -> None:
    """The prior's placement of a drawn card is asked for the values of the known
    draw pile only; with an empty draw pile, for those of the discard pile but
    its top (a draw reshuffles them)."""
    state = _after_a_reshuffle(3, drawn=False, left=0 if empty else 6)
    obs = observe(state, state.player)
    sampler = Sampler(obs)
    drawable = sorted(set(obs.discard_pile[:-1] if empty else obs.draw_pile_known))
    assert sampler.drawable() == drawable
    for card in drawable:
        world = sampler.drawn(card)
        assert world.held == card and world.source == DRAW
        assert observe(world, obs.viewer).legal_actions == legal_actions(step(state, DRAW))
    placing = drawn_placing(SearchBot(1, **FAST).prior, sampler)
    assert [c + LOWEST_CARD for c in range(len(placing)) if placing[c] >= 0] == drawable


def test_search_plays_legal_actions_through_a_whole_game() -> None:
    for num_players in (2, 4):
        state = new_game(num_players, seed=5, rules=Rules(target_score=40))
        bots = [SearchBot(1, **FAST)] + [
            make_bot("expected", seed) for seed in range(1, num_players)
        ]
        while state.phase != Phase.GAME_OVER:
            obs = observe(state, state.player)
            action = bots[state.player].choose(obs)
            assert action in obs.legal_actions
            state = step(state, action)


def test_search_is_registered() -> None:
    bot = make_bot("search:iterations=50", 3)
    assert isinstance(bot, SearchBot)
    with pytest.raises(ValueError):
        SearchBot(1, iterations=0)


def _choices(seed: int, states: list[State]) -> list[int]:
    bot = SearchBot(seed, **FAST, **EVERYWHERE)
    return [bot.choose(observe(s, s.player)) for s in states]


def test_same_seed_same_choices() -> None:
    states = [
        s for s in _random_positions(7, 3, every=2) if s.phase in (Phase.TURNS, Phase.FINAL_TURNS)
    ][:12]
    assert _choices(3, states) == _choices(3, states)


def test_search_never_reads_hidden_information() -> None:
    """Two states that differ only in face-down cards and the draw pile order
    look the same to the player, and get the same choices."""
    rng = random.Random(4)
    for state in _random_positions(9, 2, every=4)[:40]:
        if state.phase not in (Phase.TURNS, Phase.FINAL_TURNS):
            continue
        obs = observe(state, state.player)
        other = determinize(obs, rng)  # a different deal of the unseen cards
        assert other != state and observe(other, state.player) == obs
        assert _choices(6, [state]) == _choices(6, [other])


# --- crafted positions ------------------------------------------------------------


def test_takes_a_discard_that_completes_a_column() -> None:
    # Seat 0 shows 9 and 9 in column 0 and the discard is a 9: taking it and
    # putting it at [2, 0] (face down) clears the column.
    grids = [
        [[9, 10, 11, 12], [9, 11, 10, 12], [4, 3, 6, 8]],
        [[1, 2, 3, 4], [5, 6, 7, 8], [0, 1, 2, 3]],
    ]
    state = reveal_all(deal(grids, 9, draw=[12, 12, 12]))
    seat0_down = [
        (r, c) for r in range(3) for c in range(4) if (r, c) not in ((0, 0), (0, 1), (1, 0), (1, 1))
    ]
    state = with_face_down(state, [seat0_down, [(1, 0), (2, 3)]])._replace(player=0)
    obs = observe(state, 0)
    assert obs.cards[0][0] == obs.cards[0][4] == 9 and obs.discard_pile[-1] == 9
    bot = SearchBot(2, **FAST)
    assert bot.choose(obs) == TAKE_DISCARD
    taken = step(state, TAKE_DISCARD)
    assert bot.choose(observe(taken, 0)) == SWAP + 8


def test_does_not_end_the_round_to_be_doubled() -> None:
    # Seat 0 has one face-down card left and shows 47 points; seat 1 shows 1
    # point with two face-down cards. Ending the round now doubles seat 0: it
    # rather exchanges a face-up card.
    grids = [
        [[12, 11, 10, 12], [9, 0, 1, 2], [3, 4, -1, 7]],
        [[1, 0, -1, 0], [-2, 1, 0, 2], [0, -1, 1, 5]],
    ]
    state = reveal_all(deal(grids, 8, draw=[6, 6, 6, 6]))
    state = with_face_down(state, [[(2, 3)], [(2, 3), (1, 3)]])
    state = state._replace(player=0)
    bot = SearchBot(5, **FAST)
    obs = observe(state, 0)
    first = bot.choose(obs)
    state = step(state, first)
    action = bot.choose(observe(state, 0))
    ends = (SWAP + 11, FLIP + 11)
    assert action not in ends, (first, action)


def test_placements_offer_one_of_each_kind() -> None:
    state = reveal_all(new_game(2, seed=1))
    obs = observe(state, 0)
    actions = placements(obs, 0, 3, True)
    # two face-up cards in columns 0 and 1; columns 2 and 3 alike (all face down)
    assert sum(SWAP <= a < FLIP for a in actions) >= 2
    assert len([a for a in actions if a >= FLIP]) == 3  # column 0, column 1, columns 2-3
    assert all(a in legal_actions(step(state, DRAW)) for a in actions)


def test_a_time_budget_gives_a_legal_action() -> None:
    state = reveal_all(new_game(2, seed=8))
    obs = observe(state, state.player)
    bot = SearchBot(1, budget=0.02, **EVERYWHERE)
    assert bot.choose(obs) in obs.legal_actions and bot.last_values


def test_a_decision_is_critical_when_the_round_may_end_soon() -> None:
    state = reveal_all(new_game(3, seed=4))  # [0, 0] and [0, 1] face up
    assert not critical(observe(state, 0))  # ten face-down cards each
    three = [(1, 1), (2, 2), (2, 3)]
    down = [(1, 0), (2, 0), (1, 2)][:CRITICAL_DOWN]
    nearly_out = with_face_down(state, [three, down, three])
    for viewer in range(3):  # whoever has few cards left, whoever looks
        assert critical(observe(nearly_out, viewer))
    assert not critical(observe(with_face_down(state, [three] * 3), 0))
    ended = with_face_down(state, [[], three, three])
    ended = ended._replace(ender=0, phase=Phase.FINAL_TURNS, player=1)
    assert critical(observe(ended, 1))


def test_the_budget_goes_to_critical_decisions() -> None:
    calm_state = reveal_all(new_game(2, seed=8))
    critical_state = with_face_down(calm_state, [[(2, 3)], [(1, 1), (2, 1), (2, 2)]])
    playouts = {}
    for name, state in (("calm", calm_state), ("critical", critical_state)):
        drawn = step(state, DRAW)  # a card in hand: searched whatever the prior's values
        bot = SearchBot(1, iterations=200, focus=3.0, calm=0.2)
        bot.choose(observe(drawn, drawn.player))
        playouts[name] = bot.last_stats[1]
    # 600 against 40 playouts asked for; each stage stops once past its share
    assert playouts["critical"] >= 600 > 200 >= playouts["calm"] >= 40, playouts


@pytest.mark.parametrize("players", [2, 4])
def test_the_default_budget_is_900_turns_per_opponent(players: int) -> None:
    """The default search is the one with `turns` set to 900 per opponent, and
    not the one with the 2-player budget at a bigger table."""
    state = reveal_all(new_game(players, seed=3))
    obs = observe(state, state.player)
    stats = {}
    for name, options in (
        ("default", {}),
        ("scaled", {"turns": TURNS_PER_OPPONENT * (players - 1)}),
        ("two", {"turns": TURNS_PER_OPPONENT}),
    ):
        bot = SearchBot(4, **options, **EVERYWHERE)
        bot.choose(obs)
        stats[name] = bot.last_stats
    assert stats["default"] == stats["scaled"]
    assert (stats["default"] == stats["two"]) == (players == 2)


@pytest.mark.parametrize("option", ["focus", "turns", "iterations", "budget"])
@pytest.mark.parametrize("value", [0, -1.5, True, "2.5:calm=0.1"])
def test_budget_options_must_be_positive_numbers(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"{option} must be a positive number, not {value!r}"):
        SearchBot(1, **{option: value})


@pytest.mark.parametrize("value", [-1.5, True, "0.5"])
def test_calm_must_be_a_number_zero_or_more(value: object) -> None:
    """`calm=0` is allowed (the prior plays calm decisions); below it is not."""
    with pytest.raises(ValueError, match=f"calm must be a number, 0 or more, not {value!r}"):
        SearchBot(1, calm=value)  # type: ignore[arg-type]


def test_a_played_out_round_is_valued_for_the_game() -> None:
    """The game over (a total at the target, 100), the viewer's share of the
    lowest total; else its chance to end lowest, each other total's lead
    normal with a spread of 16 points a round over the rounds likely left."""
    obs = observe(reveal_all(new_game(3, seed=1)), 1)
    value = Valuer(obs)
    cases = {  # the totals after the round -> the viewer's (seat 1's) value
        (100, 40, 60): 1.0,
        (40, 40, 100): 0.5,
        (30, 40, 100): 0.0,
        (50, 50, 50): 0.25,
    }
    t = kernel.new_tables(len(cases) + 1, 3, players=3)
    for b, totals in enumerate(cases):
        t.totals[b] = totals
    t.totals[len(cases)] = (70, 60, 80)  # 20 to go for the leader: one round
    out = np.zeros(len(cases) + 1)
    value(t, np.arange(len(cases) + 1), out)
    assert out[: len(cases)].tolist() == list(cases.values())
    rounds = max(1.0, 0.5 + 20 / (22 + 5 * math.log2(3)))
    spread = 16 * math.sqrt(2 * rounds)
    chance = 0.5 * (1 + math.erf(10 / spread)) * 0.5 * (1 + math.erf(20 / spread))
    assert out[-1] == pytest.approx(chance, rel=1e-12) and 0.5 < chance < 1
