"""Solver hooks of Klondike, Canfield, Friday the Thirteenth, Scorpion and St Helena:
compound talon moves replay, pruning keeps a win reachable, dead-end tests never cut a
winnable position, and the complete pass still proves small lost positions lost."""

from __future__ import annotations

import random

import games
from games import solver
from games.engine.model import Move
from games.families.patience import DEAL
from games.search import Compound, searchable
from games.search.patience import PatienceSearch
from games.search.talon import round_plays
from tests.conftest import arrange
from tests.solver.test_solver import exhaustive_win

SUITS = "CDHS"
RANKS = "A23456789TJQK"


def suit_run(suit: str, low: int = 1, high: int = 13, down: bool = False) -> str:
    """Cards of one suit from rank ``low`` to ``high`` (or down from high to low)."""
    cards = [RANKS[r - 1] + suit for r in range(low, high + 1)]
    return " ".join(reversed(cards) if down else cards)


def steps(m) -> tuple[Move, ...]:
    return m.moves if type(m) is Compound else (m,)


def assert_compound_moves_are_legal(g: games.Game) -> int:
    """Every entry of ``solver_moves`` replays move by move; returns how many were tried."""
    tried = 0
    for m in g.solver_moves(False):
        made = 0
        for x in steps(m):
            assert g.why_illegal(x) is None, (g.info.id, m)
            g.play(x, check=False)
            made += 1
        for _ in range(made):
            g.unmake()
        tried += 1
    return tried


# ---------------------------------------------------------------- Klondike
def klondike_hearts_to_go(high: int, **piles: str) -> games.Game:
    """Clubs, diamonds and spades home; hearts home up to ``high``; ``piles`` hold the rest."""
    home = {"F1": suit_run("C"), "F2": suit_run("D"), "F3": suit_run("S"),
            "F4": suit_run("H", 1, high)}
    return arrange(searchable(games.new("klondike", 1)), {**home, **piles}, down={"S": len(
        piles.get("S", "").split())})


def test_klondike_talon_moves_turn_the_stock_to_the_card_they_play():
    # the jack of hearts is dealt third: three turns and its play are one compound move
    g = klondike_hearts_to_go(10, S="JH QH KH")
    moves = g.solver_moves(False)
    assert Compound((DEAL, DEAL, DEAL, Move("move", g.waste, g.index["F4"], 1))) in moves
    assert DEAL not in moves  # a turn alone is never searched
    sol = solver.solve(g)
    assert sol.won and solver.replay_wins(g, sol.moves)
    assert not g.history


def test_klondike_complete_pass_brings_foundation_cards_back():
    # the jack of hearts lies on the ten: it needs a black queen from a foundation to wait on
    g = klondike_hearts_to_go(9, W="TH JH", T1="KH", T2="QH")
    sol = solver.solve(g)
    assert sol.won and solver.replay_wins(g, sol.moves)
    assert sol.passes == ["pruned", "complete"]  # the pruned pass never takes cards back


def test_klondike_complete_pass_proves_a_blocked_position_lost():
    # the 8 of diamonds waits under the hearts; the black queens are under their kings and
    # no column is free for a king
    g = klondike_hearts_to_go(
        9, F2=suit_run("D", 1, 7), W="8D TH JH",
        T1="KH", T2="QH", T3="KD", T4="QD", T5="JD", T6="TD", T7="9D")
    assert not exhaustive_win(g.clone(), depth=6)
    sol = solver.solve(g)
    assert sol.result == solver.LOST and "complete" in sol.passes


def test_compound_moves_replay_move_by_move_in_random_positions():
    rnd = random.Random(7)
    tried = 0
    for gid in ("klondike", "canfield", "selective_canfield", "friday_the_thirteenth"):
        for seed in range(1, 9):
            g = searchable(games.new(gid, seed))
            for _ in range(30):
                moves = g.legal_moves()
                if not moves or g.won:
                    break
                g.play(rnd.choice(moves), check=False)
                tried += assert_compound_moves_are_legal(g)
    assert tried > 500


def test_stuck_card_quick_test_agrees_with_the_full_fixpoint(monkeypatch):
    rnd = random.Random(11)
    seed_test = PatienceSearch._stuck_seed
    for gid, kings_free in (("klondike", True), ("canfield", False)):
        for seed in range(1, 30):
            g = searchable(games.new(gid, seed))
            for _ in range(40):
                moves = g.legal_moves()
                if not moves:
                    break
                g.play(rnd.choice(moves), check=False)
                piles = g.tableau
                fast = g.stuck_card(piles, kings_free)
                monkeypatch.setattr(PatienceSearch, "_stuck_seed", lambda *a: True)
                assert g.stuck_card(piles, kings_free) == fast
                monkeypatch.setattr(PatienceSearch, "_stuck_seed", seed_test)


# ---------------------------------------------------------------- Canfield
def test_canfield_talon_from_the_middle_of_a_pass_comes_round_to_every_card():
    g = searchable(games.new("canfield", 3))
    g.play(Move("deal"))
    w = g.waste
    g.cards[w].pop()  # as if the waste card had been played: 31 in the stock, 2 on the waste
    talon = set(g.cards[w]) | set(g.cards[g.stock])
    # terminates although (31, 2) never comes round again
    home, rest = round_plays(g, g._wants(), last_singly=True)
    plays = {steps(m)[-1] for m in home + rest}
    # every card of the talon that some pile would take is offered, after some turns
    reachable = set()
    made = 0
    for _ in range(3 * len(talon)):
        top = g.cards[w][-1] if g.cards[w] else None
        if top is not None and any(g.accepts(d, w, 1) for d in g._targets if d != w):
            reachable.add(top)
        g.play(Move("deal") if g.cards[g.stock] else Move("redeal"), check=False)
        made += 1
    for _ in range(made):
        g.unmake()
    offered = set()
    for m in home + rest:
        for x in steps(m)[:-1]:
            g.play(x, check=False)
        offered.add(g.cards[w][-1])
        for _ in steps(m)[:-1]:
            g.unmake()
    assert offered == reachable and plays


