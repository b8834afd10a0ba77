"""Florentine (000 #9): a cross of five, foundations from the sixth card's rank, one redeal."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import RANK
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Rank, Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import Build, PatienceGame, Rule, roles

CENTRE_REFILLS = ("either", "waste", "stock")
REFILL_FROM = {
    "either": Reason("An empty centre is filled from the waste or the stock."),
    "waste": Reason("An empty centre is filled from the waste."),
    "stock": Reason("An empty centre is filled from the stock."),
}


@register
class Florentine(PatienceGame):
    info = GameInfo(
        id="florentine",
        source="000_5c0014aada07c9b6.txt", source_game="9",
        decks=1, kind="S-mixed", difficulty=3,
    )
    options = (
        Option("outer_wrap", True, (True, False), "a king may go on an ace on the outer piles"),
        Option("centre_refill", "either", CENTRE_REFILLS,
               "what fills an empty centre: the top waste card, the next stock card, or either"),
        Option("centre_to_foundation", True, (True, False),
               "the centre card may go straight to a foundation"),
        Option("stock_to_empty_outer", True, (True, False),
               "when the waste is empty, the next stock card may fill an empty outer place"),
    )
    draw = 1
    redeals = 1
    standard_foundations = False
    #: accepts() below only changes what an empty outer place takes
    ACCEPTS_BY_BUILD = True

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 4.0, 0)
        yield PileSpec("W", "waste", 4.0, 1.6)
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 2.4 * (i % 2), 3.2 * (i // 2))
        for i, (x, y) in enumerate(((1.2, 0), (0, 1.6), (2.4, 1.6), (1.2, 3.2))):
            yield PileSpec(f"T{i + 1}", "tableau", x, y)
        yield PileSpec("C", "cell", 1.2, 1.6, label="centre")

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        o = self.opts
        if spec.role == "foundation":
            src = roles("waste", "tableau", "cell") if o["centre_to_foundation"] \
                else roles("waste", "tableau")
            return Rule(Build("same", +1, wrap=True), empty="base", take="none", max_cards=13,
                        sources=src, name="foundation")
        if spec.role == "tableau":
            return Rule(Build("any", -1, wrap=o["outer_wrap"]), take="top",
                        sources=roles("waste", "tableau"), name="outer pile")
        if spec.role == "cell":
            from_waste = o["centre_refill"] != "stock"
            return Rule(take="top", empty="any" if from_waste else "none", max_cards=1,
                        sources=roles("waste") if from_waste else frozenset(), name="centre")
        if spec.role == "waste":
            return Rule(take="top", empty="none", name="waste")
        return Rule(take="none", empty="none", name="stock")

    def prepare(self) -> None:
        super().prepare()
        self.centre = self.first("cell")

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        top, left, right, bottom = self.tableau
        for p in (top, left, self.centre, right, bottom, self.foundations[0]):
            self.put(p, deck.pop())
        self.vars["base"] = RANK[self.cards[self.foundations[0]][0]]
        self.init_stock(deck[::-1])

    # ------------------------------------------------------------------ rules
    def accepts(self, d: int, s: int, n: int) -> bool:
        if d in self.tableau and not self.cards[d]:
            # an empty outer place takes the waste card or the centre card, never an outer card
            return s == self.waste or s == self.centre
        return super().accepts(d, s, n)

    def extra_moves(self, moves: list[Move]) -> None:
        """The next stock card, unseen, may fill the centre or (waste empty) an outer place."""
        s = self.stock
        if not self.cards[s]:
            return
        if not self.cards[self.centre] and self.opts["centre_refill"] != "waste":
            moves.append(Move("move", s, self.centre))
        if self.opts["stock_to_empty_outer"] and not self.cards[self.waste]:
            moves.extend(Move("move", s, t) for t in self.tableau if not self.cards[t])

    # ------------------------------------------------------------------ words
    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        o = self.opts
        if s == d or not self.cards[s] or s != self.stock and self.rule[s].take == "none":
            return super().explain_card_move(s, d, n)
        if d == self.centre:
            if self.cards[d]:
                return Reason("The centre holds a single card; nothing can be placed on it.")
            return REFILL_FROM[o["centre_refill"]]
        if s == self.stock:
            if d in self.tableau and not self.cards[d]:
                if o["stock_to_empty_outer"]:
                    return Reason("A stock card may fill an outer place only when the waste is "
                                  "empty.")
                return Reason("An empty outer place is filled from the waste or the centre.")
            return Reason("Turn the stock onto the waste to play its cards.")
        if d in self.tableau:
            if not self.cards[d] and s in self.tableau:
                return Reason("An empty outer place is filled from the waste or the centre.")
            if self.cards[d] and s == self.centre:
                return Reason("The centre card cannot be built onto an outer pile.")
        if d in self.foundations and s in self._sources:
            if s == self.centre and not o["centre_to_foundation"]:
                return Reason("With these rules the centre card cannot go straight to a "
                              "foundation.")
            if not self.cards[d]:
                return Reason("Only a card of the base rank ({rank}) can start a foundation.",
                              rank=Rank(self.vars["base"]))
        return super().explain_card_move(s, d, n)
