"""Shamrocks (003 variant): La Belle Lucie with kings sent under, any-suit up or down, fans of 3.

Kings are moved to the bottom of their fans before play because a king can never be moved
onto another fan; left on top it would block its fan until its foundation reached it. The
source states the rule twice, broadly (every king to the bottom) and narrowly (a king lying
on a lower card of its own suit goes under that card, Morehead's reading); the broad one is
the default. The variant text is silent on redeals; the standard game has none.
"""

from __future__ import annotations

from .engine.cards import RANK, SUIT
from .engine.model import GameInfo, Option
from .engine.registry import register
from .families.patience import Build
from .la_belle_lucie import LaBelleLucie


@register
class Shamrocks(LaBelleLucie):
    info = GameInfo(
        id="shamrocks",
        source="003_a9f4e6f80390d395.txt", source_game="Shamrocks (variant of La Belle Lucie)",
        decks=1, kind="S-open", difficulty=3,
    )
    options = (
        Option("kings_rule", "all", ("all", "morehead"),
               help="all: every king to the bottom of its fan; morehead: only a king on a lower "
                    "card of its own suit goes under it"),
    )
    fan_build = Build("any", 0)
    fan_limit = 3
    redeals = 0

    def deal(self, rng) -> None:
        super().deal(rng)
        send_under = self.all_kings_under if self.opts["kings_rule"] == "all" else \
            self.kings_under_own_suit
        for t in self.tableau:
            self.cards[t] = send_under(self.cards[t])

    @staticmethod
    def all_kings_under(fan: list[int]) -> list[int]:
        return [c for c in fan if RANK[c] == 13] + [c for c in fan if RANK[c] != 13]

    @staticmethod
    def kings_under_own_suit(fan: list[int]) -> list[int]:
        fan = list(fan)
        for king in [c for c in fan if RANK[c] == 13]:
            i = fan.index(king)
            lower = next((j for j in range(i) if SUIT[fan[j]] == SUIT[king]), None)
            if lower is not None:
                fan.insert(lower, fan.pop(i))
        return fan

    # ------------------------------------------------------------ solver hooks
    # Building goes up *or* down in any suit, so a card on a fan is a parking place for the
    # eight cards one rank away, its own suit's next card included. That changes which
    # foundation moves are safe (see solver_autoplay), and three facts of the layout give the
    # other hooks: a fan never holds more than three cards, an empty fan is never filled, and
    # a card reaches the bottom of a fan only by the deal.