def test_selective_canfield_search_starts_with_the_choice():
    g = searchable(games.new("selective_canfield", 1))
    assert {m.kind for m in g.solver_moves(True)} == {"choose"}
    sol = solver.solve(g, max_nodes=50_000)
    assert sol.result != solver.LOST
    if sol.won:
        assert solver.replay_wins(g, sol.moves)


# ---------------------------------------------------------------- Friday the Thirteenth
def friday_position(f4: str, f5: str, waste: str) -> games.Game:
    """Every foundation complete but the ace's (F4) and the 2's (F5); last pass."""
    g = searchable(games.new("friday_the_thirteenth", 1))
    bases = (11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    piles = {}
    for i, base in enumerate(bases):
        ranks = [(base - 1 + k) % 13 + 1 for k in range(4)]
        piles[f"F{i + 1}"] = " ".join(RANKS[r - 1] + SUITS[i % 4] for r in ranks)
    piles["F4"], piles["F5"], piles["W"] = f4, f5, waste
    return arrange(g, piles, redeals=0)


def test_friday_last_pass_card_that_must_wait_for_one_under_it_is_hopeless():
    lost = friday_position("AH", "2S 3S 4S", "2C 5C 4C 3C")  # the 3 waits on the 2 under it
    assert lost.solver_hopeless()
    assert solver.solve(lost).result == solver.LOST
    won = friday_position("AH", "2S 3S 4S", "5C 4C 3C 2C")
    assert not won.solver_hopeless()
    sol = solver.solve(won)
    assert sol.won and solver.replay_wins(won, sol.moves)


def test_friday_hopeless_never_fires_along_won_lines():
    for seed in (1, 2, 3, 5, 8):
        g = searchable(games.new("friday_the_thirteenth", seed))
        sol = solver.solve(g, max_nodes=100_000)
        if not sol.won:
            continue
        for m in sol.moves:
            g.play(m)
            assert not g.solver_hopeless(), seed


# ---------------------------------------------------------------- Scorpion
def scorpion_position(t1: str, t2: str) -> games.Game:
    return arrange(searchable(games.new("scorpion", 1)), {
        "T1": t1, "T2": t2, "T3": suit_run("C", down=True), "T4": suit_run("D", down=True),
        "T5": suit_run("S", 1, 11, down=True), "T6": suit_run("H", 1, 11, down=True)})


def test_scorpion_two_queens_on_each_others_kings_are_hopeless():
    lost = scorpion_position("KS QH", "KH QS")
    assert lost.solver_hopeless()
    assert not exhaustive_win(lost.clone(), depth=8)
    assert solver.solve(lost).result == solver.LOST
    won = scorpion_position("KS QS", "KH QH")
    assert not won.solver_hopeless()
    sol = solver.solve(won)
    assert sol.won and solver.replay_wins(won, sol.moves)


def test_scorpion_hopeless_never_fires_along_a_won_line():
    g = searchable(games.new("scorpion", 758661))
    sol = solver.solve(g, max_nodes=20_000)
    assert sol.won
    for m in sol.moves:
        g.play(m)
        assert not g.solver_hopeless()


# ---------------------------------------------------------------- St Helena
def test_st_helena_complete_moves_miss_nothing_but_equivalent_spaces():
    rnd = random.Random(5)
    for seed in range(1, 6):
        g = searchable(games.new("st_helena_spider", seed))
        for _ in range(40):
            legal = g.legal_moves()
            if not legal:
                break
            listed = set(g.solver_moves(False))
            spaces = {(m.src, m.n) for m in listed if m.kind == "move" and not g.cards[m.dst]}
            for m in legal:
                if m not in listed:  # once the stock is out, spaces are all alike
                    assert m.kind == "move" and not g.cards[m.dst] and not g.cards[g.stock]
                    assert (m.src, m.n) in spaces or len(g.cards[m.src]) == m.n
            g.play(rnd.choice(legal), check=False)


def test_st_helena_deal_is_won_by_the_pruned_search_and_replays():
    g = games.new("st_helena_spider", 2)
    sol = solver.solve(g, max_nodes=200_000)
    assert sol.won and solver.replay_wins(g, sol.moves)


# ---------------------------------------------------------------- Aces Up
def test_aces_up_complete_pass_wins_where_an_eager_discard_would_lose():
    # found by a random search against brute force: discarding a card whose lower suit-mates
    # all lie under it (the old "safe" discard) loses this position; keeping it wins
    g = arrange(searchable(games.new("aces_up", 1)), {
        "S": "TH 4S TC 7C AC AS 6D AD", "T1": "2H AH JC", "T2": "JS"}, down={"S": 8})
    played = {c for p in g.cards for c in p}
    g.cards[g.discard] = [c for c in range(52) if c not in played]
    assert g.solver_autoplay() is None
    sol = solver.solve(g, prune=False)
    assert sol.won and solver.replay_wins(g, sol.moves)
