"""What the search knows of Klondike (games/klondike.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..cards import RANK
from ..klondike import Klondike
from ..model import Compound, Move
from ..patience import DEAL, REDEAL
from . import searches
from .patience import PatienceSearch


@searches(Klondike)
class KlondikeSearch(PatienceSearch):
    """What the search knows of Klondike."""

    @property
    def SOLVER_VIEW(self) -> dict[str, str]:  # noqa: N802 (the hook's name)
        """A stock that is never turned over again only loses cards from its top, and a
        foundation built in suit from the ace is known by its top card."""
        return {"stock": "count" if self.redeals == 0 else "all",
                "foundation": "top" if self.standard_foundations else "all"}

    def solver_hopeless(self) -> bool:
        """A card that can never leave its column or the waste (see ``stuck_card``): only
        where a king alone fills a space and the waste is never turned over again."""
        if self.opts["variant"] not in ("standard", "open_same_colour"):
            return False
        piles = self.tableau if self.vars.get("redeals") else (*self.tableau, self.waste)
        return self.stuck_card(piles)

    def symmetric_groups(self):
        return tuple(self.tableau), tuple(self.foundations)

    # Turning the stock only matters for the card it brings to the top of the waste: a line
    # can always put off its turns until just before the waste card they bring up is played
    # (turns change nothing else, and every stock card must be played in the end). So the
    # search turns the stock within the current pass as part of a compound move: the turns
    # up to a card, then that card's play (the K+ solvers' "talon" moves). Only the last
    # turns of a pass, to redeal, stand alone (``DEAL``s then ``REDEAL`` as one move).
    def solver_moves(self, prune: bool = False) -> list:
        moves = super().solver_moves(prune)
        if self.shuffle_redeal or self.waste < 0:
            return moves  # the redeal shuffles: the plain moves
        home, rest, turns = self._talon_plays()
        w = self.waste
        plain = [m for m in moves if m.kind == "move" and m.src != w]
        back = [m for m in plain if self._role[m.src] == "foundation"]
        if back:
            plain = [m for m in plain if self._role[m.src] != "foundation"]
        # in one pass a card turned past is buried: talon plays nearest first, after the
        # waste card's own plays and the column moves
        near = [m for m in home if type(m) is not Compound]
        later = [m for m in home if type(m) is Compound] + [m for m in rest if type(m) is Compound]
        later.sort(key=lambda m: len(m.moves))  # stable: at one depth, foundation plays first
        return near + plain + [m for m in rest if type(m) is not Compound] + later + back + turns

    def _talon_plays(self) -> tuple[list, list, list]:
        """Each card the stock can be turned to in this pass, played to each pile that takes
        it (compounds: the turns, then the play), foundation plays apart; and, when a redeal is
        left, the turns to the end of the pass followed by the redeal. Worked out from the
        card codes, without making the turns (this runs at every node)."""
        cards, down, s, w = self.cards, self.down, self.stock, self.waste
        wants: dict[int, list[int]] = {}  # card -> piles that take it now
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                for ace in (0, 13, 26, 39):
                    wants.setdefault(ace, []).append(f)
            elif len(pile) < 13:
                wants.setdefault(pile[-1] + 1, []).append(f)
        spaces = False
        for t in self.tableau:
            pile = cards[t]
            if not pile:
                spaces = True
            elif down[t] < len(pile):
                for c in self._fits_on[pile[-1]]:
                    wants.setdefault(c, []).append(t)
        # one space stands for all (the key folds the columns together)
        empty = [next(t for t in self.tableau if not cards[t])] if spaces else []
        any_card = self.rule[self.tableau[0]].empty == "any"  # else a king only
        stock = cards[s]
        draw = self.draw
        home: list = []
        rest: list = []
        # the waste top now, then the top after each turn of this pass
        tops = [(cards[w][-1], 0)] if cards[w] else []
        size = len(stock)
        turned = 0
        while turned < size:
            turned = min(turned + draw, size)
            tops.append((stock[-turned], turned // draw + (turned % draw > 0)))
        for c, k in tops:
            dests = wants.get(c, ())
            if empty and (any_card or RANK[c] == 13):
                dests = [*dests, *empty]
            for d in dests:
                play = Move("move", w, d, 1)
                out = home if d in self.foundations else rest
                out.append(Compound((*(DEAL,) * k, play)) if k else play)
        turns: list = []
        if self.vars.get("redeals", 0) != 0 and (stock or cards[w]):
            k = size // draw + (size % draw > 0)
            turns.append(Compound((*(DEAL,) * k, REDEAL)))
        return home, rest, turns

    @property
    def _fits_on(self) -> tuple[tuple[int, ...], ...]:
        """Per card, the cards that may be built on it in a column."""
        table = self.__dict__.get("_fits_table")
        if table is None:
            build = self.rule[self.tableau[0]].build
            table = self._fits_table = tuple(
                tuple(c for c in range(52) if build.fits(c, t)) for t in range(52))
        return table
