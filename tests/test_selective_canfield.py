"""Selective Canfield (000 #12 variant 2): the first move chooses the first foundation card."""

from __future__ import annotations

import games
from games import Move
from games.engine.cards import RANK

from .conftest import all_cards, arrange, refused


def new(seed: int = 1, **options) -> games.Game:
    return games.new("selective_canfield", seed, **options)


def test_deal_five_cards_and_no_foundation():
    g = new()
    row = [g.pile(p) for p in ("T1", "T2", "T3", "T4", "C1")]
    assert [len(p) for p in row] == [1] * 5
    assert all(not g.pile(f"F{i}") for i in range(1, 5))
    assert len(g.pile("R")) == 13 and len(g.pile("S")) == 34 and g.vars["base"] == 0
    assert len(all_cards(g)) == 52
    assert all(s.x + 1 <= 10.5 and s.y + 1.4 <= 6.5 for s in g.layout)
    f1 = g.index["F1"]
    assert g.legal_moves() == [Move("choose", g.index[p], f1) for p in ("T1", "T2", "T3", "T4",
                                                                       "C1")]


def test_nothing_else_before_the_choice():
    g = new()
    refused(g, "deal", "First choose one of the five dealt cards")
    refused(g, "T1>T2", "First choose")
    refused(g, "choose:T1,F2", "above column 1")
    refused(g, "choose:R,F1", "above column 1")


def test_choosing_a_column_card_the_fifth_closes_the_gap():
    g = new()
    before, chosen, fifth = g.key(), g.pile("T3")[0], g.pile("C1")[0]
    g.play("choose:T3,F1")
    assert g.pile("F1") == [chosen] and g.vars["base"] == RANK[chosen]
    assert g.pile("T3") == [fifth] and not g.pile("C1")
    assert len(g.pile("R")) == 13  # the reserve did not fill the gap
    refused(g, "choose:C1,F1", "already been chosen")
    assert g.legal_moves()[0] == Move("deal")
    g.undo()
    assert g.key() == before


def test_choosing_the_fifth_card():
    g = new(2)
    row = [list(g.pile(f"T{i}")) for i in range(1, 5)]
    g.play("choose:C1,F1")
    assert [g.pile(f"T{i}") for i in range(1, 5)] == row and not g.pile("C1")


def test_then_it_plays_as_canfield():
    g = arrange(new(), {"F1": "9D", "T1": "9S", "T2": "8H", "T3": "2C", "T4": "3C", "R": "5D TD"},
                {"R": 1}, base=9)
    refused(g, "T2>F2", "Only a 9 can start a foundation")
    g.play("T1>F2")
    assert g.pile("T1") == [games.engine.cards.parse("TD")]  # filled from the reserve
    g.play("T1>F1")
    assert g.pile("T1") == [games.engine.cards.parse("5D")] and not g.pile("R")
    refused(g, "T2>T3", "8♥ can only go on a black 9")


def test_draw_one_option():
    g = new(variant="draw_one")
    g.play("choose:T1,F1")
    g.play("deal")
    assert len(g.pile("W")) == 1 and g.vars["redeals"] == 2
