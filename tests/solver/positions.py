"""Pieces of the random positions the Klondike and Canfield search tests build: how many
cards of each suit are home, the foundations holding them, a talon split at random between
waste and stock. Each draws from the caller's ``random.Random`` in a fixed order, so a seed
gives the same position in every test that builds it this way."""

from __future__ import annotations

import random

from games.engine.cards import text


def home_counts(rnd: random.Random, lowest: int, left: int) -> list[int]:
    """Per suit a random number of cards home (``lowest`` to 13), raised at random until
    at most ``left`` cards are out of the foundations."""
    counts = [rnd.randint(lowest, 13) for _ in range(4)]
    while sum(13 - n for n in counts) > left:
        counts[rnd.choice([k for k in range(4) if counts[k] < 13])] += 1
    return counts


def foundations(counts: list[int], base: int = 1) -> tuple[dict[str, str], list[int]]:
    """The piles F1-F4 holding each suit's first ``counts[suit]`` cards from rank ``base``
    up (turning the corner), and the cards left out, suit by suit."""
    piles: dict[str, str] = {}
    out: list[int] = []
    for suit, n in enumerate(counts):
        run = [13 * suit + (base - 1 + k) % 13 for k in range(13)]
        if n:
            piles[f"F{suit + 1}"] = " ".join(text(c) for c in run[:n])
        out += run[n:]
    return piles, out


def split_talon(rnd: random.Random, talon: list[int], piles: dict[str, str],
                down: dict[str, int]) -> None:
    """``talon`` (bottom first) split at random into the waste ``W`` and the stock ``S``,
    the stock face down."""
    split = rnd.randint(0, len(talon))
    piles["W"] = " ".join(text(c) for c in talon[:split])
    piles["S"] = " ".join(text(c) for c in talon[split:])
    down["S"] = len(talon) - split
