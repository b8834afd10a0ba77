"""The standard Draw Poker hold, shared by both levels and by the simulations that
model what the other players kept from how many cards they drew."""

from __future__ import annotations

from itertools import combinations

from ..engine.cards import RANK, SUIT
from ..families.poker import STRAIGHT
from ..families.poker_table import hand_value, wild_test


def standard_hold(hand: tuple[int, ...], rule: str) -> tuple[int, ...]:
    """The cards a plain player keeps: every wild card, a made straight or better whole,
    the matched ranks of trips, two pairs or a pair, else four to a flush, four in a row,
    else the highest natural cards (an ace, or two cards above ten)."""
    wild = wild_test(rule)
    value = hand_value(hand, rule)
    if value[0] >= STRAIGHT:
        return tuple(sorted(hand))
    wilds = [c for c in hand if wild(c)]
    naturals = [c for c in hand if not wild(c)]
    counts: dict[int, int] = {}
    for c in naturals:
        counts[RANK[c]] = counts.get(RANK[c], 0) + 1
    matched = [c for c in naturals if counts[RANK[c]] >= 2]
    if matched:
        return tuple(sorted(matched + wilds))
    for four in combinations(naturals, 4 - min(len(wilds), 4)) if len(wilds) < 4 else ():
        keep = list(four) + wilds
        if len(keep) == 4 and (len({SUIT[c] for c in four}) == 1 or _open_ended(four, wilds)):
            return tuple(sorted(keep))
    if wilds:
        high = max(naturals, key=lambda c: _high(RANK[c]), default=None)
        return tuple(sorted(wilds + ([high] if high is not None else [])))
    ranked = sorted(naturals, key=lambda c: _high(RANK[c]), reverse=True)
    if not ranked:
        return tuple(sorted(hand))
    if _high(RANK[ranked[0]]) == 14:
        return (ranked[0],)
    return tuple(sorted(c for c in ranked[:2] if _high(RANK[c]) > 10))


def _high(rank: int) -> int:
    return 14 if rank == 1 else rank


def _open_ended(cards: tuple[int, ...], wilds: list[int]) -> bool:
    ranks = sorted({_high(RANK[c]) for c in cards})
    if len(ranks) != len(cards):
        return False
    span = ranks[-1] - ranks[0]
    return span <= 3 and ranks[-1] < 14 and ranks[0] > 2 - len(wilds)
