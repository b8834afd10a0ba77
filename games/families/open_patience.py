"""What the open building games share (Beleaguered Castle and its family, King Albert, Eight
Off): every card is dealt face up, columns and reserve places are interchangeable, and the
foundations are built up in suit from the ace.

They share the "would change nothing" rule through :attr:`PatienceGame.twin_roles` and one
fast move generator (every pile here lifts its top card only), so each game file declares
its rules and nothing else; their search knowledge is in ``games/search/open_patience.py``.
"""

from __future__ import annotations

from ..engine.model import Move
from .patience import PatienceGame, onto_for


class OpenPatience(PatienceGame):
    """A :class:`PatienceGame` with every card face up and interchangeable piles per role."""

    #: a column's (or a reserve place's) only card moved to an empty twin changes nothing
    twin_roles = frozenset(("tableau", "cell"))

    def prepare(self) -> None:
        super().prepare()
        self.cells = self.roles.get("cell", [])
        back = [f for f in self.foundations if self.rule[f].take != "none"]
        #: the piles a card can leave, in the order their moves are listed
        self._movable = self.tableau + self.cells + back
        build = self.rule[self.tableau[0]].build
        #: per card, the cards it may be placed on in a column
        self._onto_column = onto_for(frozenset((build,)), 1)  # type: ignore[arg-type]  # an open game's columns always build

    def settle(self) -> None:
        """Every card is face up, so nothing is ever turned over."""

    def legal_moves(self) -> list[Move]:
        """The moves of :meth:`PatienceGame.legal_moves` (every pile here lifts its top card
        only), by the shared single-card generator: columns, reserve places, then the
        foundations cards may leave."""
        return self.single_card_moves(self._movable, self._onto_column)
