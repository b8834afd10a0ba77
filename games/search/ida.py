"""Iterative-deepening A* for the puzzles that declare ``SOLVER_SEARCH = "ida"`` (the
sliding cards): shortest solutions, on the game's admissible ``solver_heuristic()``.

Apart from the depth-first search of :mod:`games.solver` because it keeps another table
(the fewest moves at which each position was reached in the current pass) and backs up at
a bound instead of at a position seen before; it shares the verdicts and the budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import cast

from ..engine.model import Move
from .base import Search
from .outcome import CHECK_EVERY, LOST, UNKNOWN, WON, Budget, Solution


def ida(g: Search, budget: Budget, weight: int = 1) -> Solution:
    """Depth-first passes bounded by moves made + the heuristic, from the position of ``g``
    (a position made by :func:`games.search.searchable`, changed in place and restored).

    With an admissible heuristic the first line found is a shortest one. A table of the
    fewest moves at which each position was reached in the current pass keeps transpositions
    from being searched twice. A pass that meets no bound proves the puzzle unsolvable.
    With ``weight`` above 1 the heuristic is inflated: lines come much sooner and are no
    longer shortest; a pass that meets no bound has still seen every reachable position.
    """
    key, push, pop, h = g.solver_key, g.make, g.unmake, g.solver_heuristic
    # the puzzles searched this way give plain moves (no Compound: a step is one move)
    ordered = cast(Callable[[bool], Sequence[Move]], g.solver_moves)
    out = Solution(UNKNOWN, passes=[])
    if g.solver_hopeless():
        out.result = LOST
        return out
    bound = h() * weight
    hcache: dict[bytes, int] = {}  # later passes meet the same positions again
    tick = CHECK_EVERY
    while True:
        out.passes.append("ida")
        best: dict[bytes, int] = {key(): 0}
        beyond = None  # the smallest f above the bound met in this pass
        # one iterator a depth: the moves of that position still to try
        line: list[Iterator[Move]] = [iter(ordered(False))]
        while line:
            m = next(line[-1], None)
            if m is None:
                del line[-1]
                if line:
                    pop()
                continue
            push(m)
            out.nodes += 1
            depth = len(line)
            if g.won:
                out.result, out.moves = WON, list(g.history)
                out.positions = len(best)
                return out
            k = key()
            hk = hcache.get(k)
            if hk is None:
                hk = hcache[k] = h() * weight
            f = depth + hk
            if best.get(k, depth + 1) <= depth:
                pop()
            elif f > bound:
                best[k] = depth
                if beyond is None or f < beyond:
                    beyond = f
                pop()
            else:
                best[k] = depth
                line.append(iter(ordered(False)))
            tick -= 1
            if not tick:
                tick = CHECK_EVERY
                if budget.take(CHECK_EVERY):
                    out.positions = len(best)
                    return out
        out.positions = len(best)
        if beyond is None:
            out.result = LOST
            return out
        bound = beyond
