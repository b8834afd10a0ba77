"""Canfield, or Demon (000 #12): a reserve of thirteen feeds four columns; any base rank.

The first foundation card fixes the rank all four foundations start from, and they turn the
corner from king to ace. A space in the tableau is filled at once from the reserve, inside
the same move (so one undo takes both back); once the reserve is gone a space waits for a
waste card of the player's choosing. Every tableau pile is a run (it starts as one card and
only fitting cards are added), so Morehead's "whole pile" rule is the ``full_run`` lift.
"""

from __future__ import annotations

from collections.abc import Iterable

from .engine import cards as C
from .engine.cards import RANK
from .engine.model import GameInfo, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .families.patience import Build, PatienceGame, Rule, roles

VARIANTS = ("standard", "draw_one")


@register
class Canfield(PatienceGame):
    info = GameInfo(
        id="canfield",
        source="000_5c0014aada07c9b6.txt", source_game="12",
        decks=1, kind="S-mixed", difficulty=4,
    )
    options = (
        Option("variant", "standard", VARIANTS,
               help="standard: turn 3, unlimited redeals; draw_one: turn 1, 2 redeals"),
        Option("group_moves", "any_run", ("any_run", "whole_pile"),
               help="any top part of a column in sequence, or only the top card or whole column"),
        Option("tableau_wrap", True, help="a king may be built on an ace in the columns"),
    )
    standard_foundations = False  # any base rank, with wrap: the generic autoplay does not hold
    ACCEPTS_BY_BUILD = True  # accepts() below only changes what an empty column takes
    draw = 3
    redeals = -1
    #: cards dealt face up to the tableau row (Selective Canfield deals one more to choose from)
    ROW = 4

    def prepare(self) -> None:
        if self.opts["variant"] == "draw_one":
            self.draw, self.redeals = 1, 2
        super().prepare()
        self.reserve = self.first("reserve")

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 1.2, 0, fan="right" if self.opts["variant"] == "standard"
                       else "none", autoflip=False)
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 3.6 + 1.2 * i, 0, autoflip=False)
        for i in range(4):
            yield PileSpec(f"T{i + 1}", "tableau", 3.6 + 1.2 * i, 1.6, fan="down", autoflip=False)
        yield PileSpec("R", "reserve", 1.2, 1.6)

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        played = roles("tableau", "waste", "reserve")
        if spec.role == "foundation":
            return Rule(Build("same", +1, wrap=True), empty="base", take="none", max_cards=13,
                        sources=played, name="foundation")
        if spec.role == "tableau":
            take = "run" if self.opts["group_moves"] == "any_run" else "full_run"
            return Rule(Build("alt", -1, wrap=self.opts["tableau_wrap"]), empty="waste",
                        take=take, many=True, sources=played, name="column")
        if spec.role in ("waste", "reserve"):
            return Rule(take="top", empty="none", name=spec.role)
        return Rule(take="none", empty="none", name=spec.role)

    def deal(self, rng) -> None:
        deck = C.deck()
        rng.shuffle(deck)
        for _ in range(13):
            self.put(self.reserve, deck.pop(), up=False)
        for t in self.tableau:
            self.put(t, deck.pop())
        self.deal_row(deck)
        self.init_stock(deck)

    def deal_row(self, deck: list[int]) -> None:
        """The first foundation card, which fixes the base rank."""
        card = deck.pop()
        self.put(self.foundations[0], card)
        self.vars["base"] = RANK[card]

    # ------------------------------------------------------------ moves
    def accepts(self, d: int, s: int, n: int) -> bool:
        if self.rule[d].empty == "waste" and not self.cards[d]:
            return s == self.waste and not self.cards[self.reserve]
        return super().accepts(d, s, n)

    def deal_from_stock(self) -> None:
        """Three at a time, but a last one or two are turned singly."""
        left = len(self.cards[self.stock])
        self._move_cards(self.stock, self.waste, self.draw if left >= self.draw else 1,
                         reverse=True)

    def settle(self) -> None:
        reserve = self.cards[self.reserve]
        for t in self.tableau:
            if reserve and not self.cards[t]:
                self._move_cards(self.reserve, t)
        super().settle()

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        reason = super().explain_card_move(s, d, n)
        if reason.msgid == "That move is not possible now." and not self.cards[d] \
                and self.rule[d].empty == "waste":
            if self.cards[self.reserve]:
                return Reason("An empty column is filled from the reserve.")
            return Reason("Only the top card of the waste can go into an empty column.")
        return reason
