"""Citadel (000 #23 [例2]): the deal plays cards to the foundations as they come."""

from __future__ import annotations

import pytest

import games
from games.engine import cards as C
from games.engine.rng import Rng

from .conftest import all_cards, arrange, refused

WINGS = [f"T{i}" for i in range(1, 9)]
ORDER = ["T1", "T3", "T5", "T7", "T2", "T4", "T6", "T8"]


def expected_deal(seed: int) -> dict[str, list[int]]:
    """The deal worked out by hand: rounds of eight places until the deck is gone."""
    deck = list(range(52))
    Rng(seed).shuffle(deck)
    piles: dict[str, list[int]] = {p: [] for p in WINGS + ["F1", "F2", "F3", "F4"]}
    k = 0
    while deck:
        c = deck.pop()
        wing = ORDER[k % 8]
        k += 1
        for f in ("F1", "F2", "F3", "F4"):
            top = piles[f][-1] if piles[f] else None
            if (top is None and C.RANK[c] == 1) or (
                    top is not None and C.SUIT[top] == C.SUIT[c] and C.RANK[top] + 1 == C.RANK[c]):
                piles[f].append(c)
                break
        else:
            piles[wing].append(c)
    return piles


@pytest.mark.parametrize("seed", [1, 2, 3, 99])
def test_deal_feeds_the_foundations_and_skips_those_places(seed):
    g = games.new("citadel", seed)
    assert {p: g.pile(p) for p in expected_deal(seed)} == expected_deal(seed)
    assert len(all_cards(g)) == 52 and not any(g.down)
    on_foundations = sum(len(g.pile(f"F{i}")) for i in range(1, 5))
    assert g.score == on_foundations
    assert sum(len(g.pile(w)) for w in WINGS) == 52 - on_foundations


def test_some_deal_puts_cards_on_the_foundations():
    scores = [games.new("citadel", s).score for s in range(1, 11)]
    assert max(scores) >= 2 and len(set(scores)) > 1


def test_play_is_beleaguered_castle_play():
    g = arrange(games.new("citadel", 1),
                {"F1": "AC", "T1": "2C", "T2": "9D", "T3": "8C", "T4": "KH QS"})
    g.play("T1>F1")
    g.play("T3>T2")
    refused(g, "T4>T1x2", "Only one card can be moved at a time.")
    g.play("T4>T1")  # a space takes any card
    refused(g, "F1>T5", "Cards on a foundation cannot be moved.")
