"""Shared machinery for the removal games (Accordion, Royal Marriage, Aces Up, Pyramid ...).

In these games cards leave the table instead of being built into foundations. They still
never leave the game: they go to a pile with role ``discard``, so the property tests can
check the deck stays whole. Accordion and Royal Marriage lay their cards in one long row
that closes up when a pile disappears; :class:`RowGame` keeps that row contiguous from its
first pile, so its length needs no counter and a constructed test position needs no extra
variables.
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import RANK, SUIT
from .engine import Game
from .model import PileSpec

#: ``MATCH[a][b]``: the two cards share a suit or a rank (Accordion, Royal Marriage)
MATCH: tuple[tuple[bool, ...], ...] = tuple(
    tuple(SUIT[a] == SUIT[b] or RANK[a] == RANK[b] for b in range(52)) for a in range(52)
)


def row_layout(count: int, per_line: int, dx: float, dy: float = 1.5, x: float = 0.0,
               y: float = 0.0, prefix: str = "T") -> Iterator[PileSpec]:
    """One logical row of single piles wrapped into lines, read left to right, top to bottom.

    ``dx`` below 1.2 lets neighbours overlap a little, which keeps 13 piles in a screen width
    while the rank and suit in each card's corner stay visible.
    """
    for i in range(count):
        line, col = divmod(i, per_line)
        yield PileSpec(f"{prefix}{i + 1}", "tableau", round(x + col * dx, 2),
                       round(y + line * dy, 2), autoflip=False)


class RowGame(Game):
    """A game whose piles ``self.row`` form one row without gaps, first pile leftmost."""

    row: list[int]
    #: position of a pile in the row, or -1 for a pile that is not part of it
    row_pos: list[int]

    def prepare(self) -> None:
        self.row = list(self.roles["tableau"])
        self.row_pos = [-1] * len(self.layout)
        for k, p in enumerate(self.row):
            self.row_pos[p] = k

    def row_length(self) -> int:
        cards = self.cards
        n = 0
        for p in self.row:
            if not cards[p]:
                break
            n += 1
        return n

    def close_up(self, first: int, gap: int) -> None:
        """Shift every pile after the ``gap`` empty places at ``first`` that far to the left."""
        cards, row = self.cards, self.row
        j = first + gap
        while j < len(row) and cards[row[j]]:
            self._move_cards(row[j], row[j - gap], len(cards[row[j]]))
            j += 1
