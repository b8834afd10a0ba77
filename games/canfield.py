"""Canfield, or Demon (000 #12): a reserve of thirteen feeds four columns; any base rank.

The first foundation card fixes the rank all four foundations start from, and they turn the
corner from king to ace. A space in the tableau is filled at once from the reserve, inside
the same move (so one undo takes both back); once the reserve is gone a space waits for a
waste card of the player's choosing. Every tableau pile is a run (it starts as one card and
only fitting cards are added), so Morehead's "whole pile" rule is the ``full_run`` lift.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .cards import RANK
from .model import GameInfo, Move, Option, PileSpec
from .patience import DEAL, REDEAL, Build, PatienceGame, Rule, roles
from .reason import Reason
from .registry import register

VARIANTS = ("standard", "draw_one")


@register
class Canfield(PatienceGame):
    info = GameInfo(
        id="canfield",
        source="000_5c0014aada07c9b6.txt", source_game="12",
        decks=1, kind="S-mixed", difficulty=4,
    )
    options = (
        Option("variant", "standard", VARIANTS,
               help="standard: turn 3, unlimited redeals; draw_one: turn 1, 2 redeals"),
        Option("group_moves", "any_run", ("any_run", "whole_pile"),
               help="any top part of a column in sequence, or only the top card or whole column"),
        Option("tableau_wrap", True, help="a king may be built on an ace in the columns"),
    )
    standard_foundations = False  # any base rank, with wrap: the generic autoplay does not hold
    ACCEPTS_BY_BUILD = True  # accepts() below only changes what an empty column takes
    draw = 3
    redeals = -1
    #: cards dealt face up to the tableau row (Selective Canfield deals one more to choose from)
    ROW = 4

    def prepare(self) -> None:
        if self.opts["variant"] == "draw_one":
            self.draw, self.redeals = 1, 2
        super().prepare()
        self.reserve = self.first("reserve")

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 1.2, 0, fan="right" if self.opts["variant"] == "standard"
                       else "none", autoflip=False)
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 3.6 + 1.2 * i, 0, autoflip=False)
        for i in range(4):
            yield PileSpec(f"T{i + 1}", "tableau", 3.6 + 1.2 * i, 1.6, fan="down", autoflip=False)
        yield PileSpec("R", "reserve", 1.2, 1.6)

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        played = roles("tableau", "waste", "reserve")
        if spec.role == "foundation":
            return Rule(Build("same", +1, wrap=True), empty="base", take="none", max_cards=13,
                        sources=played, name="foundation")
        if spec.role == "tableau":
            take = "run" if self.opts["group_moves"] == "any_run" else "full_run"
            return Rule(Build("alt", -1, wrap=self.opts["tableau_wrap"]), empty="waste",
                        take=take, many=True, sources=played, name="column")
        if spec.role in ("waste", "reserve"):
            return Rule(take="top", empty="none", name=spec.role)
        return Rule(take="none", empty="none", name=spec.role)

    def deal(self, rng) -> None:
        deck = C.deck()
        rng.shuffle(deck)
        for _ in range(13):
            self.put(self.reserve, deck.pop(), up=False)
        for t in self.tableau:
            self.put(t, deck.pop())
        self.deal_row(deck)
        self.init_stock(deck)

    def deal_row(self, deck: list[int]) -> None:
        """The first foundation card, which fixes the base rank."""
        card = deck.pop()
        self.put(self.foundations[0], card)
        self.vars["base"] = RANK[card]

    # ------------------------------------------------------------ moves
    def accepts(self, d: int, s: int, n: int) -> bool:
        if self.rule[d].empty == "waste" and not self.cards[d]:
            return s == self.waste and not self.cards[self.reserve]
        return super().accepts(d, s, n)

    def deal_from_stock(self) -> None:
        """Three at a time, but a last one or two are turned singly."""
        left = len(self.cards[self.stock])
        self._move_cards(self.stock, self.waste, self.draw if left >= self.draw else 1,
                         reverse=True)

    def settle(self) -> None:
        reserve = self.cards[self.reserve]
        for t in self.tableau:
            if reserve and not self.cards[t]:
                self._move_cards(self.reserve, t)
        super().settle()

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        reason = super().explain_card_move(s, d, n)
        if reason.msgid == "That move is not possible now." and not self.cards[d] \
                and self.rule[d].empty == "waste":
            if self.cards[self.reserve]:
                return Reason("An empty column is filled from the reserve.")
            return Reason("Only the top card of the waste can go into an empty column.")
        return reason

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
        a tuple of moves (the turns, then the play), foundation plays apart. Worked out on
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
                        out.append((*made, play) if made else play)
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
