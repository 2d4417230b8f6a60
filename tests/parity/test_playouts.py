"""The playouts (`skyjo.kernel.playouts`, the policy of `skyjo.kernel.playout_greedy`)
play the rules of the engine, and play as they did before they ran on the kernel.

- The differential test plays a world to the end of its round twice: in the
  compiled playout (kernel tables, reshuffles by the compiled copy of a
  `random.Random`'s generator), and on the engine, each action the policy's
  choice at the engine's state and each reshuffle `random.Random.shuffle` of
  the discard pile with the same seed; both must end with the same table
  (grids, face-down and cleared cards, piles, totals, the round's raw and
  final scores, its ender), having played the same turns and reshuffles, the
  generators in the same state. Short draw piles force reshuffles, planted
  columns clears at the final reveal; across the examples reshuffles and
  column clears (in turns and at the final reveal) all happen, and at every
  player count under every `ender_penalty`.
- The playouts at 28 seeded positions give what the code before the port
  (its own copy of the rules in `skyjo.bots.fastplay`, and the plain Python reference
  `rollout.Table`) gave: raw scores, ender and turns of every candidate move,
  and the state of the reshuffles' generator afterwards.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyjo import kernel
from skyjo.bots.determinize import Sampler
from skyjo.bots.playout_policy import PolicyBot, policy_action
from skyjo.engine import (
    DRAW,
    FLIP,
    NEXT_ROUND,
    SWAP,
    TAKE_DISCARD,
    Phase,
    State,
    legal_actions,
    new_game,
    reshuffle,
    step,
    step_with_events,
)
from skyjo.kernel import twister
from skyjo.kernel.playout_greedy import DEFAULT_POLICY, Policy, params
from skyjo.kernel.playouts import GREEDY, LOWEST_CARD, Playouts, no_placing
from skyjo.observation import observe
from skyjo.rules import COLS, COLUMNS, ENDER_PENALTIES, GRID_SIZE, MAX_PLAYERS, ROWS, Rules
from skyjo.scoring import round_scores, score_grid

_IN_TURNS = (Phase.TURNS, Phase.FINAL_TURNS)


def position(seed: int, players: int, moves: int, penalty: str, short: int) -> State:
    """A state of the turns of a round: `moves` random legal actions into a game
    (fewer if the round would end), then its draw pile cut to its `short` top
    cards (when `short`), the rest put under the discard pile."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed, rules=Rules(ender_penalty=penalty))
    for _ in range(moves):
        after = step(state, rng.choice(legal_actions(state)))
        if after.phase not in (Phase.REVEAL, *_IN_TURNS):
            break
        state = after
    while state.phase == Phase.REVEAL:
        state = step(state, rng.choice(legal_actions(state)))
    if short:
        pile = state.draw_pile[state.draw_top :]
        below = (*reversed(pile[short:]), *state.discard_pile)
        state = state._replace(draw_pile=pile[:short], draw_top=0, discard_pile=below)
    return state


def world_of(state: State, seed: int) -> tuple[Sampler, np.ndarray]:
    """The sampler of the player to act's view, and a world dealt from it."""
    sampler = Sampler(observe(state, state.player))
    return sampler, sampler.deal(np.random.Generator(np.random.PCG64(seed)))


# --- the differential test against the engine ---------------------------------------


def shuffled_order(state: State, rng: random.Random) -> list[int]:
    """The new draw pile, top first, that a playout's reshuffle makes from `rng`:
    the discard pile but its top, bottom first, shuffled; its last card on top."""
    pile = list(state.discard_pile[:-1])
    rng.shuffle(pile)
    return pile[::-1]


