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
from games.search.klondike import (
    _C_COL,
    _C_HOME,
    _F_COL,
    _T_COL,
    _UNDER,
    KlondikeSearch,
    _KlondikeDFS,
)
from games.search.outcome import Budget

from ..conftest import arrange, plain_search
from .positions import foundations, home_counts, split_talon
from .test_klondike_canfield_search import folded_key, forward_moves

LIMIT = 3_000


def random_position(rnd: random.Random, draw: int, left: int,
                    hidden: bool = False, talon: int = 7) -> games.Game:
    """Each suit home up to a random rank, ``left`` cards out: some in the talon (split at
    random between waste and stock), the rest on the columns with random face-down counts
    (a column's face-up cards need not be in sequence, so runs of every length occur);
    ``hidden``: all but the top card of a column face down and a short talon (losses are
    then common)."""
    g = searchable(games.new("klondike", 1, draw=draw, redeals=-1))
    piles, out = foundations(home_counts(rnd, 5, left))
    rnd.shuffle(out)
    down: dict[str, int] = {}
    n_talon = rnd.randint(0, min(len(out), 3 if hidden and talon == 7 else talon))
    split_talon(rnd, out[:n_talon], piles, down)
    rest = out[n_talon:]
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


class _Recording(_KlondikeDFS):
    """The own search, recording every pair of moves it makes in a row."""

    def dfs(self, *args):
        if len(self.path) >= 2:
            self.pairs.append((self.path[-2], self.path[-1], self.cols[:]))
        return super().dfs(*args)


def _record(game: games.Game, prune: bool, nodes: int) -> list[tuple]:
    search = _Recording(searchable(game), prune, Budget(nodes, None))
    search.pairs = []
    search.run()
    return search.pairs


def _builds_on(move: tuple, card: int, cols: list[tuple]) -> bool:
    """Whether ``move``, which led to the columns ``cols``, put a card on ``card``."""
    if move[0] not in (_C_COL, _T_COL, _F_COL):
        return False
    col = cols[move[-1]]
    if card not in col[1:]:
        return False
    i = col.index(card, 1)
    return i < len(col) - 1 and col[i + 1] in _UNDER[card]


@pytest.mark.parametrize("seed", [6, 22])
def test_a_talon_card_put_on_a_column_with_draw_one_is_built_on_at_once(seed):
    """With draw 1 the whole talon is always within reach, so a talon card played to a
    column is only searched with a card built on it next (``_KlondikeDFS.onto_fresh``); on
    the old search most such plays were followed by other moves."""
    g = games.new("klondike", seed, draw=1, redeals=-1)
    checked = 0
    for prune in (True, False):
        for first, second, cols in _record(g, prune, 20_000):
            if first[0] == _T_COL:
                checked += 1
                assert _builds_on(second, first[2], cols), (first, second)
    assert checked > 100


@pytest.mark.parametrize("draw", [1, 3])
def test_a_card_back_from_a_foundation_is_built_on_or_followed_by_another(draw):
    """The complete pass brings a foundation card back only to build on it: the next move
    builds on it or brings another foundation card back (``_KlondikeDFS.onto_back``)."""
    g = games.new("klondike", 6, draw=draw, redeals=-1)
    checked = 0
    for first, second, cols in _record(g, False, 60_000):
        # the card straight home again is the safe move (a two, say), which comes first
        if first[0] == _F_COL:
            checked += 1
            assert (_builds_on(second, first[2], cols) or second[0] == _F_COL
                    or second[0] == _C_HOME and second[2] == len(cols[first[3]])), (first, second)
    assert checked > 20


@pytest.mark.parametrize("draw", [1, 3])
@pytest.mark.parametrize(("left", "talon", "hidden", "losses"), [(14, 12, False, 0),
                                                               (20, 5, True, 1)])
def test_own_search_agrees_with_the_generic_search_on_bigger_positions(draw, left, talon,
                                                                     hidden, losses):
    """Positions with up to 12 talon cards, or 20 cards out with the columns face down,
    where the talon and foundation rules of the own search are at work: the verdict of the
    generic search (which has neither rule), lines that replay."""
    rnd = random.Random(77 + draw + left)
    tally = {"won": 0, "lost": 0, "unknown": 0}
    for _ in range(30):
        g = random_position(rnd, draw, left, hidden=hidden, talon=talon)
        if g.won:
            continue
        ref = generic(g, 200_000)
        tally[ref.result] += 1
        if ref.result == "unknown":
            continue
        for prune in (True, False):
            sol = solver.solve(g, max_nodes=10**7, prune=prune)
            assert sol.result == ref.result, (prune, g.cards, g.down)
            if sol.won:
                assert solver.replay_wins(g, sol.moves)
    assert tally["won"] >= 8 and tally["lost"] >= losses, tally
