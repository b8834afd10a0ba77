"""What the open building games share (Beleaguered Castle and its family, King Albert, Eight
Off): every card is dealt face up, columns and reserve places are interchangeable, and the
foundations are built up in suit from the ace.

They share the "would change nothing" rule through :attr:`PatienceGame.twin_roles` and the
solver hooks written here, so each game file keeps only its own rules and fast move
generation.
"""

from __future__ import annotations

from .patience import PatienceGame


class OpenPatience(PatienceGame):
    """A :class:`PatienceGame` with every card face up and interchangeable piles per role."""

    #: a column's (or a reserve place's) only card moved to an empty twin changes nothing
    twin_roles = frozenset(("tableau", "cell"))

    def settle(self) -> None:
        """Every card is face up, so nothing is ever turned over."""
