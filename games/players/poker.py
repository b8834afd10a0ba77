"""Draw Poker computer players: holds, simulated draws and bets from a simulated chance.

``normal`` holds the standard way (made hands, pairs, four to a flush, open-ended
straights) and, when two holds are close, simulates draws from the cards it has not seen
to pick the better one. It bets from its chance of winning, estimated by dealing the
unseen cards to the players still in (each keeping what its draw count says it kept)
and comparing hands, against the price the pot offers; a seeded coin mixes its play and
now and then bluffs, and it stops raising when a raise would stake much of its stack.
``easy`` plays the holds alone, estimates from fewer deals and calls too often.

Each is a function of (view, rng) only: the unseen cards are the whole pack less its own
hand and its own discards, so the hidden hands and the stock order cannot change a choice.
"""

from __future__ import annotations

from itertools import combinations

from ..engine.cards import SUIT
from ..engine.model import Move
from ..engine.rng import Rng
from ..families.poker import ONE_PAIR
from ..families.poker_table import hand_value
from ..families.seats import View
from .poker_holds import standard_hold
from .poker_odds import read_chance, simulation_start, unseen

#: how many simulated deals a level makes to value a hold and to estimate its chance
SAMPLES = {"easy": 24, "normal": 90}
#: how many simulated draws settle a close call between two holds (normal only)
HOLD_SAMPLES = 40
#: the share of its chips past which a player raises only with a strong chance
STAKE_LIMIT = 0.15


def _random(rng: Rng) -> float:
    return rng.below(1 << 30) / (1 << 30)


def _finish(keep: list[int], pool: list[int], rng: Rng) -> list[int]:
    """``keep`` filled to five from ``pool`` at random (``pool`` is shuffled in part)."""
    need = 5 - len(keep)
    for i in range(need):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return keep + pool[:need]


def _hold_score(keep: tuple[int, ...], pool: list[int], rule: str, rng: Rng) -> float:
    total = 0.0
    for _ in range(HOLD_SAMPLES):
        v = hand_value(_finish(list(keep), pool, rng), rule)
        total += v[0] + (v[1] / 15 if len(v) > 1 else 0)
    return total / HOLD_SAMPLES


def choose_hold(view: View, rng: Rng, careful: bool) -> tuple[int, ...]:
    rule = view.info["wild"]
    hold = standard_hold(view.hand, rule)
    if not careful or len(hold) == 5:
        return hold
    # close calls: a pair against four to a flush or a straight, a kicker with trips
    others = [hold]
    for k in (4, 3):
        for keep in combinations(sorted(view.hand), k):
            if hand_value(keep, rule) >= hand_value(hold, rule) and keep != hold and \
                    (len({SUIT[c] for c in keep}) == 1 or k == 4):
                others.append(keep)
    if len(others) == 1:
        return hold
    pool = unseen(view)
    return max(others[:6], key=lambda keep: _hold_score(keep, pool, rule, rng))


def _draw_move(view: View, keep: tuple[int, ...]) -> Move:
    out = tuple(sorted(c for c in view.hand if c not in keep))
    return Move("draw", extra=out) if out else Move("stand")


