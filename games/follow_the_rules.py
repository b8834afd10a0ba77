"""Follow the Rules (001 #8): the source's deal, completed as Shasta Sam (GAMES.md §B6).

Only the deal survives in the source (6 cards each, one at a time; the stock's top card
turned face up and put under the stock). Everything after it is the labelled
reconstruction: that card's suit is trumps and it is the last card drawn, the non-dealer
leads, the second player must follow suit or trump (any card when it can do neither), the
trick's winner draws first and leads, the last six tricks are played out from the hands,
and High, Low, Jack and Game score a point each, in a match to 10 (option: 7).

The trump card lies in a pile of its own (``R``) so the stock stays a plain face-down pile;
drawing takes from ``S`` and, when that is empty, the trump card from ``R``.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import players
from .engine import cards as C
from .engine.model import GameInfo, IllegalMove, Move, Option, PileSpec
from .engine.move_notation import parse_text
from .engine.reason import Card, Reason, Suit
from .engine.registry import register
from .engine.rng import Rng
from .families import trick_records
from .families.seats import LEVEL, View, move_shape_problem
from .families.trick_records import HandResult
from .families.trick_view import seat_view
from .families.tricks import may_follow, score_all_fours, trick_winner
from .families.two_seats import TwoSeatMatch

HAND_SIZE = 6
TARGET_CHOICES = (10, 7)
KINDS = ("play", "next")


@register
class FollowTheRules(TwoSeatMatch):
    info = GameInfo(
        id="follow_the_rules",
        source="001_bf5637845a306030.txt", source_game="8",
        decks=1, kind="MP", difficulty=3, score_better="higher",
    )
    options = (
        Option("target", 10, TARGET_CHOICES,
               help="points that win the match: 10, or 7 as in Foster's Hoyle"),
        LEVEL,
    )
    computer_version = "trick-1"
    computer_players = players
    records = trick_records

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 1.8, autoflip=False)
        yield PileSpec("T", "waste", 2.4, 1.8, fan="right")
        yield PileSpec("R", "reserve", 0.3, 1.8)
        yield PileSpec("H1", "hand", 0, 3.6, fan="right", autoflip=False)
        yield PileSpec("H2", "hand", 0, 0, fan="right", autoflip=False)
        yield PileSpec("C1", "discard", 5, 3.6)
        yield PileSpec("C2", "discard", 5, 0)

    def prepare(self) -> None:
        self.stock, self.trick, self.turned = self.index["S"], self.index["T"], self.index["R"]
        self.hands = (self.index["H1"], self.index["H2"])
        self.captured = (self.index["C1"], self.index["C2"])

    # ------------------------------------------------------------------ dealing
    def deal(self, rng: Rng) -> None:
        self.vars.update(hand_no=0, dealer=rng.below(2), scores=(0, 0), results=(),
                         winner=-1)
        self._deal_hand()

    def _deal_hand(self) -> None:
        """Gather the cards and deal the next hand as the source says: one card at a time
        to each player, six rounds, the non-dealer first; the stock's top card is turned
        and put face up under the stock. The dealer alternates."""
        number, dealer, deck, hands = self._next_hand(HAND_SIZE)
        first = 1 - dealer
        turned = deck.pop()
        self._replace(self.stock, deck, len(deck))
        self._replace(self.turned, [turned], 0)
        self._replace(self.trick, [], 0)
        self._lay_hands(hands)
        for seat in (0, 1):
            self._replace(self.captured[seat], [], 0)
        self._set_all((("hand_no", number), ("dealer", dealer), ("turn", first),
                       ("leader", first), ("phase", "lead"), ("trump", C.SUIT[turned]),
                       ("trump_card", turned), ("last", ()), ("result", ())))

    # ------------------------------------------------------------------ state
    @property
    def trump(self) -> int:
        return self.vars["trump"]

    def stock_left(self) -> int:
        """Cards still to be drawn, the trump card under the stock included."""
        return len(self.cards[self.stock]) + len(self.cards[self.turned])

    def legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == "lead":
            return [Move("play", extra=(c,)) for c in self.hand(self.to_move)]
        if phase == "follow":
            lead = self.cards[self.trick][0]
            return [Move("play", extra=(c,))
                    for c in may_follow(self.hand(self.to_move), lead, self.trump)]
        if phase == "done":
            return [Move("next")]
        return []

    # ------------------------------------------------------------------ moves
    def apply(self, move: Move) -> None:
        if move.kind == "next":
            self._deal_hand()
            return
        seat = self.to_move
        card = move.extra[0]
        self._play_from_hand(seat, card)
        self._replace(self.trick, [*self.cards[self.trick], card], 0)
        if self.phase == "lead":
            self._set("turn", 1 - seat)
            self._set("phase", "follow")
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        leader = self.vars["leader"]
        lead, follow = self.cards[self.trick]
        winner = leader if trick_winner(lead, follow, self.trump) == 0 else 1 - leader
        won = self.captured[winner]
        self._replace(won, [*self.cards[won], lead, follow], 0)
        self._replace(self.trick, [], 0)
        self._set("last", (leader, lead, follow, winner))
        if self.stock_left():
            self._draw(winner)
            self._draw(1 - winner)
        if not self.hand(0) and not self.hand(1):
            self._end_hand()
            return
        self._set("leader", winner)
        self._set("turn", winner)
        self._set("phase", "lead")

    def _draw(self, seat: int) -> None:
        src = self.stock if self.cards[self.stock] else self.turned
        hidden = self.is_computer(seat)
        self._move_cards(src, self.hands[seat], 1, up=not hidden)

    def _end_hand(self) -> None:
        result = self.score_hand()
        self._set("scores", tuple(a + b for a, b in zip(self.vars["scores"], result.counted,
                                                          strict=True)))
        self._set("result", result)
        self._set("results", (*self.vars["results"], result))
        self._set("winner", result.match_winner)
        self._set("turn", 0)
        self._set("phase", "match" if result.match_winner >= 0 else "done")

    def score_hand(self) -> HandResult:
        taken = (set(self.cards[self.captured[0]]), set(self.cards[self.captured[1]]))
        return score_all_fours(taken, self.trump, self.vars["scores"], self.opts["target"])

    def match_winner(self) -> int:
        return self.vars["winner"]

    # ------------------------------------------------------------------ the seats
    def view(self, seat: int) -> View:
        return seat_view(self, seat)

    # ------------------------------------------------------------------ notation
    def parse_move(self, text: str) -> Move:
        move = parse_text(text, plain={"next"}, with_card={"play"})
        if move is not None:
            return move
        raise IllegalMove(f"not a move of {self.info.id}: {text!r}")

    def describe(self, move: Move) -> str:
        if move.kind == "play" and move.extra:
            return f"play {C.pretty(move.extra[0])}"
        return move.kind

    def malformed(self, move: Move) -> Reason | None:
        return move_shape_problem(move, {"play": 1, "next": 0}, Reason(
            "In Follow the Rules you play one card to each trick."))

    def explain(self, move: Move) -> Reason:
        between = self.between_hands(move)
        if between:
            return between
        card = move.extra[0]
        if card not in self.hand(self.to_move):
            return Reason("The {card} is not in your hand.", card=Card(card))
        lead = self.cards[self.trick][0]
        if C.SUIT[lead] == self.trump:
            return Reason("Trumps were led: you must play a trump.")
        return Reason("You must follow suit with {suit} or play a trump ({trump}).",
                      suit=Suit(C.SUIT[lead]), trump=Suit(self.trump))
