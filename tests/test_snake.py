"""Snake («Змей», 002 / GAMES.md §C2)."""

from __future__ import annotations

import random

import games
from games import solver
from games.engine.cards import ACE, RANK, parse
from games.search import searchable

from .conftest import all_cards, arrange, refused
from .conftest import plain_search as search_all


def new(seed: int = 1, **opts) -> games.Game:
    return searchable(games.new("snake", seed, **opts))


def test_deal_shape_and_row_one_aces():
    for seed in range(1, 30):
        g = new(seed)
        assert all_cards(g) == list(range(104))
        cols = [g.cards[t] for t in g.tableau]
        assert all(len(c) == 8 for c in cols) and not any(g.down[t] for t in g.tableau)
        up = sum(len(g.cards[f]) for f in g.foundations)
        assert len(g.pile("S")) == 40 - up and g.down[g.stock] == 40 - up
        assert all(RANK[c[0]] != ACE for c in cols)  # no ace left in row 1
        assert all(RANK[g.cards[f][0]] == ACE for f in g.foundations if g.cards[f])
        assert all(g.cards[f] for f in g.foundations[:up])  # aces fill F1, F2 ... in order


def test_refill_ace_goes_up_only_with_repeat():
    once, repeat = new(50, deal_aces="once"), new(50)
    assert once.pile("T4")[0] == parse("AC")
    assert repeat.pile("T4")[0] != parse("AC")
    assert len(repeat.pile("S")) == len(once.pile("S")) - 1
    assert parse("AC") in [c % 52 for f in repeat.foundations for c in repeat.cards[f]]


def test_build_down_by_one_regardless_of_suit():
    g = arrange(new(), {"T1": "7H", "T2": "6S", "T3": "6D", "T4": "8C"})
    g.play("T2>T1")
    refused(g, "T3>T4", r"The 6♦ can only go on a 7\.")


def test_only_full_series_move_together():
    g = arrange(new(), {"T1": "2D 9C 8H 7S", "T2": "TD", "T3": "8D"})
    refused(g, "T1>T3x2", "top card alone or the whole run")
    assert games.Move("move", g.index["T1"], g.index["T3"], 2) not in g.legal_moves()
    g.play("T1>T2x3")
    assert [c % 52 for c in g.pile("T2")] == [parse(t) for t in "TD 9C 8H 7S".split()]
    g.play("T2>T5x4")  # a full series into an empty column
    g.play("T5>T3")  # the top card alone may always move


def test_partial_series_option():
    g = arrange(new(partial_series=True), {"T1": "9C 8H 7S", "T3": "9D"})
    g.play("T1>T3x2")
    assert g.pile("T1") == [parse("9C")]


def test_foundations_up_in_suit_and_cards_may_come_back():
    g = arrange(new(), {"T1": "AH", "T2": "2H", "T3": "2S", "T4": "3C", "T5": "3H"})
    refused(g, "T2>F1", "Only an ace can start a foundation")
    g.play("T1>F1")
    refused(g, "T3>F1", r"The 2♠ can only go on .* of spades\.")
    g.play("T2>F1")
    g.play("T5>F1")
    refused(g, "F1>F2", "at a time|from a foundation to a foundation")
    refused(g, "F1>T4", "can only go on a 4")
    g.play("F1>T1")  # back into an empty column
    g.play("F1>T4")  # 2H on the 3C
    assert g.pile("F1") == [parse("AH")]


def test_stock_card_goes_on_top_of_column_one():
    g = arrange(new(), {"S": "5D 9S", "T1": "KC", "T2": "QD"}, {"S": 2})
    g.play("deal")
    assert g.pile("T1")[-1] == parse("9S") and g.down[g.index["T1"]] == 0
    g = arrange(new(), {"S": "5D", "T2": "QD"}, {"S": 1})
    g.play("deal")  # an empty column 1 takes the card as its only card
    assert g.pile("T1") == [parse("5D")] and g.pile("S") == []
    refused(g, "deal", "The stock is empty")


