"""Shared machinery for games played on a grid of single-card cells (Monte Carlo, Leapfrog,
Make Ten): a stock on the left, the cells in rows, removed cards on a discard pile.

A solver asks "which cells touch?" millions of times, so the neighbour tables are computed
once per grid shape and kept as tuples of pile indices.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from . import cards as C
from .engine import Game
from .model import Move, PileSpec
from .reason import Card, Reason
from .rng import Rng


@cache
def touching(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """Pairs ``(i, j)``, ``i < j``, of cells (reading order, from 0) that touch side by side or
    corner to corner."""
    pairs = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                pairs.append((i, rr * cols + cc))
    return tuple(sorted(pairs))


class CellGame(Game):
    """Stock ``S``, cells ``G1..Gn`` in rows, discard ``D``. Subclasses give :meth:`shape`.

    ``self.cell`` holds the pile indices of the cells in reading order.
    """

    #: vertical distance between rows of cells, in card widths (1.6 leaves a 0.2 gap)
    row_step: float = 1.6

    def shape(self) -> tuple[int, ...]:
        """Cells in each row, top to bottom."""
        raise NotImplementedError

    def build_layout(self) -> Iterable[PileSpec]:
        rows = self.shape()
        widest = max(rows)
        yield PileSpec("S", "stock", 0, 0)
        n = 0
        for r, width in enumerate(rows):
            for c in range(width):
                n += 1
                x = 1.4 + 1.2 * (c + (widest - width) / 2)
                yield PileSpec(f"G{n}", "grid", round(x, 2), round(r * self.row_step, 2))
        yield PileSpec("D", "discard", 0, 1.6)

    def prepare(self) -> None:
        self.stock = self.first("stock")
        self.discard = self.first("discard")
        self.cell: tuple[int, ...] = tuple(self.roles["grid"])

    def deal(self, rng: Rng) -> None:
        """Cells face up in reading order, the rest face down on the stock."""
        deck = list(range(52))
        rng.shuffle(deck)
        for i in self.cell:
            self.put(i, deck.pop())
        for c in deck:
            self.put(self.stock, c, up=False)

    def discard_top(self, *piles: int) -> None:
        for p in piles:
            self._move_cards(p, self.discard)

    def fill_from_stock(self, pile: int) -> None:
        self._move_cards(self.stock, pile)

    @property
    def cards_left(self) -> int:
        """Cards not yet removed (cells and stock)."""
        cards = self.cards
        return len(cards[self.stock]) + sum(1 for p in self.cell if cards[p])

    @property
    def won(self) -> bool:
        return not self.cards_left

    @property
    def score(self) -> int:
        return self.cards_left

    def make_move(self, kind: str, piles: list[int], n: int) -> Move:
        """``remove:G4,G2`` names the same cards as ``remove:G2,G4``."""
        return super().make_move(kind, sorted(piles) if kind == "remove" else piles, n)

    def named_cells(self, move: Move) -> list[int] | Reason:
        """The cells a move names, or a sentence saying why they cannot be used."""
        piles = [p for p in (move.src, move.dst, *move.extra) if p >= 0]
        cells = set(self.cell)
        if any(p not in cells for p in piles):
            return Reason("Only cards in the layout can be used.")
        if len(set(piles)) != len(piles):
            return Reason("Pick different cards.")
        if any(not self.cards[p] for p in piles):
            return Reason("There is no card there.")
        return piles

    def pretty(self, pile: int) -> str:
        return C.pretty(self.cards[pile][-1])

    def card_at(self, pile: int) -> Card:
        """The top card of ``pile``, as a parameter of a :class:`~games.reason.Reason`."""
        return Card(self.cards[pile][-1])
