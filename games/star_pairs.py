"""Star Combination (001 #1): match stock cards to a star of 17 by rank; a second miss loses."""

from __future__ import annotations

from collections.abc import Iterable

from .engine import cards as C
from .engine.cards import RANK
from .engine.game import Game
from .engine.model import DEAL, GameInfo, Move, Option, PileSpec
from .engine.reason import Card, GameName, Reason
from .engine.registry import register
from .engine.rng import Rng

#: star places as (x, y) steps from the centre, in the order the source deals them: the inner
#: ring left, right, top, bottom, upper-left, lower-right, upper-right, lower-left; the outer
#: ring the same way; the centre last
DEAL_ORDER = tuple(
    (dx * d, dy * d) for d in (1, 2)
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (1, -1), (-1, 1))
) + ((0, 0),)
#: the same places in reading order (top to bottom, left to right): the piles T1..T17
PLACES = tuple(sorted(DEAL_ORDER, key=lambda p: (p[1], p[0])))
RANKS = (1, 7, 8, 9, 10, 11, 12, 13)


@register
class StarPairs(Game):
    info = GameInfo(
        id="star_pairs",
        source="001_bf5637845a306030.txt", source_game="1",
        decks=1, kind="S-luck", difficulty=1, score_better="lower",
    )
    options = (
        Option("free_miss_any_time", False, (False, True),
               "the first unmatched card goes to the spare place whenever it is turned"),
        Option("table_pairs_any_time", True, (True, False),
               "two table cards may be paired while the stock lasts, not only after it"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 0, 1.6)
        for i, (x, y) in enumerate(PLACES):
            # five rows fit the screen's height only if they overlap a little
            yield PileSpec(f"T{i + 1}", "tableau", 4.2 + 1.2 * x, 2.5 + 1.25 * y)
        yield PileSpec("R", "reserve", 0, 3.2, label="spare")
        yield PileSpec("D", "discard", 8.6, 0)

    def prepare(self) -> None:
        self.stock = self.first("stock")
        self.waste = self.first("waste")
        self.star: tuple[int, ...] = tuple(self.roles["tableau"])
        self.spare = self.first("reserve")
        self.discard = self.first("discard")
        self.table_piles = (*self.star, self.spare)
        self.any_time = self.opts["free_miss_any_time"]
        self.table_pairs = self.opts["table_pairs_any_time"]

    def deal(self, rng: Rng) -> None:
        deck = C.deck(ranks=RANKS)
        rng.shuffle(deck)
        for place in DEAL_ORDER:
            self.put(self.star[PLACES.index(place)], deck.pop())
        self.put_stock(self.stock, deck)
        self.vars["turned"] = 0
        self.vars["missed"] = False

    # ------------------------------------------------------------------ rules
    def matches(self, rank: int) -> list[int]:
        """Table piles holding a card of ``rank``."""
        cards = self.cards
        return [p for p in self.table_piles if cards[p] and RANK[cards[p][-1]] == rank]

    def free_miss(self) -> bool:
        """Whether an unmatched turned card would go to the spare place now."""
        return not self.vars["missed"] and (self.any_time or self.vars["turned"] == 1)

    @property
    def lost(self) -> bool:
        w = self.cards[self.waste]
        return bool(w) and not self.matches(RANK[w[-1]])

    def legal_moves(self) -> list[Move]:
        if self.lost:
            return []
        cards = self.cards
        moves: list[Move] = []
        w = cards[self.waste]
        if w:
            moves.extend(Move("remove", self.waste, p) for p in self.matches(RANK[w[-1]]))
        elif cards[self.stock]:
            moves.append(DEAL)
        if self.table_pairs or not cards[self.stock]:
            held = [(p, RANK[cards[p][-1]]) for p in self.table_piles if cards[p]]
            for i, (a, ra) in enumerate(held):
                moves.extend(Move("remove", a, b) for b, rb in held[i + 1:] if ra == rb)
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "deal":
            self._move_cards(self.stock, self.waste)
            self._set("turned", self.vars["turned"] + 1)
            return
        a, b = move.src, move.dst
        self._move_cards(a, self.discard)
        self._move_cards(b, self.discard)
        if a == self.waste and b != self.spare and self.cards[self.stock]:
            self._move_cards(self.stock, b)

    def settle(self) -> None:
        """A turned card that matches nothing takes the spare place, if a free miss is left."""
        w = self.cards[self.waste]
        if w and not self.matches(RANK[w[-1]]) and self.free_miss():
            self._move_cards(self.waste, self.spare)
            self._set("missed", True)

    #: ``remove:T5,T2`` names the same two cards as ``remove:T2,T5``
    unordered = ("remove",)

    @property
    def score(self) -> int:
        cards = self.cards
        return (len(cards[self.stock]) + len(cards[self.waste])
                + sum(len(cards[p]) for p in self.table_piles))

    @property
    def won(self) -> bool:
        return self.score == 0

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        if self.lost:
            return Reason("The game is lost: the turned card has no partner on the table.")
        cards = self.cards
        kind = move.kind
        if kind == "deal":
            if cards[self.waste]:
                return Reason("First pair the turned card with a table card of the same rank.")
            return Reason("The stock is empty.")
        if kind == "remove":
            a, b = sorted((move.src, move.dst))
            usable = (self.waste, *self.table_piles)
            if a not in usable or b not in usable or a == b:
                return Reason("Pick two different cards: the turned card or cards on the table.")
            if not cards[a] or not cards[b]:
                if a == self.waste:
                    return Reason("Turn a card from the stock first.")
                return Reason("There is no card there.")
            if (a, b) != (move.src, move.dst) or move.extra:
                return Reason("Name the two cards in the order they are laid out.")
            if a != self.waste and RANK[cards[a][-1]] == RANK[cards[b][-1]]:
                return Reason("Two table cards may be paired only once the stock is used up.")
            return Reason("The {card} and the {card2} are not the same rank.",
                          card=Card(cards[a][-1]), card2=Card(cards[b][-1]))
        if kind == "move":
            return Reason("Cards are not moved here: remove two cards of the same rank.")
        return Reason("That is not a move in {game}.", game=GameName(self.info.id))
