"""Move texts for games played from a hand: ``kind``, ``kind:CARD`` or ``kind:CARD:N``.

Why shared and not in a game file: the games against the computer name their moves the same
way (a move kind, the card it plays, and for some a 1-based place such as the meld a card
is laid off on), and the strict parsing (the card written exactly as :func:`games.engine.cards.text`
writes it, the number in range) is the same each time; a game file keeps only its rules.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable

from . import cards as C
from .model import Move


def card_of(text: str) -> int | None:
    """The card ``text`` names, written as ``cards.text`` writes it (``7C``, ``TD``), or
    None."""
    try:
        card = C.parse(text)
    except (ValueError, KeyError, IndexError):
        return None
    return card if 0 <= card < 52 and C.text(card) == text.upper() else None


def cards_text(cards: Iterable[int]) -> str:
    """Several cards as one word: ``7C+TD`` (Draw Poker's exchange)."""
    return "+".join(C.text(c) for c in cards)


def parse_cards(text: str, deck: Container[int]) -> tuple[int, ...] | None:
    """The cards ``text`` names as :func:`cards_text` writes them, sorted; None unless
    each is written exactly, in ``deck`` and named once."""
    parts = text.upper().split("+")
    try:
        out = [C.parse(x) for x in parts]
    except (ValueError, KeyError, IndexError):
        return None
    if out and len(set(out)) == len(out) and all(
            c in deck and C.text(c) == x for c, x in zip(out, parts, strict=True)):
        return tuple(sorted(out))
    return None


def move_text(move: Move) -> str:
    """``kind``, ``kind:CARD`` (extra = (card,)) or ``kind:CARD:N`` (extra = (card, N-1))."""
    parts = [move.kind]
    if move.extra:
        parts.append(C.text(move.extra[0]))
    if len(move.extra) > 1:
        parts.append(str(move.extra[1] + 1))
    return ":".join(parts)


def parse_text(text: object, plain: Collection[str], with_card: Collection[str],
               with_place: Collection[str] = (), places: int = 0) -> Move | None:
    """The move ``text`` writes, or None: ``plain`` kinds take nothing after them,
    ``with_card`` kinds one card, ``with_place`` kinds a card and a place 1..``places``."""
    if not isinstance(text, str):
        return None
    kind, *rest = text.strip().split(":")
    if kind in plain and not rest:
        return Move(kind)
    card = card_of(rest[0]) if rest else None
    if card is None:
        return None
    if kind in with_card and len(rest) == 1:
        return Move(kind, extra=(card,))
    if kind in with_place and len(rest) == 2 and rest[1].isdigit() \
            and 1 <= int(rest[1]) <= places:
        return Move(kind, extra=(card, int(rest[1]) - 1))
    return None
