"""Follow the Rules computer players (GAMES.md §B6, Shasta Sam).

``normal`` has two halves, because the information changes half-way through a hand. While
cards are left to draw it cannot know the opponent's hand or the stock order, so it deals
the cards it has not seen at random many times (each deal consistent with its view: the
opponent's hand size, the trump card under the stock or known to be in the opponent's
hand) and plays every candidate card out to the end of the hand with a quick greedy policy
for both seats, keeping the card with the best average result. Once the stock is empty
every card is known (the pack less its own hand and the cards played is the opponent's
hand), so it solves the last tricks exactly: minimax over the points of the hand, with a
table of positions already solved.

``easy`` plays the greedy policy itself and a random legal card now and then; ``randomly``
is the bench's yardstick (any legal card), no level a visitor meets.

Each is a function of (view, rng) only; the rng is the game's seeded computer source, and
the unseen cards are sorted before they are dealt, so the order of the hidden cards can
never reach a decision.
"""

from __future__ import annotations

from ..engine.cards import ACE, JACK, RANK, SUIT
from ..engine.model import Move
from ..engine.rng import Rng
from ..families.seats import View

#: random deals of the unseen cards a normal decision plays out (each candidate card on
#: every deal, so the luck of the deal is the same for all of them) ...
SAMPLES = 40
#: ... but at most this many play-outs in all: six candidates early in a hand (26 tricks
#: to play out each) were the slowest decisions, so they share the budget
PLAYOUTS = 160
#: one in this many easy decisions is a random legal card
EASY_CARELESS = 4
#: a hand point outweighs any difference of card points in the solver's values
POINT = 1000

_POWER = tuple(14 if RANK[c] == ACE else RANK[c] for c in range(52))
_VALUE = tuple({10: 10, ACE: 4, 13: 3, 12: 2, JACK: 1}.get(RANK[c], 0) for c in range(52))


def _honours(trump: int) -> tuple[int, int, int]:
    """The codes of High, Low and Jack in ``trump``."""
    base = trump * 13
    return base + ACE - 1, base + 1, base + JACK - 1


def _legal_follow(hand: list[int], lead: int, trump: int) -> list[int]:
    suit = SUIT[lead]
    fit = [c for c in hand if SUIT[c] == suit or SUIT[c] == trump]
    return fit or hand


def _beats(follow: int, lead: int, trump: int) -> bool:
    if SUIT[follow] == SUIT[lead]:
        return _POWER[follow] > _POWER[lead]
    return SUIT[follow] == trump


def _cost(card: int, trump: int, honours: tuple[int, int, int]) -> int:
    """How much a card is worth keeping: trumps and honours most, card points next, then
    rank. The greedy policy throws the cheapest card it can."""
    return ((SUIT[card] == trump) * 400 + (card in honours) * 800 + _VALUE[card] * 20
            + _POWER[card])


def _greedy_lead(hand: list[int], trump: int, honours: tuple[int, int, int]) -> int:
    return min(hand, key=lambda c: _cost(c, trump, honours))


def _greedy_follow(hand: list[int], lead: int, trump: int,
                   honours: tuple[int, int, int]) -> int:
    """Win the trick with the cheapest winning card when it is worth having (card points
    or an honour in it, or the win is cheap), else throw the cheapest card."""
    options = _legal_follow(hand, lead, trump)
    winners = [c for c in options if _beats(c, lead, trump)]
    if winners:
        best = min(winners, key=lambda c: _cost(c, trump, honours))
        if _VALUE[lead] or lead in honours or _cost(best, trump, honours) < 400:
            return best
    return min(options, key=lambda c: _cost(c, trump, honours))


def _unseen(view: View) -> list[int]:
    seen = set(view.hand)
    for cards in view.public.values():
        seen.update(cards)
    for cards in view.shown.values():
        seen.update(cards)
    return [c for c in range(52) if c not in seen]


