"""Make Ten (000 #7): pairs adding up to ten, 10-J-Q-K quartets, automatic refills, the grade."""

from __future__ import annotations

import pytest

import games
from games.engine import cards as C

from .conftest import arrange, refused


def others(*used: str) -> str:
    return " ".join(t for t in map(C.text, range(52)) if t not in used)


def cards_of(g, *ids):
    return [g.pile(i) for i in ids]


def test_deal_shape():
    g = games.new("make_ten", 1)
    assert [len(g.pile(f"G{i}")) for i in range(1, 14)] == [1] * 13
    assert "G14" not in g.index
    assert len(g.pile("S")) == 39 and g.down[g.index["S"]] == 39 and g.pile("D") == []
    rows = sorted({p.y for p in g.layout if p.role == "grid"})
    assert [sum(p.y == y for p in g.layout if p.role == "grid") for y in rows] == [5, 5, 3]
    assert g.score == 39 and g.grade is None


def test_pairs_adding_up_to_ten_and_refill_from_stock():
    g = arrange(games.new("make_ten", 1),
                {"G1": "AH", "G2": "9S", "G3": "5C", "G4": "5D", "G5": "7H", "G6": "2C",
                 "S": "KH QH"}, {"S": 2})
    legal = {g.notation(m) for m in g.legal_moves()}
    assert legal == {"remove:G1,G2", "remove:G3,G4"}
    g.play("remove:G2,G1")  # either order names the same pair
    # both places are refilled at once, in reading order, from the top of the stock
    assert cards_of(g, "G1", "G2") == [[C.parse("QH")], [C.parse("KH")]]
    assert g.pile("S") == [] and sorted(g.pile("D")) == sorted(map(C.parse, ("AH", "9S")))
    refused(g, "remove:G5,G4", "add up to 12, not 10")
    refused(g, "remove:G1,G6", "set of four")
    refused(g, "remove:G5,G9", "no card there")
    refused(g, "G5>G6", "remove two cards")


def test_same_suit_quartet():
    g = arrange(games.new("make_ten", 1),
                {"G1": "TS", "G4": "JS", "G7": "QS", "G13": "KS", "G2": "JH", "G3": "KD",
                 "G5": "QH", "G6": "TH"})
    assert {g.notation(m) for m in g.legal_moves()} == {"remove:G1,G4,G7,G13"}
    refused(g, "remove:G1,G2,G5,G3", "of one suit")
    g.play("remove:G13,G7,G4,G1")
    assert len(g.pile("D")) == 4 and not g.pile("G1")


def test_same_rank_option():
    g = arrange(games.new("make_ten", 1, face_quartet="same_rank"),
                {"G1": "KS", "G4": "KD", "G7": "KC", "G13": "KH", "G2": "TH", "G3": "JH",
                 "G5": "QH", "G6": "TC"})
    assert {g.notation(m) for m in g.legal_moves()} == {"remove:G1,G4,G7,G13"}
    refused(g, "remove:G2,G3,G5,G6", "four 10s, four jacks")
    with pytest.raises(games.GameError):
        games.new("make_ten", 1, face_quartet="three_kings")


def test_grade_and_score_count_the_stock():
    table = dict(zip((f"G{i}" for i in range(1, 14)),
                     "4H 6H KS KH KD 2D 2H 2S 3D 3H 3S QD QH".split(), strict=True))
    stock = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"
    g = arrange(games.new("make_ten", 1), {**table, "S": stock}, {"S": 11})
    assert g.score == 11 and g.grade is None
    g.play("remove:G1,G2")
    assert g.score == 9 and g.grade == "good luck"
