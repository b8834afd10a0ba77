"""What the search knows of La Belle Lucie (games/la_belle_lucie.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..la_belle_lucie import LaBelleLucie
from . import searches
from .patience import PatienceSearch
from .rules import LaBelleLucieRules


@searches(LaBelleLucie)
class LaBelleLucieSearch(PatienceSearch, LaBelleLucieRules):
    """What the search knows of LaBelleLucie."""

    #: a foundation built in suit from the ace is known by its top card
    SOLVER_VIEW = {"foundation": "top"}

    def solver_hopeless(self) -> bool:
        """Once no redeal or draw can reorder the fans, a card that can never leave its fan
        (``stuck_card``: its lower suit-mate and every card it could go on lie under it)
        loses the game."""
        if self.vars["redeals"] > 0 or (self.merci and not self.vars["drawn"]) \
                or self.fan_empty == "any":
            return False
        return self.stuck_card(self.tableau, kings_free=self.fan_empty == "king")

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Foundations are interchangeable; fans too once no shuffle can depend on their order."""
        if self.vars["redeals"] > 0:
            return (tuple(self.foundations),)
        return tuple(self.foundations), tuple(self.tableau)