class EnginePlayout:
    """A playout on the engine: the policy's choice at each state, reshuffles in
    the order `shuffled_order` gives; counts reshuffles, turns and clears."""

    def __init__(self, state: State, rng: random.Random, policy: Policy) -> None:
        self.state, self.rng, self.policy = state, rng, policy
        self.seen: Counter[str] = Counter()
        self.turns = 0

    def act(self, action: int) -> None:
        state = self.state
        if action == DRAW and state.draw_top == len(state.draw_pile):
            state = reshuffle(state, shuffled_order(state, self.rng))
            self.seen["reshuffles"] += 1
        self.state, events = step_with_events(state, action)
        kinds = [e.kind for e in events]
        for i, kind in enumerate(kinds):
            if kind == "column_cleared":
                turn = kinds[i - 1] in ("exchanged", "flipped")
                self.seen["clears" if turn else "final_clears"] += 1
        if SWAP <= action < NEXT_ROUND:
            self.turns += 1

    def choice(self) -> int:
        return policy_action(self.state, self.policy, turns=self.turns)

    def first_move(self, move: tuple[int, int], placing: np.ndarray) -> None:
        """`playouts.first_move` on the engine."""
        action, arg = move
        if action == DRAW:
            self.act(DRAW)
            held = self.state.held
            assert held is not None
            placed = int(placing[held - LOWEST_CARD])
            self.act(self.choice() if placed < 0 else placed)
        elif action == TAKE_DISCARD:
            self.act(TAKE_DISCARD)
            self.act(arg)
        else:
            self.act(action)

    def play_out(self) -> None:
        while self.state.phase in _IN_TURNS:
            self.act(self.choice())


def _compared(view: kernel.TableView) -> kernel.TableView:
    """A view without its count of turns: a playout counts from its start, the
    engine from the round's (compared apart)."""
    return view._replace(turns=0)


def planted(state: State) -> State:
    """`state` near its round's end, with columns that clear at the final
    reveal: the player before the one to act has ended the round (every card
    face up), and every other seat's last column holds three equal cards, the
    bottom one face down (the value of its top card; the deck's counts are not
    kept, which neither the engine nor the kernel minds)."""
    n, p = state.num_players, state.player
    ender = (p - 1) % n
    grids = [list(grid) for grid in state.grids]
    hidden = list(state.hidden)
    top, middle, bottom = COLUMNS[-1]
    for seat in range(n):
        if seat == ender:
            hidden[seat] = 0
        elif not state.cleared[seat] >> top & 1:
            grids[seat][middle] = grids[seat][bottom] = grids[seat][top]
            hidden[seat] = hidden[seat] & ~(1 << top | 1 << middle) | 1 << bottom
    return state._replace(grids=grids, hidden=hidden, ender=ender, phase=int(Phase.FINAL_TURNS))


def check_playout(
    state: State,
    seed: int,
    move: tuple[int, int] | None,
    placing: np.ndarray,
    policy: Policy = DEFAULT_POLICY,
    sample: bool = True,
) -> Counter[str]:
    """Play a world of `state` out in the kernel and on the engine (see the
    module): one sampled from the player to act's view (as `Sampler.load` lays
    it for the search, which is the engine state `Sampler.state` loaded), or
    `state` itself; what the engine's playout went through."""
    n = state.num_players
    t = kernel.new_tables(2, MAX_PLAYERS)
    if sample:
        sampler, cards = world_of(state, seed)
        world = sampler.state(cards, key=0)
        sampler.load(t, 1, cards)  # the playout's table, as the search lays it
        loaded = kernel.new_tables(1, MAX_PLAYERS)
        kernel.load_state(loaded, 0, world)
        assert kernel.view(t, 1) == _compared(kernel.view(loaded, 0))
    else:
        world = state
        kernel.load_state(t, 1, world)
        t.turns[1] = 0
    reshuffled = int(t.reshuffles[1])
    playouts = Playouts(random.Random(seed), GREEDY, params(policy))
    engine = EnginePlayout(world, random.Random(seed), policy)
    if move is None:
        playouts.play_out(t, 1)
    else:
        playouts.play_move(t, 1, move, placing)
        engine.first_move(move, placing)
    engine.play_out()
    end = engine.state
    assert end.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    assert _compared(kernel.view(t, 1)) == _compared(kernel.engine_view(end))
    assert int(t.turns[1]) == engine.turns
    assert int(t.reshuffles[1]) == reshuffled + engine.seen["reshuffles"]
    assert playouts.rng.getstate() == engine.rng.getstate()
    result = end.results[-1]
    assert (t.raw[1, :n].tolist(), t.scores[1, :n].tolist()) == (
        list(result.raw),
        list(result.scores),
    )
    assert int(t.ender[1]) == result.ender
    assert kernel.view(t, 0) == kernel.view(kernel.new_tables(1, MAX_PLAYERS), 0)  # untouched
    return engine.seen + Counter(rounds=1, doubled=result.doubled)


