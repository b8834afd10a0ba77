"""Poker hands, shared by Poker Squares and Draw Poker.

A hand is valued as a tuple that compares the way the hands do: ``(category, *ranks)``, the
ranks running 2..14 (the ace high) except in the five-high straight, where the ace is low.
Hands of fewer than five cards (an unfinished Poker Squares line) can only make pairs, trips
and fours, because straights and flushes need five cards.

Wild cards (the joker, or whatever a table declares wild) are tried as every rank. They take
the suit of the natural cards when those share one, which can never hurt since a flush only
helps; otherwise their suit cannot matter. Several wild cards are interchangeable, so trying
every multiset of ranks is enough (at most 6,188 for five of them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations_with_replacement

from ..engine.cards import JOKER, RANK, SUIT

(HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND,
 STRAIGHT_FLUSH, ROYAL_FLUSH, FIVE_OF_A_KIND) = range(11)

#: Poker Squares points per category (Morehead & Mott-Smith). Five of a kind, only possible
#: with a wild card, scores as four of a kind.
AMERICAN = (0, 2, 5, 10, 15, 20, 25, 50, 75, 100, 50)
ENGLISH = (0, 1, 3, 6, 12, 5, 10, 16, 30, 30, 16)
TABLES: dict[str, tuple[int, ...]] = {"american": AMERICAN, "english": ENGLISH}

_WHEEL = [14, 5, 4, 3, 2]
_BUG_OK = frozenset((STRAIGHT, FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH))


def is_joker(c: int) -> bool:
    return c >= JOKER


def value_of(ranks: list[int], suits: list[int]) -> tuple[int, ...]:
    """The value of natural cards given as ranks (1..13) and suits."""
    high = sorted((14 if r == 1 else r for r in ranks), reverse=True)
    counts: dict[int, int] = {}
    for r in high:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    order = tuple(r for r, _ in groups)
    most = groups[0][1] if groups else 0
    if most >= 5:
        return (FIVE_OF_A_KIND, *order)
    if most == 4:
        return (FOUR_OF_A_KIND, *order)
    if len(high) == 5:
        if most == 3 and groups[1][1] == 2:
            return (FULL_HOUSE, *order)
        flush = len(set(suits)) == 1
        top = 0
        if len(counts) == 5:
            if high[0] - high[4] == 4:
                top = high[0]
            elif high == _WHEEL:
                top = 5
        if top and flush:
            return (ROYAL_FLUSH if top == 14 else STRAIGHT_FLUSH, top)
        if flush:
            return (FLUSH, *high)
        if top:
            return (STRAIGHT, top)
    if most == 3:
        return (THREE_OF_A_KIND, *order)
    if most == 2:
        pairs = sum(1 for _, n in groups if n == 2)
        return (TWO_PAIR if pairs == 2 else ONE_PAIR, *order)
    return (HIGH_CARD, *order)


def evaluate(cards: Iterable[int], wild: Callable[[int], bool] = is_joker, *,
             bug: bool = False) -> tuple[int, ...]:
    """The best value of up to five cards, designating every wild card to suit the hand.

    ``bug``: the wild cards may only stand for aces, or complete a straight or a flush
    (the Draw Poker "bug" joker).
    """
    ranks: list[int] = []
    suits: list[int] = []
    wilds = 0
    for c in cards:
        if wild(c):
            wilds += 1
        else:
            ranks.append(RANK[c])
            suits.append(SUIT[c])
    if not wilds:
        return value_of(ranks, suits)
    suit = suits[0] if suits and len(set(suits)) == 1 else 0
    best: tuple[int, ...] = ()
    for extra in combinations_with_replacement(range(1, 14), wilds):
        v = value_of(ranks + list(extra), suits + [suit] * wilds)
        if bug and v[0] not in _BUG_OK and any(r != 1 for r in extra):
            continue
        if v > best:
            best = v
    return best


def category(cards: Iterable[int], wild: Callable[[int], bool] = is_joker, *,
             bug: bool = False) -> int:
    return evaluate(cards, wild, bug=bug)[0]


def designate(hands: list[list[int]], table: tuple[int, ...]) -> int:
    """The card a joker lying in all of ``hands`` at once (a Poker Squares row and column)
    stands for: one card for all of them, so the one scoring most in them together on
    ``table``, the first such card on a tie."""
    best, card = -1, -1
    for d in range(52):
        total = sum(table[evaluate([d if c >= JOKER else c for c in h])[0]] for h in hands)
        if total > best:
            best, card = total, d
    return card


def points(cards: Iterable[int], system: str = "american") -> int:
    """Poker Squares points of one line (the joker designated for this line alone)."""
    return TABLES[system][evaluate(cards)[0]]
