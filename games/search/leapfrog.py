"""What the search knows of Leapfrog (games/leapfrog.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine.cards import RANK, SUIT
from ..engine.model import Move
from ..leapfrog import LINKED, Leapfrog
from . import searches
from .grid import CellGameSearch
from .rules import LeapfrogRules


def link_groups(cards: list[int]) -> int:
    """How many groups ``cards`` form when cards sharing a rank or a suit are joined
    (through other cards): the components of the graph of suits and ranks whose edges are
    the cards."""
    parent = list(range(17))  # four suits, then thirteen ranks

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    used = set()
    for c in cards:
        a, b = find(SUIT[c]), find(3 + RANK[c])
        if a != b:
            parent[a] = b
        used.add(SUIT[c])
    return len({find(s) for s in used})


@searches(Leapfrog)
class LeapfrogSearch(CellGameSearch, LeapfrogRules):
    """What the search knows of Leapfrog."""

    # ------------------------------------------------------------------ for the solver
    SOLVER_VIEW = {"stock": "count"}  # the stock is only ever dealt from

    SOLVER_PRUNES = True

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Jumps before filling a gap; with ``prune``, no filling while a jump is possible.

        Right after a fill, only fills and jumps of or onto the card just placed: a fill
        can always wait until just before the first jump that uses its card (it changes no
        other place, and the stock order is kept), so every line has a form that does this
        and searching that form alone loses no win. :meth:`solver_key` records the card
        waiting to be used, so positions reached otherwise are not merged with it.
        """
        moves = self.legal_moves()
        jumps = [m for m in moves if m.kind == "jump"]
        waiting = self._waiting()
        if waiting >= 0:
            jumps = [m for m in jumps if m.src == waiting or m.dst == waiting]
        if len(jumps) > 1:
            jumps = self._ordered_jumps(jumps)
        if prune and jumps:
            return jumps
        fills = [m for m in moves if m.kind == "fill"]
        if fills:
            # the stock card is best placed beside cards it could jump onto
            cards, near = self.cards, self._near
            top = cards[self.stock][-1]
            fills.sort(key=lambda m: -sum(LINKED[top * 52 + cards[q][0]]
                                          for q in near[m.dst] if cards[q]))
        return jumps + fills

    def _ordered_jumps(self, jumps: list[Move]) -> list[Move]:
        """Capture the cards with the fewest partners left first (they are the first to be
        stranded), with the jumpers that have the most (they must capture others later)."""
        cards = self.cards
        suits, ranks = [0] * 4, [0] * 14
        for p in (*self.cell, self.stock):
            for c in cards[p]:
                suits[SUIT[c]] += 1
                ranks[RANK[c]] += 1

        def partners(p: int) -> int:
            c = cards[p][0]
            return suits[SUIT[c]] + ranks[RANK[c]]

        return sorted(jumps, key=lambda m: partners(m.dst) - partners(m.src))

    def _waiting(self) -> int:
        """The place filled by the last move of the search, or -1."""
        history = self.history
        return history[-1].dst if history and history[-1].kind == "fill" else -1

    def solver_key(self) -> bytes:
        """The declared key, and the place whose new card must be used next (see
        :meth:`solver_moves`)."""
        return super().solver_key() + bytes((self._waiting() & 0xFF,))

    def solver_hopeless(self) -> bool:
        """Two sound counting arguments (a card leaves only when a card of its rank or suit
        jumps onto it, and the game wants one card left):

        - cards linked by rank or suit form groups that never merge, and a group never loses
          its last card (the jumper stays): two groups left can never become one card;
        - once the stock is empty, a card moves only into a touching occupied place, so the
          occupied places form islands that never join: two islands mean two cards left.
          While cards remain in the stock, each fill joins at most four islands into one.
        """
        cards = self.cards
        stock = len(cards[self.stock])
        left = [p[0] for p in (cards[q] for q in self.cell) if p]
        if link_groups(left + cards[self.stock]) > 1:
            return True
        islands = self._islands()
        return islands - 1 > 3 * stock

    def _islands(self) -> int:
        """How many groups of touching occupied places the layout has."""
        cards, near = self.cards, self._near
        seen: set[int] = set()
        count = 0
        for p in self.cell:
            if cards[p] and p not in seen:
                count += 1
                seen.add(p)
                todo = [p]
                while todo:
                    for q in near[todo.pop()]:
                        if cards[q] and q not in seen:
                            seen.add(q)
                            todo.append(q)
        return count
