"""The engine's seeded chance in compiled code: a game's decks and reshuffles
from its seed (`skyjo.shuffle`), `random.Random`'s seeding, a bot's seed
(`skyjo.seeds.bot_seed`).

A compiled loop that starts games by itself (the vectorized environment,
`skyjo.kernel.vector`) must deal the engine's game of a seed without calling
back into Python: each shuffle of `shuffle.shuffled` hashes its key with
BLAKE2b (`hashlib`'s, `blake2b`) into the state of NumPy's PCG64 generator,
permutes the cards as `Generator.permutation` does (`shuffle`: Fisher-Yates
from the top index down, each index drawn by NumPy's masked rejection,
`random_interval`, on 32-bit halves of the 64-bit outputs) and draws the next
key (`random_raw`, one 64-bit output). A new game's seed comes from a
`random.Random` stream (`getrandbits63`), the learner's seat and each bot's
generator from `random.Random(seed)` (`seed_twister`: CPython's
`init_by_array`) and `bot_seed`. `tests/parity/test_chance.py` checks every
function here against the library it mirrors on thousands of inputs.

Keys are the chain's values after its first shuffle, and seeds drawn from a
stream: integers in [0, 2**64), held in uint64 (int64 for the seeds, below
2**63). A caller with another seed (negative, or 2**64 and more) seeds its
first game in Python (`skyjo.shuffle`, `random`), as the engine does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import skyjo.kernel.cache  # noqa: F401  (before the first njit: the stale-cache fix)
from skyjo.kernel import twister
from skyjo.rules import DECK, DECK_SIZE

_U = np.uint64
_MASK64 = (1 << 64) - 1
#: BLAKE2b's initial words (RFC 7693) and its message schedule, 12 rounds.
_IV = np.array(
    [
        0x6A09E667F3BCC908,
        0xBB67AE8584CAA73B,
        0x3C6EF372FE94F82B,
        0xA54FF53A5F1D36F1,
        0x510E527FADE682D1,
        0x9B05688C2B3E6C1F,
        0x1F83D9ABFB41BD6B,
        0x5BE0CD19137E2179,
    ],
    np.uint64,
)
_SIGMA = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ],
    np.int64,
)
#: The longest message `blake2b` hashes: one block.
BLOCK = 128
#: PCG64's multiplier (NumPy's PCG_DEFAULT_MULTIPLIER_128), high and low words.
_MUL_HI = np.uint64(0x2360ED051FC65DA4)
_MUL_LO = np.uint64(0x4385DF649FCCF645)
#: `seeds.bot_seed`'s personalisation, as BLAKE2b's two parameter words take it.
_PERSON = b"skyjo-bot-seed".ljust(16, b"\0")
_PERSON_LO = np.uint64(int.from_bytes(_PERSON[:8], "little"))
_PERSON_HI = np.uint64(int.from_bytes(_PERSON[8:], "little"))
#: The 150 cards in order (RULES.md 1), which `shuffled_deck` permutes.
SORTED_DECK = np.array(DECK, np.int8)
#: A PCG64 generator's state: the 128-bit state and increment (high, low words),
#: whether a 32-bit half is buffered and that half (NumPy's `has_uint32`, `uinteger`).
STATE_HI, STATE_LO, INC_HI, INC_LO, HAS32, HALF = range(6)
PCG_WORDS = 6
_COLON = 58  # ord(":")
_ZERO = 48  # ord("0")


# --- BLAKE2b ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def _rotr(x, n):  # type: ignore[no-untyped-def]
    return (x >> _U(n)) | (x << _U(64 - n))


@njit(cache=True, inline="always")
def _mix(v, a, b, c, d, x, y):  # type: ignore[no-untyped-def]
    """BLAKE2b's G function (RFC 7693 3.1) on the work vector `v`."""
    v[a] = v[a] + v[b] + x
    v[d] = _rotr(v[d] ^ v[a], 32)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 24)
    v[a] = v[a] + v[b] + y
    v[d] = _rotr(v[d] ^ v[a], 16)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 63)


