"""Streets and Alleys (000 #23, example 1): Beleaguered Castle with the aces left in the deal."""

from __future__ import annotations

from collections.abc import Iterator

from .beleaguered_castle import CastleGame
from .engine.model import GameInfo, Option
from .engine.registry import register


@register
class StreetsAndAlleys(CastleGame):
    info = GameInfo(
        id="streets_and_alleys",
        source="000_5c0014aada07c9b6.txt",
        decks=1, kind="S-open", difficulty=4,
    )
    options = (
        Option("long_wings", "top", ("top", "left"),
               "which four wings get 7 cards: the top two rows (source) or the left wings"),
    )

    def deal_order(self) -> Iterator[int]:
        yield from super().deal_order()
        t = self.tableau
        if self.opts["long_wings"] == "top":
            yield from (t[0], t[2], t[1], t[3])  # left wings of rows 1-2, then right wings
        else:
            yield from (t[0], t[2], t[4], t[6])
