"""Four Corner Towers (000 #10): aces in the corners, twenty piles fed by the stock."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import RANK, SUIT
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import DEAL, FOUNDATION, PatienceGame, Rule, roles


@register
class FourCornerTowers(PatienceGame):
    info = GameInfo(
        id="four_corner_towers",
        source="000_5c0014aada07c9b6.txt", source_game="10",
        decks=1, kind="S-auto", difficulty=2,
    )
    options = (
        Option("variant", "standard", ("standard", "single_turn"),
               "when stuck, deal 20 onto the piles, or turn one card at a time onto a waste"),
        Option("deal_any_time", False, (False, True),
               "the stock may be dealt even when a card could go to a foundation"),
    )
    RULES = {
        "foundation": Rule(FOUNDATION.build, empty="ace", take="none", max_cards=13,
                           sources=roles("tableau", "waste"), name="foundation"),
        "tableau": Rule(take="top", empty="none", name="pile"),
        "waste": Rule(take="top", empty="none", name="waste"),
    }

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 9.0, 0)
        if self.opts["variant"] == "single_turn":
            yield PileSpec("W", "waste", 9.0, 1.6)
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 7.6 * (i % 2), 4.8 * (i // 2))
        for i in range(20):
            r, c = divmod(i, 5)
            yield PileSpec(f"T{i + 1}", "tableau", round(1.4 + 1.2 * c, 2), round(1.6 * r, 2))

    def deal(self, rng: Rng) -> None:
        rest = self.aces_out(self.foundations)
        rng.shuffle(rest)
        self.deal_rows(self.tableau, rest)
        self.init_stock(rest[::-1])

    # ------------------------------------------------------------------ rules
    def prepare(self) -> None:
        super().prepare()
        # foundation k holds suit k, so a card's only possible move is known in advance
        self._plays = {s: tuple(Move("move", s, f) for f in self.foundations)
                       for s in self._sources}

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        wanted = [len(cards[f]) + 1 for f in self.foundations]
        moves = []
        for s, plays in self._plays.items():
            pile = cards[s]
            if pile and RANK[pile[-1]] == wanted[SUIT[pile[-1]]]:
                moves.append(plays[SUIT[pile[-1]]])
        if cards[self.stock] and (self.opts["deal_any_time"] or not moves):
            moves.append(DEAL)
        return moves

    def deal_from_stock(self) -> None:
        if self.waste >= 0:
            return super().deal_from_stock()
        stock = self.stock
        for t in self.tableau[:len(self.cards[stock])]:
            self._move_cards(stock, t)

    def safe_autoplay(self) -> Move | None:
        """A foundation play that brings no stock card in: one leaving a card behind, or any
        once the stock is empty. (Which pile an emptied place refills can matter later.)"""
        cards, stock = self.cards, self.stock
        for m in self.legal_moves():
            if m.kind == "move" and (m.src == self.waste or len(cards[m.src]) > 1
                                     or not cards[stock]):
                return m
        return None

    def settle(self) -> None:
        """An emptied pile is refilled at once from the stock (never from the waste)."""
        self.refill_empty(self.tableau, self.stock)

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        if move.kind == "deal" and self.cards[self.stock]:
            return Reason("Deal only when no card can go to a foundation.")
        if move.kind == "move" and move.dst in self.tableau and move.src != move.dst \
                and move.src in self._sources and self.cards[move.src]:
            return Reason("Nothing is built on the piles: cards go only to the foundations.")
        return super().explain(move)
