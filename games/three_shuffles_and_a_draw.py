"""Three Shuffles and a Draw (003 variant; the base game of 000 #24).

The three shuffles are the deal and the two redeals; the draw (the *merci*) lets the player
pull out one buried card once, after the last redeal, when nothing else can move. Only a card
with somewhere to go can be drawn: drawing one that could not be played would change nothing.
"""

from __future__ import annotations

from .engine.model import GameInfo, Option
from .engine.registry import register
from .la_belle_lucie import LaBelleLucie


@register
class ThreeShufflesAndADraw(LaBelleLucie):
    info = GameInfo(
        id="three_shuffles_and_a_draw",
        source="003_a9f4e6f80390d395.txt",
        source_game="Three Shuffles and a Draw (variant); = 000_5c0014aada07c9b6.txt #24 base",
        decks=1, kind="S-mixed", difficulty=3,
    )
    options = (
        Option("redeal_any_time", False, help="redeal (and draw) without waiting to be stuck"),
    )
    merci = True
