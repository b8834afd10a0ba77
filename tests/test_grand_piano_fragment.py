"""Grand Piano, the labelled reconstruction of 002's opening fragment (GAMES.md §C1)."""

from __future__ import annotations

import random

import pytest

import games
from games import Move, solver
from games.engine.cards import parse
from games.search import Compound, searchable

from .conftest import all_cards, arrange, assert_keys_separate_positions, refused

UP_FROM_ACE = "A23456789TJQK"
BLOCKED = {f"T{i + 1}": t for i, t in enumerate("5D 5H 6D 6H 7D 7H 8D 8H JD 6C".split())}


def new(seed: int = 1, **opts) -> games.Game:
    return searchable(games.new("grand_piano_fragment", seed, **opts))


def codes(game: games.Game, pile: str) -> list[int]:
    return [c % 52 for c in game.pile(pile)]


def cards(text: str) -> list[int]:
    return [parse(t) for t in text.split()]


def test_rules_text_says_what_is_reconstructed():
    rules = games.game_class("grand_piano_fragment").info.rules
    assert "RECONSTRUCTION" in rules["en"] and "Little Piano" in rules["en"]
    assert "重建" in rules["zh"] and "РЕКОНСТРУКЦИЯ" in rules["ru"]


@pytest.mark.parametrize("size", [4, 3, 5])
def test_deal_shape(size):
    g = new(2, pile_size=size)
    assert all_cards(g) == list(range(104))
    for t in g.tableau:
        assert len(g.cards[t]) == size and g.down[t] == 0
    assert len(g.pile("S")) == 104 - 10 * size and g.down[g.stock] == 104 - 10 * size
    assert not any(g.cards[p] for p in (g.waste, *g.foundations, *g.reserve))
    assert g.vars["rescue"] is False


def test_build_down_in_suit_one_card_at_a_time():
    g = arrange(new(), {"T1": "8S", "T2": "7S", "T3": "7H", "T4": "9D 8D 7D", "T5": "TD"})
    g.play("T2>T1")
    refused(g, "T3>T1", r"The 7♥ can only go on an 8 of hearts\.")
    refused(g, "T4>T5x2", "Only one card can be moved at a time")


def test_build_down_in_alternating_colours_as_an_option():
    g = arrange(new(building="alt"), {"T1": "8S", "T2": "7H", "T3": "7C", "T4": "9D 8C 7D",
                                      "T5": "9H"})
    g.play("T2>T1")
    refused(g, "T3>T1", r"The 7♣ can only go on a red 8\.")
    refused(g, "T4>T5x2", "Only one card can be moved at a time")


@pytest.mark.parametrize("building,fits,unfit", [("any", "7S", "5H"), ("same", "7S", "7H"),
                                                  ("alt", "7H", "7C")])
def test_building_option(building, fits, unfit):
    g = arrange(new(building=building), {"T1": "8S", "T2": fits, "T3": unfit})
    g.play("T2>T1")
    refused(g, "T3>T1", "can only go on")


def test_empty_pile_takes_any_free_card_or_as_an_option_only_the_waste_or_a_reserve_card():
    g = arrange(new(empty_pile="waste_reserve"), {"T1": "8S", "W": "QD", "S": "4C"}, {"S": 1})
    refused(g, "T1>T2", "only be filled from the waste or the reserve")
    g.play("W>T2")
    g = arrange(new(), {"T1": "9H 8S", "T3": "9C", "W": "QD"})
    g.play("T1>T2")
    g.play("W>T4")
    refused(g, "T3>T5", "would change nothing")


def test_foundations_up_in_suit_and_never_back():
    g = arrange(new(), {"T1": "AH", "T2": "2H", "T3": "2S", "T4": "3C"})
    g.play("T1>F1")
    refused(g, "T3>F1", r"The 2♠ can only go on .* of spades\.")
    g.play("T2>F1")
    refused(g, "F1>T4", "Cards on a foundation cannot be moved")


def test_stock_one_card_at_a_time_with_one_redeal_by_default():
    g = arrange(new(redeals=0), {"S": "2C 3C"}, {"S": 2})
    g.play("deal")
    assert codes(g, "W") == cards("3C") and len(g.pile("S")) == 1
    g.play("deal")
    refused(g, "redeal", "No more redeals")
    g = new()
    g = arrange(g, {"S": "2C 3C"}, {"S": 2}, redeals=g.vars["redeals"])
    g.play("deal")
    g.play("deal")
    g.play("redeal")
    assert codes(g, "S") == cards("2C 3C") and g.down[g.stock] == 2
    g.play("deal")
    g.play("deal")
    refused(g, "redeal", "No more redeals")


def test_rescue_operation_forms_a_reserve_of_three_and_refills_it():
    g = arrange(new(), {"W": "2C 3C 4C 5C 6C", "S": "9H", "F1": "AC", "T1": "KD"}, {"S": 1})
    refused(g, "rescue", "only when the stock is used up")
    g.play("deal")
    before = g.key()
    assert Move("rescue") in g.legal_moves()
    g.play("rescue")
    # the card turned first from the stock is on top of the rescue pack
    assert [codes(g, r) for r in ("R1", "R2", "R3")] == [cards("2C"), cards("3C"), cards("4C")]
    assert codes(g, "S") == cards("9H 6C 5C") and g.down[g.stock] == 3 and g.pile("W") == []
    g.play("R1>F1")
    assert codes(g, "R1") == cards("5C")  # refilled in the same move
    g.play("R2>F1")
    assert codes(g, "R2") == cards("6C")
    g.play("R2>T2")  # a reserve card may fill an empty pile
    assert codes(g, "R2") == cards("9H") and g.pile("S") == []
    refused(g, "rescue", "only once")
    refused(g, "deal", "only refills the reserve")
    for _ in range(4):
        g.undo()
    assert g.key() == before


