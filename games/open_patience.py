"""What the open building games share (Beleaguered Castle and its family, King Albert, Eight
Off): every card is dealt face up, columns and reserve places are interchangeable, and the
foundations are built up in suit from the ace.

They share the "would change nothing" rule through :attr:`PatienceGame.twin_roles` and one
fast move generator (every pile here lifts its top card only), so each game file declares
its rules and nothing else; their search knowledge is in ``games/search/open_patience.py``.
"""

from __future__ import annotations

from .cards import ACE, RANK
from .model import Move
from .patience import PatienceGame, onto_for

_move = Move._make


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
        self._onto_column = onto_for(frozenset((build,)), 1)

    def settle(self) -> None:
        """Every card is face up, so nothing is ever turned over."""

    def legal_moves(self) -> list[Move]:
        """The moves of :meth:`PatienceGame.legal_moves` (a set the tests compare), found from
        the card instead of trying every pair of piles, since a solver asks millions of times:
        per pile that can give a card (columns, reserve places, then foundations cards may
        leave), the card home, onto each column top it fits on (looked up by top card),
        into the empty columns, then into the free reserve places."""
        cards, roles, rule = self.cards, self._role, self.rule
        moves: list[Move] = []
        add = moves.append
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            pile = cards[t]
            if not pile:
                empty.append(t)
            elif not rule[t].max_cards or len(pile) < rule[t].max_cards:
                on_top[pile[-1]] = t
        kings_only = bool(empty) and rule[empty[0]].empty == "king"
        wanted: dict[int, int] = {}  # the next card of each foundation's suit
        free: list[int] = []
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                free.append(f)
            elif RANK[pile[-1]] < 13:
                wanted[pile[-1] + 1] = f
        cells = [c for c in self.cells if not cards[c] and rule[c].empty != "none"]
        onto = self._onto_column
        for s in self._movable:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            role = roles[s]
            if role != "foundation":
                if RANK[c] == ACE:
                    for f in free:
                        add(_move(("move", s, f, 1, ())))
                elif c in wanted:
                    add(_move(("move", s, wanted[c], 1, ())))
            for t in onto[c]:
                d = on_top.get(t)
                if d is not None:
                    add(_move(("move", s, d, 1, ())))
            if empty and (len(pile) > 1 or role != "tableau") and (
                    not kings_only or RANK[c] == 13):
                for d in empty:
                    add(_move(("move", s, d, 1, ())))
            if role == "tableau":
                for d in cells:
                    add(_move(("move", s, d, 1, ())))
        return moves
