"""The search hooks every game has by default, and what each game's mixin overrides.

:class:`Search` is mixed into a game class by :func:`games.search.search_class` (see
there): its methods run with the game as ``self``. The defaults are generic enough that
most games declare only a view of their piles (:attr:`Search.SOLVER_VIEW`); a game whose
search needs more overrides a hook in ``games/search/<module>.py``. None of the hooks
changes the rules: they tell the search which positions are the same, which moves to try
first, which positions are dead ends and which moves can never hurt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from ..engine.game import TWIN
from ..engine.model import Compound, Move

# For the type checker a mixin is a Game: it reads the engine's attributes through this base.
# A game's own mixin names its game class too, as a last base from games/search/rules.py
# (the game class for the checker, ``object`` at run time).
if TYPE_CHECKING:  # a mixin over Game: type checkers see the game's attributes
    from ..engine.game import Game as _Base
else:
    _Base = object


class Search(_Base):
    """The default search knowledge: a mixin over :class:`games.engine.Game`."""

    def start_search(self) -> None:
        """Forget what an earlier search left on this position (a per-search table): every
        search starts from a clone made by :func:`games.search.searchable`."""

    #: What of a pile matters to the rest of the game, by pile role or pile id (the id wins):
    #: ``"all"`` (its cards in order and how many are face down), ``"top"`` (the top card
    #: and the count: the cards under it never play again, as on a golf discard pile or a
    #: foundation whose order is implied), ``"face"`` (the top card alone: the pile's size
    #: never matters either, as for Accordion's piles), ``"count"`` (only how many: the order
    #: is fixed, as in a stock that is only ever dealt from) or ``"none"`` (removed cards: only
    #: the count stays in the key). Discard piles are ``"none"`` unless a game says otherwise.
    SOLVER_VIEW: ClassVar[dict[str, str]] = {}
    #: ``"dfs"``: depth-first search with a transposition table (every card game);
    #: ``"ida"``: iterative-deepening A* on :meth:`solver_heuristic`, shortest solutions
    #: (puzzles such as the sliding cards)
    SOLVER_SEARCH: ClassVar[str] = "dfs"
    #: whether :meth:`solver_moves` with ``prune=True`` may leave moves out (then a second,
    #: complete pass follows a first pass that found no win, before a deal is called lost)
    SOLVER_PRUNES: ClassVar[bool] = False
    #: whether the search should first make short restarts with the moves in other orders
    #: (for games where all moves look alike and one bad early choice dooms a long search)
    SOLVER_RESTARTS: ClassVar[bool] = False

    #: groups of pile indices whose contents can be permuted without changing the game
    #: (interchangeable columns); the solver's transposition table folds them together
    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return ()

    def solver_autoplay(self) -> Move | Compound | None:
        """A move the search plays as the only child of a position because it can never
        hurt (the closure under safe moves). Default: :meth:`safe_autoplay`."""
        return self.safe_autoplay()

    def solver_dfs(self, prune: bool, budget) -> tuple | None:
        """A game's own depth-first search, or None (the default: the solver's own).

        A game whose nodes the generic search makes too slowly may search itself, with the
        solver's contract: ``budget.take(n)`` charged every 256 nodes (True: stop, the
        answer is ``"unknown"``), and the answer ``(result, moves, nodes, positions)``
        with ``result`` ``"won"`` (``moves`` the winning line), ``"lost"`` (a proof) or
        ``"unknown"``. It must decide exactly what the generic search would."""
        return None

    def solver_hopeless(self) -> bool:
        """True when the position can certainly not be won any more (a cheap dead-end test;
        the search then backs up at once). It must never say True for a winnable position."""
        return False

    def solver_heuristic(self) -> int:
        """A lower bound on the moves still needed to win (for ``SOLVER_SEARCH = "ida"``)."""
        return 0

    def by_score(self, moves: list[Move]) -> list[Move]:
        """``moves`` best first by the score each leads to (ties keep their order): where the
        score measures progress (cards in sequence, points) it is the greedy order a search
        should try first."""
        push, pop = self.make, self.unmake
        scored = []
        for m in moves:
            push(m)
            scored.append(-self.score)
            pop()
        order = sorted(range(len(moves)), key=scored.__getitem__)
        return [moves[i] for i in order]

    def solver_moves(self, prune: bool = False) -> Sequence[Move | Compound]:
        """Legal moves in the order a search should try them.

        An entry may also be a :class:`~games.model.Compound`: moves the search makes in a
        row, as one step (Canfield turns the stock round to a card and plays it).

        The default is :meth:`ordered_moves`. With ``prune`` a game may also drop moves that
        rarely help (a fast first search); the solver falls back to ``prune=False`` before
        it calls a deal lost.
        """
        return self.ordered_moves()

    def ordered_moves(self) -> list[Move]:
        """The legal moves (plain moves only) in the default order of :meth:`solver_moves`.

        Foundation moves and removals first, moves that turn up a hidden card next, then the
        rest, and dealing from the stock last; moves that lift a whole pile onto an empty
        pile of the same :meth:`symmetric_groups` group are dropped (nothing changes; between
        piles that differ, such as Snake's first column, which the stock feeds, it is a
        real move). A game's own order starts from here when it only reorders or drops.
        """
        moves = self.legal_moves()
        roles = self.role_of
        cards, down = self.cards, self.down
        buckets: list[list[Move]] = [[], [], [], [], [], []]
        groups: tuple[tuple[int, ...], ...] | None = None
        for m in moves:
            if m.kind == "move":
                src = cards[m.src]
                if roles[m.dst] in ("foundation", "discard"):
                    r = 0
                elif down[m.src] and down[m.src] == len(src) - m.n:
                    r = 1
                elif not cards[m.dst]:
                    if m.n == len(src) and roles[m.src] == roles[m.dst]:
                        if groups is None:
                            groups = self.symmetric_groups()
                        if any(m.src in g and m.dst in g for g in groups):
                            continue
                    r = 3
                elif roles[m.src] == "foundation":
                    r = 5
                else:
                    r = 2
            elif m.kind in ("deal", "redeal"):
                r = 4
            else:
                r = 1
            buckets[r].append(m)
        return [m for b in buckets for m in b]

    def _solver_plan(self) -> tuple[tuple[int, ...], ...]:
        """The piles the key shows whole, by top card and count, by top card, by count."""
        plan = self.__dict__.get("_kplan")
        if plan is None:
            view = {"discard": "none"}
            view.update(self.SOLVER_VIEW)
            modes = [view.get(p.id, view.get(p.role, "all")) for p in self.layout]
            for m in modes:
                if m not in ("all", "top", "face", "count", "none"):
                    raise ValueError(f"{self.info.id}: unknown SOLVER_VIEW {m!r}")
            plan = tuple(tuple(i for i, m in enumerate(modes) if m in kinds)
                         for kinds in (("all",), ("top",), ("face",), ("count", "none")))
            self._kplan = plan
        return plan

    def solver_key(self) -> bytes:
        """The state key for the search: :attr:`SOLVER_VIEW` applied, symmetric piles folded
        together. Every pile's part starts with its length, so the parts need no separator."""
        cards, down = self.cards, self.down
        whole, tops, faces, counts = self.__dict__.get("_kplan") or self._solver_plan()
        parts: list[bytes] = [b""] * len(cards)
        if self.info.decks == 1:
            for i in whole:
                p = cards[i]
                parts[i] = bytes((len(p), down[i], *p))
            for i in tops:
                p = cards[i]
                parts[i] = bytes((len(p), p[-1])) if p else b"\0"
            for i in faces:
                p = cards[i]
                parts[i] = bytes((p[-1],)) if p else b"\xff"
        else:  # the two copies of a card play alike: keys name cards without their deck
            for i in whole:
                p = cards[i]
                parts[i] = bytes((len(p), down[i])) + bytes(p).translate(TWIN)
            for i in tops:
                p = cards[i]
                parts[i] = bytes((len(p), p[-1] % 52)) if p else b"\0"
            for i in faces:
                p = cards[i]
                parts[i] = bytes((p[-1] % 52,)) if p else b"\xff"
        for i in counts:
            parts[i] = bytes((len(cards[i]),))
        for group in self.symmetric_groups():
            folded = sorted([parts[i] for i in group])
            for i, part in zip(group, folded, strict=True):
                parts[i] = part
        if self.vars:
            parts.append(repr(tuple(self.vars.values())).encode())
        return b"".join(parts)
