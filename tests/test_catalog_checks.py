"""Checks that used to be copied into many game files, run once here over the catalog.

Each game's own test file keeps the rules only that game has; what every game (or every game
of a kind) must do is checked here, with the per-game data (options, a winning line) in small
tables. A game added to the catalog gets the generic checks without writing them again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

import games
from games import Move
from games.families.patience import PatienceGame
from games.search import searchable

from .conftest import all_cards, arrange, play_randomly

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


# ------------------------------------------------ a winning line: play, undo all, redo all


def _home(ranks: str, suits: str = "CDHS") -> dict[str, str]:
    """Foundations F1.. holding ``ranks`` of each suit in turn (bottom to top)."""
    return {f"F{i + 1}": " ".join(r + s for r in ranks) for i, s in enumerate(suits)}


def _twin_runs(j: int) -> list[str]:
    """The j-th of eight king-to-ace runs that use every card of two decks exactly once."""
    return ["A23456789TJQK"[r - 1] + "CDHS"[(r + j) % 4] for r in range(13, 0, -1)]


def _others(*used: str) -> str:
    """Every card of one deck not named, as arrange() text."""
    return " ".join(t for t in map(games.engine.cards.text, range(52)) if t not in used)


ANY_GRADE = object()


@dataclass(frozen=True)
class WinLine:
    """A constructed position one short line from a win: the piles (bottom to top), face-down
    counts, ``game.vars``, the line and the score of the win. ``searchable`` plays it on the
    search's copy of the game (the search makes and unmakes the same moves)."""

    piles: dict[str, str]
    script: tuple[str, ...]
    score: int
    down: dict[str, int] = field(default_factory=dict)
    vars: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    searchable: bool = False
    whole_deck: bool = False  # every card of the game's decks is on the table
    closed_when_won: bool = False  # a won game lists no move and refuses any
    start_score: int | None = None  # the score shown before the line, where it is checked
    grade: object = ANY_GRADE  # the grade of the win, where it is checked
    # game-specific facts along the line: (moves played so far, a test of the position)
    midway: tuple[tuple[int, Callable[[games.Game], bool]], ...] = ()


def _row(g: games.Game) -> list[str]:
    """The top cards of a row of piles T1.., left to right up to the first empty one."""
    out = []
    for i in range(1, len(g.layout) + 1):
        pile = g.pile(f"T{i}") if f"T{i}" in g.index else []
        if not pile:
            break
        out.append(games.engine.cards.text(pile[-1]))
    return out


def _row_of(g: games.Game, pile: str) -> list[str]:
    return [games.engine.cards.text(c) for c in g.pile(pile)]


