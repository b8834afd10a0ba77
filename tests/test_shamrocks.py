"""Shamrocks (003 variant): kings sent under, any suit up or down, at most three cards a fan."""

from __future__ import annotations

import random

import pytest

import games
from games import solver
from games.engine.cards import RANK, SUIT, parse
from games.search import searchable
from games.shamrocks import Shamrocks

from .conftest import all_cards, arrange, refused
from .conftest import plain_search as search_all


def cards(text: str) -> list[int]:
    return [parse(t) for t in text.split()]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_deal_sends_every_king_to_the_bottom(seed):
    g = games.new("shamrocks", seed)
    assert [len(g.pile(f"T{i}")) for i in range(1, 19)] == [3] * 17 + [1]
    assert len(all_cards(g)) == 52 and g.vars["redeals"] == 0
    for t in g.tableau:
        ranks = [RANK[c] for c in g.cards[t]]
        assert ranks == sorted(ranks, key=lambda r: r != 13)  # kings first, i.e. underneath


def test_kings_rules_on_single_fans():
    assert Shamrocks.all_kings_under(cards("2H KH 5C")) == cards("KH 2H 5C")
    assert Shamrocks.all_kings_under(cards("5C KS KH")) == cards("KS KH 5C")
    assert Shamrocks.kings_under_own_suit(cards("2H KH 5C")) == cards("KH 2H 5C")
    assert Shamrocks.kings_under_own_suit(cards("5C 2H KS")) == cards("5C 2H KS")
    assert Shamrocks.kings_under_own_suit(cards("5C 2H KH")) == cards("5C KH 2H")
    assert Shamrocks.kings_under_own_suit(cards("2H 5H KH")) == cards("KH 2H 5H")


def test_morehead_kings_rule_option():
    found = 0
    for seed in range(1, 6):
        g = games.new("shamrocks", seed, kings_rule="morehead")
        for t in g.tableau:
            fan = g.cards[t]
            for k, c in enumerate(fan):
                if RANK[c] == 13:
                    assert all(SUIT[x] != SUIT[c] for x in fan[:k])
                    found += any(RANK[x] != 13 for x in fan[:k])
    assert found  # some king stays above a card of another suit


def test_build_up_or_down_regardless_of_suit():
    g = arrange(games.new("shamrocks", 1), {"T1": "6S", "T2": "7C", "T3": "5D", "T4": "8H"})
    refused(g, "T1>T4", "6♠ can only go on a 7 or 5")
    g.play("T1>T2")
    g.undo()
    g.play("T1>T3")


def test_a_fan_holds_at_most_three_cards():
    g = arrange(games.new("shamrocks", 1), {"T1": "9D", "T2": "KC 2S 8C", "T3": "KD 8D"})
    refused(g, "T1>T2", "A fan can hold at most 3 cards")
    g.play("T1>T3")
    assert len(g.pile("T3")) == 3


def test_empty_fans_stay_empty_and_there_is_no_redeal():
    g = arrange(games.new("shamrocks", 1), {"T1": "KD", "T2": "5C"}, redeals=0, drawn=False)
    refused(g, "T1>T3", "An empty fan cannot be filled")
    refused(g, "redeal", "This game has no redeals")
    assert g.over


# ------------------------------------------------------------ the solver's hooks
# Building goes up or down in any suit, so every card is a parking place for eight others:
# the hooks of games/shamrocks.py are checked here against a plain search on endgames.

def endgame(fans: list[str], home: dict[str, int]) -> Shamrocks:
    """A position: fans bottom to top, and how many cards of each suit ("CDHS") are home."""
    piles = {f"F{i + 1}": " ".join(r + s for r in "A23456789TJQK"[:home.get(s, 0)])
             for i, s in enumerate("CDHS")}
    piles.update({f"T{i + 1}": fan for i, fan in enumerate(fans)})
    return arrange(searchable(games.new("shamrocks", 1)), piles, redeals=0, drawn=False)


