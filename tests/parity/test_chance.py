"""The engine's chance compiled (`skyjo.kernel.chance`) against the libraries it
mirrors: hashlib's BLAKE2b, NumPy's PCG64 shuffles through `skyjo.shuffle`,
`random.Random`'s seeding and `getrandbits`, `skyjo.seeds.bot_seed`."""

from __future__ import annotations

import hashlib
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skyjo import seeds, shuffle
from skyjo.kernel import chance, twister
from skyjo.rules import DECK_SIZE

KEYS = st.integers(0, 2**64 - 1)
SEEDS = st.integers(0, 2**63 - 1)
EDGES = [0, 1, 9, 10, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1]


def digest(message: bytes, size: int, person: bytes = b"") -> bytes:
    person = person.ljust(16, b"\0")
    h = np.empty(8, np.uint64)
    lo, hi = (np.uint64(int.from_bytes(person[i : i + 8], "little")) for i in (0, 8))
    chance.blake2b(np.frombuffer(message.ljust(chance.BLOCK, b"\0"), np.uint8), len(message),
                   size, lo, hi, h)  # fmt: skip
    return h.tobytes()[:size]


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=1, max_size=chance.BLOCK), st.sampled_from([8, 32, 64]))
def test_blake2b_is_hashlibs(message: bytes, size: int) -> None:
    assert digest(message, size) == hashlib.blake2b(message, digest_size=size).digest()
    assert (
        digest(message, size, b"person")
        == hashlib.blake2b(message, digest_size=size, person=b"person").digest()
    )


def test_every_edge_key_deals_and_reshuffles_as_the_engine() -> None:
    deck = np.empty(DECK_SIZE, np.int8)
    order = np.empty(DECK_SIZE, np.int64)
    for key in EDGES:
        chain = shuffle.KeyChain(key)
        assert int(chance.shuffled_deck(np.uint64(key), deck)) == shuffle.shuffled_deck(key)[1]
        assert tuple(deck.tolist()) == chain.deck()
        for size in (0, 1, 2, 3, 137):
            chain = shuffle.KeyChain(key)
            after = chance.shuffled_order(np.uint64(key), size, order)
            assert tuple(order[:size].tolist()) == chain.order(size)
            assert int(after) == chain.key


@settings(max_examples=300, deadline=None)
@given(KEYS, st.integers(0, DECK_SIZE - 1))
def test_a_chain_of_keys_gives_the_engines_decks_and_reshuffles(key: int, size: int) -> None:
    """A deck, a reshuffle, a deck: each from the key the last one left, as a
    round, its reshuffle and the next round draw them."""
    chain = shuffle.KeyChain(key)
    deck = np.empty(DECK_SIZE, np.int8)
    order = np.empty(DECK_SIZE, np.int64)
    word = chance.shuffled_deck(np.uint64(key), deck)  # a Python int: a uint64 again
    assert tuple(deck.tolist()) == chain.deck()
    word = chance.shuffled_order(np.uint64(word), size, order)
    assert tuple(order[:size].tolist()) == chain.order(size)
    word = chance.shuffled_deck(np.uint64(word), deck)
    assert tuple(deck.tolist()) == chain.deck() and int(word) == chain.key


@settings(max_examples=200, deadline=None)
@given(SEEDS)
def test_a_twister_seeded_here_is_random_Randoms(seed: int) -> None:
    mt = np.empty(twister.WORDS, np.int64)
    chance.seed_twister(mt, seed)
    reference = random.Random(seed)
    np.testing.assert_array_equal(mt, twister.generator(reference))
    for n in (2, 3, 8):
        assert twister.below(mt, n) == reference.randrange(n)
    assert [chance.getrandbits63(mt) for _ in range(400)] == [
        reference.getrandbits(63) for _ in range(400)
    ]  # past 624 words: the twist after seeding


def test_edge_seeds_seed_as_random_Random() -> None:
    mt = np.empty(twister.WORDS, np.int64)
    for seed in [0, 1, 2**32 - 1, 2**32, 2**63 - 1]:
        chance.seed_twister(mt, seed)
        np.testing.assert_array_equal(mt, twister.generator(random.Random(seed)))


@settings(max_examples=200, deadline=None)
@given(SEEDS, st.integers(0, 7))
def test_a_bots_seed_is_seeds_bot_seed(secret: int, seat: int) -> None:
    assert chance.bot_seed(secret, seat) == seeds.bot_seed(secret, seat)