def first_moves(state: State) -> list[tuple[int, int]]:
    """The moves `first_move` plays from `state`: a placement of the card held,
    or a draw, or taking the discard to exchange it at any open position."""
    if state.held is not None:
        return [(a, 0) for a in legal_actions(state)]
    taken = step(state, TAKE_DISCARD)
    return [(DRAW, 0)] + [(TAKE_DISCARD, a) for a in legal_actions(taken)]


def test_playouts_play_as_the_engine() -> None:
    """Random worlds (sampled, or a state itself planted with columns that clear
    at the final reveal), played out from a first move or from the start of a
    turn, with a random `placing` of drawn cards: the same end as on the engine
    (see the module); across the examples, reshuffles, column clears in turns
    and at the final reveal, and doubled enders all happen."""
    seen: Counter[str] = Counter()

    @settings(max_examples=160, deadline=None)
    @given(
        seed=st.integers(0, 2**32),
        players=st.integers(2, MAX_PLAYERS),
        moves=st.integers(0, 100),
        penalty=st.sampled_from(ENDER_PENALTIES),
        short=st.sampled_from((0, 0, 1, 3, 6)),
        plant=st.booleans(),
        data=st.data(),
    )
    def check(
        seed: int,
        players: int,
        moves: int,
        penalty: str,
        short: int,
        plant: bool,
        data: st.DataObject,
    ) -> None:
        state = position(seed, players, moves, penalty, short)
        if plant:
            state = planted(state)
        move = data.draw(st.none() | st.sampled_from(first_moves(state)))
        placing = no_placing()
        if move is not None and move[0] == DRAW:
            places = [
                SWAP + k for k in range(GRID_SIZE) if not state.cleared[state.player] >> k & 1
            ]
            places += [FLIP + k for k in range(GRID_SIZE) if state.hidden[state.player] >> k & 1]
            for c in range(len(placing)):
                placing[c] = data.draw(st.sampled_from([-1, *places]))
        seen.update(check_playout(state, seed, move, placing, sample=not plant))

    check()
    for what in ("reshuffles", "clears", "final_clears", "doubled"):
        assert seen[what] > 0, (what, seen)


@pytest.mark.parametrize("penalty", ENDER_PENALTIES)
@pytest.mark.parametrize("players", range(2, MAX_PLAYERS + 1))
def test_every_player_count_and_variant_plays_as_the_engine(players: int, penalty: str) -> None:
    """Sampled worlds with short draw piles and planted states, at every table
    size and under every variant: reshuffles and column clears happen, and the
    playouts end as on the engine."""
    seen: Counter[str] = Counter()
    for seed in range(6):
        state = position(seed, players, 2 * seed * players, penalty, short=(1, 3)[seed % 2])
        seen.update(check_playout(state, seed, None, no_placing()))
        seen.update(check_playout(planted(state), seed, None, no_placing(), sample=False))
    for what in ("reshuffles", "clears", "final_clears"):
        assert seen[what] > 0, (what, seen)


