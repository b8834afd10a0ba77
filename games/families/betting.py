"""Betting at a table of seats: turns clockwise, chips paid into one pot, fixed-limit rounds.

Why a family: what a betting round is (who still owes, what a check, bet, call, raise or
drop does to the chips) does not depend on the cards, so a game that bets (Draw Poker today)
keeps only what its own rules add: when a round starts, what happens between rounds, and
who wins. The state is the game's journaled ``vars`` (``chips``, ``contrib``, ``bets``,
``pot``, ``level``, ``raised``, ``acted``, ``live``, ``turn``), so undo and the searches see
nothing new.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine.model import Move
from ..engine.reason import Reason
from .poker_pots import Sharing, share_pots
from .seats import SeatedGame

#: the moves of a betting round
ROUND_KINDS = ("check", "bet", "call", "raise", "drop")


class BettingTable(SeatedGame):
    """A seated game whose seats bet chips into a pot, ``n`` seats round the table."""

    n: int

    # ------------------------------------------------------------------ seats
    def _next_seat(self, seat: int, ok: Callable[[int], Any]) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if ok(s):
                return s
        return seat

    def _order_from(self, dealer: int, ok: Callable[[int], Any]) -> list[int]:
        """Seats that satisfy ``ok``, clockwise from the dealer's left (the dealer last)."""
        return [s for s in ((dealer + k) % self.n for k in range(1, self.n + 1)) if ok(s)]

    def _can_bet(self, s: int) -> bool:
        return self.vars["live"][s] and self.vars["chips"][s] > 0

    def _mark(self, name: str, seat: int, value: Any) -> None:
        row = list(self.vars[name])
        row[seat] = value
        self._set(name, tuple(row))

    # ------------------------------------------------------------------ the pot
    def _with_antes(self, seated: Sequence[bool], dealer: int, ante: int
                    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
        """Chips, contributions, antes and pot once every seated seat but the dealer has
        put in ``ante`` (or what it has left); nothing is set, the caller sets them."""
        chips, contrib = list(self.vars["chips"]), list(self.vars["contrib"])
        antes = list(self.vars["antes"])
        pot = self.vars["pot"]
        for s in range(self.n):
            if seated[s] and s != dealer:
                pay = min(ante, chips[s])
                chips[s] -= pay
                contrib[s] += pay
                antes[s] += pay
                pot += pay
        return tuple(chips), tuple(contrib), tuple(antes), pot

    def _pay_out(self, values: Mapping[int, tuple[int, ...]], dealer: int
                 ) -> tuple[Sharing, tuple[int, ...], tuple[int, ...]]:
        """Share the pot between the live seats whose hands are ``values``
        (:func:`games.families.poker_pots.share_pots`: the antes of every deal of this hand
        and the bets all live seats matched are the main pot; side pots come only from
        seats all in for less). Gives the sharing, what each seat won, and the chips after
        it; nothing is set."""
        contrib, antes = self.vars["contrib"], self.vars["antes"]
        chips = list(self.vars["chips"])
        order = self._order_from(dealer, lambda x: True)
        bets = [c - a for c, a in zip(contrib, antes, strict=True)]
        sharing = share_pots(self.vars["pot"] - sum(bets), bets, values, order)
        won = sharing.won(self.n)
        for s in range(self.n):
            chips[s] += won[s] + sharing.returned[s]
        return sharing, won, tuple(chips)

    # ------------------------------------------------------------------ a round
    def _start_round(self, number: int, first: int) -> None:
        self._set("round", number)
        self._set("bets", (0,) * self.n)
        self._set("level", 0)
        self._set("raised", (False,) * self.n)
        self._set("acted", (False,) * self.n)
        self._set("turn", first)

    def _round_moves(self, s: int) -> list[Move]:
        """Check or bet when nothing is owed; else drop, call, and raise once a round."""
        bets, level, chips = self.vars["bets"], self.vars["level"], self.vars["chips"]
        owe = level - bets[s]
        if owe == 0:
            return [Move("check"), Move("bet")]
        moves = [Move("drop"), Move("call")]
        if not self.vars["raised"][s] and chips[s] > owe:
            moves.append(Move("raise"))
        return moves

    def _pay(self, seat: int, amount: int) -> None:
        chips, contrib, bets = (list(self.vars[k]) for k in ("chips", "contrib", "bets"))
        pay = max(0, min(amount, chips[seat]))  # nothing ever comes out of the pot here
        chips[seat] -= pay
        contrib[seat] += pay
        bets[seat] += pay
        self._set("chips", tuple(chips))
        self._set("contrib", tuple(contrib))
        self._set("bets", tuple(bets))
        self._set("pot", self.vars["pot"] + pay)
        self._set("level", max(self.vars["level"], bets[seat]))

    def _bet(self, kind: str, s: int, unit: int, drop_pays: int = 0) -> None:
        """Seat ``s`` makes the round move ``kind``; a bet or raise is ``unit`` chips more
        than the level, a drop first pays up to ``drop_pays`` (droppers pay the opening)."""
        if kind == "check":
            self._mark("acted", s, True)
        elif kind in ("bet", "raise"):
            self._pay(s, self.vars["level"] - self.vars["bets"][s] + unit)
            if kind == "raise":
                self._mark("raised", s, True)
            self._set("acted", tuple(x == s for x in range(self.n)))
        elif kind == "call":
            self._pay(s, self.vars["level"] - self.vars["bets"][s])
            self._mark("acted", s, True)
        elif kind == "drop":
            if drop_pays:
                self._pay(s, drop_pays - self.vars["bets"][s])
            self._mark("live", s, False)
            self._mark("acted", s, True)

    def _round_refusal(self, kind: str) -> Reason:
        """Why the round move ``kind`` is refused to the seat to move."""
        owe = self.vars["level"] - self.vars["bets"][self.to_move]
        if kind == "raise" and owe > 0:
            if self.vars["raised"][self.to_move]:
                return Reason("You may raise only once in each betting round.")
            return Reason("You have too few chips to raise.")
        if owe > 0:
            return Reason("There is a bet to you: call, raise or drop.")
        return Reason("There is no bet to you: check or bet.")

    def _still_to_act(self) -> list[int]:
        """The seats that must still act this round, clockwise from the seat to move: one
        that owes chips, or one that has not acted while someone could answer it."""
        bets, level, acted = self.vars["bets"], self.vars["level"], self.vars["acted"]
        able = self._order_from(self.to_move, self._can_bet)
        return [s for s in able if bets[s] < level or (not acted[s] and len(able) > 1)]