_DECK = [r + s for s in "CDHS" for r in "A23456789TJQK"]
_ST_HELENA_LAST = _twin_runs(7)
WIN_LINES: dict[str, WinLine] = {
    "accordion": WinLine(
        {"T1": " ".join(c for c in _DECK if c not in ("KS", "QS")), "T2": "KS", "T3": "QS"},
        ("T3>T2", "T2>T1x2"), 1,  # QS on KS, then on JS
        midway=((1, lambda g: g.score == 2 and g.grade == "very good"),
                (2, lambda g: len(g.pile("T1")) == 52))),
    "bisley": WinLine(
        {**{f: " ".join(r + s for r in "A23456") for f, s in zip(("F1", "F2", "F3", "F4"), "CDHS", strict=True)},
         **{f: " ".join(r + s for r in "KQJT98") for f, s in zip(("F5", "F6", "F7", "F8"), "CDHS", strict=True)},
         "T1": "7C", "T5": "7D", "T9": "7H", "T13": "7S"},
        ("T1>F1", "T5>F6", "T9>F3", "T13>F8"), 52, whole_deck=True,
        midway=((4, lambda g: all(len(g.pile(f)) == 13 for f in ("F1", "F2", "F3", "F4"))),)),
    "pyramid": WinLine(
        {"T22": "KH", "T23": "QD", "C": "AS", "S": "2C 3C"}, ("remove:T22", "remove:C,T23"), 50,
        down={"S": 2}, closed_when_won=True, grade="best",  # the score: cards removed
        midway=((1, lambda g: g.score == 48 and g.match_points == -4),)),
    "royal_marriage": WinLine(
        {"T1": "QH", "T2": "6C", "T3": "TD", "S": "KH 9C"},
        ("deal", "remove:T2,T4", "deal", "remove:T1,T4"), 2, down={"S": 2},  # 6C..9C: TD goes
        midway=((3, lambda g: _row(g) == ["QH", "6C", "9C", "KH"] and g.score == 4),
                (4, lambda g: _row(g) == ["QH", "KH"]))),
    "scorpion": WinLine(
        {"T1": "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC",
         "T2": "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD",
         "T5": "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH",
         "T6": "KS QS JS TS 9S", "T7": "8S 7S 6S 5S 4S 3S 2S AS"},
        ("T7>T6x8",), 4, grade="win", whole_deck=True,
        midway=((0, lambda g: g.grade == "excellent"),)),
    "aces_up": WinLine(
        {"D": " ".join(r + s for s in "CDHS" for r in "23456789TJQK"
                       if r + s not in ("2S", "KS", "QS")),
         "T1": "AC", "T2": "AD 2S", "T3": "AH KS", "T4": "AS QS"},
        ("T4>D", "T3>D", "T2>D"), 48, start_score=45),
    "beleaguered_castle": WinLine(
        {**_home("A23456789TJQ"), "T1": "KC", "T4": "KD", "T5": "KH", "T8": "KS"},
        ("T1>F1", "T4>F2", "T5>F3", "T8>F4"), 52, whole_deck=True),
    "canfield": WinLine(
        {**_home("56789TJQKA23"), "T1": "4C", "T2": "4S", "W": "4D", "R": "4H"},
        ("R>F3", "T1>F1", "T2>F4", "W>F2"), 52, vars={"base": 5}, searchable=True,
        whole_deck=True, closed_when_won=True),
    "citadel": WinLine(
        {**_home("A23456789TJQ"), "T6": "KS KH KD KC"},
        ("T6>F1", "T6>F2", "T6>F3", "T6>F4"), 52, whole_deck=True,
        midway=((1, lambda g: len(g.pile("T6")) == 3),)),
    "eight_off": WinLine(
        {**_home("A23456789TJ"), "T1": "KC QC", "C8": "KD", "C1": "QD", "T5": "KH",
         "T6": "QH", "T7": "KS QS"},
        ("T1>F1", "T1>F1", "C1>F2", "C8>F2", "T6>F3", "T5>F3", "T7>F4", "T7>F4"), 52,
        whole_deck=True),
    "florentine": WinLine(
        {**_home("56789TJQKA23"), "T1": "4C", "C": "4D", "W": "4H", "T4": "4S"},
        ("T1>F1", "C>F2", "W>F3", "T4>F4"), 52, vars={"base": 5, "redeals": 0},
        whole_deck=True),
    "four_corner_towers": WinLine(
        {**_home("A23456789TJQ"), "T1": "KC", "T2": "KD", "T3": "KH", "T4": "KS"},
        ("T1>F1", "T2>F2", "T3>F3", "T4>F4"), 52, whole_deck=True),
    "golf": WinLine(
        {"W": "2H", "T1": "5S 9C", "T2": "4D", "S": "3C 8H"},
        ("deal", "T1>W", "deal", "T2>W", "T1>W"), 0, down={"S": 2}, closed_when_won=True,
        start_score=3),
    "grand_piano_fragment": WinLine(
        {**_home("A23456789TJQ", "CDHSCDHS"), "T1": "KC", "T2": "KD KH", "W": "KS",
         "S": "KC KD", "T3": "KH", "T4": "KS"},
        ("T1>F1", "T2>F3", "T2>F2", "W>F4", "T3>F7", "T4>F8", "deal", "W>F6", "deal", "W>F5"),
        104, down={"S": 2}, searchable=True, whole_deck=True, closed_when_won=True),
    "king_albert": WinLine(
        {**_home("A23456789TJQ"), "T9": "KC", "C2": "KD", "C7": "KH", "T1": "KS"},
        ("T9>F1", "C2>F2", "C7>F3", "T1>F4"), 52, whole_deck=True),
    "klondike": WinLine(
        {**_home("A23456789TJQ"), "T1": "KC", "T2": "KD", "T3": "KH", "T4": "KS"},
        ("T1>F1", "T2>F2", "T3>F3", "T4>F4"), 52, whole_deck=True),
    "la_belle_lucie": WinLine(
        {**_home("A23456789TJQ"), "T1": "KS KH", "T2": "KD", "T3": "KC"},
        ("T1>F3", "T1>F4", "T2>F2", "T3>F1"), 52, vars={"redeals": 2, "drawn": False},
        whole_deck=True),
    "leapfrog": WinLine(
        {"G9": "QC", "G15": "QD", "D": _others("QC", "QD")}, ("jump:G15,G9",), 1,
        whole_deck=True, grade=None,
        midway=((0, lambda g: g.grade == "good"), (1, lambda g: _row_of(g, "G9") == ["QD"]))),
    "make_ten": WinLine(
        {"G3": "3D", "G9": "7S", "D": _others("3D", "7S")}, ("remove:G3,G9",), 0,
        whole_deck=True, grade=None),
    "monte_carlo": WinLine(
        {"G12": "QS", "G18": "QH", "D": _others("QS", "QH")}, ("remove:G18,G12",), 0,
        whole_deck=True),
    "napoleons_tomb": WinLine(
        {**{f"F{i + 1}": " ".join(r + s for r in "KQJT98765432AKQJT98765432")
            for i, s in enumerate("SHDC")},
         "R1": "AS", "T1": "AH", "W": "AD", "S": "AC"},
        ("R1>F1", "T1>F2", "W>F3", "deal", "W>F4"), 104, down={"S": 1}, searchable=True,
        whole_deck=True),
    "pairs_eight_piles": WinLine(
        {"T8": "QH", "W2": "QC", "S": "2C 3C"}, ("remove:W2,T8",), 0, down={"S": 2}),
    "puss_in_the_corner": WinLine(
        {**_home("A23456789TJQ"), "T1": "KH", "T4": "KS", "W": "KC",
         "F1": "AC 2S 3C 4S 5C 6S 7C 8S 9C TS JC QS",
         "F2": "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
         "F4": "AS 2C 3S 4C 5S 6C 7S 8C 9S TC JS QC"},
        ("W>F1", "T4>F4", "T1>F3"), 52, whole_deck=True),
    "pyramid_pairs": WinLine(
        {"T22": "QS", "T23": "QD", "S": "AC"}, ("remove:T22,T23",), 51, down={"S": 1}),
    "selective_canfield": WinLine(
        {**_home("89TJQKA23456"), "T1": "7C", "T2": "7D", "T3": "7H", "T4": "7S"},
        ("T1>F1", "T2>F2", "T3>F3", "T4>F4"), 52, vars={"base": 8}, whole_deck=True),
    "shamrocks": WinLine(
        {**_home("A23456789T"), "T1": "KC QC JC", "T2": "KD JD", "T3": "QD",
         "T4": "KH QH JH", "T5": "KS QS JS"},
        ("T1>F1", "T1>F1", "T1>F1", "T2>F2", "T3>F2", "T2>F2", "T4>F3", "T4>F3", "T4>F3",
         "T5>F4", "T5>F4", "T5>F4"), 52, vars={"redeals": 0, "drawn": False}, whole_deck=True),
    "sliding_eleven": WinLine(
        {**{f"G{i + 1}": c for i, c in enumerate("AS 2S 3S 4S 5S 6S 7S 8S 9S TS".split())},
         "G12": "JS"}, ("slide:G12,G11",), 1, start_score=0,  # one slide from the goal
        midway=((1, lambda g: _row_of(g, "G11") == ["JS"]),)),
    "snake": WinLine(
        {**_home("A23456789TJQ", "CDHSCDHS"), "T1": "KC KD KH KS", "T2": "KC KD",
         "S": "KS KH"},
        ("T1>F4", "T1>F3", "T1>F2", "T1>F1", "T2>F6", "T2>F5", "deal", "T1>F7", "deal",
         "T1>F8"), 104, down={"S": 2}, searchable=True, whole_deck=True),
    "st_helena_spider": WinLine(
        {**{f"F{j + 1}": " ".join(_twin_runs(j)) for j in range(7)},
         "T1": " ".join(_ST_HELENA_LAST[:7]), "T2": " ".join(_ST_HELENA_LAST[7:-1]),
         "S": _ST_HELENA_LAST[-1]},
        ("T2>T1x5", "deal"), 104, down={"S": 1}, whole_deck=True),
    "streets_and_alleys": WinLine(
        {**_home("A23456789TJ"), "T1": "KC QC", "T2": "KD QD", "T3": "KH QH", "T4": "KS QS"},
        ("T1>F1", "T1>F1", "T2>F2", "T2>F2", "T3>F3", "T3>F3", "T4>F4", "T4>F4"), 52,
        whole_deck=True),
    "take_three": WinLine(
        {**_home("A23456789TJQ"), "T1": "KC", "T2": "KD", "C1": "KH", "C3": "KS"},
        ("T1>F1", "T2>F2", "C1>F3", "C3>F4"), 52, whole_deck=True),
    "trefoil": WinLine(
        {**_home("A23456789TJQ"), "T1": "KC KD KH KS"},
        ("T1>F4", "T1>F3", "T1>F2", "T1>F1"), 52, vars={"redeals": 2, "drawn": False},
        whole_deck=True),
}


