"""The deal generator: a small PRNG of our own, so deal #4711 is the same everywhere, forever.

``random.shuffle`` may change between Python versions; this will not. The generator is
SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by the golden-ratio
constant and mixed by two multiply-xorshift rounds. Integers below ``n`` are drawn by
rejection (no modulo bias) and a deck is shuffled with the Fisher-Yates algorithm, from the
last position down. Changing any constant or step here changes every deal ever printed:
``tests/test_rng.py`` pins known outputs so that cannot happen by accident.

Hidden deals: a deal number is public on purpose (winnable-deal lists, "try deal 4711"),
but a hand against the computer must not be: a visitor who could find the number from
their own cards could read the computer's hand with ``kiosk deal``. The kiosk therefore
deals those hands from a *hidden seed*, a number of :data:`HIDDEN_SEED_BITS` secret bits
above :data:`HIDDEN_SEED_BASE` that it draws itself (the engine only takes what it is
given: it has no I/O and no source of secrets). A hidden seed drives a keyed BLAKE2b
counter instead of SplitMix64, whose 64-bit state a search could walk and whose outputs
a solver could invert; the shuffle code is the same, so the seed alone still replays the
hand exactly, from the play log or a saved game.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 seeded from a deal number and an optional stream label.

    Streams let a game draw independent randomness for later events (a redeal that
    shuffles) from the same deal number, so replaying a saved game gives the same cards.
    """

    __slots__ = ("_state",)

    def __new__(cls, seed: int, stream: int = 0) -> Rng:
        if cls is Rng and is_hidden(seed):
            return object.__new__(_HiddenRng)
        return object.__new__(cls)

    def __init__(self, seed: int, stream: int = 0) -> None:
        self._state = (seed * _GOLDEN + stream * 0xD1B54A32D192ED03 + 0x632BE59BD9B4E019) & _MASK

    def next64(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place, from the end."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class _HiddenRng(Rng):
    """The generator of a hidden seed: BLAKE2b keyed with the seed, over (stream, counter).

    Without the key its outputs cannot be told from chance, so the cards a seat sees say
    nothing about the cards it does not see, and no number range can be searched."""

    __slots__ = ("_key", "_stream", "_counter", "_words")

    def __init__(self, seed: int, stream: int = 0) -> None:
        self._key = seed.to_bytes(HIDDEN_SEED_BYTES, "big")
        self._stream = stream.to_bytes(16, "big", signed=True)
        self._counter = 0
        self._words: list[int] = []

    def next64(self) -> int:
        if not self._words:
            block = hashlib.blake2b(self._stream + self._counter.to_bytes(16, "big"),
                                    key=self._key, digest_size=64, person=b"kiosk-deal").digest()
            self._counter += 1
            self._words = [int.from_bytes(block[k:k + 8], "big") for k in range(56, -8, -8)]
        return self._words.pop()


MAX_SEED = (1 << 63) - 1
#: secret bits in a hidden seed (the kiosk draws them with :mod:`secrets`)
HIDDEN_SEED_BITS = 128
#: every hidden seed is this plus the secret, so it can never be a public deal number
HIDDEN_SEED_BASE = 1 << HIDDEN_SEED_BITS
HIDDEN_SEED_BYTES = (HIDDEN_SEED_BITS + 8) // 8


def is_hidden(seed: int) -> bool:
    """Whether ``seed`` is a hidden seed (not a deal number anyone may be told)."""
    return HIDDEN_SEED_BASE <= seed < 2 * HIDDEN_SEED_BASE


def hidden_seed(secret: int) -> int:
    """The hidden seed for ``secret``, a number of :data:`HIDDEN_SEED_BITS` random bits."""
    if isinstance(secret, bool) or not isinstance(secret, int) or \
            not 0 <= secret < HIDDEN_SEED_BASE:
        raise ValueError(f"a hidden seed needs {HIDDEN_SEED_BITS} secret bits")
    return HIDDEN_SEED_BASE + secret


def check_seed(seed: object) -> int:
    """Seeds are the deal numbers players read (positive integers up to :data:`MAX_SEED`),
    or hidden seeds (:func:`is_hidden`) of hands dealt against the computer."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a deal number must be a whole number, not {seed!r}")
    if not (1 <= seed <= MAX_SEED or is_hidden(seed)):
        raise ValueError(f"a deal number must be between 1 and {MAX_SEED}, not {seed}")
    return seed
