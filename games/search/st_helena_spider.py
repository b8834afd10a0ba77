"""What the search knows of St Helena Spider (games/st_helena_spider.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine import cards as C
from ..st_helena_spider import RUN, StHelenaSpider
from . import searches
from .patience import PatienceSearch
from .rules import StHelenaSpiderRules

#: byte translation from card codes to ranks (for the solver's keys)
_RANKS = bytes(C.RANK[c] if c < len(C.RANK) else 0 for c in range(256))


@searches(StHelenaSpider)
class StHelenaSpiderSearch(PatienceSearch, StHelenaSpiderRules):
    """What the search knows of StHelenaSpider."""

    SOLVER_RESTARTS = True

    # ------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """Suits never matter here (building, moving and clearing go by rank alone), nor
        what a cleared run holds; the stock is only ever dealt from, in order, one card to
        each column, so the columns are interchangeable once it is empty."""
        cards, down = self.cards, self.down
        cols = [bytes((len(cards[t]), down[t])) + bytes(cards[t]).translate(_RANKS)
                for t in self.tableau]
        if not cards[self.stock]:
            cols.sort()
        done = sum(1 for f in self.foundations if cards[f])
        return b"".join(cols) + bytes((len(cards[self.stock]), done))

    def solver_moves(self, prune: bool = False) -> list:
        """Best first: moves that complete a king-to-ace run, that turn a card or empty a
        column, then whole runs joined onto a card one higher, moves into a space, the rest,
        dealing last. Once the stock is empty the spaces are all alike: one stands for all.

        With ``prune`` (suits never matter, so a run resting on a card one higher is as good
        there as anywhere): only a column's whole run moves, never part of it, unless that
        completes a king-to-ace run; into a space only a run that lays a card bare."""
        cards, down, rank = self.cards, self.down, C.RANK
        clear: list = []
        turn: list = []
        join: list = []
        space: list = []
        rest: list = []
        tail: list = []
        spaces_alike = not cards[self.stock]
        seen_space: set[tuple[int, int]] = set()
        for m in self.legal_moves():
            if m.kind != "move":
                (clear if m.kind == "remove" else tail).append(m)
                continue
            src, dst, n = cards[m.src], cards[m.dst], m.n
            left = len(src) - n
            whole = n == len(self.liftable(m.src))  # the column's whole run moves
            if dst and rank[src[-1]] == 1 and self._run_bottom(m.dst) + n >= RUN:
                clear.append(m)
            elif not dst:
                if spaces_alike or prune:
                    if left == 0 or (m.src, n) in seen_space:
                        continue  # the whole column, or the same run into a twin space
                    seen_space.add((m.src, n))
                if prune and not whole:
                    continue
                space.append(m)
            elif left == down[m.src]:
                turn.append(m)
            elif whole:
                join.append(m)
            elif not prune:
                rest.append(m)
        turn.sort(key=lambda m: down[m.src])  # the column nearest to empty first
        return clear + turn + join + space + rest + tail

    def _run_bottom(self, t: int) -> int:
        """How long the run of face-up cards in sequence on top of column ``t`` is."""
        pile = self.cards[t]
        return len(self.liftable(t)) if pile else 0
