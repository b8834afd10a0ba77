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

    @property
    def _cycling(self) -> bool:
        """Unlimited passes over a talon that is never shuffled: turning the stock is free,
        and the search treats the waste and stock as one cycle of cards (see ``solver_key``)."""
        return self.redeals < 0 and not self.shuffle_redeal and self.waste >= 0

    def solver_key(self) -> bytes:
        """With unlimited passes, the waste and the stock read as one sequence, the *talon*
        (the waste from the bottom, then the stock in the order it will be turned: turns and
        redeals leave that sequence alone), and how far it is turned is folded where it never
        matters. From a redeal the turns stop at waste sizes 0, d, 2d ... and the whole talon
        (the *cycle*); from a size in the cycle every size of the cycle, and only those, can
        be reached by turns alone, so they are one position. A size off the cycle (a card was
        played from a waste of 6 with draw 3, leaving 5) reaches 8, 11 ... as well, until the
        next redeal: it keeps its size in the key. With draw 1 every size is in the cycle."""
        if not self._cycling:
            return super().solver_key()
        cards, down = self.cards, self.down
        waste, stock = cards[self.waste], cards[self.stock]
        i, n, draw = len(waste), len(waste) + len(stock), self.draw
        phase = 255 if i % draw == 0 or i == n else i
        found = sorted(bytes((len(cards[f]), cards[f][-1] if cards[f] else 255))
                       for f in self.foundations)
        cols = sorted(bytes((len(cards[t]), down[t], *cards[t])) for t in self.tableau)
        return (b"".join(found) + b"".join(cols)
                + bytes((n, *waste, *reversed(stock), phase)))

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
        if self._cycling:
            return self._cycle_moves(moves)
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

    def _cycle_moves(self, moves: list) -> list:
        """With unlimited passes: the talon cards each turned round to (``_cycle_plays``)
        and played, foundation plays first and nearest first, then the column moves, then
        the talon cards to columns, and foundation cards brought back last."""
        home, rest = self._cycle_plays()
        w = self.waste
        plain = [m for m in moves if m.kind == "move" and m.src != w]
        back = [m for m in plain if self._role[m.src] == "foundation"]
        if back:
            plain = [m for m in plain if self._role[m.src] != "foundation"]
        return home + plain + rest + back

    def _cycle_plays(self) -> tuple[list, list]:
        """Each card the talon can be turned round to (through redeals), played to each pile
        that takes it: the turns and the play as one :class:`Compound`, the fewest turns
        first; foundation plays apart. Worked out on the talon's order without making the
        turns (this runs at every node)."""
        cards, w = self.cards, self.waste
        talon = cards[w] + cards[self.stock][::-1]
        n = len(talon)
        if not n:
            return [], []
        wants = self._wants()
        home: list = []
        rest: list = []
        made: list = []
        i = len(cards[w])
        states = {i}
        seen: set[int] = set()
        draw = self.draw
        founds = self.foundations
        while True:
            if i:
                top = talon[i - 1]
                if top not in seen:
                    seen.add(top)
                    for d in wants.get(top, ()):
                        play = Move("move", w, d, 1)
                        out = home if d in founds else rest
                        out.append(Compound((*made, play)) if made else play)
            if i < n:
                made.append(DEAL)
                i = min(i + draw, n)
            else:
                made.append(REDEAL)
                i = 0
            if i in states:
                break
            states.add(i)
        return home, rest

    def _wants(self) -> dict[int, list[int]]:
        """Per card, the piles that would take it from the waste now (one space stands for
        all: the key folds the columns together)."""
        cards, down = self.cards, self.down
        wants: dict[int, list[int]] = {}
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                for ace in (0, 13, 26, 39):
                    wants.setdefault(ace, []).append(f)
            elif len(pile) < 13:
                wants.setdefault(pile[-1] + 1, []).append(f)
        space = -1
        fits = self._fits_on
        for t in self.tableau:
            pile = cards[t]
            if not pile:
                if space < 0:
                    space = t
            elif down[t] < len(pile):
                for c in fits[pile[-1]]:
                    wants.setdefault(c, []).append(t)
        if space >= 0:
            any_card = self.rule[self.tableau[0]].empty == "any"
            for c in range(52):
                if any_card or RANK[c] == 13:
                    wants.setdefault(c, []).append(space)
        return wants

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
