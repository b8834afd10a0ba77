"""St Helena (source 002, "Svyataya Elena"): a two-deck Spider in which suits never matter.

Not the Western "St. Helena" (Napoleon's Favourite), a different game. Runs of any suits
build and move; a complete king-to-ace run leaves the table onto one of eight finished-run
piles, so removed cards stay countable and undo is one journal entry like every other move.
"""

from __future__ import annotations

from collections.abc import Iterator

from .engine import cards as C
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import DEAL, Build, PatienceGame, Rule

RUN = 13


@register
class StHelenaSpider(PatienceGame):
    info = GameInfo(
        id="st_helena_spider",
        source="002_641e09ccd4cb0ebe.txt",
        decks=2, kind="S-mixed", difficulty=2,
    )
    options = (
        Option("no_deal_with_empty_column", False, help="the stock cannot be dealt while a "
               "column is empty"),
        Option("auto_remove", True, help="complete king-to-ace runs are cleared automatically "
               "(otherwise with a tap: remove:T3)"),
    )
    RULES = {
        "tableau": Rule(Build("any", -1), empty="any", take="run", many=True, name="column"),
        "foundation": Rule(take="none", empty="none", name="finished pile"),
        "stock": Rule(take="none", empty="none", name="stock"),
    }
    standard_foundations = False

    def build_layout(self) -> Iterator[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(8):
            yield PileSpec(f"F{i + 1}", "foundation", 2.2 + 1.1 * i, 0, label="K-A")
        for i in range(10):
            yield PileSpec(f"T{i + 1}", "tableau", 1.1 * i, 1.6, fan="down")

    def deal(self, rng: Rng) -> None:
        deck = C.deck(2)
        rng.shuffle(deck)
        for row in range(4):
            for col in self.tableau:
                self.put(col, deck.pop(), up=row == 3)
        self.init_stock(deck[::-1])

    def legal_moves(self) -> list[Move]:
        """The generic moves, found by the shared rank-indexed generator."""
        moves: list[Move] = []
        self.stock_moves(moves)
        self.column_moves_by_rank(moves)
        self.extra_moves(moves)
        return moves

    # ------------------------------------------------------------ stock and runs
    def stock_moves(self, moves: list[Move]) -> None:
        if self.cards[self.stock] and not self._deal_blocked():
            moves.append(DEAL)

    def _deal_blocked(self) -> bool:
        return self.opts["no_deal_with_empty_column"] and not all(
            self.cards[t] for t in self.tableau)

    def deal_from_stock(self) -> None:
        for col in self.tableau[:len(self.cards[self.stock])]:
            self._move_cards(self.stock, col, 1)

    def complete_run(self, t: int) -> bool:
        """Whether the top 13 face-up cards of column ``t`` run from king down to ace."""
        pile = self.cards[t]
        if len(pile) - self.down[t] < RUN or C.RANK[pile[-1]] != C.ACE:
            return False
        return all(C.RANK[pile[-k]] == k for k in range(2, RUN + 1))

    def _clear(self, t: int) -> None:
        dst = next(f for f in self.foundations if not self.cards[f])
        self._move_cards(t, dst, RUN)

    def extra_moves(self, moves: list[Move]) -> None:
        if not self.opts["auto_remove"]:
            moves.extend(Move("remove", t) for t in self.tableau if self.complete_run(t))

    def apply_extra(self, move: Move) -> None:
        self._clear(move.src)

    def settle(self) -> None:
        if self.opts["auto_remove"]:
            # why: clearing a run first may leave a face-down card on top, which then turns up
            for t in self.tableau:
                if self.complete_run(t):
                    self._clear(t)
        super().settle()

    # ------------------------------------------------------------ messages
    def explain(self, move: Move) -> Reason:
        if move.kind == "deal" and self.cards[self.stock] and self._deal_blocked():
            return Reason("Fill every empty column before dealing.")
        if move.kind == "remove":
            if self.opts["auto_remove"]:
                return Reason("Complete runs are cleared automatically.")
            return Reason("Only a complete run from king down to ace on top of a column can be "
                          "cleared.")
        if move.kind == "move" and self._role[move.dst] == "foundation":
            return Reason("Cards reach a finished pile only as a complete run from king down to "
                          "ace.")
        return super().explain(move)
