"""The Fan (003 variant): La Belle Lucie with kings into empty fans and no redeal.

003 notes that the king rule and the no-reshuffle rule go together: without redeals, a king
could otherwise never free the cards beneath it before it reaches its foundation. With no
shuffle after the deal every card is known, so this member is a game of pure skill.
"""

from __future__ import annotations

from .engine.model import GameInfo
from .engine.registry import register
from .la_belle_lucie import LaBelleLucie


@register
class TheFan(LaBelleLucie):
    info = GameInfo(
        id="the_fan",
        source="003_a9f4e6f80390d395.txt", source_game="The Fan (variant of La Belle Lucie)",
        decks=1, kind="S-open", difficulty=4,
    )
    options = ()
    fan_empty = "king"
    redeals = 0
