"""What the search knows of every building game (games/patience.py): the pruned move list,
the move order guided by how deep the next foundation cards lie, the generalised safe move
and the frozen-card dead-end test that Klondike, Canfield and La Belle Lucie opt into.
"""

from __future__ import annotations

from ..engine.cards import RANK, SUIT
from ..engine.model import Compound, Move
from ..families.patience import Build, PatienceGame
from . import searches
from .base import Search
from .rules import PatienceGameRules

_NEEDS_CACHE: dict[tuple[frozenset[Build], bool], tuple[tuple[int, ...], ...]] = {}


def _needs_for(builds: frozenset[Build], back: bool) -> tuple[tuple[int, ...], ...]:
    """Per card of one deck, the cards that could be built on it under ``builds`` (and, if
    foundation cards can come ``back``, on those, and so on)."""
    key = (builds, back)
    table = _NEEDS_CACHE.get(key)
    if table is None:
        hosts = [[d for d in range(52) if any(b.fits(d, c) for b in builds)]
                 for c in range(52)]
        out = []
        for c in range(52):
            found = set(hosts[c])
            todo = list(found) if back else []
            while todo:
                for d in hosts[todo.pop()]:
                    if d not in found:
                        found.add(d)
                        todo.append(d)
            found.discard(c)
            out.append(tuple(sorted(found)))
        table = _NEEDS_CACHE[key] = tuple(out)
    return table


_PARENTS_CACHE: dict[frozenset[Build], tuple[tuple[int, ...], ...]] = {}


def _parents_for(builds: frozenset[Build]) -> tuple[tuple[int, ...], ...]:
    """Per card of one deck, the cards it may be built on under ``builds``."""
    table = _PARENTS_CACHE.get(builds)
    if table is None:
        table = tuple(tuple(t for t in range(52) if any(b.fits(c, t) for b in builds))
                      for c in range(52))
        _PARENTS_CACHE[builds] = table
    return table


_LOWERS_CACHE: dict[int, tuple[tuple[int, ...], ...]] = {}


def _lowers_for(base: int) -> tuple[tuple[int, ...], ...]:
    """Per card of one deck, the cards of its suit that reach a foundation built up in suit
    from rank ``base`` (turning the corner from king to ace) before it."""
    table = _LOWERS_CACHE.get(base)
    if table is None:
        def index(c: int) -> int:
            return (RANK[c] - base) % 13
        table = tuple(tuple(d for d in range(52) if SUIT[d] == SUIT[c] and index(d) < index(c))
                      for c in range(52))
        _LOWERS_CACHE[base] = table
    return table


