"""Four Corner Towers (000 #10): refills, the layered deal when stuck, and the one-card variant."""

from __future__ import annotations

import games
from games.engine import cards as C

from .conftest import arrange, refused

ACES = {"F1": "AC", "F2": "AD", "F3": "AH", "F4": "AS"}


def notes(g) -> set[str]:
    return {g.notation(m) for m in g.legal_moves()}


def tableau(g) -> list[list[str]]:
    return [[C.text(c) for c in g.pile(f"T{i}")] for i in range(1, 21)]


def test_deal_shape_and_layout():
    g = games.new("four_corner_towers", 1)
    assert [g.pile(f"F{i}") for i in range(1, 5)] == [[C.card(1, s)] for s in range(4)]
    assert all(len(g.pile(f"T{i}")) == 1 for i in range(1, 21))
    assert len(g.pile("S")) == 28 and g.down[g.index["S"]] == 28 and "W" not in g.index
    pos = {p.id: (p.x, p.y) for p in g.layout}
    assert pos["F1"] == (0, 0) and pos["F4"][1] == pos["T16"][1]
    assert max(x for x, _ in pos.values()) + 1 <= 10.5
    assert max(y for _, y in pos.values()) + 1.4 <= 6.5
    assert "W" in games.new("four_corner_towers", 1, variant="single_turn").index


def test_play_in_suit_and_an_empty_pile_refills_at_once():
    g = arrange(games.new("four_corner_towers", 1),
                {**ACES, **blocked("9D", "KD", "3S"), "T1": "2H", "T2": "2C", "T3": "3S",
                 "S": "9D KD"}, {"S": 2})
    assert notes(g) == {"T1>F3", "T2>F1"}
    refused(g, "T3>F4", "2 of spades")
    refused(g, "T3>T1", "Nothing is built on the piles")
    refused(g, "F1>T1", "cannot be moved")
    before = g.key()
    g.play("T1>F3")
    assert g.pile("T1") == [C.parse("KD")] and len(g.pile("S")) == 1
    g.undo()  # one undo takes back the play and the refill
    assert g.key() == before


def test_deal_onto_every_pile_only_when_stuck():
    piles = {f"T{i + 1}": t for i, t in enumerate(
        "5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S".split())}
    stock = "QC JC TC 4S 4H 4D 4C 3S 3H 3D 3C 2S 2H 2D 2C".split()  # top card last
    g = arrange(games.new("four_corner_towers", 1),
                {**ACES, **piles, "S": " ".join(stock)}, {"S": 15})
    assert notes(g) == {"deal"}
    g.play("deal")
    t = tableau(g)
    # one card on each pile in reading order; 15 cards reach piles 1..15 only
    assert [p[-1] for p in t[:15]] == stock[::-1] and all(len(p) == 1 for p in t[15:])
    assert t[0] == ["5C", "2C"] and g.pile("S") == []
    assert "deal" not in notes(g) and "T1>F1" in notes(g)
    refused(g, "deal", "stock is empty")


def test_deal_refused_while_a_card_can_go_up_and_the_option():
    piles = {**ACES, "T1": "2H", "T2": "9C", "S": "KD"}
    g = arrange(games.new("four_corner_towers", 1), piles, {"S": 1})
    refused(g, "deal", "Deal only when no card can go to a foundation")
    g = arrange(games.new("four_corner_towers", 1, deal_any_time=True), piles, {"S": 1})
    assert notes(g) == {"T1>F3", "deal"}


def blocked(*used: str) -> dict[str, str]:
    """Piles T3..T20 holding high cards that cannot go up, so no pile is empty."""
    high = [r + u for r in "TJQK876" for u in "CDHS" if r + u not in used]
    return {f"T{i}": high[i - 3] for i in range(3, 21)}


def test_single_turn_variant():
    g = arrange(games.new("four_corner_towers", 1, variant="single_turn"),
                {**ACES, **blocked(), "T1": "9C", "T2": "2H", "S": "5C 3H 2C"}, {"S": 3})
    refused(g, "deal", "Deal only when")
    g.play("T2>F3")  # the empty pile is refilled from the stock
    assert g.pile("T2") == [C.parse("2C")]
    g.play("T2>F1")
    assert g.pile("T2") == [C.parse("3H")] and g.pile("W") == []
    g = arrange(games.new("four_corner_towers", 1, variant="single_turn"),
                {**ACES, **blocked(), "T1": "3D", "T2": "2H", "S": "4H 3H 2D"}, {"S": 3})
    g.play("T2>F3")
    assert g.pile("T2") == [C.parse("2D")]
    g.play("T2>F2")
    g.play("T1>F2")
    assert g.pile("T1") == [C.parse("4H")] and g.pile("T2") == [C.parse("3H")]
    g.play("T2>F3")
    g.play("T1>F3")  # the stock is empty now: the piles stay empty
    assert g.pile("T1") == g.pile("T2") == [] and notes(g) == set()
    g = arrange(games.new("four_corner_towers", 1, variant="single_turn"),
                {**ACES, **blocked("KH"), "T1": "9C", "T2": "KH", "S": "3H 2D 2H"}, {"S": 3})
    g.play("deal")  # stuck: turn one card onto the waste
    assert g.pile("W") == [C.parse("2H")] and len(g.pile("S")) == 2
    assert notes(g) == {"W>F3"}
    refused(g, "deal", "Deal only when")
    refused(g, "W>T1", "Nothing is built on the piles")
    g.play("W>F3")
    g.play("deal")
    assert g.pile("W") == [C.parse("2D")]
    g.play("W>F2")
    g.play("deal")
    g.play("W>F3")
    assert g.pile("S") == g.pile("W") == [] and g.pile("F3")[-1] == C.parse("3H")


def test_single_turn_waste_cards_only_go_to_foundations():
    g = arrange(games.new("four_corner_towers", 1, variant="single_turn"),
                {**ACES, **blocked("KH", "9D"), "T1": "9C", "T2": "KH", "S": "2D 9D"}, {"S": 2})
    g.play("deal")
    g.play("deal")  # the 9♦ fitted nowhere, so the next card may be turned onto it
    assert g.pile("W") == [C.parse("9D"), C.parse("2D")]
    g.play("W>F2")
    assert notes(g) == set() and g.over  # the 9♦ below may only go to a foundation
    g = arrange(games.new("four_corner_towers", 1, variant="single_turn"),
                {**ACES, **blocked("9D"), "T1": "9C", "T2": "2S", "W": "9D"})
    g.play("T2>F4")
    assert g.pile("T2") == [] and g.pile("W") == [C.parse("9D")]  # never refilled from it