def _plays(view: View) -> list[int]:
    return [m.extra[0] for m in view.legal if m.kind == "play"]


# ---------------------------------------------------------------------- play-outs
def _play_out(hands: list[list[int]], stock: list[int], leader: int, lead: int,
              taken: list[list[int]], trump: int, honours: tuple[int, int, int]) -> int:
    """Play the hand to its end with the greedy policy for both seats (seat 0 is the
    deciding player) and return seat 0's value: hand points ahead times POINT plus card
    points ahead. ``lead`` is the card already led by ``leader`` (-1: none yet). The
    lists are consumed."""
    while True:
        if lead < 0:
            lead = _greedy_lead(hands[leader], trump, honours)
            hands[leader].remove(lead)
        other = 1 - leader
        follow = _greedy_follow(hands[other], lead, trump, honours)
        hands[other].remove(follow)
        winner = other if _beats(follow, lead, trump) else leader
        taken[winner].append(lead)
        taken[winner].append(follow)
        if stock:
            hands[winner].append(stock.pop())
            hands[1 - winner].append(stock.pop())
        leader, lead = winner, -1
        if not hands[leader]:
            return _value(taken[0], taken[1], honours)


def _value(mine: list[int], theirs: list[int], honours: tuple[int, int, int]) -> int:
    points = 0
    got = set(mine)
    for card in honours:
        points += 1 if card in got else -1
    a = sum(_VALUE[c] for c in mine)
    b = sum(_VALUE[c] for c in theirs)
    points += (a > b) - (a < b)
    return points * POINT + a - b


