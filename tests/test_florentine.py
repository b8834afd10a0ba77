"""Florentine (000 #9): the cross, the base rank, the centre's rules and every option."""

from __future__ import annotations

import games
from games.engine import cards as C

from .conftest import arrange, refused


def notes(g) -> set[str]:
    return {g.notation(m) for m in g.legal_moves()}


def new(**opts):
    return games.new("florentine", 1, **opts)


def test_deal_shape_and_base_rank():
    g = games.new("florentine", 4)
    assert all(len(g.pile(p)) == 1 for p in ("T1", "T2", "T3", "T4", "C", "F1"))
    assert all(g.pile(f"F{i}") == [] for i in (2, 3, 4)) and g.pile("W") == []
    assert len(g.pile("S")) == 46 and g.down[g.index["S"]] == 46
    assert g.vars["base"] == C.RANK[g.pile("F1")[0]]
    pos = {p.id: (p.x, p.y) for p in g.layout}
    assert pos["T1"][0] == pos["C"][0] == pos["T4"][0]  # top, centre, bottom in a column
    assert pos["T2"][1] == pos["C"][1] == pos["T3"][1]  # left, centre, right in a row
    assert pos["F1"] == (0, 0)


BASE = {"F1": "5C", "S": "2D 3D", "W": "9H"}


def test_foundations_in_suit_from_the_base_with_wrap():
    g = arrange(new(), {**BASE, "F1": "5C 6C 7C 8C 9C TC JC QC KC", "T1": "AC", "T2": "5H",
                        "T3": "6D"}, {"S": 2}, base=5, redeals=1)
    g.play("T1>F1")  # K→A
    g.play("T2>F2")  # a card of the base rank starts an empty corner
    refused(g, "T3>F3", r"base rank \(5\)")
    refused(g, "W>F2", "8 of hearts")


def test_outer_piles_build_down_regardless_of_suit_one_at_a_time():
    g = arrange(new(), {**BASE, "T1": "9S", "T2": "KD", "T3": "AS", "T4": "7D 8C"}, {"S": 2},
                base=5, redeals=1)
    g.play("T4>T1")  # the 8♣ on the 9♠: suits do not matter
    refused(g, "T4>T3", "7♦ can only go on an 8")
    refused(g, "T1>T4x2", "one card")
    g.play("T2>T3")  # wrap: a king on an ace
    g = arrange(new(outer_wrap=False), {**BASE, "T2": "KD", "T3": "AS"}, {"S": 2}, base=5)
    refused(g, "T2>T3", "cannot be placed on another card")


def test_outer_pile_never_fills_an_empty_outer_place():
    g = arrange(new(), {**BASE, "T1": "9S"}, {"S": 2}, base=5, redeals=1)
    refused(g, "T1>T2", "filled from the waste or the centre")
    g.play("W>T2")


def test_centre_rules():
    g = arrange(new(), {**BASE, "C": "4C", "T1": "5S", "T2": "", "F1": "5C 6C 7C 8C 9C TC JC QC "
                        "KC AC 2C 3C"}, {"S": 2}, base=5, redeals=1)
    refused(g, "W>C", "nothing can be placed on it")
    refused(g, "C>T1", "cannot be built onto an outer pile")
    assert {"C>T2", "C>T3", "C>T4", "C>F1"} <= notes(g)
    g.play("C>F1")
    # an empty centre takes the top waste card or the next stock card
    assert {"W>C", "S>C"} <= notes(g)
    g.play("S>C")
    assert g.pile("C") == [C.parse("3D")] and g.down[g.index["C"]] == 0
    refused(g, "S>C", "nothing can be placed on it")
    refused(g, "F1>C", "cannot be moved")


def test_centre_options():
    piles = {**BASE, "T1": "5S", "T2": "6S", "T3": "7S", "T4": "8S"}
    g = arrange(new(centre_refill="waste"), piles, {"S": 2}, base=5)
    assert "W>C" in notes(g) and "S>C" not in notes(g)
    refused(g, "S>C", "centre is filled from the waste")
    g = arrange(new(centre_refill="stock"), piles, {"S": 2}, base=5)
    assert "S>C" in notes(g) and "W>C" not in notes(g)
    refused(g, "W>C", "centre is filled from the stock")
    g = arrange(new(centre_to_foundation=False), {**BASE, "C": "6C"}, {"S": 2}, base=5)
    refused(g, "C>F1", "cannot go straight to a foundation")


def test_stock_fills_an_empty_outer_place_only_when_the_waste_is_empty():
    g = arrange(new(), {**BASE, "C": "QH"}, {"S": 2}, base=5, redeals=1)
    refused(g, "S>T1", "only when the waste is empty")
    g = arrange(new(), {"F1": "5C", "S": "2D 3D", "C": "QH"}, {"S": 2}, base=5, redeals=1)
    assert {"S>T1", "S>T2", "S>T3", "S>T4"} <= notes(g)
    g.play("S>T3")
    assert g.pile("T3") == [C.parse("3D")]
    refused(g, "S>F1", "play its cards")
    g = arrange(new(stock_to_empty_outer=False), {"F1": "5C", "S": "2D", "C": "QH"}, {"S": 1},
                base=5)
    assert not any(n.startswith("S>T") for n in notes(g))
    refused(g, "S>T1", "from the waste or the centre")


def test_one_redeal():
    g = arrange(new(), {"F1": "5C", "C": "QH", "T1": "KS", "T2": "KH", "T3": "KD", "T4": "KC",
                        "S": "2D", "W": "3D"}, {"S": 1}, base=5, redeals=1)
    g.play("deal")
    g.play("redeal")
    assert [C.text(c) for c in g.pile("S")] == ["2D", "3D"] and g.pile("W") == []
    g.play("deal")
    g.play("deal")
    refused(g, "redeal", "No more redeals")
