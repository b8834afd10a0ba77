"""What the search knows of Beleaguered Castle (games/beleaguered_castle.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..beleaguered_castle import CastleGame
from ..cards import SUIT
from ..model import Move
from . import searches
from .open_patience import OpenPatienceSearch


@searches(CastleGame)
class CastleGameSearch(OpenPatienceSearch):
    """What the search knows of CastleGame."""

    # --------------------------------------------------------------- solver hooks
    def guided(self, moves: list[Move]) -> list[Move]:
        """The order of :meth:`PatienceSearch.guided` (by :meth:`solver_score` of the position
        each move leads to, ties in order), with each score worked out from the move instead
        of making it: a single card moves, so only the depths of the wanted cards in its two
        wings change (one less in the wing it leaves, one more in the wing it lands on), and
        a card sent home adds three points and makes the next card of its suit the wanted
        one. The search orders the moves at every node, so this is most of its speed."""
        cards = self.cards
        wanted = [0, 13, 26, 39]
        home = 0
        for f in self.foundations:
            pile = cards[f]
            if pile:
                home += len(pile)
                wanted[SUIT[pile[-1]]] = pile[-1] + 1 if len(pile) < 13 else -1
        out: set[int] = set()  # the wanted cards still in the wings
        count = dict.fromkeys(self.tableau, 0)  # per wing: the wanted cards in it
        depth = 0
        for w in wanted:
            if w < 0:
                continue
            for t in self.tableau:
                pile = cards[t]
                if w in pile:
                    d = len(pile) - 1 - pile.index(w)
                    out.add(w)
                    count[t] += 1
                    depth += d
                    break
        base = depth - 3 * home
        role = self._role
        scored = []
        for m in moves:
            s = m.src
            x = cards[s][-1]
            if role[m.dst] == "foundation":
                score = base - 3 - count[s] + 1  # x itself was wanted, at depth 0
                if x % 13 < 12:  # the next card up is wanted now: its depth counts
                    for t in self.tableau:
                        pile = cards[t]
                        if x + 1 in pile:
                            score += len(pile) - 1 - pile.index(x + 1) - (t == s)
                            break
            else:
                score = base - count[s] + (x in out) + count.get(m.dst, 0)
            scored.append(score)
        order = sorted(range(len(moves)), key=scored.__getitem__)
        return [moves[i] for i in order]
