"""What a search answers and what it may spend: the verdicts, :class:`Solution` and the
node :class:`Budget`.

Apart from :mod:`games.solver` so that the searches in this package (a game's own
depth-first search, the IDA* of the puzzles) share them with the general search without
importing it: the solver imports the game modules here, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine.model import Move

WON, LOST, UNKNOWN = "won", "lost", "unknown"
#: how many nodes pass between two calls of ``should_stop``
CHECK_EVERY = 256


@dataclass
class Solution:
    result: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    #: distinct positions stored in the transposition table(s)
    positions: int = 0
    #: the search passes run: "pruned", "complete", "ida"
    passes: list[str] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.result == WON


class Budget:
    """Nodes left, and the caller's own stop test (the engine has no clock): a search
    charges it every :data:`CHECK_EVERY` nodes and stops once it is spent."""

    def __init__(self, max_nodes: int, should_stop: Callable[[], bool] | None) -> None:
        self.left = max_nodes
        self.should_stop = should_stop
        self.spent = False

    def take(self, nodes: int) -> bool:
        """Charge ``nodes``; True when the budget is spent."""
        self.left -= nodes
        if self.left <= 0 or (self.should_stop is not None and self.should_stop()):
            self.spent = True
        return self.spent
