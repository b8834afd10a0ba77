"""Royal Marriage (000 #3, 001 #5): clear the row between the queen and the king of hearts."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import HEARTS, KING, QUEEN, card
from .engine.model import DEAL, GameInfo, Move, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.pairing import MATCH, RowGame, row_layout

QH, KH = card(QUEEN, HEARTS), card(KING, HEARTS)
#: the row's places a line, the step from place to place and from line to line (card widths)
ROW_LINE, ROW_DX, ROW_DY = 8, 0.93, 0.7


@register
class RoyalMarriage(RowGame):
    info = GameInfo(
        id="royal_marriage",
        source="000_5c0014aada07c9b6.txt", source_game="3",
        decks=1, kind="S-luck", difficulty=1, score_better="lower",
    )

    def build_layout(self) -> Iterable[PileSpec]:
        # The row may grow to 52 cards, so its places must all fit. Thirteen to a line, each
        # card over a third of the one before, left 64x90 px cards on a portrait screen and
        # the next place's outline reaching a third under the card before it (the queen's, at
        # the deal). Eight places a line, touching (the outline of the next place lies whole
        # beside the last card), each line over the lower half of the one above (the corner
        # index stays in view, as in a fan), makes the cards a fifth larger at 800x480 and
        # over half as large again at 720x1280, where the table moves the stock and the
        # discard above the row.
        yield PileSpec("S", "stock", ROW_LINE * ROW_DX + 0.4, 0)
        yield from row_layout(52, ROW_LINE, dx=ROW_DX, dy=ROW_DY)
        yield PileSpec("D", "discard", ROW_LINE * ROW_DX + 0.4, 1.6)

    def prepare(self) -> None:
        super().prepare()
        self.stock, self.discard = self.first("stock"), self.first("discard")

    def deal(self, rng: Rng) -> None:
        deck = [c for c in range(52) if c not in (QH, KH)]
        rng.shuffle(deck)
        self.put(self.row[0], QH)
        for c in [KH, *deck]:
            self.put(self.stock, c, up=False)

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        cards, row = self.cards, self.row
        tops = [cards[p][-1] for p in row[:self.row_length()]]
        n = len(tops)
        moves = []
        for i in range(n - 2):
            m = MATCH[tops[i]]
            if m[tops[i + 2]]:
                moves.append(Move("remove", row[i], row[i + 2]))
            if i + 3 < n and m[tops[i + 3]]:
                moves.append(Move("remove", row[i], row[i + 3]))
        if cards[self.stock]:
            moves.append(DEAL)
        return moves

    def apply_in_row(self, move: Move) -> None:
        i, j = sorted((self.row_pos[move.src], self.row_pos[move.dst]))
        for k in range(i + 1, j):
            self._move_cards(self.row[k], self.discard, 1)
        self.close_up(i + 1, j - i - 1)

    def canonical(self, move: Move) -> Move:
        """The two outer cards may be named in either order."""
        if move.kind == "remove" and move.src > move.dst:
            move = move._replace(src=move.dst, dst=move.src)
        return move

    @property
    def won(self) -> bool:
        cards, row = self.cards, self.row
        return not cards[self.stock] and bool(cards[row[1]]) and not cards[row[2]]

    @property
    def score(self) -> int:
        return self.row_length() + len(self.cards[self.stock])

    def explain(self, move: Move) -> Reason:
        if move.kind == "deal":
            return Reason("The stock is empty.")
        if move.kind != "remove":
            return Reason("Cards in the row do not move: remove the cards between two cards of "
                          "the same suit or rank.")
        n_piles = len(self.layout)
        if not (0 <= move.src < n_piles and 0 <= move.dst < n_piles):
            return Reason("Pick two cards in the row.")
        i, j = sorted((self.row_pos[move.src], self.row_pos[move.dst]))
        if i < 0 or not self.cards[move.src] or not self.cards[move.dst]:
            return Reason("Pick two cards in the row.")
        if j - i not in (2, 3):
            return Reason("Exactly one or two cards must lie between the two cards.")
        return Reason("The two outer cards must have the same suit or the same rank.")
