"""What the search knows of Pyramid (games/pyramid.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import KING, RANK
from ..engine.model import Compound, Move
from ..families.grid import triangle_covers
from ..families.pairing import partner_pairs
from ..pyramid import DEAL, PASSES, REDEAL, ROWS, Pyramid
from . import searches
from .base import Search
from .rules import PyramidRules

#: card code -> rank, for ``bytes.translate`` in the solver's key
_RANK_BYTES = bytes(RANK[c] if c < len(RANK) else 0 for c in range(256))


def _cones(cover: list[tuple[int, ...]]) -> tuple[frozenset[int], ...]:
    """For each place of the pyramid, every place that must be cleared before it is
    uncovered: two cards in one cone can never be removed together."""
    cones = []
    for i in range(len(cover)):
        seen: set[int] = set()
        todo = list(cover[i])
        while todo:
            j = todo.pop()
            if j not in seen:
                seen.add(j)
                todo.extend(cover[j])
        cones.append(frozenset(seen))
    return tuple(cones)


#: the cone of every place (reading order, apex first)
CONES = _cones(triangle_covers(ROWS))

#: answers of :func:`_pairs_off` and :func:`_matches` by the places involved (the pyramid's
#: shape is fixed, so they hold for every deal)
_PAIRINGS: dict[tuple[tuple[int, ...], tuple[int, ...] | None], bool] = {}


def _pairs_off(places: list[int], apart) -> bool:
    """Whether ``places`` split into pairs of places that are ``apart``."""
    if not places:
        return True
    if len(places) % 2:
        return False
    first, rest = places[0], places[1:]
    return any(apart(first, other) and _pairs_off(rest[:k] + rest[k + 1:], apart)
               for k, other in enumerate(rest))


def _matches(left: list[int], right: list[int], apart) -> bool:
    """Whether every place of ``left`` pairs with its own place of ``right`` (``apart``)."""
    if len(left) != len(right):
        return False
    if not left:
        return True
    first, rest = left[0], left[1:]
    return any(apart(first, other) and _matches(rest, right[:k] + right[k + 1:], apart)
               for k, other in enumerate(right))


@searches(Pyramid)
class PyramidSearch(Search, PyramidRules):
    """What the search knows of Pyramid."""

    #: a place in the pyramid holds the card dealt there or nothing
    @property
    def SOLVER_VIEW(self) -> dict[str, str]:  # type: ignore[override]  # noqa: N802 (the hook's name; it depends on the options, where
    # the default is a class constant: the solver reads it on the instance)
        if self.pair_pile:  # the pair pile's top card can still be played
            return {"tableau": "count", "discard": "all"}
        return {"tableau": "count"}

    def start_search(self) -> None:
        self.__dict__.pop("_seen_pass", None)  # each search keeps its own (see _dominated)

    # ------------------------------------------------------------------ for the solver
    def solver_autoplay(self) -> Move | None:
        """Removals that can never hurt: a king on its own, and a pair whose two cards are
        the last ones left of their ranks (they can only ever pair with each other). Not
        with a pair pile, where what lies on top of it matters."""
        if self.pair_pile or (self.vars["cleared"] and not self.scored):
            return None
        cards = self.cards
        avail = self.available()
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for p in avail:
            by_rank[RANK[cards[p][-1]]].append(p)
        if self.SINGLE_KINGS and by_rank[KING]:
            return Move("remove", by_rank[KING][0])
        left = [0] * 14
        for p in (self.stock, self.current, self.waste, *self.pyr):
            for c in cards[p]:
                left[RANK[c]] += 1
        for r in range(1, 14):
            q = self.PARTNER[r]
            if not q or q < r or not by_rank[r]:
                continue
            if q == r:
                if left[r] == 2 and len(by_rank[r]) == 2:
                    a, b = sorted(by_rank[r])
                    return Move("remove", a, b)
            elif left[r] == 1 and left[q] == 1 and by_rank[q]:
                a, b = sorted((by_rank[r][0], by_rank[q][0]))
                return Move("remove", a, b)
        return None

    def solver_hopeless(self) -> bool:
        """The cards of each rank still in play must pair off with their partners, two at a
        time, and a pyramid card never pairs with one lying on it (directly or further
        down): that one goes first. If no such pairing exists, the game is lost. Stock and
        waste cards pair with anything (an optimistic view); the apex is free while the
        apex rescue may still be used."""
        if self.pair_pile:
            return False
        if not self.scored and self._dominated():
            return True
        cards, pyr = self.cards, self.pyr
        where: list[list[int]] = [[] for _ in range(14)]  # per rank: places, -1 off the pyramid
        for p in (self.stock, self.current, self.waste):
            for c in cards[p]:
                where[RANK[c]].append(-1)
        for i, p in enumerate(pyr):
            if cards[p]:
                where[RANK[cards[p][-1]]].append(i)
        if self.rescue and not self.vars["rescued"]:
            where = [[-1 if j == 0 else j for j in w] for w in where]
        cones = CONES

        def apart(i: int, j: int) -> bool:
            return i < 0 or j < 0 or (i not in cones[j] and j not in cones[i])

        known = _PAIRINGS  # the same places give the same answer in every deal: remember it
        for r in range(1, 14):
            q = self.PARTNER[r]
            if not q or q < r or not where[r]:
                continue
            mine = tuple(sorted(where[r]))
            theirs = None if q == r else tuple(sorted(where[q]))
            ok = known.get((mine, theirs))
            if ok is None:
                ok = (_pairs_off(list(mine), apart) if theirs is None
                      else _matches(list(mine), list(theirs), apart))
                if len(known) < 1_000_000:
                    known[mine, theirs] = ok
            if not ok:
                return True
        return False

    def solver_key(self) -> bytes:
        """The generic key, with three merges that keep equal keys meaning equal futures.

        Suits never matter (pairs and kings go by rank, the goal is the pyramid's places), so
        talon cards are named by rank: taking one of two equal ranks lying next to each other
        in the talon leaves the same game whichever was taken. A pyramid place shows only
        whether it still holds its dealt card (face-down flags follow from that). With a pair
        pile only its top card can play again (it only ever grows). And once the talon is
        empty, the pass number no longer changes a legal move; once the apex is gone, neither
        does whether the rescue was used. The rescued apex, while it waits in the talon for
        its partner, is the one talon card the win needs: its place in the talon is kept
        (0 when no apex waits; the talon's cards named by rank cannot tell it from a card of
        the same rank)."""
        cards, ranks = self.cards, _RANK_BYTES
        mask = 0
        for bit, p in enumerate(self.pyr):
            if cards[p]:
                mask |= 1 << bit
        s, c, w = cards[self.stock], cards[self.current], cards[self.waste]
        v = self.vars
        apex = v["apex"]
        waiting = 1 + (s + c + w).index(apex) if apex >= 0 else 0
        head = [mask & 0xFF, mask >> 8 & 0xFF, mask >> 16 & 0xFF, mask >> 24,
                len(s), len(c), v["pass"] if s or c or w else 0, v["cleared"], waiting]
        if self.pair_pile:
            d = cards[self.discard]
            head.append(RANK[d[-1]] if d else 0)
        return bytes(head) + bytes(s).translate(ranks) + bytes(c).translate(ranks) \
            + bytes(w).translate(ranks)

    def solver_moves(self, prune: bool = False) -> Sequence[Move | Compound]:
        """The moves, with the talon searched as compound moves ("deal k times, then play the
        new current card"), as in Klondike (docs/solver.md). Why this loses no win: a deal
        touches only the talon and a move of pyramid cards only the pyramid, and neither
        changes whether the other is legal, so in a winning line every deal can be put off
        until just before the next move that uses a talon card (or turns the waste over, or
        takes the apex): a line of such compounds and pyramid moves wins as well. And after
        k >= 1 deals the waste card is the one that was current one deal earlier (or, with no
        current card then, the same waste card): playing it with a pyramid card is the same
        as playing it one deal earlier and then dealing (the two lead to one position), so
        after a deal only the new current card is played: with a pyramid card, with the waste
        card under it, or alone as a king. With a pair pile or in a scored match (where a win
        needs every pass played) the plain moves are searched."""
        if self.pair_pile or self.scored:
            return super().solver_moves(prune)
        if self.vars["cleared"]:
            return []
        cards, partner = self.cards, self.PARTNER
        kings = self.SINGLE_KINGS
        cp, wp = self.current, self.waste
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for p, cov in zip(self.pyr, self.cover, strict=True):
            if cards[p] and not (cov and (cards[cov[0]] or cards[cov[1]])):
                by_rank[RANK[cards[p][-1]]].append(p)
        moves: list = partner_pairs(by_rank, partner, kings)  # pyramid moves
        # the current and the waste card as they are (C < W < every pyramid place)
        c0 = cards[cp][-1] if cards[cp] else None
        w0 = cards[wp][-1] if cards[wp] else None
        for pile, card in ((cp, c0), (wp, w0)):
            if card is None:
                continue
            r = RANK[card]
            if kings and r == KING:
                moves.append(Move("remove", pile))
            q = partner[r]
            if q:
                moves += [Move("remove", pile, p) for p in by_rank[q]]
        if c0 is not None and w0 is not None and partner[RANK[c0]] == RANK[w0]:
            moves.append(Move("remove", cp, wp))
        # deal k times, then play the new current card
        stock = cards[self.stock]
        prev = c0 if c0 is not None else w0  # the waste card after the next deal
        turns: tuple[Move, ...] = ()
        for k in range(1, len(stock) + 1):
            turns += (DEAL,)
            card = stock[-k]
            r = RANK[card]
            if kings and r == KING:
                moves.append(Compound((*turns, Move("remove", cp))))
            q = partner[r]
            if q:
                moves += [Compound((*turns, Move("remove", cp, p))) for p in by_rank[q]]
                if prev is not None and RANK[prev] == q:
                    moves.append(Compound((*turns, Move("remove", cp, wp))))
            prev = card
        # deal to the end, then turn the waste over or take the apex
        size = len(stock) + (c0 is not None) + len(cards[wp])
        rescue = self.rescue and not self.vars["rescued"] and bool(cards[self.pyr[0]])
        left = PASSES - self.vars["pass"]
        if left > 0 and size:
            moves.append(Compound((*turns, REDEAL)))
            if rescue:  # the passes left played through, then the apex (see _dominated)
                moves.append(Compound((*turns, *((REDEAL,) + (DEAL,) * size) * left,
                                       Move("rescue", self.pyr[0]))))
        elif rescue:
            moves.append(Compound((*turns, Move("rescue", self.pyr[0]))))
        return moves

    def _dominated(self) -> bool:
        """Whether this search has already met this very position with fewer passes used.

        Why that loses no win: the position with more passes left can play every line of the
        other move for move (a pass more changes nothing but that a redeal stays possible and
        that the apex rescue needs the passes left played through first: the compound "play
        the passes left through, then take the apex" stands for the other's rescue). So its
        shortest winning line, counted in searched moves, is no longer, and the usual argument
        for cutting positions dominated by one found earlier holds (among the winnable
        positions the search met and never won from, take one with the shortest winning
        line, and of those the first met: if it was cut, the one that cut it comes first
        with a line no longer; if it was searched, its next position on that line was met
        with a shorter line). Every search makes a clone, and the clone starts a new table.
        Only with the compound moves of :meth:`solver_moves` (no pair pile, no scored match)."""
        key = self.solver_key()
        core = key[:6] + key[7:]
        seen: dict[bytes, int] | None = self.__dict__.get("_seen_pass")
        if seen is None:
            seen = {}
            self._seen_pass = seen
        p = self.vars["pass"]
        best = seen.get(core)
        if best is not None and best < p:
            return True
        if best is None or p < best:
            seen[core] = p
        return False
