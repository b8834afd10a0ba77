"""Four-Leaf Clover (001 #7)."""

from __future__ import annotations

import games
from games.engine.cards import RANK, parse, text

from .conftest import arrange, refused

GRID = """\
7H 8H 2C 4C
9C AD 2D 3D
4D 5D JS QS
KS JH QD KH"""


def clover(layout: str = GRID, stock: str = "", **options) -> games.Game:
    g = games.new("four_leaf_clover", 1, **options)
    piles = {f"G{i + 1}": c for i, c in enumerate(layout.split()) if c != "--"}
    piles["S"] = stock
    return arrange(g, piles, {"S": len(stock.split())})


def test_deal_shape_no_tens():
    g = games.new("four_leaf_clover", 2)
    assert all(len(g.pile(f"G{i}")) == 1 for i in range(1, 17))
    assert len(g.pile("S")) == 32 and g.down[g.index["S"]] == 32
    every = [c for p in g.cards for c in p]
    assert len(every) == 48 and 10 not in {RANK[c] for c in every}
    assert max(p.x for p in g.layout) + 1 <= 10.5
    assert max(p.y for p in g.layout) + 1.4 <= 6.5


def test_every_removable_set_is_listed_once():
    g = clover()
    assert sorted(g.notation(m) for m in g.legal_moves()) == sorted([
        "remove:G1,G2",             # 7♥ 8♥
        "remove:G3,G4,G5",          # 2♣ 4♣ 9♣
        "remove:G6,G7,G8,G9,G10",   # A♦ 2♦ 3♦ 4♦ 5♦
        "remove:G11,G12,G13",       # J♠ Q♠ K♠
    ])


def test_sets_of_fifteen_and_refusals():
    g = clover(stock="6S 5S 5H 6H 7C")
    refused(g, "remove:G2,G5", "same suit")  # 8♥ 9♣
    refused(g, "remove:G6,G9,G10", "add up to 10, not 15")
    refused(g, "remove:G5", "at least two cards")
    refused(g, "remove:G11,G12", "only as a jack, a queen and a king")
    refused(g, "remove:G11,G15,G16", "same suit")  # J♠ Q♦ K♥
    refused(g, "G1>G2", "not moved")
    g.play("remove:G5,G4,G3")
    # refilled from the stock top in reading order
    assert [text(g.pile(f"G{i}")[0]) for i in (3, 4, 5)] == ["7C", "6H", "5H"]
    assert [text(c) for c in g.pile("D")] == ["2C", "4C", "9C"]
    assert g.score == 18  # cards left: 16 on the table, 2 in the stock


def test_jack_queen_king_of_any_suit_option():
    g = clover(jqk_same_suit=False)
    faces = {g.notation(m) for m in g.legal_moves() if len(m.extra) == 1 and
             RANK[g.cards[m.src][0]] > 10}
    # jacks G11, G14; queens G12, G15; kings G13, G16
    assert faces == {f"remove:{','.join(sorted(t, key=lambda p: int(p[1:])))}"
                     for t in [(j, q, k) for j in ("G11", "G14") for q in ("G12", "G15")
                               for k in ("G13", "G16")]}
    g.play("remove:G14,G15,G13")


def test_places_stay_empty_once_the_stock_is_out_and_win():
    g = clover("7H 8H -- --\n-- -- -- --\n-- -- -- --\n-- -- -- --")
    deck = [c for c in range(52) if RANK[c] != 10 and text(c) not in ("7H", "8H")]
    g.cards[g.index["D"]] = deck
    start = g.key()
    assert not g.won and g.score == 2
    g.play("remove:G1,G2")
    assert g.won and g.over and g.score == 0 and g.pile("G1") == []
    g.undo()
    assert g.key() == start and g.pile("G1") == [parse("7H")]
    g.redo()
    assert g.won


def test_stuck_is_over():
    g = clover("7H 9H -- --\n-- -- -- --\n-- -- -- --\n-- -- JS QD", stock="KC")
    assert g.legal_moves() == [] and g.over and not g.won
