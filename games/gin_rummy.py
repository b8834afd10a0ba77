"""Gin Rummy (001 #2): the visitor against one computer player, a match of many hands."""

from __future__ import annotations

from collections.abc import Iterable

from . import players
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families import gin_moves, gin_records, knock
from .families.gin_records import HandResult
from .families.gin_scoring import blocked, match_over, match_totals, score_hand
from .families.gin_view import seat_view
from .families.seats import LEVEL, View
from .families.two_seats import TwoSeatMatch, with_seat

#: the stock cards that may never be drawn (the blocked hand)
DEAD_STOCK = 2


@register
class GinRummy(TwoSeatMatch):
    info = GameInfo(
        id="gin_rummy",
        source="001_bf5637845a306030.txt", source_game="2",
        decks=1, kind="MP", difficulty=3, score_better="higher",
    )
    options = (
        Option("match", "hands_30", ("hands_30", "hands_50", "points_100"),
               help="a match of 30 or 50 hands (the source), or to 100 points with game "
                    "and box bonuses (standard Gin)"),
        Option("gin_bonus", True, help="a hand with no deadwood is gin: 25 more points, "
                                       "no laying off, no undercut"),
        LEVEL,
    )
    computer_version = "gin-2"
    computer_players = players
    records = gin_records

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 1.8, autoflip=False)
        yield PileSpec("W", "waste", 1.2, 1.8)
        yield PileSpec("H1", "hand", 0, 3.6, fan="right", autoflip=False)
        yield PileSpec("H2", "hand", 0, 0, fan="right", autoflip=False)

    def prepare(self) -> None:
        self.stock, self.waste = self.index["S"], self.index["W"]
        self.hands = (self.index["H1"], self.index["H2"])

    # ------------------------------------------------------------------ dealing
    def deal(self, rng: Rng) -> None:
        self.vars.update(hand_no=0, dealer=rng.below(2), scores=(0, 0), won_hands=(0, 0),
                         results=())
        self._deal_hand()

    def _deal_hand(self) -> None:
        """Gather every card and deal the next hand: 10 each, one at a time, the
        non-dealer first, then the upcard, offered first to the non-dealer; the dealer
        alternates."""
        number, dealer, deck, hands = self._next_hand(10)
        upcard = deck.pop()
        self._replace(self.stock, deck, len(deck))
        self._replace(self.waste, [upcard], 0)
        self._lay_hands(hands)
        self._set_all((("hand_no", number), ("dealer", dealer), ("turn", 1 - dealer),
                       ("phase", "offer"), ("passes", 0), ("taken", -1),
                       ("known", ((), ())), ("thrown", ((), ())), ("result", ()),
                       ("knocker", -1), ("melds", ()), ("laid", ())))

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == "offer":
            return [Move("take"), Move("pass")]
        if phase == "draw":
            moves = []
            if len(self.cards[self.stock]) > DEAD_STOCK:
                moves.append(Move("stock"))
            if self.cards[self.waste] and self.vars["passes"] != 2:
                moves.append(Move("take"))
            return moves
        if phase == "layoff":
            return knock.lay_offs(self.hand(self.to_move), self.vars["laid"], self.lying_melds())
        if phase == "discard":
            return knock.going_out(self.hand(self.to_move), self.vars["taken"],
                                   self.opts["gin_bonus"])
        if phase == "done":
            return [Move("next")]
        return []

    def apply(self, move: Move) -> None:
        seat = self.to_move
        kind = move.kind
        if kind == "next":
            self._deal_hand()
            return
        if kind == "pass":
            # the non-dealer passes: the dealer may take it; both pass: the non-dealer
            # draws from the stock (take is no longer legal this turn)
            self._set("passes", self.vars["passes"] + 1)
            self._set("turn", 1 - seat)
            if self.vars["passes"] == 2:
                self._set("phase", "draw")
            return
        if kind == "layoff":
            self._set("laid", (*self.vars["laid"], (move.extra[0], move.extra[1])))
            return
        if kind == "done":
            self._end_hand(self._score(self.vars["knocker"], gin=False))
            return
        mine = self.hands[seat]
        hidden = self.is_computer(seat)
        if self.vars["passes"] < 3:
            self._set("passes", 3)  # the upcard offer is over
        if kind == "stock":
            self._move_cards(self.stock, mine, 1, up=not hidden)
            self._set("taken", -1)
        elif kind == "take":
            card = self.top(self.waste)
            self._move_cards(self.waste, mine, 1, up=not hidden)
            self._set("taken", card)
            self._set("known", with_seat(self.vars["known"], seat,
                                         (*self.vars["known"][seat], card)))
        else:
            card = move.extra[0]
            self._play_from_hand(seat, card)
            self._replace(self.waste, [*self.cards[self.waste], card], 0)
            known = self.vars["known"]
            self._set("known", with_seat(known, seat, tuple(c for c in known[seat] if c != card)))
            self._set("thrown", with_seat(self.vars["thrown"], seat,
                                          (*self.vars["thrown"][seat], card)))
            self._set("taken", -1)
            if kind == "discard":
                if len(self.cards[self.stock]) <= DEAD_STOCK:
                    self._end_hand(blocked((self.hand(0), self.hand(1))))
                    return
                self._set("turn", 1 - seat)
                self._set("phase", "draw")
                return
            self._set("knocker", seat)
            if kind == "gin":
                self._end_hand(self._score(seat, gin=True))
                return
            # a knock: the knocker's hand lies open in melds while the defender lays off
            self._show_hand(seat)
            self._set("melds", knock.shown_melds(self.hand(seat),
                                                 self.vars["known"][1 - seat],
                                                 self.cards[self.waste]))
            self._set("laid", ())
            self._set("turn", 1 - seat)
            self._set("phase", "layoff")
            return
        self._set("phase", "discard")

    def lying_melds(self) -> tuple[tuple[int, ...], ...]:
        """The knocker's melds as they lie now: each with the cards laid off on it."""
        return knock.lying_melds(self.vars["melds"], self.vars["laid"])

    def _score(self, knocker: int, gin: bool) -> HandResult:
        return score_hand((self.hand(0), self.hand(1)), knocker, gin, self.vars["melds"],
                          self.vars["laid"])

    def _end_hand(self, result: HandResult) -> None:
        scores = list(self.vars["scores"])
        won = list(self.vars["won_hands"])
        if result.winner >= 0:
            scores[result.winner] += result.points
            won[result.winner] += 1
        self._set("scores", tuple(scores))
        self._set("won_hands", tuple(won))
        self._set("result", result)
        self._set("results", (*self.vars["results"], result))
        self._show_hand(1)  # both hands are shown
        self._set("turn", 0)
        over = match_over(self.opts["match"], self.vars["scores"], self.vars["hand_no"])
        self._set("phase", "match" if over else "done")

    @property
    def final_scores(self) -> tuple[int, int]:
        """The match totals: with ``points_100``, the winner's game bonus of 100 and 25 a
        hand won (the box bonus) for each player, as standard Gin counts."""
        scores = self.vars["scores"]
        if self.opts["match"] != "points_100" or self.phase != "match":
            return scores
        return match_totals(scores, self.vars["won_hands"])

    def match_winner(self) -> int:
        a, b = self.final_scores
        return 0 if a > b else 1 if a < b else -1

    # ------------------------------------------------------------------ the seats
    def view(self, seat: int) -> View:
        return seat_view(self, seat)

    # ------------------------------------------------------------------ notation
    def parse_move(self, text: str) -> Move:
        return gin_moves.parse_move(self.info.id, text)

    def describe(self, move: Move) -> str:
        return gin_moves.describe(move, self.top(self.waste) if self.cards[self.waste] else None)

    def malformed(self, move: Move) -> Reason | None:
        return gin_moves.malformed(move)

    def explain(self, move: Move) -> Reason:
        phase = self.phase
        result = self.vars["result"]
        if move.kind == "layoff" and result and result.kind == "gin":
            return Reason("Nothing may be laid off on gin.")
        between = self.between_hands(move)
        if between:
            return between
        if phase == "layoff":
            return knock.lay_off_refusal(move, self.hand(self.to_move), self.vars["laid"],
                                         self.lying_melds())
        if move.kind in ("layoff", "done"):
            return Reason("Cards are laid off only on the melds of a knock.")
        if phase == "offer":
            return Reason("First take the upcard or pass it.")
        if move.kind == "pass":
            return Reason("Only the first upcard may be passed.")
        if phase == "draw":
            if move.kind == "stock":
                return Reason("The last two stock cards may not be drawn.")
            if move.kind == "take" and self.cards[self.waste]:
                return Reason("Both passed the upcard: draw from the stock.")
            if move.kind == "take":
                return Reason("The discard pile is empty.")
            return Reason("First draw a card: from the stock or the discard pile.")
        if move.kind in ("stock", "take"):
            return Reason("You have drawn already: now discard a card.")
        return knock.going_out_refusal(move, self.hand(self.to_move), self.vars["taken"],
                                       self.opts["gin_bonus"])

