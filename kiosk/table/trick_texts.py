"""The words of the Follow the Rules table: what the computer played, who took the trick,
and the points of a finished hand, one line each.

Msgids of the kiosk catalog with their fields, as in :mod:`kiosk.table.gin_turns`, so the
screen translates them in the visitor's language and the tests read them without Kivy.
"""

from __future__ import annotations

from games import cards as C
from games.follow_the_rules import HandResult
from games.seats import VISITOR
from kiosk.table.gin_turns import Text, _


def computer_play_text(card: int, led: bool, taker: int | None) -> Text:
    """The computer's card in one sentence: a lead, or a follow and who took the trick."""
    sign = C.pretty(card)
    if led:
        return _("The computer leads the {card}."), {"card": sign}
    if taker == VISITOR:
        return _("The computer plays the {card}: you take the trick."), {"card": sign}
    return _("The computer plays the {card} and takes the trick."), {"card": sign}


def visitor_trick_text(taker: int) -> Text:
    """After the visitor's card ends a trick: who took it."""
    if taker == VISITOR:
        return _("You take the trick."), {}
    return _("The computer takes the trick."), {}


def trumps_text(trump: int) -> Text:
    return _("Trumps: {suit}"), {"suit": C.SUIT_SYMBOLS[trump]}


def _who(seat: int) -> str:
    return _("you") if seat == VISITOR else _("the computer")


def hand_lines(result: HandResult) -> list[Text]:
    """The hand's points explained, one line each: High, Low, Jack, then Game with both
    players' card points. ``who`` fields are msgids too (the screen translates them)."""
    trump = result.trump
    lines: list[Text] = []
    for msgid, rank, seat in ((_("High ({card}): {who}"), C.ACE, result.high),
                              (_("Low ({card}): {who}"), 2, result.low),
                              (_("Jack ({card}): {who}"), C.JACK, result.jack)):
        lines.append((msgid, {"card": C.pretty(C.card(rank, trump)), "who": _who(seat)}))
    you, them = result.card_points
    if result.game < 0:
        lines.append((_("Game: {you} card points each, nobody scores"), {"you": you}))
    else:
        lines.append((_("Game ({you} to {them} card points): {who}"),
                      {"you": you, "them": them, "who": _who(result.game)}))
    return lines


def points_text(result: HandResult) -> Text:
    """The hand's points for each side (as counted for the match)."""
    you, them = result.counted
    return _("This hand: you {you}, the computer {them}."), {"you": you, "them": them}
