"""Pyramid Pairs (000 #14): Pyramid's layout and passes, but cards leave in pairs of one rank."""

from __future__ import annotations

from .engine.model import GameInfo
from .engine.reason import Reason
from .engine.registry import register
from .pyramid import Pyramid


@register
class PyramidPairs(Pyramid):
    info = GameInfo(
        id="pyramid_pairs",
        source="000_5c0014aada07c9b6.txt", source_game="14",
        decks=1, kind="S-mixed", difficulty=2, score_better="higher",
    )

    PARTNER = tuple(range(14))
    SINGLE_KINGS = False
    NEED = Reason("The two cards must have the same rank.")
    TAP_HINT = Reason("Cards are not moved here: pick two cards of the same rank.")