def test_strict_rescue_loss_option():
    position = {**BLOCKED, "R1": "9C", "R2": "9S", "R3": "2H"}
    old = {"building": "alt", "empty_pile": "waste_reserve"}
    relaxed = arrange(new(**old), position, rescue=True)
    assert relaxed.legal_moves() and not relaxed.lost  # 5s may still go on the 6C
    strict = arrange(new(strict_rescue_loss=True, **old), position, rescue=True)
    assert strict.lost and strict.over and not strict.won and strict.legal_moves() == []
    refused(strict, "T1>T10", "none of the reserve cards can be played")


# ---------------------------------------------------------------- solver hooks
def endgame(seed: int, left: int = 3, **opts) -> games.Game:
    """A random late position: each of the eight foundations is ``left`` cards short of
    its king, and the missing cards lie shuffled over the piles and the stock."""
    rnd = random.Random(seed)
    piles = {f"F{i + 1}": " ".join(r + s for r in UP_FROM_ACE[:13 - left])
             for i, s in enumerate("CDHSCDHS")}
    rest = [r + s for s in "CDHSCDHS" for r in UP_FROM_ACE[13 - left:]]
    rnd.shuffle(rest)
    places = [f"T{i + 1}" for i in range(10)] + ["S"] * 4
    spread: dict[str, list[str]] = {}
    for c in rest:
        spread.setdefault(rnd.choice(places), []).append(c)
    piles.update({k: " ".join(v) for k, v in spread.items()})
    return arrange(new(**opts), piles, {"S": len(spread.get("S", []))},
                   redeals=rnd.choice((0, 1)))


def canonical(g: games.Game) -> tuple:
    """The position as the rules see it, written apart from ``solver_key``: foundations by
    top card and size and piles in any order, cards without their deck, the talon and
    reserve in order, the counters."""
    def names(pile: int) -> tuple[int, ...]:
        return tuple(c % 52 for c in g.cards[pile])
    found = sorted((len(g.cards[f]), names(f)[-1:]) for f in g.foundations)
    piles = sorted(names(t) for t in g.tableau)
    return (tuple(found), tuple(piles), names(g.stock), names(g.waste),
            tuple(names(r) for r in g.reserve), g.vars["redeals"], g.vars["rescue"])


def test_solver_key_merges_twins_and_pile_order_only():
    a = arrange(new(), {"F1": "AS 2S", "T1": "9H 8C", "T2": "KD", "S": "3S 4H", "W": "5C 5C"},
                {"S": 2})
    b = arrange(new(), {"F5": "AS 2S", "T7": "9H 8C", "T3": "KD", "S": "3S 4H", "W": "5C 5C"},
                {"S": 2})
    b.cards[b.waste].reverse()  # the two 5C twins change places
    assert a.solver_key() == b.solver_key()
    for change in ({"T1": "8C 9H"}, {"W": "5C"}, {"S": "4H 3S"}, {"F1": "AS"}):
        piles = {"F1": "AS 2S", "T1": "9H 8C", "T2": "KD", "S": "3S 4H", "W": "5C 5C",
                 **change}
        c = arrange(new(), piles, {"S": len(piles["S"].split())})
        assert c.solver_key() != a.solver_key()


def test_equal_solver_keys_mean_equal_positions_on_random_play():
    assert_keys_separate_positions(
        ((endgame(seed, 3), random.Random(seed)) for seed in range(1, 9)), canonical, 50)


@pytest.mark.parametrize("opts", [{}, {"building": "same"}, {"building": "any"}])
def test_autoplay_never_throws_a_win_away(opts):
    """Where the complete search wins, it still wins after the autoplay move."""
    tried = 0
    for seed in range(1, 40):
        g, rnd = endgame(seed, 2, **opts), random.Random(seed)
        for _ in range(rnd.randrange(0, 8)):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rnd.choice(moves))
        safe = g.solver_autoplay()
        if safe is None or safe.kind != "move":
            continue
        before = solver.solve(g, prune=False, max_nodes=60_000)
        if not before.won:
            continue
        g.play(safe)
        tried += 1
        assert solver.solve(g, prune=False, max_nodes=60_000).won, seed
    assert tried >= 5


def test_talon_is_searched_as_compound_moves_that_replay():
    g = arrange(new(), {"F1": "AC", "T1": "9S", "S": "3C 8S 2C"}, {"S": 3})
    moves = g.solver_moves()
    assert Compound((Move("deal"), Move("move", g.waste, g.index["F1"], 1))) in moves  # 2C home
    assert Compound((Move("deal"), Move("deal"), Move("move", g.waste, g.index["T1"], 1))) in moves
    assert Move("deal") not in moves  # never a turn on its own


@pytest.mark.parametrize("seed", [4, 8])
def test_solver_wins_a_deal_and_the_line_replays(seed):
    g = new(seed)  # deals the tuned rules win within a few hundred positions
    sol = solver.solve(g, max_nodes=20_000)
    assert sol.won and solver.replay_wins(g, sol.moves)
    assert games.from_json({**g.to_dict(), "moves": [g.notation(m) for m in sol.moves]}).won
