"""The knock of Gin Rummy and its kin: which discards may knock or go gin, the melds a
knocker lays down, what a defender may lay off on them, and how they lie after it.

Why a family module: these rules read only hands, melds and the cards a player knows of, not
piles or turns, so a knock-rummy game (Gin today; Oklahoma or Tonk tomorrow) takes them as
they are and its game file keeps the deal, the turns and when a hand and a match end.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from ..engine.model import Move
from ..engine.reason import Card, Reason
from .gin_scoring import KNOCK_LIMIT
from .melds import arrangements, deadwood, extends, misfit, openings

Melds = tuple[tuple[int, ...], ...]


def going_out(hand: Sequence[int], taken: int, gin_bonus: bool) -> list[Move]:
    """The discards and, for each that leaves deadwood of ``KNOCK_LIMIT`` or less, the knock
    (or gin, with no deadwood and ``gin_bonus``); never the card just ``taken`` from the
    discard pile."""
    moves = [Move("discard", extra=(c,)) for c in hand if c != taken]
    for c in hand:
        if c == taken:
            continue
        dw = deadwood(x for x in hand if x != c)
        if dw == 0 and gin_bonus:
            moves.append(Move("gin", extra=(c,)))
        elif dw <= KNOCK_LIMIT:
            moves.append(Move("knock", extra=(c,)))
    return moves


def shown_melds(hand: Sequence[int], held: Collection[int], seen: Collection[int]) -> Melds:
    """The knocker's melds as laid down: of its least-deadwood arrangements, the one that
    leaves the fewest openings for a lay-off among the cards the defender is known to hold
    (``held``: picked up from the discard pile), then among the cards it may hold (not in
    the knocker's hand nor ``seen`` in the discard pile). Judged from what the knocker
    knows only: the defender's hidden cards never choose the computer's melds."""
    held = set(held)
    maybe = set(range(52)) - set(hand) - set(seen)
    options = arrangements(hand)
    return min(options, key=lambda o: (len(openings(o) & held), len(openings(o) & maybe)))


def lying_melds(melds: Melds, laid: Iterable[tuple[int, int]]) -> Melds:
    """The knocker's ``melds`` as they lie now: each with the cards ``laid`` off on it
    (card, meld number)."""
    out = [list(m) for m in melds]
    for card, i in laid:
        out[i].append(card)
    return tuple(tuple(sorted(m)) for m in out)


def lay_offs(hand: Iterable[int], laid: Iterable[tuple[int, int]], melds: Melds
             ) -> list[Move]:
    """Every card of ``hand`` not laid off yet on every meld of ``melds`` it extends, then
    ``done``."""
    gone = {c for c, _i in laid}
    return [*(Move("layoff", extra=(c, i)) for c in hand
              if c not in gone for i, m in enumerate(melds) if extends(m, c)), Move("done")]


def going_out_refusal(move: Move, hand: Sequence[int], taken: int, gin_bonus: bool) -> Reason:
    """Why the discard, knock or gin ``move`` (a card in ``move.extra``) is refused."""
    card = move.extra[0]
    if card not in hand:
        return Reason("The {card} is not in your hand.", card=Card(card))
    if card == taken:
        return Reason("You may not discard the {card} you just took from the discard "
                      "pile.", card=Card(card))
    left = deadwood(c for c in hand if c != card)
    if move.kind == "gin":
        if not gin_bonus:
            return Reason("Gin is off in these rules: knock instead.")
        return Reason("Gin needs a hand with no deadwood; you would have {points}.",
                      points=left)
    if left == 0 and gin_bonus:
        return Reason("With no deadwood you go gin rather than knock.")
    return Reason("You may knock only with 10 points of deadwood or less; you would "
                  "have {points}.", points=left)


def lay_off_refusal(move: Move, hand: Sequence[int], laid: Iterable[tuple[int, int]],
                    melds: Melds) -> Reason:
    """Why ``move`` is refused to the defender while it lays off on the lying ``melds``."""
    if move.kind != "layoff":
        return Reason("Lay off cards on the knocker's melds, or say you are done.")
    card, i = move.extra
    if card not in hand:
        return Reason("The {card} is not in your hand.", card=Card(card))
    if card in {c for c, _i in laid}:
        return Reason("The {card} is laid off already.", card=Card(card))
    if i >= len(melds):
        return Reason("The knocker has no meld there.")
    return misfit(card, melds[i])
