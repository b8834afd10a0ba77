"""Eleven-card sliding puzzle (000 #27): the 15-puzzle in miniature, A to J of one suit."""

from __future__ import annotations

from collections.abc import Iterable

from .engine import cards as C
from .engine.game import Game
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.grid import beside

ROWS, COLS = 3, 4
CELLS = ROWS * COLS
#: cells sharing a side with each cell (reading order, from 0)
BESIDE = beside(ROWS, COLS)


def is_even(ranks: list[int]) -> bool:
    """Whether an arrangement is an even permutation: only those can be slid into order with
    the empty place back where it started."""
    inversions = sum(1 for i, a in enumerate(ranks) for b in ranks[i + 1:] if a > b)
    return inversions % 2 == 0


@register
class SlidingEleven(Game):
    info = GameInfo(
        id="sliding_eleven",
        source="000_5c0014aada07c9b6.txt", source_game="27",
        decks=1, kind="Puzzle", difficulty=3, score_better="lower",
    )
    options = (
        Option("suit", "S", tuple(C.SUITS), "the suit of the eleven cards"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i in range(CELLS):
            r, c = divmod(i, COLS)
            yield PileSpec(f"G{i + 1}", "grid", 2.6 + 1.2 * c, 0.4 + 1.6 * r)

    def prepare(self) -> None:
        self.grid: tuple[int, ...] = tuple(self.roles["grid"])
        suit = C.SUITS.index(self.opts["suit"])
        self.goal = tuple(C.card(r, suit) for r in range(1, CELLS))
        self.home = {c: k for k, c in enumerate(self.goal)}

    def deal(self, rng: Rng) -> None:
        order = list(self.goal)
        rng.shuffle(order)
        if not is_even(order):
            # swapping two fixed places maps odd deals one-to-one onto even ones, so every
            # solvable deal stays equally likely
            order[0], order[1] = order[1], order[0]
        for g, c in zip(self.grid, order, strict=False):
            self.put(g, c)

    def hole(self) -> int:
        """The empty place (reading order, from 0)."""
        cards = self.cards
        return next(k for k, g in enumerate(self.grid) if not cards[g])

    def legal_moves(self) -> list[Move]:
        grid, hole = self.grid, self.hole()
        return [Move("slide", grid[k], grid[hole]) for k in BESIDE[hole]]

    def apply(self, move: Move) -> None:
        self._move_cards(move.src, move.dst)

    def settle(self) -> None:
        """All cards lie face up; nothing turns over."""

    @property
    def won(self) -> bool:
        cards = self.cards
        return all(cards[g] == [c] for g, c in zip(self.grid, self.goal, strict=False))

    @property
    def score(self) -> int:
        return len(self.history)

    def explain(self, move: Move) -> Reason:
        if move.kind not in ("slide", "move"):
            return Reason("In this puzzle you only slide cards into the empty place.")
        grid = self.grid
        if move.src not in grid or move.dst not in grid:
            return Reason("Cards slide only between the places of the puzzle.")
        if not self.cards[move.src]:
            return Reason("There is no card there.")
        if self.cards[move.dst]:
            return Reason("A card can only slide into the empty place.")
        if grid.index(move.src) not in BESIDE[grid.index(move.dst)]:
            return Reason("Only a card right beside the empty place (not diagonally) can slide.")
        return Reason("Tap the card to slide it into the empty place.")