def _sampled(view: View, rng: Rng) -> int:
    """The card with the best average play-out over SAMPLES random deals of the unseen
    cards; the same deals for every candidate."""
    other = 1 - view.seat
    trump = view.info["trump"]
    honours = _honours(trump)
    pool = _unseen(view)
    known = list(view.shown.get(other, ()))
    turned = list(view.public["turned"])
    in_hand = view.counts["hand"] - len(known)
    trick = view.public["trick"]
    leading = not trick
    candidates = _plays(view)
    totals = dict.fromkeys(candidates, 0)
    for _ in range(min(SAMPLES, PLAYOUTS // len(candidates))):
        deal = list(pool)
        rng.shuffle(deal)
        opp_hand = known + deal[:in_hand]
        stock = turned + deal[in_hand:]  # the trump card lies at the bottom
        for card in candidates:
            hands = [[c for c in view.hand if c != card], list(opp_hand)]
            taken = [list(view.public["won"]), list(view.public["lost"])]
            if leading:
                totals[card] += _play_out(hands, list(stock), 0, card, taken, trump, honours)
            else:
                lead = trick[0]
                win = _beats(card, lead, trump)
                taken[0 if win else 1] += [lead, card]
                s = list(stock)
                w = 0 if win else 1
                if s:
                    hands[w].append(s.pop())
                    hands[1 - w].append(s.pop())
                if not hands[w]:
                    totals[card] += _value(taken[0], taken[1], honours)
                else:
                    totals[card] += _play_out(hands, s, w, -1, taken, trump, honours)
    return max(candidates, key=lambda c: (totals[c], -_cost(c, trump, honours)))


# ---------------------------------------------------------------------- the exact end
_SUIT_MASK = tuple(sum(1 << c for c in range(52) if SUIT[c] == s) for s in range(4))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def solve(mine: tuple[int, ...], theirs: tuple[int, ...], my_lead: bool, lead: int,
          won: tuple[int, ...], lost: tuple[int, ...], trump: int) -> dict[int, int]:
    """Exact values of each card this player may play now, with every card known and no
    stock left: minimax over the rest of the hand (the value is hand points ahead times
    POINT plus card points ahead). ``lead`` is the opponent's led card when following.
    Hands are bit masks and solved positions are kept in a table: six tricks have a few
    thousand distinct positions, so the exact answer costs milliseconds."""
    honours = _honours(trump)
    hon_mask = sum(1 << h for h in honours)
    trump_mask = _SUIT_MASK[trump]
    memo: dict[tuple[int, int, int, int, int], int] = {}

    def follows(hand: int, led: int) -> list[int]:
        fit = hand & (_SUIT_MASK[SUIT[led]] | trump_mask)
        return _bits(fit or hand)

    def settle(a: int, b: int, a_leads: bool, led: int, c: int, pts: int,
               hon: int) -> int:
        """The value after ``c`` follows ``led`` (a's values)."""
        a_wins = _beats(c, led, trump) != a_leads
        gain = _VALUE[c] + _VALUE[led]
        hons = (hon_mask >> c & 1) + (hon_mask >> led & 1)
        if a_wins:
            return value(a, b, True, -1, pts + gain, hon + hons)
        return value(a, b, False, -1, pts - gain, hon - hons)

    def value(a: int, b: int, a_leads: bool, led: int, pts: int, hon: int) -> int:
        if led < 0 and not a:
            # every card of the pack is taken by the end, so the honours count in full
            return (hon + (pts > 0) - (pts < 0)) * POINT + pts
        key = (a, b, a_leads, led, pts * 8 + hon)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if led < 0:
            if a_leads:
                out = max(value(a & ~(1 << c), b, True, c, pts, hon) for c in _bits(a))
            else:
                out = min(value(a, b & ~(1 << c), False, c, pts, hon) for c in _bits(b))
        elif a_leads:
            out = min(settle(a, b & ~(1 << c), True, led, c, pts, hon)
                      for c in follows(b, led))
        else:
            out = max(settle(a & ~(1 << c), b, False, led, c, pts, hon)
                      for c in follows(a, led))
        memo[key] = out
        return out

    a = sum(1 << c for c in mine)
    b = sum(1 << c for c in theirs)
    pts = sum(_VALUE[c] for c in won) - sum(_VALUE[c] for c in lost)
    hon = sum(1 for h in honours if h in won) - sum(1 for h in honours if h in lost)
    if my_lead:
        return {c: value(a & ~(1 << c), b, True, c, pts, hon) for c in _bits(a)}
    return {c: settle(a & ~(1 << c), b, False, lead, c, pts, hon) for c in follows(a, lead)}


def _exact(view: View) -> int:
    trump = view.info["trump"]
    theirs = tuple(_unseen(view)) + tuple(view.shown.get(1 - view.seat, ()))
    trick = view.public["trick"]
    values = solve(tuple(view.hand), theirs, not trick, trick[0] if trick else -1,
                   view.public["won"], view.public["lost"], trump)
    honours = _honours(trump)
    return max(sorted(values), key=lambda c: (values[c], -_cost(c, trump, honours)))


# ---------------------------------------------------------------------- the players
def normal(view: View, rng: Rng) -> Move:
    plays = _plays(view)
    if not plays:
        return view.legal[0]
    if len(plays) == 1:
        return Move("play", extra=(plays[0],))
    if view.counts["stock"] == 0:
        return Move("play", extra=(_exact(view),))
    return Move("play", extra=(_sampled(view, rng),))


def greedy(view: View) -> int:
    """The greedy policy's card for this view."""
    trump = view.info["trump"]
    honours = _honours(trump)
    hand = list(view.hand)
    trick = view.public["trick"]
    if trick:
        return _greedy_follow(hand, trick[0], trump, honours)
    return _greedy_lead(hand, trump, honours)


def easy(view: View, rng: Rng) -> Move:
    plays = _plays(view)
    if not plays:
        return view.legal[0]
    if rng.below(EASY_CARELESS) == 0:
        return Move("play", extra=(sorted(plays)[rng.below(len(plays))],))
    return Move("play", extra=(greedy(view),))


def randomly(view: View, rng: Rng) -> Move:
    """Any legal card, evenly: the bench's yardstick."""
    return view.legal[rng.below(len(view.legal))]
