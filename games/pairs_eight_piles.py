"""Pairs, Eight Piles (000 #5): pair off the eight piles, with a turned row of three stock cards."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import RANK
from .engine.game import Game
from .engine.model import DEAL, GameInfo, Move, Option, PileSpec
from .engine.reason import Card, Reason
from .engine.registry import register
from .engine.rng import Rng


@register
class PairsEightPiles(Game):
    info = GameInfo(
        id="pairs_eight_piles",
        source="000_5c0014aada07c9b6.txt", source_game="5",
        decks=1, kind="S-luck", difficulty=2, score_better="lower",
    )
    options = (
        Option("deal_any_time", False, (False, True),
               "turn a stock card whenever the row has room, even if a pair is available"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(3):
            yield PileSpec(f"W{i + 1}", "waste", 1.4 + 1.2 * i, 0)
        for i in range(8):
            r, c = divmod(i, 4)
            yield PileSpec(f"T{i + 1}", "tableau", 0.6 + 1.4 * c, 1.8 + 2.3 * r, fan="down")
        yield PileSpec("D", "discard", 5.4, 0)

    def prepare(self) -> None:
        self.stock = self.first("stock")
        self.row = tuple(self.roles["waste"])
        self.piles = tuple(self.roles["tableau"])
        self.available = self.row + self.piles
        self.discard = self.first("discard")

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for up in (False, False, False, True):
            for p in self.piles:
                self.put(p, deck.pop(), up)
        self.put_stock(self.stock, deck)

    # ------------------------------------------------------------------ rules
    def legal_moves(self) -> list[Move]:
        cards = self.cards
        seen: dict[int, list[int]] = {}
        moves: list[Move] = []
        for p in self.available:
            if cards[p]:
                group = seen.setdefault(RANK[cards[p][-1]], [])
                moves.extend(Move("remove", q, p) for q in group)
                group.append(p)
        if self.can_turn(bool(moves)):
            moves.append(DEAL)
        return moves

    def can_turn(self, pair_available: bool) -> bool:
        cards = self.cards
        return (bool(cards[self.stock]) and not cards[self.row[-1]]
                and (self.opts["deal_any_time"] or not pair_available))

    def apply(self, move: Move) -> None:
        cards, row = self.cards, self.row
        if move.kind == "deal":
            self._move_cards(self.stock, next(p for p in row if not cards[p]))
            return
        self._move_cards(move.src, self.discard)
        self._move_cards(move.dst, self.discard)
        # keep the turned row packed to the left, so equal rows give equal keys
        for i in range(len(row) - 1):
            if not cards[row[i]]:
                for j in range(i + 1, len(row)):
                    if cards[row[j]]:
                        self._move_cards(row[j], row[i])
                        break

    #: ``remove:T5,W1`` names the same cards as ``remove:W1,T5``
    unordered = ("remove",)

    @property
    def won(self) -> bool:
        return not any(self.cards[p] for p in self.piles)

    @property
    def score(self) -> int:
        return sum(len(self.cards[p]) for p in self.piles)

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        kind = move.kind
        if kind == "deal":
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            if self.cards[self.row[-1]]:
                return Reason("The turned row already holds 3 cards: pair some of them first.")
            return Reason("A pair can still be made; turn a card only when no pair is left.")
        if kind == "move":
            return Reason("Cards are not moved here: remove two available cards of the same rank.")
        if kind != "remove":
            return Reason("That is not a move in Pairs.")
        piles = [p for p in (move.src, move.dst, *move.extra) if p >= 0]
        if len(piles) != 2 or piles[0] == piles[1]:
            return Reason("Remove two different cards at a time.")
        if any(p not in self.available for p in piles):
            return Reason("Only the top cards of the piles and the turned cards can be paired.")
        if any(not self.cards[p] for p in piles):
            return Reason("There is no card there.")
        a, b = (self.cards[p][-1] for p in piles)
        return Reason("The {card} and the {card2} are not the same rank.", card=Card(a),
                      card2=Card(b))
