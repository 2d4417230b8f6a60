"""Seeds that a player may receive without learning anything hidden.

A game's deals come from its seed (`skyjo.shuffle`): whoever knows the seed
knows every deck. A bot is seeded too (so that it plays the same moves for the
same game), and an external bot is sent its seed in `hello`
(docs/bot-protocol.md), so a bot's seed must never let it recover the game's:
it is a keyed BLAKE2b hash of the game's secret and the seat, which cannot be
inverted. The secret of a game nobody chose a seed for is drawn fresh from the
operating system (`fresh_seed`), so a bot's author cannot guess it either.
"""

from __future__ import annotations

import secrets
from hashlib import blake2b

#: Seeds are non-negative integers below 2**63 (they fit an int64 everywhere).
SEED_BITS = 63
_PERSONAL = b"skyjo-bot-seed"


def fresh_seed() -> int:
    """A new random seed from the operating system's entropy: unguessable."""
    return secrets.randbits(SEED_BITS)


def bot_seed(secret: int, seat: int) -> int:
    """The seed of the bot at `seat` in the game whose secret (seed) is `secret`.

    One-way: knowing the result, the seat and this code gives no way to the
    secret short of trying every secret, which a fresh 63-bit secret rules out.
    """
    digest = blake2b(f"{secret}:{seat}".encode(), digest_size=8, person=_PERSONAL).digest()
    return int.from_bytes(digest, "little") >> (64 - SEED_BITS)