def win_chance(view: View, rng: Rng, samples: int) -> float:
    """The share of simulated deals this seat wins: the unseen cards go to the players
    still in; before the draw everyone (this seat too) holds the standard way and draws,
    after it each keeps 5 - (cards it drew) and gets the rest at random."""
    rule, rivals, drawn = simulation_start(view)
    if not rivals:
        return 1.0
    before = view.info["round"] == 0 and drawn[view.seat] < 0
    mine_keep = standard_hold(view.hand, rule) if before else tuple(view.hand)
    base = unseen(view)
    wins = 0.0
    # with many players the pack runs short, as the real stock does: then the simulated
    # deal goes round the shuffled pool again (the game reshuffles its discards)
    samples = max(16, samples * 3 // (len(rivals) + 2))
    for _ in range(samples):
        pool = list(base)
        rng.shuffle(pool)
        pool = pool * 3
        at = 0
        mine = list(mine_keep) + pool[at:at + 5 - len(mine_keep)]
        at += 5 - len(mine_keep)
        best = hand_value(mine, rule)
        beaten, tied = False, 0
        for s in rivals:
            hand = pool[at:at + 5]
            at += 5
            if drawn[s] >= 0 or before:
                k = drawn[s] if drawn[s] >= 0 else 5 - len(standard_hold(tuple(hand), rule))
                keep = standard_hold(tuple(hand), rule)[:5 - k] if k else hand
                hand = list(keep) + pool[at:at + 5 - len(keep)]
                at += 5 - len(keep)
            v = hand_value(hand, rule)
            if v > best:
                beaten = True
                break
            tied += v == best
        if not beaten:
            wins += 1 / (1 + tied)
    return wins / samples


def _bet(view: View, rng: Rng, level: str) -> Move:
    info = view.info
    legal = set(view.legal)
    seat = view.seat
    chips = info["chips"][seat]
    owe = info["level"] - info["bets"][seat]
    chance = win_chance(view, rng, SAMPLES[level])
    rivals = sum(info["live"]) - 1
    fair = 1 / (rivals + 1)
    coin = _random(rng)
    loose = 0.12 if level == "easy" else 0.0
    big = info["unit"] + owe > STAKE_LIMIT * chips
    strong = chance > min(0.8, 1.7 * fair) and (not big or chance > 0.75)
    if Move("check") in legal:
        bluff = coin < (0.04 if level == "easy" else 0.07) and not big
        if (strong and coin < 0.85) or bluff:
            return Move("bet")
        return Move("check")
    price = owe / (info["pot"] + owe)
    if Move("raise") in legal and strong and coin < 0.75:
        return Move("raise")
    if chance + loose + 0.05 * coin > price or (coin < 0.03 and not big):
        return Move("call")
    return Move("drop")


def drop_cost(view: View) -> int:
    """What dropping costs now: in the first round, when droppers pay the open, the rest
    of the opening bet is due anyway, so only the chips past it buy the call."""
    info = view.info
    if info["round"] != 0 or not info["droppers_pay_open"]:
        return 0
    return max(0, min(info["unit"] - info["bets"][view.seat], info["chips"][view.seat]))


def value_line(rivals: int) -> float:
    """The chance past which a bet wins chips against callers: better than an even share
    of the pot, with a margin, since the players who call are the stronger ones."""
    return 0.55 if rivals == 1 else min(0.55, 1.35 / (rivals + 1))


def _normal_bet(view: View, rng: Rng) -> Move:
    """Pot odds, value bets and raises, few and cheap bluffs, and a cap on the stake."""
    info = view.info
    legal = set(view.legal)
    seat = view.seat
    chips = info["chips"][seat]
    owe = info["level"] - info["bets"][seat]
    unit, pot = info["unit"], info["pot"]
    chance = read_chance(view, rng, SAMPLES["normal"])
    rivals = sum(info["live"]) - 1
    coin = _random(rng)
    line = value_line(rivals)
    # no reckless stakes: past a share of its chips it raises only with a near-sure hand
    big = unit + owe > STAKE_LIMIT * chips
    if Move("check") in legal:
        if chance > line and (not big or chance > 0.75):
            return Move("bet") if coin < 0.9 else Move("check")
        # now and then a bluff, cheap and after the draw, with a hand that cannot check
        # down a win anyway
        bluff = info["round"] == 1 and chance < 0.15 and not big and coin < 0.04
        return Move("bet") if bluff else Move("check")
    if Move("raise") in legal and chance > line + 0.1 and (not big or chance > 0.75) \
            and coin < 0.8:
        return Move("raise")
    price = owe - drop_cost(view)
    if price <= 0 or chance * (pot + owe) > price * (0.95 + 0.1 * coin):
        return Move("call")
    return Move("drop")


def _play(view: View, rng: Rng, level: str) -> Move:
    legal = view.legal
    if not legal:
        raise ValueError("the computer has no move")
    phase = view.phase
    if phase == "done":
        return Move("next")
    if phase == "draw":
        return _draw_move(view, choose_hold(view, rng, careful=level == "normal"))
    if phase == "open":
        if Move("open") not in legal:
            return Move("pass")
        value = hand_value(view.hand, view.info["wild"])
        # openers of jacks alone, early with many still to speak: sometimes wait
        weak = value[0] == ONE_PAIR and value[1] < 13
        return Move("pass") if weak and _random(rng) < 0.15 else Move("open")
    return _bet(view, rng, level) if level == "easy" else _normal_bet(view, rng)


def normal(view: View, rng: Rng) -> Move:
    return _play(view, rng, "normal")


def easy(view: View, rng: Rng) -> Move:
    return _play(view, rng, "easy")

