"""Star Combination (001 #1)."""

from __future__ import annotations

import games
from games.engine import cards as C
from games.engine.cards import RANK, parse, text
from games.engine.rng import Rng
from games.search import searchable

from .conftest import arrange, assert_undo_then_redo, refused

RANKS = (1, 7, 8, 9, 10, 11, 12, 13)


def star(piles: dict[str, str], down_stock: bool = True, **kw) -> games.Game:
    options = kw.pop("options", {})
    g = searchable(games.new("star_pairs", 1, **options))
    down = {"S": len(piles.get("S", "").split())} if down_stock else {}
    kw.setdefault("turned", 0)
    kw.setdefault("missed", False)
    return arrange(g, piles, down, **kw)


def test_deal_shape_and_order():
    g = games.new("star_pairs", 7)
    assert all(len(g.pile(f"T{i}")) == 1 for i in range(1, 18))
    assert len(g.pile("S")) == 15 and g.down[g.index["S"]] == 15
    assert g.pile("W") == g.pile("R") == g.pile("D") == []
    assert sorted(c for p in g.cards for c in p) == C.deck(ranks=RANKS)
    deck = C.deck(ranks=RANKS)
    Rng(7).shuffle(deck)
    # inner ring left, right, top, bottom, upper-left, lower-right, upper-right, lower-left;
    # then the outer ring the same way; the centre last
    order = ["T8", "T10", "T5", "T13", "T4", "T14", "T6", "T12",
             "T7", "T11", "T2", "T16", "T1", "T17", "T3", "T15", "T9"]
    assert [g.pile(p)[0] for p in order] == deck[::-1][:17]
    assert g.pile("S")[-1] == deck[-18]


def test_layout_is_an_asterisk_that_fits():
    g = games.new("star_pairs", 1)
    spec = {p.id: p for p in g.layout}
    cx, cy = spec["T9"].x, spec["T9"].y
    steps = {(round((spec[f"T{i}"].x - cx) / 1.2), round((spec[f"T{i}"].y - cy) / 1.25))
             for i in range(1, 18)}
    assert steps == {(dx * d, dy * d) for d in (1, 2) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                     if dx or dy} | {(0, 0)}
    assert max(p.x for p in g.layout) + 1 <= 10.5
    assert max(p.y for p in g.layout) + 1.4 <= 6.5


def test_turn_pair_and_refill_the_star_place():
    g = star({"T9": "7C", "T8": "8D", "T10": "9H", "S": "AS KD 8S"})
    refused(g, "remove:W,T8", "Turn a card from the stock first")
    g.play("deal")
    assert g.pile("W") == [parse("8S")] and g.vars["turned"] == 1
    assert [g.notation(m) for m in g.legal_moves()] == ["remove:W,T8"]
    refused(g, "deal", "First pair the turned card")
    refused(g, "remove:W,T9", "The 8♠ and the 7♣ are not the same rank")
    g.play("remove:W,T8")
    assert [text(c) for c in g.pile("D")] == ["8S", "8D"]
    assert g.pile("T8") == [parse("KD")] and g.down[g.index["T8"]] == 0
    assert g.pile("S") == [parse("AS")]


def test_the_very_first_card_may_miss_once():
    g = star({"T9": "7C", "S": "8S 9D"})
    g.play("deal")
    assert g.pile("R") == [parse("9D")] and g.pile("W") == [] and g.vars["missed"]
    assert not g.lost
    g.play("deal")
    assert g.lost and g.over and not g.won and g.legal_moves() == []
    refused(g, "deal", "The game is lost")


def test_a_later_miss_loses_unless_free_miss_any_time():
    piles = {"T9": "7C", "T8": "9H", "S": "8S KC 9D"}
    for any_time in (False, True):
        g = star(piles, options={"free_miss_any_time": any_time})
        g.play("deal")
        g.play("remove:W,T8")
        assert g.pile("T8") == [parse("KC")]
        g.play("deal")
        assert g.lost is not any_time
        assert g.pile("R") == ([] if not any_time else [parse("8S")])


def test_table_pairs_any_time_without_refill_and_the_miss_they_can_cause():
    g = star({"T1": "7C", "T17": "7D", "T9": "QH", "S": "QD 7S"}, turned=1)
    assert {g.notation(m) for m in g.legal_moves()} == {"deal", "remove:T1,T17"}
    assert g.parse_move("remove:T17,T1") == g.parse_move("remove:T1,T17")
    g.play("remove:T17,T1")
    assert g.pile("T1") == g.pile("T17") == [] and len(g.pile("S")) == 2
    g.play("deal")  # the 7♠ has lost its partners: the second miss
    assert g.lost
    g.undo()
    g.undo()
    g.play("deal")
    assert not g.lost and len(g.legal_moves()) == 3  # W with T1 or T17, or the table pair


def test_the_spare_card_pairs_but_is_not_refilled():
    g = star({"R": "9C", "T9": "7C", "S": "KH 9S"}, turned=1, missed=True)
    g.play("deal")
    g.play("remove:W,R")
    assert g.pile("R") == [] and g.pile("S") == [parse("KH")]


def test_win_and_undo_redo():
    rest = [text(c) for c in C.deck(ranks=RANKS) if text(c) not in ("AC", "AD")]
    g = star({"T1": "AC", "T2": "AD", "D": " ".join(rest)}, turned=15, missed=True)
    start = g.key()
    assert not g.won and g.score == 2
    g.play("remove:T1,T2")
    assert g.won and g.over and g.score == 0
    assert_undo_then_redo(g, start)


def test_refusals_for_other_moves():
    g = games.new("star_pairs", 3)
    refused(g, "T1>T2", "remove two cards of the same rank")
    refused(g, "remove:S,T2", "Pick two different cards")
    pairs = [(a, b) for a in range(1, 18) for b in range(a + 1, 18)
             if RANK[g.pile(f"T{a}")[0]] != RANK[g.pile(f"T{b}")[0]]]
    a, b = pairs[0]
    refused(g, f"remove:T{a},T{b}", "not the same rank")


def test_table_pairs_only_at_the_end_option():
    piles = {"T1": "7C", "T17": "7D", "T9": "QH", "S": "QD"}
    g = star(piles, turned=1, options={"table_pairs_any_time": False})
    assert [g.notation(m) for m in g.legal_moves()] == ["deal"]
    refused(g, "remove:T1,T17", "only once the stock is used up")
    g.play("deal")
    g.play("remove:W,T9")
    assert g.pile("S") == [] and g.pile("T9") == []  # nothing left to refill with
    g.play("remove:T1,T17")
    assert g.pile("T1") == g.pile("T17") == [] and len(g.pile("D")) == 4


def test_solver_hooks_settle_deals():
    from games.solver import solve

    results = set()
    for seed in range(1, 9):
        g = searchable(games.new("star_pairs", seed))
        s = solve(g, max_nodes=20000)
        assert s.result in ("won", "lost"), seed
        results.add(s.result)
        if s.won:
            for m in s.moves:
                g.play(m)
            assert g.won
    assert results == {"won", "lost"}
    # suits and star places do not matter to the search
    a = star({"T1": "7C", "T2": "9H", "S": "8S"})
    b = star({"T5": "7D", "T17": "9S", "S": "8H"})
    assert a.solver_key() == b.solver_key() and a.key() != b.key()
