"""Napoleon's Tomb, the labelled reconstruction of 002 («Гробница Наполеона», GAMES.md §C4)."""

from __future__ import annotations

import pytest

import games
from games import IllegalMove, Move
from games.cards import KING, RANK, SUIT, parse

from .conftest import all_cards, arrange

DOWN_FROM_KING = "KQJT98765432A"


def new(seed: int = 1, **opts) -> games.Game:
    return games.new("napoleons_tomb", seed, **opts)


def run(suit: str, ranks: str = DOWN_FROM_KING) -> str:
    return " ".join(r + suit for r in ranks)


def test_rules_text_says_what_is_reconstructed():
    rules = games.game_class("napoleons_tomb").info.rules
    assert "RECONSTRUCTION" in rules["en"] and "Western" in rules["en"]
    assert "重建" in rules["zh"] and "РЕКОНСТРУКЦИЯ" in rules["ru"]


def test_deal_shape_walls_working_cards_and_corner_kings():
    for seed in range(1, 40):
        g = new(seed)
        assert all_cards(g) == list(range(104))
        assert len(g.pile("S")) == 60 and g.down[g.stock] == 60 and g.pile("W") == []
        corners = [g.cards[f] for f in g.foundations]
        kings = [c[0] for c in corners if c]
        assert all(len(c) == 1 and RANK[c[0]] == KING for c in corners if c)
        assert len({SUIT[k] for k in kings}) == len(kings)
        assert all(corners[:len(kings)])  # corners fill in order
        assert sum(len(g.cards[p]) for p in (*g.walls, *g.tableau)) + len(kings) == 44
        for wall, work in zip(g.walls, g.tableau, strict=True):
            assert g.down[wall] == len(g.cards[wall]) - 1 and len(g.cards[work]) == 1
    g = new(5)  # a king of spades and one of diamonds were among the first eight cards
    assert g.pile("F1")[0] % 52 == parse("KS") and g.pile("F2")[0] % 52 == parse("KD")
    assert g.pile("R2")[-1] % 52 == parse("KD")  # the second one stays: diamonds have a corner


def test_kings_start_corners_once_per_suit():
    g = arrange(new(), {"R1": "KH", "W": "KH", "T1": "5C", "T2": "KS"})
    g.play("R1>F1")
    with pytest.raises(IllegalMove, match="hearts already have a corner"):
        g.play("W>F2")
    with pytest.raises(IllegalMove, match="Only a king can start a foundation"):
        g.play("T1>F2")
    assert g.safe_autoplay() == Move("move", g.index["T2"], g.index["F2"], 1)
    g.play("T2>F2")


def test_foundations_down_in_suit_then_second_king_on_the_ace():
    g = arrange(new(), {"F1": run("S"), "R1": "KS", "W": "QH", "R2": "QS", "T1": "2D",
                        "T2": "3D"})
    with pytest.raises(IllegalMove, match="needs the king of spades next"):
        g.play("R2>F1")
    g.play("R1>F1")
    with pytest.raises(IllegalMove, match="needs the queen of spades next"):
        g.play("W>F1")
    g.play("R2>F1")
    assert len(g.pile("F1")) == 15


def test_working_piles_take_wall_and_waste_cards_in_suit_up_or_down():
    g = arrange(new(), {"T1": "6H", "R1": "7H", "W": "8H", "R2": "5H", "R3": "6C",
                        "T2": "9D", "R4": "TD", "T3": "2C", "T4": "2S"})
    g.play("R1>T1")
    g.play("W>T1")
    with pytest.raises(IllegalMove, match=r"The 5♥ can only go on a 6 or 4 of hearts\."):
        g.play("R2>T1")
    g.play("R4>T2")
    assert g.pile("T4") == [parse("2S")]  # an empty wall leaves its working pile alone
    with pytest.raises(IllegalMove, match="from a working pile to a working pile"):
        g.play("T1>T2")
    with pytest.raises(IllegalMove, match="Nothing can be placed on a wall"):
        g.play("R3>R2")
    with pytest.raises(IllegalMove, match="waste cannot be filled"):
        g.play("R3>W")


@pytest.mark.parametrize("build,fits,refused", [
    ("up", "7H", "5H"), ("down", "5H", "7H"), ("none", None, "7H")])
def test_working_build_option(build, fits, refused):
    g = arrange(new(working_build=build), {"T1": "6H", "R1": fits or "2C", "R2": refused,
                                                 "T2": "2D"})
    if fits:
        g.play("R1>T1")
    with pytest.raises(IllegalMove, match="can only go on|Nothing can be placed"):
        g.play("R2>T1")


def test_working_pile_refills_from_its_own_wall_in_the_same_move():
    g = arrange(new(), {"T1": "QH", "R1": "3C 7D 2S", "F1": "KH", "T2": "JS", "F2": "KS QS",
                        "W": "5S"}, {"R1": 2})
    before = g.key()
    g.play("T1>F1")
    assert g.pile("T1") == [parse("2S")] and g.pile("R1") == [parse("3C"), parse("7D")]
    assert g.down[g.index["R1"]] == 1  # the next wall card surfaced
    g.play("T2>F2")  # wall 2 is empty, so its working place stays empty
    assert g.pile("T2") == []
    with pytest.raises(IllegalMove, match="An empty working pile cannot be filled"):
        g.play("W>T2")
    g.undo()
    g.undo()
    assert g.key() == before


def test_three_passes_by_default_and_one_as_an_option():
    for passes in (3, 1):
        g = new(7, passes=passes)
        g = arrange(g, {"S": "2C 3C"}, {"S": 2})
        for _ in range(passes):
            g.play("deal")
            g.play("deal")
            if _ < passes - 1:
                g.play("redeal")
        with pytest.raises(IllegalMove, match="No more redeals"):
            g.play("redeal")


def test_lost_when_nothing_can_be_played():
    g = arrange(new(), {"W": "5C", "T1": "9D", "R1": "8C", "F1": "KH"}, redeals=0)
    assert not g.legal_moves() and g.over and not g.won


def test_win_and_undo_redo_to_the_exact_key():
    piles = {f"F{i + 1}": run(s) + " " + run(s, DOWN_FROM_KING[:-1]) for i, s in enumerate("SHDC")}
    piles.update({"R1": "AS", "T1": "AH", "W": "AD", "S": "AC"})
    g = arrange(new(), piles, {"S": 1})
    assert all_cards(g) == list(range(104))
    before = g.key()
    script = ["R1>F1", "T1>F2", "W>F3", "deal", "W>F4"]
    for m in script:
        g.play(m)
    assert g.won and g.over and g.score == 104
    for _ in script:
        g.undo()
    assert g.key() == before
    for _ in script:
        g.redo()
    assert g.won
