"""Maze (000 #26): slide 48 cards through six gaps until they read as four suit runs A to Q."""

from __future__ import annotations

from collections.abc import Iterable

from .engine import cards as C
from .engine.cards import RANK
from .engine.game import Game
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Card, Either, Rank, Reason
from .engine.registry import register
from .engine.rng import Rng

ROWS, COLS = 6, 9
CELLS = ROWS * COLS
QUEEN = 12
#: reading order is a ring: the last cell of a row leads to the first of the next, and the
#: very last cell back to the first
LEFT = tuple((i - 1) % CELLS for i in range(CELLS))
RIGHT = tuple((i + 1) % CELLS for i in range(CELLS))
ACES = tuple(C.card(1, s) for s in range(4))
#: the cells the first two rows leave empty in the deal
DEAL_GAPS = frozenset((COLS - 1, 2 * COLS - 1))


def follows(a: int, b: int) -> bool:
    """Whether ``b`` may come right after ``a`` in a finished maze."""
    return b == a + 1 and RANK[a] < QUEEN or RANK[a] == QUEEN and RANK[b] == 1


@register
class Maze(Game):
    info = GameInfo(
        id="maze",
        source="000_5c0014aada07c9b6.txt", source_game="26",
        decks=1, kind="S-open", difficulty=4, score_better="higher",
    )
    options = (
        Option("strict_start", False, (False, True),
               "the first card of row 1 must be an ace, so no run wraps round"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i in range(CELLS):
            r, c = divmod(i, COLS)
            # six rows only fit the screen's height overlapped; each card's top stays visible
            yield PileSpec(f"G{i + 1}", "grid", round(1.05 * c, 2), float(r))
        yield PileSpec("D", "discard", 9.5, 0)

    def prepare(self) -> None:
        self.grid: tuple[int, ...] = tuple(self.roles["grid"])
        self.discard = self.first("discard")
        self.strict = self.opts["strict_start"]

    def deal(self, rng: Rng) -> None:
        deck = C.deck()
        rng.shuffle(deck)
        for k, g in enumerate(self.grid):
            if k not in DEAL_GAPS:
                c = deck.pop()
                self.put(self.discard if RANK[c] == C.KING else g, c)

    def cells(self) -> list[int]:
        """The card in each cell in reading order, -1 for a gap."""
        cards = self.cards
        return [cards[g][-1] if cards[g] else -1 for g in self.grid]

    def wanted(self, cells: list[int], k: int) -> list[int]:
        """The cards that may go into gap ``k``."""
        out: list[int] = []
        left, right = cells[LEFT[k]], cells[RIGHT[k]]
        if left >= 0:
            if RANK[left] == QUEEN:
                out.extend(ACES)
            else:
                out.append(left + 1)
        if right >= 0 and RANK[right] > 1 and right - 1 not in out:
            out.append(right - 1)
        return out

    def legal_moves(self) -> list[Move]:
        cells = self.cells()
        where = {c: k for k, c in enumerate(cells) if c >= 0}
        grid = self.grid
        moves = []
        for k, c in enumerate(cells):
            if c < 0:
                for w in self.wanted(cells, k):
                    if w in where:
                        moves.append(Move("move", grid[where[w]], grid[k]))
        return moves

    def apply(self, move: Move) -> None:
        self._move_cards(move.src, move.dst)

    def settle(self) -> None:
        """All cards lie face up; nothing turns over."""

    def run(self) -> list[int]:
        """The cards in reading order, gaps skipped."""
        return [c for c in self.cells() if c >= 0]

    @property
    def score(self) -> int:
        run = self.run()
        return sum(1 for a, b in zip(run, run[1:] + run[:1], strict=True) if follows(a, b))

    @property
    def won(self) -> bool:
        run = self.run()
        if self.strict and RANK[run[0]] != 1:
            return False
        prev = run[-1]
        for c in run:
            if not follows(prev, c):
                return False
            prev = c
        return True

    def explain(self, move: Move) -> Reason:
        if move.kind != "move":
            return Reason("In Maze you move one card at a time into a gap.")
        s, d = move.src, move.dst
        grid = set(self.grid)
        if s not in grid or d not in grid:
            return Reason("Cards move only between the places of the maze.")
        if not self.cards[s]:
            return Reason("There is no card there.")
        if self.cards[d]:
            return Reason("A card can only go into a gap.")
        if move.n != 1:
            return Reason("Only one card moves at a time.")
        k = self.grid.index(d)
        cells = self.cells()
        left, right = cells[LEFT[k]], cells[RIGHT[k]]
        what = Card(self.cards[s][-1])
        if left < 0 and right < 0:
            return Reason("That gap has gaps on both sides, so nothing can go into it yet.")
        needs = []
        if left >= 0:
            needs.append(Reason("any {rank}", rank=Rank(1)) if RANK[left] == QUEEN
                         else Card(left + 1))
        if right >= 0 and RANK[right] > 1:
            needs.append(Card(right - 1))
        if not needs:
            return Reason("Nothing can go just before an ace.")
        return Reason("That gap takes only {cards:the}, not the {card}.", cards=Either(*needs),
                      card=what)
