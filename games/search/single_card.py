"""A search hook for the games where only one card moves at a time between columns (the
castle family, King Albert): the card that has just moved between two columns is not moved
again at once.

Why this is sound: if card c has just gone from column X to column Y, moving it on to Z
gives the position that moving it from X to Z at once gives (only c moved in between, so
every pile but X and Y looks as it did, and a column or foundation accepts a card by its
own top card alone); with Z = X it is the position before. Both are children of the
position before, which the search expands in full (a position entered by a safe
foundation move was entered by that move, not by a column move). Merging the two moves of
the card into one shortens any line, so every position stays reachable, and the dropped
moves are duplicates: nothing is lost, and the search saves making, keying and taking back
each of them. Only moves from one column to another count: a card that came from a reserve
place or a foundation could not always have gone to Z at once. The search starts from a
position without history (:func:`games.search.searchable`), so the first move is never
held back by a move the search did not make.
"""

from __future__ import annotations

from ..engine.model import Move
from .base import Search
from .rules import PatienceGameRules


class SingleCardSearch(Search, PatienceGameRules):
    """Knows which column's top card the last move carried from another column."""

    def held_column(self) -> int:
        """The column whose top card the last move brought from another column, or -1."""
        history = self.history
        if history:
            last = history[-1]
            role = self._role
            if last.kind == "move" and role[last.src] == "tableau" == role[last.dst]:
                return last.dst
        return -1

    def without_held(self, moves: list[Move]) -> list[Move]:
        """``moves`` without those of the card the last move carried between columns."""
        held = self.held_column()
        if held < 0:
            return moves
        return [m for m in moves if m.src != held]
