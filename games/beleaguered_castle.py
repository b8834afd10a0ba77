"""Beleaguered Castle (000 #23) and the base of its family (Streets and Alleys, Citadel).

Four foundations stand in a column in the middle; each has a wing of cards on its left and
on its right. Only the card at the free end of a wing moves, one at a time, down by one
regardless of suit; a space takes any card. The family differs only in the deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .engine.cards import ACE, RANK, card
from .engine.model import GameInfo, PileSpec
from .engine.registry import register
from .engine.rng import Rng
from .families.open_patience import OpenPatience
from .families.patience import FOUNDATION, Build, Rule

#: x of the foundation column; left wings start at 0, right wings just right of it
FOUNDATION_X = 4.7
RIGHT_X = FOUNDATION_X + 1.2


class CastleGame(OpenPatience):
    """The shared board: wings are tableau piles T1..T8 in reading order, left wing first.

    Left wings fan rightwards, so their free card sits next to the foundation column, like the
    inner end of a real left wing turned round; right wings fan outwards as on the table.
    """

    RULES = {
        "foundation": FOUNDATION,
        "tableau": Rule(Build("any", -1), empty="any", take="top", name="wing"),
    }
    #: take the aces out before the deal (only Beleaguered Castle itself)
    aces_first = False

    def build_layout(self) -> Iterable[PileSpec]:
        for r in range(4):
            yield PileSpec(f"F{r + 1}", "foundation", FOUNDATION_X, round(1.6 * r, 2), label="A")
        for r in range(4):
            yield PileSpec(f"T{2 * r + 1}", "tableau", 0, round(1.6 * r, 2), fan="right")
            yield PileSpec(f"T{2 * r + 2}", "tableau", RIGHT_X, round(1.6 * r, 2), fan="right")

    def round_order(self) -> list[int]:
        """One dealing round: each left wing top to bottom, then each right wing."""
        t = self.tableau
        return [t[2 * r] for r in range(4)] + [t[2 * r + 1] for r in range(4)]

    def deal_order(self) -> Iterator[int]:
        order = self.round_order()
        for _ in range(6):
            yield from order

    def deal(self, rng: Rng) -> None:
        deck = [c for c in range(52) if not (self.aces_first and RANK[c] == ACE)]
        rng.shuffle(deck)
        if self.aces_first:
            for suit, f in enumerate(self.foundations):
                self.put(f, card(ACE, suit))
        for pile in self.deal_order():
            self.put(pile, deck.pop())


@register
class BeleagueredCastle(CastleGame):
    info = GameInfo(
        id="beleaguered_castle",
        source="000_5c0014aada07c9b6.txt", source_game="23",
        decks=1, kind="S-open", difficulty=3,
    )
    aces_first = True
