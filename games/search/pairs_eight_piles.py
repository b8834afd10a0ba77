"""What the search knows of Pairs Eight Piles (games/pairs_eight_piles.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..pairs_eight_piles import PairsEightPiles
from . import searches
from .base import Search
from .rules import PairsEightPilesRules


@searches(PairsEightPiles)
class PairsEightPilesSearch(Search, PairsEightPilesRules):
    """What the search knows of PairsEightPiles."""

    #: the stock is only ever dealt from, so its count says which cards are in it
    SOLVER_VIEW = {"stock": "count"}

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Neither the piles nor the turned cards have places that matter."""
        return (self.piles, self.row)