def test_safe_autoplay_waits_for_every_lower_card():
    g = arrange(new(), {"T1": "AS", "T2": "3H", "F1": "AH 2H"})
    assert g.safe_autoplay() == games.Move("move", g.index["T1"], g.index["F2"], 1)
    g.play("T1>F2")
    assert g.safe_autoplay() is None  # a 2 of some other suit may still need the 3


# ---------------------------------------------------------------- solver hooks
def endgame(seed: int, left: int = 2) -> games.Game:
    """A random late position: each foundation ``left`` cards short of its king (some a
    card shorter), the missing cards over all eight columns (most columns low card first,
    so that cards block each other) and a card or two in the stock. With ``left=0`` the
    columns hold a queen and a king of each suit, king on top (lost but for a few swaps)."""
    rnd = random.Random(seed)
    ranks = "A23456789TJQK"
    piles = {}
    rest = []
    for i, s in enumerate("CDHSCDHS"):
        short = left + (rnd.random() < 0.3) if left else 2
        piles[f"F{i + 1}"] = " ".join(r + s for r in ranks[:13 - short])
        rest.extend(r + s for r in ranks[13 - short:])
    if not left:
        cols = [rest[2 * i:2 * i + 2] for i in range(8)]
        for _ in range(rnd.randrange(0, 3)):  # a few swaps that may open the game
            a, b = rnd.randrange(8), rnd.randrange(8)
            cols[a][1], cols[b][0] = cols[b][0], cols[a][1]
        return arrange(new(), {**piles, **{f"T{i + 1}": " ".join(c)
                                          for i, c in enumerate(cols)}})
    rnd.shuffle(rest)
    k = rnd.randrange(0, 3)
    stock, rest = rest[:k], rest[k:]
    spread: dict[str, list[str]] = {f"T{i + 1}": [] for i in range(8)}
    for c in rest:
        spread[rnd.choice(list(spread))].append(c)
    for v in spread.values():
        if rnd.random() < 0.7:
            v.sort(key=lambda t: ranks.index(t[0]))
    piles.update({k: " ".join(v) for k, v in spread.items() if v})
    piles["S"] = " ".join(stock)
    return arrange(new(), piles, {"S": len(stock)})


def brute_force(g: games.Game, limit: int) -> bool | None:
    """Whether ``g`` can be won, by a plain search of every legal move with the exact key
    (no autoplay, no symmetry, no reductions); None past ``limit`` positions."""
    result = search_all(g, limit)
    return None if result is None else result == "won"


def test_complete_search_agrees_with_brute_force_on_endgames():
    """The solver's hooks (safe autoplay, the moves it leaves out after a deal or into a
    second space, the key folding columns) never turn a won position into a lost one:
    on random endgames its complete pass and a plain search agree."""
    results = {True: 0, False: 0}
    for seed in range(90):
        g = endgame(seed, seed % 3)
        truth = brute_force(g, 20_000)
        if truth is None:
            continue
        sol = solver.solve(g, prune=False, max_nodes=400_000)
        assert sol.result == ("won" if truth else "lost"), seed
        if truth:
            assert solver.replay_wins(g, sol.moves)
        results[truth] += 1
    assert results[True] >= 20 and results[False] >= 5, results


def test_whole_column_one_may_move_into_a_space_while_the_stock_feeds_it():
    g = arrange(new(), {"T1": "9C 8D", "T2": "KS", "S": "5H"}, {"S": 1})
    moves = g.solver_moves()
    assert games.Move("move", g.index["T1"], g.index["T3"], 2) in moves
    assert games.Move("move", g.index["T2"], g.index["T3"], 1) not in moves  # twins
    assert games.Move("move", g.index["T1"], g.index["T4"], 2) not in moves  # one space
    g = arrange(new(), {"T1": "9C 8D", "T2": "KS"})  # no stock: column 1 is a twin too
    assert not any(m.src == g.index["T1"] and m.n == 2 for m in g.solver_moves())
