"""Trefoil (003 variant, 000 #24 variant 2): aces out first, 16 fans, in suit or alternating."""

from __future__ import annotations

import games
from games import Move
from games.engine.cards import RANK, parse

from .conftest import all_cards, arrange, refused


def test_aces_first_then_sixteen_fans_of_three():
    g = games.new("trefoil", 3)
    assert [g.pile(f"F{i}") for i in range(1, 5)] == [[parse(a)] for a in ("AC", "AD", "AH", "AS")]
    assert [len(g.pile(f"T{i}")) for i in range(1, 17)] == [3] * 16
    assert "T17" not in g.index and not any(RANK[c] == 1 for t in g.tableau for c in g.cards[t])
    assert len(all_cards(g)) == 52 and g.vars == {"redeals": 2, "drawn": False}
    assert all(s.x + 1 <= 10.5 and s.y + 1.4 <= 6.5 for s in g.layout)


def test_builds_down_in_suit_by_default():
    g = arrange(games.new("trefoil", 1), {"T1": "7D", "T2": "8C", "T3": "8D"})
    refused(g, "T1>T2", "7♦ can only go on an 8 of diamonds")
    g.play("T1>T3")


def test_alt_colour_build_option():
    g = arrange(games.new("trefoil", 1, alt_colour_build=True),
                {"T1": "7D", "T2": "8H", "T3": "8C"})
    refused(g, "T1>T2", "7♦ can only go on a black 8")
    g.play("T1>T3")


def test_redeal_keeps_the_foundations_and_fits_sixteen_fans():
    g = games.new("trefoil", 4, redeal_any_time=True)
    assert Move("redeal") in g.legal_moves()
    before = g.key()
    g.play("redeal")
    assert [len(g.pile(f"F{i}")) for i in range(1, 5)] == [1, 1, 1, 1]
    assert [len(g.pile(f"T{i}")) for i in range(1, 17)] == [3] * 16
    g.undo()
    assert g.key() == before


def test_redeal_waits_until_stuck_without_the_option():
    g = arrange(games.new("trefoil", 1), {"F1": "AC", "T1": "2C", "T2": "5H 9S"},
                redeals=2, drawn=False)
    refused(g, "redeal", "only redeal when no card can move")
    g.play("T1>F1")
    g.play("redeal")
    assert len(g.pile("T1")) == 2 and g.vars["redeals"] == 1


def test_draw_is_an_option_off_by_default():
    position = {"F1": "AH 2H 3H", "T1": "4H 7D", "T2": "9S 8C"}
    refused(arrange(games.new("trefoil", 1), position, redeals=0, drawn=False), "draw:T1,F1,2",
            "This game has no draw")
    g = arrange(games.new("trefoil", 1, draw=True), position, redeals=0, drawn=False)
    assert g.legal_moves() == [Move("draw", g.index["T1"], g.index["F1"], 2)]
    g.play("draw:T1,F1,2")
    assert g.pile("T1") == [parse("7D")]
