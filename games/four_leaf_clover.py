"""Four-Leaf Clover (001 #7): remove same-suit cards adding up to 15, or a jack, queen and king."""

from __future__ import annotations

from itertools import combinations, product

from .engine import cards as C
from .engine.cards import RANK, SUIT
from .engine.model import GameInfo, Move, Option
from .engine.reason import Reason
from .engine.registry import register
from .families.grid import CellGame

RANKS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13)
FACES = (C.JACK, C.QUEEN, C.KING)
#: every set of two or more different pip ranks (A=1 .. 9) adding up to 15, as rank tuples
FIFTEENS: tuple[tuple[int, ...], ...] = tuple(
    combo for k in range(2, 6) for combo in combinations(range(1, 10), k) if sum(combo) == 15
)


@register
class FourLeafClover(CellGame):
    info = GameInfo(
        id="four_leaf_clover",
        source="001_bf5637845a306030.txt", source_game="7",
        decks=1, kind="S-luck", difficulty=2, score_better="lower",
    )
    options = (
        Option("jqk_same_suit", True, (True, False),
               "the jack, queen and king removed together must share a suit"),
    )
    row_step = 1.5

    def shape(self) -> tuple[int, ...]:
        return (4, 4, 4, 4)

    def new_deck(self) -> list[int]:
        return C.deck(ranks=RANKS)

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        at = [[-1] * 14 for _ in range(4)]  # at[suit][rank]: the pile holding that card
        for p in self.cell:
            if cards[p]:
                c = cards[p][-1]
                at[SUIT[c]][RANK[c]] = p
        sets: list[list[int]] = []
        for piles in at:
            for combo in FIFTEENS:
                chosen = [piles[r] for r in combo]
                if min(chosen) >= 0:
                    sets.append(chosen)
        if self.opts["jqk_same_suit"]:
            sets.extend([piles[r] for r in FACES] for piles in at if min(piles[11:]) >= 0)
        else:
            faces = [[piles[r] for piles in at if piles[r] >= 0] for r in FACES]
            sets.extend(list(trio) for trio in product(*faces))
        return [self.removal(piles) for piles in sets]

    def apply(self, move: Move) -> None:
        self.discard_top(move.src, move.dst, *move.extra)

    def settle(self) -> None:
        """Refill the empty places from the stock, face up, in reading order."""
        self.refill_empty(self.cell, self.stock)

    not_moved = Reason("Cards are not moved: remove same-suit cards adding up to 15, or a "
                       "jack, queen and king.")

    def explain_removal(self, named: list[int]) -> Reason:
        chosen = [self.cards[p][-1] for p in named]
        ranks = sorted(RANK[c] for c in chosen)
        one_suit = len({SUIT[c] for c in chosen}) == 1
        if any(r > 10 for r in ranks):
            if ranks != list(FACES):
                return Reason("Jacks, queens and kings are removed only as a jack, a queen and a "
                              "king together.")
            if not one_suit and self.opts["jqk_same_suit"]:
                return Reason("The jack, queen and king must be of the same suit.")
        else:
            if len(ranks) < 2:
                return Reason("Pick at least two cards that add up to 15.")
            if not one_suit:
                return Reason("The cards must all be of the same suit.")
            if sum(ranks) != 15:
                return Reason("These cards add up to {n}, not 15.", n=sum(ranks))
        return Reason("Name the cards in the order they are laid out.")
