"""Pairs, Eight Piles (000 #5): pairing tops and turned cards, turning only when stuck."""

from __future__ import annotations

import games
from games.engine import cards as C

from .conftest import arrange, refused


def test_deal_shape():
    g = games.new("pairs_eight_piles", 1)
    for i in range(1, 9):
        assert len(g.pile(f"T{i}")) == 4 and g.down[g.index[f"T{i}"]] == 3
    assert len(g.pile("S")) == 20 and g.down[g.index["S"]] == 20
    assert all(g.pile(f"W{i}") == [] for i in (1, 2, 3)) and g.pile("D") == []
    assert g.score == 32


def test_pair_tops_and_the_card_below_turns_up():
    g = arrange(games.new("pairs_eight_piles", 1),
                {"T1": "2C 7H", "T2": "3C 7S", "T3": "8D", "S": "4D"}, {"T1": 1, "T2": 1, "S": 1})
    assert [g.notation(m) for m in g.legal_moves()] == ["remove:T1,T2"]
    g.play("remove:T2,T1")
    assert g.pile("T1") == [C.parse("2C")] and g.down[g.index["T1"]] == 0
    assert g.down[g.index["T2"]] == 0 and len(g.pile("D")) == 2
    g.undo()
    assert g.down[g.index["T1"]] == 1 and g.pile("D") == []


def test_refusals():
    g = arrange(games.new("pairs_eight_piles", 1),
                {"T1": "7H", "T2": "8S", "S": "4D"}, {"S": 1})
    refused(g, "remove:T1,T2", "7♥ and the 8♠ are not the same rank")
    refused(g, "remove:T1,T3", "no card there")
    refused(g, "remove:S,T1", "Only the top cards")
    refused(g, "remove:T1,T1", "two different cards")
    refused(g, "T1>T2", "same rank")


def test_three_of_a_rank_the_player_picks_two():
    g = arrange(games.new("pairs_eight_piles", 1), {"T1": "7H", "T4": "7S", "W1": "7C"})
    assert {g.notation(m) for m in g.legal_moves()} == {
        "remove:W1,T1", "remove:W1,T4", "remove:T1,T4"}


def test_turn_only_when_no_pair_and_the_row_holds_three():
    g = arrange(games.new("pairs_eight_piles", 1),
                {"T1": "7H", "T2": "7S", "T3": "9D", "S": "AC 2C 3C 4C"}, {"S": 4})
    refused(g, "deal", "pair can still be made")
    g.play("remove:T1,T2")
    for _ in range(3):
        g.play("deal")
    assert [g.pile(f"W{i}") for i in (1, 2, 3)] == [[C.parse(t)] for t in ("4C", "3C", "2C")]
    refused(g, "deal", "already holds 3 cards")
    assert g.over and not g.won  # no pair, row full


def test_turned_cards_pair_with_each_other_and_the_row_packs_left():
    g = arrange(games.new("pairs_eight_piles", 1),
                {"T1": "9D", "W1": "4C", "W2": "JD", "W3": "4H", "S": "KS"}, {"S": 1})
    g.play("remove:W1,W3")
    assert g.pile("W1") == [C.parse("JD")] and g.pile("W2") == g.pile("W3") == []
    g.play("deal")
    assert g.pile("W2") == [C.parse("KS")]
    refused(g, "deal", "stock is empty")


def test_deal_any_time_option():
    g = arrange(games.new("pairs_eight_piles", 1, deal_any_time=True),
                {"T1": "7H", "T2": "7S", "S": "AC"}, {"S": 1})
    assert {g.notation(m) for m in g.legal_moves()} == {"remove:T1,T2", "deal"}
