"""La Belle Lucie (000 #24 and 003): eighteen fans, build down in suit, two shuffled redeals.

The class is also the base of the family of 003 (Trefoil, The Fan, Three Shuffles and a Draw,
Shamrocks). The members differ only in the fan-building rule, what an empty fan takes, how
many cards a fan holds, how many redeals there are and whether the final "draw" of a buried
card is allowed, so a variant sets a few class attributes and the moves come from here.

Move generation is a table lookup rather than the generic all-pairs scan of
:class:`PatienceGame`: every fan top is a distinct card, so the fans a card can go on are found
by asking which of the few cards it fits on are fan tops. A solver calls it millions of times.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from .engine import cards as C
from .engine.cards import RANK
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Card, Reason
from .engine.registry import register
from .families.patience import FOUNDATION, REDEAL, Build, PatienceGame, Rule, onto_for


@register
class LaBelleLucie(PatienceGame):
    info = GameInfo(
        id="la_belle_lucie",
        source="000_5c0014aada07c9b6.txt", source_game="24; also 003_a9f4e6f80390d395.txt",
        decks=1, kind="S-mixed", difficulty=4,
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option("any_suit", False, help="build down on the fans regardless of suit (variant 1)"),
        Option("draw", False, help="after the last redeal, once, play one buried card (000 base)"),
        Option("redeal_any_time", False, help="redeal (and draw) without waiting to be stuck"),
        Option("king_rule", False, help="a king may be moved into an empty fan"),
        Option("redeals", 2, (2, 1, 0), help="shuffled redeals allowed"),
    )

    #: how many fan places the layout has (the most a deal or redeal can fill)
    FANS = 18
    #: Trefoil puts the aces on the foundations before the deal
    ACES_FIRST = False
    fan_build = Build("same", -1)
    fan_empty = "none"
    fan_limit = 0
    redeals = 2
    #: the final draw of one buried card (the *merci*)
    merci = False

    def prepare(self) -> None:
        opts = self.opts
        if opts.get("any_suit"):
            self.fan_build = Build("any", -1)
        if opts.get("king_rule"):
            self.fan_empty = "king"
        self.redeals = opts.get("redeals", self.redeals)
        self.merci = opts.get("draw", self.merci)
        self.any_time = opts.get("redeal_any_time", False)
        super().prepare()
        self._onto = onto_for(frozenset((self.fan_build,)), 1)  # per card, what it fits on
        self._draw_targets = self.foundations + self.tableau

    def build_layout(self) -> Iterable[PileSpec]:
        kings = self.fan_empty == "king" or self.opts.get("king_rule")
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 2.8 + 1.2 * i, 0, label="A", autoflip=False)
        for i in range(self.FANS):
            row, col = divmod(i, 6)
            yield PileSpec(f"T{i + 1}", "tableau", 1.7 * col, 1.6 * (row + 1), fan="right",
                           label="K" if kings else "", autoflip=False)

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            return FOUNDATION
        return Rule(self.fan_build, empty=self.fan_empty, take="top",
                    max_cards=self.fan_limit, name="fan")

    def deal(self, rng) -> None:
        deck = C.deck()
        if self.ACES_FIRST:
            for f, ace in zip(self.foundations, [c for c in deck if RANK[c] == 1], strict=True):
                self.put(f, ace)
            deck = [c for c in deck if RANK[c] != 1]
        rng.shuffle(deck)
        for i, c in enumerate(deck):
            self.put(self.tableau[i // 3], c)
        self.vars["redeals"] = self.redeals
        self.vars["drawn"] = False

    # ------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        """Single cards, by the shared generator (fans lift their top card only), then the
        redeal and the draw."""
        moves = self.single_card_moves(self.tableau, self._onto)
        self.extra_moves(moves)
        return moves

    def extra_moves(self, moves: list[Move]) -> None:
        """The redeal and the draw, both only when no card can move (unless any time)."""
        if moves and not self.any_time:
            return
        if self.vars["redeals"] > 0:
            if any(self.cards[t] for t in self.tableau):
                moves.append(REDEAL)
        elif self.merci and not self.vars["drawn"]:
            cards = self.cards
            for s in self.tableau:
                fan = cards[s]
                for depth in range(2, len(fan) + 1):
                    c = fan[-depth]
                    moves.extend(Move("draw", s, d, depth) for d in self._draw_targets
                                 if self.takes(d, c, s))

    def takes(self, d: int, c: int, s: int) -> bool:
        """Whether pile ``d`` could take card ``c`` pulled out from under the top of fan ``s``."""
        rule, pile = self.rule[d], self.cards[d]
        if rule.max_cards and len(pile) - (d == s) >= rule.max_cards:
            return False
        if not pile:
            return self.empty_accepts(d, c)
        return rule.build is not None and rule.build.fits(c, pile[-1])

    def apply(self, move: Move) -> None:
        if move.kind == "move":
            self._move_cards(move.src, move.dst, move.n)
        elif move.kind == "redeal":
            self.redeal()
        elif move.kind == "draw":
            self.draw_buried(move.src, move.dst, move.n)
        else:
            raise ValueError(f"{self.info.id} has no move {move.kind!r}")

    def redeal(self) -> None:
        """Gather the fans in order, shuffle with the redeal's own stream, deal in threes."""
        left = self.vars["redeals"]
        gathered = [c for t in self.tableau for c in self.cards[t]]
        self.rng(self.redeals - left + 1).shuffle(gathered)
        for i, t in enumerate(self.tableau):
            self._replace(t, gathered[3 * i:3 * i + 3], 0)
        self._set("redeals", left - 1)

    def draw_buried(self, s: int, d: int, depth: int) -> None:
        """Pull the card ``depth`` from the top of fan ``s`` out and play it onto ``d``."""
        fan = self.cards[s]
        k = len(fan) - depth
        self._replace(s, fan[:k] + fan[k + 1:] + [fan[k]], 0)
        if d != s:
            self._move_cards(s, d)
        self._set("drawn", True)

    # ------------------------------------------------------------ for players and the solver
    def explain(self, move: Move) -> Reason:
        if move.kind == "redeal":
            return self.explain_redeal()
        if move.kind == "draw":
            return self.explain_draw(move)
        return super().explain(move)

    def _card_moves_left(self) -> bool:
        return any(m.kind == "move" for m in self.legal_moves())

    def explain_redeal(self) -> Reason:
        if not self.redeals:
            return Reason("This game has no redeals.")
        if self.vars["redeals"] <= 0:
            return Reason("All the redeals have been used.")
        if not self.any_time and self._card_moves_left():
            return Reason("You may only redeal when no card can move.")
        return Reason("There are no cards left to redeal.")

    def explain_draw(self, move: Move) -> Reason:
        if not self.merci:
            return Reason("This game has no draw.")
        if self.vars["drawn"]:
            return Reason("The draw has already been used.")
        if self.vars["redeals"] > 0:
            return Reason("The draw comes only after the last redeal.")
        if not self.any_time and self._card_moves_left():
            return Reason("You may only draw a card when no other card can move.")
        s, d, depth = move.src, move.dst, move.n
        if s not in self.tableau or not 2 <= depth <= len(self.cards[s]):
            return Reason("Only a buried card, one that is not on top of its fan, can be drawn.")
        c = self.cards[s][-depth]
        if d not in self._draw_targets:
            return Reason("A drawn card must go to a foundation or onto a fan.")
        return Reason("The {card} does not fit there.", card=Card(c))

    def describe(self, move: Move) -> str:
        fan = self.cards[move.src] if move.kind == "draw" and move.src in self.tableau else []
        if 2 <= move.n <= len(fan):
            ids = self.layout[move.src].id, self.layout[move.dst].id
            return f"draw {C.pretty(fan[-move.n])} {ids[0]} → {ids[1]}"
        return super().describe(move)
