"""The general solver: wins on constructed positions, proofs of loss, budgets, the CLI."""

from __future__ import annotations

import json
import random

import pytest

import games
from games import solver
from games.engine.game import Game
from games.engine.model import Move
from games.families.seats import SeatedGame
from games.search import searchable
from kiosk.commands import cli
from tests.conftest import arrange


def exhaustive_win(game: Game, depth: int = 40) -> bool:
    """Brute force without any solver hook (no key, no pruning, no autoplay): any line wins?"""
    if game.won:
        return True
    if depth == 0:
        return False
    for m in game.legal_moves():
        game.play(m, check=False)
        won = exhaustive_win(game, depth - 1)
        game.unmake()
        if won:
            return True
    return False


def golf_position(**piles: str) -> Game:
    return arrange(searchable(games.new("golf", 1)), piles)


# ---------------------------------------------------------------- wins
def test_klondike_all_but_one_card_home_is_won_with_a_replayable_line():
    suits = "CDHS"
    ranks = "A23456789TJQK"
    piles = {f"F{i + 1}": " ".join(r + s for r in ranks) for i, s in enumerate(suits[:3])}
    piles["F4"] = " ".join(r + "S" for r in ranks[:11])
    piles["T1"] = "KS"
    piles["T2"] = "QS"
    g = arrange(games.new("klondike", 1), piles)
    sol = solver.solve(g)
    assert sol.result == solver.WON and sol.won
    assert [g.notation(m) for m in sol.moves] == ["T2>F4", "T1>F4"]
    assert solver.replay_wins(g, sol.moves)
    assert not g.won and len(g.history) == 0  # the game itself is untouched


def test_golf_constructed_win_needs_the_right_order():
    # 6 then 5 then 4 wins; taking the 7 first strands the 5 and 4
    g = golf_position(T1="4C 5D", T2="7H", T3="6S", W="6D", S="")
    assert exhaustive_win(g)
    sol = solver.solve(g)
    assert sol.won and solver.replay_wins(g, sol.moves)


def test_deal_winnable_from_the_start_gives_a_line_that_replays_through_the_save_format():
    sol_game = None
    for seed in range(1, 40):
        g = games.new("golf", seed)
        sol = solver.solve(g, max_nodes=200_000)
        if sol.won:
            sol_game = (g, sol)
            break
    assert sol_game is not None
    g, sol = sol_game
    save = {**g.to_dict(), "moves": [g.notation(m) for m in sol.moves]}
    assert games.from_json(save).won


def test_sliding_puzzle_is_solved_by_ida_star_with_a_shortest_line():
    g = games.new("sliding_eleven", 1)
    goal = g.goal
    grid = g.grid
    # two slides from the goal: the hole went left twice from the last place
    piles = {g.layout[p].id: "" for p in grid}
    from games.engine import cards as C
    order = list(goal) + [None]
    order[11], order[10] = order[10], order[11]
    order[10], order[9] = order[9], order[10]
    piles = {g.layout[p].id: (C.text(c) if c is not None else "") for p, c in zip(grid, order, strict=True)}
    g = arrange(g, piles)
    sol = solver.solve(g)
    assert sol.won and len(sol.moves) == 2 and sol.passes[0] == "ida"


def test_a_quick_sliding_line_comes_with_fewer_nodes_and_still_wins():
    """Hints ask for ``shortest=False``: the heuristic counts twice, so a line comes much
    sooner; it wins but may be longer than the shortest."""
    rnd = random.Random(7)
    quicker = 0
    for seed in range(1, 7):
        g = games.new("sliding_eleven", seed)
        for _ in range(60):  # scramble from the deal by random slides
            g.play(rnd.choice(g.legal_moves()))
        best = solver.solve(g, max_nodes=3_000_000)
        quick = solver.solve(g, max_nodes=3_000_000, shortest=False)
        assert best.won and quick.won
        assert solver.replay_wins(g, quick.moves)
        assert len(quick.moves) >= len(best.moves)
        quicker += quick.nodes < best.nodes
    assert quicker >= 4


# ---------------------------------------------------------------- proofs of loss
def test_golf_dead_position_is_proved_lost_and_brute_force_agrees():
    g = golf_position(T1="9D 3C", T2="5C 4H", T3="JS", W="KH", S="6S 2S")
    assert not exhaustive_win(g)
    sol = solver.solve(g)
    assert sol.result == solver.LOST and sol.moves == []


