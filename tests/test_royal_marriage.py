"""Royal Marriage (000 #3, 001 #5)."""

from __future__ import annotations

import games
from games.engine.cards import parse, text

from .conftest import arrange, refused


def row(g: games.Game) -> list[str]:
    out = []
    for i in range(1, 53):
        if not g.pile(f"T{i}"):
            break
        out.append(text(g.pile(f"T{i}")[-1]))
    return out


def test_deal_shape_queen_left_king_at_the_bottom_of_the_stock():
    g = games.new("royal_marriage", 8)
    assert row(g) == ["QH"]
    s = g.index["S"]
    assert len(g.cards[s]) == 51 and g.down[s] == 51
    assert g.cards[s][0] == parse("KH")
    assert g.pile("D") == [] and g.score == 52


def test_deal_turns_the_top_card_at_the_right_end():
    g = arrange(games.new("royal_marriage", 1), {"T1": "QH", "S": "KH 4C 7D"}, {"S": 3})
    g.play("deal")
    g.play("deal")
    assert row(g) == ["QH", "7D", "4C"]
    assert g.down[g.index["T3"]] == 0 and len(g.pile("S")) == 1


def test_remove_one_or_two_cards_between_matching_cards():
    g = arrange(games.new("royal_marriage", 1),
                {"T1": "QH", "T2": "5C", "T3": "9D", "T4": "3H", "T5": "8S", "T6": "3C"})
    refused(g, "remove:T2,T5", "same suit or the same rank")
    g.play("remove:T4,T6")  # same rank, one card between
    assert row(g) == ["QH", "5C", "9D", "3H", "3C"]
    g.play("remove:T1,T4")  # the queen of hearts as an end card, two cards between
    assert row(g) == ["QH", "3H", "3C"]
    assert [text(c) for c in g.pile("D")] == ["8S", "5C", "9D"]


def test_never_three_cards_between_and_not_adjacent():
    g = arrange(games.new("royal_marriage", 1),
                {"T1": "QH", "T2": "5C", "T3": "9D", "T4": "8S", "T5": "2H", "T6": "2S"})
    refused(g, "remove:T1,T5", "Exactly one or two cards must lie between")
    refused(g, "remove:T5,T6", "Exactly one or two cards must lie between")
    refused(g, "T6>T5", "do not move")


def test_three_of_a_suit_lose_the_middle_card_in_either_order():
    g = arrange(games.new("royal_marriage", 1), {"T1": "QH", "T2": "4H", "T3": "9H"})
    g.play("remove:T3,T1")
    assert row(g) == ["QH", "9H"] and g.pile("D") == [parse("4H")]


def test_lost_when_the_stock_is_empty_and_no_removal_is_left():
    g = arrange(games.new("royal_marriage", 1),
                {"T1": "QH", "T2": "5C", "T3": "9D", "T4": "8S", "T5": "KH"})
    assert g.legal_moves() == [] and g.over and not g.won and g.score == 5
