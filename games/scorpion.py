"""Scorpion (000 #21): build each suit from king to ace inside the columns themselves.

Any face-up card may be lifted with everything lying on it, in whatever order, onto the next
card up of its suit; so the only card a column top accepts is known in advance, and move
generation looks cards up instead of trying every pair. There are no foundations: success is
counted in complete K→A sequences, which the source grades from "pass" to a total win.
"""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import KING, RANK
from .engine.model import DEAL, GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import Build, PatienceGame, Rule

GRADES = (None, "pass", "good", "excellent", "win")


@register
class Scorpion(PatienceGame):
    info = GameInfo(
        id="scorpion",
        source="000_5c0014aada07c9b6.txt", source_game="21",
        decks=1, kind="S-mixed", difficulty=4,
    )
    options = (
        Option("reserve_deal", "any_time", ("any_time", "when_stuck"),
               "when the 3 reserve cards may be dealt"),
    )
    RULES = {"tableau": Rule(Build("same", -1), empty="king", take="any_up", many=True,
                             name="column")}

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(7):
            x = round(1.4 + 1.2 * i, 2)
            yield PileSpec(f"T{i + 1}", "tableau", x, 0, fan="down", label="K")

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for row in range(7):
            for col, t in enumerate(self.tableau):
                self.put(t, deck.pop(), up=row >= 3 or col >= 4)
        self.put_stock(self.stock, deck)

    def legal_moves(self) -> list[Move]:
        cards, down = self.cards, self.down
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            col = cards[t]
            if not col:
                empty.append(t)
            elif down[t] < len(col):
                on_top[col[-1]] = t
        moves: list[Move] = []
        for s in self.tableau:
            col = cards[s]
            size = len(col)
            for k in range(down[s], size):
                c = col[k]
                if RANK[c] == KING:
                    if k:  # a king already at the bottom gains nothing from an empty column
                        moves.extend(Move("move", s, d, size - k) for d in empty)
                else:
                    d = on_top.get(c + 1)  # the next card up in the same suit
                    if d is not None and d != s:
                        moves.append(Move("move", s, d, size - k))
        if self.cards[self.stock] and (self.opts["reserve_deal"] == "any_time" or not moves):
            moves.append(DEAL)
        return moves

    def stock_moves(self, moves: list[Move]) -> None:
        """The reserve is dealt by :meth:`legal_moves` itself; there is no waste."""

    def accepts(self, d: int, s: int, n: int) -> bool:
        if n == len(self.cards[s]) and not self.cards[d]:
            return False
        return super().accepts(d, s, n)

    def deal_from_stock(self) -> None:
        for t in self.tableau[:3]:
            if not self.cards[self.stock]:
                break
            self._move_cards(self.stock, t)

    # ------------------------------------------------------------------ results
    @property
    def sequences(self) -> int:
        """Complete K→A runs of one suit, face up and contiguous within a column."""
        found = 0
        for t in self.tableau:
            col = self.cards[t]
            for k in range(self.down[t], len(col) - 12):
                c = col[k]
                if RANK[c] == KING and col[k:k + 13] == list(range(c, c - 13, -1)):
                    found += 1
        return found

    @property
    def won(self) -> bool:
        return self.sequences == 4

    @property
    def score(self) -> int:
        return self.sequences

    @property
    def grade(self) -> str | None:
        return GRADES[self.sequences]

    def explain(self, move: Move) -> Reason:
        if move.kind == "deal":
            if not self.cards[self.stock]:
                return Reason("The reserve has already been dealt.")
            return Reason("The reserve may be dealt only when no other move is left.")
        if move.kind == "redeal":
            return Reason("Scorpion has no redeal.")
        return super().explain(move)

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if self.layout[s].role == "stock":
            return Reason("Tap the reserve to deal its cards onto the first three columns.")
        if self.layout[d].role == "stock":
            return Reason("Cards cannot be put back on the reserve.")
        if (s != d and self.cards[s]
                and n == len(self.cards[s]) and n in self.liftable(s)
                and super().accepts(d, s, n)):
            return Reason("Moving a whole column into an empty one would change nothing.")
        return super().explain_card_move(s, d, n)
