"""Gin Rummy computer players: separate policies for the draw, the discard and the knock.

``normal`` takes the upcard when it makes a meld or lowers its deadwood clearly; discards
the card that leaves the least deadwood, counting the unseen cards that would still improve
the hand and avoiding cards the opponent's pick-ups show it wants; and knocks with a
threshold that falls as the stock runs down, because a late knock meets a developed hand
and the 25-point undercut. ``easy`` plays the simple rules with a careless discard now and
then. ``baseline`` is the yardstick of ``bench/opponents.py`` (take the upcard only for a
meld, throw the highest unmatched card, knock as soon as allowed); it is no level a
visitor meets.

Every level answers the first upcard offer with its own take rule, and lays off at a knock
what lowers its deadwood most, one card at a time so the visitor sees each (a card that
chains on another is laid after it).

Each is a function of (view, rng) only; the rng is the game's seeded computer source.
"""

from __future__ import annotations

from ..engine.cards import RANK, SUIT
from ..engine.model import Move
from ..engine.rng import Rng
from ..families.melds import POINTS, arrange, deadwood, deadwood_mask, extends, lay_off, mask_of
from ..families.seats import View

#: knock when the least deadwood after the discard is at most this, by stock cards left
KNOCK_STEPS = ((22, 10), (14, 6), (0, 3))
#: lower the deadwood by at least this to take an upcard that makes no meld
TAKE_GAIN = 4
#: deadwood points an unseen card that would meld with the hand is worth, early in the hand
OUTS_WEIGHT = 0.5


def _take_makes_meld(view: View) -> bool:
    up = view.public["discard"][-1]
    melds, _ = arrange((*view.hand, up))
    return any(up in m for m in melds)


def _best_after_discard(cards: tuple[int, ...], forbidden: int = -1) -> int:
    return min(deadwood(c for c in cards if c != out) for out in cards if out != forbidden)


def lay_off_next(view: View) -> Move:
    """The next card of the best lay-off (GAMES.md §B2), or ``done`` when none is left."""
    laid = {c for c, _i in view.info["laid"]}
    rest = [c for c in view.hand if c not in laid]
    melds = view.info["melds"]
    _dw, where, _m, _d = lay_off(rest, melds)
    for card in sorted(where):
        if extends(melds[where[card]], card):
            return Move("layoff", extra=(card, where[card]))
    return Move("done")


def _offer_or_draw(view: View, take: bool) -> Move:
    if view.phase == "offer":
        return Move("take") if take else Move("pass")
    return Move("take") if take else Move("stock")


def _knocks(view: View) -> list[Move]:
    return [m for m in view.legal if m.kind in ("knock", "gin")]


def _discards(view: View) -> list[Move]:
    return [m for m in view.legal if m.kind == "discard"]


def _lowest_knock(view: View) -> Move:
    """The knock (or gin) that leaves the least deadwood, throwing the highest card."""
    hand = view.hand

    def left(m: Move) -> tuple[int, int]:
        c = m.extra[0]
        return deadwood(x for x in hand if x != c), -POINTS[c]

    return min(_knocks(view), key=left)


def _highest_unmatched(view: View, rng: Rng | None = None) -> Move:
    """Throw the highest card outside the best arrangement (or a random one of the two
    highest, for the careless easy player)."""
    options = _discards(view)
    _, unmatched = arrange(view.hand)
    legal = {m.extra[0] for m in options}
    dead = sorted((c for c in unmatched if c in legal), key=lambda c: (-POINTS[c], c))
    if not dead:
        hand = view.hand
        return min(options, key=lambda m: (deadwood(x for x in hand if x != m.extra[0]),
                                           -POINTS[m.extra[0]], m.extra[0]))
    pick = dead[0]
    if rng is not None and len(dead) > 1 and rng.below(3) == 0:
        pick = dead[rng.below(len(dead))]
    return Move("discard", extra=(pick,))


def baseline(view: View, rng: Rng) -> Move:
    if view.phase in ("draw", "offer"):
        can_take = any(m.kind == "take" for m in view.legal)
        return _offer_or_draw(view, can_take and (_take_makes_meld(view)
                                                  or view.legal == (Move("take"),)))
    if view.phase == "discard":
        if _knocks(view):
            return _lowest_knock(view)
        return _highest_unmatched(view)
    if view.phase == "layoff":
        return lay_off_next(view)
    return view.legal[0]


