"""Bagua, the poker Eight-Trigrams formation (004): remove pairs from the edge of a square.

The deal grows outwards from the centre card (Taiji) as the source tells it, to a 7×7 square
plus three cards on the next ring (above, below, left). A card on the edge, one with an empty
cell or the table's edge among its neighbours, may be removed together with another edge card
when their values add up to B or B + 13, where B is the Taiji's value. The board never changes
shape, so neighbours are looked up in tables made once.
"""

from __future__ import annotations

from collections.abc import Iterable

from .engine import cards as C
from .engine.cards import RANK
from .engine.game import Game
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Card, Reason
from .engine.registry import register
from .engine.rng import Rng


def _ring(r: int) -> list[tuple[int, int]]:
    """Cells of ring ``r`` clockwise from the top middle (x right, y down)."""
    top = [(x, -r) for x in range(0, r + 1)]
    right = [(r, y) for y in range(-r + 1, r + 1)]
    bottom = [(x, r) for x in range(r - 1, -r - 1, -1)]
    left = [(-r, y) for y in range(r - 1, -r - 1, -1)]
    back = [(x, -r) for x in range(-r + 1, 0)]
    return top + right + bottom + left + back


#: where the n-th dealt card goes: Taiji, the two forms, the four images, the corners, rings
#: 2 and 3 clockwise, then a new ring begun above, below and to the left, as the source does
DEAL_ORDER: tuple[tuple[int, int], ...] = (
    (0, 0), (0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1),
    *_ring(2), *_ring(3), (0, -4), (0, 4), (-4, 0),
)
#: the cells in reading order: this is the order of the piles G1..G52
CELLS: tuple[tuple[int, int], ...] = tuple(sorted(DEAL_ORDER, key=lambda p: (p[1], p[0])))
EIGHT = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
FOUR = ((0, -1), (-1, 0), (1, 0), (0, 1))
#: PARTNER[b][v]: the one value that pairs with v when the base is b (sum b or b + 13)
PARTNER = tuple(tuple(b - v if v < b else b + 13 - v for v in range(14)) for b in range(14))
#: builds a Move from a ready tuple, for speed in the solver's inner loop
_remove = Move._make
#: grid pitch in card widths: rows overlap, leaving each card's top (and its index) in sight
PX, PY = 1.1, 0.62


@register
class Bagua(Game):
    info = GameInfo(
        id="bagua",
        source="004_0492660aee659235.txt", source_game="1",
        decks=1, kind="S-open", difficulty=1,
    )
    options = (
        Option("outer_neighbourhood", "eight", ("eight", "orthogonal"),
               "which neighbours count when deciding if a card is on the edge"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i, (x, y) in enumerate(CELLS):
            yield PileSpec(f"G{i + 1}", "grid", round((x + 4) * PX, 2), round((y + 4) * PY, 2))
        yield PileSpec("D", "discard", round(8 * PX + 0.3, 2), 0)

    def prepare(self) -> None:
        at = {p: i for i, p in enumerate(CELLS)}
        steps = EIGHT if self.opts["outer_neighbourhood"] == "eight" else FOUR
        self.grid = range(len(CELLS))
        self.discard = len(CELLS)
        #: in-grid neighbours of each cell, and whether a neighbour lies off the grid
        self.neighbours = tuple(
            tuple(at[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in at)
            for x, y in CELLS)
        self.edge = bytes(len(n) < len(steps) for n in self.neighbours)
        self.deal_cells = tuple(at[p] for p in DEAL_ORDER)
        self.centre = at[(0, 0)]

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for cell, c in zip(self.deal_cells, deck, strict=True):
            self.put(cell, c)
        self.vars["base"] = RANK[self.cards[self.centre][0]]

    def settle(self) -> None:
        """Every card is face up and nothing happens by itself."""

    @property
    def base(self) -> int:
        return self.vars["base"]

    def outer(self) -> list[int]:
        """Cells holding an edge card, in reading order."""
        cards = self.cards
        flag = bytearray(self.edge)
        for p in self.grid:
            if not cards[p]:
                for q in self.neighbours[p]:
                    flag[q] = 1
        return [p for p in self.grid if flag[p] and cards[p]]

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        partner = PARTNER[self.vars["base"]]
        by_value: list[list[int]] = [[] for _ in range(14)]
        for p in self.outer():
            by_value[RANK[cards[p][0]]].append(p)
        moves: list[Move] = []
        add = moves.append
        for v in range(1, 14):
            cells, w = by_value[v], partner[v]
            if not cells or w < v:
                continue
            if w == v:
                for i, a in enumerate(cells):
                    for b in cells[i + 1:]:
                        add(_remove(("remove", a, b, 1, ())))
            else:
                for a in cells:
                    for b in by_value[w]:
                        add(_remove(("remove", a, b, 1, ()) if a < b else ("remove", b, a, 1, ())))
        return moves

    def apply(self, move: Move) -> None:
        if move.kind != "remove":
            raise ValueError(f"bagua has no move {move.kind!r}")
        self._move_cards(move.src, self.discard)
        self._move_cards(move.dst, self.discard)

    def make_move(self, kind: str, piles: list[int], n: int) -> Move:
        """A pair is the same move whichever card is named first."""
        if kind == "remove" and len(piles) == 2 and n == 1:
            return Move("remove", min(piles), max(piles))
        return super().make_move(kind, piles, n)

    @property
    def won(self) -> bool:
        return len(self.cards[self.discard]) == 52

    @property
    def score(self) -> int:
        return len(self.cards[self.discard])

    def describe(self, move: Move) -> str:
        if move.kind == "remove" and self.cards[move.src] and self.cards[move.dst]:
            a, b = self.cards[move.src][0], self.cards[move.dst][0]
            return f"remove {C.pretty(a)} and {C.pretty(b)}"
        return super().describe(move)

    def canonical(self, move: Move) -> Move:
        """A pair is the same move whichever card is named first."""
        if move.kind == "remove" and move.src > move.dst:
            move = move._replace(src=move.dst, dst=move.src)
        return move

    def explain(self, move: Move) -> Reason:
        b = self.base
        if move.kind != "remove":
            return Reason("In Bagua cards are not moved: remove two edge cards that add up to "
                          "{a} or {b}.", a=b, b=b + 13)
        a, c = move.src, move.dst
        if not (0 <= a < self.discard and 0 <= c < self.discard) or move.n != 1 or move.extra:
            return Reason("Choose two cards in the square.")
        if a == c:
            return Reason("Choose two different cards.")
        if not self.cards[a] or not self.cards[c]:
            return Reason("There is no card there any more.")
        outer = self.outer()
        for p in (a, c):
            if p not in outer:
                card = Card(self.cards[p][0])
                if self.opts["outer_neighbourhood"] == "eight":
                    return Reason("The {card} has cards on all eight sides, so it cannot be "
                                  "taken yet.", card=card)
                return Reason("The {card} has cards on all four sides, so it cannot be taken "
                              "yet.", card=card)
        x, y = self.cards[a][0], self.cards[c][0]
        return Reason("{card} and {card2} add up to {n}, but a pair must add up to {a} or {b}.",
                      card=Card(x), card2=Card(y), n=RANK[x] + RANK[y], a=b, b=b + 13)
