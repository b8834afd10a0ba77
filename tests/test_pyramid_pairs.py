"""Pyramid Pairs (000 #14)."""

from __future__ import annotations

import games
from games.engine.cards import parse

from .conftest import arrange, refused


def new(**opts) -> games.Game:
    return games.new("pyramid_pairs", 1, **opts)


def test_deal_shape_is_pyramids():
    g, p = games.new("pyramid_pairs", 12), games.new("pyramid", 12)
    assert g.cards == p.cards and g.down == p.down
    assert len(g.pile("S")) == 24 and g.down[g.index["S"]] == 24


def test_pairs_of_equal_rank_and_kings_too():
    g = arrange(new(), {"T22": "3H", "T23": "TC", "T24": "3S", "T25": "KD", "T26": "KC",
                        "T16": "9H"}, {"T16": 1})
    refused(g, "remove:T22,T23", "same rank")  # 3 + 10 = 13 counts for nothing here
    refused(g, "remove:T25", "only be removed in pairs")
    g.play("remove:T24,T22")
    g.play("remove:T25,T26")
    assert [games.engine.cards.text(c) for c in g.pile("D")] == ["3H", "3S", "KD", "KC"]
    assert [g.notation(m) for m in g.legal_moves()] == []  # T23 alone, stock empty, no rescue
    assert g.down[g.index["T16"]] == 1  # still covered by T23


def test_current_waste_and_pair_pile():
    g = arrange(new(pair_pile=True), {"C": "7C", "W": "7D", "D": "7H", "T22": "7S"})
    moves = {g.notation(m) for m in g.legal_moves()}
    # the pair pile pairs with the pyramid or the current card, never with the waste
    assert moves == {"remove:C,W", "remove:C,T22", "remove:W,T22", "remove:D,C", "remove:D,T22",
                     "redeal"}
    refused(g, "remove:W,D", "only with a pyramid card or the current card")
    g.play("remove:T22,D")
    assert g.pile("D") == [parse("7H"), parse("7S")] and g.won and g.grade == "best"


def test_rescue_after_the_last_pass():
    g = arrange(new(), {"T1": "5S", "T2": "5D", "W": "9C"}, {"T1": 1}, **{"pass": 3})
    assert [g.notation(m) for m in g.legal_moves()] == ["rescue:T1"]
    g.play("rescue:T1")
    g.play("remove:C,T2")
    assert g.won and g.match_points == 20 - 1 and g.grade == "winner"


def test_the_rescued_apex_needs_its_pair():
    g = arrange(new(), {"T1": "5S", "W": "9C"}, {"T1": 0}, **{"pass": 3})
    assert [g.notation(m) for m in g.legal_moves()] == ["rescue:T1"]
    g.play("rescue:T1")
    assert not g.won and g.over  # the apex alone in the talon, with no five to pair
