"""What the search knows of King Albert (games/king_albert.py), apart from its rules: the
open games' key and guided order (games/search/open_patience.py); one card moves at a
time, so the card just moved between columns is not moved again at once
(games/search/single_card.py)."""

from __future__ import annotations

from ..king_albert import KingAlbert
from ..model import Move
from . import searches
from .open_patience import OpenPatienceSearch
from .single_card import SingleCardSearch


@searches(KingAlbert)
class KingAlbertSearch(SingleCardSearch, OpenPatienceSearch):
    """What the search knows of KingAlbert."""

    def guided(self, moves: list[Move]) -> list[Move]:
        """The open games' guided order, after dropping the moves of the card just moved
        between columns (before the order is worked out: each scored move is made and
        taken back)."""
        return super().guided(self.without_held(moves))

    def solver_moves(self, prune: bool = False) -> list[Move]:
        moves = super().solver_moves(prune)
        if len(moves) == 1:  # the guided order (and its filter) only runs on two or more
            moves = self.without_held(moves)
        return moves
