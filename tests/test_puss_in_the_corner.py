"""Puss in the Corner (000 #8): colour foundations, forced plays, corners, the chosen gathering."""

from __future__ import annotations

import games
from games.engine import cards as C

from .conftest import arrange, refused

ACES = {"F1": "AC", "F2": "AD", "F3": "AH", "F4": "AS"}


def notes(g) -> set[str]:
    return {g.notation(m) for m in g.legal_moves()}


def test_deal_shape_and_layout():
    g = games.new("puss_in_the_corner", 1)
    assert [g.pile(f"F{i}") for i in range(1, 5)] == [[C.card(1, s)] for s in range(4)]
    assert len(g.pile("S")) == 48 and g.down[g.index["S"]] == 48
    assert all(C.RANK[c] != 1 for c in g.pile("S"))
    assert g.pile("W") == [] and all(g.pile(f"T{i}") == [] for i in range(1, 5))
    assert notes(g) == {"deal"}
    xs = {p.id: p.x for p in g.layout}
    assert xs["T1"] < xs["F1"] < xs["T2"] and max(p.y for p in g.layout) + 1.4 <= 6.5


def test_turn_one_card_and_place_it_before_the_next():
    g = arrange(games.new("puss_in_the_corner", 1), {**ACES, "S": "5C 9H"}, {"S": 2},
                redeals=1)
    g.play("deal")
    assert g.pile("W") == [C.parse("9H")]
    assert notes(g) == {"W>T1", "W>T2", "W>T3", "W>T4"}
    refused(g, "deal", "Place the turned card")
    g.play("W>T3")
    g.play("deal")
    refused(g, "T3>T1", "Only the turned card can go to a corner")


def test_build_up_by_colour_not_suit():
    g = arrange(games.new("puss_in_the_corner", 1),
                {**ACES, "T1": "2D", "T2": "2S", "T3": "3C"})
    assert {"T1>F2", "T1>F3", "T2>F1", "T2>F4"} <= notes(g)
    g.play("T1>F3")  # the 2♦ on the A♥
    refused(g, "T3>F3", "black 2")
    refused(g, "F3>T4", "cannot be moved")


def test_a_turned_card_that_fits_must_go_to_a_foundation():
    g = arrange(games.new("puss_in_the_corner", 1),
                {**ACES, "W": "2H", "T1": "2C", "S": "KD"}, {"S": 1}, redeals=1)
    assert notes(g) == {"W>F2", "W>F3"}  # two red foundations: the player picks
    refused(g, "W>T2", "fits a foundation, so it must go there")
    refused(g, "T1>F1", "must go there")
    refused(g, "deal", "Place the turned card")
    refused(g, "W>F1", "can only go on a red ace")
    g.play("W>F3")
    assert "T1>F1" in notes(g)


def test_allow_parking_option():
    g = arrange(games.new("puss_in_the_corner", 1, allow_parking=True),
                {**ACES, "W": "2H", "T1": "2C"})
    assert notes(g) == {"W>F2", "W>F3", "W>T1", "W>T2", "W>T3", "W>T4", "T1>F1", "T1>F4"}
    g.play("W>T2")
    assert g.pile("T2") == [C.parse("2H")]


def test_redeal_in_the_chosen_order_once():
    g = arrange(games.new("puss_in_the_corner", 1),
                {"F1": "AC", "F2": "AD", "F3": "AH 2H", "F4": "AS",
                 "T1": "9C 5C", "T2": "KD", "T4": "JS 4S QS"}, redeals=1)
    redeals = sorted(n for n in notes(g) if n.startswith("redeal"))
    assert len(redeals) == 6 and "redeal:T4,T1,T2" in redeals  # T3 is empty
    refused(g, "redeal:T1,T2", "every corner pile that holds cards")
    g.play("redeal:T4,T1,T2")
    # T4 is dealt first, in the order its cards were placed, then T1, then T2
    stock = [C.text(c) for c in reversed(g.pile("S"))]
    assert stock == ["JS", "4S", "QS", "9C", "5C", "KD"]
    assert g.down[g.index["S"]] == 6 and all(g.pile(f"T{i}") == [] for i in range(1, 5))
    dealt = []
    while g.pile("S"):
        g.play("deal")
        dealt.append(C.text(g.pile("W")[0]))
        g.play("W>T1")
    assert dealt == ["JS", "4S", "QS", "9C", "5C", "KD"]
    refused(g, "redeal:T1", "only once")


def test_no_second_redeal_message():
    g = arrange(games.new("puss_in_the_corner", 1), {**ACES, "T1": "KD"}, redeals=0)
    refused(g, "redeal:T1", "only once")
    assert g.over and not g.won
