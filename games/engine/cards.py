"""Cards as small integers.

A card is an ``int``: ``deck * 52 + suit * 13 + (rank - 1)``. Integers keep piles as plain
lists, make state keys cheap to build (``bytes(pile)``) and let two-deck games tell the two
copies of a card apart while still printing them the same way. Jokers get codes from 104 up.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
BLACK, RED = 0, 1
JOKER = 104
MAX_CODE = 108

#: rank (1..13) of each card code; 0 for a joker
RANK: tuple[int, ...] = tuple((c % 13) + 1 if c < JOKER else 0 for c in range(MAX_CODE))
#: suit (0..3) of each card code; 4 for a joker
SUIT: tuple[int, ...] = tuple((c // 13) % 4 if c < JOKER else 4 for c in range(MAX_CODE))
#: colour (BLACK or RED) of each card code; 2 for a joker
COLOUR: tuple[int, ...] = tuple(
    (RED if SUIT[c] in (DIAMONDS, HEARTS) else BLACK) if c < JOKER else 2 for c in range(MAX_CODE)
)


def card(rank: int, suit: int, deck: int = 0) -> int:
    """The code of a card: ``card(KING, HEARTS)``."""
    if not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise ValueError(f"no such card: rank {rank}, suit {suit}")
    return deck * 52 + suit * 13 + rank - 1


def deck(decks: int = 1, ranks: tuple[int, ...] | None = None, jokers: int = 0) -> list[int]:
    """A fresh, ordered deck: suits C, D, H, S, each A..K (or only ``ranks``)."""
    wanted = set(ranks) if ranks else None
    cards = [
        c for c in range(52 * decks) if wanted is None or RANK[c] in wanted
    ]
    cards.extend(JOKER + i for i in range(jokers))
    return cards


def text(c: int) -> str:
    """Two-character notation, rank then suit: ``'TH'`` is the ten of hearts, ``'JK'`` a joker."""
    if c >= JOKER:
        return "JK"
    return RANKS[RANK[c] - 1] + SUITS[SUIT[c]]


def pretty(c: int) -> str:
    """What a player reads: ``'10♥'``."""
    if c >= JOKER:
        return "joker"
    r = RANK[c]
    return ("10" if r == 10 else RANKS[r - 1]) + SUIT_SYMBOLS[SUIT[c]]


def name(c: int) -> str:
    """Spelled out, for messages: ``'the 10 of hearts'``."""
    if c >= JOKER:
        return "the joker"
    return f"the {RANK_NAMES[RANK[c]]} of {SUIT_NAMES[SUIT[c]]}"


def parse(s: str, deck_index: int = 0) -> int:
    """Inverse of :func:`text` (also accepts ``10`` for ``T`` and lower case)."""
    s = s.strip().upper()
    if s == "JK":
        return JOKER + deck_index
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s[0] not in RANKS or s[1] not in SUITS:
        raise ValueError(f"not a card: {s!r} (write rank then suit, e.g. 'TH' or 'QS')")
    return card(RANKS.index(s[0]) + 1, SUITS.index(s[1]), deck_index)


def rank_word(r: int) -> str:
    return RANK_NAMES[r] if r > 10 or r == 1 else str(r)


def article(word: str) -> str:
    """'an' before 'ace' and '8', 'a' otherwise."""
    return "an" if word[:1] in ("a", "8") or word.startswith("11") else "a"


def colour_word(colour: int) -> str:
    return "red" if colour == RED else "black"
