"""Canfield's own search (``CanfieldSearch.solver_dfs``, whole-pile moves) against the
generic search and a plain search of the legal moves.

The own search must decide exactly what the generic one decides: on small random
positions (where a plain search of every legal move, with no hook at all, is exhaustive)
the verdicts agree and every win replays; on whole deals, under a node budget, it visits
the same nodes in the same order."""

from __future__ import annotations

import random

import pytest

import games
from games import solver
from games.cards import parse, text
from games.search import searchable
from games.search.base import Search
from games.search.canfield import CanfieldSearch

from ..conftest import arrange, plain_search
from .test_klondike_canfield_search import folded_key, forward_moves

#: positions the plain search may meet; bigger cases are only compared with the generic
LIMIT = 20_000


def random_canfield(rnd: random.Random, left: int) -> games.Game:
    """Canfield with whole-pile moves from a random base rank, ``left`` cards out of the
    foundations: up to eight in the reserve (under a lower card of their suit, often: the
    positions that are lost), the rest in runs in the columns, the waste and the stock."""
    g = searchable(games.new("canfield", 1, group_moves="whole_pile"))
    base = rnd.randint(1, 13)
    lengths = [13, 13, 13, 13]
    for _ in range(left):
        lengths[rnd.choice([k for k in range(4) if lengths[k]])] -= 1
    piles: dict[str, str] = {}
    out = []
    for suit, n in enumerate(lengths):
        run = [13 * suit + (base - 1 + k) % 13 for k in range(13)]
        if n:
            piles[f"F{suit + 1}"] = " ".join(text(c) for c in run[:n])
        out += run[n:]
    rnd.shuffle(out)
    n_reserve = rnd.randint(0, min(8, len(out)))
    reserve, out = out[:n_reserve], out[n_reserve:]
    if rnd.random() < 0.5:  # the lower cards under the higher: often lost
        reserve.sort(key=lambda c: (c % 13 - base + 1) % 13)
    build = g.rule[g.tableau[0]].build
    cols: list[list[int]] = [[] for _ in range(4)]
    talon = []
    for c in out:
        k = rnd.randrange(5)
        if k < 4 and (not cols[k] or build.fits(c, cols[k][-1])):
            cols[k].append(c)
        else:
            talon.append(c)
    for col in cols:
        if not col and reserve:
            col.append(reserve.pop())
    split = rnd.randint(0, len(talon))
    piles["W"] = " ".join(text(c) for c in talon[:split])
    piles["S"] = " ".join(text(c) for c in talon[split:])
    piles["R"] = " ".join(text(c) for c in reserve)
    for i, col in enumerate(cols):
        piles[f"T{i + 1}"] = " ".join(text(c) for c in col)
    down = {"S": len(talon) - split, "R": max(0, len(reserve) - 1)}
    assert all(parse(t) >= 0 for t in piles["R"].split())
    return arrange(g, piles, down, base=base, redeals=-1)


@pytest.fixture
def generic(monkeypatch):
    """A switch to the solver's generic search for Canfield."""
    def use() -> None:
        monkeypatch.setattr(CanfieldSearch, "solver_dfs", Search.solver_dfs)
    return use


def test_own_search_agrees_with_the_generic_and_a_plain_search(generic):
    rnd = random.Random(1717)
    cases = [g for g in (random_canfield(rnd, rnd.randint(4, 20)) for _ in range(80))
             if not g.won]
    own = [solver.solve(g, max_nodes=10**7) for g in cases]
    plain = [plain_search(g, limit=LIMIT, key=folded_key, children=forward_moves)
             for g in cases]
    generic()
    other = [solver.solve(g, max_nodes=10**7) for g in cases]
    tally = {"won": 0, "lost": 0, "plain": 0}
    for g, a, b, p in zip(cases, own, other, plain, strict=True):
        assert a.result == b.result, (g.cards, g.vars)
        assert a.result in ("won", "lost")
        if a.won:
            assert solver.replay_wins(g, a.moves)
        if p is not None:
            assert p == a.result, (g.cards, g.vars)
            tally["plain"] += 1
        tally[a.result] += 1
    assert tally["won"] >= 20 and tally["lost"] >= 1 and tally["plain"] >= 40, tally


@pytest.mark.parametrize("prune", [True, False])
def test_own_search_visits_the_generic_nodes_on_deals(generic, prune):
    """Node-limited searches of whole deals: the same verdict, nodes and winning line (the
    own search leaves out only the base card's moves to a second empty foundation, which
    the generic search meets as transpositions; these deals never offer one)."""
    seeds = [1, 2, 4, 5, 6, 3]
    budget = 20_000
    own = []
    for seed in seeds:
        g = games.new("canfield", seed, group_moves="whole_pile")
        own.append(solver.solve(g, max_nodes=budget, prune=prune))
    generic()
    for seed, a in zip(seeds, own, strict=True):
        g = games.new("canfield", seed, group_moves="whole_pile")
        b = solver.solve(g, max_nodes=budget, prune=prune)
        assert (a.result, a.nodes, a.moves) == (b.result, b.nodes, b.moves), seed
        if a.won:
            assert solver.replay_wins(g, a.moves)