def random_endgame(rnd: random.Random, left: int) -> Shamrocks:
    """``left`` cards in random fans of one to three cards; the rest home."""
    while True:
        home = [rnd.randint(0, 13) for _ in range(4)]
        if 52 - sum(home) == left:
            break
    rest = [s * 13 + r for s in range(4) for r in range(home[s], 13)]
    rnd.shuffle(rest)
    sizes = [1] * rnd.randint((left + 2) // 3, min(18, left))
    for _ in range(left - len(sizes)):
        sizes[rnd.choice([k for k, n in enumerate(sizes) if n < 3])] += 1
    g = searchable(games.new("shamrocks", 1))
    for f, s in zip(g.foundations, range(4), strict=True):
        g.cards[f] = [s * 13 + r for r in range(home[s])]
    it = iter(rest)
    for t in g.tableau:
        g.cards[t] = [next(it) for _ in range(sizes.pop())] if sizes else []
    g.history.clear()
    g._journal.clear()
    return g


def plain_search(game: Shamrocks, limit: int = 400_000) -> str | None:
    """Every legal move, no safe move, no dead-end test, no merged key but sorted fans."""
    return search_all(game, limit, key=lambda g: (
        tuple(sorted(tuple(g.cards[t]) for t in g.tableau)),
        tuple(len(g.cards[f]) for f in g.foundations)))


def test_an_early_foundation_move_can_lose_a_won_position():
    # Klondike's rule ("a card at most one above the lowest foundation goes home") would
    # send the queen of clubs home before the king of spades has moved onto it, to let the
    # queen of spades under it go home: then no queen is left for the king.
    g = endgame(["TC", "9C", "JS", "JC TS", "KH", "QC", "KC", "QS KS"],
                {"C": 8, "D": 13, "H": 12, "S": 9})
    assert plain_search(g) == "won"
    sol = solver.solve(g, prune=False)
    assert sol.result == "won" and solver.replay_wins(g, sol.moves)
    assert solver.solve(g).result == "won"


def test_a_king_goes_home_unasked_only_once_every_queen_is():
    g = endgame(["KS", "KH"], {"C": 13, "D": 13, "H": 12, "S": 12})
    assert g.solver_autoplay() is not None
    g = endgame(["KS", "KH QD", "KD"], {"C": 13, "D": 11, "H": 12, "S": 12})
    assert g.solver_autoplay() is None


def test_a_blocked_card_may_wait_for_a_parent_that_comes_back_to_its_own_fan():
    # the king of spades lies on its queen; the queen of hearts, third in its fan, leaves
    # for the jack of spades, the 8 of spades goes home and the queen comes back onto her
    # own king, alone now: the king of spades can go on her
    g = endgame(["QS KS 7S", "TS", "9H JS", "TH 9S JH", "KH 8S QH"],
                {"C": 13, "D": 13, "H": 8, "S": 6})
    assert not g.solver_hopeless()
    assert plain_search(g) == "won" == solver.solve(g, prune=False).result


def test_a_blocked_card_without_a_parent_is_a_dead_end():
    # the 9 of spades lies on the 8: the 10 is under it, every other 10 and 8 is home
    g = endgame(["JS QS KS", "8S TS 9S", "7S QC", "KC KH KD"],
                {"C": 11, "D": 12, "H": 12, "S": 6})
    assert g.solver_hopeless()
    assert plain_search(g) == "lost"
    # the king of diamonds lies on its queen, and every other queen is home
    g = endgame(["KS TD 9D", "QD KD 8D", "7D JD"], {"C": 13, "D": 6, "H": 13, "S": 12})
    assert g.solver_hopeless()
    assert plain_search(g) == "lost"


def test_the_key_knows_neither_the_fan_order_nor_which_foundation_holds_a_suit():
    a = endgame(["KS QH", "2C"], {"C": 1, "D": 13, "H": 11, "S": 12})
    b = endgame(["2C", "KS QH"], {"C": 1, "D": 13, "H": 11, "S": 12})
    b.cards[b.foundations[0]], b.cards[b.foundations[3]] = \
        b.cards[b.foundations[3]], b.cards[b.foundations[0]]
    assert a.solver_key() == b.solver_key()
    assert a.solver_key() != endgame(["KS", "QH 2C"], {"C": 1, "D": 13, "H": 11,
                                                        "S": 12}).solver_key()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_hooks_agree_with_a_plain_search_on_random_endgames(seed):
    """The safe moves, the dropped moves of lone cards, the key and the dead-end test
    together never call a won endgame lost (nor the other way)."""
    rnd = random.Random(seed)
    results = set()
    for _ in range(40):
        g = random_endgame(rnd, 10)
        expected = plain_search(g)
        results.add(expected)
        assert solver.solve(g, prune=False).result == expected
    assert results == {"won", "lost"}


def test_the_dead_end_test_only_fires_on_lost_endgames():
    rnd = random.Random(3)
    fired = 0
    for _ in range(1500):
        g = random_endgame(rnd, 13)
        if g.solver_hopeless():
            fired += 1
            assert plain_search(g) == "lost"
    assert fired >= 5


def test_the_table_leaves_an_ace_to_the_visitor_but_la_belle_lucie_plays_it_home():
    """The table's automatic foundation moves must never hurt: with building up or down in
    any suit even an ace can be the place a two of another suit needed, so Shamrocks plays
    none by itself, while La Belle Lucie (building down in suit) still does."""
    g = arrange(games.new("shamrocks", 1), {"T1": "AS", "T2": "7C"})
    assert g.safe_autoplay() is None
    lucie = arrange(games.new("la_belle_lucie", 1), {"T1": "AS", "T2": "7C"})
    assert lucie.notation(lucie.safe_autoplay()) == "T1>F1"
