"""What the Gin Rummy table tells a visitor who has never played: the deadwood counted,
why Knock and Gin are not lit yet, and the first hand's tips (the hand's arrangement in
melds is :mod:`kiosk.table.gin_rows`).

Why apart from the screen: these are rules read from the visitor's own hand (the meld
search of :mod:`games.families.melds`, the knock limit), and the words are (msgid, fields)
pairs of the kiosk catalog, as in :mod:`kiosk.table.gin_turns`, so plain tests check them
without Kivy and the screen translates them.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import cards as C
from games.engine.model import Move
from games.families.gin_scoring import KNOCK_LIMIT
from games.families.melds import arrange, deadwood
from kiosk.table.gin_turns import Text, _


def deadwood_now(hand: Sequence[int], taken: int = -1) -> int:
    """The deadwood that counts for a knock now: of a hand of ten, its deadwood; of a hand
    of eleven (drawn, not yet thrown), what is left after the best throw (never the card
    just ``taken`` from the discard pile). Which card is raised does not change it: Knock
    throws the card that leaves the least (:func:`knock_card`), so the line and the button
    always agree."""
    cards = list(hand)
    if len(cards) <= 10:
        return deadwood(cards)
    return min(deadwood(c for c in cards if c != out) for out in cards if out != taken)


def deadwood_text(points: int, phase: str, can_knock: bool, can_gin: bool) -> Text:
    """The live line under the table's words: the deadwood, and what it allows (the reason
    Knock and Gin are greyed while they are)."""
    if can_gin:
        return _("Deadwood 0: you may go gin"), {}
    if can_knock:
        return _("Deadwood {n}: you may knock"), {"n": points}
    if points <= KNOCK_LIMIT and phase in ("offer", "draw"):
        return _("Deadwood {n}: draw, then you may knock"), {"n": points}
    if points <= KNOCK_LIMIT:
        return _("Deadwood {n}"), {"n": points}
    return _("Deadwood {n}: knock at 10 or less"), {"n": points}


def greyed_text(kind: str, points: int, phase: str) -> Text:
    """Why Knock (or Gin) is greyed, said when a visitor taps it anyway."""
    if phase in ("offer", "draw"):
        return _("First draw a card: you knock (or go gin) as you throw one away."), {}
    if kind == "gin":
        return _("Gin needs no deadwood at all; you would have {n}."), {"n": points}
    return _("Deadwood {n}: knock at 10 or less."), {"n": points}


def knock_card(hand: Sequence[int], moves: Sequence[Move], kind: str, raised: int) -> int:
    """The card a Knock (or Gin) tap throws away: the raised one when it may, else the one
    that leaves the least deadwood (the highest of those)."""
    cards = [m.extra[0] for m in moves if m.kind == kind]
    if raised in cards:
        return raised
    return min(cards, key=lambda c: (deadwood(x for x in hand if x != c), -C.RANK[c]))


def joins(hand: Sequence[int], card: int) -> tuple[int, ...]:
    """The cards of ``hand`` that ``card`` would make a meld with (a best arrangement of
    the hand with it), or () when it would be deadwood."""
    melds, _dead = arrange([*hand, card])
    meld = next((m for m in melds if card in m), ())
    return tuple(sorted((c for c in meld if c != card), key=lambda c: (C.RANK[c], C.SUIT[c])))


def signs(cards: Sequence[int]) -> str:
    return " ".join(C.pretty(c) for c in cards)


def tip(phase: str, my_turn: bool, hand: Sequence[int], upcard: int, can_take: bool,
        can_knock: bool, can_gin: bool, lay_offs: Sequence[int] = ()) -> Text | None:
    """The first hand's tip for this moment, or None. Each one is read from the visitor's
    own cards, so that a person who cannot yet see a meld is told which: whether the face-up
    card joins a meld (take it) or not (draw from the stock), which card to throw, that a
    knock or gin is possible, which cards are worth laying off on the computer's melds (a
    card of the visitor's own meld is not: it counts nothing where it is)."""
    if not my_turn:
        return None
    if phase in ("offer", "draw"):
        if upcard < 0 or not can_take:
            return None  # after two passes only the stock is left: its button says so
        partners = joins(hand, upcard)
        if partners:
            return (_("Tip: the {card} makes a meld with your {cards}: take it."),
                    {"card": C.pretty(upcard), "cards": signs(partners)})
        if phase == "offer":
            return _("Tip: the {card} makes no meld with your cards: pass."), \
                {"card": C.pretty(upcard)}
        return _("Tip: the {card} makes no meld with your cards: draw from the stock."), \
            {"card": C.pretty(upcard)}
    if phase == "layoff":
        helpful = [c for c in dict.fromkeys(lay_offs)
                   if deadwood(x for x in hand if x != c) < deadwood(hand)]
        if helpful:
            return (_("Tip: laying off lowers your deadwood: {cards}."),
                    {"cards": signs(sorted(helpful, key=lambda c: (C.RANK[c], C.SUIT[c])))})
        return _("Tip: no lay-off would lower your deadwood: tap Done."), {}
    if phase != "discard":
        return None
    if can_gin:
        return _("Tip: no deadwood is left after a throw: tap Gin for 25 more points."), {}
    if can_knock:
        return _("Tip: your deadwood can be 10 or less: tap Knock to end the hand."), {}
    return (_("Tip: throw away a high card in no meld (the highest lie at the right end): "
              "tap it twice."), {})


def confirm_text(kind: str, card: int, points: int) -> Text:
    """The question before a knock or gin: which card goes, the deadwood it leaves, and
    the risk a newcomer does not expect (the knocker loses a tie: an undercut)."""
    if kind == "gin":
        return _("Go gin, throwing away the {card}?"), {"card": C.pretty(card)}
    return (_("Knock, throwing away the {card}? Your deadwood: {n}; if the computer's is "
              "{n} or less, it scores."), {"card": C.pretty(card), "n": points})
