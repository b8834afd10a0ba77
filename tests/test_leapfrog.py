"""Leapfrog (000 #11): jumps onto neighbours of the same rank or suit, fills, grade and win."""

from __future__ import annotations

import games
from games.engine import cards as C

from .conftest import arrange, refused


def others(*used: str) -> str:
    return " ".join(t for t in map(C.text, range(52)) if t not in used)


def test_deal_shape():
    g = games.new("leapfrog", 1)
    assert all(len(g.pile(f"G{i}")) == 1 for i in range(1, 21)) and "G21" not in g.index
    assert len(g.pile("S")) == 32 and g.down[g.index["S"]] == 32
    assert g.score == 52 and g.grade is None and not g.won
    assert max(p.y for p in g.layout) + 1.4 <= 6.5


def test_jump_captures_a_neighbour_of_the_same_suit_or_rank():
    g = arrange(games.new("leapfrog", 1), {"G1": "5H", "G7": "KH", "G8": "KS", "S": "2C"},
                {"S": 1})
    g.play("jump:G1,G7")  # same suit, diagonal
    assert g.pile("G1") == [] and g.pile("G7") == [C.parse("5H")]
    assert g.pile("D") == [C.parse("KH")]
    g.undo()
    g.play("jump:G8,G7")  # same rank, side by side
    assert g.pile("G8") == [] and g.pile("G7") == [C.parse("KS")]
    assert g.pile("D") == [C.parse("KH")]


def test_jump_refusals():
    g = arrange(games.new("leapfrog", 1), {"G1": "5H", "G2": "6S", "G3": "5D", "G11": "5C"})
    refused(g, "jump:G1,G2", "not onto the 6♠")
    refused(g, "jump:G1,G3", "eight cards around it")
    refused(g, "jump:G1,G11", "eight cards around it")
    refused(g, "jump:G1,G6", "no card there")
    refused(g, "G1>G6", "jumping onto a neighbour")
    # the right edge does not wrap onto the next row
    g = arrange(g, {"G5": "9H", "G6": "9C"})
    refused(g, "jump:G5,G6", "eight cards around it")


def test_every_legal_jump_goes_both_ways():
    g = arrange(games.new("leapfrog", 1), {"G1": "5H", "G2": "5S", "S": "2C"}, {"S": 1})
    notes = {g.notation(m) for m in g.legal_moves()}
    assert {"jump:G1,G2", "jump:G2,G1"} <= notes
    assert sum(n.startswith("fill:") for n in notes) == 18


def test_fill_any_gap_at_any_time():
    g = arrange(games.new("leapfrog", 1), {"G1": "5H", "S": "2C 3C"}, {"S": 2})
    g.play("fill:S,G14")
    assert g.pile("G14") == [C.parse("3C")] and g.down[g.index["G14"]] == 0
    refused(g, "fill:S,G1", "Only an empty place")
    refused(g, "fill:G1,G2", "top card of the stock")
    g.play("fill:S,G2")
    refused(g, "fill:S,G3", "stock is empty")


def test_grade_good_at_five():
    five = {"G1": "2H", "G2": "3H", "G3": "4H", "G4": "5H", "G5": "6H"}
    g = arrange(games.new("leapfrog", 1), {**five, "D": others(*five.values())})
    assert g.score == 5 and g.grade == "good" and not g.won


def test_over_when_stock_empty_and_no_jump():
    g = arrange(games.new("leapfrog", 1), {"G1": "5H", "G3": "6S"})
    assert g.legal_moves() == [] and g.over and not g.won
