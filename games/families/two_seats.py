"""A match of hands between the visitor and one computer seat (Gin Rummy, Follow the Rules).

Why a family: how such a match deals (a fresh shuffle for every hand, the dealer
alternating, the cards one at a time from the non-dealer), what playing a card from a hand
does to the computer's face-down count, who has won the match and the refusals between two
hands do not depend on the game, so the next two-player card game (the trick family has
more members in the seeds' tradition) writes only its own rules on top of them.
"""

from __future__ import annotations

from typing import Any

from ..engine.model import Move
from ..engine.move_notation import move_text
from ..engine.reason import Reason
from ..engine.rng import Rng
from .seats import SeatedGame, between_hands

#: a deal of the next hand: its number, the dealer, the stock left and the two hands
NextHand = tuple[int, int, list[int], tuple[list[int], list[int]]]


class TwoSeatMatch(SeatedGame):
    """Seat 0 (the visitor) against seat 1 (the computer), hand after hand, until the match
    ends in the phase ``match``; ``vars`` hold ``hand_no``, ``dealer`` and ``scores``."""

    def _next_hand(self, size: int) -> NextHand:
        """Gather every card and deal the next hand's ``size`` cards each, one at a time,
        the non-dealer first; the first hand's dealer is the deal's, then it alternates.
        Nothing is set: the game lays the cards out as its rules say."""
        number = self.vars["hand_no"] + 1
        dealer = self.vars["dealer"] if number == 1 else 1 - self.vars["dealer"]
        deck = list(range(52))
        Rng(self.seed, number).shuffle(deck)
        first = 1 - dealer
        hands: tuple[list[int], list[int]] = ([], [])
        for k in range(2 * size):
            hands[(first + k) % 2].append(deck.pop())
        return number, dealer, deck, hands

    def _lay_hands(self, hands: tuple[list[int], list[int]]) -> None:
        """The visitor's hand face up, the computer's face down."""
        self._replace(self.hands[0], hands[0], 0)
        self._replace(self.hands[1], hands[1], len(hands[1]))

    def _play_from_hand(self, seat: int, card: int) -> None:
        """Take ``card`` out of ``seat``'s hand (the computer's stays face down)."""
        mine = self.hands[seat]
        rest = [c for c in self.cards[mine] if c != card]
        self._replace(mine, rest, len(rest) if self.is_computer(seat) else 0)

    def _show_hand(self, seat: int) -> None:
        pile = self.hands[seat]
        self._replace(pile, list(self.cards[pile]), 0)

    # ------------------------------------------------------------------ results
    def match_winner(self) -> int:
        """The seat that has won the match once it is over, -1 for nobody (yet)."""
        raise NotImplementedError

    @property
    def final_scores(self) -> tuple[int, int]:
        """The match points (visitor, computer), the figures a table and the log show."""
        a, b = self.vars["scores"]
        return a, b

    @property
    def won(self) -> bool:
        return self.phase == "match" and self.match_winner() == 0

    @property
    def lost(self) -> bool:
        return self.phase == "match" and self.match_winner() == 1

    @property
    def score(self) -> int:
        return self.final_scores[0]

    # ------------------------------------------------------------------ moves
    def notation(self, move: Move) -> str:
        return move_text(move)

    def between_hands(self, move: Move) -> Reason | None:
        """Why ``move`` is refused when the match or the hand is over, or when it asks for
        the next hand too early; None when the hand is under way and the move is of it."""
        return between_hands(self.phase, move.kind, "match", Reason("The match is over."))


def with_seat(pair: tuple, seat: int, value: Any) -> tuple:
    """``pair`` with ``seat``'s place replaced by ``value``."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)
