"""Follow the Rules computer players: they decide from what their seat knows only, replay
the same from the same seed, solve the last tricks exactly, and whole simulated matches
keep every card."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.engine.rng import Rng
from games.families.tricks import may_follow, trick_winner
from games.follow_the_rules import FollowTheRules
from games.players import player_for
from games.players.trick import POINT, easy, normal, solve

from .conftest import assert_decisions_ignore_hidden_cards, play_match
from .test_follow_the_rules import position

LEVELS = ("easy", "normal")
HONOURS = (1, 2, 11)


def _reach(seed: int, steps: int) -> FollowTheRules:
    """A position of a real game after ``steps`` moves of easy-against-easy play, stopped
    where the computer (seat 1) is to play a card."""
    g = games.new("follow_the_rules", seed)
    for _ in range(steps):
        if g.phase not in ("lead", "follow"):
            break
        g.play(easy(g.view(g.to_move), g.computer_rng()))
    while g.phase in ("lead", "follow") and g.to_move != 1:
        g.play(easy(g.view(g.to_move), g.computer_rng()))
    return g


def _hide_differently(g: FollowTheRules, rnd: random.Random) -> None:
    """Deal the visitor's hidden cards and the stock again at random: the trump card stays
    under the stock, or in the visitor's hand when it drew it (everyone saw that); the
    sizes, the tricks and the computer's hand are untouched."""
    h1, s = g.index["H1"], g.index["S"]
    known = {g.vars["trump_card"]}
    secret = [c for c in g.cards[h1] if c not in known]
    pool = secret + g.cards[s]
    rnd.shuffle(pool)
    kept = [c for c in g.cards[h1] if c in known]
    g.cards[h1] = kept + pool[:len(secret)]
    rnd.shuffle(g.cards[h1])
    g.cards[s] = pool[len(secret):]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), steps=st.integers(0, 60), shuffle=st.randoms())
def test_hidden_cards_and_the_stock_order_never_change_a_computer_decision(seed, steps,
                                                                           shuffle):
    g = _reach(seed, steps)
    if g.phase not in ("lead", "follow"):
        return
    assert_decisions_ignore_hidden_cards(g, "follow_the_rules", 1, LEVELS,
                                         lambda game: _hide_differently(game, shuffle), range(52))


def test_the_view_holds_no_hidden_card():
    g = _reach(11, 9)
    view = g.view(1)
    hidden = (set(g.pile("H1")) | set(g.pile("S"))) - {g.vars["trump_card"]}
    values = [*view.hand, *(c for p in view.public.values() for c in p),
              *(c for p in view.shown.values() for c in p)]
    assert hidden and not hidden & set(values)
    assert view.counts == {"stock": len(g.pile("S")) + len(g.pile("R")),
                           "hand": len(g.pile("H1"))}


def test_the_same_seed_gives_the_same_computer_moves():
    a, b = _reach(5, 7), _reach(5, 7)
    assert a.computer_move() == b.computer_move()
    view = a.view(1)
    assert normal(view, Rng(9, 3)) == normal(view, Rng(9, 3))


def _brute(mine, theirs, my_lead, lead, won, lost, trump):
    """Plain minimax over every card sequence, no table: the yardstick of :func:`solve`."""
    h = [trump * 13 + r - 1 for r in HONOURS]
    points = {10: 10, 1: 4, 13: 3, 12: 2, 11: 1}

    def worth(cards):
        return sum(points.get(c % 13 + 1, 0) for c in cards)

    def end(w, lo):
        p = worth(w) - worth(lo)
        return (sum((x in w) - (x in lo) for x in h) + (p > 0) - (p < 0)) * POINT + p

    def after(a, b, a_leads, led, c, w, lo):
        a_wins = (trick_winner(led, c, trump) == 1) != a_leads
        w, lo = (w | {c, led}, lo) if a_wins else (w, lo | {c, led})
        return walk(a, b, a_wins, -1, w, lo)

    def walk(a, b, a_leads, led, w, lo):
        if led < 0 and not a:
            return end(w, lo)
        if led < 0:
            if a_leads:
                return max(walk(a - {c}, b, True, c, w, lo) for c in a)
            return min(walk(a, b - {c}, False, c, w, lo) for c in b)
        if a_leads:
            return min(after(a, b - {c}, True, led, c, w, lo) for c in may_follow(b, led, trump))
        return max(after(a - {c}, b, False, led, c, w, lo) for c in may_follow(a, led, trump))

    a, b, w, lo = set(mine), set(theirs), set(won), set(lost)
    if my_lead:
        return {c: walk(a - {c}, b, True, c, w, lo) for c in a}
    return {c: after(a - {c}, b, False, lead, c, w, lo) for c in may_follow(a, lead, trump)}


def test_the_end_solver_agrees_with_plain_minimax():
    rnd = random.Random(14)
    for k in range(40):
        deck = list(range(52))
        rnd.shuffle(deck)
        trump, n = k % 4, 3 + k % 2
        if k % 3:
            args = (tuple(deck[:n]), tuple(deck[n:2 * n]), True, -1)
        else:
            args = (tuple(deck[:n]), tuple(deck[n:2 * n - 1]), False, deck[2 * n - 1])
        rest = deck[2 * n:]
        cut = rnd.randrange(len(rest))
        won, lost = tuple(rest[:cut]), tuple(rest[cut:])
        assert solve(*args, won, lost, trump) == _brute(*args, won, lost, trump), k


def test_normal_solves_the_last_tricks_where_the_greedy_play_loses_a_point():
    # trumps are hearts, the stock is empty and the computer leads, holding the A♥ and the
    # 3♣ against the visitor's J♥ and 5♣. The greedy lead, the cheap 3♣, lets the visitor
    # trump it with the J♥ and keep Jack; leading the A♥ first forces the J♥ out under it.
    g = position("JH 5C", "AH 3C", turn=1)
    assert g.view(1).counts["stock"] == 0
    choice = normal(g.view(1), Rng(1))
    assert g.notation(choice) == "play:AH"


def test_simulated_matches_keep_every_card_and_the_scores_add_up():
    for seed, (a, b) in ((6, ("easy", "normal")),):
        g = games.new("follow_the_rules", seed, target=7)
        players = (player_for("follow_the_rules", a), player_for("follow_the_rules", b))
        play_match(g, players, 2000)
        results = g.vars["results"]
        totals = tuple(sum(r.counted[s] for r in results) for s in (0, 1))
        assert totals == g.vars["scores"] and max(totals) == 7 and min(totals) < 7
        assert all(sum(r.earned) in (3, 4) for r in results)
        assert g.won != g.lost
