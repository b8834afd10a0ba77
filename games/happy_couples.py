"""Happy Couples (001 #4): pair touching cards of a rank in a grid four cards high that grows."""

from __future__ import annotations

from collections.abc import Iterable

from .engine import cards as C
from .engine.cards import RANK
from .engine.model import DEAL, GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.grid import CellGame, touching

WIDE, LONG = 4, 13


@register
class HappyCouples(CellGame):
    info = GameInfo(
        id="happy_couples",
        source="001_bf5637845a306030.txt", source_game="4",
        decks=1, kind="S-luck", difficulty=1, score_better="lower",
    )
    options = (
        Option("deal_any_time", False, (False, True),
               "a card may be dealt even while a touching pair remains"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        # The grid's lines of four run down the screen and it grows to the right: 13 lines
        # fit a landscape screen overlapped sideways, with every card's corner index showing.
        yield PileSpec("S", "stock", 0, 0)
        for i in range(WIDE * LONG):
            line, place = divmod(i, WIDE)
            yield PileSpec(f"G{i + 1}", "grid", round(1.3 + 0.68 * line, 2), 1.5 * place)
        yield PileSpec("D", "discard", 0, 1.6)

    def prepare(self) -> None:
        super().prepare()
        cell = self.cell
        self.pairs = tuple((cell[i], cell[j]) for i, j in touching(LONG, WIDE))
        self._touch = frozenset(self.pairs)

    def deal(self, rng: Rng) -> None:
        deck = C.deck()
        rng.shuffle(deck)
        for p in self.cell[:WIDE]:
            self.put(p, deck.pop())
        self.put_stock(self.stock, deck)

    def touching_pairs(self) -> list[Move]:
        cards = self.cards
        return [Move("remove", a, b) for a, b in self.pairs
                if cards[a] and cards[b] and RANK[cards[a][-1]] == RANK[cards[b][-1]]]

    def legal_moves(self) -> list[Move]:
        moves = self.touching_pairs()
        if self.cards[self.stock] and (not moves or self.opts["deal_any_time"]):
            moves.append(DEAL)
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "deal":
            cards = self.cards
            self.fill_from_stock(next(p for p in self.cell if not cards[p]))
        else:
            self.discard_top(move.src, move.dst)

    def settle(self) -> None:
        """Cards are dealt face up; nothing turns over."""

    def explain(self, move: Move) -> Reason:
        kind = move.kind
        if kind == "deal":
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            pairs = self.touching_pairs()
            if move != DEAL or not pairs:
                return Reason("A deal names no cards and no count: tap the stock.")
            pair = pairs[0]
            return Reason("The {card} and the {card2} still make a pair: deal only when no "
                          "touching cards match.", card=self.card_at(pair.src),
                          card2=self.card_at(pair.dst))
        return super().explain(move)

    not_moved = Reason("Cards are not moved: remove two touching cards of the same rank.")

    def explain_removal(self, named: list[int]) -> Reason:
        refusal = self.touching_pair_refusal(named)
        if refusal is not None:
            return refusal
        a, b = sorted(named)
        if RANK[self.cards[a][-1]] != RANK[self.cards[b][-1]]:
            return Reason("The {card} and the {card2} are not the same rank.",
                          card=self.card_at(a), card2=self.card_at(b))
        return Reason("Name the two cards in the order they are laid out.")
