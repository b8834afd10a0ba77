"""Pyramid (000 #13): remove pairs that add up to 13, and kings alone, to take the pyramid down."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import RANK
from .engine.game import Game
from .engine.model import DEAL, REDEAL, GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families import pairing
from .families.grid import triangle_covers

ROWS = 7
PASSES = 3
#: the match points of a pyramid cleared in pass 1, 2 or 3
CLEAR_POINTS = (50, 35, 20)


@register
class Pyramid(Game):
    info = GameInfo(
        id="pyramid",
        source="000_5c0014aada07c9b6.txt", source_game="13",
        decks=1, kind="S-mixed", difficulty=2, score_better="higher",
    )
    options = (
        Option("all_face_up", False, help="deal the whole pyramid face up"),
        Option("pair_pile", False,
               help="removed cards form a pair pile whose top card can still be paired"),
        Option("scored_match", False,
               help="match scoring: no apex rescue, play on after clearing to save points"),
        Option("apex_rescue", True,
               help="once, after the last pass, the apex card may be used as the current card"),
    )

    #: ``PARTNER[r]``: the rank that pairs with rank ``r`` (0: none)
    PARTNER: tuple[int, ...] = (0, *(13 - r for r in range(1, 13)), 0)
    #: kings leave on their own
    SINGLE_KINGS = True
    #: the pair rule in a sentence, for refused moves
    NEED = Reason("The two cards must add up to 13 (jack 11, queen 12, king 13).")
    #: what to do instead, for a tap or a move of another kind
    TAP_HINT = Reason("Cards are not moved here: pick two cards that add up to 13, or a king.")

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 8.8, 0)
        yield PileSpec("C", "waste", 8.8, 1.6, label="current")
        yield PileSpec("W", "waste", 8.8, 3.2)
        for r in range(ROWS):
            for k in range(r + 1):
                yield PileSpec(f"T{r * (r + 1) // 2 + k + 1}", "tableau",
                               round((ROWS - 1 - r) * 0.6 + 1.2 * k, 2), round(0.7 * r, 2),
                               autoflip=False)
        yield PileSpec("D", "discard", 8.8, 4.8, label="pairs" if self.opts["pair_pile"] else "")

    def prepare(self) -> None:
        self.stock, self.current, self.waste, self.discard = (self.index[i] for i in "SCWD")
        self.pyr = self.roles["tableau"]
        self.cover = [tuple(self.pyr[q] for q in cov) for cov in triangle_covers(ROWS)]
        #: positions that may lie face down and need turning once uncovered
        self.hidden = [] if self.opts["all_face_up"] else [
            (p, cov) for p, cov in zip(self.pyr, self.cover, strict=True) if cov]
        self.pair_pile = self.opts["pair_pile"]
        self.scored = self.opts["scored_match"]
        self.rescue = self.opts["apex_rescue"] and not self.scored
        # with a pair pile the card picked second ends on top, so pick order matters
        self.ordered = self.pair_pile and any(
            r != p for r, p in enumerate(self.PARTNER) if p)

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        up = self.opts["all_face_up"]
        for i, p in enumerate(self.pyr):
            self.put(p, deck.pop(), up=up or i >= len(self.pyr) - ROWS)
        self.put_stock(self.stock, deck)
        # "apex": the rescued apex card while it waits for its partner in the talon (-1: none)
        self.vars.update({"pass": 1, "cleared": 0, "rescued": False, "apex": -1})

    def settle(self) -> None:
        """Turn up uncovered pyramid cards and note the pass in which the pyramid fell: all 28
        removed, the rescued apex too (GAMES.md §13: the rescue makes the apex the current
        card; it still needs its partner, or leaves alone as a king)."""
        if self.__dict__.pop("_talon_only", False):
            return  # a deal or a redeal leaves the pyramid as it was (the solver deals a lot)
        cards, down = self.cards, self.down
        for p, (a, b) in self.hidden:
            if down[p] and not cards[a] and not cards[b]:
                self._flip(p)
        if self.vars["apex"] in cards[self.discard][-2:]:  # a removal took the rescued apex
            self._set("apex", -1)
        if not self.vars["cleared"] and self.vars["apex"] < 0 \
                and not any(cards[p] for p in self.pyr):
            self._set("cleared", self.vars["pass"])

    # ------------------------------------------------------------------ moves
    def available(self) -> list[int]:
        """Piles whose top card can be used now (the pair pile's top is handled apart)."""
        cards = self.cards
        out = [p for p, cov in zip(self.pyr, self.cover, strict=True)
               if cards[p] and not (cov and (cards[cov[0]] or cards[cov[1]]))]
        return out + [p for p in (self.current, self.waste) if cards[p]]

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        if self.vars["cleared"] and not self.scored:
            return []
        avail = self.available()
        by_rank = pairing.piles_by_rank(cards, avail)
        moves = pairing.partner_pairs(by_rank, self.PARTNER, self.SINGLE_KINGS, self.ordered)
        d = cards[self.discard]
        if self.pair_pile and d:
            moves += pairing.pair_pile_moves(by_rank, RANK[d[-1]], self.PARTNER,
                                             self.SINGLE_KINGS, self.discard, self.waste)
        if cards[self.stock]:
            moves.append(DEAL)
        elif self.vars["pass"] < PASSES and (cards[self.waste] or cards[self.current]):
            moves.append(REDEAL)
        elif self.can_rescue():
            moves.append(Move("rescue", self.pyr[0]))
        return moves

    def can_rescue(self) -> bool:
        """Once, when no pass is left to play and the pyramid still stands."""
        cards = self.cards
        passes_over = self.vars["pass"] >= PASSES or not (cards[self.waste] or cards[self.current])
        return (self.rescue and not self.vars["rescued"] and not cards[self.stock]
                and passes_over and bool(cards[self.pyr[0]]))

    def canonical(self, move: Move) -> Move:
        """The one form of a pair move that :meth:`legal_moves` lists."""
        return pairing.pair_in_order(move, self.discard, self.ordered)

    def apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "remove":
            move = self.canonical(move)
            if move.src != self.discard:
                self._move_cards(move.src, self.discard, 1)
            if move.dst >= 0:
                self._move_cards(move.dst, self.discard, 1)
            return
        if self.cards[self.current]:
            self._move_cards(self.current, self.waste, 1)
        if kind != "rescue":
            self._talon_only = True
        if kind == "deal":
            self._move_cards(self.stock, self.current, 1)
        elif kind == "redeal":
            w = self.waste
            self._move_cards(w, self.stock, len(self.cards[w]), reverse=True, up=False)
            self._set("pass", self.vars["pass"] + 1)
        else:  # rescue: the apex becomes the current card, still to be paired
            self._set("apex", self.cards[self.pyr[0]][-1])
            self._move_cards(self.pyr[0], self.current, 1)
            self._set("rescued", True)

    # ------------------------------------------------------------------ results
    @property
    def won(self) -> bool:
        if not self.vars["cleared"]:
            return False
        return not self.scored or not self.legal_moves()

    def cards_left(self) -> int:
        """Cards still in play: the pyramid, the stock, the current card and the waste."""
        cards = self.cards
        return sum(len(cards[p]) for p in (*self.pyr, self.stock, self.current, self.waste))

    @property
    def score(self) -> int:
        """The cards taken off so far (0 at the deal, 52 when all are gone). The table shows
        this as the game's score: the match points of the rules start at -52, which a
        visitor read as a penalty before their first move (see :attr:`match_points`)."""
        return 52 - self.cards_left()

    @property
    def match_points(self) -> int:
        """The rules' points for one game of a match (50, 35 or 20 for clearing the pyramid
        in pass 1, 2 or 3, less the stock and waste cards left; not cleared: minus every card
        left). A scored match shows them when the game is over (:attr:`grade`)."""
        cards = self.cards
        left = len(cards[self.stock]) + len(cards[self.current]) + len(cards[self.waste])
        cleared = self.vars["cleared"]
        if cleared:
            return CLEAR_POINTS[cleared - 1] - left
        return -left - sum(len(cards[p]) for p in self.pyr)

    @property
    def grade(self) -> str | Reason | None:
        if self.scored and self.over:
            return Reason("Match points: {n}", n=self.match_points)
        cleared = self.vars["cleared"]
        return None if not cleared else "best" if cleared == 1 else "winner"

    def explain(self, move: Move) -> Reason:
        cards, kind = self.cards, move.kind
        if kind == "deal":
            if self.vars["pass"] < PASSES:
                return Reason("The stock is empty: turn the waste over to start the next pass.")
            return Reason("The stock is empty and all three passes are used.")
        if kind == "redeal":
            if cards[self.stock]:
                return Reason("There are still cards in the stock.")
            if self.vars["pass"] >= PASSES:
                return Reason("All three passes have been used.")
            return Reason("There are no cards to turn over.")
        if kind == "rescue":
            if not self.rescue:
                return (Reason("The apex rescue is not allowed in scored play.") if self.scored else
                        Reason("The apex rescue is switched off in this game."))
            if self.vars["rescued"]:
                return Reason("The apex rescue has already been used.")
            if move.src != self.pyr[0]:
                return Reason("Only the apex card at the top of the pyramid can be rescued.")
            return Reason("The apex card may be taken only after the last pass through the stock.")
        if kind != "remove":
            return self.TAP_HINT
        piles = [p for p in (move.src, move.dst) if p >= 0]
        if not piles:
            return self.TAP_HINT
        for p in piles:
            reason = self.unavailable(p, partner=len(piles) > 1)
            if reason:
                return reason
        lone = pairing.lone_card_refusal(cards, piles, self.SINGLE_KINGS, self.NEED)
        if lone:
            return lone
        if self.discard in piles and self.waste in piles:
            return Reason("The pair pile's top card can pair only with a pyramid card or the "
                          "current card.")
        return self.NEED

    def unavailable(self, p: int, partner: bool) -> Reason | None:
        """Why the top card of pile ``p`` cannot be used, or None."""
        if p == self.stock:
            return Reason("Stock cards must be turned before they can be used.")
        cards = self.cards
        if not cards[p]:
            return Reason("There is no card there.")
        if p == self.discard:
            return pairing.pair_pile_refusal(cards[p], self.pair_pile, partner,
                                             self.SINGLE_KINGS)
        i = self.pyr.index(p) if p in self.pyr else -1
        if i >= 0 and self.cover[i] and any(cards[q] for q in self.cover[i]):
            return Reason("That card is still covered by cards below it.")
        return None
