"""Gin Rummy (001 #2): the visitor against one computer player, a match of many hands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import players
from .engine import cards as C
from .engine.model import GameInfo, IllegalMove, Move, Option, PileSpec
from .engine.move_notation import move_text, parse_text
from .engine.reason import Card, Reason
from .engine.registry import register
from .engine.rng import Rng
from .families import gin_records
from .families.gin_records import HandResult
from .families.gin_scoring import KNOCK_LIMIT, blocked, match_over, match_totals, score_hand
from .families.gin_view import seat_view
from .families.melds import arrangements, deadwood, extends, misfit, openings
from .families.seats import SeatedGame, View, move_shape_problem

#: the stock cards that may never be drawn (the blocked hand)
DEAD_STOCK = 2
KINDS = ("stock", "take", "pass", "discard", "knock", "gin", "layoff", "done", "next")
CARD_KINDS = ("discard", "knock", "gin", "layoff")
#: the cards a move of each kind carries (a lay-off: the card and the meld's number)
EXTRAS = {**dict.fromkeys(KINDS, 0), **dict.fromkeys(CARD_KINDS, 1), "layoff": 2}
#: the melds a lay-off may name (a knocker's 10 cards hold three at most; the fourth place
#: is refused by the rules, with a reason, rather than as bad notation)
MAX_MELDS = 4


@register
class GinRummy(SeatedGame):
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
        Option("level", "normal", ("easy", "normal"), help="how well the computer plays"),
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
        number = self.vars["hand_no"] + 1
        dealer = self.vars["dealer"] if number == 1 else 1 - self.vars["dealer"]
        deck = list(range(52))
        Rng(self.seed, number).shuffle(deck)
        first = 1 - dealer
        hands: tuple[list[int], list[int]] = ([], [])
        for k in range(20):
            hands[(first + k) % 2].append(deck.pop())
        upcard = deck.pop()
        self._replace(self.stock, deck, len(deck))
        self._replace(self.waste, [upcard], 0)
        self._replace(self.hands[0], hands[0], 0)
        self._replace(self.hands[1], hands[1], len(hands[1]))
        for name, value in (("hand_no", number), ("dealer", dealer), ("turn", first),
                            ("phase", "offer"), ("passes", 0), ("taken", -1),
                            ("known", ((), ())), ("thrown", ((), ())), ("result", ()),
                            ("knocker", -1), ("melds", ()), ("laid", ())):
            self._set(name, value)

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
            melds = self.lying_melds()
            laid = {c for c, _i in self.vars["laid"]}
            return [*(Move("layoff", extra=(c, i)) for c in self.hand(self.to_move)
                      if c not in laid for i, m in enumerate(melds) if extends(m, c)),
                    Move("done")]
        if phase == "discard":
            hand = self.hand(self.to_move)
            taken = self.vars["taken"]
            moves = [Move("discard", extra=(c,)) for c in hand if c != taken]
            for c in hand:
                if c == taken:
                    continue
                dw = deadwood(x for x in hand if x != c)
                if dw == 0 and self.opts["gin_bonus"]:
                    moves.append(Move("gin", extra=(c,)))
                elif dw <= KNOCK_LIMIT:
                    moves.append(Move("knock", extra=(c,)))
            return moves
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
            self._set("known", _with(self.vars["known"], seat, (*self.vars["known"][seat], card)))
        else:
            card = move.extra[0]
            rest = [c for c in self.cards[mine] if c != card]
            self._replace(mine, rest, len(rest) if hidden else 0)
            self._replace(self.waste, [*self.cards[self.waste], card], 0)
            known = self.vars["known"]
            self._set("known", _with(known, seat, tuple(c for c in known[seat] if c != card)))
            self._set("thrown", _with(self.vars["thrown"], seat,
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
            self._replace(mine, list(self.cards[mine]), 0)
            self._set("melds", self._shown_melds(seat))
            self._set("laid", ())
            self._set("turn", 1 - seat)
            self._set("phase", "layoff")
            return
        self._set("phase", "discard")

    def _shown_melds(self, knocker: int) -> tuple[tuple[int, ...], ...]:
        """The knocker's melds as laid down: of its least-deadwood arrangements, the one
        that leaves the fewest openings for a lay-off among the cards the defender is known
        to hold (picked up from the discard pile), then among the cards it may hold (not in
        the knocker's hand or the discard pile). Judged from what the knocker knows only:
        the defender's hidden cards never choose the computer's melds."""
        mine = self.hand(knocker)
        held = set(self.vars["known"][1 - knocker])
        maybe = set(range(52)) - set(mine) - set(self.cards[self.waste])
        options = arrangements(mine)
        return min(options, key=lambda o: (len(openings(o) & held), len(openings(o) & maybe)))

    def lying_melds(self) -> tuple[tuple[int, ...], ...]:
        """The knocker's melds as they lie now: each with the cards laid off on it."""
        melds = [list(m) for m in self.vars["melds"]]
        for card, i in self.vars["laid"]:
            melds[i].append(card)
        return tuple(tuple(sorted(m)) for m in melds)

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
        hidden = self.hands[1]
        self._replace(hidden, list(self.cards[hidden]), 0)  # both hands are shown
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

    @property
    def won(self) -> bool:
        a, b = self.final_scores
        return self.phase == "match" and a > b

    @property
    def lost(self) -> bool:
        a, b = self.final_scores
        return self.phase == "match" and a < b

    @property
    def score(self) -> int:
        return self.final_scores[0]

    # ------------------------------------------------------------------ the seats
    def view(self, seat: int) -> View:
        return seat_view(self, seat)

    # ------------------------------------------------------------------ notation
    def notation(self, move: Move) -> str:
        return move_text(move)

    def parse_move(self, text: str) -> Move:
        move = parse_text(text, plain=set(KINDS) - set(CARD_KINDS),
                          with_card=set(CARD_KINDS) - {"layoff"}, with_place={"layoff"},
                          places=MAX_MELDS)
        if move is None:
            raise IllegalMove(f"not a move of {self.info.id}: {text!r}")
        return move

    def describe(self, move: Move) -> str:
        if move.kind == "layoff" and len(move.extra) == 2:
            return f"lay off {C.pretty(move.extra[0])} on meld {move.extra[1] + 1}"
        if move.kind in CARD_KINDS and move.extra:
            return f"{move.kind} {C.pretty(move.extra[0])}"
        if move.kind == "take" and self.cards[self.waste]:
            return f"take {C.pretty(self.top(self.waste))}"
        return move.kind

    def malformed(self, move: Move) -> Reason | None:
        problem = move_shape_problem(move, EXTRAS, Reason(
            "In Gin Rummy you draw a card, then discard one."))
        if problem is None and move.kind == "layoff" and move.extra[1] >= MAX_MELDS:
            return Reason("That is not a move.")
        return problem

    def explain(self, move: Move) -> Reason:
        phase = self.phase
        result = self.vars["result"]
        if move.kind == "layoff" and result and result.kind == "gin":
            return Reason("Nothing may be laid off on gin.")
        if phase == "match":
            return Reason("The match is over.")
        if phase == "done":
            return Reason("The hand is over: deal the next hand.")
        if move.kind == "next":
            return Reason("The hand is not over yet.")
        if phase == "layoff":
            return self._explain_layoff(move)
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
        card = move.extra[0]
        hand = self.hand(self.to_move)
        if card not in hand:
            return Reason("The {card} is not in your hand.", card=Card(card))
        if card == self.vars["taken"]:
            return Reason("You may not discard the {card} you just took from the discard "
                          "pile.", card=Card(card))
        left = deadwood(c for c in hand if c != card)
        if move.kind == "gin":
            if not self.opts["gin_bonus"]:
                return Reason("Gin is off in these rules: knock instead.")
            return Reason("Gin needs a hand with no deadwood; you would have {points}.",
                          points=left)
        if left == 0 and self.opts["gin_bonus"]:
            return Reason("With no deadwood you go gin rather than knock.")
        return Reason("You may knock only with 10 points of deadwood or less; you would "
                      "have {points}.", points=left)

    def _explain_layoff(self, move: Move) -> Reason:
        if move.kind != "layoff":
            return Reason("Lay off cards on the knocker's melds, or say you are done.")
        card, i = move.extra
        if card not in self.hand(self.to_move):
            return Reason("The {card} is not in your hand.", card=Card(card))
        if card in {c for c, _i in self.vars["laid"]}:
            return Reason("The {card} is laid off already.", card=Card(card))
        melds = self.lying_melds()
        if i >= len(melds):
            return Reason("The knocker has no meld there.")
        return misfit(card, melds[i])


def _with(pair: tuple, seat: int, value: Any) -> tuple:
    return (value, pair[1]) if seat == 0 else (pair[0], value)
