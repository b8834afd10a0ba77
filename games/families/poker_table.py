"""Fast poker values for Draw Poker's computer players, with the four wild-card rules.

Why: :func:`games.families.poker.evaluate` tries every rank for every wild card, which is right but
far too slow for a player that simulates hundreds of draws a decision. A five-card hand's
value depends only on the multiset of its natural ranks, whether the naturals share a
suit, how many cards are wild and whether the joker is the "bug"; there are a few
thousand such keys, so each is valued once by :func:`games.families.poker.evaluate` and cached.
``tests/test_draw_poker_values.py`` checks the cache against the slow evaluator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from ..engine import cards as C
from .poker import evaluate

#: the wild-card rules of the source (GAMES.md §B3), by option value
WILD_RULES = ("bug", "joker", "deuces", "one_eyed")
#: the one-eyed face cards: K♦, J♥, J♠
ONE_EYED = frozenset((C.card(13, C.SUITS.index("D")), C.card(11, C.SUITS.index("H")),
                      C.card(11, C.SUITS.index("S"))))


def wild_test(rule: str) -> Callable[[int], bool]:
    """Which cards are wild under ``rule`` (the joker is wild, or the bug, under every rule)."""
    if rule == "deuces":
        return lambda c: c >= C.JOKER or C.RANK[c] == 2
    if rule == "one_eyed":
        return lambda c: c >= C.JOKER or c in ONE_EYED
    return lambda c: c >= C.JOKER


@cache
def _value(ranks: tuple[int, ...], suited: bool, wilds: int, bug: bool) -> tuple[int, ...]:
    # stand-in cards with the same ranks: all clubs when suited, else one diamond
    naturals = [C.card(r, 0 if suited or i else 1) for i, r in enumerate(ranks)]
    return evaluate(naturals + [C.JOKER] * wilds, bug=bug)


def hand_value(cards: Iterable[int], rule: str) -> tuple[int, ...]:
    """The value of up to five cards under wild rule ``rule``; compares as
    :func:`games.families.poker.evaluate` does."""
    ranks = []
    suits = set()
    wilds = 0
    deuces, one_eyed = rule == "deuces", rule == "one_eyed"
    for c in cards:
        if c >= C.JOKER or (deuces and C.RANK[c] == 2) or (one_eyed and c in ONE_EYED):
            wilds += 1
        else:
            ranks.append(C.RANK[c])
            suits.add(C.SUIT[c])
    return _value(tuple(sorted(ranks)), len(suits) <= 1, wilds, rule == "bug")
