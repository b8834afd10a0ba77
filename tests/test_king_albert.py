"""King Albert (000 #16): nine open columns, the Belgian Reserve and its refill rule."""

from __future__ import annotations

import pytest

import games
from games import IllegalMove
from games.engine.rng import Rng

from .conftest import arrange, refused

CELLS = [f"C{i}" for i in range(1, 8)]


def test_deal_shape_and_order():
    g = games.new("king_albert", 5)
    assert [len(g.pile(f"T{i}")) for i in range(1, 10)] == list(range(1, 10))
    assert [len(g.pile(c)) for c in CELLS] == [1] * 7
    assert all(g.pile(f"F{i}") == [] for i in range(1, 5)) and not any(g.down)
    deck = list(range(52))
    Rng(5).shuffle(deck)
    cols: list[list[int]] = [[] for _ in range(9)]
    for row in range(9):
        for col in range(row, 9):
            cols[col].append(deck.pop())
    assert [g.pile(f"T{i + 1}") for i in range(9)] == cols
    assert [g.pile(c)[0] for c in CELLS] == deck[::-1]


def test_layout_fits_the_screen():
    g = games.new("king_albert", 1)
    assert all(p.x + 1 <= 10.5 and p.y + 1.4 <= 6.5 for p in g.layout)
    assert [p.role for p in g.layout].count("cell") == 7


def test_build_down_alternating_colours_one_card_at_a_time():
    g = arrange(games.new("king_albert", 1), {"T1": "8S", "T2": "5C 7H", "T3": "7C", "T4": "9D 8C"})
    g.play("T2>T1")
    refused(g, "T3>T1", r"7♣ can only go on a red 8\.")
    refused(g, "T4>T5x2", "Only one card can be moved at a time.")


def test_reserve_cards_are_available_and_an_empty_column_takes_any_card():
    g = arrange(games.new("king_albert", 1), {"T1": "9C", "C3": "8H", "C4": "4S", "T2": "QD"})
    g.play("C3>T1")
    g.play("C4>T3")  # any card into an empty column
    refused(g, "T3>T4", "would change nothing")
    with pytest.raises(IllegalMove, match="Cards cannot go from a foundation to a reserve place."):
        arrange(g, {"F1": "AS", "T1": "KD"})
        g.play("F1>C1")


def test_source_rule_column_tops_refill_the_reserve():
    g = arrange(games.new("king_albert", 1), {"T1": "9C 3D", "C1": "KS"})
    refused(g, "T1>C1", "That reserve place is already taken.")
    g.play("T1>C2")
    assert g.pile("C2") == [games.engine.cards.parse("3D")]
    assert games.Move("move", g.index["C2"], g.index["C3"], 1) not in g.legal_moves()


def test_standard_option_never_refills_the_reserve():
    g = arrange(games.new("king_albert", 1, reserve_refill=False), {"T1": "9C 3D", "C1": "KS"})
    refused(g, "T1>C2", "An empty reserve place cannot be filled.")
    g.play("C1>T2")  # reserve cards still play out


def test_foundations_up_in_suit_and_their_top_card_may_come_back():
    g = arrange(games.new("king_albert", 1), {"T1": "AH", "C1": "2H", "T2": "3S", "T3": "3C"})
    g.play("T1>F2")
    g.play("C1>F2")
    refused(g, "T2>F2", "2 of spades")
    g.play("F2>T2")  # 2♥ back onto the black 3
    assert g.pile("T2")[-1] == games.engine.cards.parse("2H")
