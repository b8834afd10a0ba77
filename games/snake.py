"""Snake (source 002, "Zmei"): eight columns of eight, every stock card feeds column 1.

The stock has no waste: each turned card lands on column 1, which becomes the long "snake".
Several cards move only as a whole series, and foundation cards may come back to help.
"""

from __future__ import annotations

from collections.abc import Iterator

from .engine import cards as C
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import DEAL, FOUNDATION, Build, PatienceGame, Rule


def foundation_wants(cards: list[list[int]], foundations: list[int]) -> dict[int, list[int]]:
    """Foundations built up in suit from the ace, by the card (code mod 52) each one takes."""
    wants: dict[int, list[int]] = {}
    for f in foundations:
        pile = cards[f]
        if not pile:
            for ace in range(0, 52, 13):
                wants.setdefault(ace, []).append(f)
        elif C.RANK[pile[-1]] != C.KING:
            wants.setdefault(pile[-1] % 52 + 1, []).append(f)
    return wants


@register
class Snake(PatienceGame):
    info = GameInfo(
        id="snake",
        source="002_641e09ccd4cb0ebe.txt",
        decks=2, kind="S-mixed", difficulty=4,
    )
    options = (
        Option("deal_aces", "repeat", ("repeat", "once"),
               "row-1 aces go up at the deal; 'repeat' also sends up a refill that is an ace"),
        Option("partial_series", False, help="any part of a series may move, not only all of it"),
    )
    RULES = {
        "foundation": Rule(FOUNDATION.build, empty="ace", take="top", max_cards=13,
                           name="foundation"),
        "stock": Rule(take="none", empty="none", name="stock"),
    }

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "tableau":
            take = "run" if self.opts["partial_series"] else "full_run"
            return Rule(Build("any", -1), empty="any", take=take, many=True, name="column")
        return super().rule_for(index, spec)

    def build_layout(self) -> Iterator[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(8):
            yield PileSpec(f"F{i + 1}", "foundation", 1.3 + 1.1 * i, 0, label="A")
        for i in range(8):
            yield PileSpec(f"T{i + 1}", "tableau", 0.6 + 1.2 * i, 1.6, fan="down")

    def deal(self, rng: Rng) -> None:
        deck = C.deck(2)
        rng.shuffle(deck)
        for _row in range(8):
            for col in self.tableau:
                self.put(col, deck.pop())
        stock = deck[::-1]  # the next card of the shuffle is the stock's first (top) card
        free = iter(self.foundations)
        for col in self.tableau:
            # why: a row-1 ace would otherwise need its whole column cleared first
            refills = 0
            while C.RANK[self.cards[col][0]] == C.ACE and (
                    refills == 0 or self.opts["deal_aces"] == "repeat"):
                self.put(next(free), self.cards[col][0])
                self.cards[col][0] = stock.pop(0)
                refills += 1
        self.init_stock(stock)

    def legal_moves(self) -> list[Move]:
        """The generic moves, found by the shared rank-indexed generator; foundation cards
        may come back onto a column or into a space."""
        cards = self.cards
        moves: list[Move] = []
        self.stock_moves(moves)
        onto, empty = self.column_moves_by_rank(moves, foundation_wants(cards, self.foundations))
        for f in self.foundations:
            if cards[f]:
                r = C.RANK[cards[f][-1]]
                moves.extend(Move("move", f, d, 1) for d in (*onto.get(r, ()), *empty))
        return moves

    def stock_moves(self, moves: list[Move]) -> None:
        if self.cards[self.stock]:
            moves.append(DEAL)

    def deal_from_stock(self) -> None:
        self._move_cards(self.stock, self.tableau[0], 1)

    def safe_autoplay(self) -> Move | None:
        """An ace or two, or a card no other card could need to rest on (two decks).

        Why it never loses a win (the search plays it as the only move): when every
        foundation is at rank ``r - 1`` or more, all eight cards of each lower rank are
        home. Such a card could only come back to carry cards lower still, all home too, so
        a winning line can be rewritten without ever bringing one back (the moves of the
        other cards stay legal: a card never lands on a lower one, and a run is still the
        whole run without the home cards on it). In that line the card of rank ``r`` carries
        nothing: it only covers a card, ends a run or fills a space, and going home at once
        only lays more open. An ace carries nothing and always has an empty foundation; a
        two carries only aces, which that rewriting sends home at once.
        ``tests/test_snake.py`` checks the search with it against a plain search."""
        return self.low_card_home(self.tableau)