def easy(view: View, rng: Rng) -> Move:
    if view.phase == "discard" and not _knocks(view):
        return _highest_unmatched(view, rng)
    return baseline(view, rng)


# ---------------------------------------------------------------------- normal
def unseen(view: View) -> list[int]:
    """Cards this seat has not seen: not in its hand, the discard pile or known to be held."""
    seen = set(view.hand) | set(view.public["discard"])
    for cards in view.shown.values():
        seen |= set(cards)
    return [c for c in range(52) if c not in seen]


def _danger(card: int, wanted: tuple[int, ...], refused: tuple[int, ...]) -> float:
    """How likely the opponent wants ``card``, judged from what it picked up (it is
    building with those) and what it threw away (it is not)."""
    score = 0.0
    for w in wanted:
        if RANK[w] == RANK[card]:
            score += 1.0
        elif SUIT[w] == SUIT[card] and abs(RANK[w] - RANK[card]) <= 2:
            score += 0.7
    for r in refused:
        if RANK[r] == RANK[card]:
            score -= 0.3
        elif SUIT[r] == SUIT[card] and abs(RANK[r] - RANK[card]) == 1:
            score -= 0.2
    return max(score, 0.0)


def _outs(rest_mask: int, pool: list[int]) -> int:
    """How many unseen cards would form a meld with cards of the hand ``rest_mask``: two of
    its rank, or two suited neighbours (A low only). A pattern test, not a search: this runs
    for every unseen card of every candidate discard, and a card that melds with the hand
    lowers its deadwood below that of the hand plus the card in every case that matters."""
    count = 0
    for u in pool:
        rank, base = RANK[u], SUIT[u] * 13
        pairs = sum(rest_mask >> (s * 13 + rank - 1) & 1 for s in range(4))
        if pairs >= 2:
            count += 1
            continue
        near = [0 < rank + d <= 13 and rest_mask >> (base + rank + d - 1) & 1
                for d in (-2, -1, 1, 2)]
        if (near[0] and near[1]) or (near[1] and near[2]) or (near[2] and near[3]):
            count += 1
    return count


def _discard_normal(view: View, rng: Rng) -> Move:
    other = 1 - view.seat
    wanted = view.shown.get(other, ())
    refused = view.info["thrown"][other]
    pool = unseen(view)
    stock = view.counts["stock"]
    weight = OUTS_WEIGHT * min(1.0, stock / 20)
    full = mask_of(view.hand)
    best: tuple[float, int] | None = None
    pick = None
    for m in _discards(view):
        c = m.extra[0]
        rest = full & ~(1 << c)
        dw = deadwood_mask(rest)
        value = dw - weight * _outs(rest, pool) + 3.0 * _danger(c, wanted, refused)
        key = (value, -POINTS[c])
        if best is None or key < best:
            best, pick = key, m
    assert pick is not None
    return pick


def _knock_threshold(stock: int) -> int:
    for floor, limit in KNOCK_STEPS:
        if stock >= floor:
            return limit
    return KNOCK_STEPS[-1][1]


def _normal_takes(view: View) -> bool:
    if not any(m.kind == "take" for m in view.legal):
        return False
    if view.legal == (Move("take"),) or _take_makes_meld(view):
        return True
    up = view.public["discard"][-1]
    now = deadwood(view.hand)
    return _best_after_discard((*view.hand, up), forbidden=up) <= now - TAKE_GAIN


def normal(view: View, rng: Rng) -> Move:
    if view.phase in ("draw", "offer"):
        return _offer_or_draw(view, _normal_takes(view))
    if view.phase == "layoff":
        return lay_off_next(view)
    if view.phase == "discard":
        knocks = _knocks(view)
        if knocks:
            best = _lowest_knock(view)
            c = best.extra[0]
            left = deadwood(x for x in view.hand if x != c)
            if best.kind == "gin" or left <= _knock_threshold(view.counts["stock"]):
                return best
            if view.counts["stock"] <= 2 and left <= 6:
                return best  # the hand would be a draw: knock while it is allowed
        return _discard_normal(view, rng)
    return view.legal[0]
