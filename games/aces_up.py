"""Aces Up (000 #1): discard every card that a higher card of its suit outranks; keep the aces."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .engine.cards import RANK, SUIT
from .engine.game import Game
from .engine.model import DEAL, GameInfo, Move, Option, PileSpec
from .engine.reason import Card, Reason, Suit
from .engine.registry import register
from .engine.rng import Rng

#: discarding order: the ace is high
HIGH = tuple(14 if RANK[c] == 1 else RANK[c] for c in range(52))


def highest_tops(piles: Iterable[Sequence[int]]) -> list[int]:
    """Per suit, the highest card (ace high) on top of a pile: a top card lower than its
    suit's may be discarded."""
    best = [0, 0, 0, 0]
    for p in piles:
        if p:
            c = p[-1]
            if HIGH[c] > best[SUIT[c]]:
                best[SUIT[c]] = HIGH[c]
    return best


@register
class AcesUp(Game):
    info = GameInfo(
        id="aces_up",
        source="000_5c0014aada07c9b6.txt", source_game="1",
        decks=1, kind="S-luck", difficulty=2, score_better="higher",
    )
    options = (
        Option("deal_only_when_stuck", False,
               help="deal the next four cards only when no card can be discarded"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(4):
            yield PileSpec(f"T{i + 1}", "tableau", 1.6 + 1.2 * i, 0, fan="down")
        yield PileSpec("D", "discard", 6.6, 0)

    def prepare(self) -> None:
        self.stock, self.discard = self.first("stock"), self.first("discard")
        self.tableau = self.roles["tableau"]

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        self.put_stock(self.stock, deck)
        self.deal_row()

    def deal_row(self) -> None:
        for t in self.tableau:
            if self.cards[self.stock]:
                self._move_cards(self.stock, t, 1)

    # ------------------------------------------------------------------ moves
    def discardable(self) -> list[int]:
        """Columns whose top card a higher top card of the same suit outranks."""
        best = highest_tops(self.cards[t] for t in self.tableau)
        tops = [(t, self.cards[t][-1]) for t in self.tableau if self.cards[t]]
        return [t for t, c in tops if HIGH[c] < best[SUIT[c]]]

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        moves = [Move("move", t, self.discard) for t in self.discardable()]
        stuck = not moves
        empty = [t for t in self.tableau if not cards[t]]
        if empty:
            # a lone card moved to another empty pile would change nothing
            moves += [Move("move", s, e) for s in self.tableau if len(cards[s]) > 1
                      for e in empty]
        if cards[self.stock] and (stuck or not self.opts["deal_only_when_stuck"]):
            moves.append(DEAL)
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "deal":
            self.deal_row()
        else:
            self._move_cards(move.src, move.dst, 1)

    @property
    def won(self) -> bool:
        return len(self.cards[self.discard]) == 48

    @property
    def score(self) -> int:
        return len(self.cards[self.discard])

    def card_targets(self, src: int) -> list[int]:
        return [self.discard] if src in self.tableau else []

    def explain(self, move: Move) -> Reason:
        cards = self.cards
        if move.kind == "deal":
            if not cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("You may deal only when no card can be discarded.")
        if move.kind != "move":
            return Reason("In Aces Up you discard cards, fill empty piles or deal.")
        s, d = move.src, move.dst
        if s not in self.tableau:
            return Reason("Only the top card of a pile can be moved.")
        if not cards[s]:
            return Reason("That pile is empty.")
        if move.n != 1:
            return Reason("Only one card can be moved at a time.")
        c = cards[s][-1]
        if d == self.discard:
            if RANK[c] == 1:
                return Reason("Aces are the highest cards and are never discarded.")
            return Reason("The {card} can be discarded only when a higher {suit:one} is on "
                          "top of another pile.", card=Card(c), suit=Suit(SUIT[c]))
        if d not in self.tableau:
            return Reason("Cards can only go to the discard pile or into an empty pile.")
        if cards[d]:
            return Reason("A card can only be moved into an empty pile.")
        return Reason("That card is already alone in its pile.")
