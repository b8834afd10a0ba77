"""What the search knows of Scorpion (games/scorpion.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine.cards import KING, RANK
from ..engine.model import Move
from ..scorpion import Scorpion
from . import searches
from .patience import PatienceSearch
from .rules import ScorpionRules


@searches(Scorpion)
class ScorpionSearch(PatienceSearch, ScorpionRules):
    """What the search knows of Scorpion."""

    SOLVER_PRUNES = False  # see solver_moves: one complete pass

    # ------------------------------------------------------------------ moves
    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Columns 1-3 differ from the rest only while the reserve waits to be dealt."""
        return (tuple(self.tableau[3:] if self.cards[self.stock] else self.tableau),)

    def solver_key(self) -> bytes:
        """Like :meth:`symmetric_groups`: columns 4-7 (all seven once dealt) as a sorted set."""
        cards, down = self.cards, self.down
        cols = [bytes((down[t],)) + bytes(cards[t]) for t in self.tableau]
        fixed = 3 if cards[self.stock] else 0
        return b"\xff".join(cols[:fixed] + sorted(cols[fixed:])) + bytes((fixed,))

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """No pruning (without foundations, building a suit is exactly what it would drop), but
        one empty column of the interchangeable ones stands for all of them."""
        cards = self.cards
        fixed = self.tableau[:3] if cards[self.stock] else ()
        seen: set[int] = set()
        kept = []
        for m in super().solver_moves(False):
            if m.kind == "move" and not cards[m.dst] and m.dst not in fixed:
                if m.src in seen:
                    continue
                seen.add(m.src)
            kept.append(m)
        return kept

    def solver_hopeless(self) -> bool:
        """Some card can never move while it lies out of place (or over face-down cards).

        A card moves by itself only onto the next card up of its suit when that card is on
        top, or (a king not at the bottom) into a space; otherwise it is carried by a card
        under it. So, starting from nothing, a card is marked *movable* when it is a king
        above the bottom of its column and a space may come (a column is empty, or some
        column's bottom card is movable), when a card under it is movable, or when its next
        card up is in the reserve or lies (not under it) with only movable cards on it,
        and it is face up or the card on it is movable; until nothing changes. The others can never move. At the end every card is face up
        and (kings aside) lies on its next card up: an unmovable card that does not, or a
        face-down card with an unmovable card on it, means the game is lost.
        """
        cards, down = self.cards, self.down
        cols = self.tableau
        where: dict[int, tuple[int, int]] = {}
        for t in cols:
            for i, x in enumerate(cards[t]):
                where[x] = (t, i)
        low = {t: len(cards[t]) for t in cols}  # per column: the lowest movable card
        # a space can come only from a column whose bottom card can go
        space = any(not cards[t] for t in cols)
        changed = True
        while changed:
            changed = False
            for t in cols:
                pile = cards[t]
                for i in range(low[t]):
                    if i < down[t] and i + 1 < low[t]:
                        continue  # face down under a card that stays: it cannot move
                    x = pile[i]
                    if RANK[x] == KING:
                        if not i or not space:
                            continue
                    else:
                        at = where.get(x + 1)
                        if at is not None and ((at[0] == t and at[1] < i)
                                               or at[1] + 1 < low[at[0]]):
                            continue
                    low[t] = i
                    if not i:
                        space = True
                    changed = True
                    break
        for t in cols:
            pile = cards[t]
            for i in range(low[t]):
                x = pile[i]
                if RANK[x] != KING and (not i or pile[i - 1] != x + 1):
                    return True
                if i < down[t] and i + 1 < low[t]:
                    return True
        return False
