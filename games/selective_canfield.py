"""Selective Canfield (000 #12 variant 2): the player picks the first foundation card.

Five cards are dealt to the row instead of four plus a foundation card. Choosing one of them
is the game's first move (``choose``), so it can be undone, replayed and hinted like any other.
The fifth card waits in a side place and closes the gap the chosen card leaves, so four
columns remain, as in Canfield.
"""

from __future__ import annotations

from collections.abc import Iterable

from .canfield import Canfield
from .engine import cards as C
from .engine.cards import RANK
from .engine.model import GameInfo, Move, PileSpec
from .engine.reason import Reason
from .engine.registry import register


@register
class SelectiveCanfield(Canfield):
    info = GameInfo(
        id="selective_canfield",
        source="000_5c0014aada07c9b6.txt", source_game="12 variant 2",
        decks=1, kind="S-mixed", difficulty=3,
    )

    def build_layout(self) -> Iterable[PileSpec]:
        yield from super().build_layout()
        yield PileSpec("C1", "cell", 8.4, 1.6, autoflip=False)

    def prepare(self) -> None:
        super().prepare()
        self.fifth = self.first("cell")
        self._choices = (*self.tableau, self.fifth)

    def deal_row(self, deck: list[int]) -> None:
        self.put(self.fifth, deck.pop())
        self.vars["base"] = 0

    @property
    def chosen(self) -> bool:
        return bool(self.vars["base"])

    def legal_moves(self) -> list[Move]:
        if self.chosen:
            return super().legal_moves()
        f1 = self.foundations[0]
        return [Move("choose", s, f1) for s in self._choices if self.cards[s]]

    def apply_extra(self, move: Move) -> None:
        s, card = move.src, self.cards[move.src][-1]
        self._move_cards(s, move.dst)
        self._set("base", RANK[card])
        if s != self.fifth and self.cards[self.fifth]:
            self._move_cards(self.fifth, s)

    def explain(self, move: Move) -> Reason:
        if move.kind == "choose":
            if self.chosen:
                return Reason("The first foundation has already been chosen.")
            return Reason("Choose one of the five dealt cards for the first foundation, above "
                          "column 1.")
        if not self.chosen:
            return Reason("First choose one of the five dealt cards to start the foundations.")
        return super().explain(move)

    def describe(self, move: Move) -> str:
        if move.kind == "choose" and self.cards[move.src]:
            return f"{C.pretty(self.cards[move.src][-1])} starts the foundations"
        return super().describe(move)
