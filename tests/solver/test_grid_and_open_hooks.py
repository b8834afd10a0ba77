"""Solver hooks of Leapfrog, Poker Squares, Accordion, Pyramid and the open building games
(Castle family, King Albert, Eight Off): dead-end tests never cut a winnable position, the
move restrictions keep every win, keys merge only equivalent positions, and the complete
pass still proves small lost positions lost."""

from __future__ import annotations

import random

import pytest

import games
from games import solver
from games.engine import cards as C
from games.families import poker
from games.search import pyramid as pyramid_search
from games.search import searchable
from games.search.leapfrog import link_groups
from games.search.poker_squares import hand_points
from tests.conftest import arrange, play_randomly
from tests.solver.test_solver import exhaustive_win


# ---------------------------------------------------------------- Leapfrog
def leapfrog(**piles: str) -> games.Game:
    return arrange(searchable(games.new("leapfrog", 1)), piles)


def test_link_groups_join_cards_through_shared_suits_and_ranks():
    cards = [C.parse(t) for t in ("AS", "2S", "2H", "9H")]
    assert link_groups(cards) == 1  # AS-2S by suit, 2S-2H by rank, 2H-9H by suit
    assert link_groups([C.parse(t) for t in ("AS", "2S", "3H", "4H")]) == 2


def test_leapfrog_small_lost_position_is_proved_lost_by_the_complete_pass():
    # one island, one link group, but every jump strands two cards
    g = leapfrog(G1="AS", G2="AH", G3="2H")
    assert not g.solver_hopeless()
    assert not exhaustive_win(g)
    assert solver.solve(g).result == solver.LOST


def test_leapfrog_needs_a_fill_before_a_jump():
    g = leapfrog(G1="AS", G7="9C", S="AH 9S")  # AH is the stock's top card
    sol = solver.solve(g)
    assert sol.won and solver.replay_wins(g, sol.moves)


def test_leapfrog_key_tells_a_card_waiting_to_be_used_from_a_free_position():
    g = leapfrog(G1="AS", G2="AH", S="KD")
    free = g.solver_key()
    g.play("fill:S,G3")
    after_fill = g.solver_key()
    g.undo()
    g2 = leapfrog(G1="AS", G2="AH", G3="KD")
    assert after_fill != g2.solver_key()  # same cards, but one waits to be used
    assert free != after_fill
    g.play("fill:S,G3")
    assert {m.dst for m in g.solver_moves() if m.kind == "jump"} <= {g.index["G3"]}


@pytest.mark.parametrize("seed", range(40))
def test_leapfrog_search_agrees_with_brute_force_on_small_positions(seed):
    rnd = random.Random(seed)
    deck = rnd.sample(range(52), 7)
    cells = rnd.sample(range(1, 11), rnd.randint(2, 4))  # the top two rows
    stock = deck[len(cells):len(cells) + rnd.randint(0, 2)]
    piles = {f"G{k}": C.text(c) for k, c in zip(cells, deck, strict=False)}
    piles["S"] = " ".join(C.text(c) for c in stock)
    g = leapfrog(**piles)
    winnable = exhaustive_win(g)
    if g.solver_hopeless():
        assert not winnable
    assert solver.solve(g).won == winnable
    assert solver.solve(g, prune=False).won == winnable


# ---------------------------------------------------------------- Poker Squares
def test_fast_hand_points_agree_with_the_poker_module():
    rnd = random.Random(5)
    for table in ("american", "english"):
        for _ in range(3000):
            hand = rnd.sample(range(52), 5)
            assert hand_points(hand, poker.TABLES[table]) == poker.points(hand, table)
    royal = [C.parse(t) for t in ("AS", "KS", "QS", "JS", "TS")]
    assert hand_points(royal, poker.AMERICAN) == 100


def test_poker_squares_places_a_card_once_per_class_of_empty_rows_and_columns():
    g = searchable(games.new("poker_squares", 3))
    g.play(g.legal_moves()[0])  # the first card goes top-left
    places = {g.layout[m.dst].id for m in g._distinct_places(g.legal_moves())}
    assert places == {"G2", "G6", "G7"}  # same row, same column, or neither


def test_poker_squares_plan_wins_a_deal_at_once():
    g = games.new("poker_squares", 559081)
    sol = solver.solve(g, max_nodes=200)
    assert sol.won and solver.replay_wins(g, sol.moves) and sol.nodes == 25


# ---------------------------------------------------------------- Accordion
def test_accordion_solver_moves_are_the_legal_moves_reordered():
    g = searchable(games.new("accordion", 7))
    rnd = random.Random(7)
    for _ in range(20):
        assert sorted(g.solver_moves()) == sorted(g.legal_moves())
        if not play_randomly(g, 1, rnd):
            break


# ---------------------------------------------------------------- Pyramid
@pytest.mark.parametrize("gid", ["pyramid", "pyramid_pairs"])
def test_pyramid_remembered_pairings_give_the_same_verdicts(gid):
    rnd = random.Random(11)
    for seed in range(1, 13):
        g = searchable(games.new(gid, seed))
        play_randomly(g, rnd.randint(0, 40), rnd)
        warm = g.solver_hopeless()
        pyramid_search._PAIRINGS.clear()
        assert g.solver_hopeless() == warm


# ---------------------------------------------------------------- open games
@pytest.mark.parametrize("gid", ["beleaguered_castle", "king_albert", "eight_off"])
def test_open_game_key_merges_permuted_columns_only(gid):
    a = arrange(searchable(games.new(gid, 1)), {"T1": "KS QH", "T2": "5C", "F1": "AD"})
    b = arrange(searchable(games.new(gid, 1)), {"T3": "KS QH", "T1": "5C", "F2": "AD"})
    c = arrange(searchable(games.new(gid, 1)), {"T1": "KS", "T2": "5C QH", "F1": "AD"})
    assert a.solver_key() == b.solver_key()
    assert a.solver_key() != c.solver_key()


# ---------------------------------------------------------------- Snake
def snake_clubs_to_go(**piles: str) -> games.Game:
    """Every card home but the clubs of the first deck above the ten; ``piles`` hold those."""
    home = {f"F{i + 1}": " ".join(r + s for r in "A23456789TJQK")
            for i, s in enumerate("DHSCDHS")}
    home["F8"] = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC"
    return arrange(searchable(games.new("snake", 1)), {**home, **piles}, down={"S": piles.get(
        "S", "").count(" ") + 1 if piles.get("S") else 0})


def test_snake_after_a_deal_only_column_one_or_another_deal():
    g = snake_clubs_to_go(T2="KC", T3="JC", S="QC")
    g.play("deal")
    first = g.index["T1"]
    assert all(m.kind == "deal" or first in (m.src, m.dst) for m in g.solver_moves())
    dealt = g.solver_key()
    g2 = snake_clubs_to_go(T1="QC", T2="KC", T3="JC")
    assert g2.solver_key() != dealt  # the same cards, but the deal still waits to be used


@pytest.mark.parametrize("piles", [
    {"T2": "KC", "T3": "JC", "S": "QC"},          # the deal must wait for the jack
    {"T2": "KC", "S": "QC JC"},                   # deal, play, deal, play
    {"T2": "JC", "T3": "KC", "T4": "QC"},          # no stock at all
])
def test_snake_search_wins_small_positions(piles):
    g = snake_clubs_to_go(**piles)
    sol = solver.solve(g, prune=False)
    assert sol.won and solver.replay_wins(g, sol.moves)

