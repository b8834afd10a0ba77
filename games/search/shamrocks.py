"""What the search knows of Shamrocks (games/shamrocks.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine.cards import RANK, SUIT
from ..engine.model import Move
from ..shamrocks import Shamrocks
from . import searches
from .la_belle_lucie import LaBelleLucieSearch
from .rules import ShamrocksRules


@searches(Shamrocks)
class ShamrocksSearch(LaBelleLucieSearch, ShamrocksRules):
    """What the search knows of Shamrocks."""

    #: the search tries first the moves that bring the next foundation cards nearer
    SOLVER_GUIDED = True

    def _heights(self) -> list[int]:
        """Per suit, how many cards are home (a foundation is known by its top card)."""
        h = [0, 0, 0, 0]
        for f in self.foundations:
            pile = self.cards[f]
            if pile:
                h[SUIT[pile[-1]]] = len(pile)
        return h

    def _home(self, t: int) -> Move:
        """The move of the top card of fan ``t`` to its foundation (which must take it)."""
        c = self.cards[t][-1]
        for f in self.foundations:
            pile = self.cards[f]
            if (SUIT[pile[-1]] == SUIT[c]) if pile else RANK[c] == 1:
                return Move("move", t, f)
        raise AssertionError("no foundation takes the card")

    def solver_autoplay(self) -> Move | None:
        """Only a king goes home unasked, and only once all four queens are home.

        A card playing home loses nothing when no card could ever be built on it: every move
        of a winning line that did not go onto it can still be made without it, and a
        foundation is only ahead. Here any card one rank away can be built on a card, the
        next card of its own suit too, which is never home before it: so a king with every
        queen home is the only such card. The generic rule of :class:`PatienceGame` (aces,
        twos and cards at most one above the lowest foundation go home at once) is
        Klondike's, where building goes down only; here it loses won positions: with the
        queen of clubs home too early, a king of spades lying on its queen has no queen left
        to move to (``tests/test_shamrocks.py`` holds that position). The first, pruned
        pass still plays those cards home at once (it only finds wins).
        """
        h = self._heights()
        if min(h) < 12:
            return None
        cards = self.cards
        for t in self.tableau:
            fan = cards[t]
            if fan and RANK[fan[-1]] == 13 and h[SUIT[fan[-1]]] == 12:
                return self._home(t)
        return None

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Foundation moves first, then moves between fans that uncover the next card of a
        suit before those that bury one; a lone card is never moved onto another fan.

        Why the lone card never needs to move: a fan that empties is never filled, so the
        move gains no place, and whatever a winning line does with the card where it lands
        (build on it, move it on, play it home) it can do with the card left alone in its
        own fan, where it has at least as much room above it, while the card it would have
        covered stays free. Bottom cards therefore only ever go home. With ``prune`` (the
        first pass) a card goes home at once by the old rule of thumb (aces, twos, cards at
        most one above the lowest foundation) and a move between fans must achieve
        something now (:meth:`PatienceSearch._pruned`).
        """
        cards = self.cards
        h = self._heights()
        if prune:
            t = self.thumb_home(h)
            if t >= 0:
                return [self._home(t)]
        fans = self.__dict__.get("_fanset")
        if fans is None:
            fans = self._fanset = frozenset(self.tableau)
        moves = [m for m in self.legal_moves()
                 if m.dst not in fans or len(cards[m.src]) > 1]
        if prune:
            moves = self._pruned(moves)
        if len(moves) < 2:
            return moves
        # the next card of each suit: moving a card off it helps, onto it hurts
        wanted = {13 * s + k for s, k in enumerate(h) if k < 13}
        home: list[Move] = []
        rest: list[tuple[int, int, Move]] = []
        for m in moves:
            if m.dst not in fans:
                home.append(m)
                continue
            src = cards[m.src]
            gain = any(c in wanted for c in src[:-1]) - any(c in wanted for c in cards[m.dst])
            rest.append((-gain, len(rest), m))
        rest.sort()
        return home + [m for _, _, m in rest]

    def solver_key(self) -> bytes:
        """How many cards of each suit are home, then the fans as a sorted set.

        Fans are interchangeable (no rule knows a fan's place) and empty ones take nothing,
        so the nonempty fans, each as its cards bottom to top, sorted, make the position;
        which foundation holds which suit changes nothing. 255 separates the fans (cards
        are 0-51)."""
        cards = self.cards
        return bytes(self._heights()) + b"\xff".join(
            sorted([bytes(cards[t]) for t in self.tableau if cards[t]]))

    def solver_hopeless(self) -> bool:
        """A card lying on a lower card of its own suit that can never move to another fan.

        Such a card cannot go home before the card under it, so it must move onto a card one
        rank away (any suit) that is then on top of a fan of at most two cards, i.e. at the
        bottom of its fan or second from it. A card third in its fan has two cards under it
        that cannot leave first, so it becomes such a parent only by moving onto a card
        alone in its fan; cards get to the bottom of a fan only by the deal (empty fans are
        never filled), so that lone card is one of today's bottom cards; any of them but the
        one under the blocked card (a card's own bottom card counts: the card can leave and
        come back once the cards between them are gone). A card under the blocked card
        cannot be its parent while it is there. If no card passes these tests the game is
        lost (every card must reach its foundation).
        """
        cards = self.cards
        fans = [cards[t] for t in self.tableau if cards[t]]
        bottoms = [0] * 15  # per rank, how many fans have a card of it at the bottom
        for fan in fans:
            bottoms[RANK[fan[0]]] += 1
        for fan in fans:
            for i in range(1, len(fan)):
                x = fan[i]
                s, r = SUIT[x], RANK[x]
                if all(SUIT[y] != s or RANK[y] > r for y in fan[:i]):
                    continue
                if not self._has_parent(fans, fan, i, r, bottoms):
                    return True
        return False

    @staticmethod
    def _has_parent(fans: list[list[int]], home_fan: list[int], i: int, r: int,
                    bottoms: list[int]) -> bool:
        """Whether some card could one day take the card ``i`` of ``home_fan`` (rank ``r``)."""
        own = RANK[home_fan[0]]  # under the card: never alone while the card is there
        for fan in fans:
            first = 0 if fan is not home_fan else i + 1
            for j in range(first, len(fan)):
                q = RANK[fan[j]]
                if q != r - 1 and q != r + 1:
                    continue
                if j < 2:
                    return True
                if bottoms[q - 1] - (own == q - 1) > 0 or bottoms[q + 1] - (own == q + 1) > 0:
                    return True
        return False
