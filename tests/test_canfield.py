"""Canfield (000 #12): reserve, automatic fills, base rank with wrap, draw 3 or draw 1."""

from __future__ import annotations

import games
from games.engine.cards import RANK, parse
from games.search import searchable

from .conftest import all_cards, arrange, refused


def cards(text: str) -> list[int]:
    return [parse(t) for t in text.split()]


def new(**options) -> games.Game:
    return searchable(games.new("canfield", 1, **options))


def test_deal_shape():
    g = new()
    r = g.index["R"]
    assert len(g.pile("R")) == 13 and g.down[r] == 12
    assert [len(g.pile(f"T{i}")) for i in range(1, 5)] == [1, 1, 1, 1]
    assert len(g.pile("F1")) == 1 and not g.pile("F2") and not g.pile("W")
    assert len(g.pile("S")) == 34 and g.down[g.index["S"]] == 34
    assert g.vars["base"] == RANK[g.pile("F1")[0]] and g.vars["redeals"] == -1
    assert len(all_cards(g)) == 52
    assert all(s.x + 1 <= 10.5 and s.y + 1.4 <= 6.5 for s in g.layout)
    assert [s.role for s in g.layout][-1] == "reserve"


def test_foundations_start_at_the_base_rank_and_wrap():
    g = arrange(new(), {"F1": "QH KH", "T1": "8S", "T2": "AH", "T3": "2H", "T4": "JC",
                        "R": "5D"}, base=12)
    refused(g, "T1>F2", "Only a queen can start a foundation")
    g.play("T2>F1")  # after the king comes the ace
    g.play("T3>F1")
    refused(g, "F1>T4", "Cards on a foundation cannot be moved")


def test_columns_build_down_alternating_with_wrap():
    g = arrange(new(), {"T1": "8S", "T2": "7H", "T3": "7C", "T4": "AD", "W": "KS", "R": "5D"},
                base=9)
    refused(g, "T3>T1", "7♣ can only go on a red 8")
    g.play("T2>T1")
    g.play("W>T4")  # a king on an ace
    g = arrange(new(tableau_wrap=False), {"T4": "AD", "W": "KS", "R": "5D"}, base=9)
    refused(g, "W>T4", "K♠ cannot be placed on another card")


def test_any_run_moves_by_default_whole_pile_as_option():
    position = {"T1": "9H 8S 7D", "T2": "9D", "T3": "TS", "T4": "2C", "R": "5D"}
    g = arrange(new(), position, base=3)
    g.play("T1>T2x2")  # part of a column
    g = arrange(new(group_moves="whole_pile"), position, base=3)
    refused(g, "T1>T2x2", "top card alone or the whole run")
    g.play("T1>T3x3")


def test_space_filled_from_the_reserve_at_once_and_undone_together():
    g = arrange(new(), {"T1": "8S", "T2": "7H", "T3": "3C", "T4": "4C", "R": "2D 6C 9D"},
                {"R": 2}, base=11)
    before = g.key()
    g.play("T2>T1")
    assert g.pile("T2") == cards("9D")  # filled from the reserve
    assert g.pile("R") == cards("2D 6C") and g.down[g.index["R"]] == 1  # next card turned up
    g.undo()
    assert g.key() == before


def test_reserve_top_plays_nothing_goes_on_the_reserve():
    g = arrange(new(), {"T1": "8S", "T2": "TC", "T3": "3C", "T4": "4C", "R": "2D 7H", "W": "9D"},
                {"R": 1}, base=11)
    refused(g, "W>R", "Nothing can be placed on a reserve")
    g.play("R>T1")
    assert g.pile("T1") == cards("8S 7H") and g.down[g.index["R"]] == 0


def test_with_the_reserve_gone_only_the_waste_fills_a_space():
    g = arrange(new(), {"T1": "8S", "T2": "7H", "T3": "3C", "W": "9D"}, base=11)
    assert not g.pile("T4")
    refused(g, "T1>T4", "Only the top card of the waste")
    g.play("T2>T1")
    assert not g.pile("T2")  # stays empty: the player chooses when to fill it
    g.play("W>T2")
    assert g.pile("T2") == cards("9D")


def test_stock_turns_three_then_the_last_ones_singly_and_redeals_freely():
    g = arrange(new(), {"T1": "8S", "T2": "TC", "T3": "3C", "T4": "4C", "R": "2D",
                        "S": "AC 2C 3D 4D 5D"}, {"S": 5}, base=11, redeals=-1)
    g.play("deal")
    assert g.pile("W") == cards("5D 4D 3D") and len(g.pile("S")) == 2
    g.play("deal")
    assert g.pile("W")[-1] == parse("2C") and len(g.pile("S")) == 1
    g.play("deal")
    refused(g, "deal", "The stock is empty")
    for _ in range(5):
        g.play("redeal")
        assert g.pile("S") == cards("AC 2C 3D 4D 5D") and not g.pile("W")
        while g.pile("S"):
            g.play("deal")


def test_draw_one_variant_has_two_redeals():
    g = new(variant="draw_one")
    assert g.vars["redeals"] == 2
    g.play("deal")
    assert len(g.pile("W")) == 1
    for _ in range(2):
        while g.pile("S"):
            g.play("deal")
        g.play("redeal")
    while g.pile("S"):
        g.play("deal")
    refused(g, "redeal", "No more redeals")


def _waste_sizes(g: games.Game) -> frozenset[int]:
    """Every size of the waste reachable from ``g`` by turning and redealing alone."""
    seen = {len(g.pile("W"))}
    todo = [g.clone()]
    while todo:
        h = todo.pop()
        for m in h.legal_moves():
            if m.kind in ("deal", "redeal"):
                k = h.clone()
                k.play(m)
                if len(k.pile("W")) not in seen:
                    seen.add(len(k.pile("W")))
                    todo.append(k)
    return frozenset(seen)


def test_solver_key_folds_only_waste_sizes_that_reach_the_same_cards():
    """Two positions differing only in how far the talon is turned share a key exactly when
    turning and redealing reach the same waste sizes (so the same waste cards) from both:
    a waste left at 5 cards by a play reaches 8, 11 ... which a redeal never comes back to."""
    talon = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC".split()
    for n in range(1, len(talon) + 1):
        keys: dict[bytes, set[frozenset[int]]] = {}
        for i in range(n + 1):
            g = arrange(new(), {"F1": "AH", "T1": "AS", "T2": "AD", "T3": "AC", "T4": "KH",
                                "R": "QH", "W": " ".join(talon[:i]),
                                "S": " ".join(reversed(talon[i:n]))},
                        {"S": n - i}, base=1, redeals=-1)
            keys.setdefault(g.solver_key(), set()).add(_waste_sizes(g))
        assert all(len(v) == 1 for v in keys.values()), n
        assert len(keys) == len({s for v in keys.values() for s in v}), n


def test_solver_key_folds_every_waste_size_in_the_pruned_pass_only():
    """The pruned pass may fold more (it only looks for wins), with a mark of its own, so
    that no key of the complete pass is ever taken for one made while pruning."""
    g = arrange(new(), {"F1": "AH", "T1": "AS", "T2": "AD", "T3": "AC", "T4": "KH", "R": "QH",
                        "W": "2C 3C 4C 5C 6C", "S": "9C 8C 7C"}, {"S": 3}, base=1, redeals=-1)
    exact = g.solver_key()
    g.solver_moves(prune=True)
    folded = g.solver_key()
    g.solver_moves(prune=False)
    assert g.solver_key() == exact != folded
    assert exact[-1] == 5 and folded[-1] == 254  # a waste of 5 of 8: outside the cycle
