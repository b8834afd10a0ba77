"""Scorpion (000 #21): any face-up card moves with what lies on it; K→A sequences are graded."""

from __future__ import annotations

import games
from games.engine import cards as C
from games.engine.rng import Rng

from .conftest import arrange, refused

COLS = [f"T{i}" for i in range(1, 8)]


def suit_run(suit: str, ranks: str = "KQJT98765432A") -> str:
    return " ".join(r + suit for r in ranks)


def test_deal_shape_and_order():
    g = games.new("scorpion", 21)
    assert [len(g.pile(t)) for t in COLS] == [7] * 7
    assert [g.down[g.index[t]] for t in COLS] == [3, 3, 3, 3, 0, 0, 0]
    assert len(g.pile("S")) == 3 and g.down[g.index["S"]] == 3
    deck = list(range(52))
    Rng(21).shuffle(deck)
    cols: list[list[int]] = [[] for _ in range(7)]
    for _ in range(7):
        for col in cols:
            col.append(deck.pop())
    assert [g.pile(t) for t in COLS] == cols
    assert sorted(g.pile("S")) == sorted(deck)
    assert g.score == 0 and g.grade is None


def test_layout_fits_the_screen():
    g = games.new("scorpion", 1)
    assert [p.role for p in g.layout] == ["stock"] + ["tableau"] * 7
    assert all(p.x + 1 <= 10.5 and p.y + 1.4 <= 6.5 for p in g.layout)


def test_any_face_up_card_moves_with_everything_on_it():
    g = arrange(games.new("scorpion", 1),
                {"T1": "3D 9S 2C 8H 4D", "T2": "TS 3C", "T3": "9H"}, {"T1": 1})
    g.play("T1>T2x3")  # 2♣ onto 3♣, with the 8♥ and 4♦ on it, whatever their order
    assert g.pile("T2") == [C.parse(t) for t in "TS 3C 2C 8H 4D".split()]
    assert g.pile("T1") == [C.parse("3D"), C.parse("9S")]
    refused(g, "T1>T4", "Only a king can go into an empty column.")


def test_face_down_cards_cannot_move_and_turn_up_by_themselves():
    g = arrange(games.new("scorpion", 1), {"T1": "5C 8D 6D", "T2": "7D"}, {"T1": 2})
    refused(g, "T1>T2x2", "That card is face down.")
    g.play("T1>T2")
    assert g.down[g.index["T1"]] == 1  # the 8♦ turned up by itself
    g.undo()
    assert g.down[g.index["T1"]] == 2


def test_same_suit_one_lower_and_nothing_on_an_ace():
    g = arrange(games.new("scorpion", 1),
                {"T1": "9H", "T2": "8D", "T3": "AS", "T4": "2S", "T5": "KS"})
    refused(g, "T2>T1", r"8♦ can only go on an? 9 of diamonds\.")
    refused(g, "T4>T3", r"2♠ can only go on an? 3 of spades\.")
    assert not any(m.dst == g.index["T3"] for m in g.legal_moves())


def test_only_kings_fill_a_space_and_a_lone_column_does_not_just_shift():
    g = arrange(games.new("scorpion", 1), {"T1": "4C KH 2D", "T2": "QD", "T3": "KS QS"})
    refused(g, "T2>T4", "Only a king can go into an empty column.")
    g.play("T1>T4x2")
    assert g.pile("T4") == [C.parse("KH"), C.parse("2D")]
    refused(g, "T3>T5x2", "would change nothing")
    refused(g, "T3>T5", "Only a king can go into an empty column.")


def test_reserve_deal_once_onto_the_first_three_columns():
    g = arrange(games.new("scorpion", 1), {"S": "2H 3H 4H", "T1": "9C", "T3": "5D", "T4": "6D"},
                {"S": 3})
    g.play("deal")
    tops = [g.pile(t)[-1] for t in ("T1", "T2", "T3")]
    assert tops == [C.parse(c) for c in ("4H", "3H", "2H")]
    assert g.pile("S") == [] and not any(g.down)
    refused(g, "deal", "The reserve has already been dealt.")
    g.undo()
    assert len(g.pile("S")) == 3 and g.down[g.index["S"]] == 3


def test_reserve_deal_option_when_stuck():
    g = arrange(games.new("scorpion", 1, reserve_deal="when_stuck"),
                {"S": "2H 3H 4H", "T1": "9C", "T2": "8C"}, {"S": 3})
    refused(g, "deal", "only when no other move is left")
    g.play("T2>T1")
    assert g.legal_moves() == [games.Move("deal")]
    g.play("deal")
    assert games.new("scorpion", 1).legal_moves()[-1] == games.Move("deal")


def test_sequences_grade_the_result():
    g = arrange(games.new("scorpion", 1), {"T1": suit_run("H"), "T2": "5C " + suit_run("S"),
                                           "T3": suit_run("D", "KQJT98765432"), "T4": "AD"})
    assert g.score == 2 and g.grade == "good" and not g.won
    g.play("T4>T3")
    assert g.score == 3 and g.grade == "excellent"
