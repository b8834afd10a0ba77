"""One search for every solitaire: depth-first with a transposition table.

The solver plays "thoughtful" solitaire: it sees the face-down cards (the engine knows them),
which is what decides whether a deal can be won at all. It works on any game through the
engine's own interface:

- ``solver_moves()`` gives the legal moves in a good order, pruned where the game knows a
  move never helps;
- ``safe_autoplay()`` gives a foundation move that can never hurt: when there is one, it is
  the only child searched (the closure under safe moves);
- ``solver_key()`` is the state key with interchangeable piles folded together, so
  symmetric positions are searched once;
- ``play``/``pop`` make and unmake moves in place, so a node costs what its move costs.

Budgets are in nodes and, through ``should_stop``, in whatever the caller measures (the
engine has no clock). The result is ``won`` with the winning line, ``lost`` when the whole
reachable space was searched without a win (a proof, given sound pruning), or ``unknown``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .engine import Game
from .model import Move

WON, LOST, UNKNOWN = "won", "lost", "unknown"


@dataclass
class Solution:
    result: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0

    @property
    def won(self) -> bool:
        return self.result == WON


def solve(game: Game, *, max_nodes: int = 1_000_000,
          should_stop: Callable[[], bool] | None = None) -> Solution:
    """Search from the current position of ``game`` (which is left untouched).

    A first pass prunes the moves the game says rarely help; if it finds no win, a second,
    complete pass either finds one or proves there is none, within what is left of the budget.
    """
    if game.won:
        return Solution(WON, [], 0)
    first = _search(game, True, max_nodes, should_stop)
    if first.result != LOST:
        return first
    second = _search(game, False, max_nodes - first.nodes, should_stop)
    second.nodes += first.nodes
    return second


def _search(game: Game, prune: bool, max_nodes: int,
            should_stop: Callable[[], bool] | None) -> Solution:
    g = game.clone()
    seen = {g.solver_key()}
    nodes = 0
    if max_nodes <= 0:
        return Solution(UNKNOWN, [], 0)
    stack: list[list] = [[_children(g, prune), 0]]
    while stack:
        frame = stack[-1]
        moves, i = frame
        if i >= len(moves):
            stack.pop()
            if stack:
                g.pop()
            continue
        frame[1] = i + 1
        g.play(moves[i], check=False)
        nodes += 1
        if g.won:
            return Solution(WON, list(g.history), nodes)
        key = g.solver_key()
        if key in seen or g.lost:
            g.pop()
        else:
            seen.add(key)
            stack.append([_children(g, prune), 0])
        if nodes >= max_nodes or (should_stop is not None and nodes & 1023 == 0 and should_stop()):
            return Solution(UNKNOWN, [], nodes)
    return Solution(LOST, [], nodes)


def _children(g: Game, prune: bool) -> list[Move]:
    safe = g.safe_autoplay()
    if safe is not None:
        return [safe]
    return g.solver_moves(prune)


def replay_wins(game: Game, moves: list[Move]) -> bool:
    """Whether ``moves`` played from the current position of ``game`` win it (checked)."""
    g = game.clone()
    for m in moves:
        if g.why_illegal(m) is not None:
            return False
        g.play(m, check=False)
    return g.won
