"""Napoleon's Tomb (source 002, "Grobnitsa Napoleona"): a labelled reconstruction.

The source breaks off after the layout and the goal, so the rules of play are the catalog's
reconstruction (GAMES.md §C4). It is not the Western one-deck "Napoleon's Tomb". Walls are
reserves whose cards stay hidden until they surface; each working pile is refilled from its
own wall by :meth:`settle`, inside the move that emptied it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .engine import cards as C
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Card, Reason, Suit
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import Build, PatienceGame, Rule, roles

WALL_CARDS = 11
FULL = 26  # two runs from king down to ace


def _ranks_on(build: Build, top: int) -> tuple[int, ...]:
    """Ranks that may be built on ``top`` (any suit: the build checks the suit)."""
    if isinstance(build, AnyCard):
        return tuple(range(1, 14))
    r = C.RANK[top]
    out = []
    for d in (-1, 1):
        x = r + d
        if build.wrap:
            x = (x - 1) % 13 + 1
        if 1 <= x <= 13:
            out.append(x)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class AnyCard(Build):
    """Any card goes on any card (the working piles as open parking places)."""

    suit: str = "any"

    def fits(self, c: int, onto: int) -> bool:
        return True

    def onto_ranks(self, c: int) -> list[int]:
        return list(range(1, 14))

    def need(self, c: int) -> Reason:
        return Reason("any card")


#: the building rule on working piles, per option value (none: nothing is built there)
WORKING_BUILDS = {"either": Build("same", 0), "up": Build("same", +1),
                  "down": Build("same", -1), "any": AnyCard()}


@register
class NapoleonsTomb(PatienceGame):
    info = GameInfo(
        id="napoleons_tomb",
        source="002_641e09ccd4cb0ebe.txt",
        decks=2, kind="S-mixed", difficulty=5,
    )
    options = (
        Option("passes", 0, (0, 1, 2, 3),
               "passes through the stock, 0: unlimited [reconstructed]"),
        Option("working_build", "any", ("any", "either", "up", "down", "none"),
               "building on the working piles: any card, or in suit one rank up and/or "
               "down [reconstructed]"),
    )
    standard_foundations = False

    def prepare(self) -> None:
        self.redeals = self.opts["passes"] - 1 if self.opts["passes"] else -1
        super().prepare()
        self.walls = self.roles["reserve"]
        self._wall_set = frozenset(self.walls)
        #: the piles whose top card is free (the waste apart), in pile order
        self._free = tuple(sorted((*self.tableau, *self.walls)))

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        role = spec.role
        if role == "foundation":
            return Rule(Build("same", -1, wrap=True), empty="king", take="none",
                        max_cards=FULL, name="foundation")
        if role == "tableau":
            return Rule(WORKING_BUILDS.get(self.opts["working_build"]), empty="none",
                        take="top", sources=roles("reserve", "waste"), name="working pile")
        if role == "reserve":
            return Rule(take="top", empty="none", name="wall")
        if role == "waste":
            return Rule(take="top", empty="none", name="waste")
        return Rule(take="none", empty="none", name="stock")

    def build_layout(self) -> Iterator[PileSpec]:
        # a compact tomb: walls on four sides, kings' corners on the diagonals, each working
        # pile outside its wall (tall enough for 6.2 card widths)
        x = 0.5
        yield PileSpec("S", "stock", 7.6, 0)
        yield PileSpec("W", "waste", 8.8, 0)
        for i, (fx, fy) in enumerate(((1.2, 0.8), (3.6, 0.8), (3.6, 4.0), (1.2, 4.0))):
            yield PileSpec(f"F{i + 1}", "foundation", x + fx, fy, label="K")
        for i, (tx, ty) in enumerate(((2.4, 0), (4.8, 2.4), (2.4, 4.8), (0, 2.4))):
            yield PileSpec(f"T{i + 1}", "tableau", x + tx, ty)
        for i, (rx, ry) in enumerate(((2.4, 1.6), (3.6, 2.4), (2.4, 3.2), (1.2, 2.4))):
            yield PileSpec(f"R{i + 1}", "reserve", x + rx, ry)

    def deal(self, rng: Rng) -> None:
        deck = C.deck(2)
        rng.shuffle(deck)
        for wall, work in zip(self.walls, self.tableau, strict=True):
            packet = [deck.pop() for _ in range(WALL_CARDS)]
            for c in packet[:-2]:
                self.put(wall, c, up=False)
            self.put(wall, packet[-2])
            self.put(work, packet[-1])
        # the eight visible cards, walls first: kings of suits without a corner go up
        for pile in (*self.walls, *self.tableau):
            c = self.cards[pile][-1]
            if C.RANK[c] == C.KING and self._corner_free(c):
                corner = next(f for f in self.foundations if not self.cards[f])
                self.put(corner, self.cards[pile].pop())
                self._expose(pile)
        self.init_stock(deck[::-1])

    def _expose(self, pile: int) -> None:
        """After the deal's kings leave: a working place takes its wall's top card."""
        if self._role[pile] == "tableau":
            wall = self.walls[self.tableau.index(pile)]
            if self.cards[wall]:
                self.cards[pile].append(self.cards[wall].pop())
                pile = wall
        if self.cards[pile] and self.down[pile] == len(self.cards[pile]):
            self.down[pile] -= 1

    @property
    def lost(self) -> bool:
        """With unlimited passes the stock can always be turned, so the game is lost when
        no free card and no card of the talon can be played anywhere."""
        if not self._cycle() or self.won:
            return False
        cards = self.cards
        if self._parking() and any(cards[t] for t in self.tableau) and (
                cards[self.waste] or any(cards[r] for r in self.walls)):
            return False  # a wall or waste card can be parked (the usual case: decided fast)
        if any(m.kind == "move" for m in self.legal_moves()):
            return False
        wanted = self._wanted()
        return not any(c % 52 in wanted for c in (*self.cards[self.stock],
                                                  *self.cards[self.waste]))

    def _corner_free(self, king: int) -> bool:
        suit = C.SUIT[king]
        return all(not self.cards[f] or C.SUIT[self.cards[f][0]] != suit
                   for f in self.foundations)

    def empty_accepts(self, d: int, c: int) -> bool:
        if self._role[d] == "foundation":
            return C.RANK[c] == C.KING and self._corner_free(c)
        return False

    def settle(self) -> None:
        cards = self.cards
        for work, wall in zip(self.tableau, self.walls, strict=True):
            if not cards[work] and cards[wall]:
                self._move_cards(wall, work, 1)
        super().settle()

    def safe_autoplay(self) -> Move | None:
        """A king to an empty corner: nothing is lost, every card of its suit can follow it."""
        for s in (self.waste, *self.tableau, *self.walls):
            pile = self.cards[s]
            if pile and self.down[s] < len(pile) and C.RANK[pile[-1]] == C.KING:
                for f in self.foundations:
                    if not self.cards[f] and self.accepts(f, s, 1):
                        return Move("move", s, f, 1)
        return None

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        reason = super().explain_card_move(s, d, n)
        if self._role[d] != "foundation" or not str(reason).startswith(("Only a king", "The ")):
            return reason
        c, dst = self.cards[s][-1], self.cards[d]
        if not dst:
            if C.RANK[c] != C.KING:
                return Reason("Only a king can start a foundation in an empty corner.")
            return Reason("The {suit} already have a corner; the second king goes on their ace.",
                          suit=Suit(C.SUIT[c]))
        top = dst[-1]
        need = C.KING if C.RANK[top] == C.ACE else C.RANK[top] - 1
        return Reason("That foundation needs the {card:name} next.",
                      card=Card(C.card(need, C.SUIT[top])))

    def _cycle(self) -> bool:
        """Whether the passes are unlimited: the talon is a cycle, every card of it can be
        turned to and played at any time."""
        return self.vars["redeals"] < 0

    def _parking(self) -> bool:
        """Unlimited passes and any card on any working pile: a talon card is never worth
        parking (it can be had at any time) and a parked card blocks only by its place."""
        return self._cycle() and self.opts["working_build"] == "any"

    def _wanted(self) -> dict[int, list[int]]:
        """Per card (without its deck), the foundations and working piles that would take it
        from a wall or the waste now; of the empty corners only the first (they are alike)."""
        cards = self.cards
        out: dict[int, list[int]] = {}
        corner = True
        for d in (*self.foundations, *self.tableau):
            dst = cards[d]
            if not dst:
                if corner and self._role[d] == "foundation":
                    corner = False
                    for su in range(4):
                        k = su * 13 + C.KING - 1
                        if self._corner_free(k):
                            out.setdefault(k, []).append(d)
                continue
            if self._role[d] == "foundation" and len(dst) >= FULL:
                continue
            build = self.rule[d].build
            if build is None:
                continue
            top = dst[-1]
            for r in _ranks_on(build, top):
                for su in range(4):
                    c = su * 13 + r - 1
                    if build.fits(c, top):
                        out.setdefault(c, []).append(d)
        return out
