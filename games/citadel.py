"""Citadel (000 #23, example 2): Beleaguered Castle where the deal itself feeds the foundations."""

from __future__ import annotations

from .beleaguered_castle import CastleGame
from .engine.cards import ACE, RANK
from .engine.model import GameInfo
from .engine.registry import register
from .engine.rng import Rng


@register
class Citadel(CastleGame):
    info = GameInfo(
        id="citadel",
        source="000_5c0014aada07c9b6.txt",
        decks=1, kind="S-open", difficulty=2,
    )

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        order = self.round_order()
        while deck:
            for wing in order:
                if not deck:
                    break
                c = deck.pop()
                f = self._foundation_for(c)
                self.put(wing if f < 0 else f, c)

    def _foundation_for(self, c: int) -> int:
        """The foundation a card being dealt goes to at once, or -1."""
        for f in self.foundations:
            pile = self.cards[f]
            if (not pile and RANK[c] == ACE) or (pile and pile[-1] == c - 1 and RANK[c] > ACE):
                return f
        return -1
