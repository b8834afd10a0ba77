"""Gin Rummy computer players: they decide from what their seat knows only, always play
legally, and whole simulated matches keep every card."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.engine import cards as C
from games.engine.rng import Rng
from games.families.seats import View
from games.gin_rummy import GinRummy
from games.players import player_for
from games.players.gin import baseline, normal

from .conftest import assert_decisions_ignore_hidden_cards, play_match
from .test_gin_rummy import position

LEVELS = ("easy", "normal")


def _reach(seed: int, steps: int) -> GinRummy:
    """A position of a real game after ``steps`` moves of computer-against-computer play,
    stopped where the computer (seat 1) is to move."""
    g = games.new("gin_rummy", seed)
    for _ in range(steps):
        if not g.legal_moves():
            break
        g.play(normal(g.view(g.to_move), g.computer_rng()))
    while g.legal_moves() and g.to_move != 1:
        g.play(baseline(g.view(g.to_move), g.computer_rng()))
    return g


def _hide_differently(g: GinRummy, rnd: random.Random) -> None:
    """Deal the visitor's hidden cards and the stock again at random: the visitor keeps the
    cards it was seen to pick up, the sizes stay, the discard pile and the computer's hand
    are untouched."""
    h1, s = g.index["H1"], g.index["S"]
    known = set(g.view(1).shown.get(0, ()))
    secret = [c for c in g.cards[h1] if c not in known]
    pool = secret + g.cards[s]
    rnd.shuffle(pool)
    g.cards[h1] = [c for c in g.cards[h1] if c in known] + pool[:len(secret)]
    g.cards[s] = pool[len(secret):]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), steps=st.integers(0, 40), shuffle=st.randoms())
def test_hidden_cards_and_the_stock_order_never_change_a_computer_decision(seed, steps,
                                                                           shuffle):
    g = _reach(seed, steps)
    if not g.legal_moves():
        return
    assert_decisions_ignore_hidden_cards(g, "gin_rummy", 1, LEVELS,
                                         lambda game: _hide_differently(game, shuffle), range(52))


def test_the_view_holds_no_hidden_card():
    g = _reach(11, 9)
    view = g.view(1)
    hidden = set(g.pile("H1")) - set(g.vars["known"][0]) | set(g.pile("S"))
    values = [*view.hand, *view.public["discard"], *view.shown[0]]
    assert hidden and not hidden & set(values)
    assert view.counts == {"stock": len(g.pile("S")), "hand": len(g.pile("H1"))}


def test_simulated_matches_keep_every_card_and_the_scores_add_up():
    for seed, (a, b) in ((5, ("normal", "easy")), (6, ("easy", "normal"))):
        g = games.new("gin_rummy", seed, match="points_100")
        players = (player_for("gin_rummy", a), player_for("gin_rummy", b))
        play_match(g, players, 5000)
        results = g.vars["results"]
        totals = [sum(r.points for r in results if r.winner == s) for s in (0, 1)]
        assert tuple(totals) == g.vars["scores"] and max(totals) >= 100
        assert g.won or g.lost


def test_normal_takes_an_upcard_that_makes_a_meld_and_leaves_one_that_does_not():
    g = position("5C 6C 2D 3D 4D 8S 9S TS KH QD", "2H 3H 4H 5H 6H 7H 8H 9H TH JH",
                 phase="draw", waste="7C")
    assert normal(g.view(0), Rng(1)) == games.Move("take")
    g = position("5C 6C 2D 3D 4D 8S 9S TS KH QD", "2H 3H 4H 5H 6H 7H 8H 9H TH JH",
                 phase="draw", waste="KS")
    assert normal(g.view(0), Rng(1)) == games.Move("stock")


def test_normal_does_not_feed_the_opponent_the_card_its_pick_ups_show_it_wants():
    # both the J♥ and the J♠ would leave the same deadwood; the opponent picked up the
    # J♦ and the J♣, so the J♠ (and the J♥) are dangerous; the Q♠ is as high and safe
    hand = "2D 3D 4D 5S 6S 7S 9C 9H JH QS AH"
    g = position(hand, "JD JC 2H 3H 4H 5H 6H 7H 8H TH", phase="discard",
                 known=((), tuple(C.parse(t) for t in ("JD", "JC"))))
    choice = normal(g.view(0), Rng(1))
    assert choice.kind == "discard" and C.text(choice.extra[0]) != "JH"


def test_normal_knocks_early_with_ten_but_waits_late_and_always_takes_gin():
    hand = "2D 3D 4D 8S 9S TS JS 5C 4C KH AH"  # 10 after throwing the K♥
    early = position(hand, "2H 3H 4H 5H 6H 7H 8H 9H TH JH", stock=30)
    late = position(hand, "2H 3H 4H 5H 6H 7H 8H 9H TH JH", stock=12)
    assert normal(early.view(0), Rng(1)).kind == "knock"
    assert normal(late.view(0), Rng(1)).kind == "discard"
    gin = position("2D 3D 4D 8S 9S TS JS 5C 5H 5S KH", "2H 3H 4H 6H 7H 8H 9H TH JH QH",
                   stock=5)
    assert normal(gin.view(0), Rng(1)).kind == "gin"


def test_a_view_is_plain_data():
    g = games.new("gin_rummy", 2)
    view = g.view(g.to_move)
    assert isinstance(view, View) and not any(isinstance(v, games.Game)
                                              for v in vars(view).values())
