"""Golf's search hooks (games/search/golf.py) against a plain search, with both rule settings:
the dead-end test must never fire on a position that can still be won, and the solver's
verdict must equal an exhaustive search's on small positions."""

from __future__ import annotations

import random

import pytest

import games
from games import solver
from games.engine.cards import text
from games.search import searchable
from tests.conftest import arrange

from .test_solver import exhaustive_win


def small_position(rnd: random.Random, queen_on_king: bool) -> games.Game:
    """A random position of a few short columns, a short stock and a discard card, drawn
    from a narrow band of ranks so that chains, gaps and kings all come up often."""
    low = rnd.choice((1, 6, 9))
    pool = [c for c in range(52) if low <= c % 13 + 1 <= low + 4]
    rnd.shuffle(pool)
    piles = {"W": text(pool.pop())}
    for name in ("T1", "T2", "T3", "T4"):
        piles[name] = " ".join(text(pool.pop()) for _ in range(rnd.randint(0, 3)))
    piles["S"] = " ".join(text(pool.pop()) for _ in range(rnd.randint(0, 3)))
    g = searchable(games.new("golf", 1, queen_on_king=queen_on_king))
    return arrange(g, piles, {"S": len(piles["S"].split())})


def hopeless_along_every_line(g: games.Game, depth: int = 30) -> bool:
    """Whether the dead-end test says True on some position reached from ``g`` that can
    still be won (a plain search decides "can still be won")."""
    if not g.won and g.solver_hopeless() and exhaustive_win(g):
        return True
    if depth == 0:
        return False
    for m in g.legal_moves():
        g.make(m)
        bad = hopeless_along_every_line(g, depth - 1)
        g.unmake()
        if bad:
            return True
    return False


@pytest.mark.parametrize("queen_on_king", [False, True])
def test_verdicts_equal_a_plain_search_on_small_positions(queen_on_king):
    rnd = random.Random(17)
    outcomes = set()
    for _ in range(150):
        g = small_position(rnd, queen_on_king)
        plain = exhaustive_win(g)
        sol = solver.solve(g, max_nodes=200_000)
        assert sol.result == (solver.WON if plain else solver.LOST), g.to_dict()
        if sol.won:
            assert solver.replay_wins(g, sol.moves)
        outcomes.add(plain)
    assert outcomes == {True, False}


@pytest.mark.parametrize("queen_on_king", [False, True])
def test_dead_end_test_never_fires_on_a_winnable_position_reached_in_play(queen_on_king):
    rnd = random.Random(5)
    for _ in range(60):
        g = small_position(rnd, queen_on_king)
        assert not hopeless_along_every_line(g), g.to_dict()


def test_queen_on_king_dead_ends_are_found():
    """With a queen allowed on a king, a king is an ordinary rank: a 7 whose 6s and 8s are
    gone, or lie under it in its own column, can never be played."""
    for piles in ({"T1": "7C", "T2": "KD", "W": "QH"},
                  {"T1": "8S 7C", "T2": "KD", "W": "QH"}):
        g = arrange(searchable(games.new("golf", 1, queen_on_king=True)), piles)
        assert not exhaustive_win(g)
        assert g.solver_hopeless()


def test_queen_on_king_lets_a_king_lead_on_to_a_queen():
    # KD then QS then JC: only with the option can the king go on
    piles = {"T1": "JC QS", "T2": "KD", "W": "QH"}
    g = arrange(searchable(games.new("golf", 1, queen_on_king=True)), piles)
    assert exhaustive_win(g) and not g.solver_hopeless()
    plain = arrange(searchable(games.new("golf", 1)), piles)
    assert not exhaustive_win(plain) and plain.solver_hopeless()


def generic_and_own(g: games.Game, monkeypatch, **kw) -> tuple[solver.Solution, solver.Solution]:
    """The solver's answer on ``g`` with Golf's own search and with the generic one."""
    from games.search.base import Search
    from games.search.golf import GolfSearch

    own = solver.solve(g, **kw)
    with monkeypatch.context() as m:
        m.setattr(GolfSearch, "solver_dfs", Search.solver_dfs)
        generic = solver.solve(g, **kw)
    return own, generic


@pytest.mark.parametrize("options", [{}, {"queen_on_king": True}, {"turn_only_when_stuck": True}])
def test_own_search_is_the_generic_search_node_for_node(options, monkeypatch):
    """Golf's own depth-first search (solver_dfs) visits what the generic one visits, in
    the same order: same verdict, nodes, positions and winning line, on deals and on small
    positions, and it stops on the same budget."""
    rnd = random.Random(11)
    positions = [games.new("golf", seed, **options) for seed in range(1, 5)]
    for _ in range(40):
        g = small_position(rnd, options.get("queen_on_king", False))
        g.opts.update(options)
        positions.append(g)
    for g in positions:
        own, generic = generic_and_own(g, monkeypatch, max_nodes=10**7)
        assert (own.result, own.nodes, own.positions) == (
            generic.result, generic.nodes, generic.positions), g.to_dict()
        assert own.moves == generic.moves
        if own.won:
            assert solver.replay_wins(g, own.moves)
    for seed, budget in ((8, 1000), (492926, 1000), (763641, 10_000)):
        own, generic = generic_and_own(games.new("golf", seed, **options), monkeypatch,
                                       max_nodes=budget)
        assert (own.result, own.nodes, own.positions) == (
            generic.result, generic.nodes, generic.positions), (seed, budget)
    own, generic = generic_and_own(games.new("golf", 8, **options), monkeypatch, max_nodes=1000)
    assert own.result == solver.UNKNOWN or options.get("turn_only_when_stuck")
