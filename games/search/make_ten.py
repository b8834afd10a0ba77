"""What the search knows of Make Ten (games/make_ten.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine.model import Move
from ..make_ten import MakeTen
from . import searches
from .grid import CellGameSearch
from .rules import MakeTenRules


@searches(MakeTen)
class MakeTenSearch(CellGameSearch, MakeTenRules):
    """What the search knows of MakeTen."""

    def solver_autoplay(self) -> Move | None:
        """Any removal: where a card lies never matters (a removal takes cards from any
        places and the gaps refill in a fixed order), cards of one rank below 10 are
        alike, and removals of different cards commute; every card must go in the end,
        with a partner of the only rank that fits. So taking the first removal at once never
        loses anything, and the game plays itself."""
        moves = self.legal_moves()
        return moves[0] if moves else None
