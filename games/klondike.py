"""Klondike (000 #15): seven columns, build down in alternating colours, kings to spaces."""

from __future__ import annotations

from .cards import RANK
from .model import GameInfo, Move, Option, PileSpec
from .patience import DEAL, FOUNDATION, REDEAL, Build, PatienceGame, Rule, roles
from .registry import register

VARIANTS = ("standard", "easy", "alt_colour_foundations", "open_same_colour")


@register
class Klondike(PatienceGame):
    info = GameInfo(
        id="klondike",
        source="000_5c0014aada07c9b6.txt", source_game="15",
        decks=1, kind="S-mixed", difficulty=2,
    )
    options = (
        Option("draw", 1, (1, 3), "cards turned from the stock at a time"),
        Option("redeals", 0, (0, 1, 2, -1), "times the waste may be turned over (-1: unlimited)"),
        Option("variant", "standard", VARIANTS, "rule variant from the source"),
    )

    def prepare(self) -> None:
        variant = self.opts["variant"]
        self.draw = self.opts["draw"]
        self.redeals = self.opts["redeals"]
        self.shuffle_redeal = False
        if variant == "alt_colour_foundations":
            self.draw, self.redeals, self.shuffle_redeal = 3, 2, True
            self.standard_foundations = False
        super().prepare()
        # for the solver: a stock that is never turned over again only loses cards from its
        # top, and a foundation built in suit from the ace is known by its top card
        self.SOLVER_VIEW = {"stock": "count" if self.redeals == 0 else "all",
                            "foundation": "top" if self.standard_foundations else "all"}

    def build_layout(self):
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 1.2, 0, fan="right" if self.opts["draw"] == 3 else "none")
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 3.6 + 1.2 * i, 0, label="A")
        for i in range(7):
            yield PileSpec(f"T{i + 1}", "tableau", 1.2 * i, 1.6, fan="down", label="K")

    def rule_for(self, index, spec):
        variant = self.opts["variant"]
        if spec.role == "foundation":
            if variant == "alt_colour_foundations":
                return Rule(Build("alt", +1), empty="ace", take="top", max_cards=13,
                            sources=roles("tableau", "waste"), name="foundation")
            return Rule(FOUNDATION.build, empty="ace", take="top", max_cards=13,
                        sources=roles("tableau", "waste"), name="foundation")
        if spec.role == "tableau":
            if variant == "easy":
                return Rule(Build("any", -1), empty="any", take="run", many=True, name="column")
            if variant == "open_same_colour":
                return Rule(Build("colour", -1), empty="any", take="run", many=True,
                            lift=Build("same", -1), name="column")
            return Rule(Build("alt", -1), empty="king", take="run", many=True, name="column")
        if spec.role == "waste":
            return Rule(take="top", empty="none", name="waste")
        return Rule(take="none", empty="none", name="stock")

    twin_roles = frozenset({"tableau"})

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
        near = [m for m in home if type(m) is not tuple]
        later = [m for m in home if type(m) is tuple] + [m for m in rest if type(m) is tuple]
        later.sort(key=len)  # stable: at the same depth, foundation plays first
        return near + plain + [m for m in rest if type(m) is not tuple] + later + back + turns

    def _talon_plays(self) -> tuple[list, list, list]:
        """Each card the stock can be turned to in this pass, played to each pile that takes
        it (tuples: the turns, then the play), foundation plays apart; and, when a redeal is
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
                out.append((*(DEAL,) * k, play) if k else play)
        turns: list = []
        if self.vars.get("redeals", 0) != 0 and (stock or cards[w]):
            k = size // draw + (size % draw > 0)
            turns.append((*(DEAL,) * k, REDEAL))
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

    def deal(self, rng):
        deck = list(range(52))
        rng.shuffle(deck)
        open_deal = self.opts["variant"] == "open_same_colour"
        cols = self.tableau
        for row in range(7):
            for col in range(row, 7):
                self.put(cols[col], deck.pop(), up=open_deal or col == row)
        self.init_stock(deck[::-1])

    def redeal_waste(self) -> None:
        if not self.shuffle_redeal:
            return super().redeal_waste()
        w, s = self.waste, self.stock
        gathered = list(self.cards[w])
        passes = self.redeals - self.vars["redeals"] + 1
        self.rng(passes).shuffle(gathered)
        self._replace(w, [], 0)
        self._replace(s, gathered, len(gathered))
        self._set("redeals", self.vars["redeals"] - 1)
