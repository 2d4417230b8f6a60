"""The compiled valuation (skyjo.kernel.valuation) on hand-built grids, against
brute force: every ordering of a small pool's cards into the face-down places
of a column, scored as RULES.md 2.9 scores it."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import numpy as np
import pytest

from skyjo.bots.expected import ExpectedBot, table
from skyjo.engine import Phase, new_game, step
from skyjo.kernel import valuation as va
from skyjo.observation import observe
from skyjo.rules import GRID_SIZE

#: A small pool: four 3s, two 5s, one 7, three 10s (ten cards).
POOL = [3, 3, 3, 3, 5, 5, 7, 10, 10, 10]


def counts(cards: Sequence[int]) -> np.ndarray:
    out = np.zeros(va.VALUES, np.int64)
    for card in cards:
        out[card - va.LOWEST] += 1
    return out


def score(a: int, b: int, c: int) -> int:
    """A column's final score: three equal cards clear (RULES.md 2.6, 2.9)."""
    return 0 if a == b == c else a + b + c


def brute(column: Sequence[int | None], pool: Sequence[int]) -> float:
    """The exact expected score of a column whose None cells are dealt from
    `pool` without replacement, every ordering equally likely."""
    down = [i for i, v in enumerate(column) if v is None]
    total, count = 0.0, 0
    for chosen in itertools.permutations(range(len(pool)), len(down)):
        cells = list(column)
        for i, j in zip(down, chosen, strict=True):
            cells[i] = pool[j]
        total += score(*cells)  # type: ignore[arg-type]
        count += 1
    return total / count


def value(
    column: Sequence[int | None], pool: Sequence[int], bias: float = 0.0, clears: float = 1.0
):
    cards = [0 if v is None else v for v in column]
    ups = [0 if v is None else 1 for v in column]
    return va.column_value(*cards, *ups, va.pool_vector(counts(pool)), bias, clears)


def test_the_pool_vector_holds_exact_chances_without_replacement() -> None:
    pool = va.pool_vector(counts(POOL))
    three = 3 - va.LOWEST
    assert pool[va.P1 + three] == pytest.approx(4 / 10)
    assert pool[va.P2 + three] == pytest.approx(4 * 3 / (10 * 9))
    assert pool[va.P3 + three] == pytest.approx(4 * 3 * 2 / (10 * 9 * 8))
    assert pool[va.P2 + 7 - va.LOWEST] == 0.0  # a single 7 cannot come twice
    assert pool[va.MU] == pytest.approx(sum(POOL) / 10)
    assert pool[va.VAR] == pytest.approx(float(np.var(POOL)))
    assert not va.pool_vector(np.zeros(va.VALUES, np.int64)).any()


@pytest.mark.parametrize(
    "column",
    [
        (3, 3, None),  # a pair over a face-down card: clears with the chance of a 3
        (None, 10, 10),
        (10, None, 10),
        (3, 5, None),  # no pair: nothing clears
        (7, None, None),  # one card over two face-down ones: chance of two 7s, here 0
        (None, 3, None),  # ... of two 3s: 4/10 * 3/9, about (4/10) squared
        (None, None, 10),
        (None, None, None),  # three face-down cards: the chance of three equal
        (5, 5, 5),
        (5, 7, 5),
    ],
)
def test_a_column_is_worth_its_exact_expected_score(column: tuple[int | None, ...]) -> None:
    assert value(column, POOL) == pytest.approx(brute(column, POOL))


def test_the_clear_chances_are_the_chance_and_the_chance_without_replacement_squared() -> None:
    mu = sum(POOL) / 10
    assert value((10, 10, None), POOL) == pytest.approx(20 + mu - 30 * 3 / 10)
    assert value((3, None, None), POOL) == pytest.approx(3 + 2 * mu - 9 * (4 / 10) * (3 / 9))
    # with clears off a face-down card is just the mean, a pair just its cards
    assert value((10, 10, None), POOL, clears=0) == pytest.approx(20 + mu)
    assert value((3, None, None), POOL, clears=0) == pytest.approx(3 + 2 * mu)
    # the bias is added once per face-down card
    assert value((3, None, None), POOL, bias=1.5) == pytest.approx(value((3, None, None), POOL) + 3)


def grid_arrays(rows: Sequence[Sequence[int | str | None]], junk: int = 0):
    """cells, hidden, cleared of a grid drawn as rows (None face down, "x"
    cleared); face-down cells hold `junk`, which must never be read."""
    cells = np.zeros(GRID_SIZE, np.int64)
    hidden = cleared = 0
    for k, cell in enumerate(c for row in rows for c in row):
        if cell is None:
            hidden |= 1 << k
            cells[k] = junk
        elif cell == "x":
            cleared |= 1 << k
            cells[k] = 4
        else:
            cells[k] = cell
    return cells, hidden, cleared


GRID = [[10, 3, "x", None], [10, None, "x", 12], [None, None, "x", -2]]


def static(rows: Sequence[Sequence[int | str | None]], pool: Sequence[int]) -> float:
    """The grid's expected score by brute force, column by column."""
    total = 0.0
    for col in range(4):
        column = [rows[r][col] for r in range(3)]
        if "x" not in column:
            total += brute(column, pool)  # type: ignore[arg-type]
    return total


