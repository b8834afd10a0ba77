"""What the search knows of Florentine (games/florentine.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..florentine import Florentine
from . import searches
from .patience import PatienceSearch
from .rules import FlorentineRules


@searches(Florentine)
class FlorentineSearch(PatienceSearch, FlorentineRules):
    """What the search knows of Florentine."""

    SOLVER_VIEW = {"foundation": "top"}

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """No rule depends on which arm of the cross an outer pile is."""
        return (tuple(self.tableau),)
