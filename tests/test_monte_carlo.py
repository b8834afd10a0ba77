"""Monte Carlo (000 #6): pairs that touch, close-up, refill, the 4x5 variant and the combined rule."""

from __future__ import annotations

import games
from games.engine import cards as C

from .conftest import arrange, refused


def others(*used: str) -> str:
    """Every card not named, as arrange() text (for a discard pile)."""
    return " ".join(t for t in map(C.text, range(52)) if t not in used)


def test_deal_shape_and_layout_fit():
    for variant, cells, stock in (("standard", 25, 27), ("4x5", 20, 32)):
        g = games.new("monte_carlo", 1, variant=variant)
        grid = [g.pile(f"G{i + 1}") for i in range(cells)]
        assert all(len(p) == 1 for p in grid) and f"G{cells + 1}" not in g.index
        assert all(d == 0 for d in g.down[1:cells + 1])
        assert len(g.pile("S")) == stock and g.down[g.index["S"]] == stock
        assert g.pile("D") == []
        assert max(p.x for p in g.layout) + 1 <= 10.5
        assert max(p.y for p in g.layout) + 1.4 <= 6.5


def test_remove_touching_pairs_in_all_eight_directions():
    g = games.new("monte_carlo", 1)
    # G7 is row 2, column 2: it touches G1 G2 G3 G6 G8 G11 G12 G13
    for other in ("G1", "G2", "G3", "G6", "G8", "G11", "G12", "G13"):
        arrange(g, {"G7": "5H", other: "5C", "G25": "KD", "S": "2C"}, {"S": 1})
        g.play(f"remove:G7,{other}")
        assert sorted(g.pile("D")) == sorted([C.parse("5H"), C.parse("5C")])
        assert g.pile("G7") == [] and g.pile(other) == []


def test_remove_refuses_far_apart_or_different_ranks():
    g = arrange(games.new("monte_carlo", 1), {"G1": "5H", "G3": "5C", "G2": "6S", "G6": "7D"})
    refused(g, "remove:G1,G3", "must touch")
    refused(g, "remove:G1,G2", "not the same rank")
    refused(g, "remove:G1,G7", "no card there")
    refused(g, "G1>G2", "two touching cards")
    # a row ends at the right edge: G5 and G6 are not neighbours
    g = arrange(g, {"G5": "9H", "G6": "9C"})
    assert str(g.why_illegal(g.parse_move("remove:G5,G6"))).endswith("corner to corner.")


def test_close_up_keeps_reading_order_and_can_repeat():
    g = arrange(games.new("monte_carlo", 1),
                {"G1": "2C", "G3": "3D", "G4": "4H", "G9": "5S", "S": "KC QC"}, {"S": 2})
    moves = [g.notation(m) for m in g.legal_moves()]
    assert moves == ["close_up"]
    refused(g, "refill", "Close up the gaps before refilling")
    g.play("close_up")
    assert [g.pile(f"G{i}") for i in range(1, 6)] == [[C.parse(t)] for t in
                                                     ("2C", "3D", "4H", "5S")] + [[]]
    refused(g, "close_up", "no gap")


def test_refill_only_when_closed_up_and_no_pair():
    g = arrange(games.new("monte_carlo", 1),
                {"G1": "2C", "G2": "2D", "G3": "4H", "S": "9C 8C 7C"}, {"S": 3})
    refused(g, "refill", "A pair can still be removed")
    g.play("remove:G1,G2")
    g.play("close_up")
    assert g.pile("G1") == [C.parse("4H")]
    g.play("refill")
    # stock cards go into the empty places at the end, in reading order, top card first
    assert g.pile("G2") == [C.parse("7C")] and g.pile("G4") == [C.parse("9C")]
    assert g.pile("S") == [] and g.pile("G5") == []
    assert g.over and not g.won  # closed up, no pair, stock empty: lost
    assert g.score == 4


def test_refill_refused_when_full_or_stock_empty():
    piles = {f"G{i + 1}": t for i, t in enumerate(
        "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD".split())}
    g = arrange(games.new("monte_carlo", 1), {**piles, "S": "KD"}, {"S": 1})
    refused(g, "refill", "already full")
    assert g.legal_moves() == [] and g.over and not g.won


def test_combined_close_up_refill_option():
    g = arrange(games.new("monte_carlo", 1, combined_close_up_refill=True),
                {"G1": "2C", "G2": "2D", "G4": "4H", "S": "9C 8C"}, {"S": 2})
    notes = {g.notation(m) for m in g.legal_moves()}
    assert notes == {"remove:G1,G2", "close_up_refill"}  # allowed while a pair remains
    refused(g, "close_up", "one action")
    g.play("close_up_refill")
    assert [g.pile(f"G{i}") for i in range(1, 6)] == [[C.parse(t)] for t in
                                                     ("2C", "2D", "4H", "8C", "9C")]
    g = games.new("monte_carlo", 1)
    refused(g, "close_up_refill", "two separate actions")


def test_4x5_variant_refills_to_twenty():
    g = arrange(games.new("monte_carlo", 1, variant="4x5"),
                {"G1": "2C", "S": " ".join(["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC",
                                            "QC", "KC", "3D", "4D", "5D", "6D", "7D", "8D", "9D",
                                            "TD", "JD", "QD"])}, {"S": 21})
    g.play("refill")
    assert all(len(g.pile(f"G{i}")) == 1 for i in range(1, 21)) and len(g.pile("S")) == 2
    assert not g.legal_moves()


def test_undo_takes_back_a_whole_refill():
    g = games.new("monte_carlo", 7)
    start = g.key()
    played = 0
    while played < 12 and g.legal_moves():
        g.play(g.legal_moves()[-1])
        played += 1
    assert played
    for _ in range(played):
        g.undo()
    assert g.key() == start
