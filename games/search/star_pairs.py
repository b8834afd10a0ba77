"""What the search knows of Star Pairs (games/star_pairs.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine.cards import RANK
from ..engine.model import Move
from ..star_pairs import StarPairs
from . import searches
from .base import Search
from .rules import StarPairsRules


@searches(StarPairs)
class StarPairsSearch(Search, StarPairsRules):
    """What the search knows of StarPairs."""

    SOLVER_VIEW = {"stock": "count"}  # dealt from the top only: its size says what is left

    SOLVER_PRUNES = True

    # ------------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """Where a card lies in the star never matters, nor its suit: the ranks on the star,
        the spare and the turned card, how far the stock has gone and the free miss do."""
        cards = self.cards
        star = sorted(RANK[cards[p][-1]] for p in self.star if cards[p])
        spare, waste = cards[self.spare], cards[self.waste]
        return bytes((*star, 0, RANK[spare[-1]] if spare else 0, RANK[waste[-1]] if waste else 0,
                      len(cards[self.stock]), min(self.vars["turned"], 2),
                      self.vars["missed"]))

    def solver_autoplay(self) -> Move | None:
        """Pairing the turned card is the only way on, and which star card takes it does not
        matter (the spare, never refilled, is a real choice); with the stock out every pair
        is safe, since all ranks pair off."""
        cards = self.cards
        w = cards[self.waste]
        if w:
            found = self.matches(RANK[w[-1]])
            if found and (self.spare not in found or len(found) == 1):
                return Move("remove", self.waste, found[0])
            return None
        if not cards[self.stock]:
            moves = self.legal_moves()
            return moves[0] if moves else None
        return None

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """With ``prune``, no table pairs while the stock lasts: they only take partners away
        from cards still to come."""
        moves = self.legal_moves()
        if prune and self.cards[self.stock]:
            moves = [m for m in moves if m.kind == "deal" or m.src == self.waste]
        return moves