def test_every_win_line_names_a_catalog_game():
    assert set(WIN_LINES) <= set(games.ids())


@pytest.mark.parametrize("gid", sorted(WIN_LINES))
def test_win_line_plays_and_undo_redo_restore_the_exact_positions(gid):
    """The line wins with the game's score and leaves no move; undoing it all gives back the
    exact starting position, and redoing it all the exact won one."""
    line = WIN_LINES[gid]
    g = games.new(gid, 1, **line.options)
    if line.searchable:
        g = searchable(g)
    g = arrange(g, line.piles, line.down, **line.vars)
    if line.whole_deck:
        assert all_cards(g) == list(range(52 * g.info.decks))
    start, start_table = g.key(), g.table()
    if line.start_score is not None:
        assert g.score == line.start_score
    checks = dict(line.midway)
    for n, m in enumerate(line.script):
        assert checks.pop(n, lambda g: True)(g), f"after {n} moves"
        assert not g.won and not g.over, m
        g.play(m)
    assert checks.pop(len(line.script), lambda g: True)(g), "at the win"
    assert not checks, f"checks after no move of the line: {sorted(checks)}"
    assert g.won and g.over and g.score == line.score
    if line.grade is not ANY_GRADE:
        assert g.grade == line.grade
    # a hint, the demo or a stray tap may still ask a won game what it allows
    assert all(g.why_illegal(m) is None for m in g.legal_moves())
    if line.closed_when_won:
        assert g.legal_moves() == []
        with pytest.raises(games.IllegalMove, match="already won"):
            g.play(line.script[-1])
    end, end_table = g.key(), g.table()
    undone = 0
    while g.can_undo:
        g.undo()
        undone += 1
    assert undone == len(line.script)
    assert g.key() == start and g.table() == start_table and not g.won
    if line.start_score is not None:
        assert g.score == line.start_score
    redone = 0
    while g.can_redo:
        g.redo()
        redone += 1
    assert redone == len(line.script)
    assert g.key() == end and g.table() == end_table and g.won


