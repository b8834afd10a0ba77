"""Sharing a Draw Poker pot at the end of a hand: the main pot and the side pots.

Why a module of its own: the antes are dead money. They are put in before anyone has seen a
card, and after a pass-out they stay for the next deal, so they belong to the main pot, which
every seat still in the hand contests. Counting them as part of what a seat "put in" made the
seats that anted while another dealt look like they had bet more, and gave them a side pot of
their own antes even when their hand lost (issue 25). Side pots come only from bets: a seat
all in for less than the others contests only the chips the others matched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """One pot: its chips, the live seats that contest it, and who takes how much (seats
    in seat order, ``shares`` one a winner)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]

    def data(self) -> dict[str, list[int] | int]:
        return {"amount": self.amount, "eligible": list(self.eligible),
                "winners": list(self.winners), "shares": list(self.shares)}


@dataclass(frozen=True)
class Sharing:
    """The pots, the main pot first, and any bet nobody called, which goes back to its seat
    (it is no pot: nobody else contested it)."""

    pots: tuple[Pot, ...]
    returned: tuple[int, ...]

    def won(self, seats: int) -> tuple[int, ...]:
        """What each seat takes from the pots, its returned bet not counted."""
        won = [0] * seats
        for pot in self.pots:
            for s, share in zip(pot.winners, pot.shares, strict=True):
                won[s] += share
        return tuple(won)


def share_pots(dead: int, bets: Sequence[int], values: Mapping[int, tuple[int, ...]],
               order: Sequence[int]) -> Sharing:
    """Share ``dead`` chips (the antes) and each seat's ``bets`` of this hand between the
    live seats, whose hand values are ``values``.

    Pots are cut at each live seat's total bet, lowest first; the first is the main pot
    and holds the antes. Chips a folded seat bet above every live seat's total join the
    last pot. Each pot goes to the best hand among the seats that bet at least its top; a
    tie splits it, an odd chip to the first of them in ``order`` (from the dealer's left).
    """
    live = [s for s in order if s in values]
    levels = sorted({bets[s] for s in live})
    pots: list[Pot] = []
    returned = [0] * len(bets)
    below = 0
    for i, top in enumerate(levels):
        last = i == len(levels) - 1
        paid = [min(b, top) - min(b, below) + (max(0, b - top) if last else 0) for b in bets]
        amount = sum(paid) + (dead if i == 0 else 0)
        eligible = tuple(s for s in live if bets[s] >= top)
        below = top
        if amount == 0:
            continue
        if i > 0 and len(eligible) == 1 and paid[eligible[0]] == amount:
            returned[eligible[0]] += amount  # a bet only its own seat made
            continue
        best = max(values[s] for s in eligible)
        winners = tuple(s for s in eligible if values[s] == best)
        share, odd = divmod(amount, len(winners))
        shares = sorted((s, share + (1 if k < odd else 0)) for k, s in enumerate(winners))
        pots.append(Pot(amount, tuple(sorted(eligible)), tuple(s for s, _ in shares),
                        tuple(n for _, n in shares)))
    return Sharing(tuple(pots), tuple(returned))
