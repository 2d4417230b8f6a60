"""Seeded shuffles: the only source of randomness of a game.

A game's randomness is a chain of integer keys: the seed is the first key,
and each shuffle, drawn from its key, gives the key of the next one. A key is
hashed (BLAKE2b) into the state of a PCG64 generator, so every integer seed,
however large or negative, has its own stream; NumPy shuffles 150 cards in a
fraction of `random.shuffle`'s time, which shows in whole-game simulations.
Each thread keeps its own generator object, so shuffles in parallel threads
never share state.
"""

from __future__ import annotations

import threading
from functools import cache
from hashlib import blake2b
from typing import Any

from skyjo.rules import DECK

_thread = threading.local()


@cache
def _numpy() -> Any:
    """NumPy, imported on the first shuffle so that scoring alone starts fast."""
    import numpy

    return numpy


def _generator(key: int) -> Any:
    """This thread's PCG64 generator, set to the state that `key` hashes to."""
    generator = getattr(_thread, "generator", None)
    if generator is None:
        np = _numpy()
        generator = _thread.generator = np.random.Generator(np.random.PCG64(0))
    digest = blake2b(str(key).encode(), digest_size=32).digest()
    generator.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {
            "state": int.from_bytes(digest[:16], "little"),
            "inc": int.from_bytes(digest[16:], "little") | 1,
        },
        "has_uint32": 0,
        "uinteger": 0,
    }
    return generator


@cache
def _sorted_deck() -> Any:
    return _numpy().array(DECK)


def shuffled(cards: Any, key: int) -> tuple[tuple[int, ...], int]:
    """`cards` (a sequence or an array) in an order drawn from `key`, and the
    key for the next shuffle."""
    generator = _generator(key)
    order = generator.permutation(_numpy().asarray(cards)).tolist()
    return tuple(order), int(generator.bit_generator.random_raw())


def shuffled_deck(key: int) -> tuple[tuple[int, ...], int]:
    """The 150 cards (RULES.md 1) shuffled from `key`, and the next key."""
    return shuffled(_sorted_deck(), key)


class KeyChain:
    """A game's chain of keys walked from its seed, for a caller that plays the
    engine's game on other tables (the batch simulator, the kernel
    environment): each round's deck and each reshuffle's order, in the order
    `engine.start_round` and `engine.reshuffle` draw them (RULES.md 5)."""

    def __init__(self, seed: int) -> None:
        self.key = seed

    def deck(self) -> tuple[int, ...]:
        """The next round's deck, as `engine.start_round` shuffles it."""
        cards, self.key = shuffled_deck(self.key)
        return cards

    def order(self, size: int) -> tuple[int, ...]:
        """A reshuffle of `size` cards (the discard pile less its top) as their
        positions in the new draw pile's order: `engine.reshuffle`'s shuffle,
        which depends only on the key and the size."""
        positions, self.key = shuffled(range(size), self.key)
        return positions
