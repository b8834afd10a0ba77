"""Take Three (000 #17): an open Klondike in seven columns with a holding area of three cards."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import Build, PatienceGame, Rule, roles

HOLD = 3


@register
class TakeThree(PatienceGame):
    info = GameInfo(
        id="take_three",
        source="000_5c0014aada07c9b6.txt", source_game="17",
        decks=1, kind="S-open", difficulty=4,
    )
    twin_roles = frozenset({"tableau"})
    options = (
        Option("partial_runs", False, (False, True),
               "any top part of a run may move, not only the complete run"),
        Option("hold_limit", "at_once", ("at_once", "in_total"),
               "three cards held at one time, or three take-downs in the whole game"),
        Option("held_to_foundation", True, (False, True),
               "a held card may go straight to a foundation"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 3.6 + 1.2 * i, 0, label="A")
        for i in range(7):
            yield PileSpec(f"T{i + 1}", "tableau", 1.2 * i, 1.6, fan="down", label="K")
        for i in range(HOLD):
            yield PileSpec(f"C{i + 1}", "cell", 1.2 * i, 0)

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            sources = ("tableau", "cell") if self.opts["held_to_foundation"] else ("tableau",)
            return Rule(Build("same", +1), empty="ace", take="top", max_cards=13,
                        sources=roles(*sources), name="foundation")
        if spec.role == "tableau":
            take = "run" if self.opts["partial_runs"] else "full_run"
            return Rule(Build("alt", -1), empty="king", take=take, many=True, name="column")
        return Rule(empty="any", take="top", max_cards=1, sources=roles("tableau"),
                    name="holding place")

    def prepare(self) -> None:
        super().prepare()
        self.cells = self.roles["cell"]
        self.in_total = self.opts["hold_limit"] == "in_total"

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        self.deal_rows(self.tableau, deck, 7)
        for t in self.tableau[:3]:
            self.put(t, deck.pop())
        if self.in_total:
            self.vars["taken"] = 0

    def legal_moves(self) -> list[Move]:
        moves = super().legal_moves()
        if self.in_total and self.vars["taken"] >= HOLD:
            cells = set(self.cells)
            moves = [m for m in moves if m.dst not in cells]
        return moves

    def apply(self, move: Move) -> None:
        super().apply(move)
        if self.in_total and move.dst in self.cells:
            self._set("taken", self.vars["taken"] + 1)

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if self._role[d] == "cell" and self._role[s] == "tableau" and self.cards[s]:
            if self.in_total and self.vars["taken"] >= HOLD:
                return Reason("You have already taken down three cards in this game.")
            if self.cards[d]:
                if all(self.cards[c] for c in self.cells):
                    return Reason("The holding area is full: put a held card back first.")
                return Reason("That holding place is taken; use an empty one.")
            if n > 1:
                return Reason("Only one card at a time can be taken down.")
        if self._role[s] == "cell" and self.cards[s] and self._role[d] == "foundation" \
                and not self.opts["held_to_foundation"]:
            return Reason("With these rules a held card must go back onto a column first.")
        return super().explain_card_move(s, d, n)
