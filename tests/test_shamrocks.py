"""Shamrocks (003 variant): kings sent under, any suit up or down, at most three cards a fan."""

from __future__ import annotations

import pytest

import games
from games import IllegalMove
from games.cards import RANK, SUIT, parse
from games.shamrocks import Shamrocks

from .conftest import all_cards, arrange


def cards(text: str) -> list[int]:
    return [parse(t) for t in text.split()]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_deal_sends_every_king_to_the_bottom(seed):
    g = games.new("shamrocks", seed)
    assert [len(g.pile(f"T{i}")) for i in range(1, 19)] == [3] * 17 + [1]
    assert len(all_cards(g)) == 52 and g.vars["redeals"] == 0
    for t in g.tableau:
        ranks = [RANK[c] for c in g.cards[t]]
        assert ranks == sorted(ranks, key=lambda r: r != 13)  # kings first, i.e. underneath


def test_kings_rules_on_single_fans():
    assert Shamrocks.all_kings_under(cards("2H KH 5C")) == cards("KH 2H 5C")
    assert Shamrocks.all_kings_under(cards("5C KS KH")) == cards("KS KH 5C")
    assert Shamrocks.kings_under_own_suit(cards("2H KH 5C")) == cards("KH 2H 5C")
    assert Shamrocks.kings_under_own_suit(cards("5C 2H KS")) == cards("5C 2H KS")
    assert Shamrocks.kings_under_own_suit(cards("5C 2H KH")) == cards("5C KH 2H")
    assert Shamrocks.kings_under_own_suit(cards("2H 5H KH")) == cards("KH 2H 5H")


def test_morehead_kings_rule_option():
    found = 0
    for seed in range(1, 6):
        g = games.new("shamrocks", seed, kings_rule="morehead")
        for t in g.tableau:
            fan = g.cards[t]
            for k, c in enumerate(fan):
                if RANK[c] == 13:
                    assert all(SUIT[x] != SUIT[c] for x in fan[:k])
                    found += any(RANK[x] != 13 for x in fan[:k])
    assert found  # some king stays above a card of another suit


def test_build_up_or_down_regardless_of_suit():
    g = arrange(games.new("shamrocks", 1), {"T1": "6S", "T2": "7C", "T3": "5D", "T4": "8H"})
    with pytest.raises(IllegalMove, match="6♠ can only go on a 7 or 5"):
        g.play("T1>T4")
    g.play("T1>T2")
    g.undo()
    g.play("T1>T3")


def test_a_fan_holds_at_most_three_cards():
    g = arrange(games.new("shamrocks", 1), {"T1": "9D", "T2": "KC 2S 8C", "T3": "KD 8D"})
    with pytest.raises(IllegalMove, match="A fan can hold at most 3 cards"):
        g.play("T1>T2")
    g.play("T1>T3")
    assert len(g.pile("T3")) == 3


def test_empty_fans_stay_empty_and_there_is_no_redeal():
    g = arrange(games.new("shamrocks", 1), {"T1": "KD", "T2": "5C"}, redeals=0, drawn=False)
    with pytest.raises(IllegalMove, match="An empty fan cannot be filled"):
        g.play("T1>T3")
    with pytest.raises(IllegalMove, match="This game has no redeals"):
        g.play("redeal")
    assert g.over


def test_win_and_undo_redo():
    piles = {f"F{i + 1}": " ".join(r + s for r in "A23456789T") for i, s in enumerate("CDHS")}
    piles.update({"T1": "KC QC JC", "T2": "KD JD", "T3": "QD", "T4": "KH QH JH",
                  "T5": "KS QS JS"})
    g = arrange(games.new("shamrocks", 1), piles, redeals=0, drawn=False)
    before = g.key()
    moves = ["T1>F1"] * 3 + ["T2>F2", "T3>F2", "T2>F2"] + ["T4>F3"] * 3 + ["T5>F4"] * 3
    for move in moves:
        g.play(move)
    assert g.won and g.score == 52
    for _ in moves:
        g.undo()
    assert g.key() == before
    for _ in moves:
        g.redo()
    assert g.won
