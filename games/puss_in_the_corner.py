"""Puss in the Corner (000 #8): foundations by colour, four corner piles, one redeal."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations

from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Card, Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import DEAL, Build, PatienceGame, Rule, roles


@register
class PussInTheCorner(PatienceGame):
    info = GameInfo(
        id="puss_in_the_corner",
        source="000_5c0014aada07c9b6.txt", source_game="8",
        decks=1, kind="S-mixed", difficulty=2,
    )
    options = (
        Option("allow_parking", False, (False, True),
               "a turned card that fits a foundation may go to a corner instead"),
    )
    draw = 1
    redeals = 1
    standard_foundations = False
    RULES = {
        "foundation": Rule(Build("colour", +1), empty="none", take="none", max_cards=13,
                           sources=roles("waste", "tableau"), name="foundation"),
        "waste": Rule(take="top", empty="none", name="turned card"),
        "tableau": Rule(take="top", sources=roles("waste"), name="corner pile"),
    }

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 2.4)
        yield PileSpec("W", "waste", 1.2, 2.4)
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 4.0 + 1.2 * (i % 2), 1.6 + 1.6 * (i // 2))
        for i in range(4):
            yield PileSpec(f"T{i + 1}", "tableau", 6.6 * (i % 2), 4.8 * (i // 2), fan="right")

    def prepare(self) -> None:
        super().prepare()
        self.corners = frozenset(self.tableau)

    def deal(self, rng: Rng) -> None:
        rest = self.aces_out(self.foundations)
        rng.shuffle(rest)
        self.init_stock(rest)

    # ------------------------------------------------------------------ rules
    def forced(self) -> bool:
        """The turned card fits a foundation and must go there."""
        w = self.waste
        return (bool(self.cards[w]) and not self.opts["allow_parking"]
                and any(self.accepts(f, w, 1) for f in self.foundations))

    def accepts(self, d: int, s: int, n: int) -> bool:
        if d in self.corners:
            return s == self.waste
        return super().accepts(d, s, n)

    def legal_moves(self) -> list[Move]:
        if self.forced():
            w = self.waste
            return [Move("move", w, f) for f in self.foundations if self.accepts(f, w, 1)]
        return super().legal_moves()

    def stock_moves(self, moves: list[Move]) -> None:
        if self.cards[self.waste]:
            return
        if self.cards[self.stock]:
            moves.append(DEAL)
        elif self.vars["redeals"]:
            piles = [t for t in self.tableau if self.cards[t]]  # none left once the game is won
            for order in permutations(piles) if piles else ():
                moves.append(Move("redeal", order[0], order[1], 1, order[2:]) if len(order) > 1
                             else Move("redeal", order[0]))

    def apply(self, move: Move) -> None:
        if move.kind != "redeal":
            return super().apply(move)
        order = [p for p in (move.src, move.dst, *move.extra) if p >= 0]
        # the first pile picked up is dealt first, each in the order its cards were placed
        for p in reversed(order):
            self._move_cards(p, self.stock, len(self.cards[p]), reverse=True, up=False)
        self._set("redeals", self.vars["redeals"] - 1)

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        w = self.waste
        if self.forced() and move.kind != "deal" and not (
                move.kind == "move" and move.src == w and move.dst in self.foundations):
            return Reason("The {card} fits a foundation, so it must go there.",
                          card=Card(self.cards[w][-1]))
        if move.kind == "deal" and self.cards[w] and self.cards[self.stock]:
            return Reason("Place the turned card before turning the next one.")
        if move.kind == "redeal":
            if self.cards[self.stock]:
                return Reason("There are still cards in the stock.")
            if self.cards[w]:
                return Reason("Place the turned card first.")
            if not self.vars["redeals"]:
                return Reason("The corners can be gathered only once.")
            return Reason("Name every corner pile that holds cards, once each, in the order you "
                          "pick them up.")
        if move.kind == "move" and move.dst in self.corners:
            if move.src in self.corners:
                return Reason("Only the turned card can go to a corner.")
            if move.src in (w, self.stock) and not self.cards[w]:
                return Reason("Turn a card from the stock first.")
        return super().explain(move)
