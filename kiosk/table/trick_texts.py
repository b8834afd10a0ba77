"""The words of the Follow the Rules table: what the computer played, who took the trick,
and the points of a finished hand, one line each.

Msgids of the kiosk catalog with their fields, as in :mod:`kiosk.table.gin_turns`, so the
screen translates them in the visitor's language and the tests read them without Kivy.
"""

from __future__ import annotations

from games.engine import cards as C
from games.families.seats import VISITOR
from games.families.trick_records import HandResult
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


#: a point's line, and the same line for a point the count stopped before (High always
#: counts: it is the first)
_LINES = {
    "high": (_("High ({card}): {who}"), None),
    "low": (_("Low ({card}): {who}"), _("Low ({card}): {who}, not counted")),
    "jack": (_("Jack ({card}): {who}"), _("Jack ({card}): {who}, not counted")),
    "game": (_("Game ({you} to {them} card points): {who}"),
             _("Game ({you} to {them} card points): {who}, not counted")),
}
#: who reached the match's target, and with which point
_REACHED = {
    (True, "high"): _("You reach {target} with High; the points after it do not count."),
    (True, "low"): _("You reach {target} with Low; the points after it do not count."),
    (True, "jack"): _("You reach {target} with Jack; the points after it do not count."),
    (True, "game"): _("You reach {target} with Game."),
    (False, "high"): _("The computer reaches {target} with High; the points after it do not count."),
    (False, "low"): _("The computer reaches {target} with Low; the points after it do not count."),
    (False, "jack"): _("The computer reaches {target} with Jack; the points after it do not count."),
    (False, "game"): _("The computer reaches {target} with Game."),
}


def hand_lines(result: HandResult) -> list[Text]:
    """The hand's points explained, one line each: High, Low, Jack, then Game with both
    players' card points; a point after the one that reached the match's target says it
    is not counted, so the lines agree with the hand's score. ``who`` fields are msgids
    too (the screen translates them)."""
    trump = result.trump
    skipped = set(result.not_counted())
    lines: list[Text] = []
    for point, rank in (("high", C.ACE), ("low", 2), ("jack", C.JACK)):
        seat = result.seat_of(point)
        counted, not_counted = _LINES[point]
        lines.append((not_counted if point in skipped and not_counted else counted,
                      {"card": C.pretty(C.card(rank, trump)), "who": _who(seat)}))
    you, them = result.card_points
    if result.game < 0:
        lines.append((_("Game: {you} card points each, nobody scores"), {"you": you}))
    else:
        counted, not_counted = _LINES["game"]
        lines.append((not_counted if "game" in skipped else counted,
                      {"you": you, "them": them, "who": _who(result.game)}))
    return lines


def reached_text(result: HandResult, target: int) -> Text | None:
    """Who reached the match's target and with which point (the count stops there);
    None when nobody did this hand."""
    if not result.reached:
        return None
    return _REACHED[(result.match_winner == VISITOR, result.reached)], {"target": target}


def points_text(result: HandResult) -> Text:
    """The hand's points for each side (as counted for the match)."""
    you, them = result.counted
    return _("This hand: you {you}, the computer {them}."), {"you": you, "them": them}


def led_text(lead: int) -> Text:
    """Over the trick: the suit the computer led, which the visitor must follow."""
    return _("Led: {suit}"), {"suit": C.SUIT_SYMBOLS[C.SUIT[lead]]}


def follow_text(lead: int, trump: int, hand: list[int], playable: list[int]) -> Text:
    """What the visitor must play to the computer's card, and why some cards are dimmed."""
    suit, trumps = C.SUIT_SYMBOLS[C.SUIT[lead]], C.SUIT_SYMBOLS[trump]
    dimmed = len(playable) < len(hand)
    if not any(C.SUIT[c] in (C.SUIT[lead], trump) for c in hand):
        return _("You have no {suit} and no trump: play any card."), {"suit": suit}
    if C.SUIT[lead] == trump:
        if dimmed:
            return _("Trumps ({trump}) were led: play a trump. The dimmed cards may not be "
                     "played."), {"trump": trumps}
        return _("Trumps ({trump}) were led: play a trump."), {"trump": trumps}
    if dimmed:
        return _("Follow {suit} or play a trump ({trump}). The dimmed cards may not be "
                 "played."), {"suit": suit, "trump": trumps}
    return _("Follow {suit} or play a trump ({trump})."), {"suit": suit, "trump": trumps}


def trick_tip(phase: str, lead: int, trump: int) -> Text:
    """The first hand's tip when the visitor leads or follows."""
    if phase == "lead":
        return _("Tip: the higher card of the suit led takes the trick; a trump beats every "
                 "other suit."), {}
    return _("Tip: a higher {suit} or a trump takes the trick."), \
        {"suit": C.SUIT_SYMBOLS[C.SUIT[lead]]}
