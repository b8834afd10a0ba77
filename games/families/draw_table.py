"""Draw games at a betting table: each seat throws away cards once and draws as many, and a
chips visit ends when the visitor has none or nobody else has any.

Why a family: the exchange (the discards face down on the waste, a new stock shuffled from
them when the old one runs short, the computer's new cards face down) and the moves and
words that name it do not depend on the betting or on how hands rank, so another draw game
(Lowball, a draw with a different deck) keeps only its own rules. The moves are written
``kind`` or ``draw:7C+TD`` (:func:`games.engine.move_notation.cards_text`).
"""

from __future__ import annotations

from collections.abc import Container, Sequence

from ..engine.model import IllegalMove, Move
from ..engine.move_notation import cards_text, parse_cards
from ..engine.rng import Rng
from .betting import BettingTable
from .seats import VISITOR

#: the stream of the new stocks shuffled from the discards, apart from the deals'
_RESTOCK_STREAM = 0xD0 << 40


class DrawTable(BettingTable):
    """A betting table whose hands are exchanged once; ``stock`` and ``waste`` are piles."""

    stock: int
    waste: int

    def _deal_hands(self, deck: list[int], order: Sequence[int], size: int) -> None:
        """``size`` cards each from ``deck`` to the seats of ``order``, one at a time; the
        rest is the stock, the waste is empty; only the visitor's hand lies face up."""
        hands: list[list[int]] = [[] for _ in range(self.n)]
        for _ in range(size):
            for s in order:
                hands[s].append(deck.pop())
        self._replace(self.stock, deck, len(deck))
        self._replace(self.waste, [], 0)
        for s in range(self.n):
            self._replace(self.hands[s], hands[s], 0 if s == VISITOR else len(hands[s]))

    def exchanges(self, hand: Sequence[int]) -> list[Move]:
        """Standing pat, then every set of the five cards of ``hand`` that may be thrown
        away."""
        cards = sorted(hand)
        moves = [Move("stand")]
        for mask in range(1, 32):
            moves.append(Move("draw", extra=tuple(c for i, c in enumerate(cards)
                                                  if mask >> i & 1)))
        return moves

    def _exchange(self, s: int, out: tuple[int, ...]) -> None:
        """Seat ``s`` throws ``out`` away and draws as many; noted in ``drawn``/``thrown``."""
        mine = self.hands[s]
        keep = [c for c in self.cards[mine] if c not in out]
        hidden = self.is_computer(s)
        self._replace(mine, keep, len(keep) if hidden else 0)
        waste = self.cards[self.waste]
        if len(self.cards[self.stock]) < len(out):  # the discards become a new stock
            fresh = self.cards[self.stock] + waste
            Rng(self.seed, _RESTOCK_STREAM + len(self.history)).shuffle(fresh)
            self._replace(self.stock, fresh, len(fresh))
            waste = []
        self._replace(self.waste, [*waste, *out], len(waste) + len(out))
        for _ in out:
            self._move_cards(self.stock, mine, 1, up=not hidden)
        self._mark("drawn", s, len(out))
        self._mark("thrown", s, tuple(out))

    # ------------------------------------------------------------------ results
    def chips_over(self, chips: Sequence[int]) -> bool:
        return chips[VISITOR] == 0 or all(c == 0 for c in chips[1:])

    @property
    def won(self) -> bool:
        return self.phase == "over" and self.vars["chips"][VISITOR] > 0

    @property
    def lost(self) -> bool:
        return self.phase == "over" and self.vars["chips"][VISITOR] == 0

    @property
    def score(self) -> int:
        return self.vars["chips"][VISITOR]


def draw_notation(move: Move) -> str:
    return "draw:" + cards_text(move.extra) if move.kind == "draw" else move.kind


def parse_draw_move(game_id: str, text: str, kinds: Container[str], deck: Container[int]
                    ) -> Move:
    """``draw:CARDS`` (cards of ``deck``) or one of the other ``kinds`` alone."""
    t = text.strip() if isinstance(text, str) else ""
    kind, colon, rest = t.partition(":")
    if kind == "draw" and colon and (out := parse_cards(rest, deck)):
        return Move("draw", extra=out)
    if kind in kinds and kind != "draw" and not colon:
        return Move(kind)
    raise IllegalMove(f"not a move of {game_id}: {text!r}")

