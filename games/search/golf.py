"""What the search knows of Golf (games/golf.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from typing import Literal

from ..engine.cards import KING, RANK
from ..engine.model import DEAL, Move
from ..golf import Golf
from . import searches
from .base import Search
from .rules import GolfRules

#: the discard pile's top card as the last byte of the key: its rank (0: no card)
RANK_BYTE = {c: bytes((RANK[c],)) for c in range(52)} | {-1: b"\0"}
#: a packed count (a byte a rank) with the kings' byte cleared
KING_OFF = ~(255 << 8 * KING)


@searches(Golf)
class GolfSearch(Search, GolfRules):
    """What the search knows of Golf."""

    #: the dead-end test's tables, built from the search's root (see :meth:`solver_hopeless`)
    _golf_tables: tuple[list[list[int]], list[list[tuple[int, int, int]]], dict] | None

    def solver_dfs(self, prune: bool, budget) -> tuple | None:
        """Golf's own depth-first search (see :meth:`Search.solver_dfs`): the solver's search,
        node for node (the moves of :meth:`solver_moves` in their order, the positions of
        :meth:`solver_key`, the test of :meth:`solver_hopeless`), on a few integers instead
        of the engine's piles, so a node costs no journal, no key bytes and no table walk.

        The position is the key: each column's height in a field of ``F`` bits (the lowest
        ones), then the stock's size, then the discard pile's top rank. The dead-end test's
        verdict for the rank counts (which :meth:`solver_hopeless` remembers) becomes one
        number ``C`` per count: the blocked-card test says "hopeless" exactly when some
        column still holds its lowest blocked card, that is when ``(key + C) & G`` is not 0
        (``G``: the top bit of every column's field); a dead end by the counts alone has
        ``C = G``.
        """
        cards, tableau = self.cards, self.tableau
        n = len(tableau)
        cols = [[RANK[c] for c in cards[t]] for t in tableau]
        stock = [RANK[c] for c in cards[self.stock]]
        w0 = cards[self.waste]
        height = max(map(len, cols), default=0)
        F = height.bit_length() + 1
        half = 1 << (F - 1)
        G = sum(half << F * i for i in range(n))
        SSH = F * n
        WSH = SSH + max(len(stock).bit_length(), 1)
        top = [[0] + col for col in cols]  # top[i][h]: the rank on top of column i at height h
        fitmask = [sum(1 << r for r in f) for f in self.fits]
        stuck_only = self.opts["turn_only_when_stuck"]
        self._golf_tables = None
        if self.solver_hopeless():
            return "lost", [], 0, 1
        masks, needs, _ = self._tables()
        king_ends = self._king_ends
        # starts[s][w]: packed counts of the stock's s cards and a discard top of rank w
        starts = []
        for s in range(len(stock) + 1):
            row = []
            for w in range(14):
                b = masks[0][s] + (1 << 8 * w if w else 0)
                row.append(b & KING_OFF if king_ends else b)
            starts.append(row)
        verdicts: dict[int, int] = {}  # packed counts (columns << 128 | starts): C
        by_supply: dict[bytes, int] = {}  # the supply of :meth:`_ranks_hopeless`: C
        ranks_hopeless = self._ranks_hopeless

        def blocked(tab: int, st: int) -> int:
            v = ranks_hopeless(tab, st)
            if v is True:
                return G
            c = by_supply.get(v)
            if c is None:
                c = 0
                for i, need in enumerate(needs):
                    lim = half - 1
                    for j, (a, b, under) in enumerate(need):
                        if v[a] + v[b] <= under:
                            lim = j
                            break
                    c += (half - 1 - lim) << F * i
                by_supply[v] = c
            return c

        h = [len(col) for col in cols]
        left = sum(h)
        w = RANK[w0[-1]] if w0 else 0
        s0 = len(stock)
        key = sum(x << F * i for i, x in enumerate(h)) + (s0 << SSH) + (w << WSH)
        tab = sum(masks[i + 1][x] for i, x in enumerate(h))
        seen = {key}
        plays = [self._plays[t] for t in tableau]
        path: list[Move] = []
        nodes = 0
        spent = False
        colrange = range(n)
        hget = h.__getitem__
        one_s = 1 << SSH

        def arrive(k: int) -> bool:
            """Store the position ``k`` reached by the node just counted; True if it is new.
            The budget is charged here, where the generic search charges it (after the
            position is stored), so a search stopped by it has stored as many."""
            nonlocal spent
            fresh = k not in seen
            if fresh:
                seen.add(k)
            if not nodes & 255 and budget.take(256):
                spent = True
            return fresh

        def dfs(key: int, tab: int, s: int, w: int, left: int) -> bool:
            nonlocal nodes, spent
            fm = fitmask[w]
            movable = [i for i in colrange if fm >> top[i][h[i]] & 1]
            if len(movable) > 1:
                movable.sort(key=hget, reverse=True)
            for i in movable:
                hi = h[i]
                r = top[i][hi]
                nodes += 1
                if left == 1:
                    path.append(plays[i])
                    return True
                k = key - (1 << F * i) + ((r - w) << WSH)
                fresh = arrive(k)
                if spent:
                    return False
                if not fresh:
                    continue
                t = tab - (1 << 8 * r)
                vk = t << 128 | starts[s][r]
                c = verdicts.get(vk)
                if c is None:
                    c = verdicts[vk] = blocked(t, starts[s][r])
                if (k + c) & G:
                    continue
                h[i] = hi - 1
                path.append(plays[i])
                if dfs(k, t, s, r, left - 1):
                    return True
                h[i] = hi
                path.pop()
                if spent:
                    return False
            if s and not (movable and stuck_only):
                r = stock[s - 1]
                nodes += 1
                k = key - one_s + ((r - w) << WSH)
                if not arrive(k) or spent:
                    return False
                st = starts[s - 1][r]
                vk = tab << 128 | st
                c = verdicts.get(vk)
                if c is None:
                    c = verdicts[vk] = blocked(tab, st)
                if (k + c) & G:
                    return False
                path.append(DEAL)
                if dfs(k, tab, s - 1, r, left):
                    return True
                path.pop()
            return False

        if dfs(key, tab, s0, w, left):
            return "won", path, nodes, len(seen)
        if spent:
            return "unknown", [], nodes, len(seen)
        budget.take(nodes & 255)
        return "lost", [], nodes, len(seen)

    def start_search(self) -> None:
        super().start_search()
        self._sized = (self.stock, *self.tableau)
        self._golf_tables = None
        self._plays = {t: Move("move", t, self.waste) for t in self.tableau}

    # ------------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """Columns and stock only lose cards from the top, so their sizes say what is left;
        of the discard pile only the rank of the top card matters."""
        cards = self.cards
        w = cards[self.waste]
        return bytes(map(len, map(cards.__getitem__, self._sized))) + RANK_BYTE[w[-1] if w else -1]

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Column cards before a new stock card, the tallest column first: the moves of
        :meth:`Golf.legal_moves`, made without it (one Move object per column, kept)."""
        cards = self.cards
        w = cards[self.waste]
        fits = self.fits[RANK[w[-1]] if w else 0]
        cols = [t for t in self.tableau if cards[t] and RANK[cards[t][-1]] in fits]
        if len(cols) > 1:
            cols.sort(key=lambda t: -len(cards[t]))
        plays = self._plays
        moves = [plays[t] for t in cols]
        if cards[self.stock] and not (moves and self.opts["turn_only_when_stuck"]):
            moves.append(DEAL)
        return moves

    def solver_hopeless(self) -> bool:
        """Counting arguments on the column cards still to play (a sound dead-end test).

        Between two stock cards the player plays a chain of column cards, each one rank from
        the last; a chain starts at the discard pile's top card now or at a stock card. By
        default nothing goes on a king, so a king ends its chain and never starts one; with
        ``queen_on_king`` a king is a rank like any other (its one neighbour is the queen).
        Ranks never wrap. The rank counts decide the first tests (:meth:`_ranks_hopeless`);
        then no column card may have all the cards that could come just before it lying
        under it in its own column (played after it, never before).

        Columns and stock only lose cards from the top during a search, so the rank counts
        of each pile's bottom ``n`` cards are kept, packed a byte a rank in one integer;
        equal counts give equal verdicts, which are remembered. A won position has no column
        card left, so no test fires on it.
        """
        cards = self.cards
        masks, needs, verdicts = self._tables()
        sized = self._sized
        tab = 0
        for i in range(1, len(sized)):
            tab += masks[i][len(cards[sized[i]])]
        starts = masks[0][len(cards[sized[0]])]
        w = cards[self.waste]
        if w:
            starts += 1 << 8 * RANK[w[-1]]
        if self._king_ends:
            starts &= KING_OFF
        k = tab << 128 | starts
        verdict = verdicts.get(k)
        if verdict is None:
            verdict = verdicts[k] = self._ranks_hopeless(tab, starts)
        if verdict is True:
            return True
        supply = verdict
        for i in range(1, len(sized)):
            for a, b, under in needs[i - 1][:len(cards[sized[i]])]:
                if supply[a] + supply[b] <= under:
                    return True
        return False

    def _tables(self) -> tuple[list[list[int]], list[list[tuple[int, int, int]]], dict]:
        tables = self._golf_tables
        if tables is None:  # built from the first position asked about: the search's root
            tables = self._golf_tables = self._build_tables()
        return tables

    def _build_tables(self) -> tuple[list[list[int]], list[list[tuple[int, int, int]]], dict]:
        """Per pile of :attr:`_sized`, the packed rank counts of its bottom n cards (one more
        entry than it has cards); per column, for each card, the two ranks next to it and how
        many cards of those ranks (that may come before another card) lie under it."""
        cards = self.cards
        self._king_ends = not self.opts["queen_on_king"]
        masks = []
        for p in self._sized:
            prefix = [0]
            for c in cards[p]:
                prefix.append(prefix[-1] + (1 << 8 * RANK[c]))
            masks.append(prefix)
        needs = []
        for p in self.tableau:
            below = [0] * 15
            col = []
            for c in cards[p]:
                r = RANK[c]
                col.append((r - 1, r + 1, below[r - 1] + below[r + 1]))
                if not (self._king_ends and r == KING):
                    below[r] += 1
            needs.append(col)
        return masks, needs, {}

    def _ranks_hopeless(self, tab_bits: int, start_bits: int) -> Literal[True] | bytes:
        """True when the rank counts alone show a dead end, else the supply of cards that
        may come just before another, by rank (a byte a rank).

        ``tab_bits`` and ``start_bits`` are the counts of the column cards and of the
        possible chain starts (stock cards and the discard pile's top), a byte a rank.
        A chain stays within a run of ranks that all still have column cards (a
        "component"), next to its start. For each component: with kings ending chains, a
        king there needs a chain of its own; ranks alternate odd and even along a chain, so
        a chain from an even start holds at most one odd card more than even ones, and the
        other way round. Every column card needs a card one rank away played just before it
        (a column card, but not a king when kings end chains, or a chain start), and such a
        card comes before one card only: Hall's condition on every run r, r+2, ..., q of
        ranks of one parity (the runs from r are checked at once: the most that any of them
        needs beyond what it has, summed from the top down).
        """
        king_ends = self._king_ends
        tab = tab_bits.to_bytes(16, "little")
        starts = start_bits.to_bytes(16, "little")
        r = 1
        while r <= KING:
            if not tab[r]:
                r += 1
                continue
            lo = r
            end = tab.find(0, lo)  # tab[14] is 0: every run ends by then
            live = sum(starts[lo - 1:end + 1])
            if live == 0:
                return True
            if king_ends and end == KING + 1 and tab[KING] > live:
                return True
            odd = sum(tab[lo | 1:end:2])  # the odd ranks lo..end-1
            even = sum(tab[lo:end]) - odd
            odd_live = sum(starts[lo - 1 | 1:end + 1:2])
            if odd - even > live - odd_live or even - odd > odd_live:
                return True
            r = end + 1
        supply_bits = tab_bits + start_bits
        if king_ends:
            supply_bits &= KING_OFF
        supply = supply_bits.to_bytes(16, "little")
        for top in (KING, KING - 1):
            most = 0  # the largest need minus have (without the card below lo) of a run from lo
            for lo in range(top, 0, -2):
                most = tab[lo] - supply[lo + 1] + (most if most > 0 else 0)
                if most > supply[lo - 1]:
                    return True
        return supply
