"""Bagua (004): the square grows from the Taiji; edge cards are removed in pairs."""

from __future__ import annotations

import games
from games import Move
from games.engine import cards as C
from games.engine.rng import Rng
from games.search import searchable

from .conftest import all_cards, arrange, refused

#: every cell, in reading order: 7×7 square plus (0,-4), (0,4) and (-4,0)
CELLS = sorted([(x, y) for x in range(-3, 4) for y in range(-3, 4)] + [(0, -4), (0, 4), (-4, 0)],
               key=lambda p: (p[1], p[0]))
PILE = {p: f"G{i + 1}" for i, p in enumerate(CELLS)}
CENTRE = PILE[(0, 0)]


def block(**cards: str) -> dict[str, str]:
    """The 3×3 nine palaces around the Taiji (8♦, so B = 8) with the given changes."""
    base = {(0, 0): "8D", (0, -1): "AC", (0, 1): "7H", (-1, 0): "9S", (1, 0): "QH",
            (-1, -1): "2C", (1, -1): "3C", (-1, 1): "4C", (1, 1): "5C"}
    piles = {PILE[p]: c for p, c in base.items()}
    piles.update(cards)
    return {k: v for k, v in piles.items() if v}


def pair(g: games.Game, a: tuple[int, int], b: tuple[int, int]) -> str:
    return f"remove:{PILE[a]},{PILE[b]}"


def test_deal_grows_from_the_taiji_in_the_source_order():
    g = games.new("bagua", 12)
    deck = list(range(52))
    Rng(12).shuffle(deck)
    first = [(0, 0), (0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)]
    for k, p in enumerate(first):
        assert g.pile(PILE[p]) == [deck[k]]
    # rings 2 and 3 run clockwise from their top middle: rightwards first
    assert g.pile(PILE[(0, -2)]) == [deck[9]] and g.pile(PILE[(1, -2)]) == [deck[10]]
    assert g.pile(PILE[(2, -1)]) == [deck[12]] and g.pile(PILE[(-1, -2)]) == [deck[24]]
    assert g.pile(PILE[(0, -3)]) == [deck[25]] and g.pile(PILE[(-1, -3)]) == [deck[48]]
    assert [g.pile(PILE[p]) for p in ((0, -4), (0, 4), (-4, 0))] == [[deck[49]], [deck[50]],
                                                                   [deck[51]]]
    assert g.vars["base"] == C.RANK[deck[0]] and g.pile("D") == []
    assert not any(g.down) and g.score == 0


def test_layout_is_a_grid_that_fits_the_screen():
    g = games.new("bagua", 1)
    assert [p.role for p in g.layout] == ["grid"] * 52 + ["discard"]
    assert [p.id for p in g.layout[:52]] == [f"G{i}" for i in range(1, 53)]
    assert all(p.x + 1 <= 10.5 and p.y + 1.4 <= 6.5 for p in g.layout)
    spec = {p.id: p for p in g.layout}
    for (x, y), pid in PILE.items():  # rows keep their order; each card's corner stays in sight
        right, below = PILE.get((x + 1, y)), PILE.get((x, y + 1))
        if right:
            assert spec[right].x - spec[pid].x >= 1 and spec[right].y == spec[pid].y
        if below:
            assert 0.5 <= spec[below].y - spec[pid].y < 1.4


def test_edge_cards_at_the_start():
    g = games.new("bagua", 3)
    ring3 = {PILE[p] for p in CELLS if max(abs(p[0]), abs(p[1])) >= 3}
    assert {g.layout[i].id for i in g.outer()} == ring3 and len(ring3) == 27
    o = games.new("bagua", 3, outer_neighbourhood="orthogonal")
    blocked = {PILE[(0, -3)], PILE[(0, 3)], PILE[(-3, 0)]}  # covered by the three extra cards
    assert {o.layout[i].id for i in o.outer()} == ring3 - blocked


