"""What the search knows of King Albert (games/king_albert.py), apart from its rules: the
open games' key and guided order (games/search/open_patience.py); one card moves at a
time, so the card just moved between columns is not moved again at once
(games/search/single_card.py)."""

from __future__ import annotations

from ..king_albert import KingAlbert
from ..model import Move
from . import searches
from .open_patience import OpenPatienceSearch
from .single_card import SingleCardSearch


@searches(KingAlbert)
class KingAlbertSearch(SingleCardSearch, OpenPatienceSearch):
    """What the search knows of KingAlbert."""

    def guided(self, moves: list[Move]) -> list[Move]:
        """The open games' guided order, after dropping the moves of the card just moved
        between columns (before the order is worked out: each scored move is made and
        taken back)."""
        return super().guided(self.without_held(moves))

    def solver_moves(self, prune: bool = False) -> list[Move]:
        moves = super().solver_moves(prune)
        if len(moves) == 1:  # the guided order (and its filter) only runs on two or more
            moves = self.without_held(moves)
        return moves

    def solver_dfs(self, prune: bool, budget) -> tuple | None:
        """King Albert's own depth-first search (see :meth:`Search.solver_dfs`) with the
        standard reserve (never refilled): the generic search node for node (the moves of
        :meth:`solver_moves` in their order, the safe move of :meth:`solver_autoplay`, the
        positions of :meth:`solver_key`), on plain lists instead of the engine's piles.

        The position is the columns and the reserve cards alone: the foundations follow
        from them (every other card is home), so the key is the columns' bytes sorted and
        the reserve cards sorted. Cards can come back from the foundations here (the
        complete pass tries it), so the foundation each suit is on is tracked for the line.
        Returns None (the generic search) for the source's refilling reserve or when the
        safe move is not the one worked out here.
        """
        from ..patience import PatienceGame

        if (self.opts.get("reserve_refill") or not self.standard_foundations
                or not self._builds_down()
                or type(self).safe_autoplay is not PatienceGame.safe_autoplay):
            return None
        need = self.__dict__.get("_home_needs")
        if need is None:
            need = self._home_needs_table()
        if not need:
            return None
        cards = self.cards
        tab = list(self.tableau)
        n = len(tab)
        fnd = list(self.foundations)
        cell_piles = list(self.cells)
        cols = [list(cards[t]) for t in tab]
        cells = [cards[c][-1] if cards[c] else -1 for c in cell_piles]
        CELL = 10  # a reserve card's place: CELL + its reserve place
        prog = [0, 0, 0, 0]
        fpile = [-1, -1, -1, -1]  # per suit: the foundation pile it is on
        for f in fnd:
            if cards[f]:
                t = cards[f][-1]
                prog[t // 13] = t % 13 + 1
                fpile[t // 13] = f
        where = [-1] * 52  # per card: its column, CELL + place, or -1 when home
        at = [0] * 52  # per card in a column: its height there
        for i, col in enumerate(cols):
            for j, c in enumerate(col):
                where[c] = i
                at[c] = j
        for j, c in enumerate(cells):
            if c >= 0:
                where[c] = CELL + j
        left = sum(map(len, cols)) + sum(c >= 0 for c in cells)
        if not left:
            return "won", [], 0, 1
        cb = [bytes(col) for col in cols]
        onto = self._onto_column
        held = -1
        if self.history:
            last = self.history[-1]
            role = self._role
            if last.kind == "move" and role[last.src] == "tableau" == role[last.dst]:
                held = tab.index(last.dst)
        col_range = range(n)

        def key() -> bytes:
            return b"\xff".join(sorted(cb)) + b"\xfe" + bytes(sorted(c for c in cells if c >= 0))

        def free_foundation() -> int:
            used = fpile
            for f in fnd:
                if f not in used:
                    return f
            return -1

        def score() -> int:
            """:meth:`PatienceSearch.solver_score` of the current position."""
            depth = 0
            for su in range(4):
                p = prog[su]
                if p < 13:
                    w = su * 13 + p
                    x = where[w]
                    if x < CELL:
                        depth += len(cols[x]) - 1 - at[w]
            return depth - 3 * sum(prog)

        def children(held: int) -> list[tuple[int, int]]:
            """The moves (source, destination) of :meth:`solver_moves`, or the safe move
            alone: a source is a column, CELL + a reserve place or 20 + a suit (its
            foundation's top card), a destination a column or -1 (home)."""
            low = min(prog) + 1
            for s in col_range:
                col = cols[s]
                if col:
                    c = col[-1]
                    r = c % 13 + 1
                    if r == prog[c // 13] + 1 and (
                            r <= 2 or r <= low
                            or all(d % 13 < prog[d // 13] for d in need[c])):
                        return [(s, -1)]
            for j, c in enumerate(cells):
                if c >= 0:
                    r = c % 13 + 1
                    if r == prog[c // 13] + 1 and (
                            r <= 2 or r <= low
                            or all(d % 13 < prog[d // 13] for d in need[c])):
                        return [(CELL + j, -1)]
            top_of = {}
            space = -1
            for t in col_range:
                col = cols[t]
                if col:
                    top_of[col[-1]] = t
                elif space < 0:
                    space = t
            home = []
            builds = []
            spaces = []
            back = []
            feeders = [c for c in cells if c >= 0] if prune else ()
            for s in col_range:
                col = cols[s]
                if not col or s == held:
                    continue
                c = col[-1]
                if prog[c // 13] == c % 13:
                    home.append((s, -1))
                if prune and len(col) > 1:
                    u = col[-2]
                    if prog[u // 13] != u % 13 and not any(u in onto[x] for x in feeders):
                        continue  # moving this card achieves nothing now
                for t in onto[c]:
                    d = top_of.get(t)
                    if d is not None:
                        builds.append((s, d))
                if space >= 0 and len(col) > 1:
                    spaces.append((s, space))
            for j, c in enumerate(cells):
                if c < 0:
                    continue
                if prog[c // 13] == c % 13:
                    home.append((CELL + j, -1))
                for t in onto[c]:
                    d = top_of.get(t)
                    if d is not None:
                        builds.append((CELL + j, d))
                if space >= 0:
                    spaces.append((CELL + j, space))
            if not prune:
                for f in fnd:
                    if f in fpile:
                        su = fpile.index(f)
                        c = su * 13 + prog[su] - 1
                        if space >= 0:
                            spaces.append((20 + su, space))
                        for t in onto[c]:
                            d = top_of.get(t)
                            if d is not None:
                                back.append((20 + su, d))
            moves = home + builds + spaces + back
            if len(moves) < 2:
                return moves
            scores = []
            for m in moves:
                c = make(m)
                scores.append(score())
                unmake(m, c)
            order = sorted(range(len(moves)), key=scores.__getitem__)
            return [moves[i] for i in order]

        def make(m: tuple[int, int]) -> int:
            """Make move ``m`` on the lists (not the key bytes); the card moved."""
            nonlocal left
            s, d = m
            if s < CELL:
                c = cols[s].pop()
            elif s < 20:
                c = cells[s - CELL]
                cells[s - CELL] = -1
            else:
                su = s - 20
                prog[su] -= 1
                c = su * 13 + prog[su]
                left += 1
            if d < 0:
                prog[c // 13] += 1
                where[c] = -1
                left -= 1
            else:
                col = cols[d]
                at[c] = len(col)
                where[c] = d
                col.append(c)
            return c

        def unmake(m: tuple[int, int], c: int) -> None:
            nonlocal left
            s, d = m
            if d < 0:
                prog[c // 13] -= 1
                left += 1
            else:
                cols[d].pop()
            if s < CELL:
                col = cols[s]
                at[c] = len(col)
                where[c] = s
                col.append(c)
            elif s < 20:
                cells[s - CELL] = c
                where[c] = s
            else:
                prog[s - 20] += 1
                where[c] = -1
                left -= 1

        def touched(m: tuple[int, int]) -> None:
            s, d = m
            if s < CELL:
                cb[s] = bytes(cols[s])
            if d >= 0:
                cb[d] = bytes(cols[d])

        seen = {key()}
        nodes = 0
        stack = [children(held)]
        index = [0]
        path: list[tuple] = []  # per move made: the move, held before, card, pile gone to/from
        tick = 256
        while stack:
            moves = stack[-1]
            i = index[-1]
            if i >= len(moves):
                stack.pop()
                index.pop()
                if path:  # take back the move that led here
                    m, held, c, f = path.pop()
                    if c % 13 == 0:  # an ace's foundation is free again, or taken again
                        fpile[c // 13] = -1 if m[1] < 0 else f
                    unmake(m, c)
                    touched(m)
                continue
            index[-1] = i + 1
            m = moves[i]
            s, d = m
            f = -1
            c = make(m)
            if d < 0:
                f = fpile[c // 13]
                if f < 0:
                    f = fpile[c // 13] = free_foundation()
            elif s >= 20:
                f = fpile[c // 13]
                if c % 13 == 0:
                    fpile[c // 13] = -1
            path.append((m, held, c, f))
            held = d if s < CELL and d >= 0 else -1
            touched(m)
            nodes += 1
            if not left:
                return "won", self._albert_line(path), nodes, len(seen)
            k = key()
            if k in seen:
                held = path.pop()[1]
                if c % 13 == 0:
                    fpile[c // 13] = -1 if d < 0 else f
                unmake(m, c)
                touched(m)
            else:
                seen.add(k)
                stack.append(children(held))
                index.append(0)
            tick -= 1
            if not tick:
                tick = 256
                if budget.take(256):
                    return "unknown", [], nodes, len(seen)
        budget.take(256 - tick)
        return "lost", [], nodes, len(seen)

    def _albert_line(self, path: list[tuple]) -> list[Move]:
        """The engine's moves of a line of :meth:`solver_dfs` (each entry: the move, the
        held column, the card, the foundation it went to or came from)."""
        tab, cells = self.tableau, self.cells
        line = []
        for (s, d), _, _, f in path:
            src = tab[s] if s < 10 else cells[s - 10] if s < 20 else f
            line.append(Move("move", src, f if d < 0 else tab[d], 1))
        return line
