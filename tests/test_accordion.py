"""Accordion (000 #2)."""

from __future__ import annotations

import games
from games.engine.cards import parse

from .conftest import arrange, refused

ALL = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def row(g: games.Game) -> list[str]:
    """The top cards of the row, left to right."""
    out = []
    for i in range(1, 53):
        pile = g.pile(f"T{i}")
        if not pile:
            break
        out.append(games.engine.cards.text(pile[-1]))
    return out


def test_deal_shape_all_52_face_up():
    g = games.new("accordion", 4)
    assert "S" not in g.index and len(g.layout) == 52
    assert all(len(c) == 1 for c in g.cards) and not any(g.down)
    assert g.score == 52 and g.grade is None


def test_move_onto_left_neighbour_or_third_to_the_left():
    g = arrange(games.new("accordion", 1),
                {"T1": "3H", "T2": "9C", "T3": "2D", "T4": "5S", "T5": "3S"})
    refused(g, "T4>T2", "just to its left or onto the third pile")  # two to the left
    refused(g, "T3>T2", "same suit or the same rank")
    g.play("T5>T4")  # same suit, one to the left
    assert row(g) == ["3H", "9C", "2D", "3S"]
    g.play("T4>T1x2")  # the whole pile jumps over two piles onto the same rank
    assert row(g) == ["3S", "9C", "2D"] and len(g.pile("T1")) == 3
    assert g.pile("T1") == [parse(c) for c in ("3H", "5S", "3S")]


def test_piles_move_whole_and_the_gap_closes():
    g = arrange(games.new("accordion", 1),
                {"T1": "KH", "T2": "9C QH", "T3": "2D", "T4": "2C"})
    refused(g, "T2>T1", "moves as a whole")
    g.play("T2>T1x2")
    assert row(g) == ["QH", "2D", "2C"] and g.pile("T4") == []
    g.play("T3>T2")
    assert row(g) == ["QH", "2C"] and len(g.pile("T2")) == 2
    assert g.score == 2


def test_row_width_refills_and_deals_when_stuck():
    g = arrange(games.new("accordion", 1, row_width=4),
                {"T1": "5H", "T2": "5C", "T3": "9D", "T4": "JS", "S": "KC 8H QD 7C"},
                {"S": 4})
    g.play("T2>T1")  # the row closes up and is refilled from the stock
    assert row(g) == ["5C", "9D", "JS", "7C"]
    assert len(g.pile("S")) == 3
    g.undo()
    assert row(g) == ["5H", "5C", "9D", "JS"] and len(g.pile("S")) == 4
    refused(g, "deal", "dealt by themselves")


def test_row_width_deals_one_more_card_while_stuck():
    g = arrange(games.new("accordion", 1, row_width=4),
                {"T1": "8H", "T2": "8C", "T3": "2D", "T4": "5S", "S": "KD QS 9S 7H"},
                {"S": 4})
    g.play("T2>T1")
    # refilled to four piles (7H), but stuck: 9S is dealt, still stuck: QS, which can move
    assert row(g) == ["8C", "2D", "5S", "7H", "9S", "QS"]
    assert g.pile("S") == [parse("KD")]
    assert [g.notation(m) for m in g.legal_moves()] == ["T6>T5", "T6>T3"]


def test_one_at_a_time_deals_on_request():
    g = games.new("accordion", 5, variant="one_at_a_time")
    assert len(g.pile("T1")) == 1 and g.pile("T2") == []
    assert len(g.pile("S")) == 51 and g.down[g.index["S"]] == 51
    g = arrange(g, {"T1": "4H", "S": "2C 4C 9D"}, {"S": 3})
    g.play("deal")
    assert row(g) == ["4H", "9D"]
    assert g.legal_moves() == [games.Move("deal")]
    g.play("deal")
    g.play("deal")
    assert row(g) == ["4H", "9D", "4C", "2C"]
    refused(g, "deal", "The stock is empty")
    g.play("T4>T3")
    assert row(g) == ["4H", "9D", "2C"]
    assert g.over and g.score == 3


def test_forced_moves_option():
    piles = {"T1": "4H", "T2": "4C", "S": "2D 9D"}
    free = arrange(games.new("accordion", 1, variant="one_at_a_time"), piles, {"S": 2})
    free.play("deal")  # moves are optional by default
    strict = arrange(games.new("accordion", 1, variant="one_at_a_time", forced_moves=True),
                     piles, {"S": 2})
    refused(strict, "deal", "must move a pile")
    strict.play("T2>T1")
    strict.play("deal")


def test_grade_very_good_at_five_piles_or_fewer():
    g = arrange(games.new("accordion", 1),
                {f"T{i + 1}": c for i, c in enumerate(["AH", "2C", "3D", "4S", "6H", "7C"])})
    assert g.over and g.score == 6 and g.grade is None
    g = arrange(g, {f"T{i + 1}": c for i, c in enumerate(["AH", "2C", "3D", "4S", "6H"])})
    assert g.over and g.score == 5 and g.grade == "very good"
