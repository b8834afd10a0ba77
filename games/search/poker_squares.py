"""What the search knows of Poker Squares (games/poker_squares.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

import math
import random

from ..engine import cards as C
from ..engine.model import Move
from ..families import poker
from ..poker_squares import CELLS, EXCELLENT, FINISH, LINES, LINES_OF, SIZE, PokerSquares
from . import searches
from .base import Search
from .rules import PokerSquaresRules


def hand_points(hand: list[int], pts: tuple[int, ...]) -> int:
    """Points of a complete line of five natural cards (fast: the solver's plans call it
    millions of times)."""
    ranks = sorted(C.RANK[c] for c in hand)
    distinct = len(set(ranks))
    if distinct == 5:
        flush = len({C.SUIT[c] for c in hand}) == 1
        straight = ranks[4] - ranks[0] == 4 or ranks == [1, 10, 11, 12, 13]
        if straight and flush:
            return pts[poker.ROYAL_FLUSH if ranks[0] == 1 and ranks[4] == 13
                       else poker.STRAIGHT_FLUSH]
        return pts[poker.FLUSH] if flush else pts[poker.STRAIGHT] if straight else 0
    if distinct == 4:
        return pts[poker.ONE_PAIR]
    most = max(ranks.count(r) for r in set(ranks))
    if distinct == 3:
        return pts[poker.THREE_OF_A_KIND if most == 3 else poker.TWO_PAIR]
    return pts[poker.FOUR_OF_A_KIND if most == 4 else poker.FULL_HOUSE]


def _anneal(grid: list[int], free: list[int], pts: tuple[int, ...], rnd: random.Random,
            swaps: int) -> int:
    """Improve a full ``grid`` in place by swapping cards of ``free`` squares (simulated
    annealing); returns its score, and leaves the best grid met in ``grid``."""
    def line(i: int) -> int:
        return hand_points([grid[k] for k in LINES[i]], pts)

    lines = [line(i) for i in range(2 * SIZE)]
    score = best = sum(lines)
    kept = list(grid)
    if len(free) < 2:
        return score
    heat = 20.0
    for _ in range(swaps):
        a, b = rnd.sample(free, 2)
        touched = set(LINES_OF[a]) | set(LINES_OF[b])
        grid[a], grid[b] = grid[b], grid[a]
        new = {i: line(i) for i in touched}
        change = sum(new[i] - lines[i] for i in touched)
        if change >= 0 or rnd.random() < math.exp(change / heat):
            for i, v in new.items():
                lines[i] = v
            score += change
            if score > best:
                best, kept = score, list(grid)
        else:
            grid[a], grid[b] = grid[b], grid[a]
        heat = max(0.5, heat * 0.9995)
    grid[:] = kept
    return best


#: plans made lately, by (seed, options, position key): see ``_arrangement``
_PLANS: dict[tuple, list[int]] = {}
PLANS_KEPT = 8


@searches(PokerSquares)
class PokerSquaresSearch(Search, PokerSquaresRules):
    """What the search knows of PokerSquares."""

    SOLVER_VIEW = {"stock": "count"}  # dealt from the top only: its size says what is left
    #: local search effort per plan: swaps tried per run, and runs at most
    PLAN_SWAPS, PLAN_RUNS = 12_000, 6

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """The place a good complete arrangement gives the card first (see :meth:`_plan`),
        then the places where it scores most (hands so far). Empty rows are interchangeable
        (swapping two of them maps every line onto a line), and so are empty columns, so a
        card goes only into the first empty row and column of the ones it could start."""
        moves = self.legal_moves()
        if len(moves) < 2:
            return moves
        if FINISH in moves and self.score >= EXCELLENT[self.system]:
            return [FINISH] + [m for m in moves if m != FINISH]  # stop while winning
        planned = None
        if moves[0].kind == "place" and not self.adjacent:
            # the plan scores natural cards only: no plan with a joker among them
            planned = self._planned_square() if self.opts["joker"] != "mixed_in" else None
            first = [m for m in moves if m.dst == planned]
            moves = [m for m in self._distinct_places(moves) if m.dst != planned]
        out = self.by_score(moves)
        return first + out if planned is not None else out

    def _distinct_places(self, moves: list[Move]) -> list[Move]:
        """The placements that differ up to swapping empty rows or empty columns."""
        cards, grid = self.cards, self.grid
        used_rows = {k // SIZE for k, g in enumerate(grid) if cards[g]}
        used_cols = {k % SIZE for k, g in enumerate(grid) if cards[g]}
        free_rows = [r for r in range(SIZE) if r not in used_rows]
        free_cols = [c for c in range(SIZE) if c not in used_cols]
        kept = []
        for m in moves:
            r, c = divmod(grid.index(m.dst), SIZE)
            if (r in used_rows or r == free_rows[0]) and (c in used_cols or c == free_cols[0]):
                kept.append(m)
        return kept

    def _planned_square(self) -> int | None:
        """The square (pile index) the arrangement planned for this deal gives the next card,
        if the cards placed so far follow the plan; the plan is made once per search."""
        plan = self.__dict__.get("_plan")
        cards, grid = self.cards, self.grid
        if plan is None or not self.history:  # a search starts from a clone, history empty
            plan = self._plan = self._arrangement()
        elif any(cards[g] and cards[g][-1] != plan[k] for k, g in enumerate(grid)):
            return None
        nxt = cards[self.stock][-1]
        return grid[plan.index(nxt)] if nxt in plan else None

    def _arrangement(self) -> list[int]:
        """:meth:`_arrange` for this position, made once: the plan is the same every time
        (seeded by the deal), and it costs seconds, while one hint asks for it twice (the
        search, then the suggestion when the search ran out of time) and the kiosk's
        check and hint ask about the same position. A few positions are kept."""
        key = (self.seed, tuple(sorted(self.opts.items())), self.key())
        plan = _PLANS.get(key)
        if plan is None:
            plan = _PLANS[key] = self._arrange()
            while len(_PLANS) > PLANS_KEPT:
                del _PLANS[next(iter(_PLANS))]
        return list(plan)

    def _arrange(self) -> list[int]:
        """A good complete arrangement of the cards still to come around the cards placed,
        by simulated annealing on swaps of two free squares (deterministic per deal): the
        search follows it first, so a deal whose plan reaches the target is won at once.
        Any arrangement can be played (a card may go to any empty square), and row or column
        swaps keep the score, so the first card's forced corner costs nothing."""
        cards, grid, pts = self.cards, self.grid, self.points
        target = EXCELLENT[self.system]
        cells = [cards[g][-1] if cards[g] else -1 for g in grid]
        coming = cards[self.stock][::-1]
        free = [k for k, c in enumerate(cells) if c < 0]
        if len(free) == CELLS and not self.opts["free_first_card"]:
            cells[0] = coming[0]
            coming = coming[1:]
            free = free[1:]
        rnd = random.Random(self.seed)
        best, best_score = None, -1
        for _ in range(self.PLAN_RUNS):
            order = coming[:len(free)]
            rnd.shuffle(order)
            grid_now = list(cells)
            for k, c in zip(free, order, strict=True):
                grid_now[k] = c
            score = _anneal(grid_now, free, pts, rnd, self.PLAN_SWAPS)
            if score > best_score:
                best, best_score = list(grid_now), score
            if best_score >= target or len(free) < 2:
                break
        assert best is not None  # (the first run's score beats -1)
        return best
