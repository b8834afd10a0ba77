"""Rummy melds: the exact minimum-deadwood arrangement of a hand, and laying off.

Why a search and not a greedy pass: a card may fit a set and a run at once (7♥ with 7♣ 7♠
and with 5♥ 6♥), and taking the first meld found can leave more deadwood than the best
arrangement. The search below is exact: it takes the lowest card left and either counts it
as deadwood or tries every meld that contains it, memoised on the bit mask of the cards
left, so a hand of 11 cards costs a few hundred steps and a repeated question (the computer
player asks about many hands that differ in one card) costs a dictionary look-up.

Cards are codes 0..51 (``suit * 13 + rank - 1``, :mod:`games.engine.cards`); a hand is passed as
any iterable of codes and the functions work on 52-bit masks inside.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ..engine.cards import RANK, SUIT
from ..engine.reason import Card, Reason

#: card points: A = 1, 2..10 pip value, J Q K = 10
POINTS = tuple(min(RANK[c], 10) for c in range(52))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _melds_from(card: int) -> tuple[int, ...]:
    """Every meld (as a mask) whose lowest card code is ``card``.

    The search only ever asks for melds through the lowest card left, and every other card
    of such a meld has a higher code (a set's other suits come later, a run goes up its
    suit), so this table, built once, replaces a search of the hand: a meld fits when
    ``meld & mask == meld``."""
    rank, suit = RANK[card], SUIT[card]
    found: list[int] = []
    higher = [s * 13 + rank - 1 for s in range(suit + 1, 4)]
    me = 1 << card
    for i in range(len(higher)):
        for j in range(i + 1, len(higher)):
            found.append(me | 1 << higher[i] | 1 << higher[j])
    if len(higher) == 3:
        found.append(me | 1 << higher[0] | 1 << higher[1] | 1 << higher[2])
    run = me | 1 << (card + 1) if rank <= 12 else 0
    for top in range(rank + 2, 14):  # A is low only: runs stop at the king
        run |= 1 << (suit * 13 + top - 1)
        found.append(run)
    return tuple(found)


_MELDS_FROM = tuple(_melds_from(c) for c in range(52))


def _melds_with(card: int, mask: int) -> list[int]:
    """Every meld inside ``mask`` through ``card``, the lowest card of ``mask``."""
    return [m for m in _MELDS_FROM[card] if m & mask == m]


@lru_cache(maxsize=1 << 16)
def _best(mask: int) -> tuple[int, tuple[int, ...]]:
    """(minimum deadwood, the melds as masks) of the cards in ``mask``."""
    if not mask:
        return 0, ()
    low = mask & -mask
    card = low.bit_length() - 1
    rest_dw, rest_melds = _best(mask ^ low)
    best = (rest_dw + POINTS[card], rest_melds)
    for meld in _MELDS_FROM[card]:
        if meld & mask != meld:
            continue
        dw, melds = _best(mask ^ meld)
        if dw < best[0]:
            best = (dw, (meld, *melds))
    return best


def deadwood(cards: Iterable[int]) -> int:
    """The least deadwood any arrangement of ``cards`` into melds leaves."""
    return _best(mask_of(cards))[0]


def deadwood_mask(mask: int) -> int:
    return _best(mask)[0]


def arrange(cards: Iterable[int]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """(melds, deadwood cards) of a best arrangement, each meld sorted by card code."""
    mask = mask_of(cards)
    _, melds = _best(mask)
    used = 0
    for m in melds:
        used |= m
    return tuple(cards_of(m) for m in melds), cards_of(mask & ~used)


def arrangements(cards: Iterable[int]) -> list[tuple[tuple[int, ...], ...]]:
    """Every set of melds that reaches the minimum deadwood (the knocker may show any)."""
    mask = mask_of(cards)
    target = _best(mask)[0]
    out: list[tuple[tuple[int, ...], ...]] = []

    def walk(left: int, dw: int, chosen: tuple[int, ...]) -> None:
        if dw + _best(left)[0] > target:
            return
        if not left:
            out.append(tuple(cards_of(m) for m in chosen))
            return
        low = left & -left
        card = low.bit_length() - 1
        walk(left ^ low, dw + POINTS[card], chosen)
        for meld in _melds_with(card, left):
            walk(left & ~meld, dw, (*chosen, meld))

    walk(mask, 0, ())
    return out


def is_meld(cards: Iterable[int]) -> bool:
    cs = tuple(cards)
    if len(cs) < 3:
        return False
    ranks = sorted(RANK[c] for c in cs)
    if len(set(ranks)) == 1:
        return len(cs) <= 4
    if len({SUIT[c] for c in cs}) != 1:
        return False
    return ranks == list(range(ranks[0], ranks[0] + len(cs)))


def extends(meld: Iterable[int], card: int) -> bool:
    """Whether ``card`` laid off on ``meld`` (the meld as it lies now, with any cards laid
    on it already) leaves a meld: a set takes its missing suit, a run the rank just past
    either end. One card at a time, so a second card on one end must chain on the first
    (5♥ 6♥ 7♥ takes the 9♥ only once the 8♥ lies on it)."""
    cs = tuple(meld)
    return card not in cs and is_meld((*cs, card))


def openings(melds: Iterable[Iterable[int]]) -> set[int]:
    """The cards that would extend one of ``melds`` by one: a set's missing suits, the rank
    just past either end of a run (A low only)."""
    out: set[int] = set()
    for meld in melds:
        cs = tuple(meld)
        ranks = sorted(RANK[c] for c in cs)
        if ranks[0] == ranks[-1]:
            out |= {s * 13 + ranks[0] - 1 for s in range(4)} - set(cs)
        else:
            base = SUIT[cs[0]] * 13
            out |= {base + r - 1 for r in (ranks[0] - 1, ranks[-1] + 1) if 1 <= r <= 13}
    return out


def _attach_all(melds: tuple[tuple[int, ...], ...], cards: int) -> dict[int, int] | None:
    """Which meld each card of ``cards`` (a mask) is laid off on, or None when some cannot be.

    Lay-offs only ever widen a meld, so adding any card that fits as soon as it fits finds
    every card that can be laid off (a card laid on a run opens the next rank for another:
    5♥ 6♥ 7♥ takes 8♥ and then 9♥, two cards on one end)."""
    ends: list[list[Any]] = []  # per meld: ("set", rank, count) or ("run", suit, lo, hi)
    for m in melds:
        ranks = sorted(RANK[c] for c in m)
        if ranks[0] == ranks[-1]:
            ends.append(["set", ranks[0], len(m)])
        else:
            ends.append(["run", SUIT[m[0]], ranks[0], ranks[-1]])
    left = set(cards_of(cards))
    where: dict[int, int] = {}
    grew = True
    while left and grew:
        grew = False
        for c in sorted(left):
            for i, e in enumerate(ends):
                if e[0] == "set":
                    ok = RANK[c] == e[1] and e[2] < 4
                    if ok:
                        e[2] += 1
                else:
                    ok = SUIT[c] == e[1] and RANK[c] in (e[2] - 1, e[3] + 1)
                    if ok:
                        if RANK[c] < e[2]:
                            e[2] -= 1
                        else:
                            e[3] += 1
                if ok:
                    where[c] = i
                    left.discard(c)
                    grew = True
                    break
    return None if left else where


def lay_off(defender: Iterable[int], knocker_melds: tuple[tuple[int, ...], ...]
            ) -> tuple[int, dict[int, int], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The defender's best answer to a knock: (deadwood, {card: meld index laid on},
    own melds, deadwood cards), with the least deadwood over every choice of cards to lay
    off and every arrangement of the rest (a card may be worth more in the defender's own
    meld than laid off, or the other way round)."""
    mask = mask_of(defender)
    # only cards of a set's rank or a run's suit can ever be laid off
    ranks = {RANK[m[0]] for m in knocker_melds if RANK[m[0]] == RANK[m[-1]]}
    suits = {SUIT[m[0]] for m in knocker_melds if RANK[m[0]] != RANK[m[-1]]}
    candidates = [c for c in cards_of(mask) if RANK[c] in ranks or SUIT[c] in suits]
    best: tuple[int, dict[int, int], int] = (deadwood_mask(mask), {}, 0)
    for pick in range(1, 1 << len(candidates)):
        sub = 0
        for k, c in enumerate(candidates):
            if pick >> k & 1:
                sub |= 1 << c
        dw = deadwood_mask(mask & ~sub)
        if dw >= best[0]:
            continue
        where = _attach_all(knocker_melds, sub)
        if where is not None:
            best = (dw, where, sub)
    dw, where, sub = best
    melds, dead = arrange(cards_of(mask & ~sub))
    return dw, where, melds, dead


def misfit(card: int, meld: tuple[int, ...]) -> Reason:
    """Why ``card`` cannot be laid off on ``meld`` (a set, or a run it does not touch)."""
    if RANK[meld[0]] == RANK[meld[-1]]:
        return Reason("The {card} does not fit that set.", card=Card(card))
    ranks = [RANK[c] for c in meld]
    if SUIT[card] == SUIT[meld[0]] and (RANK[card] < min(ranks) - 1
                                            or RANK[card] > max(ranks) + 1):
        return Reason("The {card} does not join that run: lay off the cards between "
                      "first.", card=Card(card))
    return Reason("The {card} does not fit that run.", card=Card(card))
