"""Beleaguered Castle (000 #23): deal, single-card moves down regardless of suit, a win."""

from __future__ import annotations

import random

import pytest

import games
from games.engine import cards as C
from games.engine.rng import Rng
from games.search import searchable
from games.search.patience import PatienceSearch

from .conftest import arrange, refused

WINGS = [f"T{i}" for i in range(1, 9)]


def test_deal_shape_and_order():
    g = games.new("beleaguered_castle", 7)
    assert [g.pile(f"F{i}") for i in range(1, 5)] == [[C.card(1, s)] for s in range(4)]
    assert [len(g.pile(w)) for w in WINGS] == [6] * 8
    assert not any(g.down)
    # one card to each left wing top to bottom, then each right wing, six times
    deck = [c for c in range(52) if C.RANK[c] != 1]
    Rng(7).shuffle(deck)
    order = ["T1", "T3", "T5", "T7", "T2", "T4", "T6", "T8"] * 6
    expected: dict[str, list[int]] = {w: [] for w in WINGS}
    for w in order:
        expected[w].append(deck.pop())
    assert {w: g.pile(w) for w in WINGS} == expected


def test_layout_fits_and_left_wings_fan_towards_the_foundations():
    g = games.new("beleaguered_castle", 1)
    spec = {p.id: p for p in g.layout}
    assert all(p.x + 1 <= 10.5 and p.y + 1.4 <= 6.5 for p in g.layout)
    for row in range(4):
        left, right, f = spec[f"T{2 * row + 1}"], spec[f"T{2 * row + 2}"], spec[f"F{row + 1}"]
        assert left.x < f.x < right.x and left.y == f.y == right.y
        assert left.fan == right.fan == "right"


def test_build_down_regardless_of_suit():
    g = arrange(games.new("beleaguered_castle", 1),
                {"T1": "9H", "T2": "8H", "T3": "8S", "T4": "TC"})
    g.play("T2>T1")
    g.undo()
    g.play("T3>T1")  # any suit, any colour
    refused(g, "T2>T4", r"8♥ can only go on a 9\.")


def test_one_card_at_a_time():
    g = arrange(games.new("beleaguered_castle", 1), {"T1": "9H 8S", "T2": "TD"})
    assert str(g.why_illegal(games.Move("move", g.index["T1"], g.index["T2"], 2))) == \
        "Only one card can be moved at a time."


def test_foundations_up_in_suit_and_never_back():
    g = arrange(games.new("beleaguered_castle", 1),
                {"F3": "AH", "T1": "2H", "T2": "3H", "T3": "2S", "T4": "4C"})
    refused(g, "T2>F3", "2 of hearts")
    refused(g, "T3>F3", "ace of spades")
    g.play("T1>F3")
    g.play("T2>F3")
    refused(g, "F3>T4", "Cards on a foundation cannot be moved.")


def test_empty_wing_takes_any_card_but_a_lone_card_does_not_just_shift():
    g = arrange(games.new("beleaguered_castle", 1), {"T1": "KS", "T2": "5D 7H", "T3": "QC"})
    g.play("T2>T4")  # a 7 into an empty wing
    refused(g, "T1>T5", "would change nothing")
    assert games.Move("move", g.index["T3"], g.index["T5"], 1) not in g.legal_moves()


def test_safe_autoplay_only_plays_cards_nothing_needs():
    g = arrange(games.new("beleaguered_castle", 1),
                {"F1": "AC", "F2": "AD", "F3": "AH", "F4": "AS", "T1": "2C", "T2": "4D"})
    assert g.notation(g.safe_autoplay()) == "T1>F1"
    g = arrange(games.new("beleaguered_castle", 1),
                {"F1": "AC 2C 3C", "F2": "AD", "F3": "AH", "F4": "AS", "T1": "4C"})
    assert g.safe_autoplay() is None  # a red 3 might still want the 4♣


@pytest.mark.parametrize("gid", ["beleaguered_castle", "citadel", "streets_and_alleys"])
def test_fast_solver_order_is_the_generic_guided_order(gid):
    """The move order worked out from each move (no make/unmake) must be exactly the order
    of ``PatienceSearch.guided``, which scores the position each move leads to."""
    for seed in (1, 2, 3, 5, 8):
        g = searchable(games.new(gid, seed))
        rnd = random.Random(seed)
        for _ in range(120):
            moves = g.legal_moves()
            if not moves or g.won:
                break
            assert g.guided(list(moves)) == PatienceSearch.guided(g, list(moves))
            g.play(rnd.choice(moves))