def test_pairs_add_up_to_b_or_b_plus_13():
    g = arrange(games.new("bagua", 1), block(), base=8)
    g.play(pair(g, (0, -1), (0, 1)))  # A + 7 = 8
    g.play(pair(g, (-1, 0), (1, 0)))  # 9 + Q = 21
    assert g.pile("D") == [C.parse(c) for c in ("AC", "7H", "9S", "QH")]
    refused(g, pair(g, (-1, -1), (1, -1)),
            r"2♣ and 3♣ add up to 5, but a pair must add up to 8 or 21\.")


def test_inner_cards_wait_until_a_neighbour_is_empty():
    g = arrange(games.new("bagua", 1), block(**{PILE[(3, 3)]: "KS"}), base=8)
    refused(g, pair(g, (0, 0), (3, 3)), r"8♦ has cards on all eight sides")
    g.play(pair(g, (0, -1), (0, 1)))
    g.play(pair(g, (0, 0), (3, 3)))  # the Taiji pairs with a king
    assert g.vars["base"] == 8  # B stays after the Taiji is gone
    g.play(pair(g, (-1, 0), (1, 0)))


def test_orthogonal_option_ignores_empty_corners():
    piles = block(**{PILE[(-1, -1)]: "", PILE[(3, 3)]: "KS"})
    eight = arrange(games.new("bagua", 1), piles, base=8)
    four = arrange(games.new("bagua", 1, outer_neighbourhood="orthogonal"), piles, base=8)
    assert eight.index[CENTRE] in eight.outer()
    assert four.index[CENTRE] not in four.outer()
    eight.play(pair(eight, (0, 0), (3, 3)))
    refused(four, pair(four, (0, 0), (3, 3)), "all four sides")


def test_other_refusals_say_why():
    g = arrange(games.new("bagua", 1), block(), base=8)
    centre = g.index[CENTRE]
    assert str(g.why_illegal(Move("remove", centre, centre))) == "Choose two different cards."
    assert str(g.why_illegal(Move("remove", centre, g.index[PILE[(2, 2)]]))) == \
        "There is no card there any more."
    assert str(g.why_illegal(Move("move", 0, 1))).endswith("add up to 8 or 21.")
    assert str(g.why_illegal(Move("remove", centre, g.index["D"]))) == "Choose two cards in the square."


def test_either_card_may_be_named_first():
    g = arrange(games.new("bagua", 1), block(), base=8)
    a, b = g.index[PILE[(0, -1)]], g.index[PILE[(0, 1)]]
    assert g.parse_move(f"remove:{PILE[(0, 1)]},{PILE[(0, -1)]}") == Move("remove", a, b)
    assert g.notation(Move("remove", a, b)) == f"remove:{PILE[(0, -1)]},{PILE[(0, 1)]}"
    assert g.why_illegal(Move("remove", b, a)) is None
    g.play(Move("remove", b, a))
    assert len(g.pile("D")) == 2


def test_lost_when_no_pair_is_left():
    g = arrange(games.new("bagua", 1), {CENTRE: "8D", "G1": "QS"}, base=8)
    assert g.legal_moves() == [] and g.over and not g.won


def test_win_and_undo_redo_to_the_exact_key():
    full = games.new("bagua", 1)
    rest = [C.text(c) for c in all_cards(full) if c not in (C.parse("8D"), C.parse("KS"))]
    g = arrange(games.new("bagua", 1), {CENTRE: "8D", "G52": "KS", "D": " ".join(rest)}, base=8)
    start, table = g.key(), g.table()
    assert g.score == 50 and not g.won
    g.play(f"remove:{CENTRE},G52")
    assert g.won and g.over and g.score == 52 and all_cards(g) == all_cards(full)
    g.undo()
    assert g.key() == start and g.table() == table
    g.redo()
    assert g.won


def test_solver_key_ignores_the_order_of_removals():
    g = arrange(searchable(games.new("bagua", 1)), block(), base=8)
    g.play(pair(g, (0, -1), (0, 1)))
    g.play(pair(g, (-1, 0), (1, 0)))
    h = arrange(searchable(games.new("bagua", 1)), block(), base=8)
    h.play(pair(h, (-1, 0), (1, 0)))
    h.play(pair(h, (0, -1), (0, 1)))
    assert g.key() != h.key() and g.solver_key() == h.solver_key()