@njit(cache=True)
def blake2b(message, length, digest_size, person_lo, person_hi, h):  # type: ignore[no-untyped-def]
    """`hashlib.blake2b(message[:length], digest_size=..., person=...)` with no
    key or salt, for a message of one block at most (`BLOCK` bytes): `h` (8
    uint64) gets the state, whose first `digest_size` bytes, little-endian, are
    the digest. The personalisation is given as its two little-endian words."""
    for i in range(8):
        h[i] = _IV[i]
    h[0] ^= _U(0x01010000) ^ _U(digest_size)
    h[6] ^= person_lo
    h[7] ^= person_hi
    m = np.zeros(16, np.uint64)
    for i in range(length):
        m[i >> 3] |= _U(message[i]) << _U(8 * (i & 7))
    v = np.empty(16, np.uint64)
    for i in range(8):
        v[i] = h[i]
        v[i + 8] = _IV[i]
    v[12] ^= _U(length)  # the bytes hashed; the high word of the count stays 0
    v[14] = ~v[14]  # the last block
    for r in range(12):
        s = _SIGMA[r % 10]
        _mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]])
        _mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]])
        _mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]])
        _mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]])
        _mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]])
        _mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]])
        _mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]])
        _mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]])
    for i in range(8):
        h[i] ^= v[i] ^ v[i + 8]


@njit(cache=True)
def decimal(u, out, at):  # type: ignore[no-untyped-def]
    """Write `str(u)` of a uint64 as ASCII at out[at:]; the index after it."""
    digits = 1
    rest = u // _U(10)
    while rest:
        digits += 1
        rest //= _U(10)
    for i in range(digits - 1, -1, -1):
        out[at + i] = _ZERO + np.int64(u % _U(10))
        u //= _U(10)
    return at + digits


# --- PCG64, as NumPy draws from it ------------------------------------------------


@njit(cache=True, inline="always")
def _mulhi(a, b):  # type: ignore[no-untyped-def]
    """The high 64 bits of the 128-bit product of two uint64."""
    lo32 = _U(0xFFFFFFFF)
    a0, a1 = a & lo32, a >> _U(32)
    b0, b1 = b & lo32, b >> _U(32)
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    middle = (p00 >> _U(32)) + (p01 & lo32) + (p10 & lo32)
    return p11 + (p01 >> _U(32)) + (p10 >> _U(32)) + (middle >> _U(32))


@njit(cache=True)
def next64(g):  # type: ignore[no-untyped-def]
    """PCG64's next output (XSL-RR of the stepped 128-bit LCG), as NumPy's
    `pcg64_next64`: one `random_raw`."""
    hi, lo = g[STATE_HI], g[STATE_LO]
    new_lo = lo * _MUL_LO
    new_hi = _mulhi(lo, _MUL_LO) + hi * _MUL_LO + lo * _MUL_HI
    lo = new_lo + g[INC_LO]
    hi = new_hi + g[INC_HI] + (_U(1) if lo < new_lo else _U(0))
    g[STATE_HI], g[STATE_LO] = hi, lo
    x = hi ^ lo
    rot = hi >> _U(58)
    return (x >> rot) | (x << ((_U(64) - rot) & _U(63)))


@njit(cache=True, inline="always")
def next32(g):  # type: ignore[no-untyped-def]
    """NumPy's `pcg64_next32`: the low half of a 64-bit output, the high half
    buffered for the next call."""
    if g[HAS32]:
        g[HAS32] = _U(0)
        return g[HALF]
    x = next64(g)
    g[HAS32] = _U(1)
    g[HALF] = x >> _U(32)
    return x & _U(0xFFFFFFFF)


@njit(cache=True, inline="always")
def interval(g, top):  # type: ignore[no-untyped-def]
    """NumPy's `random_interval(bitgen, top)` for 0 < top < 2**32: a uniform
    integer in [0, top] by masked rejection on 32-bit draws."""
    mask = _U(top)
    mask |= mask >> _U(1)
    mask |= mask >> _U(2)
    mask |= mask >> _U(4)
    mask |= mask >> _U(8)
    mask |= mask >> _U(16)
    value = next32(g) & mask
    while value > _U(top):
        value = next32(g) & mask
    return np.int64(value)


