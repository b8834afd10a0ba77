"""What the search knows of Four Corner Towers (games/four_corner_towers.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..four_corner_towers import FourCornerTowers
from . import searches
from .patience import PatienceSearch
from .rules import FourCornerTowersRules


@searches(FourCornerTowers)
class FourCornerTowersSearch(PatienceSearch, FourCornerTowersRules):
    """What the search knows of FourCornerTowers."""

    SOLVER_VIEW = {"stock": "count", "foundation": "top"}
