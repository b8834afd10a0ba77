"""Grand Piano, the labelled reconstruction of 002's opening fragment (GAMES.md §C1)."""

from __future__ import annotations

import random

import pytest

import games
from games import IllegalMove, Move
from games.cards import parse
from games.patience import PatienceGame

from .conftest import all_cards, arrange

UP_FROM_ACE = "A23456789TJQK"
BLOCKED = {f"T{i + 1}": t for i, t in enumerate("5D 5H 6D 6H 7D 7H 8D 8H JD 6C".split())}


def new(seed: int = 1, **opts) -> games.Game:
    return games.new("grand_piano_fragment", seed, **opts)


def codes(game: games.Game, pile: str) -> list[int]:
    return [c % 52 for c in game.pile(pile)]


def cards(text: str) -> list[int]:
    return [parse(t) for t in text.split()]


def test_rules_text_says_what_is_reconstructed():
    rules = games.game_class("grand_piano_fragment").info.rules
    assert "RECONSTRUCTION" in rules["en"] and "Little Piano" in rules["en"]
    assert "重建" in rules["zh"] and "РЕКОНСТРУКЦИЯ" in rules["ru"]


@pytest.mark.parametrize("size", [4, 3, 5])
def test_deal_shape(size):
    g = new(2, pile_size=size)
    assert all_cards(g) == list(range(104))
    for t in g.tableau:
        assert len(g.cards[t]) == size and g.down[t] == 0
    assert len(g.pile("S")) == 104 - 10 * size and g.down[g.stock] == 104 - 10 * size
    assert not any(g.cards[p] for p in (g.waste, *g.foundations, *g.reserve))
    assert g.vars["rescue"] is False


def test_build_down_in_alternating_colours_one_card_at_a_time():
    g = arrange(new(), {"T1": "8S", "T2": "7H", "T3": "7C", "T4": "9D 8C 7D", "T5": "9H"})
    g.play("T2>T1")
    with pytest.raises(IllegalMove, match=r"The 7♣ can only go on a red 8\."):
        g.play("T3>T1")
    with pytest.raises(IllegalMove, match="Only one card can be moved at a time"):
        g.play("T4>T5x2")


@pytest.mark.parametrize("building,fits,refused", [("any", "7S", "5H"), ("same", "7S", "6H")])
def test_building_option(building, fits, refused):
    g = arrange(new(building=building), {"T1": "8S", "T2": fits, "T3": refused})
    g.play("T2>T1")
    with pytest.raises(IllegalMove, match="can only go on"):
        g.play("T3>T1")


def test_empty_pile_takes_only_the_waste_or_a_reserve_card():
    g = arrange(new(), {"T1": "8S", "W": "QD", "S": "4C"}, {"S": 1})
    with pytest.raises(IllegalMove, match="only be filled from the waste or the reserve"):
        g.play("T1>T2")
    g.play("W>T2")
    g = arrange(new(empty_pile="any"), {"T1": "8S"})
    g.play("T1>T2")


def test_foundations_up_in_suit_and_never_back():
    g = arrange(new(), {"T1": "AH", "T2": "2H", "T3": "2S", "T4": "3C"})
    g.play("T1>F1")
    with pytest.raises(IllegalMove, match=r"The 2♠ can only go on .* of spades\."):
        g.play("T3>F1")
    g.play("T2>F1")
    with pytest.raises(IllegalMove, match="Cards on a foundation cannot be moved"):
        g.play("F1>T4")


def test_stock_one_card_at_a_time_without_redeal_unless_chosen():
    g = arrange(new(), {"S": "2C 3C"}, {"S": 2})
    g.play("deal")
    assert codes(g, "W") == cards("3C") and len(g.pile("S")) == 1
    g.play("deal")
    with pytest.raises(IllegalMove, match="No more redeals"):
        g.play("redeal")
    g = arrange(new(redeals=1), {"S": "2C 3C"}, {"S": 2})
    g.play("deal")
    g.play("deal")
    g.play("redeal")
    assert codes(g, "S") == cards("2C 3C") and g.down[g.stock] == 2


def test_rescue_operation_forms_a_reserve_of_three_and_refills_it():
    g = arrange(new(), {"W": "2C 3C 4C 5C 6C", "S": "9H", "F1": "AC", "T1": "KD"}, {"S": 1})
    with pytest.raises(IllegalMove, match="only when the stock is used up"):
        g.play("rescue")
    g.play("deal")
    before = g.key()
    assert Move("rescue") in g.legal_moves()
    g.play("rescue")
    # the card turned first from the stock is on top of the rescue pack
    assert [codes(g, r) for r in ("R1", "R2", "R3")] == [cards("2C"), cards("3C"), cards("4C")]
    assert codes(g, "S") == cards("9H 6C 5C") and g.down[g.stock] == 3 and g.pile("W") == []
    g.play("R1>F1")
    assert codes(g, "R1") == cards("5C")  # refilled in the same move
    g.play("R2>F1")
    assert codes(g, "R2") == cards("6C")
    g.play("R2>T2")  # a reserve card may fill an empty pile
    assert codes(g, "R2") == cards("9H") and g.pile("S") == []
    with pytest.raises(IllegalMove, match="only once"):
        g.play("rescue")
    with pytest.raises(IllegalMove, match="only refills the reserve"):
        g.play("deal")
    for _ in range(4):
        g.undo()
    assert g.key() == before


def test_strict_rescue_loss_option():
    position = {**BLOCKED, "R1": "9C", "R2": "9S", "R3": "2H"}
    relaxed = arrange(new(), position, rescue=True)
    assert relaxed.legal_moves() and not relaxed.lost  # 5s may still go on the 6C
    strict = arrange(new(strict_rescue_loss=True), position, rescue=True)
    assert strict.lost and strict.over and not strict.won and strict.legal_moves() == []
    with pytest.raises(IllegalMove, match="none of the reserve cards can be played"):
        strict.play("T1>T10")


def test_win_and_undo_redo_to_the_exact_key():
    piles = {f"F{i + 1}": " ".join(r + s for r in UP_FROM_ACE[:-1])
             for i, s in enumerate("CDHSCDHS")}
    piles.update({"T1": "KC", "T2": "KD KH", "W": "KS", "S": "KC KD", "T3": "KH", "T4": "KS"})
    g = arrange(new(), piles, {"S": 2})
    assert all_cards(g) == list(range(104))
    before = g.key()
    script = ["T1>F1", "T2>F3", "T2>F2", "W>F4", "T3>F7", "T4>F8", "deal", "W>F6", "deal",
              "W>F5"]
    for m in script:
        g.play(m)
    assert g.won and g.over and g.score == 104
    assert Move("rescue") not in g.legal_moves()
    for _ in script:
        g.undo()
    assert g.key() == before
    for _ in script:
        g.redo()
    assert g.won


@pytest.mark.parametrize("opts", [{}, {"empty_pile": "any", "building": "same"}])
def test_fast_move_list_matches_the_generic_search(opts):
    for seed in (1, 2, 3):
        g, rnd = new(seed, **opts), random.Random(seed)
        for _ in range(150):
            moves = g.legal_moves()
            assert len(moves) == len(set(moves))
            assert set(moves) == set(PatienceGame.legal_moves(g))
            if not moves:
                break
            others = [m for m in moves if m.kind != "move"]
            g.play(rnd.choice(others if others and rnd.random() < 0.3 else moves))
