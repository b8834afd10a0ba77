"""Aces Up solver hooks checked against a plain exhaustive search.

Every rule the search of ``games/aces_up.py`` relies on (safe discards, the exact endgame,
the dead-end test, the sorted key) must keep ``lost`` a proof. These tests compare its
complete pass with a search that knows nothing but the legal moves, on many random small
positions (few cards left, so the plain search is exhaustive in milliseconds).
"""

from __future__ import annotations

import random

import pytest

import games
from games import solver
from games.engine.cards import parse
from games.search import searchable
from games.search.aces_up import ACES, endgame_wins

from .conftest import arrange
from .conftest import plain_search as search_all


def plain_wins(g: games.Game) -> bool:
    """Exhaustive search over the legal moves, by full position key: no hook at all."""
    return search_all(g) == "won"


def random_position(rnd: random.Random, live: int, stock_deals: int,
                    **options: bool) -> games.Game:
    """The four aces and ``live - 4`` other cards: ``4 * stock_deals`` of them in the stock,
    the rest spread over the piles (some piles may be empty); every other card discarded."""
    g = searchable(games.new("aces_up", 1, **options))
    others = [c for c in range(52) if c not in ACES]
    chosen = sorted(ACES) + rnd.sample(others, live - 4)
    rnd.shuffle(chosen)
    n_stock = min(4 * stock_deals, len(chosen))
    n_stock -= n_stock % 4
    stock, table = chosen[:n_stock], chosen[n_stock:]
    piles: list[list[int]] = [[], [], [], []]
    for c in table:
        piles[rnd.randrange(4)].append(c)
    g.cards[g.stock] = stock
    g.down[g.stock] = len(stock)
    for t, p in zip(g.tableau, piles, strict=True):
        g.cards[t] = p
        g.down[t] = 0
    g.cards[g.discard] = [c for c in range(52) if c not in set(chosen)]
    g.down[g.discard] = 0
    g.history.clear()
    g._journal.clear()
    return g


def check(g: games.Game) -> bool:
    """The complete pass (every hook) agrees with the plain search; returns the verdict."""
    truth = plain_wins(g.clone())
    sol = solver.solve(g, prune=False)
    assert sol.result == ("won" if truth else "lost"), (truth, g.key())
    if truth:
        assert solver.replay_wins(g, sol.moves)
    if g.solver_hopeless():
        assert not truth, g.key()
    return truth


@pytest.mark.parametrize("stock_deals", [0, 1, 2])
def test_complete_pass_agrees_with_plain_search(stock_deals):
    rnd = random.Random(1000 + stock_deals)
    verdicts = {True: 0, False: 0}
    for _ in range(150):
        live = rnd.randrange(8, 15)
        verdicts[check(random_position(rnd, live, stock_deals))] += 1
    assert verdicts[True] and verdicts[False]  # both kinds of position were met


def test_complete_pass_agrees_when_dealing_only_when_stuck():
    rnd = random.Random(7)
    for _ in range(100):
        check(random_position(rnd, rnd.randrange(8, 14), rnd.randrange(3),
                              deal_only_when_stuck=True))


def test_last_round_verdicts_are_exact():
    rnd = random.Random(4)
    for _ in range(300):
        g = random_position(rnd, rnd.randrange(8, 18), 1)
        assert g.solver_hopeless() == (not plain_wins(g.clone())), g.key()


def test_endgame_verdicts_are_exact():
    rnd = random.Random(3)
    for _ in range(300):
        g = random_position(rnd, rnd.randrange(6, 20), 0)
        piles = tuple(tuple(g.cards[t]) for t in g.tableau)
        assert endgame_wins(piles) == plain_wins(g.clone()), piles


def test_sealed_piles_deal_only_discards_and_a_card_under_its_ace_is_lost():
    # every pile holds an ace and none is empty: nothing can ever move to a space
    g = arrange(searchable(games.new("aces_up", 1)), {
        "T1": "AC 5C", "T2": "2H AH", "T3": "AD", "T4": "AS", "S": "3H 4D 6S 7C"},
        down={"S": 4})
    assert g.solver_hopeless()  # the 2 of hearts lies under its ace
    assert not plain_wins(g.clone())


def test_a_king_on_its_own_ace_with_no_space_to_come_is_lost():
    g = arrange(searchable(games.new("aces_up", 1)), {
        "T1": "AC KC", "T2": "AH", "T3": "AD", "T4": "AS", "S": "3H 4D 6S 7C"},
        down={"S": 4})
    assert g.solver_hopeless()
    assert not plain_wins(g.clone())
    # with a space still possible (the ace of spades' pile is empty) it is not hopeless
    g = arrange(searchable(games.new("aces_up", 1)), {
        "T1": "AC KC", "T2": "AH", "T3": "AD AS", "S": "3H 4D 6S 7C 8D 9D TD JD"},
        down={"S": 8})
    assert not g.solver_hopeless()


def test_key_sorts_the_piles_only_once_the_stock_is_empty():
    g = arrange(searchable(games.new("aces_up", 1)), {"T1": "AC 5C", "T2": "KH", "S": "3H 4D 6S 7C"},
                down={"S": 4})
    h = arrange(searchable(games.new("aces_up", 1)), {"T2": "AC 5C", "T1": "KH", "S": "3H 4D 6S 7C"},
                down={"S": 4})
    assert g.solver_key() != h.solver_key()  # the next deal tells the piles apart
    g = arrange(searchable(games.new("aces_up", 1)), {"T1": "AC 5C", "T2": "KH"})
    h = arrange(searchable(games.new("aces_up", 1)), {"T3": "AC 5C", "T1": "KH"})
    assert g.solver_key() == h.solver_key()
    assert parse("KH") in g.cards[g.index["T2"]]
