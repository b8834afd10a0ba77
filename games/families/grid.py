"""Shared machinery for games played on a grid of single-card cells (Monte Carlo, Leapfrog,
Make Ten): a stock on the left, the cells in rows, removed cards on a discard pile.

A solver asks "which cells touch?" millions of times, so the neighbour tables are computed
once per grid shape and kept as tuples of pile indices.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ..engine import cards as C
from ..engine.game import Game
from ..engine.model import Move, PileSpec
from ..engine.reason import Card, GameName, Reason
from ..engine.rng import Rng


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


def triangle_covers(rows: int) -> list[tuple[int, ...]]:
    """For each place of a triangle of ``rows`` rows (reading order, apex first), the two
    places of the next row lying on it, as a pyramid of cards overlaps."""
    out: list[tuple[int, ...]] = []
    for r in range(rows):
        for k in range(r + 1):
            below = (r + 1) * (r + 2) // 2 + k
            out.append((below, below + 1) if r + 1 < rows else ())
    return out


@cache
def around(rows: int, cols: int) -> tuple[frozenset[int], ...]:
    """For each cell (reading order, from 0), the cells touching it, diagonals included."""
    return tuple(
        frozenset(r * cols + c
                  for r in range(i // cols - 1, i // cols + 2)
                  for c in range(i % cols - 1, i % cols + 2)
                  if 0 <= r < rows and 0 <= c < cols and r * cols + c != i)
        for i in range(rows * cols))


@cache
def beside(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each cell (reading order, from 0), the cells sharing a side with it: above, left,
    right, below, the order a sliding puzzle lists its slides in."""
    return tuple(
        tuple(r * cols + c for r, c in ((i // cols - 1, i % cols), (i // cols, i % cols - 1),
                                        (i // cols, i % cols + 1), (i // cols + 1, i % cols))
              if 0 <= r < rows and 0 <= c < cols)
        for i in range(rows * cols))


class CellGame(Game):
    """Stock ``S``, cells ``G1..Gn`` in rows, discard ``D``. Subclasses give :meth:`shape`.

    ``self.cell`` holds the pile indices of the cells in reading order.
    """

    #: vertical distance between rows of cells, in card widths (1.6 leaves a 0.2 gap)
    row_step: float = 1.6
    #: the touching pairs of cells, in layout order (set by a game whose pairs must touch)
    _touch: frozenset[tuple[int, ...]]

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

    def new_deck(self) -> list[int]:
        """The cards this game plays with, in order (a game without some ranks says so)."""
        return list(range(52))

    def deal(self, rng: Rng) -> None:
        """Cells face up in reading order, the rest face down on the stock."""
        deck = self.new_deck()
        rng.shuffle(deck)
        for i in self.cell:
            self.put(i, deck.pop())
        self.put_stock(self.stock, deck)

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

    #: ``remove:G4,G2`` names the same cards as ``remove:G2,G4``
    unordered = ("remove",)

    @staticmethod
    def removal(piles: Iterable[int]) -> Move:
        """The one form :meth:`legal_moves` lists of removing ``piles``: in layout order."""
        p = sorted(piles)
        return Move("remove", p[0], p[1], 1, tuple(p[2:]))

    #: the refusal of a "move" of cards: a game says what its player does instead
    not_moved = Reason("That move is not possible now.")

    def explain(self, move: Move) -> Reason:
        """The refusals every removal game shares (a card moved, a kind of move the game does
        not have, cells that cannot be named), so that :meth:`explain_removal` judges only
        the cards a removal names, by the game's own rule."""
        if move.kind == "move":
            return self.not_moved
        if move.kind != "remove":
            return Reason("That is not a move in {game}.", game=GameName(self.info.id))
        named = self.named_cells(move)
        if isinstance(named, Reason):
            return named
        return self.explain_removal(named)

    def explain_removal(self, named: list[int]) -> Reason:
        """Why the cards in the cells ``named`` (all different, all holding a card) cannot be
        removed together now."""
        return Reason("That move is not possible now.")

    def touching_pair_refusal(self, named: list[int]) -> Reason | None:
        """Why ``named`` is not two touching cells (``self._touch`` lists the touching pairs
        in layout order), or None when it is."""
        if len(named) != 2:
            return Reason("Cards are removed two at a time.")
        if tuple(sorted(named)) not in self._touch:
            return Reason("The two cards must touch: side by side, one above the other or "
                          "corner to corner.")
        return None

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
        """The top card of ``pile``, as a parameter of a :class:`~games.engine.reason.Reason`."""
        return Card(self.cards[pile][-1])