def test_golf_hopeless_test_never_cuts_a_winnable_constructed_position():
    for piles in ({"T1": "4C 5D", "T2": "7H", "T3": "6S", "W": "6D"},
                  {"T1": "KC QD", "T2": "JS", "W": "TD"},
                  {"T1": "AS", "T2": "2C", "W": "3H", "S": "KD"}):
        g = golf_position(**piles)
        assert exhaustive_win(g)
        assert not g.solver_hopeless()


def test_clock_without_decisions_is_decided_at_once():
    results = {solver.solve(games.new("clock", seed)).result for seed in range(1, 30)}
    assert results == {solver.WON, solver.LOST}


# ---------------------------------------------------------------- budgets
def test_node_budget_stops_the_search_with_unknown():
    g = games.new("klondike", 4711)
    sol = solver.solve(g, max_nodes=50)
    assert sol.result == solver.UNKNOWN and sol.moves == []
    assert sol.nodes <= 50 + solver.CHECK_EVERY


def test_should_stop_is_asked_and_obeyed():
    asked = []

    def stop() -> bool:
        asked.append(1)
        return True

    sol = solver.solve(games.new("accordion", 3), should_stop=stop)
    assert sol.result == solver.UNKNOWN and asked
    assert sol.nodes <= solver.CHECK_EVERY


def test_a_won_game_needs_no_search():
    g = golf_position(W="5D", S="")
    assert g.won
    sol = solver.solve(g)
    assert sol.won and sol.moves == [] and sol.nodes == 0


# ---------------------------------------------------------------- keys and hooks
def test_solver_key_folds_symmetric_piles_and_ignores_removed_cards():
    a = arrange(searchable(games.new("klondike", 1)), {"T1": "KS", "T2": "QH", "F1": "AC"})
    b = arrange(searchable(games.new("klondike", 1)), {"T5": "KS", "T3": "QH", "F4": "AC"})
    assert a.solver_key() == b.solver_key()
    c = arrange(searchable(games.new("aces_up", 1)), {"T1": "AS", "D": "2C 3C"})
    d = arrange(searchable(games.new("aces_up", 1)), {"T1": "AS", "D": "3C 2C"})
    assert c.solver_key() == d.solver_key()


def test_klondike_solver_autoplay_sends_home_a_card_nobody_can_need():
    # red 5: the black 4s are home and the other red suit's 3 is home
    g = arrange(searchable(games.new("klondike", 1)), {
        "F1": "AC 2C 3C 4C", "F2": "AS 2S 3S 4S", "F3": "AH 2H 3H 4H", "F4": "AD 2D 3D",
        "T1": "5H", "T2": "9C"})
    assert g.solver_autoplay() == Move("move", g.index["T1"], g.index["F3"], 1)
    # with the 3 of diamonds still out, a black 4 might come back for it: not safe
    g = arrange(searchable(games.new("klondike", 1)), {
        "F1": "AC 2C 3C 4C", "F2": "AS 2S 3S 4S", "F3": "AH 2H 3H 4H", "F4": "AD 2D",
        "T1": "5H", "T2": "9C", "T3": "3D"})
    m = g.solver_autoplay()
    assert m is None or g.layout[m.src].id != "T1"


# ---------------------------------------------------------------- the command line
def test_kiosk_solve_json_shape(capsys):
    assert cli.main(["solve", "golf", "--seed", "3", "--json", "--max-seconds", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"game", "seed", "options", "result", "moves", "nodes", "seconds"}
    assert out["game"] == "golf" and out["seed"] == 3
    assert out["result"] in ("won", "lost", "unknown")
    if out["result"] == "won":
        g = games.new("golf", 3)
        assert games.from_json({**g.to_dict(), "moves": out["moves"]}).won


def test_kiosk_solve_needs_a_seed(capsys):
    assert cli.main(["solve", "golf"]) == 2
    assert "seed" in capsys.readouterr().err


@pytest.mark.slow
def test_every_game_gets_an_answer_on_a_few_deals():
    for gid in games.ids():
        if issubclass(games.game_class(gid), SeatedGame):
            continue  # a match against the computer is played, not solved
        for seed in (1, 2):
            sol = solver.solve(games.new(gid, seed), max_nodes=20_000)
            assert sol.result in (solver.WON, solver.LOST, solver.UNKNOWN)
            if sol.won:
                assert solver.replay_wins(games.new(gid, seed), sol.moves), gid
