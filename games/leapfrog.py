"""Leapfrog (000 #11): a card jumps onto a touching card of its rank or suit and captures it."""

from __future__ import annotations

from .engine.cards import RANK, SUIT
from .engine.model import GameInfo, Move
from .engine.reason import GameName, Reason
from .engine.registry import register
from .families.grid import CellGame, touching

#: LINKED[x * 52 + y]: cards x and y share a rank or a suit
LINKED = bytes(RANK[x] == RANK[y] or SUIT[x] == SUIT[y] for x in range(52) for y in range(52))


@register
class Leapfrog(CellGame):
    info = GameInfo(
        id="leapfrog",
        source="000_5c0014aada07c9b6.txt", source_game="11",
        decks=1, kind="S-mixed", difficulty=3, score_better="lower",
    )

    def shape(self) -> tuple[int, ...]:
        return (5, 5, 5, 5)

    def prepare(self) -> None:
        super().prepare()
        cell, s = self.cell, self.stock
        pairs = tuple((cell[i], cell[j]) for i, j in touching(4, 5))
        self._touch = frozenset(pairs)
        self._near: dict[int, list[int]] = {p: [] for p in cell}
        for a, b in pairs:
            self._near[a].append(b)
            self._near[b].append(a)
        self._jumps = tuple((a, b, Move("jump", a, b), Move("jump", b, a)) for a, b in pairs)
        self._fills = tuple((p, Move("fill", s, p)) for p in cell)

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        moves = []
        for a, b, there, back in self._jumps:
            x, y = cards[a], cards[b]
            if x and y and LINKED[x[0] * 52 + y[0]]:
                moves.append(there)
                moves.append(back)
        if cards[self.stock]:
            moves.extend(m for p, m in self._fills if not cards[p])
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "jump":
            self.discard_top(move.dst)
            self._move_cards(move.src, move.dst)
        else:
            self.fill_from_stock(move.dst)

    @property
    def won(self) -> bool:
        return self.cards_left == 1

    @property
    def grade(self) -> str | None:
        return "good" if 1 < self.cards_left <= 5 else None

    def explain(self, move: Move) -> Reason:
        kind = move.kind
        if kind == "jump":
            named = self.named_cells(move)
            if isinstance(named, Reason):
                return named
            if len(named) != 2:
                return Reason("A jump names the jumping card and the card it lands on.")
            a, b = named
            if tuple(sorted(named)) not in self._touch:
                return Reason("A card can only jump onto one of the eight cards around it.")
            return Reason("The {card} can only jump onto a card of the same rank or the same "
                          "suit, not onto the {card2}.", card=self.card_at(a),
                          card2=self.card_at(b))
        if kind == "fill":
            if move.src != self.stock or move.dst not in self.cell:
                return Reason("A gap in the layout is filled with the top card of the stock.")
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("Only an empty place can be filled.")
        if kind == "move":
            return Reason("Cards move only by jumping onto a neighbour of the same rank or suit, "
                          "or from the stock into a gap.")
        return Reason("That is not a move in {game}.", game=GameName(self.info.id))
