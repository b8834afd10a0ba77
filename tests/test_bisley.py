"""Bisley (000 #19): ace piles up, king piles down, columns up or down in suit."""

from __future__ import annotations

import games
from games.engine import cards as C
from games.engine.rng import Rng

from .conftest import arrange, refused

ACES = ["F1", "F2", "F3", "F4"]  # clubs, diamonds, hearts, spades
KINGS = ["F5", "F6", "F7", "F8"]
ALL_ACES = {f: "A" + s for f, s in zip(ACES, "CDHS", strict=True)}


def test_deal_shape_and_order():
    g = games.new("bisley", 4)
    assert [g.pile(f) for f in ACES] == [[C.card(1, s)] for s in range(4)]
    assert all(g.pile(f) == [] for f in KINGS)
    assert [len(g.pile(f"T{i}")) for i in range(1, 14)] == [3] * 4 + [4] * 9
    assert not any(g.down)
    deck = [c for c in range(52) if C.RANK[c] != 1]
    Rng(4).shuffle(deck)
    cols: list[list[int]] = [[] for _ in range(13)]
    for col in cols[4:]:
        col.append(deck.pop())  # row 1, right of the aces
    for _ in range(3):
        for col in cols:
            col.append(deck.pop())
    assert [g.pile(f"T{i + 1}") for i in range(13)] == cols


def test_layout_two_rows_of_columns_fit_the_screen():
    g = games.new("bisley", 1)
    assert all(p.x + 1 <= 10.5 and p.y + 1.4 <= 6.5 for p in g.layout)
    spec = {p.id: p for p in g.layout}
    assert spec["T1"].y == spec["T7"].y < spec["T8"].y == spec["T13"].y
    assert [spec[f].label for f in ACES + KINGS] == ["A"] * 4 + ["K"] * 4


def test_kings_go_to_their_own_suit_and_build_down():
    g = arrange(games.new("bisley", 1), {**ALL_ACES, "T1": "KH", "T2": "QH", "T3": "KS"})
    refused(g, "T1>F5", "Only the king of clubs can start this pile.")
    g.play("T1>F7")
    g.play("T2>F7")
    refused(g, "T3>F4", r"K♠ can only go on a queen of spades\.")
    g.play("T3>F8")
    refused(g, "F7>T1", "Cards on a king foundation cannot be moved.")


def test_aces_build_up_in_suit():
    g = arrange(games.new("bisley", 1), {**ALL_ACES, "T1": "2D", "T2": "2C", "T3": "3D"})
    refused(g, "T2>F2", r"2♣ can only go on an? ace of clubs\.")
    g.play("T1>F2")
    g.play("T3>F2")
    refused(g, "F2>T1", "Cards on an? ace foundation cannot be moved.")


def test_columns_build_up_or_down_in_suit_and_spaces_stay_empty():
    g = arrange(games.new("bisley", 1),
                {**ALL_ACES, "T1": "6S", "T2": "7S", "T3": "5S", "T4": "7H", "T5": "9C"})
    g.play("T3>T1")  # down: 5♠ on 6♠
    g.undo()
    g.play("T2>T1")  # up: 7♠ on 6♠
    refused(g, "T3>T1", r"5♠ can only go on a 6 or 4 of spades\.")
    refused(g, "T4>T5", r"7♥ can only go on an? 8 or 6 of hearts\.")
    refused(g, "T4>T2", "An empty column cannot be filled.")


def test_suit_is_laid_together_when_the_piles_meet():
    g = arrange(games.new("bisley", 1), {**ALL_ACES, "F3": "AH 2H 3H 4H 5H 6H 7H",
                                          "F7": "KH QH JH TH 9H", "T1": "8H"})
    before = g.key()
    g.play("T1>F3")
    assert g.pile("F7") == []
    assert g.pile("F3") == [C.card(r, C.HEARTS) for r in range(1, 14)]
    g.undo()
    assert g.key() == before and len(g.pile("F7")) == 5
    g.play("T1>F7")  # onto the king pile: the same meeting
    assert g.pile("F3") == [C.card(r, C.HEARTS) for r in range(1, 14)]


def test_safe_autoplay_plays_any_foundation_card():
    g = arrange(games.new("bisley", 1), {**ALL_ACES, "T1": "9C", "T2": "KD"})
    assert g.notation(g.safe_autoplay()) == "T2>F6"
    g = arrange(games.new("bisley", 1), {**ALL_ACES, "T1": "9C"})
    assert g.safe_autoplay() is None
