"""Draw Poker (Jackpots) rules: openers, the pass-out redeal, betting limits, droppers
paying the open, the draw, the showdown and the notation."""

from __future__ import annotations

import pytest

import games
from games.draw_poker import STACK, UNITS, DrawPoker
from games.engine import cards as C
from games.engine.model import IllegalMove, Move


def cards(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def position(*hands: str, **options) -> DrawPoker:
    """A fresh deal with the seats' hands replaced (seat 0 first); the rest is the stock."""
    g = games.new("draw_poker", 7, opponents=len(hands) - 1, **options)
    used = [c for h in hands for c in cards(h)]
    for s, h in enumerate(hands):
        g.cards[g.hands[s]] = cards(h)
        g.down[g.hands[s]] = 0 if s == 0 else 5
    stock = [c for c in games.draw_poker.DECK if c not in used]
    g.cards[g.stock], g.down[g.stock] = stock, len(stock)
    return g


def test_a_deal_antes_all_but_the_dealer_and_deals_five_from_the_dealers_left():
    g = games.new("draw_poker", 3, opponents=4)
    dealer = g.vars["dealer"]
    assert g.vars["chips"][dealer] == STACK
    assert sorted(g.vars["chips"]) == [STACK - 1] * 4 + [STACK] and g.vars["pot"] == 4
    assert all(len(g.hand(s)) == 5 for s in range(5)) and len(g.pile("S")) == 53 - 25
    assert g.to_move == (dealer + 1) % 5 and g.phase == "open"


def test_opening_needs_jacks_or_better_and_wild_cards_count():
    g = position("TC TD 3H 5S 8C", "JC JD 3S 6H 9C")
    g.vars["turn"] = 0
    assert g.legal_moves() == [Move("pass")]
    assert g.why_illegal(Move("open")) is not None
    g.vars["turn"] = 1
    assert Move("open") in g.legal_moves()
    joker = position("JK JD 3H 5S 8C", "2C 4D 3S 6H 9C")  # the bug joker is an ace: A-J
    joker.vars["turn"] = 0
    assert joker.legal_moves() == [Move("pass")]
    wild = position("JK JD 3H 5S 8C", "2C 4D 3S 6H 9C", wild="joker")
    wild.vars["turn"] = 0
    assert Move("open") in wild.legal_moves()


def test_when_everybody_passes_all_ante_again_and_the_pot_is_carried_over():
    g = position("TC TD 3H 5S 8C", "2C 4D 3S 6H 9C", "5C 7D 8S QH KC")
    deal, dealer, pot = g.vars["deal_no"], g.vars["dealer"], g.vars["pot"]
    for _ in range(3):
        g.play("pass")
    assert g.vars["deal_no"] == deal + 1 and g.vars["dealer"] == dealer
    assert g.vars["pot"] == pot + 2 and g.phase == "open"
    assert sum(g.vars["chips"]) + g.vars["pot"] == 3 * STACK


@pytest.mark.parametrize("pay", [True, False])
def test_a_player_who_drops_in_the_first_round_pays_the_opening_bet(pay):
    g = position("JC JD 3H 5S 8C", "2C 4D 3S 6H 9C", "5C 7D 8S QH KC",
                 droppers_pay_open=pay)
    g.vars["turn"] = 0
    g.play("open")
    dropper = g.to_move
    before = g.vars["chips"][dropper]
    g.play("drop")
    assert g.vars["chips"][dropper] == before - (UNITS[0] if pay else 0)
    assert not g.vars["live"][dropper]


def test_each_player_raises_at_most_once_a_round_and_the_round_ends_when_bets_are_equal():
    g = position("JC JD 3H 5S 8C", "QC QD 3S 6H 9C")
    g.vars["turn"] = 0
    g.play("open")
    assert g.to_move == 1 and Move("raise") in g.legal_moves()
    g.play("raise")
    g.play("raise")  # the opener's one raise
    assert g.to_move == 1 and Move("raise") not in g.legal_moves()
    assert g.why_illegal(Move("raise")) is not None
    g.play("call")
    assert g.phase == "draw" and g.vars["bets"] == (30, 30)


def test_one_draw_each_then_the_opener_bets_first_and_the_best_hand_takes_the_pot():
    g = position("JC JD 3H 5S 8C", "QC QD 3S 6H 9C")
    g.vars["turn"] = 0
    g.play("open")
    g.play("call")
    first = g.to_move  # the non-dealer draws first with two players
    assert first == (g.vars["dealer"] + 1) % 2
    out = Move("draw", extra=tuple(sorted(cards("3H 5S 8C"))))
    if first == 0:
        g.play(out)
        g.play("stand")
    else:
        g.play("stand")
        g.play(out)
    assert len(g.hand(0)) == 5 and g.pile("W") and g.phase == "bet"
    assert g.to_move == 0  # the opener speaks first after the draw
    pot = g.vars["pot"]
    g.play("check")
    g.play("check")
    result = g.vars["result"]
    want = 0 if g.value(0) > g.value(1) else 1
    assert result["winners"] == (want,) and result["won"][want] == pot
    assert result["openers"] == tuple(sorted(cards("JC JD 3H 5S 8C")))
    assert sum(g.vars["chips"]) == 2 * STACK and g.phase == "done"


def test_the_opener_shows_openers_even_when_everyone_else_drops():
    g = position("2C 4D 3S 6H 9C", "JC JD 3H 5S 8C")
    g.vars["turn"] = 1
    g.play("open")
    g.play("drop")
    view = g.view(0)
    assert view.info["openers"] == tuple(sorted(cards("JC JD 3H 5S 8C")))
    assert view.shown == {}  # the winner's hand itself need not be shown
    assert g.vars["chips"][1] > g.vars["chips"][0]


def test_side_pots_share_chips_by_what_each_player_put_in():
    g = position("AC AD AH 5S 8C", "KC KD 3S 6H 9C", "QC QD 3H 4S 7C")
    g.vars["chips"] = (5, 500, 500)
    g.vars["turn"] = 1
    g.play("open")
    total = sum(g.vars["chips"]) + g.vars["pot"]
    g.play("call")      # seat 2 (or whoever is next) calls, the short stack goes all in
    while g.phase not in ("done", "over"):
        g.play("stand" if g.phase == "draw" else
               "call" if Move("call") in g.legal_moves() else "check")
    result = g.vars["result"]
    assert sum(g.vars["chips"]) == total
    main, side = result["pots"]
    assert main["winners"] == [0] and side["winners"] == [1] and side["eligible"] == [1, 2]
    assert result["winners"] == (0,)  # the hand's winner: the main pot's
    assert g.vars["chips"][0] <= 3 * (5 + 1)


def test_notation_round_trips_and_bad_text_is_refused():
    g = games.new("draw_poker", 2, opponents=2)
    m = Move("draw", extra=tuple(sorted(cards("2C JK 5H"))))
    assert g.parse_move(g.notation(m)) == m and g.notation(m) == "draw:2C+5H+JK"
    for bad in ("draw:", "draw:2C+2C", "draw:ZZ", "raise:3", "fold", ""):
        with pytest.raises(IllegalMove):
            g.parse_move(bad)


def test_the_game_is_over_when_the_visitor_has_no_chips_left():
    g = position("2C 4D 3S 6H 9C", "JC JD 3H 5S 8C")
    g.vars["chips"] = (0, 1998)
    total = 1998 + g.vars["pot"]
    g.vars["turn"] = 1
    g.play("open")
    assert g.phase == "draw"  # the visitor is all in with its ante: it still draws
    g.play("stand")
    g.play("stand")
    assert g.phase == "over" and g.lost and not g.legal_moves()
    assert g.vars["chips"] == (0, total)


def test_draw_poker_is_in_the_picker_now_its_table_plays_it():
    from kiosk.settings.config import default_games, table_can_play

    assert table_can_play("draw_poker") and "draw_poker" in default_games()
