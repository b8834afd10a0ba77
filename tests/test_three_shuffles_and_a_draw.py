"""Three Shuffles and a Draw (003 variant; 000 #24 base): two redeals, then one buried card."""

from __future__ import annotations

import games
from games import Move
from games.engine.cards import parse

from .conftest import all_cards, arrange, refused

STUCK = {"F1": "AH 2H 3H", "T1": "4H 7D", "T2": "7C 8S", "T3": "6D 2S"}


def new(**options) -> games.Game:
    return games.new("three_shuffles_and_a_draw", 1, **options)


def test_deal_and_the_draw_is_on():
    g = new()
    assert [len(g.pile(f"T{i}")) for i in range(1, 19)] == [3] * 17 + [1]
    assert g.vars == {"redeals": 2, "drawn": False} and g.merci


def test_the_draw_comes_only_after_both_redeals():
    g = arrange(new(), STUCK, redeals=2, drawn=False)
    assert g.legal_moves() == [Move("redeal")]
    refused(g, "draw:T1,F1,2", "only after the last redeal")
    g = arrange(new(), STUCK, redeals=1, drawn=False)
    refused(g, "draw:T1,F1,2", "only after the last redeal")


def test_one_draw_of_a_buried_card_with_somewhere_to_go():
    g = arrange(new(), STUCK, redeals=0, drawn=False)
    i = g.index
    assert set(g.legal_moves()) == {Move("draw", i["T1"], i["F1"], 2),
                                    Move("draw", i["T3"], i["T1"], 2)}
    refused(g, "draw:T2,F1,2", "does not fit there")  # the 7♣ has nowhere to go
    deck = all_cards(g)
    assert g.describe(Move("draw", i["T1"], i["F1"], 2)) == "draw 4♥ T1 → F1"
    g.play("draw:T1,F1,2")
    assert g.pile("F1")[-1] == parse("4H") and g.pile("T1") == [parse("7D")]
    assert all_cards(g) == deck
    refused(g, "draw:T3,T1,2", "already been used")
    assert g.legal_moves() == [] and g.over


def test_the_draw_waits_until_no_card_can_move():
    g = arrange(new(), {"T1": "4H AH", "T2": "9C 5C 6C"}, redeals=0, drawn=False)
    refused(g, "draw:T2,T2,2", "only draw a card when no other card can move")
    g.play("T1>F1")
    assert g.legal_moves() == [Move("draw", g.index["T2"], g.index["T2"], 2)]


def test_redeal_any_time_option_applies_to_the_draw_too():
    g = arrange(new(redeal_any_time=True), {"T1": "4H AH", "T2": "9C 5C 6C"},
                redeals=0, drawn=False)
    assert Move("draw", g.index["T2"], g.index["T2"], 2) in g.legal_moves()
    g = new(redeal_any_time=True)
    g.play("redeal")
    assert g.vars["redeals"] == 1


def test_win_with_the_draw_and_undo_redo():
    piles = {f"F{i + 1}": " ".join(r + s for r in "A23456789TJ") for i, s in enumerate("CDHS")}
    piles.update({"T1": "KC QC", "T2": "QD KD", "T3": "KH QH", "T4": "KS QS"})
    g = arrange(new(), piles, redeals=0, drawn=False)
    before = g.key()
    for move in ("T1>F1", "T1>F1", "T3>F3", "T3>F3", "T4>F4", "T4>F4"):
        g.play(move)
    t2, f2 = g.index["T2"], g.index["F2"]
    assert set(g.legal_moves()) == {Move("draw", t2, f2, 2), Move("draw", t2, t2, 2)}
    g.play("draw:T2,F2,2")  # the queen of diamonds lies under her king
    g.play("T2>F2")
    assert g.won and g.score == 52
    n = len(g.history)
    while g.can_undo:
        g.undo()
    assert g.key() == before
    for _ in range(n):
        g.redo()
    assert g.won
