"""The normal Draw Poker player's chance of winning, read from what the others did.

Why: dealing the other players random cards ignores everything the table has shown. A
player who stood pat holds a straight or better; one who drew one card kept two pairs or
four to a flush or a straight; the opener had jacks or better; whoever passed before the
opener did not; a raise means strength. So each simulated deal gives every other player
a hand that fits its draw count and its opening (the kind of hand its draw count means,
built from the cards still unseen), and weighs the deal by how well the hands fit the bets
made this round.

The hands and the weights come from the view alone: the unseen cards are the whole pack
less this seat's own hand and discards, so hidden hands and the stock order cannot change
the answer (``tests/test_draw_poker_players.py`` checks it as a property).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..engine.cards import JOKER, RANK, SUIT
from ..engine.rng import Rng
from ..families.poker import ONE_PAIR, TWO_PAIR
from ..families.poker_table import hand_value
from ..families.seats import View
from .poker_holds import standard_hold

DECK = tuple(range(52)) + (JOKER,)
OPENERS = (ONE_PAIR, 11)
#: the weight of a simulated deal in which a player who raised (or bet) this round holds
#: less than the hand a raise (a bet) usually shows
RAISE_MISFIT = 0.25
BET_MISFIT = 0.5
#: tries to deal a player a hand that fits its opening before giving up on the fit
TRIES = 12
#: the made hands a stand-pat is dealt, by share: straights, flushes, full houses
PAT_SHARES = (0.5, 0.8)


def unseen(view: View) -> list[int]:
    """The cards this seat has not seen: all but its hand, the discards and shown cards."""
    seen = set(view.hand) | set(view.info.get("discarded", ()))
    for cards in view.shown.values():
        seen |= set(cards)
    return [c for c in DECK if c not in seen]


def _passed(view: View) -> set[int]:
    """The seats that passed before the opener in this deal (they had no openers)."""
    info = view.info
    opener, n = info["opener"], info["seats"]
    if opener < 0:
        return set()
    out = set()
    s = (info["dealer"] + 1) % n
    while s != opener:
        out.add(s)
        s = (s + 1) % n
    return out


class _Deal:
    """One simulated deal of the unseen cards: a shuffled pool read in order; a card that
    must fit (a pair's rank, a flush's suit) is the first unused one that does, which is a
    uniform choice since the pool is shuffled. When the pool runs out it goes round again,
    as the game reshuffles its discards."""

    def __init__(self, base: list[int], rng: Rng) -> None:
        self.pool = list(base)
        rng.shuffle(self.pool)
        self.at = 0
        self.used: set[int] = set()

    def take(self, n: int) -> list[int]:
        out: list[int] = []
        pool = self.pool
        limit = self.at + 3 * len(pool)
        while len(out) < n and self.at < limit:
            c = pool[self.at % len(pool)]
            self.at += 1
            if c not in self.used or self.at > len(pool):
                out.append(c)
                self.used.add(c)
        return out

    def find(self, fits: Callable[[int], bool], n: int) -> list[int] | None:
        """``n`` unused cards that each fit, claimed; None (nothing claimed) if too few."""
        out = []
        for c in self.pool:
            if c not in self.used and fits(c):
                out.append(c)
                if len(out) == n:
                    self.used.update(out)
                    return out
        return None

    def claim(self, cards: Iterable[int]) -> None:
        self.used.update(cards)


def _of_a_kind(deal: _Deal, n: int, ranks: Iterable[int]) -> list[int] | None:
    for r in ranks:
        got = deal.find(lambda c, r=r: RANK[c] == r, n)  # type: ignore[misc]  # r bound per turn
        if got:
            return got
    return None


def _ranks(rng: Rng, allowed: tuple[int, ...] = tuple(range(1, 14))) -> list[int]:
    """The allowed ranks in a random order."""
    order = list(allowed)
    rng.shuffle(order)
    return order


def _kept(deal: _Deal, rng: Rng, keep: int, opener: bool) -> list[int] | None:
    """Cards a player who kept ``keep`` usually holds: an ace; a pair (jacks or better for
    the opener); trips; two pairs or four to a flush; a straight, a flush or a full
    house for a stand-pat."""
    if keep == 0:
        return []
    if keep == 1:
        return deal.find(lambda c: c >= JOKER or RANK[c] == 1, 1)
    if keep == 2:
        return _of_a_kind(deal, 2, _ranks(rng, (1, 11, 12, 13) if opener else
                                           tuple(range(1, 14))))
    if keep == 3:
        return _of_a_kind(deal, 3, _ranks(rng))
    coin = rng.below(1000) / 1000
    if keep == 4:
        if coin < 0.5:
            ranks = _ranks(rng)
            first = _of_a_kind(deal, 2, ranks)
            second = _of_a_kind(deal, 2, [r for r in ranks if first and r != RANK[first[0]]])
            return first + second if first and second else None
        suit = rng.below(4)
        return deal.find(lambda c: SUIT[c] == suit, 4)
    if coin < PAT_SHARES[0]:
        low = 1 + rng.below(10)
        out = []
        for r in range(low, low + 5):
            got = deal.find(lambda c, r=1 if r == 14 else r: RANK[c] == r, 1)  # type: ignore[misc]  # r bound per turn
            if not got:
                return None
            out += got
        return out
    if coin < PAT_SHARES[1]:
        suit = rng.below(4)
        return deal.find(lambda c: SUIT[c] == suit, 5)
    ranks = _ranks(rng)
    three = _of_a_kind(deal, 3, ranks)
    two = _of_a_kind(deal, 2, [r for r in ranks if three and r != RANK[three[0]]])
    return three + two if three and two else None


def _rival_hand(deal: _Deal, rng: Rng, rule: str, drawn: int, cond: str) -> list[int]:
    """A hand for a player who drew ``drawn`` cards (-1: not yet) and opened ("open"),
    passed before the opener ("shut") or neither ("any")."""
    if drawn >= 0:
        kept = _kept(deal, rng, 5 - drawn, cond == "open")
        if kept is None:  # the unseen cards hold no such hand: any hold of that size
            kept = list(standard_hold(tuple(deal.take(5)), rule)[:5 - drawn])
        return kept + deal.take(5 - len(kept))
    hand = deal.take(5)
    for _ in range(TRIES if cond != "any" else 0):
        if (hand_value(hand, rule) >= OPENERS) == (cond == "open"):
            break
        hand = deal.take(5)
    keep = standard_hold(tuple(hand), rule)
    return list(keep) + deal.take(5 - len(keep))


def live_rivals(view: View) -> list[int]:
    """The seats still in the hand besides this one (the hands a simulation deals)."""
    info = view.info
    return [s for s in range(info["seats"]) if s != view.seat and info["live"][s]]


def simulation_start(view: View) -> tuple[str, list[int], tuple[int, ...]]:
    """What a simulated deal reads first: the wild rule, the rivals still in and what
    each seat drew (-1: not yet)."""
    return view.info["wild"], live_rivals(view), view.info["drawn"]


def read_chance(view: View, rng: Rng, samples: int,
                keep: tuple[int, ...] | None = None) -> float:
    """The weighted share of simulated deals this seat wins; before its draw it keeps
    ``keep`` (the standard hold if not given) and draws the rest."""
    rule, rivals, drawn = simulation_start(view)
    if not rivals:
        return 1.0
    info = view.info
    before = drawn[view.seat] < 0
    if keep is None:
        keep = standard_hold(view.hand, rule) if before else tuple(view.hand)
    base = unseen(view)
    passed = _passed(view)
    cond = {s: "open" if s == info["opener"] else "shut" if s in passed else "any"
            for s in rivals}
    round_no, bets, raised = info["round"], info["bets"], info["raised"]
    # what this round's bets say: a raiser shows two pairs or better; a bettor (or caller)
    # after the draw shows at least jacks
    claims = {s: (TWO_PAIR,) if raised[s] else OPENERS
              for s in rivals if raised[s] or (round_no == 1 and bets[s] > 0)}
    total = won = 0.0
    samples = max(16, samples * 3 // (len(rivals) + 2))
    for _ in range(samples):
        deal = _Deal(base, rng)
        deal.claim(keep)
        mine = list(keep) + (deal.take(5 - len(keep)) if len(keep) < 5 else [])
        hands = {s: _rival_hand(deal, rng, rule, drawn[s], cond[s]) for s in rivals}
        best = hand_value(mine, rule)
        weight, beaten, tied = 1.0, False, 0
        for s, hand in hands.items():
            v = hand_value(hand, rule)
            if s in claims and v < claims[s]:
                weight *= RAISE_MISFIT if raised[s] else BET_MISFIT
            if v > best:
                beaten = True
            tied += v == best
        total += weight
        if not beaten:
            won += weight / (1 + tied)
    return won / total
