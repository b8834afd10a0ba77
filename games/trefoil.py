"""Trefoil (003 variant; 000 #24 variant 2): La Belle Lucie with the aces out before the deal.

Taking the aces out leaves 48 cards in 16 full fans. 003 builds the fans in alternating
colours where 000 and the standard game build in suit; the standard is the default and 003's
rule an option. 003's "4 remaining cards in 2 fans of 2" cannot happen (16 x 3 = 48) and is
ignored.
"""

from __future__ import annotations

from .engine.model import GameInfo, Option
from .engine.registry import register
from .families.patience import Build
from .la_belle_lucie import LaBelleLucie


@register
class Trefoil(LaBelleLucie):
    info = GameInfo(
        id="trefoil",
        source="003_a9f4e6f80390d395.txt",
        source_game="Trefoil (variant of La Belle Lucie); 000_5c0014aada07c9b6.txt #24 variant 2",
        decks=1, kind="S-mixed", difficulty=4,
    )
    options = (
        Option("alt_colour_build", False,
               help="build down on the fans in alternating colours (003) instead of in suit"),
        Option("draw", False, help="after the last redeal, once, play one buried card (000)"),
        Option("redeal_any_time", False, help="redeal (and draw) without waiting to be stuck"),
    )
    FANS = 16
    ACES_FIRST = True

    def prepare(self) -> None:
        if self.opts["alt_colour_build"]:
            self.fan_build = Build("alt", -1)
        super().prepare()
