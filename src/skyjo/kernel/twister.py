"""`random.Random`'s generator (a Mersenne Twister, MT19937) in compiled code.

A compiled loop that must make the choices a Python bot or a Python shuffle
makes (the playouts' reshuffles, the batch simulator's bots) steps the same
generator the same way: `below` is `random.Random._randbelow`, `shuffle` is
`random.Random.shuffle`. A generator is 624 words of state and the index of
the next, as `random.Random.getstate` holds them (`generator`, `as_random`).
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)

#: The words of a Mersenne Twister's state; `mt[_N]` holds the index of the next.
_N, _M = 624, 397
#: The length of a generator's array: its words and the index.
WORDS = _N + 1


@njit(cache=True)
def _twist(mt):  # type: ignore[no-untyped-def]
    """The next 624 words of MT19937's state (CPython's `genrand_uint32`)."""
    for k in range(_N):
        y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
        word = mt[(k + _M) % _N] ^ (y >> 1)
        if y & 1:
            word ^= 0x9908B0DF
        mt[k] = word


@njit(cache=True)
def _next32(mt):  # type: ignore[no-untyped-def]
    """The generator's next 32-bit output, tempered."""
    i = mt[_N]
    if i >= _N:
        _twist(mt)
        i = 0
    mt[_N] = i + 1
    y = mt[i]
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)


@njit(cache=True)
def below(mt, n):  # type: ignore[no-untyped-def]
    """A random integer in [0, n), 0 < n < 2**32, as `random.Random._randbelow`:
    getrandbits(k) for k the bit length of n, again while it is not below n."""
    k = 0
    while n >> k:
        k += 1
    r = _next32(mt) >> (32 - k)
    while r >= n:
        r = _next32(mt) >> (32 - k)
    return r


@njit(cache=True)
def shuffle(mt, values):  # type: ignore[no-untyped-def]
    """`random.Random.shuffle(values)` in place."""
    for i in range(len(values) - 1, 0, -1):
        j = below(mt, i + 1)
        values[i], values[j] = values[j], values[i]


def generator(rng: random.Random) -> np.ndarray:
    """The state of `rng` as the compiled generator takes it (its own copy:
    `rng` does not move)."""
    version, words, _ = rng.getstate()
    if version != 3 or len(words) != WORDS:
        raise ValueError("not the state of a Mersenne Twister of random.Random")
    return np.array(words, dtype=np.int64)


def as_random(mt: np.ndarray) -> random.Random:
    """A `random.Random` in the state of the compiled generator `mt`."""
    rng = random.Random()
    rng.setstate((3, tuple(mt.tolist()), None))
    return rng