@searches(PatienceGame)
class PatienceSearch(Search, PatienceGameRules):
    """The solver hooks shared by every PatienceGame."""

    SOLVER_PRUNES = True

    def solver_autoplay(self) -> Move | Compound | None:
        """For the search: :meth:`safe_autoplay`, or any card to a foundation when every
        card that could ever be built on it off the foundations is home already.

        Such a card can only ever carry cards that are home (if foundation cards can come
        back, the closure: everything that could be built on those too), so playing it
        home loses nothing. One-deck games whose foundations are each built in one suit (a
        card has one way home) and whose ``accepts`` follows the builds only; the others
        keep :meth:`safe_autoplay`.
        """
        need = self._home_needs_table()
        if not need:
            return self.safe_autoplay()
        generic = (self.standard_foundations and self._builds_down()
                   and type(self).safe_autoplay is PatienceGame.safe_autoplay)
        cards, down, role = self.cards, self.down, self._role
        home = {c for f in self.foundations for c in cards[f]}
        if generic:
            progress = [0, 0, 0, 0]
            for f in self.foundations:
                if cards[f]:
                    t = cards[f][-1]
                    progress[SUIT[t]] = RANK[t]
            low = min(progress) + 1
        for s in self._sources:
            pile = cards[s]
            if not pile or role[s] == "foundation" or down[s] == len(pile):
                continue
            c = pile[-1]
            if generic:
                r = RANK[c]
                if r != progress[SUIT[c]] + 1:
                    continue
                if not (r <= 2 or r <= low or all(d in home for d in need[c])):
                    continue
            elif not all(d in home for d in need[c]):
                continue
            for f in self.foundations:
                if self.accepts(f, s, 1):
                    return Move("move", s, f, 1)
        return None if generic else self.safe_autoplay()

    def column_build(self) -> Build:
        """The building rule of the columns, for searches that read it once for all of them
        (their games build every column alike)."""
        build = self.rule[self.tableau[0]].build
        if build is None:
            raise TypeError(f"{self.info.id}: its columns have no building rule to search by")
        return build

    @property
    def fits_on(self) -> tuple[tuple[int, ...], ...]:
        """Per card, the cards that may be built on it in a column (worked out once per
        position the search starts from, then read from the instance)."""
        table = self.__dict__.get("_fits_table")
        if table is None:
            build = self.column_build()
            table = self._fits_table = tuple(
                tuple(c for c in range(52) if build.fits(c, t)) for t in range(52))
        return table

    def thumb_home(self, home: list[int]) -> int:
        """The first column whose top card the old rule of thumb sends home at once (an ace,
        a two, or a card at most one above the lowest foundation), given how many cards of
        each suit are ``home`` (foundations built up in suit from the ace); -1 for none."""
        cards = self.cards
        low = min(home) + 1
        for s in self.tableau:
            pile = cards[s]
            if pile:
                c = pile[-1]
                r = RANK[c]
                if r == home[SUIT[c]] + 1 and (r <= 2 or r <= low):
                    return s
        return -1

    def _home_needs_table(self) -> tuple[tuple[int, ...], ...]:
        """Per card, the cards that must be home before it may go home (see above); worked
        out once per game object, then read from the instance."""
        cached = self.__dict__.get("_home_needs")
        if cached is not None:
            return cached
        # one deck, and foundations each built in one suit: a card has one place to go home
        ok = (len(self.foundations) == 4 and self.info.decks == 1
              and all((b := self.rule[f].build) is not None and b.suit == "same"
                      for f in self.foundations)
              and (self.ACCEPTS_BY_BUILD if self.ACCEPTS_BY_BUILD is not None
                   else type(self).accepts is PatienceGame.accepts))
        table: tuple[tuple[int, ...], ...] = ()
        if ok:
            builds = frozenset(b for d in self._targets
                               if (b := self.rule[d].build) is not None
                               and self._role[d] != "foundation")
            back = any(self.rule[f].take != "none" for f in self.foundations)
            table = _needs_for(builds, back)
        self._home_needs = table
        return table

    def stuck_card(self, piles: list[int] | tuple[int, ...], kings_free: bool = True) -> bool:
        """For :meth:`solver_hopeless`: whether some card in ``piles`` can never leave its
        pile, so the game cannot be won (every card must reach a foundation in the end).

        A card leaves its pile as the bottom card of what is lifted: home (once every lower
        card of its suit is home), onto a card it may be built on, or (a king, when
        ``kings_free``) into a space; or carried by the card under it when it lies in a
        run on that card. A card is *frozen* when each of these ways is barred for ever:
        the lower card of its suit is under it or frozen, each card it could go on is under
        it or buried under a frozen card, and the card it runs on is frozen. A card under
        a frozen card is frozen too. The frozen set grows until nothing changes. Cards
        elsewhere (stock, cells, foundations) count as free. Sound only where the order of
        ``piles`` changes by moves alone (no shuffled redeal, no draw from the middle) and
        the foundations are built up in suit (from the ace, or from ``vars["base"]`` turning
        the corner); games opt in with the piles to check.
        """
        parents = self.__dict__.get("_parents")
        if parents is None:
            builds = frozenset(b for d in self._targets
                               if (b := self.rule[d].build) is not None
                               and self._role[d] != "foundation")
            parents = self._parents = _parents_for(builds)
        cards, down, rule = self.cards, self.down, self.rule
        base = self.vars.get("base", 1)
        if not self._stuck_seed(piles, kings_free, parents, base):
            return False
        lowers = _lowers_for(base)
        where: dict[int, tuple[int, int]] = {}
        for p in piles:
            for i, x in enumerate(cards[p]):
                where[x] = (p, i)
        frozen = dict.fromkeys(piles, 0)  # per pile: how many bottom cards are frozen
        seq: dict[int, bool] = {}
        for p in piles:
            lift = rule[p].lift or rule[p].build
            if rule[p].take in ("run", "full_run", "any_up") and lift is not None:
                pile = cards[p]
                for i in range(max(down[p], 1), len(pile)):
                    if lift.fits(pile[i], pile[i - 1]):
                        seq[pile[i]] = True
        changed = True
        while changed:
            changed = False
            for p in piles:
                pile = cards[p]
                for i in range(len(pile) - 1, frozen[p] - 1, -1):
                    x = pile[i]
                    r = RANK[x]
                    if (kings_free and r == 13) or (seq.get(x) and i - 1 >= frozen[p]):
                        continue
                    home = True
                    for low in lowers[x]:  # the cards of its suit that go home before it
                        at = where.get(low)
                        if at is not None and ((at[0] == p and at[1] < i)
                                               or at[1] < frozen[at[0]]):
                            home = False
                            break
                    if home:
                        continue
                    for q in parents[x]:
                        at = where.get(q)
                        if at is None or not ((at[0] == p and at[1] < i)
                                              or at[1] < frozen[at[0]] - 1):
                            break
                    else:
                        frozen[p] = i + 1
                        changed = True
                        break
        return any(frozen.values())

    def _stuck_seed(self, piles, kings_free: bool, parents, base: int) -> bool:
        """A quick necessary condition for :meth:`stuck_card` (which runs at every node):
        the first card to freeze has a lower card of its suit and every card it could go on
        under it in its own pile, and does not lie in a run on the card under it. Without
        such a card nothing freezes, and the full fixpoint need not run."""
        cards, down, rule = self.cards, self.down, self.rule
        for p in piles:
            pile = cards[p]
            if len(pile) < 2:
                continue
            lift = rule[p].lift or rule[p].build
            runs = rule[p].take in ("run", "full_run", "any_up") and lift is not None
            below: set[int] = {pile[0]}
            low = [13, 13, 13, 13]  # per suit: the lowest index from the base seen below
            first = pile[0]
            low[SUIT[first]] = (RANK[first] - base) % 13
            for i in range(1, len(pile)):
                x = pile[i]
                if not (kings_free and RANK[x] == 13) and low[SUIT[x]] < (RANK[x] - base) % 13 \
                        and all(q in below for q in parents[x]) \
                        and not (runs and i >= down[p] and i >= 1 and lift.fits(x, pile[i - 1])):
                    return True
                below.add(x)
                r = (RANK[x] - base) % 13
                if r < low[SUIT[x]]:
                    low[SUIT[x]] = r
        return False

    # ------------------------------------------------------------ for the solver
    def solver_moves(self, prune: bool = False) -> list[Move]:
        """With ``prune``, a card move between tableau piles must achieve something now:
        turn up a hidden card, empty its pile, or free a card for a foundation or for the
        waste/reserve card to land on. Foundation cards are not brought back."""
        moves = self.ordered_moves()
        if prune:
            moves = self._pruned(moves)
        if self.SOLVER_GUIDED and len(moves) > 1:
            moves = self.guided(moves)
        return moves

    #: order the moves by :meth:`solver_score` of the position each leads to (open games
    #: with standard foundations, where the plain order wanders: Castle, King Albert ...)
    SOLVER_GUIDED = False

    def guided(self, moves: list[Move]) -> list[Move]:
        """``moves`` sorted by the score of the position each one leads to (stable)."""
        push, pop, score = self.make, self.unmake, self.solver_score
        scored = []
        for m in moves:
            push(m)
            scored.append(score())
            pop()
        order = sorted(range(len(moves)), key=scored.__getitem__)
        return [moves[i] for i in order]

    def solver_score(self) -> int:
        """Lower is better: how deep the next card of each suit's foundation lies under other
        cards, minus three per card home (one deck, foundations built up in suit from the ace
        or from ``vars["base"]``)."""
        cards = self.cards
        base = self.vars.get("base", 1) - 1  # foundations start from this rank (index)
        wanted = [base, 13 + base, 26 + base, 39 + base]
        home = 0
        for f in self.foundations:
            pile = cards[f]
            if pile:
                t = pile[-1]
                home += len(pile)
                # the next card up in suit, turning the corner from king to ace if need be
                wanted[SUIT[t]] = t - RANK[t] + RANK[t] % 13 + 1 if len(pile) < 13 else -1
        depth = 0
        piles = self.__dict__.get("_off_foundation")
        if piles is None:
            piles = self._off_foundation = [i for i, r in enumerate(self._role)
                                            if r != "foundation"]
        for w in wanted:
            if w < 0:
                continue
            for i in piles:
                pile = cards[i]
                if w in pile:
                    depth += len(pile) - 1 - pile.index(w)
                    break
        return depth - 3 * home

    def _pruned(self, moves: list[Move]) -> list[Move]:
        role, cards, down = self._role, self.cards, self.down
        feeders = [self.cards[i][-1] for i in self._sources
                   if role[i] in ("waste", "reserve", "cell") and self.cards[i]]
        kept = []
        for m in moves:
            if m.kind == "move" and role[m.src] == "foundation" and role[m.dst] != "foundation":
                continue
            if m.kind == "move" and role[m.src] == "tableau" == role[m.dst]:
                src = cards[m.src]
                left = len(src) - m.n
                if not (left == 0 or down[m.src] == left
                        or self._frees(m.src, src[left - 1], feeders)):
                    continue
            kept.append(m)
        return kept

    def _frees(self, pile: int, exposed: int, feeders: list[int]) -> bool:
        for f in self.foundations:
            fc = self.cards[f]
            if fc and (b := self.rule[f].build) and b.fits(exposed, fc[-1]):
                return True
            if not fc and self.empty_accepts(f, exposed):
                return True
        build = self.rule[pile].build
        return build is not None and any(build.fits(c, exposed) for c in feeders)
