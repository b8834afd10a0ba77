"""What the search knows of Napoleons Tomb (games/napoleons_tomb.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..engine import cards as C
from ..engine.game import TWIN
from ..engine.model import Compound, Move
from ..families.patience import DEAL, REDEAL
from ..napoleons_tomb import FULL, NapoleonsTomb
from . import searches
from .patience import PatienceSearch
from .rules import NapoleonsTombRules


@searches(NapoleonsTomb)
class NapoleonsTombSearch(PatienceSearch, NapoleonsTombRules):
    """What the search knows of NapoleonsTomb."""

    #: a foundation (one suit, king down to ace, twice) is known by its top card and size
    SOLVER_VIEW = {"foundation": "top"}

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return (tuple(self.foundations),)

    # ------------------------------------------------------------ for the solver
    # Cards leave the walls, the working piles and the waste only from the top, and only to
    # a foundation or (walls and waste) onto a working pile. The search plays the talon as
    # compound moves, "turn the stock k times, then play the new waste card": a turn
    # commutes with every move that does not touch the waste, so every winning line can be
    # rearranged to turn the stock only right before it plays the waste card or turns the
    # pack over. Nothing is pruned, so the one pass is complete.
    @property
    def SOLVER_PRUNES(self) -> bool:  # type: ignore[override]  # noqa: N802 (the hook's name; it depends on the options, where
    # the default is a class constant: the solver reads it on the instance)
        """Only the parking reading prunes (bad parks, talon cards parked)."""
        return self._parking()

    def solver_key(self) -> bytes:
        """Foundations by suit and size (one per suit, so the cards under the top are
        implied), sorted; each wall with its working pile as one unit, the units sorted (no
        rule knows a wall's number); the talon in order and the passes left. The two copies
        of a card play alike, so cards are named without their deck."""
        cards = self.cards
        found = sorted(bytes((len(cards[f]), cards[f][-1] % 52)) if cards[f] else b"\0"
                       for f in self.foundations)
        units = sorted(bytes((len(cards[r]), len(cards[t]))) + bytes(cards[r]).translate(TWIN)
                       + bytes(cards[t]).translate(TWIN)
                       for r, t in zip(self.walls, self.tableau, strict=True))
        stock, waste = cards[self.stock], cards[self.waste]
        if self._cycle():
            # every talon card can be reached at any time: only which cards it holds matters
            tail = b"\xff" + bytes(sorted((*stock, *waste))).translate(TWIN)
        else:
            tail = (bytes((len(stock), len(waste), self.vars["redeals"] & 0xFF))
                    + bytes(stock).translate(TWIN) + bytes(waste).translate(TWIN))
        return b"".join(found) + b"".join(units) + tail

    def solver_autoplay(self) -> Move | Compound | None:
        """A card its foundation takes now, where playing it home can never hurt:

        - from the talon, with unlimited passes and any card on a working pile, when its
          twin is home or in the talon too (:meth:`_pool_home`);
        - in its second run (its twin is home: it is the only card for that place), from the
          waste or from a working pile that keeps a card under it;
        - with unlimited passes and any card on a working pile, in its first run too, from a
          working pile that keeps a card under it, when its twin is in the talon.

        Why: take any winning line, and play it from the position after the move, the card
        left out. While the line keeps the card on its working pile, the pile still holds the
        card under it, so nothing refills it and whatever the line parks on the card goes on
        that pile all the same (in the readings that build in suit, only the next lower card
        of its suit could go on it, and it can go home instead). The line's foundation waits
        for the card or its twin: if it plays the card, the two positions are equal; if it
        plays the twin from the talon first, the twin stays in the talon here and goes home
        when the line plays the card, from the talon (a cycle) where the line had a buried
        card: never worse.

        Not from a working pile holding only the card: playing it home empties the pile,
        which the rules refill at once from its wall (or, the wall empty, lose as a parking
        place), and the line may want to park there first. Nor from a wall: when its working
        pile empties, the rules move the card there, which this position cannot copy. A
        former rule sent every second-run card home and called a won position lost (a test
        holds it)."""
        cards = self.cards
        parking = self._parking()
        if parking:
            move = self._pool_home()
            if move is not None:
                return move
            stock, waste = cards[self.stock], cards[self.waste]
            talon = (bytes(stock) + bytes(waste)).translate(TWIN)
        for f, need, size in self._next_needed():
            if size < 13 and not (parking and need in talon):
                continue
            if not parking:
                pile = cards[self.waste]
                if pile and pile[-1] % 52 == need:
                    return Move("move", self.waste, f, 1)
            for t in self.tableau:
                pile = cards[t]
                if len(pile) > 1 and pile[-1] % 52 == need:
                    return Move("move", t, f, 1)
        return None

    def _next_needed(self) -> Iterator[tuple[int, int, int]]:
        """Each foundation still building: its pile, the card it needs next (one deck's
        number, either copy) and how many cards it holds."""
        cards = self.cards
        for f in self.foundations:
            dst = cards[f]
            if not dst or len(dst) >= FULL:
                continue
            top = dst[-1] % 52
            yield f, (top - 1 if top % 13 else top + 12), len(dst)

    def _pool_home(self) -> Move | Compound | None:
        """(Unlimited passes, any card on the working piles.) The card a foundation needs
        next, from the talon, when its twin is home or in the talon too: the two copies
        there are alike, and a talon card has no other use (parking it never helps). A
        compound move when the card must be turned to."""
        cards = self.cards
        stock, waste = cards[self.stock], cards[self.waste]
        if not stock and not waste:
            return None
        talon = (bytes(stock) + bytes(waste)).translate(TWIN)
        for f, need, size in self._next_needed():
            n = talon.count(need)
            if n == 0 or (n == 1 and size < 13):
                continue
            play = Move("move", self.waste, f, 1)
            turns = self._talon_turns(need)
            return Compound((*turns, play)) if turns else play
        return None

    def _needs(self) -> tuple[dict[int, int], int]:
        """Per card (without its deck) the foundation that takes it now, and the first
        empty corner (-1: none); kings of suits without a corner are wanted there."""
        cards = self.cards
        need: dict[int, int] = {}
        corner = -1
        free = [True] * 4
        for f in self.foundations:
            dst = cards[f]
            if not dst:
                if corner < 0:
                    corner = f
                continue
            free[C.SUIT[dst[0]]] = False
            if len(dst) < FULL:
                top = dst[-1] % 52
                need[top - 1 if top % 13 else top + 12] = f
        if corner >= 0:
            for su in range(4):
                if free[su]:
                    need[su * 13 + 12] = corner
        return need, corner

    def _talon_turns(self, c: int) -> tuple | None:
        """The turns that bring card ``c`` (either copy) to the top of the waste, fewest
        first: none for the waste card, then the stock from its top, then (the talon a
        cycle) the rest of the stock, turning over and the waste from its bottom; None when
        the talon has no copy."""
        cards = self.cards
        stock, waste = cards[self.stock], cards[self.waste]
        if waste and waste[-1] % 52 == c:
            return ()
        names = bytes(stock).translate(TWIN)
        i = names.rfind(c)
        if i >= 0:
            return (DEAL,) * (len(stock) - i)
        if len(waste) > 1 and self._cycle():
            j = bytes(waste).translate(TWIN).find(c, 0, len(waste) - 1)
            if j >= 0:
                return (*(DEAL,) * len(stock), REDEAL, *(DEAL,) * (j + 1))
        return None

    def _parking_moves(self, prune: bool) -> list:
        """:meth:`solver_moves` for the tuned reading (unlimited passes, any card on a
        working pile), worked out directly rather than from :meth:`legal_moves`: the same
        moves in the same order, but no talon card is ever parked, in either pass.

        Why dropping talon parks loses no win: take any line that parks a talon card X on a
        working pile T, and play instead the same line with X left in the talon, playing X
        home from the talon when the line plays it home from T. T held a card Y under X,
        which cannot leave before X, so T stays non-empty (nothing refills it) while the
        line has X there, and every card parked on X goes on T's top all the same; the cards
        under X are only the freer for it. The talon is a cycle, so X can be turned to when
        it is wanted. Every move of the line stays legal and the two positions become equal
        when X goes home, so the line without the park wins whenever the line with it does.
        """
        cards, down = self.cards, self.down
        need, _ = self._needs()
        home: list = []
        build: list = []
        working = [t for t in self.tableau if cards[t]]
        for s in self._free:
            pile = cards[s]
            if not pile or down[s] >= len(pile):
                continue
            f = need.get(pile[-1] % 52)
            if f is not None:
                home.append(Move("move", s, f, 1))
            if s in self._wall_set:
                build.extend(Move("move", s, d, 1) for d in working)
        # talon cards home: the stock's deepest first, then the waste's from its bottom (the
        # order the search was tuned with)
        t_home: list = []
        found = []
        deep = len(cards[self.stock])
        for c, f in need.items():
            turns = self._talon_turns(c)
            if turns is not None:
                k = len(turns)
                found.append((k > deep, -k if k <= deep else k, f, turns))
        found.sort(key=lambda x: x[:3])
        for *_, f, turns in found:
            play = Move("move", self.waste, f, 1)
            t_home.append(Compound((*turns, play)) if turns else play)
        if len(build) > 1:
            dist = self._distances()
            build.sort(key=lambda m: dist(cards[m.src][-2]) if len(cards[m.src]) > 1 else 30)
        return home + t_home + self._parks(build, prune)

    def solver_moves(self, prune: bool = False) -> list:
        """Foundation plays first (from the walls and working piles, then turned to in the
        talon), then wall cards onto working piles (first those uncovering the card its
        foundation wants soonest), then talon cards onto working piles, then turning the pack
        over. Single turns of the stock are never searched alone. With unlimited passes and
        any card on the working piles, the parks are ordered (and pruned) by :meth:`_parks`."""
        if self._parking():
            return self._parking_moves(prune)
        cards, w, role = self.cards, self.waste, self._role
        home: list = []
        build: list = []
        corner = None
        for m in self.legal_moves():
            if m.kind != "move" or m.src == w:
                continue
            if role[m.dst] != "foundation":
                build.append(m)
            elif cards[m.dst]:
                home.append(m)
            elif corner in (None, m.dst):  # empty corners are alike: one of them
                corner = m.dst
                home.append(m)
        if len(build) > 1:
            dist = self._distances()
            build.sort(key=lambda m: dist(cards[m.src][-2]) if len(cards[m.src]) > 1 else 30)
        t_home, t_build, tail = self._talon_plays()
        if self._parking():
            return home + t_home + self._parks(build, prune) + ([] if prune else t_build)
        return home + t_home + build + t_build + tail

    def _parks(self, build: list, prune: bool) -> list:
        """Wall cards onto working piles when any card goes on any working pile and the
        talon is a cycle (talon cards are never parked: they can be had at any time). A park
        is *good* when the parked card is needed no later than the card it covers (the one
        needed later goes under); good parks come first, those uncovering the wall card
        needed soonest first. The pruned pass keeps only the good parks."""
        cards = self.cards
        when = self._when()
        scored = []
        for m in build:
            src = cards[m.src]
            if self._role[m.src] != "reserve" or not cards[m.dst]:
                if not prune:
                    scored.append((3, 0, 0, m))
                continue
            c, u = when(src[-1]), when(cards[m.dst][-1])
            bad = c > u
            if bad and prune:
                continue
            under = when(src[-2]) if len(src) > 1 else 30
            scored.append((int(bad), under, abs(u - c), m))
        scored.sort(key=lambda x: x[:3])
        return [x[3] for x in scored]

    def _when(self) -> Callable[[int], int]:
        """How many cards its foundation still needs before a card is needed there: as
        :meth:`_distances`, plus a run when its twin is in the talon (which, a cycle, gives
        the twin at any time: it can take the first run's place)."""
        dist = self._distances()
        stock, waste = self.cards[self.stock], self.cards[self.waste]
        pool = {c % 52 for c in (*stock, *waste)}

        def when(c: int) -> int:
            d = dist(c)
            return d + 13 if d < 13 and c % 52 in pool else d
        return when

    def _distances(self) -> Callable[[int], int]:
        """How many cards a card's foundation still needs before the card can go home."""
        cards = self.cards
        size = [-1, -1, -1, -1]
        for f in self.foundations:
            if cards[f]:
                size[C.SUIT[cards[f][0]]] = len(cards[f])

        def dist(c: int) -> int:
            n = size[C.SUIT[c]]
            slot = 13 - C.RANK[c]
            if n < 0:
                return slot
            return slot - n + (13 if slot < n else 0)
        return dist

    def _talon_plays(self) -> tuple[list, list, list]:
        """Each card the stock can be turned to (and the waste card), played to each place
        that takes it (a Compound: the turns, then the play), foundation plays apart; and
        turning the pack over (after turning the rest of the stock) while passes are left."""
        cards = self.cards
        stock, waste = cards[self.stock], cards[self.waste]
        home: list = []
        rest: list = []
        wanted = self._wanted()
        seq: list[tuple[tuple[Move, ...], int]] = [((), waste[-1])] if waste else []
        seq.extend(((DEAL,) * k, stock[-k]) for k in range(1, len(stock) + 1))
        if self._cycle():
            seq = list({c % 52: (t, c) for t, c in reversed(seq)}.values())
        if self._cycle() and len(waste) > 1:
            # the rest of the waste after turning the pack over (one of each card)
            over = (*(DEAL,) * len(stock), REDEAL)
            seen = {c % 52 for _, c in seq}
            for j, c in enumerate(waste[:-1]):
                if c % 52 not in seen:
                    seen.add(c % 52)
                    seq.append(((*over, *(DEAL,) * (j + 1)), c))
        for turns, c in seq:
            for d in wanted.get(c % 52, ()):
                play = Move("move", self.waste, d, 1)
                out = home if self._role[d] == "foundation" else rest
                out.append(Compound((*turns, play)) if turns else play)
        tail: list = []
        if self._cycle():
            return home, rest, tail  # turning over only reorders the talon
        if self.vars["redeals"] != 0 and (stock or waste):
            tail.append(Compound((*(DEAL,) * len(stock), REDEAL)) if stock else REDEAL)
        return home, rest, tail

    def solver_hopeless(self) -> bool:
        """A working pile holding a card above a higher card of its suit where the lower
        card's first-run place is filled already. Working-pile cards leave only to their
        foundation, top first, so the lower card would have to go home first; but it can
        only go in the second run, after every higher card of its suit."""
        cards = self.cards
        size = [0, 0, 0, 0]
        for f in self.foundations:
            if cards[f]:
                size[C.SUIT[cards[f][0]]] = len(cards[f])
        for t in self.tableau:
            pile = cards[t]
            if len(pile) < 2:
                continue
            high = [0, 0, 0, 0]  # per suit, the highest rank lower in the pile
            for c in pile:
                su, r = C.SUIT[c], C.RANK[c]
                if r < high[su] and size[su] > 13 - r:
                    return True
                if r > high[su]:
                    high[su] = r
        return False
