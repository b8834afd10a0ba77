"""What the search knows of Grid (games/grid.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..families.grid import CellGame
from . import searches
from .base import Search
from .rules import CellGameRules


@searches(CellGame)
class CellGameSearch(Search, CellGameRules):
    """What the search knows of CellGame."""

    #: the stock is only ever dealt from, so its count says which cards are in it
    SOLVER_VIEW = {"stock": "count"}