# ------------------------------------------ every rule option: random play, undo, redo, JSON


def _option_cases() -> list:
    """Each non-default choice of each option of each game, one at a time (the defaults are
    checked by test_all_games on every game)."""
    cases = []
    for gid in games.ids():
        for option in games.game_class(gid).options:
            for value in option.choices:
                if value != option.default:
                    cases.append(pytest.param(gid, {option.name: value},
                                              id=f"{gid}-{option.name}={value}"))
    return cases


@pytest.mark.parametrize("gid,opts", _option_cases())
def test_every_option_keeps_cards_and_undo_redo_and_json_restore_the_position(gid, opts):
    g = games.new(gid, 5, **opts)
    start, start_table, deck = g.key(), g.table(), all_cards(g)
    played = play_randomly(g, 40, random.Random(f"{gid}{opts}"))
    assert all_cards(g) == deck, "cards lost or duplicated"
    end, end_table = g.key(), g.table()
    copy = games.from_json(g.to_json())
    assert copy.opts == g.opts and copy.key() == end and copy.table() == end_table
    undone = 0
    while g.can_undo:
        g.undo()
        undone += 1
    assert undone == played and g.key() == start and g.table() == start_table
    while g.can_redo:
        g.redo()
    assert g.key() == end and g.table() == end_table
