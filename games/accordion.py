"""Accordion (000 #2): squeeze a row of 52 piles into one by matching suits or ranks."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.model import DEAL, GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.pairing import MATCH, RowGame, row_layout

VARIANTS = ("standard", "one_at_a_time")
ROW_WIDTHS = (0, 4, 6, 8, 10, 13, 20, 26)


@register
class Accordion(RowGame):
    info = GameInfo(
        id="accordion",
        source="000_5c0014aada07c9b6.txt", source_game="2",
        decks=1, kind="S-open", difficulty=4, score_better="lower",
    )
    options = (
        Option("variant", "standard", VARIANTS,
               "one_at_a_time: deal one card at a time from a face-down stock, on request"),
        Option("row_width", 0, ROW_WIDTHS,
               "standard variant: piles dealt at the start and kept by refilling (0: all 52)"),
        Option("forced_moves", False,
               help="one_at_a_time: a pile must be moved, if it can, before the next card"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        one = self.opts["variant"] == "one_at_a_time"
        if one or self.opts["row_width"]:
            yield PileSpec("S", "stock", 9.6, 4.5)
            yield from row_layout(52, 13, dx=0.7)
        else:
            yield from row_layout(52, 13, dx=0.8)

    def prepare(self) -> None:
        super().prepare()
        self.one = self.opts["variant"] == "one_at_a_time"
        self.width = 0 if self.one else self.opts["row_width"]
        self.forced = self.one and self.opts["forced_moves"]
        self.stock = self.first("stock")

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        if self.stock < 0:
            for p in self.row:
                self.put(p, deck.pop())
            return
        self.put_stock(self.stock, deck)
        if self.one:
            self._move_cards(self.stock, self.row[0], 1)

    def settle(self) -> None:
        """Keep the book's finite row full; when stuck, deal one card more."""
        if not self.width:
            return
        s = self.stock
        n = self.row_length()
        while self.cards[s] and (n < self.width or not self.pile_moves(n)):
            self._move_cards(s, self.row[n], 1)
            n += 1

    # ------------------------------------------------------------------ moves
    def pile_moves(self, n: int) -> list[Move]:
        cards, row = self.cards, self.row
        tops = [cards[row[i]][-1] for i in range(n)]
        moves = []
        for i in range(1, n):
            m = MATCH[tops[i]]
            p = row[i]
            if m[tops[i - 1]]:
                moves.append(Move("move", p, row[i - 1], len(cards[p])))
            if i >= 3 and m[tops[i - 3]]:
                moves.append(Move("move", p, row[i - 3], len(cards[p])))
        return moves

    def legal_moves(self) -> list[Move]:
        moves = self.pile_moves(self.row_length())
        if self.one and self.cards[self.stock] and not (self.forced and moves):
            moves.append(DEAL)
        return moves

    def apply_in_row(self, move: Move) -> None:
        self._move_cards(move.src, move.dst, move.n)
        self.close_up(self.row_pos[move.src], 1)

    @property
    def won(self) -> bool:
        return len(self.cards[self.row[0]]) == 52

    @property
    def score(self) -> int:
        undealt = len(self.cards[self.stock]) if self.stock >= 0 else 0
        return self.row_length() + undealt

    @property
    def grade(self) -> str | None:
        if self.stock >= 0 and self.cards[self.stock]:
            return None
        return "very good" if 2 <= self.row_length() <= 5 else None

    def explain(self, move: Move) -> Reason:
        if move.kind == "deal":
            if not self.one:
                return (Reason("All the cards are already dealt.") if self.stock < 0 else
                        Reason("New cards are dealt by themselves when the row needs them."))
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("You must move a pile while one can move, before dealing the next card.")
        if move.kind != "move":
            return Reason("In Accordion you move piles or deal the next card.")
        i, j = self.row_pos[move.src], self.row_pos[move.dst]
        if i < 0 or j < 0:
            return Reason("Only piles in the row can move, onto other piles in the row.")
        src, dst = self.cards[move.src], self.cards[move.dst]
        if not src or not dst:
            return Reason("There is no pile there.")
        if i - j not in (1, 3):
            return Reason("A pile can only go onto the pile just to its left or onto the third "
                          "pile to its left.")
        if not MATCH[src[-1]][dst[-1]]:
            return Reason("The two top cards must have the same suit or the same rank.")
        return Reason("A pile always moves as a whole.")
