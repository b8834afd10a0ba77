"""The normal Draw Poker player's chance of winning, read from what the others did.

Why: dealing the other players random cards ignores everything the table has shown. A
player who stood pat holds a straight or better; one who drew one card kept two pairs or
four to a flush or a straight; the opener had jacks or better; whoever passed before the
opener did not; a raise means strength. So each simulated deal gives every other player
a hand that fits its draw count and its opening (from a bank of hands dealt once from a
fixed seed and sorted by what the standard hold keeps), and weighs the deal by how well
the hands fit the bets made this round.

The bank and the weights come from the view alone: the unseen cards are the whole pack
less this seat's own hand and discards, so hidden hands and the stock order cannot change
the answer (``tests/test_draw_poker_players.py`` checks it as a property).
"""

from __future__ import annotations

from functools import cache

from ..cards import JOKER
from ..poker import ONE_PAIR, TWO_PAIR
from ..poker_table import hand_value
from ..rng import Rng
from ..seats import View
from .poker_holds import standard_hold

DECK = tuple(range(52)) + (JOKER,)
OPENERS = (ONE_PAIR, 11)
#: how many hands the bank deals per wild rule (once, cached): enough for a few dozen
#: stand-pat hands, the rarest draw
BANK_HANDS = 6000
#: the weight of a simulated deal in which a player who raised (or bet) this round holds
#: less than the hand a raise (a bet) usually shows
RAISE_MISFIT = 0.25
BET_MISFIT = 0.5
#: tries to find a bank hand whose cards are still unseen and undealt in this sample
TRIES = 6

Bank = dict[tuple[int, str], list[tuple[tuple[int, ...], tuple[int, ...]]]]


@cache
def bank(rule: str) -> Bank:
    """Hands by (cards the standard hold keeps, "open" / "shut" / "any"), each with its hold."""
    rng = Rng(0x504F4B4552, 2)
    deck = list(DECK)
    out: Bank = {}
    for _ in range(BANK_HANDS):
        for i in range(5):
            j = i + rng.below(len(deck) - i)
            deck[i], deck[j] = deck[j], deck[i]
        hand = tuple(deck[:5])
        hold = standard_hold(hand, rule)
        cond = "open" if hand_value(hand, rule) >= OPENERS else "shut"
        for key in ((len(hold), cond), (len(hold), "any"), (-1, cond)):
            out.setdefault(key, []).append((hand, hold))
    return out


def _unseen(view: View) -> list[int]:
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
    """One simulated deal of the unseen cards: a shuffled pool read in order, skipping the
    cards a bank hand took; when the pool runs out it goes round again, as the game
    reshuffles its discards."""

    def __init__(self, base: list[int], rng: Rng, unseen: set[int]) -> None:
        self.pool = list(base)
        rng.shuffle(self.pool)
        self.at = 0
        self.used: set[int] = set()
        self.unseen = unseen

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

    def fits(self, cards: tuple[int, ...]) -> bool:
        return all(c in self.unseen and c not in self.used for c in cards)

    def claim(self, cards: tuple[int, ...]) -> None:
        self.used.update(cards)


def _rival_hand(deal: _Deal, rng: Rng, rule: str, drawn: int, cond: str,
                entries: Bank) -> list[int]:
    """A hand for a player who drew ``drawn`` cards (-1: not yet) and opened / passed."""
    if drawn < 0 and cond == "any":
        hand = deal.take(5)
        keep = standard_hold(tuple(hand), rule)
        return list(keep) + deal.take(5 - len(keep))
    key = (-1, cond) if drawn < 0 else (5 - drawn, cond)
    choices = entries.get(key) or entries.get((5 - drawn, "any")) or []
    for _ in range(TRIES if choices else 0):
        hand, hold = choices[rng.below(len(choices))]
        if deal.fits(hold if drawn >= 0 else hand):
            deal.claim(hold)
            return list(hold) + deal.take(5 - len(hold))
    hand = deal.take(5)
    keep = standard_hold(tuple(hand), rule)[:5 - drawn] if drawn >= 0 else \
        standard_hold(tuple(hand), rule)
    return list(keep) + deal.take(5 - len(keep))


def read_chance(view: View, rng: Rng, samples: int,
                keep: tuple[int, ...] | None = None) -> float:
    """The weighted share of simulated deals this seat wins; before its draw it keeps
    ``keep`` (the standard hold if not given) and draws the rest."""
    info = view.info
    rule = info["wild"]
    rivals = [s for s in range(info["seats"]) if s != view.seat and info["live"][s]]
    if not rivals:
        return 1.0
    drawn = info["drawn"]
    before = drawn[view.seat] < 0
    if keep is None:
        keep = standard_hold(view.hand, rule) if before else tuple(view.hand)
    base = _unseen(view)
    unseen = set(base)
    entries = bank(rule)
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
        deal = _Deal(base, rng, unseen)
        deal.claim(keep)
        mine = list(keep) + (deal.take(5 - len(keep)) if len(keep) < 5 else [])
        hands = {s: _rival_hand(deal, rng, rule, drawn[s], cond[s], entries) for s in rivals}
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
