"""What the search knows of King Albert (games/king_albert.py), apart from its rules: the
open games' key and guided order (games/search/open_patience.py); one card moves at a
time, so the card just moved between columns is not moved again at once
(games/search/single_card.py)."""

from __future__ import annotations

from ..engine.model import Move
from ..families.patience import PatienceGame
from ..king_albert import KingAlbert
from . import searches
from .open_patience import OpenPatienceSearch
from .outcome import WON
from .plain_dfs import ALL_HOME, card_places, depth_first, next_home_counts, placer
from .rules import KingAlbertRules
from .single_card import SingleCardSearch


@searches(KingAlbert)
class KingAlbertSearch(SingleCardSearch, OpenPatienceSearch, KingAlbertRules):
    """What the search knows of KingAlbert."""

    def fresh_column(self) -> int:
        """The column a reserve card was just played to, or -1: the search then tries only
        the moves that put a card on it (:meth:`onto_fresh`)."""
        history = self.history
        if history and not self.opts.get("reserve_refill"):
            last = history[-1]
            role = self._role
            if last.kind == "move" and role[last.src] == "cell" and role[last.dst] == "tableau":
                return last.dst
        return -1

    def held_column(self) -> int:
        """:meth:`SingleCardSearch.held_column`, but never right after a move onto a reserve
        card just played: the argument for holding the card back needs the position before
        it searched with every move, and that one was searched with builds on the reserve
        card only."""
        history = self.history
        if len(history) >= 2 and not self.opts.get("reserve_refill"):
            before = history[-2]
            role = self._role
            if (before.kind == "move" and role[before.src] == "cell"
                    and role[before.dst] == "tableau"):
                return -1
        return super().held_column()

    def onto_fresh(self, moves: list[Move]) -> list[Move]:
        """After a reserve card is played to a column (the standard reserve, never refilled),
        only the moves that put a card on it.

        Why nothing is lost: a reserve card never moves unless played, and nothing lands on
        the reserve, so a line that plays reserve card r to column Y and then makes moves that
        leave r alone can play it just before the first move that touches r, and reach the
        same positions: the moves in between were legal with r on Y, so none needed Y's old
        top (a space, if Y was one, is as good as any other: the key does not tell spaces
        apart). That first move builds on r (searched), sends r home or on to another pile
        (one move from the reserve does the same, a move shorter). Each rewrite moves a
        reserve play later or shortens the line, so every won line has a form in which each
        reserve card played to a column is built on at once. The key keeps the mark
        (:meth:`solver_key`), so a position met both ways is searched with every move too.
        """
        d = self.fresh_column()
        if d < 0:
            return moves
        return [m for m in moves if m.dst == d]

    def solver_key(self) -> bytes:
        """The open games' key, and the reserve card just played to a column, if any."""
        key = super().solver_key()
        d = self.fresh_column()
        return key if d < 0 else key + bytes((253, self.cards[d][-1]))

    def guided(self, moves: list[Move]) -> list[Move]:
        """The open games' guided order, after dropping the moves of the card just moved
        between columns (before the order is worked out: each scored move is made and
        taken back)."""
        return super().guided(self.without_held(moves))

    def solver_moves(self, prune: bool = False) -> list[Move]:
        moves = super().solver_moves(prune)
        if len(moves) == 1:  # the guided order (and its filter) only runs on two or more
            moves = self.without_held(moves)
        return self.onto_fresh(moves)

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
        if (self.opts.get("reserve_refill") or not self.standard_foundations
                or not self._builds_down()
                or type(self).safe_autoplay is not PatienceGame.safe_autoplay):
            return None
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
        # per card: its column, CELL + place, or -1 when home; its height in a column
        where, at = card_places(cols)
        put = placer(cols, where, at)
        for j, c in enumerate(cells):
            if c >= 0:
                where[c] = CELL + j
        if prog == ALL_HOME:  # (every card is in a column, the reserve or home)
            return "won", [], 0, 1
        cb = [bytes(col) for col in cols]
        onto = self._onto_column
        held = self.held_column()
        held = tab.index(held) if held >= 0 else -1
        fresh = self.fresh_column()
        fresh = tab.index(fresh) if fresh >= 0 else -1
        col_range = range(n)

        ck = [bytes(sorted(c for c in cells if c >= 0))]  # the reserve's part of the key

        def key() -> bytes:
            k = b"\xff".join(sorted(cb)) + b"\xfe" + ck[0]
            return k if fresh < 0 else k + bytes((253, cols[fresh][-1]))

        def free_foundation() -> int:
            used = fpile
            for f in fnd:
                if f not in used:
                    return f
            return -1

        def depth_after(y: int, s: int) -> int:
            """How deep card ``y`` lies once the top card of ``s`` has gone home."""
            t = where[y]
            if t >= CELL:
                return 0
            return len(cols[t]) - 1 - at[y] - (t == s)

        def children() -> list[int]:
            """The moves of :meth:`solver_moves` in their order, or the safe move alone.
            A move is an int that sorts as the generic order does: the change of
            :meth:`PatienceSearch.solver_score` it makes (worked out from the move: one card
            moves, so only the depths of the wanted cards in the two piles it touches change,
            and the wanted card of its suit when it goes home or comes back), the kind
            (home, onto a column, into a space, back from a foundation), the source's place
            in the generic list, the host's place in ``onto``; the low bits hold the source
            (bits 4-8: a column, CELL + a reserve place or 20 + a suit) and the destination
            + 1 (bits 0-3, 0 for home)."""
            low = min(prog) + 1
            for s in col_range:
                col = cols[s]
                if col:
                    c = col[-1]
                    r = c % 13 + 1
                    if r == prog[c // 13] + 1 and (
                            r <= 2 or r <= low
                            or all(d % 13 < prog[d // 13] for d in need[c])):
                        return [s << 4]
            for j, c in enumerate(cells):
                if c >= 0:
                    r = c % 13 + 1
                    if r == prog[c // 13] + 1 and (
                            r <= 2 or r <= low
                            or all(d % 13 < prog[d // 13] for d in need[c])):
                        return [(CELL + j) << 4]
            top_of = {}
            space = -1
            for t in col_range:
                col = cols[t]
                if col:
                    top_of[col[-1]] = t
                elif space < 0:
                    space = t
            count = next_home_counts(prog, where, n)  # per column (n < CELL: not the reserve)
            out = []
            feeders = [c for c in cells if c >= 0] if prune else ()
            for s in col_range:
                col = cols[s]
                if not col or s == held:
                    continue
                c = col[-1]
                cs = count[s]
                if prog[c // 13] == c % 13:
                    score = -2 - cs + (depth_after(c + 1, s) if c % 13 < 12 else 0)
                    out.append((score + 128) << 21 | s << 14 | s << 4)
                    cs -= 1  # the wanted card leaving takes its depth along
                if prune and len(col) > 1:
                    u = col[-2]
                    if prog[u // 13] != u % 13 and not any(u in onto[x] for x in feeders):
                        continue  # moving this card achieves nothing now
                j = 0
                for t in onto[c]:
                    d = top_of.get(t)
                    if d is not None:
                        out.append((count[d] - cs + 128) << 21 | 1 << 19 | s << 14 | j << 9
                                   | s << 4 | d + 1)
                    j += 1
                if space >= 0 and len(col) > 1:
                    out.append((128 - cs) << 21 | 2 << 19 | s << 14 | s << 4 | space + 1)
            for i, c in enumerate(cells):
                if c < 0:
                    continue
                s = CELL + i
                if prog[c // 13] == c % 13:
                    score = -3 + (depth_after(c + 1, s) if c % 13 < 12 else 0)
                    out.append((score + 128) << 21 | s << 14 | s << 4)
                j = 0
                for t in onto[c]:
                    d = top_of.get(t)
                    if d is not None:
                        out.append((count[d] + 128) << 21 | 1 << 19 | s << 14 | j << 9
                                   | s << 4 | d + 1)
                    j += 1
                if space >= 0:
                    out.append(128 << 21 | 2 << 19 | s << 14 | s << 4 | space + 1)
            if not prune:
                for fi, f in enumerate(fnd):
                    if f in fpile:
                        su = fpile.index(f)
                        p = prog[su]
                        c = su * 13 + p - 1
                        s = 20 + su
                        base = 131  # a card off the foundations: three points
                        if p < 13:
                            w = c + 1
                            t = where[w]
                            if t < CELL:
                                base -= len(cols[t]) - 1 - at[w]
                        if space >= 0:
                            out.append(base << 21 | 2 << 19 | (20 + fi) << 14 | s << 4
                                       | space + 1)
                        j = 0
                        for t in onto[c]:
                            d = top_of.get(t)
                            if d is not None:
                                score = base + count[d] - (p < 13 and where[c + 1] == d)
                                out.append(score << 21 | 3 << 19 | (20 + fi) << 14 | j << 9
                                           | s << 4 | d + 1)
                            j += 1
            if len(out) > 1:
                out.sort()
            if fresh >= 0:  # a reserve card just played: only builds on it (onto_fresh)
                out = [m for m in out if (m & 15) - 1 == fresh]
            return out

        def make(s: int, d: int) -> int:
            """Make the move from ``s`` to ``d`` on the lists (not the key); the card."""
            if s < CELL:
                c = cols[s].pop()
            elif s < 20:
                c = cells[s - CELL]
                cells[s - CELL] = -1
            else:
                su = s - 20
                prog[su] -= 1
                c = su * 13 + prog[su]
            if d < 0:
                prog[c // 13] += 1
                where[c] = -1
            else:
                put(d, c)
            return c

        def unmake(s: int, d: int, c: int) -> None:
            if d < 0:
                prog[c // 13] -= 1
            else:
                cols[d].pop()
            if s < CELL:
                put(s, c)
            elif s < 20:
                cells[s - CELL] = c
                where[c] = s
            else:
                prog[s - 20] += 1
                where[c] = -1

        def touched(s: int, d: int) -> None:
            if s < CELL:
                cb[s] = bytes(cols[s])
            elif s < 20:
                ck[0] = bytes(sorted(c for c in cells if c >= 0))
            if d >= 0:
                cb[d] = bytes(cols[d])

        # per move made: source, destination, held, card, foundation, fresh (before it)
        path: list[tuple] = []

        def play(m: int) -> bool:
            nonlocal held, fresh
            s = m >> 4 & 31
            d = (m & 15) - 1
            f = -1
            c = make(s, d)
            if d < 0:
                f = fpile[c // 13]
                if f < 0:
                    f = fpile[c // 13] = free_foundation()
            elif s >= 20:
                f = fpile[c // 13]
                if c % 13 == 0:
                    fpile[c // 13] = -1
            path.append((s, d, held, c, f, fresh))
            held = d if s < CELL and d >= 0 and fresh < 0 else -1
            fresh = d if CELL <= s < 20 and d >= 0 else -1
            touched(s, d)
            return d < 0 and prog == ALL_HOME  # (only a card going home can win)

        def undo() -> None:
            nonlocal held, fresh
            s, d, held, c, f, fresh = path.pop()
            if c % 13 == 0:  # an ace's foundation is free again, or taken again
                fpile[c // 13] = -1 if d < 0 else f
            unmake(s, d, c)
            touched(s, d)

        result, nodes, positions = depth_first(children, play, undo, key, budget)
        return result, self._albert_line(path) if result == WON else [], nodes, positions

    def _albert_line(self, path: list[tuple]) -> list[Move]:
        """The engine's moves of a line of :meth:`solver_dfs` (each entry: the source, the
        destination, the held column, the card, the foundation it went to or came from)."""
        tab, cells = self.tableau, self.cells
        line = []
        for s, d, _, _, f, _ in path:
            src = tab[s] if s < 10 else cells[s - 10] if s < 20 else f
            line.append(Move("move", src, f if d < 0 else tab[d], 1))
        return line
