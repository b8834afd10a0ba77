"""What the search knows of Accordion (games/accordion.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..accordion import Accordion
from ..engine.cards import RANK, SUIT
from ..engine.model import Move
from . import searches
from .base import Search
from .rules import AccordionRules


@searches(Accordion)
class AccordionSearch(Search, AccordionRules):
    """What the search knows of Accordion."""

    #: a pile only ever shows its top card: what lies under it, and how much, never matters
    SOLVER_VIEW = {"tableau": "face"}

    #: every move looks alike, and one early mistake can hide a win from a long search
    SOLVER_RESTARTS = True

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Moves onto the third pile to the left before moves onto the next one, dealing
        last: on the benchmark deals this order halved the median time to a win against
        the plain left-to-right order (a long jump keeps more piles in play)."""
        moves = self.legal_moves()
        if len(moves) < 2:
            return moves
        pos = self.row_pos
        return sorted(moves, key=lambda m: 9 if m.kind == "deal" else pos[m.dst] - pos[m.src])

    def solver_hopeless(self) -> bool:
        """A pile whose top card shares neither suit nor rank with any other top card (or
        undealt card) can never move nor be moved onto: with other piles left, no win."""
        cards, row = self.cards, self.row
        tops = [cards[p][-1] for p in row if cards[p]]
        if len(tops) < 2:
            return False
        if self.stock >= 0 and self.cards[self.stock]:
            tops += self.cards[self.stock]
        suits = [0, 0, 0, 0]
        ranks = [0] * 14
        for c in tops:
            suits[SUIT[c]] += 1
            ranks[RANK[c]] += 1
        return any(suits[SUIT[c]] == 1 and ranks[RANK[c]] == 1 for c in tops)
