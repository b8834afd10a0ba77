"""What the search knows of Selective Canfield (games/selective_canfield.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..selective_canfield import SelectiveCanfield
from . import searches
from .canfield import CanfieldSearch
from .rules import SelectiveCanfieldRules


@searches(SelectiveCanfield)
class SelectiveCanfieldSearch(CanfieldSearch, SelectiveCanfieldRules):
    """What the search knows of SelectiveCanfield."""

    #: the first move picks one of five Canfields: short searches in other orders try
    #: each choice before one long search sinks into a lost one
    SOLVER_RESTARTS = True
