"""Streets and Alleys (000 #23 [例1]): all 52 dealt, the top two rows' wings get 7 cards."""

from __future__ import annotations

import pytest

import games
from games import GameError
from games.engine.rng import Rng

from .conftest import arrange, refused

WINGS = [f"T{i}" for i in range(1, 9)]


def test_deal_shape_and_order():
    g = games.new("streets_and_alleys", 3)
    assert all(g.pile(f"F{i}") == [] for i in range(1, 5))
    # T1/T2 are row 1 (left, right), T3/T4 row 2: those four get 7 cards
    assert [len(g.pile(w)) for w in WINGS] == [7, 7, 7, 7, 6, 6, 6, 6]
    deck = list(range(52))
    Rng(3).shuffle(deck)
    order = ["T1", "T3", "T5", "T7", "T2", "T4", "T6", "T8"] * 6 + ["T1", "T3", "T2", "T4"]
    expected: dict[str, list[int]] = {w: [] for w in WINGS}
    for w in order:
        expected[w].append(deck.pop())
    assert {w: g.pile(w) for w in WINGS} == expected


def test_long_wings_option_gives_the_seventh_card_to_the_left_wings():
    g = games.new("streets_and_alleys", 3, long_wings="left")
    assert [len(g.pile(w)) for w in WINGS] == [7, 6, 7, 6, 7, 6, 7, 6]
    with pytest.raises(GameError, match="long_wings"):
        games.new("streets_and_alleys", 3, long_wings="right")


def test_aces_start_any_empty_foundation():
    g = arrange(games.new("streets_and_alleys", 1),
                {"T1": "AD", "T2": "2D", "T3": "5C", "F1": "AS"})
    refused(g, "T3>F2", "Only an ace can start a foundation.")
    refused(g, "T1>F1")
    targets = {g.notation(m) for m in g.legal_moves() if m.src == g.index["T1"]}
    assert {"T1>F2", "T1>F3", "T1>F4"} <= targets
    g.play("T1>F3")
    g.play("T2>F3")
    assert g.score == 3


def test_wings_build_down_any_suit_one_card_at_a_time():
    g = arrange(games.new("streets_and_alleys", 1), {"T1": "JD", "T2": "4C TS", "T3": "9H"})
    g.play("T2>T1")
    g.play("T3>T1")
    refused(g, "T1>T2", r"The 9♥ can only go on a 10\.")
