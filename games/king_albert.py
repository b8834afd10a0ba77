"""King Albert (000 #16): an open ladder of nine columns and the seven-card Belgian Reserve.

The source lets a column's top card go back into the reserve while it holds fewer than seven
cards, which makes the reserve seven free cells; the standard game never refills it
(option ``reserve_refill=False``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .engine.model import GameInfo, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.open_patience import OpenPatience
from .families.patience import FOUNDATION, Build, Rule, roles

#: column pitch: nine columns and the foundations in a screen width
PITCH = 1.05


@register
class KingAlbert(OpenPatience):
    info = GameInfo(
        id="king_albert",
        source="000_5c0014aada07c9b6.txt", source_game="16",
        decks=1, kind="S-open", difficulty=3,
    )
    options = (
        Option("reserve_refill", True, (True, False),
               "column tops may go back into empty reserve places (the source's rule)"),
    )

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            return Rule(FOUNDATION.build, empty="ace", take="top", max_cards=13,
                        sources=roles("tableau", "cell"), name="foundation")
        if spec.role == "tableau":
            return Rule(Build("alt", -1), empty="any", take="top", name="column")
        refill = self.opts["reserve_refill"]
        return Rule(empty="any" if refill else "none", take="top", max_cards=1,
                    sources=roles("tableau"), name="reserve place")

    def build_layout(self) -> Iterable[PileSpec]:
        """Reserve along the top and foundations down the right, so the columns, which start
        up to nine cards deep, have the whole height below them."""
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 9.5, round(1.6 * i, 2), label="A")
        for i in range(9):
            yield PileSpec(f"T{i + 1}", "tableau", round(PITCH * i, 2), 1.6, fan="down")
        for i in range(7):
            yield PileSpec(f"C{i + 1}", "cell", round(1.2 * i, 2), 0)

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        cols = self.tableau
        for row in range(9):
            for col in range(row, 9):
                self.put(cols[col], deck.pop())
        for c in self.cells:
            self.put(c, deck.pop())

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if s != d and self.cards[s]:
            if self._role[d] == "cell" and self.cards[d] and self._role[s] == "tableau":
                return Reason("That reserve place is already taken.")
        return super().explain_card_move(s, d, n)
