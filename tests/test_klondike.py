"""Klondike (000 #15): the model for a game's own tests."""

from __future__ import annotations

import games

from .conftest import arrange, refused


def test_deal_shape():
    g = games.new("klondike", 1)
    for i in range(7):
        col = g.pile(f"T{i + 1}")
        assert len(col) == i + 1
        assert g.down[g.index[f"T{i + 1}"]] == i
    assert len(g.pile("S")) == 24 and g.down[g.index["S"]] == 24
    assert g.pile("W") == [] and all(g.pile(f"F{i}") == [] for i in range(1, 5))


def test_build_down_alternating_colours():
    g = arrange(games.new("klondike", 1), {"T1": "8S", "T2": "7H", "T3": "7C"})
    g.play("T2>T1")
    refused(g, "T3>T1", "red 8")


def test_only_king_into_empty_column():
    g = arrange(games.new("klondike", 1), {"T1": "2C KD", "T2": "QS", "T3": "5H 4S", "T5": "KH"},
                {"T1": 1})
    refused(g, "T2>T4", "Only a king can go into an empty column")
    refused(g, "T5>T4", "would change nothing")  # a lone king is already as free as it can be
    g.play("T1>T4")
    g.play("T2>T4")


def test_runs_move_and_face_down_card_turns_up():
    g = arrange(games.new("klondike", 1), {"T1": "2C 9D 8S 7H", "T2": "TS"}, {"T1": 1})
    g.play("T1>T2x3")
    assert g.pile("T2")[-1] == games.engine.cards.parse("7H")
    assert g.down[g.index["T1"]] == 0  # 2C turned up automatically
    g.undo()
    assert g.down[g.index["T1"]] == 1 and len(g.pile("T1")) == 4


def test_foundation_up_in_suit_and_back_to_tableau():
    g = arrange(games.new("klondike", 1), {"T1": "AH", "T2": "2H", "T3": "3S", "T4": "3C"})
    refused(g, "T2>F1", "ace")
    g.play("T1>F1")
    g.play("T2>F1")
    refused(g, "T3>F1")
    g.play("F1>T3")  # a foundation card may come back onto a column
    assert g.pile("T3")[-1] == games.engine.cards.parse("2H")


def test_stock_one_pass_draw_one_and_draw_three_redeals():
    g = arrange(games.new("klondike", 1), {"S": "2C 3C 4C"}, {"S": 3}, redeals=0)
    g.play("deal")
    assert g.pile("W") == [games.engine.cards.parse("4C")]
    g.play("deal")
    g.play("deal")
    refused(g, "redeal", "No more redeals")
    g3 = games.new("klondike", 1, draw=3, redeals=-1)
    g3.play("deal")
    assert len(g3.pile("W")) == 3 and len(g3.pile("S")) == 21
    for _ in range(7):
        g3.play("deal")
    g3.play("redeal")
    assert len(g3.pile("S")) == 24 and g3.vars["redeals"] == -1


def test_alt_colour_foundations_variant_shuffles_on_redeal():
    g = games.new("klondike", 5, variant="alt_colour_foundations")
    assert g.draw == 3 and g.vars["redeals"] == 2
    while g.pile("S"):
        g.play("deal")
    waste = list(g.pile("W"))
    g.play("redeal")
    assert sorted(g.pile("S")) == sorted(waste) and g.pile("S") != waste[::-1]
    g.undo()
    assert g.pile("W") == waste


def test_open_same_colour_variant():
    g = games.new("klondike", 2, variant="open_same_colour")
    assert all(d == 0 for d in g.down[g.index["T1"]:])
    g = arrange(g, {"T1": "8S", "T2": "7C 6H", "T3": "7S 6S"})
    refused(g, "T2>T1x2")  # not one suit, cannot move as a unit
    g.play("T3>T1x2")
