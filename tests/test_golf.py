"""Golf (000 #20)."""

from __future__ import annotations

import games
from games.engine.cards import parse

from .conftest import arrange, dealt, refused


def test_deal_shape():
    g = games.new("golf", 3)
    columns = [f"T{i}" for i in range(1, 8)]
    assert dealt(g, *columns, "S", "W") == [(5, 0)] * 7 + [(16, 16), (1, 0)]
    assert g.score == 35 and not g.won


def test_one_rank_up_or_down_regardless_of_suit():
    g = arrange(games.new("golf", 1), {"W": "7H", "T1": "8S", "T2": "6C", "T3": "9H"})
    refused(g, "T3>W", "Only cards one rank higher or lower can go on")  # 9 on 7
    g.play("T1>W")  # 8 on 7, any suit
    refused(g, "T2>W", "one rank higher or lower")  # 6 on 8
    g.play("T3>W")  # 9 on 8: up again
    g.undo()
    g.undo()
    g.play("T2>W")  # 6 on 7: down is as good as up
    assert g.pile("W") == [parse("7H"), parse("6C")]


def test_nothing_on_a_king_but_a_king_on_a_queen():
    g = arrange(games.new("golf", 1), {"W": "QH", "T1": "KS", "T2": "QD", "T3": "AC"})
    g.play("T1>W")  # a king may go on a queen
    for t in ("T2", "T3"):
        refused(g, f"{t}>W", "Nothing can be played on a king")


def test_no_wrap_between_king_and_ace():
    g = arrange(games.new("golf", 1), {"W": "AH", "T1": "KS", "T2": "2D"})
    refused(g, "T1>W", "one rank higher or lower")
    g.play("T2>W")


def test_queen_on_king_option():
    g = arrange(games.new("golf", 1, queen_on_king=True), {"W": "KH", "T1": "QS", "T2": "AC"})
    refused(g, "T2>W", "Only a queen can be played on a king")
    g.play("T1>W")


def test_only_column_tops_go_to_the_discard_pile():
    g = arrange(games.new("golf", 1), {"W": "5H", "T1": "6S", "T2": "4D"})
    refused(g, "T1>T2", "Cards can only go onto the discard pile")
    refused(g, "W>T1", "Only the top cards of the columns")
    refused(g, games.Move("move", g.index["T1"], g.index["W"], 2), "one card")


def test_turn_stock_any_time_or_only_when_stuck():
    piles = {"W": "5H", "T1": "6S", "T2": "KD", "S": "9C TD"}
    g = arrange(games.new("golf", 1), piles, {"S": 2})
    g.play("deal")  # allowed although 6S could be played
    assert g.pile("W")[-1] == parse("TD") and g.down[g.index["W"]] == 0
    strict = arrange(games.new("golf", 1, turn_only_when_stuck=True), piles, {"S": 2})
    refused(strict, "deal", "only when no column card can be played")
    strict.play("T1>W")
    strict.play("deal")
    strict.play("deal")
    refused(strict, "deal", "The stock is empty")


def test_spare_stock_cards_lower_the_score():
    g = arrange(games.new("golf", 1), {"W": "2H", "T1": "3S", "S": "4C 5C"}, {"S": 2})
    g.play("T1>W")
    assert g.won and g.score == -2


def test_loss_when_stock_empty_and_nothing_fits():
    g = arrange(games.new("golf", 1), {"W": "2H", "T1": "9S"})
    assert g.over and not g.won and g.score == 1
