"""What the search knows of Take Three (games/take_three.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..take_three import TakeThree
from . import searches
from .patience import PatienceSearch
from .rules import TakeThreeRules


@searches(TakeThree)
class TakeThreeSearch(PatienceSearch, TakeThreeRules):
    """What the search knows of TakeThree."""

    SOLVER_VIEW = {"foundation": "top"}  # a foundation holds ace to its top card of one suit

    #: the search tries first the moves that bring the next foundation cards nearer
    SOLVER_GUIDED = True

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.tableau), tuple(self.cells)