def test_a_grid_is_worth_the_sum_of_its_columns_never_reading_a_face_down_card() -> None:
    pool = va.pool_vector(counts(POOL))
    values = {
        va.grid_value(*grid_arrays(GRID, junk), pool, pool, 0.0, 0.0, 1.0) for junk in (-2, 5, 12)
    }
    assert len(values) == 1
    assert values.pop() == pytest.approx(static(GRID, POOL))  # the cleared column counts 0


def test_the_look_ahead_is_what_the_next_card_is_expected_to_save() -> None:
    """For each card of the draw pool, the best exchange anywhere (each valued
    by brute force), or nothing when every exchange loses."""
    draw = [-2, 0, 3, 3, 11, 12]
    before = static(GRID, POOL)
    saved = 0.0
    for card in draw:
        best = 0.0
        for r, c in itertools.product(range(3), range(4)):
            if GRID[r][c] == "x":
                continue
            rows = [list(row) for row in GRID]
            rows[r][c] = card
            best = max(best, before - static(rows, POOL))
        saved += best / len(draw)
    assert saved > 0
    cells, hidden, cleared = grid_arrays(GRID)
    down, drawn = va.pool_vector(counts(POOL)), va.pool_vector(counts(draw))
    for weight in (1.0, 0.5):
        got = va.grid_value(cells, hidden, cleared, down, drawn, weight, 0.0, 1.0)
        assert got == pytest.approx(before - weight * saved)


def test_with_the_look_ahead_turning_a_card_up_is_worth_something() -> None:
    """Without clears and look-ahead a flip changes nothing on average (the
    turned card is worth the mean either way); the look-ahead makes the grid
    with one more known card better on average, as the next card then has a
    surer place."""
    rows = [[10, None, None, None], [None, None, None, 4], [None, None, None, None]]
    cells, hidden, cleared = grid_arrays(rows)
    pool = va.pool_vector(counts(POOL))
    k = 1  # [0, 1]
    for weight, clears in ((0.0, 0.0), (1.0, 1.0)):
        now = va.grid_value(cells, hidden, cleared, pool, pool, weight, 0.0, clears)
        flipped = 0.0
        for card in POOL:
            turned = cells.copy()
            turned[k] = card
            flipped += va.grid_value(
                turned, hidden & ~(1 << k), cleared, pool, pool, weight, 0.0, clears
            )
        flipped /= len(POOL)
        if weight == 0.0:
            assert flipped == pytest.approx(now)
        else:
            assert flipped < now - 0.05


def test_a_choice_never_depends_on_face_down_cells() -> None:
    """Given a table whose face-down cells hold the true cards (as a kernel
    table does) or zeros (as an observation gives), the choice is the same."""
    bot = ExpectedBot(1)
    rng = random.Random(3)
    state = new_game(3, seed=9)
    compared = 0
    while state.phase != Phase.GAME_OVER and compared < 150:
        obs = observe(state, state.player)
        if state.phase in (Phase.TURNS, Phase.FINAL_TURNS):
            arguments = bot.arguments(obs)
            cells, _, _ = table(obs)
            true = np.array(state.grids, np.int64)
            assert (true[cells != 0] == cells[cells != 0]).all()
            params = bot._params
            mine = va.choose(*arguments, params)
            theirs = va.choose(true, *arguments[1:], params)
            assert mine == theirs
            assert mine in obs.legal_actions
            compared += 1
        state = step(
            state, rng.choice(obs.legal_actions) if rng.random() < 0.3 else bot.choose(obs)
        )
    assert compared == 150


def test_column_gains_are_exactly_the_best_of_the_three_places() -> None:
    """`column_gains` skips places alike to one before it and settles
    `_column`'s case once per place: the gains must still be, to the last bit but one,
    the column's value less the lowest of `_column` with the card in each of
    the three places (with pair potentials, a bias, clears on and off), and
    never depend on what a face-down cell holds."""
    rng = random.Random(13)
    out = np.zeros(va.VALUES)
    for _ in range(3000):
        cards = [rng.choice([rng.randint(-2, 12), 5]) for _ in range(3)]
        ups = [int(rng.random() < 0.6) for _ in range(3)]
        pool = va.pool_vector(np.array([rng.randint(0, 10) for _ in range(va.VALUES)]))
        pot = np.array([[rng.random() for _ in range(va.VALUES)] for _ in range(2)])
        pot *= rng.random() < 0.7  # no potential, as for the other players, in a third
        bias, clears = rng.choice([0.0, 0.5]), rng.choice([0.0, 1.0])
        va.column_gains(*cards, *ups, pool, bias, clears, pot, out)
        junk = [c if u else rng.choice(cards) for c, u in zip(cards, ups, strict=True)]
        again = np.zeros(va.VALUES)
        va.column_gains(*junk, *ups, pool, bias, clears, pot, again)
        assert np.array_equal(out, again), "a face-down card's value was read"
        base = va._column(*cards, *ups, pool, bias, clears, pot)
        for i in range(va.VALUES):
            placed = []
            for row in range(3):
                c, u = list(cards), list(ups)
                c[row], u[row] = i + va.LOWEST, 1
                placed.append(va._column(*c, *u, pool, bias, clears, pot))
            # to the last bit but one: which compiled specialization of `_column`
            # a process loads from Numba's cache may order one sum differently
            assert out[i] == pytest.approx(base - min(placed), rel=1e-14, abs=1e-14), (
                cards,
                ups,
                i,
            )
