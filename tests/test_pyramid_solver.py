"""The Pyramid solver hooks against a plain search, on small random positions.

The hooks (compound talon moves, the rank key, the cut of a position met before with fewer
passes used, the pairing test, the safe removals) may only speed the search up: on every
position the solver must answer what a search of the plain legal moves answers."""

from __future__ import annotations

import random

import pytest

import games
from games import solver
from games.engine.cards import KING, RANK, text
from games.families.grid import triangle_covers
from games.pyramid import ROWS
from games.search import searchable

from .conftest import arrange
from .conftest import plain_search as search_all


def plain_wins(g: games.Game) -> bool:
    """Exhaustive search over the legal moves, by full position key: no hook at all."""
    return search_all(g) == "won"


def random_position(gid: str, rnd: random.Random) -> games.Game:
    """A position play can reach: a few pyramid cards near the apex (a place is empty only
    if the places lying on it are), a short talon, any pass, the rescue used or not (its apex
    paired already or waiting in the talon), and the cards out of play gone in pairs (and
    kings alone) as the rules take them."""
    g = searchable(games.new(gid, 1))
    cov = triangle_covers(ROWS)
    keep = {0}
    for start in rnd.sample(range(1, 15), rnd.randint(1, 3)):
        keep.add(start)
    changed = True
    while changed:  # a kept card keeps the cards it lies on
        changed = False
        for i, c in enumerate(cov):
            if i not in keep and any(j in keep for j in c):
                keep.add(i)
                changed = True
    rescued = rnd.random() < 0.3
    if rescued:
        keep.discard(0)
    n_stock, n_waste, n_current = rnd.randint(0, 7), rnd.randint(0, 4), rnd.randint(0, 1)
    left = list(range(52))
    while len(left) > len(keep) + n_stock + n_waste + n_current:
        c = rnd.choice(left)
        if g.SINGLE_KINGS and RANK[c] == KING:
            left.remove(c)
        elif len(left) - 2 >= len(keep):
            left.remove(c)
            left.remove(rnd.choice([d for d in left if RANK[d] == g.PARTNER[RANK[c]]]))
        else:
            break
    talon = len(left) - len(keep)  # one less than asked when a pair went last
    n_current = min(n_current, talon)
    n_waste = min(n_waste, talon - n_current)
    n_stock = talon - n_current - n_waste
    rnd.shuffle(left)
    piles: dict[str, str] = {}
    down: dict[str, int] = {}
    for i in sorted(keep):
        piles[f"T{i + 1}"] = text(left.pop())
        if cov[i] and any(j in keep for j in cov[i]):
            down[f"T{i + 1}"] = 1
    piles["S"] = " ".join(text(left.pop()) for _ in range(n_stock))
    down["S"] = n_stock
    piles["W"] = " ".join(text(left.pop()) for _ in range(n_waste))
    piles["C"] = " ".join(text(left.pop()) for _ in range(n_current))
    g = arrange(g, piles, down, **{"pass": rnd.randint(1, 3), "rescued": rescued})
    talon = [c for p in (g.stock, g.current, g.waste) for c in g.cards[p]]
    if rescued and talon and rnd.random() < 0.6:  # the rescued apex still waits for a partner
        g.vars["apex"] = rnd.choice(talon)
    return g


@pytest.mark.parametrize("gid", ["pyramid", "pyramid_pairs"])
def test_solver_agrees_with_a_plain_search(gid):
    rnd = random.Random(13)
    tally = {"won": 0, "lost": 0}
    for _ in range(400):
        g = random_position(gid, rnd)
        if g.won:
            continue
        expected = plain_wins(g)
        sol = solver.solve(g, max_nodes=10**7)
        assert sol.result == ("won" if expected else "lost"), g.cards
        if expected:
            assert solver.replay_wins(g, sol.moves)
        tally[sol.result] += 1
    assert tally["won"] > 40 and tally["lost"] > 40, tally


def test_a_deal_keeps_its_answer_with_the_hooks():
    """Whole deals: the solver's answers on a few deals the benchmark decides fast."""
    for gid, seed, result in (("pyramid", 492926, "won"), ("pyramid", 763641, "lost"),
                              ("pyramid_pairs", 606447, "won"),
                              ("pyramid_pairs", 430010, "lost")):
        g = games.new(gid, seed)
        sol = solver.solve(g, max_nodes=2_000_000)
        assert sol.result == result, (gid, seed)
        if result == "won":
            assert solver.replay_wins(g, sol.moves)


def test_a_position_met_with_more_passes_left_cuts_the_one_with_fewer():
    g = searchable(games.new("pyramid", 7)).clone()
    assert not g._dominated()  # first met, in pass 1
    g.vars["pass"] = 2
    assert g._dominated()  # the same cards with a pass fewer left: searched already
    h = searchable(games.new("pyramid", 7)).clone()
    h.vars["pass"] = 3
    assert not h._dominated()
    h.vars["pass"] = 1
    assert not h._dominated()  # more passes left than when first met: searched again
    h.vars["pass"] = 2
    assert h._dominated()
