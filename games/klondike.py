"""Klondike (000 #15): seven columns, build down in alternating colours, kings to spaces."""

from __future__ import annotations

from .engine.model import GameInfo, Option, PileSpec
from .engine.registry import register
from .families.patience import FOUNDATION, Build, PatienceGame, Rule, roles

VARIANTS = ("standard", "easy", "alt_colour_foundations", "open_same_colour")


@register
class Klondike(PatienceGame):
    info = GameInfo(
        id="klondike",
        source="000_5c0014aada07c9b6.txt", source_game="15",
        decks=1, kind="S-mixed", difficulty=2,
    )
    options = (
        Option("draw", 1, (1, 3), "cards turned from the stock at a time"),
        Option("redeals", 0, (0, 1, 2, -1), "times the waste may be turned over (-1: unlimited)"),
        Option("variant", "standard", VARIANTS, "rule variant from the source"),
    )

    def prepare(self) -> None:
        variant = self.opts["variant"]
        self.draw = self.opts["draw"]
        self.redeals = self.opts["redeals"]
        self.shuffle_redeal = False
        if variant == "alt_colour_foundations":
            self.draw, self.redeals, self.shuffle_redeal = 3, 2, True
            self.standard_foundations = False
        super().prepare()

    def build_layout(self):
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 1.2, 0, fan="right" if self.opts["draw"] == 3 else "none")
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 3.6 + 1.2 * i, 0, label="A")
        for i in range(7):
            yield PileSpec(f"T{i + 1}", "tableau", 1.2 * i, 1.6, fan="down", label="K")

    def rule_for(self, index, spec):
        variant = self.opts["variant"]
        if spec.role == "foundation":
            if variant == "alt_colour_foundations":
                return Rule(Build("alt", +1), empty="ace", take="top", max_cards=13,
                            sources=roles("tableau", "waste"), name="foundation")
            return Rule(FOUNDATION.build, empty="ace", take="top", max_cards=13,
                        sources=roles("tableau", "waste"), name="foundation")
        if spec.role == "tableau":
            if variant == "easy":
                return Rule(Build("any", -1), empty="any", take="run", many=True, name="column")
            if variant == "open_same_colour":
                return Rule(Build("colour", -1), empty="any", take="run", many=True,
                            lift=Build("same", -1), name="column")
            return Rule(Build("alt", -1), empty="king", take="run", many=True, name="column")
        if spec.role == "waste":
            return Rule(take="top", empty="none", name="waste")
        return Rule(take="none", empty="none", name="stock")

    twin_roles = frozenset({"tableau"})

    def deal(self, rng):
        deck = list(range(52))
        rng.shuffle(deck)
        open_deal = self.opts["variant"] == "open_same_colour"
        cols = self.tableau
        for row in range(7):
            for col in range(row, 7):
                self.put(cols[col], deck.pop(), up=open_deal or col == row)
        self.init_stock(deck[::-1])

    def redeal_waste(self) -> None:
        if not self.shuffle_redeal:
            return super().redeal_waste()
        w, s = self.waste, self.stock
        gathered = list(self.cards[w])
        passes = self.redeals - self.vars["redeals"] + 1
        self.rng(passes).shuffle(gathered)
        self._replace(w, [], 0)
        self._replace(s, gathered, len(gathered))
        self._set("redeals", self.vars["redeals"] - 1)
