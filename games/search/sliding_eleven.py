"""What the search knows of Sliding Eleven (games/sliding_eleven.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..sliding_eleven import CELLS, COLS, ROWS, SlidingEleven, is_even
from . import searches
from .base import Search
from .rules import SlidingElevenRules

#: city-block distance between two places (the fewest slides that could carry a card across)
DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(abs(a // COLS - b // COLS) + abs(a % COLS - b % COLS) for b in range(CELLS))
    for a in range(CELLS)
)

#: the rows and the columns, each as its places in order and as a set
LINES: tuple[tuple[tuple[int, ...], frozenset[int]], ...] = tuple(
    (line, frozenset(line)) for line in
    [tuple(range(r * COLS, r * COLS + COLS)) for r in range(ROWS)]
    + [tuple(range(c, CELLS, COLS)) for c in range(COLS)]
)


def _longest_rise(values: list[int]) -> int:
    """Length of the longest increasing subsequence (lines hold at most four cards)."""
    best = [1] * len(values)
    for i, v in enumerate(values):
        for j in range(i):
            if values[j] < v and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
    return max(best)


@searches(SlidingEleven)
class SlidingElevenSearch(Search, SlidingElevenRules):
    """What the search knows of SlidingEleven."""

    SOLVER_SEARCH = "ida"

    def solvable(self) -> bool:
        """A slide swaps the empty place with a card: it flips the parity of the arrangement
        (the empty place counted as a twelfth card) and moves the empty place one step, so
        the two parities agree in every position that can reach the goal."""
        cards, home = self.cards, self.home
        order = [home[cards[g][0]] if cards[g] else CELLS - 1 for g in self.grid]
        return is_even(order) == (DIST[self.hole()][CELLS - 1] % 2 == 0)

    def solver_hopeless(self) -> bool:
        return not self.solvable()

    def solver_heuristic(self) -> int:
        """Each card needs at least its city-block distance from home in slides, and two more
        for every card that must step out of its home row or column to let another pass
        (linear conflicts: the cards outside the longest run already in order)."""
        cards, home = self.cards, self.home
        at = [home[cards[g][0]] if cards[g] else -1 for g in self.grid]
        total = sum(DIST[k][h] for k, h in enumerate(at) if h >= 0)
        for line, places in LINES:
            homes = [at[k] for k in line if at[k] in places]
            if len(homes) > 1:
                total += 2 * (len(homes) - _longest_rise(homes))
        return total
