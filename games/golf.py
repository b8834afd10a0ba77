"""Golf (000 #20): clear seven open columns onto one discard pile, a rank up or down at a time."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import KING, QUEEN, RANK
from .engine.game import Game
from .engine.model import DEAL, GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng


@register
class Golf(Game):
    info = GameInfo(
        id="golf",
        source="000_5c0014aada07c9b6.txt", source_game="20",
        decks=1, kind="S-mixed", difficulty=3, score_better="lower",
    )
    options = (
        Option("queen_on_king", False, help="a queen may be played on a king"),
        Option("turn_only_when_stuck", False,
               help="turn a stock card only when no column card can be played"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 1.2, 0)
        for i in range(7):
            yield PileSpec(f"T{i + 1}", "tableau", 1.2 * i, 1.6, fan="down")

    def prepare(self) -> None:
        self.stock, self.waste = self.first("stock"), self.first("waste")
        self.tableau = self.roles["tableau"]
        # fits[r]: the ranks that may go on a card of rank r (index 0: an empty pile)
        on_king = (QUEEN,) if self.opts["queen_on_king"] else ()
        self.fits = [frozenset(range(1, 14))] + [
            frozenset(on_king if r == KING else {x for x in (r - 1, r + 1) if 1 <= x <= 13})
            for r in range(1, 14)]

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        self.deal_rows(self.tableau, deck, 5)
        self.put_stock(self.stock, deck)
        self._move_cards(self.stock, self.waste, 1)

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        cards = self.cards
        w = cards[self.waste]
        fits = self.fits[RANK[w[-1]] if w else 0]
        moves = [Move("move", t, self.waste) for t in self.tableau
                 if cards[t] and RANK[cards[t][-1]] in fits]
        if cards[self.stock] and not (moves and self.opts["turn_only_when_stuck"]):
            moves.append(DEAL)
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "deal":
            self._move_cards(self.stock, self.waste, 1)
        else:
            self._move_cards(move.src, move.dst, 1)

    @property
    def won(self) -> bool:
        return not any(self.cards[t] for t in self.tableau)

    @property
    def score(self) -> int:
        left = sum(len(self.cards[t]) for t in self.tableau)
        return left or -len(self.cards[self.stock])

    def card_targets(self, src: int) -> list[int]:
        return [self.waste] if src in self.tableau else []

    def explain(self, move: Move) -> Reason:
        if move.kind == "deal":
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("You may turn a new card only when no column card can be played.")
        if move.kind != "move":
            return Reason("In Golf you play column cards onto the discard pile or turn a stock "
                          "card.")
        if move.src not in self.tableau:
            return Reason("Only the top cards of the columns can be played.")
        if move.dst != self.waste:
            return Reason("Cards can only go onto the discard pile.")
        if not self.cards[move.src]:
            return Reason("That column is empty.")
        if move.n != 1:
            return Reason("Only one card can be played at a time.")
        w = self.cards[self.waste]
        if w and RANK[w[-1]] == KING:
            if self.opts["queen_on_king"]:
                return Reason("Only a queen can be played on a king.")
            return Reason("Nothing can be played on a king.")
        return Reason("Only cards one rank higher or lower can go on the discard pile.")
