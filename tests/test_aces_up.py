"""Aces Up (000 #1)."""

from __future__ import annotations

import games
from games.engine.cards import parse

from .conftest import arrange, dealt, refused


def test_deal_shape():
    g = games.new("aces_up", 2)
    assert dealt(g, "T1", "T2", "T3", "T4", "S") == [(1, 0)] * 4 + [(48, 48)]
    assert g.pile("D") == [] and g.score == 0


def test_lower_card_of_a_suit_is_discarded_ace_high():
    g = arrange(games.new("aces_up", 1), {"T1": "KH", "T2": "AH", "T3": "QS", "T4": "2C"})
    g.play("T1>D")  # the ace outranks the king
    refused(g, "T3>D", r"only when a higher spade is on top")
    refused(g, "T2>D", "Aces are the highest cards")
    assert g.pile("D") == [parse("KH")]


def test_only_top_cards_count_and_uncovered_cards_follow():
    g = arrange(games.new("aces_up", 1), {"T1": "9D 3H", "T2": "JD", "T3": "5S", "T4": "6S"})
    refused(g, "T2>D", "higher diamond")  # the 9 of diamonds is covered, so it does not count
    g.play("T3>D")
    refused(g, "T1>D", "higher heart")  # the 3 of hearts has no higher heart in sight


def test_fill_an_empty_pile_with_any_top_card():
    g = arrange(games.new("aces_up", 1), {"T1": "AS AH", "T2": "KC", "T3": "5D"})
    refused(g, "T2>T3", "only be moved into an empty pile")
    refused(g, "T2>T4", "already alone")  # pointless: it is not listed as a move either
    g.play("T1>T4")  # an ace on an ace must move to free the other
    assert g.pile("T4") == [parse("AH")] and g.pile("T1") == [parse("AS")]


def test_deal_any_time_puts_one_card_on_every_pile():
    g = arrange(games.new("aces_up", 1),
                {"T1": "2H", "T2": "3H", "S": "4C 5C 6C 7C 8C"}, {"S": 5})
    g.play("deal")  # although 2H could be discarded
    assert [len(g.pile(f"T{i}")) for i in range(1, 5)] == [2, 2, 1, 1]
    assert g.pile("T3") == [parse("6C")] and g.pile("S") == [parse("4C")]
    assert all(g.down[g.index[f"T{i}"]] == 0 for i in range(1, 5))
    g.play("deal")  # fewer cards than piles: the first piles get them
    assert g.pile("T1")[-1] == parse("4C")
    refused(g, "deal", "The stock is empty")


def test_deal_only_when_stuck_option():
    piles = {"T1": "2H", "T2": "3H", "S": "4C 5C 6C 7C"}
    g = arrange(games.new("aces_up", 1, deal_only_when_stuck=True), piles, {"S": 4})
    refused(g, "deal", "only when no card can be discarded")
    g.play("T1>D")
    g.play("deal")


def test_game_ends_when_stock_is_empty_and_nothing_can_be_discarded():
    g = arrange(games.new("aces_up", 1), {"T1": "AC", "T2": "KD", "T3": "5H"})
    assert g.legal_moves() == [] and g.over and not g.won
