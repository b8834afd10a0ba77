"""Eight Off (000 #18): eight open columns built down in suit, and eight reserve places.

The source's own rule gives the game its Chinese name: no column may ever hold more than eight
cards. Standard Eight Off has no such cap (option ``column_cap=False``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .engine.model import GameInfo, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.open_patience import OpenPatience
from .families.patience import FOUNDATION, Build, Rule, roles

CAP = 8


@register
class EightOff(OpenPatience):
    info = GameInfo(
        id="eight_off",
        source="000_5c0014aada07c9b6.txt", source_game="18",
        decks=1, kind="S-open", difficulty=3,
    )
    options = (
        Option("column_cap", True, (True, False),
               "no column may hold more than 8 cards (the source's rule)"),
    )

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            return FOUNDATION
        if spec.role == "tableau":
            return Rule(Build("same", -1), empty="king", take="top", name="column",
                        max_cards=CAP if self.opts["column_cap"] else 0)
        return Rule(empty="any", take="top", max_cards=1, sources=roles("tableau"),
                    name="reserve place")

    def build_layout(self) -> Iterable[PileSpec]:
        """Reserve along the top and foundations down the right, so the columns have the
        whole height below them."""
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 9.4, round(1.6 * i, 2), label="A")
        for i in range(8):
            yield PileSpec(f"T{i + 1}", "tableau", round(1.15 * i, 2), 1.6, fan="down", label="K")
        for i in range(8):
            yield PileSpec(f"C{i + 1}", "cell", round(1.1 * i, 2), 0)

    def prepare(self) -> None:
        super().prepare()
        self._cap = CAP if self.opts["column_cap"] else 99

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        self.deal_rows(self.tableau, deck, 6)
        for c in self.cells[:4]:
            self.put(c, deck.pop())

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if s != d and self.cards[s]:
            if self._role[d] == "cell" and self.cards[d] and self._role[s] == "tableau":
                return Reason("That reserve place is already taken.")
            if self._role[d] == "tableau" and len(self.cards[d]) >= self._cap:
                return Reason("A column may never hold more than {n} cards.", n=CAP)
        return super().explain_card_move(s, d, n)
