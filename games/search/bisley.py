"""What the search knows of Bisley (games/bisley.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..bisley import Bisley
from . import searches
from .patience import PatienceSearch
from .rules import BisleyRules


@searches(Bisley)
class BisleySearch(PatienceSearch, BisleyRules):
    """What the search knows of Bisley."""

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return (tuple(self.tableau),)

    def solver_key(self) -> bytes:
        """Columns as a sorted set; each foundation is known by its size."""
        cards = self.cards
        sizes = bytes(len(cards[f]) for f in self.foundations)
        return b"\xff".join(sorted(bytes(cards[t]) for t in self.tableau)) + b"\xfe" + sizes