def test_a_playout_that_never_ends_is_stopped() -> None:
    """After `give_up` turns a player the round is scored as it lies, with the
    player to act as the ender (RULES.md 2.9, 2.10): two turns each here, too
    few to end a round, played as the engine plays them."""
    for seed, players in ((1, 2), (2, 4), (3, 8)):
        state = position(seed, players, 0, "always", 0)  # just after the reveals
        sampler, cards = world_of(state, seed)
        t = kernel.new_tables(1, players)
        sampler.load(t, 0, cards)
        Playouts(random.Random(seed), give_up=2).play_out(t, 0)
        engine = EnginePlayout(sampler.state(cards, key=0), random.Random(seed), DEFAULT_POLICY)
        while engine.turns < 2 * players:
            engine.act(engine.choice())
        end = engine.state
        assert end.phase == Phase.TURNS and int(t.turns[0]) == 2 * players
        assert int(t.ender[0]) == end.player == state.player
        assert t.phase[0] in (Phase.ROUND_OVER, Phase.GAME_OVER)
        assert t.cells[0, :players].tolist() == [list(grid) for grid in end.grids]
        raw = []
        for seat in range(players):
            cleared = end.cleared[seat]
            cards_ = [None if cleared >> k & 1 else end.grids[seat][k] for k in range(GRID_SIZE)]
            rows = [cards_[r * COLS : (r + 1) * COLS] for r in range(ROWS)]
            raw.append(score_grid(rows).total)
        assert t.raw[0, :players].tolist() == raw
        scores, doubled = round_scores(raw, end.player, "always")
        assert (t.scores[0, :players].tolist(), bool(t.doubled[0])) == (scores, doubled)


def test_playouts_from_copies_are_playouts_of_each_copy() -> None:
    """`play_copies` (the benchmarks' playouts of one position) plays what
    copying the table and `play_out` play, one after the other, with the same
    generator: the same turns and the same points, summed."""
    state = position(4, 3, 30, "positive", 0)
    sampler, cards = world_of(state, 4)
    world, t = kernel.new_tables(1, 3), kernel.new_tables(1, 3)
    sampler.load(world, 0, cards)
    world.turns[0] = 0
    one_by_one = Playouts(random.Random(9))
    turns = points = 0
    for _ in range(5):
        kernel.copy_table(world, 0, t, 0)
        one_by_one.play_out(t, 0)
        turns += int(t.turns[0])
        points += int((t.totals[0, :3] - world.totals[0, :3]).sum())
    together = Playouts(random.Random(9))
    assert together.play_copies(world, t, 5) == (turns, points)
    assert together.rng.getstate() == one_by_one.rng.getstate()
    assert turns > 5  # the playouts played turns, and scored (a round's end)
    assert points != 0


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**64),
    size=st.integers(0, 150),
    advance=st.integers(0, 700),
)
def test_the_compiled_shuffle_is_random_shuffle(seed: int, size: int, advance: int) -> None:
    """The reshuffles' generator shuffles as `random.Random.shuffle`, from any
    state (`advance` draws into it, across the twists of its 624 words), and
    leaves the generator where `random.Random` leaves it."""
    rng = random.Random(seed)
    for _ in range(advance):
        rng.getrandbits(1 + advance % 32)
    mt = twister.generator(rng)
    assert twister.as_random(mt).getstate() == rng.getstate()
    values = list(range(size))
    compiled = np.array(values, dtype=np.int64)
    twister.shuffle(mt, compiled)
    rng.shuffle(values)
    assert compiled.tolist() == values
    assert twister.as_random(mt).getstate() == rng.getstate()


def test_an_unknown_policy_is_refused() -> None:
    state = position(1, 2, 0, "positive", 0)
    sampler, cards = world_of(state, 1)
    t = kernel.new_tables(1, 2)
    sampler.load(t, 0, cards)
    with pytest.raises(ValueError, match="unknown playout policy"):
        Playouts(random.Random(1), policy=99).play_out(t, 0)  # no policy has code 99


# --- the policy -----------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, MAX_PLAYERS),
    moves=st.integers(0, 100),
    knobs=st.none() | st.tuples(*(st.floats(-4, 8, allow_nan=False) for _ in range(7))),
)
def test_the_policy_reads_only_what_its_player_sees(
    seed: int, players: int, moves: int, knobs: tuple[float, ...] | None
) -> None:
    """Two worlds of one observation (other face-down cards, another draw pile)
    get the same choice, at the start of a turn and with a card in hand."""
    state = position(seed, players, moves, "positive", 0)
    policy = DEFAULT_POLICY if knobs is None else Policy(*knobs)
    prm = params(policy)
    sampler = Sampler(observe(state, state.player))
    gen = np.random.Generator(np.random.PCG64(seed))
    t = kernel.new_tables(2, players)
    playouts = Playouts(random.Random(seed), GREEDY, prm)
    choices = []
    for b in range(2):
        sampler.load(t, b, sampler.deal(gen))
        choices.append(playouts.action(t, b))
    assert choices[0] == choices[1]
    assert choices[0] in legal_actions(state)


