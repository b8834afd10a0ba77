"""What the search knows of Maze (games/maze.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine.model import Move
from ..maze import Maze
from . import searches
from .base import Search
from .rules import MazeRules


@searches(Maze)
class MazeSearch(Search, MazeRules):
    """What the search knows of Maze."""

    #: the best-scoring move is often a trap that one long search never leaves: short
    #: searches with the moves in other orders find most wins (13 of 20 benchmark deals in
    #: 5 s against 9 in 10 s)
    SOLVER_RESTARTS = True

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Every move counts (a card moving into a gap is never a lone pile changing places
        for nothing, which the generic ordering leaves out); the moves that leave the most
        cards followed by their successor come first."""
        moves = self.legal_moves()
        if len(moves) < 2:
            return moves
        return self.by_score(moves)
