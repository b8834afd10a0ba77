"""Take Three (000 #17)."""

from __future__ import annotations

import games
from games.engine.cards import parse

from .conftest import arrange, refused


def test_deal_shape_all_open_three_long_columns():
    g = games.new("take_three", 3)
    assert [len(g.pile(f"T{i}")) for i in range(1, 8)] == [8, 8, 8, 7, 7, 7, 7]
    assert not any(g.down)
    assert all(g.pile(p) == [] for p in ("F1", "F2", "F3", "F4", "C1", "C2", "C3"))
    assert sorted(c for p in g.cards for c in p) == list(range(52))


def test_layout_fits_the_screen():
    g = games.new("take_three", 1)
    assert max(p.x for p in g.layout) + 1 <= 10.5
    assert [p.role for p in g.layout][:11] == ["foundation"] * 4 + ["tableau"] * 7


def test_single_card_or_complete_run_only():
    g = arrange(games.new("take_three", 1), {"T1": "5D 9S 8H 7C", "T2": "9C", "T3": "TH"})
    refused(g, "T1>T2x2", "top card alone or the whole run")
    refused(g, "T1>T3", "red 8")
    g.play("T1>T3x3")
    assert g.pile("T3") == [parse(c) for c in "TH 9S 8H 7C".split()]


def test_partial_runs_option():
    g = arrange(games.new("take_three", 1, partial_runs=True),
                {"T1": "9S 8H 7C", "T2": "9C"})
    g.play("T1>T2x2")
    assert g.pile("T1") == [parse("9S")]


def test_empty_column_takes_a_king_or_a_king_headed_run():
    g = arrange(games.new("take_three", 1),
                {"T1": "5C KH QS JD", "T2": "QD", "T3": "KS", "T5": "KC QH"})
    refused(g, "T2>T4", "Only a king")
    refused(g, "T3>T4", "would change nothing")
    assert "T5>T4x2" not in {g.notation(m) for m in g.legal_moves()}
    g.play("T1>T4x3")
    assert len(g.pile("T4")) == 3 and g.pile("T1") == [parse("5C")]


def test_foundations_up_in_suit_and_back_to_a_column():
    g = arrange(games.new("take_three", 1), {"T1": "AS", "T2": "2S", "T3": "3H", "T4": "3D"})
    refused(g, "T2>F1", "ace")
    g.play("T1>F1")
    g.play("T2>F1")
    refused(g, "T3>F1", "2 of hearts")
    g.play("F1>T3")
    assert g.pile("T3")[-1] == parse("2S")


def test_take_down_three_cards_at_once_and_put_them_back():
    g = arrange(games.new("take_three", 1),
                {"T1": "KS 5D", "T2": "8C 6S", "T3": "9H 7D", "T4": "AC", "T5": "6C"})
    g.play("T1>C1")
    refused(g, "T2>C1", "holding place is taken")
    g.play("T2>C2")
    g.play("T3>C3")
    refused(g, "T4>C1", "holding area is full")
    g.play("T4>F1")
    refused(g, "F1>C1", "from a foundation to a holding place")
    g.play("C3>T2")  # 7D onto 8C
    g.play("C2>T2")  # 6S onto 7D
    g.play("T5>C2")
    refused(g, "C1>C3", "from a holding place to a holding place")


def test_held_card_to_a_foundation_and_the_option_against_it():
    g = arrange(games.new("take_three", 1), {"C1": "AH"})
    g.play("C1>F1")
    g = arrange(games.new("take_three", 1, held_to_foundation=False), {"C1": "AH", "T1": "2C"})
    refused(g, "C1>F1", "back onto a column first")
    g.play("C1>T1")


def test_three_take_downs_in_total_option():
    g = arrange(games.new("take_three", 1, hold_limit="in_total"),
                {"T1": "4C", "T2": "4D", "T3": "4S", "T4": "4H", "T5": "5S 5H"}, taken=0)
    g.play("T1>C1")
    g.play("C1>T5")  # 4C onto 5H: put back, freeing the place
    g.play("T2>C1")
    g.play("T3>C2")
    assert g.vars["taken"] == 3
    refused(g, "T4>C3", "already taken down three cards")
    assert all(m.dst != g.index["C3"] for m in g.legal_moves())
    g.undo()
    assert g.vars["taken"] == 2
    g.play("T4>C3")
    assert "taken" not in games.new("take_three", 1).vars


def test_safe_autoplay_offers_an_ace():
    g = arrange(games.new("take_three", 1), {"T1": "5D AH", "T2": "9C"})
    assert g.notation(g.safe_autoplay()) == "T1>F1"
