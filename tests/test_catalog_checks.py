"""Checks that used to be copied into many game files, run once here over the catalog.

Each game's own test file keeps the rules only that game has; what every game (or every game
of a kind) must do is checked here, with the per-game data (options, a winning line) in small
tables. A game added to the catalog gets the generic checks without writing them again.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import games
from games import Move
from games.patience import PatienceGame

# ------------------------------------------------- fast move lists against the declared rules


def _deal_while_stock(g: games.Game, card_moves: list[Move]) -> list[Move]:
    """Scorpion deals its stock at any time: a move of its own, not a declared pile rule."""
    return [Move("deal")] if g.pile("S") else []


def _deal_when_stuck(g: games.Game, card_moves: list[Move]) -> list[Move]:
    """Four Corner Towers deals only when no card can move, unless the option says any time."""
    if g.pile("S") and (g.opts["deal_any_time"] or not card_moves):
        return [Move("deal")]
    return []


# Options each game's fast generator is checked under (every other game: its defaults only).
FAST_OPTIONS: dict[str, list[dict]] = {
    "eight_off": [{"column_cap": True}, {"column_cap": False}],
    "king_albert": [{"reserve_refill": True}, {"reserve_refill": False}],
    "snake": [{}, {"partial_series": True}],
    "grand_piano_fragment": [{}, {"empty_pile": "waste_reserve", "building": "alt"}],
    "st_helena_spider": [{}, {"auto_remove": False}],
    "la_belle_lucie": [{}, {"any_suit": True, "king_rule": True}],
    "trefoil": [{}, {"alt_colour_build": True}],
    "four_corner_towers": [{}, {"deal_any_time": True}],
}
# Moves a game makes besides the declared pile rules (given the declared card moves).
FAST_EXTRA: dict[str, Callable[[games.Game, list[Move]], list[Move]]] = {
    "scorpion": _deal_while_stock,
    "four_corner_towers": _deal_when_stuck,
}
# Games whose own legal_moves is the rule itself, not a faster copy of the declared rules.
FAST_OWN_RULES = {
    "puss_in_the_corner": "its waste takes cards the pile rules do not describe",
    "selective_canfield": "the first card chosen sets the base rank before any deal",
}
# How many random moves (and from how many seeds) the longer-lived games are followed.
FAST_SEEDS: dict[str, tuple[int, ...]] = {"beleaguered_castle": (1, 2, 3, 4), "bisley": (1, 2, 3, 4)}
FAST_STEPS: dict[str, int] = {"snake": 150, "grand_piano_fragment": 150, "st_helena_spider": 150}


def _fast_generator_cases() -> list:
    cases = []
    for gid in games.ids():
        g = games.new(gid, 1)
        if not isinstance(g, PatienceGame) or type(g).legal_moves is PatienceGame.legal_moves:
            continue  # no copy of its own to check: the declared generator is the one used
        if gid in FAST_OWN_RULES:
            continue
        for opts in FAST_OPTIONS.get(gid, [{}]):
            cases.append(pytest.param(gid, opts, id=f"{gid}-{opts}" if opts else gid))
    return cases


@pytest.mark.parametrize("gid,opts", _fast_generator_cases())
def test_fast_move_list_equals_the_declared_rules_on_random_play(gid, opts):
    """A game's own fast legal_moves must give exactly the moves its declared pile rules give
    (the search relies on it), on random play that often takes the stock moves too."""
    extra = FAST_EXTRA.get(gid, lambda g, m: [])
    for seed in FAST_SEEDS.get(gid, (1, 2, 3)):
        g, rnd = games.new(gid, seed, **opts), random.Random(seed)
        for _ in range(FAST_STEPS.get(gid, 80)):
            moves = g.legal_moves()
            assert len(moves) == len(set(moves)), "duplicate moves"
            card_moves = PatienceGame.legal_moves(g)
            assert sorted(moves) == sorted(card_moves + extra(g, card_moves)), (seed, g.history)
            if not moves:
                break
            others = [m for m in moves if m.kind != "move"]
            g.play(rnd.choice(others if others and rnd.random() < 0.3 else moves))


def test_the_own_rules_exceptions_are_games_that_override_the_move_list():
    """The exception table names real games with their own move list, so it cannot go stale."""
    for gid in FAST_OWN_RULES:
        g = games.new(gid, 1)
        assert isinstance(g, PatienceGame) and type(g).legal_moves is not PatienceGame.legal_moves