@njit(cache=True)
def seed_pcg(key, g):  # type: ignore[no-untyped-def]
    """`shuffle._generator(key)`: the PCG64 state that BLAKE2b of `str(key)`
    (32 bytes: state, then increment, each little-endian, the increment odd)
    sets, for a key in [0, 2**64)."""
    text = np.zeros(BLOCK, np.uint8)
    length = decimal(_U(key), text, 0)
    h = np.empty(8, np.uint64)
    blake2b(text, length, 32, _U(0), _U(0), h)
    g[STATE_LO], g[STATE_HI] = h[0], h[1]
    g[INC_LO], g[INC_HI] = h[2] | _U(1), h[3]
    g[HAS32] = _U(0)
    g[HALF] = _U(0)


@njit(cache=True)
def permute(g, values, size):  # type: ignore[no-untyped-def]
    """`Generator.shuffle` of values[:size] in place: for i from size - 1 down
    to 1, swap i with `interval(g, i)`."""
    for i in range(size - 1, 0, -1):
        j = interval(g, i)
        values[i], values[j] = values[j], values[i]


@njit(cache=True)
def shuffled_deck(key, deck):  # type: ignore[no-untyped-def]
    """`shuffle.shuffled_deck(key)`: `deck` (150 int8) gets the cards, top
    first; the next key (uint64)."""
    g = np.empty(PCG_WORDS, np.uint64)
    seed_pcg(key, g)
    for i in range(DECK_SIZE):
        deck[i] = SORTED_DECK[i]
    permute(g, deck, DECK_SIZE)
    return next64(g)


@njit(cache=True)
def shuffled_order(key, size, order):  # type: ignore[no-untyped-def]
    """`KeyChain.order(size)`: `order[:size]` gets a reshuffle's positions (the
    discard pile less its top, in the new draw pile's order); the next key."""
    g = np.empty(PCG_WORDS, np.uint64)
    seed_pcg(key, g)
    for i in range(size):
        order[i] = i
    permute(g, order, size)
    return next64(g)


# --- random.Random ----------------------------------------------------------------


@njit(cache=True)
def seed_twister(mt, seed):  # type: ignore[no-untyped-def]
    """`random.Random(seed)` for 0 <= seed < 2**63: CPython's `init_by_array`
    with the 32-bit words of the seed, least significant first (one word for
    a seed below 2**32), into `mt` (`twister.WORDS` int64, as `twister` takes it)."""
    n = twister.WORDS - 1
    mask = 0xFFFFFFFF
    key0 = seed & mask
    key1 = seed >> 32
    used = 2 if key1 else 1
    mt[0] = 19650218
    for i in range(1, n):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & mask
    i, j = 1, 0
    for _ in range(max(n, used)):
        prev = mt[i - 1]
        word = key0 if j == 0 else key1
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + word + j) & mask
        i += 1
        j += 1
        if i >= n:
            mt[0] = mt[n - 1]
            i = 1
        if j >= used:
            j = 0
    for _ in range(n - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & mask
        i += 1
        if i >= n:
            mt[0] = mt[n - 1]
            i = 1
    mt[0] = 0x80000000
    mt[n] = n  # the next output twists first


@njit(cache=True)
def getrandbits63(mt):  # type: ignore[no-untyped-def]
    """`random.Random.getrandbits(63)`: two outputs, the first the low 32 bits."""
    low = twister._next32(mt)
    high = twister._next32(mt) >> 1
    return (high << 32) | low


@njit(cache=True)
def bot_seed(secret, seat):  # type: ignore[no-untyped-def]
    """`seeds.bot_seed(secret, seat)`: BLAKE2b (8 bytes, personalised) of
    `f"{secret}:{seat}"`, little-endian, its top 63 bits."""
    text = np.zeros(BLOCK, np.uint8)
    at = decimal(_U(secret), text, 0)
    text[at] = _COLON
    at = decimal(_U(seat), text, at + 1)
    h = np.empty(8, np.uint64)
    blake2b(text, at, 8, _PERSON_LO, _PERSON_HI, h)
    return np.int64(h[0] >> _U(1))


def key_word(key: int) -> np.uint64:
    """A chain key (0 <= key < 2**64) as the compiled functions take it."""
    if not 0 <= key <= _MASK64:
        raise ValueError(f"a compiled key is in [0, 2**64), not {key}")
    return np.uint64(key)
