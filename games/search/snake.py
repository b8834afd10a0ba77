"""What the search knows of Snake (games/snake.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine.model import Move
from ..snake import Snake
from . import searches
from .patience import PatienceSearch
from .rules import SnakeRules


@searches(Snake)
class SnakeSearch(PatienceSearch, SnakeRules):
    """What the search knows of Snake."""

    #: foundations built in suit from the ace are known by their top card; the stock is only
    #: ever dealt from
    SOLVER_VIEW = {"foundation": "top", "stock": "count"}

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """The generic order and pruning (foundation moves, moves between columns, moves
        into a space, deals, foundation cards brought back), with three changes that keep
        the search complete:

        - Right after a deal, only another deal or a move from or onto column 1: a deal
          changes nothing but column 1, so it can always wait until just before the first
          move that uses that column (the stock order is kept), and searching that form of
          every line alone loses no win. :meth:`solver_key` records the waiting deal.
        - Of several empty columns that :meth:`symmetric_groups` makes interchangeable, only
          the first is a target: the others lead to the same key.
        - A whole column lifted into a space is searched when column 1 (which the stock
          feeds) is one of the two: the next deal then lands on another pile, so the move
          changes the game. The generic order drops every whole-pile move into an empty
          pile of its role, which is right only between interchangeable columns."""
        cards = self.cards
        first = self.tableau[0]
        dealt = self._dealt()
        twins = self._twin_columns()
        space = next((t for t in twins if not cards[t]), -1)
        out: list[Move] = []
        for m in PatienceSearch.solver_moves(self, prune):
            if m.kind == "move":
                if dealt and first != m.src and first != m.dst:
                    continue
                if not cards[m.dst] and m.dst != space and m.dst in twins:
                    continue
            elif m.kind == "deal" and first not in twins:
                # before the deals: the whole of column 1 to a space, or a column to an
                # empty column 1 (both empty a column, so the pruned pass keeps them too)
                pile = cards[first]
                if pile and space >= 0 and len(pile) in self.liftable(first):
                    out.append(Move("move", first, space, len(pile)))
                if not pile:
                    out.extend(Move("move", t, first, len(cards[t])) for t in twins
                               if cards[t] and len(cards[t]) in self.liftable(t))
            out.append(m)
        return out

    def _twin_columns(self) -> tuple[int, ...]:
        """The columns the key treats as interchangeable (see :meth:`symmetric_groups`)."""
        if self.cards[self.stock] or self._dealt():
            return tuple(self.tableau[1:])
        return tuple(self.tableau)

    def _dealt(self) -> bool:
        """Whether the last move of the search was a deal."""
        return bool(self.history) and self.history[-1].kind == "deal"

    def solver_key(self) -> bytes:
        return super().solver_key() + (b"d" if self._dealt() else b"-")

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Foundations are interchangeable, and so are the columns but the first while the
        stock still feeds it (or a deal waits to be used on it); then all eight."""
        return tuple(self.foundations), self._twin_columns()
