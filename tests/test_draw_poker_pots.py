"""Draw Poker's pots: the antes of passed-out deals are the main pot's, side pots come only
from all-in differences, and the result says truthfully who took which pot (issue 25)."""

from __future__ import annotations

import games
from games import cards as C
from games.draw_poker import DECK, DrawPoker


def cards(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def set_hands(g: DrawPoker, *hands: str) -> None:
    """Replace the seats' hands of the current deal (seat 0 first); the rest is the stock."""
    used = [c for h in hands for c in cards(h)]
    for s, h in enumerate(hands):
        g.cards[g.hands[s]] = cards(h)
        g.down[g.hands[s]] = 0 if s == 0 else 5
    stock = [c for c in DECK if c not in used]
    g.cards[g.stock], g.down[g.stock] = stock, len(stock)


def passed_out(times: int, **options) -> DrawPoker:
    """Seed 1 with one opponent: the computer deals, so only the visitor antes; everybody
    passes ``times`` times, and the antes carry over."""
    g = games.new("draw_poker", 1, opponents=1, **options)
    assert g.vars["dealer"] == 1
    for _ in range(times):
        g.play("pass")
        g.play("pass")
    assert g.vars["deal_no"] == times + 1 and g.phase == "open" and g.to_move == 0
    return g


def test_carried_antes_go_to_the_computer_whose_straight_beats_ten_high():
    """The reported hand: three pass-outs, the computer opens, the visitor calls and stands
    pat on ten-high, the computer shows a straight with the bug: the computer takes all 24,
    and nothing of it is a side pot of the visitor's own antes."""
    g = passed_out(3)
    set_hands(g, "TC 8D 6H 4S 9C", "5C 4H 3H 2D JK")
    g.play("pass")
    g.play("open")     # the computer: the bug makes it a straight, better than jacks
    g.play("call")
    g.play("stand")    # the visitor (the non-dealer) draws first
    g.play("stand")
    g.play("check")    # the opener speaks first after the draw
    g.play("check")
    result = g.vars["result"]
    assert result["pot"] == 24
    assert result["winners"] == (1,)
    assert result["won"] == (0, 24)
    assert g.vars["chips"] == (986, 1014)
    [record] = g.hand_records()
    assert record["winner"] == "computer 1"
    assert record["detail"]["pots"] == [{"amount": 24, "eligible": [0, 1], "winners": [1],
                                         "shares": [24]}]


def test_carried_antes_go_to_the_visitor_when_the_visitor_has_the_better_hand():
    g = passed_out(2)
    set_hands(g, "AC AD AH 4S 9C", "KC KD 3H 2D 7S")
    g.play("open")
    g.play("call")
    g.play("stand")
    g.play("stand")
    g.play("check")
    g.play("check")
    result = g.vars["result"]
    assert result["winners"] == (0,) and result["won"] == (23, 0)
    assert g.vars["chips"] == (1010, 990)


def test_a_real_tie_splits_the_pot_antes_and_all():
    g = passed_out(1)
    set_hands(g, "AC KD QH JS 9C", "AD KC QS JH 9D")  # the same ace-high: a tie
    g.play("pass")
    g.play("pass")  # a second pass-out: 3 antes in, all the visitor's
    set_hands(g, "JC JD 4H 6S 9C", "JH JS 4D 6C 9H")  # the same pair of jacks, same kickers
    g.play("open")
    g.play("call")
    g.play("stand")
    g.play("stand")
    g.play("check")
    g.play("check")
    result = g.vars["result"]
    assert result["pot"] == 23 and result["winners"] == (0, 1)
    assert sorted(result["won"]) == [11, 12] and sum(result["won"]) == 23
    assert g.hand_records()[0]["winner"] == "visitor, computer 1"
