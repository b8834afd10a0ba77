"""Clock (000 #22, 001 #6)."""

from __future__ import annotations

import games
from games.engine.cards import parse
from games.engine.reason import Reason

from .conftest import arrange, refused


def cards(*names: str) -> list[int]:
    return [parse(n) for n in names]


def full_hours(skip: tuple[int, ...] = ()) -> dict[str, str]:
    """Every hour pile complete and face up, except the hours in ``skip``."""
    ranks = "A23456789TJQ"
    return {f"T{h + 1}": " ".join(ranks[h] + s for s in "CDHS")
            for h in range(12) if h + 1 not in skip}


def test_deal_shape():
    g = games.new("clock", 6)
    assert len(g.layout) == 13
    assert all(len(c) == 4 for c in g.cards) and all(d == 4 for d in g.down)
    centre = g.index["T13"]
    assert g.vars["at"] == centre and g.legal_moves() == [games.Move("turn", centre)]
    assert g.score == 0 and g.grade is None


def test_turn_takes_the_top_face_down_card_to_its_hour():
    g = arrange(games.new("clock", 1), {"T13": "5C 2D 7H 9S", "T9": "3C 4D 8H JS"},
                {"T13": 4, "T9": 4}, at=12)
    refused(g, "turn:T9", "must come from the centre pile")
    g.play("turn:T13")
    assert g.pile("T9") == cards("3C", "4D", "8H", "JS", "9S") and g.down[g.index["T9"]] == 4
    assert g.pile("T13") == cards("5C", "2D", "7H") and g.down[g.index["T13"]] == 3
    assert g.vars["at"] == g.index["T9"]
    refused(g, "T9>T1", "tap the 9 o'clock pile")
    g.play("turn:T9")  # its top face-down card, the jack, goes to 11 o'clock
    assert g.pile("T11") == cards("JS") and g.vars["at"] == g.index["T11"]


def test_draw_from_the_bottom_option():
    g = arrange(games.new("clock", 1, draw="bottom"), {"T13": "5C 2D 7H 9S"}, {"T13": 4},
                at=12)
    g.play("turn:T13")
    assert g.pile("T5") == cards("5C") and g.pile("T13") == cards("2D", "7H", "9S")


def test_fourth_king_ends_the_game_with_completed_groups():
    g = arrange(games.new("clock", 1),
                {**full_hours(skip=(2, 5)), "T2": "5H 2C 2D 2H", "T5": "5C 5D 5S",
                 "T13": "KS KC KD KH"},
                {"T2": 1, "T13": 1}, at=1)
    g.play("turn:T2")  # the 5 of hearts goes to 5 o'clock, whose pile has no face-down card
    assert g.legal_moves() == [] and g.over and not g.won
    assert g.score == 11 and g.grade == Reason("{n} of 13 groups", n=11)
    assert str(g.grade) == "11 of 13 groups" and g.table()["grade"] == "11 of 13 groups"
    g = arrange(games.new("clock", 1), {"T13": "5C KC KD KH", "T5": "KS", "T6": "6C"},
                {"T13": 1, "T5": 1, "T6": 1}, at=12)
    g.play("turn:T13")
    g.play("turn:T5")  # the fourth king lands in the centre: no face-down card left there
    assert g.vars["at"] == g.index["T13"] and g.legal_moves() == []
    refused(g, "swap:T1", "only in the Watch variant")


def test_watch_swaps_the_fourth_king_once():
    piles = {"T13": "KC KD KH KS", "T2": "9S 2C", "T9": "9C 9D 9H"}
    g = arrange(games.new("clock", 1, watch=True), piles, {"T2": 2}, at=12)
    assert [g.notation(m) for m in g.legal_moves()] == ["swap:T2,2", "swap:T2"]
    refused(g, "swap:T9", "Choose a face-down card")
    g.play("swap:T2")  # 2C comes up and goes to 2 o'clock; the king takes its place
    assert g.pile("T2") == cards("9S", "KS", "2C") and g.down[g.index["T2"]] == 2
    assert g.pile("T13") == cards("KC", "KD", "KH") and g.vars["swapped"]
    g.play("turn:T2")  # the king comes up again and ends the game
    assert g.pile("T13")[-1] == parse("KS") and g.legal_moves() == []
    refused(g, "swap:T2", "already been swapped")
    deep = arrange(games.new("clock", 1, watch=True), piles, {"T2": 2}, at=12, swapped=False)
    deep.play("swap:T2,2")  # the deepest card: 9S completes the nines
    assert deep.pile("T9") == cards("9C", "9D", "9H", "9S") and deep.pile("T2") == cards(
        "KS", "2C")
    assert deep.vars["at"] == deep.index["T9"] and deep.score == 1


def test_win_on_constructed_position_and_undo_redo():
    g = arrange(games.new("clock", 1),
                {**full_hours(skip=(1,)), "T1": "KS AC AD AH", "T13": "AS KC KD KH"},
                {"T1": 1, "T13": 1}, at=0)
    start = g.key()
    g.play("turn:T1")  # the king goes to the centre ...
    assert not g.won
    g.play("turn:T13")  # ... which still hides the last ace
    assert g.won and g.over and g.score == 13 and g.grade is None
    end = g.key()
    g.undo()
    g.undo()
    assert g.key() == start
    g.redo()
    g.redo()
    assert g.key() == end
