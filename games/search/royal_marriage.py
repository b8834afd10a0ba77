"""What the search knows of Royal Marriage (games/royal_marriage.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..royal_marriage import RoyalMarriage
from . import searches
from .base import Search
from .rules import RoyalMarriageRules


@searches(RoyalMarriage)
class RoyalMarriageSearch(Search, RoyalMarriageRules):
    """What the search knows of RoyalMarriage."""

    #: removals look alike to a search, and one early mistake can hide a win from it
    SOLVER_RESTARTS = True

    #: the stock is only ever dealt from
    SOLVER_VIEW = {"stock": "count"}
