"""The Fan (003 variant): kings may fill empty fans, and there is no redeal."""

from __future__ import annotations

import games
from games.engine.cards import parse

from .conftest import arrange, refused


def test_deal_eighteen_open_fans_no_options():
    g = games.new("the_fan", 2)
    assert [len(g.pile(f"T{i}")) for i in range(1, 19)] == [3] * 17 + [1]
    assert not any(g.down) and g.vars["redeals"] == 0
    assert games.game_class("the_fan").options == ()
    assert g.info.kind == "S-open"
    assert all(g.layout[t].label == "K" for t in g.tableau)


def test_only_a_king_fills_an_empty_fan():
    g = arrange(games.new("the_fan", 1), {"T1": "5D KC", "T2": "QH"})
    refused(g, "T2>T3", "Only a king can go into an empty fan")
    g.play("T1>T3")
    assert g.pile("T3") == [parse("KC")]
    refused(g, "T2>T3", "Q♥ can only go on a king of hearts")


def test_builds_down_in_suit():
    g = arrange(games.new("the_fan", 1), {"T1": "KC", "T2": "QH", "T3": "QC"})
    refused(g, "T2>T1", "Q♥ can only go on a king of hearts")
    g.play("T3>T1")


def test_no_redeal():
    g = arrange(games.new("the_fan", 1), {"T1": "5D 9C", "T2": "7H"}, redeals=0, drawn=False)
    assert g.legal_moves() == [] and g.over and not g.won
    refused(g, "redeal", "This game has no redeals")


def test_win_and_undo_redo():
    piles = {f"F{i + 1}": " ".join(r + s for r in "A23456789TJ") for i, s in enumerate("CDHS")}
    piles.update({"T1": "KC QC", "T2": "KD QD", "T3": "KH QH", "T4": "QS KS"})
    g = arrange(games.new("the_fan", 1), piles, redeals=0, drawn=False)
    before = g.key()
    for move in ("T1>F1", "T1>F1", "T2>F2", "T2>F2", "T3>F3", "T3>F3"):
        g.play(move)
    refused(g, "T4>F4",
            "K♠ can only go on a queen of spades")  # the king of spades lies on its own queen
    g.play("T4>T1")  # the king rule frees the queen
    g.play("T4>F4")
    g.play("T1>F4")
    assert g.won and g.score == 52
    for _ in range(len(g.history)):
        g.undo()
    assert g.key() == before