def test_the_policy_bot_plays_legal_actions_through_whole_games() -> None:
    for players in (2, 5, 8):
        state = new_game(players, seed=players)
        bots = [PolicyBot(seed) for seed in range(players)]
        while state.phase != Phase.GAME_OVER:
            obs = observe(state, state.player)
            action = bots[state.player].choose(obs)
            assert action in obs.legal_actions
            state = step(state, action)


def test_the_policy_takes_a_discard_that_clears_a_column() -> None:
    """Two face-up 9s over a face-down card and a 9 on the discard pile: take
    it and put it on the face-down card (the column clears)."""
    state = position(3, 2, 0, "positive", 0)
    p = state.player
    grid = list(state.grids[p])
    grid[0], grid[4] = 9, 9  # column 0: 9, 9, face down
    grids = [grid if seat == p else list(g) for seat, g in enumerate(state.grids)]
    hidden = [h & ~0b10001 | 1 << 8 if seat == p else h for seat, h in enumerate(state.hidden)]
    state = state._replace(grids=grids, hidden=hidden, discard_pile=(*state.discard_pile, 9))
    assert policy_action(state) == TAKE_DISCARD
    assert policy_action(step(state, TAKE_DISCARD)) == SWAP + 8


# --- as before the port -----------------------------------------------------------------


def golden_moves(state: State) -> list[tuple[int, int]]:
    """The candidate moves of a golden case: every fifth placement of a card in
    hand; else a draw and taking the discard to exchange it at the first
    face-up and at the first face-down position."""
    if state.held is not None:
        return [(a, 0) for a in legal_actions(state)][::5]
    p = state.player
    up = [k for k in range(GRID_SIZE) if not (state.hidden[p] | state.cleared[p]) >> k & 1]
    down = [k for k in range(GRID_SIZE) if state.hidden[p] >> k & 1]
    return [(DRAW, 0)] + [(TAKE_DISCARD, SWAP + k) for k in up[:1] + down[:1]]


#: Knobs of an odd policy, for the golden cases that name it.
ODD_POLICY = Policy(5.0, 2.0, 1.0, 2.0, 1.0, 1.0, 3.0)

