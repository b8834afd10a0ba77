"""One search for every solitaire: depth-first with a transposition table.

The solver plays "thoughtful" solitaire: it sees the face-down cards (the engine knows them),
which is what decides whether a deal can be won at all. It works on any game through the
engine's own interface and on the game's search knowledge, kept beside the game in
``games/search/<module>.py`` (:func:`games.search.searchable` gives a position that answers
the hooks; they are described in ``docs/solver.md``):

- ``solver_moves(prune)`` gives the legal moves in a good order; with ``prune`` a game may
  leave out moves that rarely help;
- ``solver_autoplay()`` gives a move that can never hurt (a safe foundation move): when there
  is one, it is the only child searched (the closure under safe moves);
- ``solver_key()`` is the state key with what never matters left out (removed cards, the
  order under a discard pile's top) and interchangeable piles folded together, so
  equivalent positions are searched once;
- ``solver_hopeless()`` is a cheap dead-end test;
- the engine's ``make``/``unmake`` make and take back moves in place, so a node costs what
  its move costs.

Card games are searched depth first, twice if need be: a fast pass with the game's pruning,
then a complete pass without it, so that ``lost`` is a proof (given that the safe moves are
safe and the key only merges equivalent positions). Puzzles that declare
``SOLVER_SEARCH = "ida"`` get iterative-deepening A* on the game's admissible
``solver_heuristic()`` (shortest solutions).

Budgets are in nodes and, through ``should_stop``, in whatever the caller measures (the
engine has no clock). The result is ``won`` with the winning line, ``lost`` when the whole
reachable space was searched without a win, or ``unknown`` when the budget ran out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .engine.game import Game
from .engine.model import Compound, Move
from .search import Search, searchable
from .search.ida import ida
from .search.outcome import CHECK_EVERY, LOST, UNKNOWN, WON, Budget, Solution

__all__ = ["CHECK_EVERY", "LOST", "UNKNOWN", "WON", "Solution", "replay_wins", "solve"]

#: how many times the heuristic counts in a quick (not shortest) IDA* search
IDA_HASTE = 2
#: node limits of the first and the last restart (``SOLVER_RESTARTS``)
PROBE_FIRST, PROBE_LAST = 1_000, 256_000


def solve(game: Game, *, max_nodes: int = 5_000_000,
          should_stop: Callable[[], bool] | None = None, prune: bool = True,
          shortest: bool = True) -> Solution:
    """Search from the current position of ``game`` (which is left untouched).

    A first pass prunes the moves the game says rarely help; if it finds no win, a second,
    complete pass either finds one or proves there is none, within what is left of the budget.
    ``prune=False`` runs the complete pass only. ``shortest=False`` lets a puzzle searched
    by IDA* trade the shortest line for a quick one (the heuristic counts twice): a
    hint needs a way to the goal within a second, not the best way.
    """
    if game.won:
        return Solution(WON)
    budget = Budget(max_nodes, should_stop)
    game = searchable(game)
    if game.SOLVER_SEARCH == "ida":
        return ida(game, budget, 1 if shortest else IDA_HASTE)
    total = Solution(UNKNOWN)
    if game.SOLVER_RESTARTS:
        _probe(game, budget, total)
        if total.result == WON or budget.spent:
            return total
    for pruned in ((True, False) if prune and game.SOLVER_PRUNES else (False,)):
        if budget.spent:
            break
        part = _dfs(game, pruned, budget)
        total.nodes += part.nodes
        total.positions += part.positions
        total.passes.append("pruned" if pruned else "complete")
        if part.result != LOST or not pruned:
            total.result, total.moves = part.result, part.moves
            break
    return total


def _probe(game: Search, budget: Budget, total: Solution) -> None:
    """Restarts: short pruned searches, each with a node limit twice the last and the moves
    in another order (the game's, reversed, shuffled), to find a win in games where one bad
    early choice would keep a single search busy for ever. Finds wins only."""
    limit = PROBE_FIRST
    k = 0
    while limit <= PROBE_LAST and not budget.spent:
        order = None if k % 3 == 0 else _reversed if k % 3 == 1 else random.Random(k).shuffle
        cap = Budget(limit, budget.should_stop)
        part = _dfs(game, True, cap, order)
        budget.take(part.nodes)
        total.nodes += part.nodes
        total.passes.append("probe")
        if part.result == WON:
            total.result, total.moves = WON, part.moves
            return
        if part.result == LOST:
            return  # the whole pruned space was searched: restarts cannot find more
        if cap.should_stop is not None and cap.spent and cap.left > 0:
            budget.spent = True
            return
        k += 1
        if k % 3 == 0:
            limit *= 2


def _reversed(moves: list[Move | Compound]) -> None:
    moves.reverse()


def _dfs(game: Search, prune: bool, budget: Budget,
         order: Callable[[list[Move | Compound]], None] | None = None) -> Solution:
    g = searchable(game)
    cls = type(g)
    if order is None and cls.solver_dfs is not Search.solver_dfs:
        own = g.solver_dfs(prune, budget)
        if own is not None:
            return Solution(*own)
    key, push, pop = g.solver_key, g.make, g.unmake
    autoplay, ordered, hopeless = g.solver_autoplay, g.solver_moves, g.solver_hopeless
    check_hopeless = cls.solver_hopeless is not Search.solver_hopeless
    check_lost = cls.lost is not Game.lost
    seen = {key()}
    nodes = 0
    if hopeless():
        return Solution(LOST, [], 0, 1)

    def children() -> Sequence[Move | Compound]:
        safe = autoplay()
        if safe is not None:
            return (safe,)
        moves = ordered(prune)
        if order is not None:
            moves = list(moves)
            order(moves)
        return moves

    # One iterator a depth: the children of that position still to try. A child is a Move
    # or a Compound of Moves made in a row (a game's compound move, such as "turn the stock
    # three times, then play the waste card"); made_stack remembers, per depth, how many
    # engine moves its current child made, to take them back.
    line = [iter(children())]
    made_stack = [1]
    tick = CHECK_EVERY
    while line:
        m = next(line[-1], None)
        if m is None:
            del line[-1]
            made_stack.pop()
            if line:
                for _ in range(made_stack[-1]):
                    pop()
            continue
        if isinstance(m, Compound):
            for x in m.moves:
                push(x)
            made = made_stack[-1] = len(m.moves)
        else:
            push(m)
            made = made_stack[-1] = 1
        nodes += 1
        if g.won:
            return Solution(WON, list(g.history), nodes, len(seen))
        k = key()
        expand = k not in seen
        if expand:
            seen.add(k)
            expand = not ((check_lost and g.lost) or (check_hopeless and hopeless()))
        if expand:
            line.append(iter(children()))
            made_stack.append(1)
        else:
            for _ in range(made):
                pop()
        tick -= 1
        if not tick:
            tick = CHECK_EVERY
            if budget.take(CHECK_EVERY):
                return Solution(UNKNOWN, [], nodes, len(seen))
    budget.take(CHECK_EVERY - tick)
    return Solution(LOST, [], nodes, len(seen))


def replay_wins(game: Game, moves: list[Move]) -> bool:
    """Whether ``moves`` played from the current position of ``game`` win it (checked)."""
    g = game.clone()
    for m in moves:
        if g.why_illegal(m) is not None:
            return False
        g.play(m, check=False)
    return g.won
