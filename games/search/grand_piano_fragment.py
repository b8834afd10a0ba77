"""What the search knows of Grand Piano Fragment (games/grand_piano_fragment.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine import cards as C
from ..engine.model import Compound, Move
from ..families.patience import DEAL, REDEAL
from ..grand_piano_fragment import RESCUE, GrandPianoFragment
from ..snake import foundation_wants
from . import searches
from .patience import PatienceSearch
from .rules import GrandPianoFragmentRules


@searches(GrandPianoFragment)
class GrandPianoFragmentSearch(PatienceSearch, GrandPianoFragmentRules):
    """What the search knows of GrandPianoFragment."""

    #: foundations built in suit from the ace are known by their top card
    SOLVER_VIEW = {"foundation": "top"}

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Foundations are interchangeable, and so are the piles (no pile has a place of its
        own: any of them takes the same cards)."""
        return tuple(self.foundations), tuple(self.tableau)

    def solver_moves(self, prune: bool = False) -> list:
        """Foundation plays first, then moves that empty a pile or uncover a card, then talon
        plays (nearest first), then giving up the rest of the pass (a redeal, or the rescue).

        With ``prune`` a move between piles must achieve something now: empty its pile (a
        space for a card that needs one) or uncover a card that can go home or that a talon
        or reserve card could go on. Of several empty piles only the first is a target: the
        piles are interchangeable."""
        cards, w, role = self.cards, self.waste, self._role
        home: list = []
        useful: list = []
        other: list = []
        feeders = None
        space = next((t for t in self.tableau if not cards[t]), -1)
        for m in self.legal_moves():
            if m.kind != "move" or m.src == w:
                continue
            if role[m.dst] == "foundation":
                home.append(m)
                continue
            if not cards[m.dst] and m.dst != space:
                continue  # the piles are interchangeable: one space stands for all
            src = cards[m.src]
            if role[m.src] != "tableau" or len(src) == 1:
                useful.append(m)
                continue
            exposed = src[-2]
            if feeders is None:
                feeders = self._feeder_ranks()
            if (C.RANK[exposed] - 1, C.SUIT[exposed]) in feeders or self._home_now(exposed):
                useful.append(m)
            elif not prune:
                other.append(m)
        t_home, t_rest, tail = self._talon_plays()
        return home + t_home + useful + t_rest + other + tail

    def solver_autoplay(self) -> Move | None:
        """A card to a foundation when every card that could ever be built on it is home:
        both copies of the next lower rank in each suit the building rule lets onto it (an
        ace carries nothing that could not go home, as every ace has a foundation of its
        own). Then it could only ever carry cards that are home, and nothing else is
        built from it, so playing it home loses nothing. None in a lost position (the
        search never expands one, but a hint may start from one)."""
        if self.lost:
            return None
        cards = self.cards
        level = [[0, 0], [0, 0], [0, 0], [0, 0]]  # per suit, the two foundations' ranks
        for f in self.foundations:
            pile = cards[f]
            if pile:
                lv = level[C.SUIT[pile[0]]]
                lv[0 if lv[0] == 0 else 1] = C.RANK[pile[-1]]
        low = [min(lv) for lv in level]
        build = self._build.suit
        for s in (*self.tableau, self.waste, *self.reserve):
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            r, su = C.RANK[c], C.SUIT[c]
            need: tuple[int, ...]
            if r > 2:
                if build == "same":
                    need = (su,)
                elif build == "alt":
                    need = tuple(x for x in range(4) if C.COLOUR[x * 13] != C.COLOUR[c])
                else:
                    need = (0, 1, 2, 3)
                if any(low[x] < r - 1 for x in need):
                    continue
            for f in self.foundations:
                if self.accepts(f, s, 1):
                    return Move("move", s, f, 1)
        return None

    def _home_now(self, c: int) -> bool:
        """Whether card ``c`` could go to a foundation now (for the pruned pass)."""
        for f in self.foundations:
            pile = self.cards[f]
            if (C.RANK[c] == C.ACE) if not pile else (
                    C.RANK[c] != C.ACE and pile[-1] % 52 + 1 == c % 52):
                return True
        return False

    def _feeder_ranks(self) -> set[tuple[int, int]]:
        """(rank, suit) of the cards that could still come from the talon or the reserve:
        a card uncovered for one of them is worth uncovering."""
        cards = self.cards
        out = set()
        for p in (self.stock, self.waste, *self.reserve):
            for c in cards[p]:
                out.add((C.RANK[c], C.SUIT[c]))
        if self._build.suit == "same":
            return out
        return {(r, su2) for r, su in out for su2 in range(4)
                if self._build.suit == "any" or C.COLOUR[su2 * 13] != C.COLOUR[su * 13]}

    def _talon_plays(self) -> tuple[list, list, list]:
        """Each waste or stock card, played (after the turns that bring it up) to each place
        that takes it: foundation plays apart; then turning the waste over (after turning
        the rest of the stock) while redeals are left, and the rescue once."""
        cards, s, w = self.cards, self.stock, self.waste
        stock, waste = cards[s], cards[w]
        home: list = []
        rest: list = []
        tail: list = []
        if self.vars["rescue"]:
            return home, rest, tail
        wants = foundation_wants(cards, self.foundations)
        onto: dict[int, list[int]] = {}
        space = -1
        for t in self.tableau:
            if cards[t]:
                onto.setdefault(C.RANK[cards[t][-1]] - 1, []).append(t)
            elif space < 0:
                space = t  # the piles are interchangeable: one space stands for all
        fits = self._build.fits
        seq: list[tuple[tuple[Move, ...], int]] = [((), waste[-1])] if waste else []
        seq.extend(((DEAL,) * k, stock[-k]) for k in range(1, len(stock) + 1))
        for turns, c in seq:
            plays = [(f, home) for f in wants.get(c % 52, ())[:1]]
            plays.extend((d, rest) for d in onto.get(C.RANK[c], ()) if fits(c, cards[d][-1]))
            if space >= 0:
                plays.append((space, rest))
            for d, out in plays:
                play = Move("move", w, d, 1)
                out.append(Compound((*turns, play)) if turns else play)
        through = (DEAL,) * len(stock)
        if stock or waste:
            if self.vars["redeals"] != 0:
                tail.append(Compound((*through, REDEAL)) if through else REDEAL)
            tail.append(Compound((*through, RESCUE)) if through else RESCUE)
        return home, rest, tail
