"""Draw Poker, Jackpots (001 #3): the visitor against 1 to 7 computer players, for chips.

Rules as GAMES.md §B3 settles them: 53 cards, one of four wild-card rules, jacks or better
to open, a pass-out redeal with the pot carried over, one draw, fixed-limit betting (10 a
bet in the first round, 20 in the second) with one raise per player per round, droppers
in the first round pay the opening amount (option), and the opener shows openers. Chips
only: everybody starts with 1000; the visit ends when the visitor has none or nobody else
has any.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import players
from .engine import cards as C
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families import poker_records
from .families.draw_table import DrawTable, draw_notation, parse_draw_move
from .families.poker import ONE_PAIR
from .families.poker_records import hand_result
from .families.poker_table import WILD_RULES, hand_value
from .families.poker_view import seat_view
from .families.seats import LEVEL, VISITOR, View, between_hands, move_shape_problem

STACK = 1000
ANTE = 1
#: the fixed bet of the first and the second betting round
UNITS = (10, 20)
OPENERS = (ONE_PAIR, 11)
DECK = tuple(range(52)) + (C.JOKER,)
BET_KINDS = ("open", "pass", "bet", "check", "call", "raise", "drop")
KINDS = (*BET_KINDS, "draw", "stand", "next")
#: the cards a move of each kind carries (an exchange: any number of them)
EXTRAS = {**dict.fromkeys(KINDS, 0), "draw": None}


@register
class DrawPoker(DrawTable):
    info = GameInfo(id="draw_poker", source="001_bf5637845a306030.txt", source_game="3",
                    decks=1, kind="MP", difficulty=3, score_better="higher")
    options = (
        Option("wild", "bug", WILD_RULES,
               help="the joker as a bug (ace, straight or flush), fully wild, wild with the "
                    "four 2s, or wild with the one-eyed K♦ J♥ J♠"),
        Option("opponents", 3, tuple(range(1, 8)), help="how many computer players (1 to 7)"),
        Option("droppers_pay_open", True,
               help="a player who drops in the first round still pays the opening bet"),
        LEVEL,
    )
    computer_version = "poker-2"
    computer_players = players
    records = poker_records
    seats = 8

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0, autoflip=False)
        yield PileSpec("W", "waste", 1.2, 0, autoflip=False)
        for seat in range(self.opts["opponents"] + 1):
            yield PileSpec(f"H{seat + 1}", "hand", 0, 1.6 * (seat + 1), fan="right",
                           autoflip=False)

    def prepare(self) -> None:
        self.n = self.opts["opponents"] + 1
        self.stock, self.waste = self.index["S"], self.index["W"]
        self.hands = tuple(self.index[f"H{s + 1}"] for s in range(self.n))
        self.rule = self.opts["wild"]

    # ------------------------------------------------------------------ dealing
    def deal(self, rng: Rng) -> None:
        self.vars.update(hand_no=0, deal_no=0, dealer=rng.below(self.n),
                         chips=(STACK,) * self.n, pot=0, results=())
        self._new_hand(rotate=False)

    def _new_hand(self, rotate: bool) -> None:
        """Seat the players who still have chips, ante, and deal."""
        chips = self.vars["chips"]
        dealer = self.vars["dealer"]
        if rotate:
            dealer = self._next_seat(dealer, lambda s: chips[s] > 0)
        self._set("dealer", dealer)
        self._set("hand_no", self.vars["hand_no"] + 1)
        self._set("pot", 0)
        self._set("contrib", (0,) * self.n)
        self._set("antes", (0,) * self.n)
        self._set("result", ())
        self._deal(tuple(chips[s] > 0 for s in range(self.n)))

    def _deal(self, seated: tuple[bool, ...]) -> None:
        """Ante (everyone but the dealer) and deal five cards each, one at a time from the
        dealer's left; after a pass-out the pot stays and this runs again."""
        number = self.vars["deal_no"] + 1
        self._set("deal_no", number)
        deck = list(DECK)
        Rng(self.seed, number).shuffle(deck)
        dealer = self.vars["dealer"]
        chips, contrib, antes, pot = self._with_antes(seated, dealer, ANTE)
        order = self._order_from(dealer, lambda s: seated[s])
        self._deal_hands(deck, order, 5)
        self._set_all((("chips", chips), ("contrib", contrib), ("antes", antes), ("pot", pot),
                       ("seated", seated), ("live", seated), ("phase", "open"), ("round", 0),
                       ("opener", -1), ("openers", ()), ("drawn", (-1,) * self.n),
                       ("thrown", ((),) * self.n)))
        able = [s for s in order if self._can_open(s)]
        self._start_round(0, able[0] if able else order[0])
        if not able:  # nobody has a chip left to open with: show the hands
            self._showdown()

    # ------------------------------------------------------------------ seats
    def _can_open(self, s: int) -> bool:
        return self.vars["seated"][s] and self.vars["chips"][s] > 0

    def value(self, seat: int) -> tuple[int, ...]:
        return hand_value(self.hand(seat), self.rule)

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == "done":
            return [Move("next")]
        if phase == "over":
            return []
        s = self.to_move
        if phase == "open":
            moves = [Move("pass")]
            if self.value(s) >= OPENERS:
                moves.insert(0, Move("open"))
            return moves
        if phase == "draw":
            return self.exchanges(self.hand(s))
        return self._round_moves(s)

    def apply(self, move: Move) -> None:
        kind, s = move.kind, self.to_move
        if kind == "next":
            self._new_hand(rotate=True)
            return
        if kind in ("draw", "stand"):
            self._draw(s, move.extra)
            return
        unit = UNITS[self.vars["round"]]
        if kind == "pass":
            self._mark("acted", s, True)
        elif kind == "open":
            self._set("opener", s)
            self._set("openers", tuple(sorted(self.hand(s))))
            self._set("phase", "bet")
            self._pay(s, unit)
            self._set("acted", tuple(x == s for x in range(self.n)))
        else:
            pays = self.vars["round"] == 0 and self.opts["droppers_pay_open"]
            self._bet(kind, s, unit, UNITS[0] if pays else 0)
        self._after_bet()

    def _after_bet(self) -> None:
        live = self.vars["live"]
        if sum(live) == 1:
            self._showdown()
            return
        if self.phase == "open":
            waiting = [s for s in self._order_from(self.to_move, self._can_open)
                       if not self.vars["acted"][s]]
            if waiting:
                self._set("turn", waiting[0])
            else:  # everyone passed: ante again, redeal, the pot stays
                self._deal(self.vars["seated"])
            return
        waiting = self._still_to_act()
        if waiting:
            self._set("turn", waiting[0])
            return
        if self.vars["round"] == 0:
            self._set("phase", "draw")
            order = self._order_from(self.vars["dealer"], lambda x: live[x])
            self._set("turn", order[0])
        else:
            self._showdown()

    def _draw(self, s: int, out: tuple[int, ...]) -> None:
        self._exchange(s, out)
        live = self.vars["live"]
        rest = [x for x in self._order_from(s, lambda x: live[x]) if self.vars["drawn"][x] < 0]
        if rest:
            self._set("turn", rest[0])
            return
        opener = self.vars["opener"]
        first = opener if live[opener] else self._next_seat(opener, lambda x: live[x])
        self._set("phase", "bet")
        self._start_round(1, first)
        if not self._can_bet(first) or sum(self._can_bet(x) for x in range(self.n)) < 2:
            self._after_bet()

    # ------------------------------------------------------------------ the end of a hand
    def _showdown(self) -> None:
        """Share the pot (:meth:`_pay_out`); the main pot's winners are the hand's winners."""
        live, pot = self.vars["live"], self.vars["pot"]
        values = {s: self.value(s) for s in range(self.n) if live[s]}
        sharing, won, chips = self._pay_out(values, self.vars["dealer"])
        result = hand_result(self, pot, sharing, won, values, chips)
        self._set("chips", chips)
        self._set("pot", 0)
        self._set("result", result)
        self._set("results", (*self.vars["results"], result))
        for s in result["shown"]:
            self._replace(self.hands[s], list(self.hand(s)), 0)
        self._set("turn", VISITOR)
        self._set("phase", "over" if self.chips_over(chips) else "done")

    # ------------------------------------------------------------------ the seats
    def view(self, seat: int) -> View:
        return seat_view(self, seat, UNITS)

    # ------------------------------------------------------------------ notation
    def notation(self, move: Move) -> str:
        return draw_notation(move)

    def parse_move(self, text: str) -> Move:
        return parse_draw_move(self.info.id, text, KINDS, DECK)

    def malformed(self, move: Move) -> Reason | None:
        return move_shape_problem(move, EXTRAS, Reason(
            "In Draw Poker you bet, draw once, and bet again."), DECK)

    def explain(self, move: Move) -> Reason:
        phase, kind = self.phase, move.kind
        between = between_hands(phase, kind, "over", Reason("The game is over."))
        if between:
            return between
        if phase == "draw":
            if kind == "draw" and any(c not in self.hand(self.to_move) for c in move.extra):
                return Reason("You can only throw away cards from your hand.")
            return Reason("Now choose the cards to throw away, or keep all five.")
        if kind in ("draw", "stand"):
            return Reason("The draw comes after the first betting round.")
        if phase == "open":
            if kind == "open":
                return Reason("You need a pair of jacks or better to open.")
            return Reason("Nobody has opened yet: open or pass.")
        if kind in ("open", "pass"):
            return Reason("The betting is open already: call, raise or drop.")
        return self._round_refusal(kind)
