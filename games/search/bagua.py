"""What the search knows of Bagua (games/bagua.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..bagua import Bagua
from . import searches
from .base import Search
from .rules import BaguaRules


@searches(Bagua)
class BaguaSearch(Search, BaguaRules):
    """What the search knows of Bagua."""

    def solver_key(self) -> bytes:
        """The cards still in the square: the order of the discard pile does not matter."""
        cards = self.cards
        return bytes(cards[p][0] if cards[p] else 255 for p in self.grid)
