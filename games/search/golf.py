"""What the search knows of Golf (games/golf.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..cards import KING, RANK
from ..golf import Golf
from ..model import DEAL, Move
from . import searches
from .base import Search

#: the discard pile's top card as the last byte of the key: its rank (0: no card)
RANK_BYTE = {c: bytes((RANK[c],)) for c in range(52)} | {-1: b"\0"}


@searches(Golf)
class GolfSearch(Search):
    """What the search knows of Golf."""

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
        of each pile's bottom ``n`` cards are kept, packed four bits a rank in one integer;
        equal counts give equal verdicts, which are remembered. A won position has no column
        card left, so no test fires on it.
        """
        cards = self.cards
        tables = self._golf_tables
        if tables is None:  # built from the first position asked about: the search's root
            tables = self._golf_tables = self._build_tables()
        masks, needs, verdicts = tables
        sized = self._sized
        tab = 0
        for i in range(1, len(sized)):
            tab += masks[i][len(cards[sized[i]])]
        starts = masks[0][len(cards[sized[0]])]
        w = cards[self.waste]
        if w:
            starts += 1 << 4 * RANK[w[-1]]
        if self._king_ends:
            starts &= ~(15 << 4 * KING)
        k = (tab, starts)
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
                prefix.append(prefix[-1] + (1 << 4 * RANK[c]))
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

    def _ranks_hopeless(self, tab_bits: int, start_bits: int) -> bool | list[int]:
        """True when the rank counts alone show a dead end, else the supply of cards that
        may come just before another, by rank.

        A chain stays within a run of ranks that all still have column cards (a
        "component"), next to its start. For each component: with kings ending chains, a
        king there needs a chain of its own; ranks alternate odd and even along a chain, so
        a chain from an even start holds at most one odd card more than even ones, and the
        other way round. Every column card needs a card one rank away played just before it
        (a column card, but not a king when kings end chains, or a chain start), and such a
        card comes before one card only: Hall's condition on every run r, r+2, ..., q of
        ranks of one parity.
        """
        king_ends = self._king_ends
        tab = [(tab_bits >> 4 * k) & 15 for k in range(15)]
        starts = [(start_bits >> 4 * k) & 15 for k in range(15)]
        r = 1
        while r <= KING:
            if not tab[r]:
                r += 1
                continue
            lo = r
            odd = even = 0
            while r <= KING and tab[r]:
                if r & 1:
                    odd += tab[r]
                else:
                    even += tab[r]
                r += 1
            hi = r - 1
            near = range(lo - 1, hi + 2)
            live = sum(starts[k] for k in near)
            odd_live = sum(starts[k] for k in near if k & 1)
            if live == 0 or (king_ends and hi == KING and tab[KING] > live):
                return True
            if odd - even > live - odd_live or even - odd > odd_live:
                return True
        supply = [tab[k] + starts[k] for k in range(15)]
        if king_ends:
            supply[KING] = starts[KING]
        for first in (1, 2):
            for lo in range(first, KING + 1, 2):
                need = 0
                have = supply[lo - 1]
                for hi in range(lo, KING + 1, 2):
                    need += tab[hi]
                    have += supply[hi + 1]
                    if need > have:
                        return True
        return supply
