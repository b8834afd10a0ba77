"""What the search knows of Canfield (games/canfield.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..canfield import Canfield
from ..cards import RANK
from ..model import Compound, Move
from ..patience import DEAL, REDEAL
from . import searches
from .patience import PatienceSearch


@searches(Canfield)
class CanfieldSearch(PatienceSearch):
    """What the search knows of Canfield."""

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Which column or foundation holds which cards never matters."""
        return tuple(self.foundations), tuple(self.tableau)

    # With unlimited redeals the talon (waste, then the stock as it will be turned) reads the
    # same however far it has been turned, and the search turns the stock round to each card
    # it could play as one compound move instead of single turns.
    def solver_key(self) -> bytes:
        """The position, with how far the stock is turned folded where that never matters.

        From a redeal the turns stop at the sizes of the waste 0, 3, 6 ... and then, when
        fewer than three are left, one by one to the end (the *cycle*); from a waste size
        in the cycle every size in it can be reached again, and nothing else, so all of
        them are one position. After a card is played from the waste its size may fall
        outside the cycle (a card taken from a waste of 6 leaves 5: then 8, 11 ... can be
        reached, and after the next redeal never 5 again): such a position can reach more
        waste cards than the same cards in the cycle, and keeps its size in the key.

        The pruned pass (which only looks for wins: its "lost" sends the search on to the
        complete pass) folds every size, as wins come sooner so; its keys carry a mark of
        their own (254), so that a key made during a pruned search never stands for a
        position of the complete pass.
        """
        if self.redeals >= 0:
            return super().solver_key()
        cards = self.cards
        talon = bytes(cards[self.waste]) + bytes(reversed(cards[self.stock]))
        i, n, draw = len(cards[self.waste]), len(talon), self.draw
        if self.__dict__.get("_fold_all"):
            phase = 254
        else:
            phase = 255 if i % draw == 0 or i > n - n % draw else i
        found = sorted(bytes((len(cards[f]), cards[f][-1] if cards[f] else 255))
                       for f in self.foundations)
        cols = sorted(bytes((len(cards[t]),)) + bytes(cards[t]) for t in self.tableau)
        reserve = cards[self.reserve]
        return (b"".join(found) + b"".join(cols) + bytes((len(reserve), *reserve))
                + bytes((len(talon), *talon, self.vars["base"], phase)))

    def solver_moves(self, prune: bool = False) -> list:
        moves = super().solver_moves(prune)
        self._fold_all = prune  # the key folds every waste size in the pruned pass only
        if self.redeals >= 0 or not self.vars.get("base"):
            return moves  # (Selective Canfield: the first foundation card is still to choose)
        home, rest = self._talon_plays()
        w = self.waste
        return home + [m for m in moves if m.kind == "move" and m.src != w] + rest

    def _talon_plays(self) -> tuple[list, list]:
        """Each card the stock can be turned round to, played to each place that takes it:
        a :class:`Compound` (the turns, then the play), foundation plays apart. Worked out on
        the talon's order (the waste, then the stock as it will be turned), without making
        the turns: this runs at every node."""
        cards, w = self.cards, self.waste
        talon = cards[w] + cards[self.stock][::-1]
        n = len(talon)
        if not n:
            return [], []
        wants = self._wants()
        home: list = []
        rest: list = []
        made: list[Move] = []
        i = len(cards[w])  # cards on the waste: its top is talon[i - 1]
        # why a set: from the middle of a pass the turns after a redeal need not come back
        # to where they started (three at a time, the last ones singly)
        states = {i}
        seen: set[int] = set()
        draw = self.draw
        while True:
            if i:
                top = talon[i - 1]
                if top not in seen:
                    seen.add(top)
                    for d in wants.get(top, ()):
                        play = Move("move", w, d, 1)
                        out = home if self._role[d] == "foundation" else rest
                        out.append(Compound((*made, play)) if made else play)
            if i < n:
                made.append(DEAL)
                i += draw if n - i >= draw else 1
            elif i:
                made.append(REDEAL)
                i = 0
            else:
                break
            if i in states:
                break
            states.add(i)
        return home, rest

    def _wants(self) -> dict[int, list[int]]:
        """Per card, the piles that would take it from the waste now (one empty pile of a
        kind stands for all: the key folds them together)."""
        cards = self.cards
        wants: dict[int, list[int]] = {}
        base = self.vars["base"]
        empty_home = False
        for f in self.foundations:
            pile = cards[f]
            if pile:
                if len(pile) < 13:
                    c = pile[-1]
                    wants.setdefault(c + 1 if RANK[c] < 13 else c - 12, []).append(f)
            elif not empty_home:
                empty_home = True
                for suit in range(4):
                    wants.setdefault(13 * suit + base - 1, []).append(f)
        under = self.__dict__.get("_under_tab")
        if under is None:
            build = self.rule[self.tableau[0]].build
            under = self._under_tab = tuple(tuple(c for c in range(52) if build.fits(c, t))
                                            for t in range(52))
        space = -1
        for t in self.tableau:
            pile = cards[t]
            if pile:
                for c in under[pile[-1]]:
                    wants.setdefault(c, []).append(t)
            elif space < 0:
                space = t
        if space >= 0 and not cards[self.reserve]:
            for c in range(52):
                wants.setdefault(c, []).append(space)
        return wants

    def solver_hopeless(self) -> bool:
        """A column card that can never leave its column (``stuck_card``): the cards of its
        suit that go home before it and every card it could go on lie under it. A space
        takes only reserve or waste cards, so no column card is free to move into one."""
        return self.stuck_card(self.tableau, kings_free=False)
