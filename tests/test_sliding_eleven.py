"""Eleven-card sliding puzzle (000 #27)."""

from __future__ import annotations

import random

import games
import games.solver
from games.engine.cards import RANK, SUIT
from games.search import searchable

from .conftest import arrange, refused

GOAL = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS".split()


def ranks(g: games.Game) -> list[int]:
    """Ranks in reading order, the empty place skipped."""
    return [RANK[g.pile(f"G{i}")[0]] for i in range(1, 13) if g.pile(f"G{i}")]


def parity(order: list[int]) -> int:
    """Permutation parity by counting the cycles (independent of the game's own check)."""
    seen, cycles = set(), 0
    for start in range(len(order)):
        if start not in seen:
            cycles += 1
            k = start
            while k not in seen:
                seen.add(k)
                k = order[k] - 1
    return (len(order) - cycles) % 2


def test_deal_shape():
    g = games.new("sliding_eleven", 5)
    assert all(len(g.pile(f"G{i}")) == 1 for i in range(1, 12)) and g.pile("G12") == []
    assert sorted(ranks(g)) == list(range(1, 12))
    assert {SUIT[g.pile(f"G{i}")[0]] for i in range(1, 12)} == {3}
    assert not any(g.down) and len(g.layout) == 12
    assert max(p.y for p in g.layout) + 1.4 <= 6.5
    g = games.new("sliding_eleven", 5, suit="H")
    assert {SUIT[g.pile(f"G{i}")[0]] for i in range(1, 12)} == {2}


def test_every_deal_is_solvable():
    orders = set()
    for seed in range(1, 401):
        order = ranks(games.new("sliding_eleven", seed))
        assert parity(order) == 0, seed
        orders.add(tuple(order))
    assert len(orders) == 400


def test_slides_keep_the_parity_so_odd_deals_could_never_be_solved():
    g = games.new("sliding_eleven", 1)
    rnd = random.Random(4)
    checked = 0
    for _ in range(400):
        g.play(rnd.choice(g.legal_moves()))
        if not g.pile("G12"):  # the empty place is back home
            assert parity(ranks(g)) == 0
            checked += 1
    assert checked > 5


def test_slides_into_the_empty_place_only():
    g = games.new("sliding_eleven", 2)
    assert sorted(g.notation(m) for m in g.legal_moves()) == ["slide:G11,G12", "slide:G8,G12"]
    refused(g, "slide:G7,G12", "not diagonally")
    refused(g, "slide:G1,G2", "only slide into the empty place")
    refused(g, "G8>G12", "Tap the card")
    card = g.pile("G8")[0]
    g.play("slide:G8,G12")
    assert g.pile("G12") == [card] and g.pile("G8") == []
    assert len(g.legal_moves()) == 3
    refused(g, "slide:G8,G4", "no card there")


def test_score_is_the_number_of_slides():
    g = games.new("sliding_eleven", 3)
    for m in ("slide:G8,G12", "slide:G7,G8", "slide:G8,G7"):
        g.play(m)
    assert g.score == 3
    g.undo()
    assert g.score == 2


def test_solver_hooks():
    # one slide from the goal
    near = {f"G{i + 1}": c for i, c in enumerate(GOAL[:10])}
    near["G12"] = "JS"
    g = arrange(searchable(games.new("sliding_eleven", 1)), near)
    assert g.solvable() and g.solver_heuristic() == 1
    # two cards swapped: no sequence of slides can ever mend that
    odd = dict(near, G1="2S", G2="AS")
    assert not arrange(searchable(games.new("sliding_eleven", 1)), odd).solvable()
    # the heuristic never overestimates: scramble by known slides, it stays within their count
    g = searchable(games.new("sliding_eleven", 1))
    goal = {f"G{i + 1}": c for i, c in enumerate(GOAL)}
    g = arrange(g, goal)
    assert g.solver_heuristic() == 0
    for m in ("slide:G8,G12", "slide:G7,G8", "slide:G3,G7", "slide:G4,G3", "slide:G8,G4",
              "slide:G7,G8", "slide:G11,G7", "slide:G10,G11"):
        g.play(m)
        assert g.solvable() and g.solver_heuristic() <= len(g.history)
    assert games.solver.solve(g, max_nodes=20000).won
    assert all(searchable(games.new("sliding_eleven", s)).solvable() for s in range(1, 30))
