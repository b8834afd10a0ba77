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
from games.engine.cards import parse, text
from games.search import searchable
from games.search.base import Search
from games.search.canfield import CanfieldSearch

from ..conftest import arrange, plain_search
from .positions import foundations, split_talon
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
    piles, out = foundations(lengths, base)
    rnd.shuffle(out)
    n_reserve = rnd.randint(0, min(8, len(out)))
    reserve, out = out[:n_reserve], out[n_reserve:]
    if rnd.random() < 0.5:  # the lower cards under the higher: often lost
        reserve.sort(key=lambda c: (c % 13 - base + 1) % 13)
    build = g.rule[g.tableau[0]].build
    cols: list[list[int]] = [[] for _ in range(4)]
    talon = []
    long_runs = rnd.random() < 0.5  # (runs across the base rank: cards that freeze)
    for _ in range(2 if long_runs else 1):
        rest = []
        for c in out:
            ks = [k for k in range(4) if not cols[k] or build.fits(c, cols[k][-1])]
            if ks and (long_runs or rnd.random() < 0.8):
                cols[rnd.choice(ks)].append(c)
            else:
                rest.append(c)
        out = rest
    talon = out
    for col in cols:
        if not col and reserve:
            col.append(reserve.pop())
    down: dict[str, int] = {}
    split_talon(rnd, talon, piles, down)
    piles["R"] = " ".join(text(c) for c in reserve)
    for i, col in enumerate(cols):
        piles[f"T{i + 1}"] = " ".join(text(c) for c in col)
    down["R"] = max(0, len(reserve) - 1)
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
    cases = [g for g in (random_canfield(rnd, rnd.randint(8, 26)) for _ in range(150))
             if not g.won]
    own = [solver.solve(g, max_nodes=10**7) for g in cases]
    plain = [plain_search(g, limit=LIMIT, key=folded_key, children=forward_moves)
             for g in cases]
    generic()
    other = [solver.solve(g, max_nodes=10**7) for g in cases]
    tally = {"won": 0, "lost": 0, "plain": 0, "frozen": 0}
    for g, a, b, p in zip(cases, own, other, plain, strict=True):
        assert a.result == b.result, (g.cards, g.vars)
        assert a.result in ("won", "lost")
        if a.won:
            assert solver.replay_wins(g, a.moves)
        if p is not None:
            assert p == a.result, (g.cards, g.vars)
            tally["plain"] += 1
        tally[a.result] += 1
        tally["frozen"] += a.result == "lost" and a.nodes == 0  # (lost by the dead-end test)
    assert tally["won"] >= 50 and tally["lost"] >= 10 and tally["plain"] >= 100, tally
    assert tally["frozen"] >= 1, tally


@pytest.mark.parametrize("prune", [True, False])
def test_own_search_agrees_with_the_generic_on_deals(generic, prune):
    """Whole deals, won and lost, decided by both searches: the same verdicts (the own
    search adds restarts to the pruned pass and a dead-end test, so the nodes differ)."""
    seeds = [1, 2, 4, 5, 6, 12, 13, 18, 45]
    budget = 300_000
    own = []
    for seed in seeds:
        g = games.new("canfield", seed, group_moves="whole_pile")
        own.append(solver.solve(g, max_nodes=budget, prune=prune))
    generic()
    for seed, a in zip(seeds, own, strict=True):
        g = games.new("canfield", seed, group_moves="whole_pile")
        b = solver.solve(g, max_nodes=budget, prune=prune)
        assert a.result == b.result != "unknown", seed
        if a.won:
            assert solver.replay_wins(g, a.moves)


def test_waste_card_is_not_sent_home_unasked(generic):
    """The counterexample to the safe move from the waste (turning three): with base king,
    sending 4C home from the waste when the red threes were home changed which cards the
    turns reach, and this won position was called lost by both searches."""
    g = searchable(games.new("canfield", 1, group_moves="whole_pile"))
    arrange(g, {"S": "TS 9S JC QD 7S 5C 4C 4S 8S", "W": "8C TD QH 9C 8D JS 5S 6S QS",
                "F1": "KC AC 2C 3C", "F2": "KD AD 2D 3D 4D 5D 6D 7D",
                "F3": "KH AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "F4": "KS AS 2S 3S",
                "T1": "QC JH TC 9D", "T2": "6C", "T3": "7C", "T4": "JD"},
            {"S": 9}, base=13, redeals=-1)
    assert plain_search(g, limit=200_000, key=folded_key, children=forward_moves) == "won"
    for search in ("own", "generic"):
        if search == "generic":
            generic()
        for prune in (True, False):
            sol = solver.solve(g, max_nodes=10**6, prune=prune)
            assert sol.won and solver.replay_wins(g, sol.moves), (search, prune)
