"""Klondike's own search (``KlondikeSearch.solver_dfs``, unlimited passes) against a plain
search of every legal move, and against the solver's generic search.

The own search must decide what a search of the rules' moves decides. The plain search
here makes every legal move (single turns and redeals) but foundation cards brought back
(with them it meets tens of thousands of positions even with four cards out: every king
home can come back to a space, and so on down), on the exact position (only the order of
the columns folded): where it wins, the own search must win, and a line the own search
finds must replay. The other direction (the own search says lost only where no line wins,
foundation cards coming back included) is checked against the generic search, which makes
the same kinds of moves through the engine: their verdicts must be equal. Cases the plain
search cannot finish within ``LIMIT`` positions are skipped (and counted, so the test
fails if too few cases are left)."""

from __future__ import annotations

import random

import pytest

import games
from games import solver
from games.engine.cards import text
from games.search import searchable
from games.search.klondike import KlondikeSearch

from ..conftest import arrange, plain_search
from .test_klondike_canfield_search import folded_key, forward_moves

LIMIT = 3_000


def random_position(rnd: random.Random, draw: int, left: int,
                    hidden: bool = False) -> games.Game:
    """Each suit home up to a random rank, ``left`` cards out: some in the talon (split at
    random between waste and stock), the rest on the columns with random face-down counts
    (a column's face-up cards need not be in sequence, so runs of every length occur);
    ``hidden``: all but the top card of a column face down and a short talon (losses are
    then common)."""
    g = searchable(games.new("klondike", 1, draw=draw, redeals=-1))
    highs = [rnd.randint(5, 13) for _ in range(4)]
    while sum(13 - h for h in highs) > left:
        highs[rnd.choice([k for k in range(4) if highs[k] < 13])] += 1
    piles: dict[str, str] = {}
    out = []
    for suit, high in enumerate(highs):
        piles[f"F{suit + 1}"] = " ".join(text(13 * suit + r) for r in range(high))
        out += [13 * suit + r for r in range(high, 13)]
    rnd.shuffle(out)
    down: dict[str, int] = {}
    n_talon = rnd.randint(0, min(len(out), 3 if hidden else 7))
    talon, rest = out[:n_talon], out[n_talon:]
    split = rnd.randint(0, n_talon)
    piles["W"] = " ".join(text(c) for c in talon[:split])
    piles["S"] = " ".join(text(c) for c in talon[split:])
    down["S"] = n_talon - split
    cols: list[list[int]] = [[] for _ in range(7)]
    for c in rest:
        cols[rnd.randrange(rnd.randint(1, 7))].append(c)
    for i, col in enumerate(cols):
        if col:
            piles[f"T{i + 1}"] = " ".join(text(c) for c in col)
            down[f"T{i + 1}"] = len(col) - 1 if hidden else rnd.randint(0, len(col) - 1)
    return arrange(g, piles, down, redeals=-1)


def generic(game: games.Game, max_nodes: int = 10**7) -> solver.Solution:
    """The solver with the generic search (the own one switched off)."""
    own = KlondikeSearch.solver_dfs
    KlondikeSearch.solver_dfs = lambda self, prune, budget: None
    try:
        return solver.solve(game, max_nodes=max_nodes)
    finally:
        KlondikeSearch.solver_dfs = own


@pytest.mark.parametrize("draw", [1, 3])
@pytest.mark.parametrize(("left", "hidden"), [(7, False), (18, True)])
def test_own_search_agrees_with_a_plain_search_of_every_move(draw, left, hidden):
    rnd = random.Random(1000 * draw + left)
    tally = {"won": 0, "lost": 0, "skipped": 0}
    for _ in range(40):
        g = random_position(rnd, draw, left, hidden)
        if g.won:
            continue
        plain = plain_search(g, limit=LIMIT, key=folded_key, children=forward_moves)
        if plain is None:
            tally["skipped"] += 1
            continue
        ref = generic(g).result
        for prune in (True, False):
            sol = solver.solve(g, max_nodes=10**7, prune=prune)
            assert sol.result == ref, (prune, g.cards, g.down)
            if plain == "won":
                assert sol.won, (prune, g.cards, g.down)
            if sol.won:
                assert solver.replay_wins(g, sol.moves)
        tally[ref] += 1
    assert tally["won"] >= 10 and tally["skipped"] <= 20, tally
    assert tally["lost"] >= (1 if hidden else 0), tally


@pytest.mark.parametrize("draw", [1, 3])
def test_own_search_and_the_generic_search_decide_deals_alike(draw):
    """Whole deals the generic search decides quickly: the same verdict, a line that
    replays."""
    decided = 0
    for seed in range(1, 6):
        g = games.new("klondike", seed, draw=draw, redeals=-1)
        ref = generic(g, 20_000)
        if ref.result == "unknown":
            continue
        own = solver.solve(g, max_nodes=10**7)
        assert own.result == ref.result, seed
        if own.won:
            assert solver.replay_wins(g, own.moves)
        decided += 1
    assert decided >= 2
