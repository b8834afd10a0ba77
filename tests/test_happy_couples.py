"""Happy Couples (001 #4)."""

from __future__ import annotations

import games
from games.engine.cards import parse, text

from .conftest import arrange, refused


def couples(piles: dict[str, str], **options) -> games.Game:
    g = games.new("happy_couples", 1, **options)
    return arrange(g, piles, {"S": len(piles.get("S", "").split())})


def test_deal_shape():
    g = games.new("happy_couples", 4)
    assert all(len(g.pile(f"G{i}")) == 1 for i in range(1, 5))
    assert all(g.pile(f"G{i}") == [] for i in range(5, 53))
    assert len(g.pile("S")) == 48 and g.down[g.index["S"]] == 48 and g.pile("D") == []


def test_layout_columns_of_four_grow_to_the_right_and_fit():
    g = games.new("happy_couples", 1)
    spec = {p.id: p for p in g.layout}
    assert spec["G1"].x == spec["G4"].x < spec["G5"].x
    assert spec["G1"].y < spec["G2"].y < spec["G3"].y < spec["G4"].y == spec["G8"].y
    assert max(p.x for p in g.layout) + 1 <= 10.5
    assert max(p.y for p in g.layout) + 1.4 <= 6.5
    # neighbouring cards overlap by less than the corner index takes
    assert spec["G5"].x - spec["G1"].x >= 0.6


def test_touching_pairs_in_all_eight_directions_only():
    g = couples({"G1": "7C", "G6": "7D", "G3": "7H", "G4": "QS", "G5": "QD", "S": "2C"})
    legal = {g.notation(m) for m in g.legal_moves()}
    assert legal == {"remove:G1,G6", "remove:G3,G6"}  # G4 and G5 do not touch
    refused(g, "remove:G1,G3", "must touch")
    refused(g, "remove:G4,G5", "must touch")
    refused(g, "remove:G3,G4", "not the same rank")
    refused(g, "remove:G2,G6", "no card there")
    g.play("remove:G6,G3")
    assert [text(c) for c in g.pile("D")] == ["7H", "7D"]


def test_deal_only_when_stuck_into_the_first_gap():
    g = couples({"G1": "7C", "G2": "7D", "G3": "9H", "G4": "KS", "S": "5C 4C"})
    refused(g, "deal", "The 7♣ and the 7♦ still make a pair")
    g.play("remove:G1,G2")
    g.play("deal")
    assert g.pile("G1") == [parse("4C")] and g.down[g.index["G1"]] == 0
    g.play("deal")
    assert g.pile("G2") == [parse("5C")]
    refused(g, "deal", "stock is empty")


def test_new_cards_open_the_next_place_at_the_end():
    g = couples({"G1": "7C", "G2": "8D", "G3": "9H", "G4": "KS", "S": "4C"})
    g.play("deal")
    assert g.pile("G5") == [parse("4C")]


def test_deal_any_time_option():
    g = couples({"G1": "7C", "G2": "7D", "S": "5C"}, deal_any_time=True)
    assert {g.notation(m) for m in g.legal_moves()} == {"remove:G1,G2", "deal"}
    g.play("deal")
    assert g.pile("G3") == [parse("5C")]


def test_win_lose_and_undo_redo():
    rest = [text(c) for c in range(52) if text(c) not in ("8C", "8H")]
    g = couples({"G9": "8C", "G14": "8H", "D": " ".join(rest)})
    start = g.key()
    assert g.score == 2 and not g.won
    g.play("remove:G9,G14")
    assert g.won and g.over and g.score == 0
    g.undo()
    assert g.key() == start
    g.redo()
    assert g.won
    lost = couples({"G1": "8C", "G3": "8H"})
    assert lost.over and not lost.won and lost.legal_moves() == []
