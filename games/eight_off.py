"""Eight Off (000 #18): eight open columns built down in suit, and eight reserve places.

The source's own rule gives the game its Chinese name: no column may ever hold more than eight
cards. Standard Eight Off has no such cap (option ``column_cap=False``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import ACE, RANK
from .model import GameInfo, Move, Option, PileSpec
from .open_patience import OpenPatience
from .patience import FOUNDATION, Build, Rule, roles
from .reason import Reason
from .registry import register
from .rng import Rng

CAP = 8
_move = Move._make


@register
class EightOff(OpenPatience):
    info = GameInfo(
        id="eight_off",
        source="000_5c0014aada07c9b6.txt", source_game="18",
        decks=1, kind="S-open", difficulty=3,
    )
    options = (
        Option("column_cap", True, (True, False),
               "no column may hold more than 8 cards (the source's rule)"),
    )

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            return FOUNDATION
        if spec.role == "tableau":
            return Rule(Build("same", -1), empty="king", take="top", name="column",
                        max_cards=CAP if self.opts["column_cap"] else 0)
        return Rule(empty="any", take="top", max_cards=1, sources=roles("tableau"),
                    name="reserve place")

    def build_layout(self) -> Iterable[PileSpec]:
        """Reserve along the top and foundations down the right, so the columns have the
        whole height below them."""
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 9.4, round(1.6 * i, 2), label="A")
        for i in range(8):
            yield PileSpec(f"T{i + 1}", "tableau", round(1.15 * i, 2), 1.6, fan="down", label="K")
        for i in range(8):
            yield PileSpec(f"C{i + 1}", "cell", round(1.1 * i, 2), 0)

    def prepare(self) -> None:
        super().prepare()
        self.cells = self.roles["cell"]
        self._movable = self.tableau + self.cells
        self._cap = CAP if self.opts["column_cap"] else 99

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for _ in range(6):
            for t in self.tableau:
                self.put(t, deck.pop())
        for c in self.cells[:4]:
            self.put(c, deck.pop())

    # --------------------------------------------------------------- fast move generation
    def legal_moves(self) -> list[Move]:
        """Single cards: the one card a column top takes is known, so look it up."""
        cards, roles, cap = self.cards, self._role, self._cap
        moves: list[Move] = []
        add = moves.append
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            pile = cards[t]
            if not pile:
                empty.append(t)
            elif len(pile) < cap:
                on_top[pile[-1]] = t
        wanted: dict[int, int] = {}
        free: list[int] = []
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                free.append(f)
            elif RANK[pile[-1]] < 13:
                wanted[pile[-1] + 1] = f
        cells = [c for c in self.cells if not cards[c]]
        for s in self._movable:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            r = RANK[c]
            if r == ACE:
                for f in free:
                    add(_move(("move", s, f, 1, ())))
            elif c in wanted:
                add(_move(("move", s, wanted[c], 1, ())))
            if r < 13:
                d = on_top.get(c + 1)  # the next card up in the same suit
                if d is not None:
                    add(_move(("move", s, d, 1, ())))
            elif empty and (len(pile) > 1 or roles[s] != "tableau"):
                for d in empty:
                    add(_move(("move", s, d, 1, ())))
            if roles[s] == "tableau":
                for d in cells:
                    add(_move(("move", s, d, 1, ())))
        return moves

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        size = len(self.layout)
        if 0 <= s < size and 0 <= d < size and s != d and self.cards[s]:
            if self._role[d] == "cell" and self.cards[d] and self._role[s] == "tableau":
                return Reason("That reserve place is already taken.")
            if self._role[d] == "tableau" and len(self.cards[d]) >= self._cap:
                return Reason("A column may never hold more than {n} cards.", n=CAP)
        return super().explain_card_move(s, d, n)
