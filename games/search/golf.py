"""What the search knows of Golf (games/golf.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..cards import KING, RANK
from ..golf import Golf
from ..model import Move
from . import searches
from .base import Search


@searches(Golf)
class GolfSearch(Search):
    """What the search knows of Golf."""

    def start_search(self) -> None:
        super().start_search()
        self._sized = (self.stock, *self.tableau)

    # ------------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """Columns and stock only lose cards from the top, so their sizes say what is left;
        of the discard pile only the rank of the top card matters."""
        cards = self.cards
        w = cards[self.waste]
        return bytes([len(cards[p]) for p in self._sized] + [RANK[w[-1]] if w else 0])

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Column cards before a new stock card, the tallest column first."""
        cards = self.cards
        return sorted(self.legal_moves(), key=lambda m: -len(cards[m.src]) if m.src >= 0 else 99)

    def solver_hopeless(self) -> bool:
        """Counting arguments on the column cards still to play (a sound dead-end test).

        Between two stock cards the player plays a chain of column cards, each one rank from
        the last; a chain starts at the discard pile's top card now or at a stock card. By
        default nothing goes on a king, so a king ends its chain and never starts one; with
        ``queen_on_king`` a king is a rank like any other (its one neighbour is the queen).
        Ranks never wrap. A chain stays within a run of ranks that all still have column
        cards (a "component"), next to its start. For each component: with kings ending
        chains, a king there needs a chain of its own; ranks alternate odd and even along a
        chain, so a chain from an even start holds at most one odd card more than even ones,
        and the other way round. Then every column card needs a card one rank away played
        just before it (Hall's condition below), and that card cannot be one lying under it
        in its own column (the blocked-card test).
        """
        if self.won:
            return False
        king_ends = not self.opts["queen_on_king"]
        cards = self.cards
        tab = [0] * 15
        for p in self.tableau:
            for c in cards[p]:
                tab[RANK[c]] += 1
        starts = [0] * 15
        w = cards[self.waste]
        if w:
            starts[RANK[w[-1]]] += 1
        for c in cards[self.stock]:
            starts[RANK[c]] += 1
        if king_ends:
            starts[KING] = 0
        r = 1
        while r <= KING:
            if not tab[r]:
                r += 1
                continue
            lo = r
            odd = even = 0
            while r <= KING and tab[r]:
                if r & 1:
                    odd += tab[r]
                else:
                    even += tab[r]
                r += 1
            hi = r - 1
            near = range(lo - 1, hi + 2)
            live = sum(starts[k] for k in near)
            odd_live = sum(starts[k] for k in near if k & 1)
            if live == 0 or (king_ends and hi == KING and tab[KING] > live):
                return True
            if odd - even > live - odd_live or even - odd > odd_live:
                return True
        # every column card needs a card one rank away played just before it (a column card,
        # but not a king when kings end chains, or a chain start), and such a card comes
        # before one card only: Hall's condition on every run r, r+2, ..., q of one parity
        supply = [tab[k] + starts[k] for k in range(15)]
        if king_ends:
            supply[KING] = starts[KING]
        for first in (1, 2):
            for lo in range(first, KING + 1, 2):
                need = 0
                have = supply[lo - 1]
                for hi in range(lo, KING + 1, 2):
                    need += tab[hi]
                    have += supply[hi + 1]
                    if need > have:
                        return True
        return self._blocked_card(supply, king_ends)

    def _blocked_card(self, supply: list[int], king_ends: bool) -> bool:
        """Whether some column card has no card left to come just before it: each card of
        the ranks next to its own lies under it in its column (played after it, never
        before) or is gone."""
        cards = self.cards
        for p in self.tableau:
            col = cards[p]
            if len(col) < 2:
                continue
            below = [0] * 15
            for c in col:
                r = RANK[c]
                if supply[r - 1] + supply[r + 1] - below[r - 1] - below[r + 1] <= 0:
                    return True
                if not (king_ends and r == KING):
                    below[r] += 1
        return False
