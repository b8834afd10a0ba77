"""Make Ten (000 #7): remove pairs adding up to ten and quartets of 10-J-Q-K."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from .engine.cards import RANK, SUIT
from .engine.model import GameInfo, Move, Option
from .engine.reason import Reason
from .engine.registry import register
from .families.grid import CellGame

QUARTETS = ("same_suit", "same_rank")


@register
class MakeTen(CellGame):
    info = GameInfo(
        id="make_ten",
        source="000_5c0014aada07c9b6.txt", source_game="7",
        decks=1, kind="S-luck", difficulty=3, score_better="lower",
    )
    options = (
        Option("face_quartet", "same_suit", QUARTETS,
               "remove 10-J-Q-K of one suit (source), or four of a rank (standard Tens)"),
    )

    def shape(self) -> tuple[int, ...]:
        return (5, 5, 3)

    def prepare(self) -> None:
        super().prepare()
        self.same_rank = self.opts["face_quartet"] == "same_rank"

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for p in self.cell:
            if cards[p]:
                by_rank[RANK[cards[p][0]]].append(p)
        moves: list[Move] = []
        for r in range(1, 6):
            pairs: Iterable[tuple[int, int]]
            if r == 5:
                pairs = combinations(by_rank[5], 2)
            else:
                pairs = ((a, b) for a in by_rank[r] for b in by_rank[10 - r])
            moves.extend(self.removal(pair) for pair in pairs)
        moves.extend(self.removal(group) for group in self.quartets(by_rank))
        return moves

    def quartets(self, by_rank: list[list[int]]) -> list[list[int]]:
        if self.same_rank:
            return [by_rank[r] for r in range(10, 14) if len(by_rank[r]) == 4]
        found = []
        for s in range(4):
            group = [p for r in range(10, 14) for p in by_rank[r]
                     if SUIT[self.cards[p][0]] == s]
            if len(group) == 4:
                found.append(group)
        return found

    def apply(self, move: Move) -> None:
        self.discard_top(move.src, move.dst, *move.extra)

    def settle(self) -> None:
        """Every emptied place is refilled at once from the stock."""
        self.refill_empty(self.cell, self.stock)

    @property
    def score(self) -> int:
        return len(self.cards[self.stock])

    @property
    def grade(self) -> str | None:
        return "good luck" if not self.won and self.score <= 10 else None

    not_moved = Reason("Cards are not moved here: remove two cards that add up to 10.")

    def explain_removal(self, named: list[int]) -> Reason:
        cs = [self.cards[p][0] for p in named]
        if len(cs) == 2:
            if any(RANK[c] >= 10 for c in cs):
                return Reason("A 10, jack, queen or king can only be removed in a set of four.")
            total = RANK[cs[0]] + RANK[cs[1]]
            return Reason("The {card} and the {card2} add up to {n}, not 10.",
                          card=self.card_at(named[0]), card2=self.card_at(named[1]), n=total)
        if len(cs) == 4:
            if self.same_rank:
                return Reason("Four cards can go only if they are four 10s, four jacks, four "
                              "queens or four kings.")
            return Reason("Four cards can go only if they are the 10, jack, queen and king of one "
                          "suit.")
        return Reason("Remove two cards that add up to 10, or a set of four.")
