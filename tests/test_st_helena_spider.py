"""St Helena, the Russian Spider («Святая Елена», 002 / GAMES.md §C3)."""

from __future__ import annotations

import games
from games import Move
from games.engine.cards import parse

from .conftest import all_cards, arrange, refused

KING_TO_ACE = "KC QD JH TS 9C 8D 7H 6S 5C 4D 3H 2S AC"


def run(j: int) -> list[str]:
    """The j-th of eight king-to-ace runs that use every card of two decks exactly once."""
    return ["A23456789TJQK"[r - 1] + "CDHS"[(r + j) % 4] for r in range(13, 0, -1)]


def new(seed: int = 1, **opts) -> games.Game:
    return games.new("st_helena_spider", seed, **opts)


def test_name_says_it_is_not_the_western_game():
    info = games.game_class("st_helena_spider").info
    assert "Spider" in info.names["en"] and "паук" in info.names["ru"]
    assert "not the Western" in info.rules["en"]


def test_deal_shape_and_deals_of_ten_then_four():
    g = new(3)
    assert all_cards(g) == list(range(104))
    for t in g.tableau:
        assert len(g.cards[t]) == 4 and g.down[t] == 3
    assert len(g.pile("S")) == 64 and g.down[g.stock] == 64
    for k in range(6):
        g.play("deal")
        assert len(g.pile("S")) == 64 - 10 * (k + 1)
    top = g.pile("S")[-1]
    g.play("deal")
    assert g.pile("T1")[-1] == top
    assert [len(g.cards[t]) for t in g.tableau] == [11] * 4 + [10] * 6
    assert all(g.down[t] == 3 for t in g.tableau)
    refused(g, "deal", "The stock is empty")


def test_any_suit_building_and_runs_or_parts_of_runs_move():
    g = arrange(new(), {"T1": "9H 8S 7D", "T2": "9C", "T3": "8C", "T4": "5S",
                              "T7": "9D 2C 8H"})
    g.play("T1>T2x2")  # part of a run
    assert [c % 52 for c in g.pile("T2")] == [parse(t) for t in ("9C", "8S", "7D")]
    g.play("T2>T1x2")
    g.play("T1>T5x3")  # the whole run into an empty column
    refused(g, "T4>T3", r"The 5♠ can only go on a 6\.")
    refused(g, "T7>T8x2", "not in sequence")


def test_face_down_card_turns_up():
    g = arrange(new(), {"T1": "2C 5H", "T2": "6D"}, {"T1": 1})
    refused(g, "T1>T2x2", "face down")
    g.play("T1>T2")
    assert g.down[g.index["T1"]] == 0
    g.undo()
    assert g.down[g.index["T1"]] == 1


def test_complete_run_is_cleared_automatically_in_the_same_move():
    run = KING_TO_ACE.split()
    g = arrange(new(), {"T1": "5D " + " ".join(run[:-1]), "T2": "AS"}, {"T1": 1})
    before = g.key()
    g.play("T2>T1")
    assert len(g.pile("F1")) == 13 and g.pile("T1") == [parse("5D")]
    assert g.down[g.index["T1"]] == 0 and g.score == 13
    assert Move("move", g.index["T1"], g.index["F2"], 1) not in g.legal_moves()
    refused(g, "T1>F2", "only as a complete run")
    refused(g, "remove:T1", "cleared automatically")
    g.undo()
    assert g.key() == before


def test_clearing_by_tap_when_not_automatic():
    g = arrange(new(auto_remove=False), {"T3": KING_TO_ACE, "T4": "KS QS", "F1": KING_TO_ACE})
    removes = [m for m in g.legal_moves() if m.kind == "remove"]
    assert removes == [Move("remove", g.index["T3"])]
    refused(g, "remove:T4", "Only a complete run")
    g.play("remove:T3")
    assert g.pile("T3") == [] and len(g.pile("F2")) == 13


def test_no_deal_with_empty_column_option():
    piles = {f"T{i + 1}": t for i, t in enumerate("KC KD KH KS QC QD QH QS JC".split())}
    piles["T1"] = "KC JD"
    piles["S"] = "2H 3H 4H 5H 6H 7H 8H 9H TH JH"
    free = arrange(new(), dict(piles), {"S": 10})
    free.play("deal")
    assert len(free.pile("T10")) == 1
    strict = arrange(new(no_deal_with_empty_column=True), dict(piles), {"S": 10})
    assert Move("deal") not in strict.legal_moves()
    refused(strict, "deal", "Fill every empty column before dealing")
    strict.play("T1>T10")
    strict.play("deal")
    assert strict.pile("S") == []
