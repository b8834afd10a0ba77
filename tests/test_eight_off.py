"""Eight Off (000 #18): build down in suit, eight reserve places, never more than 8 cards."""

from __future__ import annotations

import games
from games.engine.rng import Rng

from .conftest import arrange, refused

COLS = [f"T{i}" for i in range(1, 9)]
CELLS = [f"C{i}" for i in range(1, 9)]


def test_deal_shape_and_order():
    g = games.new("eight_off", 8)
    assert [len(g.pile(t)) for t in COLS] == [6] * 8
    assert [len(g.pile(c)) for c in CELLS] == [1, 1, 1, 1, 0, 0, 0, 0]
    assert all(g.pile(f"F{i}") == [] for i in range(1, 5)) and not any(g.down)
    deck = list(range(52))
    Rng(8).shuffle(deck)
    cols: list[list[int]] = [[] for _ in range(8)]
    for _ in range(6):
        for col in cols:
            col.append(deck.pop())
    assert [g.pile(t) for t in COLS] == cols


def test_layout_fits_the_screen():
    g = games.new("eight_off", 1)
    assert all(p.x + 1 <= 10.5 and p.y + 1.4 <= 6.5 for p in g.layout)


def test_build_down_in_suit_one_card_at_a_time():
    g = arrange(games.new("eight_off", 1),
                {"T1": "8H", "T2": "7H", "T3": "7D", "T4": "TS 5H 6H", "T5": "QC"})
    g.play("T2>T1")
    refused(g, "T3>T1", r"7♦ can only go on an 8 of diamonds\.")
    refused(g, "T4>T1x2", "Only one card can be moved at a time.")
    g.play("T4>T1")
    g.play("T4>T1")


def test_only_a_king_fills_an_empty_column():
    g = arrange(games.new("eight_off", 1), {"T1": "QH KD", "C1": "JC", "T3": "KS"})
    refused(g, "C1>T2", "Only a king can go into an empty column.")
    g.play("T1>T2")
    refused(g, "T3>T4", "would change nothing")
    refused(g, "T1>T2", r"Q♥ can only go on a king of hearts\.")


def test_column_cap_and_its_option():
    eight = "KH QH JH TH 9H 8H 7H 6H"
    g = arrange(games.new("eight_off", 1), {"T1": eight, "T2": "5H"})
    assert games.Move("move", g.index["T2"], g.index["T1"], 1) not in g.legal_moves()
    refused(g, "T2>T1", "never hold more than 8 cards")
    g = arrange(games.new("eight_off", 1, column_cap=False), {"T1": eight, "T2": "5H"})
    g.play("T2>T1")
    assert len(g.pile("T1")) == 9


def test_reserve_places():
    g = arrange(games.new("eight_off", 1),
                {"T1": "9S 4D", "C1": "AD", "C2": "8S", "C3": "3C", "F1": "AC 2C"})
    refused(g, "T1>C1", "That reserve place is already taken.")
    g.play("T1>C5")
    g.play("C2>T1")  # reserve to a column
    g.play("C1>F2")  # reserve to a foundation
    g.play("C3>F1")
    refused(g, "C5>C6", "Cards cannot go from a reserve place to a reserve")
    refused(g, "F1>C6", "Cards on a foundation cannot be moved.")
