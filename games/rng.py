"""The deal generator: a small PRNG of our own, so deal #4711 is the same everywhere, forever.

``random.shuffle`` may change between Python versions; this will not. The generator is
SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by the golden-ratio
constant and mixed by two multiply-xorshift rounds. Integers below ``n`` are drawn by
rejection (no modulo bias) and a deck is shuffled with the Fisher-Yates algorithm, from the
last position down. Changing any constant or step here changes every deal ever printed:
``tests/test_rng.py`` pins known outputs so that cannot happen by accident.
"""

from __future__ import annotations

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


MAX_SEED = (1 << 63) - 1


def check_seed(seed: object) -> int:
    """Seeds are the deal numbers players read: positive integers."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a deal number must be a whole number, not {seed!r}")
    if not 1 <= seed <= MAX_SEED:
        raise ValueError(f"a deal number must be between 1 and {MAX_SEED}, not {seed}")
    return seed
