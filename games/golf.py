"""Golf (000 #20): clear seven open columns onto one discard pile, a rank up or down at a time."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import KING, QUEEN, RANK
from .engine import Game
from .model import GameInfo, Move, Option, PileSpec
from .reason import Reason
from .registry import register
from .rng import Rng

DEAL = Move("deal")


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
        self._sized = (self.stock, *self.tableau)
        # fits[r]: the ranks that may go on a card of rank r (index 0: an empty pile)
        on_king = (QUEEN,) if self.opts["queen_on_king"] else ()
        self.fits = [frozenset(range(1, 14))] + [
            frozenset(on_king if r == KING else {x for x in (r - 1, r + 1) if 1 <= x <= 13})
            for r in range(1, 14)]

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for _row in range(5):
            for t in self.tableau:
                self.put(t, deck.pop())
        for c in deck:
            self.put(self.stock, c, up=False)
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

    # ------------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """Columns and stock only lose cards from the top, so their sizes say what is left;
        of the discard pile only the rank of the top card matters."""
        cards = self.cards
        w = cards[self.waste]
        return bytes([len(cards[p]) for p in self._sized] + [RANK[w[-1]] if w else 0])

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Column cards before a new stock card, the tallest column first."""
        cards = self.cards
        return sorted(self.legal_moves(), key=lambda m: -len(cards[m.src]) if m.src >= 0 else 99)

    def solver_hopeless(self) -> bool:
        """Counting arguments on the column cards still to play (a sound dead-end test).

        Between two stock cards the player plays a chain of column cards, each one rank from
        the last; a chain starts at the discard pile's top card now or at a stock card, and
        nothing goes on a king, so a king ends its chain and a king never starts one. A chain
        stays within a run of ranks that all still have column cards (a "component"), next
        to its start. For each component: a king there needs a chain of its own; ranks
        alternate odd and even along a chain, so a chain from an even start holds at most one
        odd card more than even ones, and the other way round.
        """
        if self.opts["queen_on_king"] or self.won:
            return False
        cards = self.cards
        tab = [0] * 15
        for p in self.tableau:
            for c in cards[p]:
                tab[RANK[c]] += 1
        starts = [0] * 15
        w = cards[self.waste]
        if w:
            starts[RANK[w[-1]]] += 1
        for c in cards[self.stock]:
            starts[RANK[c]] += 1
        starts[KING] = 0
        r = 1
        while r <= KING:
            if not tab[r]:
                r += 1
                continue
            lo = r
            odd = even = 0
            while r <= KING and tab[r]:
                if r & 1:
                    odd += tab[r]
                else:
                    even += tab[r]
                r += 1
            hi = r - 1
            near = range(lo - 1, hi + 2)
            live = sum(starts[k] for k in near)
            odd_live = sum(starts[k] for k in near if k & 1)
            if live == 0 or (hi == KING and tab[KING] > live):
                return True
            if odd - even > live - odd_live or even - odd > odd_live:
                return True
        # every column card needs a card one rank away played just before it (a column card
        # other than a king, or a chain start), and such a card comes before one card only:
        # Hall's condition on every run r, r+2, ..., q of ranks of one parity
        supply = [(0 if k == KING else tab[k]) + starts[k] for k in range(15)]
        for first in (1, 2):
            for lo in range(first, KING + 1, 2):
                need = have = 0
                for hi in range(lo, KING + 1, 2):
                    need += tab[hi]
                    have += supply[hi - 1] if hi == lo else 0
                    have += supply[hi + 1]
                    if need > have:
                        return True
        return False

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
        n_piles = len(self.layout)
        if not (0 <= move.src < n_piles and 0 <= move.dst < n_piles):
            return Reason("That move is not possible.")
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
