"""What the search knows of Beleaguered Castle (games/beleaguered_castle.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..beleaguered_castle import CastleGame
from ..cards import RANK, SUIT
from ..model import Move
from . import searches
from .open_patience import OpenPatienceSearch
from .single_card import SingleCardSearch


@searches(CastleGame)
class CastleGameSearch(SingleCardSearch, OpenPatienceSearch):
    """What the search knows of CastleGame."""

    def solver_autoplay(self) -> Move | None:
        """:meth:`PatienceSearch.solver_autoplay` for this family, worked out directly: the
        foundations never give a card back and a card carries only cards one rank lower of
        any suit, so a card that is next for its foundation goes home safely when it is a
        two or lower, or when every card one rank lower is home (rank at most the lowest
        foundation's plus one). The same move as the generic hook, checked by the tests."""
        cards = self.cards
        progress = [0, 0, 0, 0]
        free = -1
        at = {}
        for f in self.foundations:
            pile = cards[f]
            if pile:
                t = pile[-1]
                progress[SUIT[t]] = RANK[t]
                at[t + 1] = f
            elif free < 0:
                free = f
        low = min(progress) + 1
        for s in self.tableau:
            pile = cards[s]
            if pile:
                c = pile[-1]
                r = RANK[c]
                if r == progress[SUIT[c]] + 1 and (r <= 2 or r <= low):
                    return Move("move", s, free if r == 1 else at[c], 1)
        return None

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """The moves of the generic hooks (:meth:`OpenPatienceSearch.solver_moves` over
        :meth:`PatienceSearch.solver_moves`) found in one pass over the wings: foundation
        moves, then onto other wings, then into the first space (spaces are
        interchangeable; a wing's last card never moves into one), with ``prune`` only the
        wing moves that empty a wing or uncover a card that can go home; then the guided
        order. The moves of the card just carried from wing to wing are left out
        (:class:`SingleCardSearch`). The search asks this at every position."""
        cards = self.cards
        wanted: dict[int, int] = {}
        free: list[int] = []
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                free.append(f)
            elif len(pile) < 13:
                wanted[pile[-1] + 1] = f
        on_top: dict[int, int] = {}
        space = -1
        for t in self.tableau:
            pile = cards[t]
            if pile:
                on_top[pile[-1]] = t
            elif space < 0:
                space = t
        held = self.held_column()
        onto = self._onto_column
        home: list[Move] = []
        wings: list[Move] = []
        spaces: list[Move] = []
        for s in self.tableau:
            pile = cards[s]
            if not pile or s == held:
                continue
            c = pile[-1]
            if RANK[c] == 1:
                if free:  # empty foundations are interchangeable too
                    home.append(Move("move", s, free[0], 1))
            elif c in wanted:
                home.append(Move("move", s, wanted[c], 1))
            if prune and len(pile) > 1:
                under = pile[-2]
                if not ((RANK[under] == 1 and free) or under in wanted):
                    continue  # moving this card achieves nothing now
            for t in onto[c]:
                d = on_top.get(t)
                if d is not None:
                    wings.append(Move("move", s, d, 1))
            if space >= 0 and len(pile) > 1:
                spaces.append(Move("move", s, space, 1))
        moves = home + wings + spaces
        return self.guided(moves) if len(moves) > 1 else moves

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
