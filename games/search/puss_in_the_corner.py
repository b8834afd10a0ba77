"""What the search knows of Puss In The Corner (games/puss_in_the_corner.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine import cards as C
from ..engine.model import Move
from ..puss_in_the_corner import PussInTheCorner
from . import searches
from .patience import PatienceSearch
from .rules import PussInTheCornerRules


@searches(PussInTheCorner)
class PussInTheCornerSearch(PatienceSearch, PussInTheCornerRules):
    """What the search knows of PussInTheCorner."""

    SOLVER_PRUNES = True

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """The corners differ only in where they stand: the gathering order is chosen freely."""
        return (tuple(self.tableau),)

    # ------------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """A foundation is known by its colour and top rank (any suit of the colour builds
        on it); the corners are interchangeable."""
        cards = self.cards
        found = sorted(16 * C.COLOUR[cards[f][-1]] + C.RANK[cards[f][-1]]
                       for f in self.foundations)
        corners = sorted(bytes((len(cards[t]), *cards[t])) for t in self.tableau)
        return (bytes(found) + b"".join(corners) + bytes((len(cards[self.waste]),
                *cards[self.waste], 255, *cards[self.stock], self.vars["redeals"])))

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Foundation plays first, then corners, then the stock; with ``prune``, a corner
        card that fits a foundation goes there before anything else."""
        moves = self.legal_moves()
        home = [m for m in moves if m.kind == "move" and m.dst in self.foundations]
        if prune and home:
            return home
        cards = self.cards
        w = cards[self.waste]
        r = C.RANK[w[-1]] if w else 0

        def corner(m: Move) -> tuple[int, int]:
            # a card is best parked on a higher card (it is wanted sooner), the closest one
            pile = cards[m.dst]
            if not pile:
                return (1, 0)
            top = C.RANK[pile[-1]]
            return (0, top - r) if top >= r else (2, r - top)

        parks = sorted((m for m in moves if m.kind == "move" and m.dst in self.corners),
                       key=corner)
        rest = [m for m in moves if m not in home and m not in parks]
        return home + parks + rest
