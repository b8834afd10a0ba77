"""Friday the Thirteenth (000 #4): thirteen foundations of four, started J, Q, K, A, 2 ... 10."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import RANK
from .engine.model import GameInfo, Move, PileSpec
from .engine.reason import Rank, Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import Build, PatienceGame, Rule, roles

#: the rank each of the thirteen slots is started with, left to right
BASES = (11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
LABELS = ("J", "Q", "K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10")




@register
class FridayTheThirteenth(PatienceGame):
    info = GameInfo(
        id="friday_the_thirteenth",
        source="000_5c0014aada07c9b6.txt", source_game="4",
        decks=1, kind="S-luck", difficulty=1,
    )
    draw = 1
    redeals = 1
    standard_foundations = False
    RULES = {
        "foundation": Rule(Build("any", +1, wrap=True), empty="base", take="none", max_cards=4,
                           sources=roles("waste"), name="foundation"),
        "waste": Rule(take="top", empty="none", name="waste"),
    }

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 0, 1.6)
        for i, label in enumerate(LABELS):
            row, col = divmod(i, 7)
            x = 1.4 + 1.2 * col + 0.6 * row
            yield PileSpec(f"F{i + 1}", "foundation", x, 1.6 * row, label=label)

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        order = deck[::-1]  # the top of the pack first
        picked = [next(c for c in order if RANK[c] == r) for r in BASES[:4]]
        for f, c in zip(self.foundations, picked, strict=False):
            self.put(f, c)
        self.init_stock([c for c in order if c not in picked])

    def prepare(self) -> None:
        super().prepare()
        self._plays = tuple((f, base, Move("move", self.waste, f))
                            for f, base in zip(self.foundations, BASES, strict=True))

    def legal_moves(self) -> list[Move]:
        """Only the waste card ever moves: straight to the foundations that take it."""
        moves: list[Move] = []
        self.stock_moves(moves)
        waste = self.cards[self.waste]
        if waste:
            r = RANK[waste[-1]]
            for f, base, play in self._plays:
                pile = self.cards[f]
                if not pile:  # slots fill from the left: this is the next one
                    if r == base:
                        moves.append(play)
                    break
                if len(pile) < 4 and RANK[pile[-1]] % 13 + 1 == r:
                    moves.append(play)
        return moves

    def next_slot(self) -> int:
        """The leftmost empty foundation, or -1."""
        return next((f for f in self.foundations if not self.cards[f]), -1)

    def empty_accepts(self, d: int, c: int) -> bool:
        return d == self.next_slot() and RANK[c] == BASES[d - self.foundations[0]]

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if d in self.foundations and not self.cards[d] and s == self.waste and self.cards[s]:
            slot = self.next_slot()
            if d != slot:
                return Reason("Foundations are started from left to right: the next empty slot "
                              "takes {rank:a}.", rank=Rank(BASES[slot - self.foundations[0]]))
            return Reason("Only {rank:a} can start this foundation.",
                          rank=Rank(BASES[d - self.foundations[0]]))
        return super().explain_card_move(s, d, n)