#: (seed, players, moves, penalty, short, odd policy) -> per candidate (raw
#: scores, ender, turns), then `rng.getrandbits(32)` after the playouts: what
#: the code before the port gave (commit 5723bdb, `fastplay.play_move` and
#: `Table.play_out_reference`, which agreed).
BEFORE_THE_PORT = {
    (1000, 2, 0, "positive", 0, False): (
        (((17, 9), 1, 31), ((20, 2), 1, 31), ((20, 2), 1, 31)),
        3338721356,
    ),
    (1001, 3, 13, "always", 2, False): (
        (
            ((9, 15, 16), 0, 40),
            ((6, 27, 20), 0, 34),
            ((13, 11, 12), 2, 36),
            ((3, 16, 18), 0, 43),
            ((10, 7, 8), 0, 46),
        ),
        2697837316,
    ),
    (1002, 4, 26, "none", 5, False): (
        (((19, 12, 6, 32), 0, 52), ((35, 41, 17, 27), 0, 44), ((14, 14, 17, 35), 0, 48)),
        4089927658,
    ),
    (1003, 5, 39, "positive", 0, False): (
        (((2, 2, 17, 23, 15), 0, 72), ((20, 8, 26, 41, 14), 1, 58), ((20, 8, 26, 35, 24), 1, 58)),
        2136065134,
    ),
    (1004, 6, 52, "always", 0, True): (
        (
            ((21, 28, 41, 18, 15, 19), 5, 67),
            ((22, 26, 27, 17, 12, 35), 4, 66),
            ((23, 26, 26, 36, 12, 21), 4, 66),
        ),
        1808717700,
    ),
    (1005, 7, 65, "none", 5, False): (
        (
            ((18, 49, 28, 21, 35, 17, 27), 6, 65),
            ((8, 33, 42, 19, 28, 29, 17), 0, 66),
            ((20, 26, 34, 20, 39, 36, 27), 0, 73),
            ((1, 36, 22, 36, 30, 41, 27), 0, 73),
        ),
        3327830903,
    ),
    (1006, 8, 8, "positive", 0, False): (
        (
            ((12, 3, 49, 17, 29, 53, 32, 26), 1, 121),
            ((28, 30, 33, 33, 17, 22, 26, 20), 1, 249),
            ((22, 29, 18, 27, 27, 34, 27, 26), 2, 202),
        ),
        3501375534,
    ),
    (1007, 2, 21, "always", 2, False): (
        (((19, 33), 0, 18), ((8, 4), 1, 19), ((13, 24), 0, 26), ((4, 14), 0, 30)),
        3061482889,
    ),
    (1008, 3, 34, "none", 0, False): (
        (((29, 32, 31), 0, 31), ((27, 25, 36), 0, 34), ((13, 32, 12), 0, 37)),
        2232626309,
    ),
    (1009, 4, 47, "positive", 0, True): (
        (((5, 40, 22, 20), 0, 49), ((23, 19, 23, 11), 3, 60), ((18, 27, 17, 18), 0, 57)),
        773920557,
    ),
    (1010, 5, 60, "always", 2, False): (
        (((18, 17, 29, 5, 15), 3, 66), ((29, 24, 2, 14, 27), 2, 65), ((30, 3, 12, 14, 19), 2, 85)),
        3853605432,
    ),
    (1011, 6, 3, "none", 5, False): (
        (
            ((24, 11, 13, 10, 37, 43), 3, 84),
            ((26, 9, 14, 29, 40, 20), 3, 84),
            ((19, 34, 30, 22, 33, 29), 0, 75),
        ),
        4271057945,
    ),
    (1012, 7, 16, "positive", 0, False): (
        (
            ((10, 30, 32, 13, 16, 31, 7), 6, 98),
            ((11, 38, 17, 20, 22, 13, 10), 0, 127),
            ((26, 30, 20, 13, -1, 20, 12), 4, 117),
        ),
        796421123,
    ),
    (1013, 8, 29, "always", 2, False): (
        (
            ((32, 21, 29, 20, 18, 24, 6, 12), 6, 111),
            ((40, 20, 24, 23, 20, 35, 8, 26), 6, 103),
            ((36, 29, 26, 20, 13, 35, 19, 10), 1, 250),
            ((48, 12, 25, 37, -2, 42, 28, 11), 4, 133),
            ((25, 26, 19, 21, 12, 32, 32, 11), 0, 249),
        ),
        2400825574,
    ),
    (1014, 2, 42, "none", 5, True): (
        (((64, 43), 0, 3), ((53, 42), 0, 5), ((52, 43), 0, 5)),
        2214230950,
    ),
    (1015, 3, 55, "positive", 0, False): (
        (((18, 17, 6), 2, 35), ((12, 7, 21), 1, 31), ((24, 16, 15), 1, 40)),
        445646667,
    ),
    (1016, 4, 68, "always", 0, False): (
        (((14, 19, 9, -2), 3, 77), ((27, 8, 28, 26), 1, 55), ((30, 8, 20, 24), 1, 59)),
        1566947659,
    ),
    (1017, 5, 11, "none", 5, False): (
        (
            ((34, 30, 37, 11, 14), 4, 66),
            ((44, 33, 25, 22, 9), 4, 61),
            ((27, 13, 29, 15, 13), 4, 76),
            ((32, 26, 17, 19, 14), 4, 71),
            ((14, 0, 13, 25, 10), 0, 67),
        ),
        1390106280,
    ),
    (1018, 6, 24, "positive", 0, False): (
        (
            ((25, 8, 19, 13, 17, 11), 5, 188),
            ((28, 2, 12, 14, 13, 27), 4, 85),
            ((16, 1, 9, 15, 12, 12), 1, 124),
        ),
        377578050,
    ),
    (1019, 7, 37, "always", 2, True): (
        (
            ((22, 50, 22, 9, 10, 3, 36), 5, 78),
            ((19, 47, 33, 18, 18, 23, 45), 3, 76),
            ((22, 35, 24, 14, 16, 18, 37), 3, 83),
        ),
        3486308952,
    ),
    (1020, 8, 50, "none", 0, False): (
        (
            ((42, 13, 34, 41, 18, 41, 29, 25), 6, 88),
            ((67, 13, 44, 46, 13, 42, 39, 24), 4, 70),
            ((63, 16, 43, 46, 7, 46, 33, 24), 4, 78),
        ),
        3119291642,
    ),
    (1021, 2, 63, "positive", 0, False): (
        (((48, 42), 1, 14), ((48, 42), 1, 14), ((46, 44), 1, 14)),
        2281139279,
    ),
    (1022, 3, 6, "always", 2, False): (
        (((27, 24, 31), 0, 34), ((19, 12, 40), 0, 34), ((13, 2, 18), 1, 56)),
        1190298165,
    ),
    (1023, 4, 19, "none", 5, False): (
        (
            ((25, 7, 6, 34), 1, 48),
            ((5, 13, 4, 20), 1, 56),
            ((40, 8, 8, 25), 1, 48),
            ((26, 10, 13, 29), 1, 44),
            ((52, 14, 9, 26), 1, 44),
        ),
        402541868,
    ),
    (1024, 5, 32, "positive", 0, True): (
        (((15, 48, 13, 20, 3), 4, 61), ((12, 15, 32, 19, 2), 4, 61), ((26, 44, 42, 23, 14), 4, 46)),
        3423310448,
    ),
    (1025, 6, 45, "always", 2, False): (
        (
            ((34, 0, 14, 22, 23, 26), 1, 99),
            ((37, 1, 32, 28, 14, 14), 1, 69),
            ((39, 15, 26, 39, -2, 21), 4, 66),
            ((8, 17, 18, 47, 20, 17), 0, 80),
        ),
        3353437027,
    ),
    (1026, 7, 58, "none", 5, False): (
        (
            ((28, 27, 35, 8, 20, 36, 17), 6, 72),
            ((22, 26, 20, 13, 19, 0, 23), 5, 92),
            ((21, 38, 35, 16, 21, 4, 22), 1, 88),
        ),
        3218484159,
    ),
    (1027, 8, 1, "positive", 0, False): (
        (
            ((16, 20, 12, 21, 36, 39, 23, 25), 2, 160),
            ((26, 32, 30, 22, 34, 32, 19, 30), 6, 100),
            ((13, 32, 44, 22, 50, 47, 40, 16), 7, 93),
        ),
        1123041259,
    ),
}


def test_playouts_play_as_before_the_port() -> None:
    """The seeded playouts of `BEFORE_THE_PORT`, reshuffles included (18 of the
    28 cases reshuffle), played by `Playouts.play_moves` as the search plays
    them: one table per candidate, each a copy of one world."""
    for case, (expected, bits) in BEFORE_THE_PORT.items():
        seed, players, moves, penalty, short, odd = case
        state = position(seed, players, moves, penalty, short)
        sampler, cards = world_of(state, seed)
        candidates = golden_moves(state)
        world, tables = kernel.new_tables(1, players), kernel.new_tables(len(candidates), players)
        sampler.load(world, 0, cards)
        playouts = Playouts(
            random.Random(seed), GREEDY, params(ODD_POLICY if odd else DEFAULT_POLICY)
        )
        actions = np.array([a for a, _ in candidates])
        args = np.array([arg for _, arg in candidates])
        order = np.arange(len(candidates))
        playouts.play_moves(world, tables, order, actions, args, no_placing())
        got = tuple(
            (tuple(tables.raw[b, :players].tolist()), int(tables.ender[b]), int(tables.turns[b]))
            for b in order
        )
        assert (got, playouts.rng.getrandbits(32)) == (expected, bits), case
