"""Poker Squares (000 #25) and the shared poker hand evaluator."""

from __future__ import annotations

import pytest

import games
from games.engine.cards import JOKER, parse, text
from games.families import poker as P

from .conftest import arrange, refused

# The source's figures are lost; these grids have exactly the hands its worked sums name.
# Example 1: a row of four 7s and a straight-flush column.
EXAMPLE_1 = """\
7C 7H 7S 7D TD
TC 8H 2S 5D 9C
KC 9H 9S 9D JC
6H JH JS KD 3C
QC TH TS 3D AS"""
# Example 2: the same 25 cards rearranged ([例1]).
EXAMPLE_2 = """\
7C 7H 7S 7D AS
QC 8H JS TD 9D
9C 9H 9S KD KC
JC JH 2S 5D 6H
TC TH TS 3D 3C"""


def hand(cards: str) -> list[int]:
    return [parse(c) for c in cards.split()]


def grid(text_grid: str, **extra: str) -> dict[str, str]:
    piles = {f"G{i + 1}": c for i, c in enumerate(text_grid.split()) if c != "--"}
    piles.update(extra)
    return piles


def filled(game_opts: dict | None = None, layout: str = EXAMPLE_2, **extra: str) -> games.Game:
    return arrange(games.new("poker_squares", 1, **(game_opts or {})), grid(layout, **extra))


# ------------------------------------------------------------------ the evaluator
@pytest.mark.parametrize("cards, category", [
    ("AS KS QS JS TS", P.ROYAL_FLUSH),
    ("9H 8H 7H 6H 5H", P.STRAIGHT_FLUSH),
    ("5D 4D 3D 2D AD", P.STRAIGHT_FLUSH),
    ("7C 7H 7S 7D 2C", P.FOUR_OF_A_KIND),
    ("QC QH QS 4D 4C", P.FULL_HOUSE),
    ("KD 9D 7D 4D 2D", P.FLUSH),
    ("AH KC QD JS TC", P.STRAIGHT),
    ("5H 4C 3D 2S AC", P.STRAIGHT),
    ("QH KC AD 2S 3C", P.HIGH_CARD),
    ("8C 8H 8S KD 2C", P.THREE_OF_A_KIND),
    ("JC JH 3S 3D 9C", P.TWO_PAIR),
    ("6C 6H AS KD 2C", P.ONE_PAIR),
    ("6C 6H 6S", P.THREE_OF_A_KIND),
    ("6C 6H 2S 2D", P.TWO_PAIR),
    ("2C 3C 4C 5C", P.HIGH_CARD),  # straights and flushes need five cards
    ("", P.HIGH_CARD),
])
def test_categories(cards, category):
    assert P.category(hand(cards)) == category


def test_hands_compare_like_poker():
    assert P.evaluate(hand("5H 4C 3D 2S AC")) < P.evaluate(hand("6H 5C 4D 3S 2C"))
    assert P.evaluate(hand("AH KC QD JS TC")) > P.evaluate(hand("KH QC JD TS 9C"))
    assert P.evaluate(hand("KH KC 3D 3S 2C")) > P.evaluate(hand("QH QC JD JS AC"))
    assert P.evaluate(hand("8H 8C AD 3S 2C")) > P.evaluate(hand("8D 8S KD 3C 2H"))


def test_wild_cards():
    assert P.evaluate(hand("KS QS JS TS JK")) == (P.ROYAL_FLUSH, 14)
    assert P.category(hand("7C 7H 7S 7D JK")) == P.FIVE_OF_A_KIND
    assert P.category(hand("2C 5H 9S JD JK")) == P.ONE_PAIR
    assert P.category(hand("JK")) == P.HIGH_CARD
    deuces = hand("2C 2D 9S 9H 4C")
    assert P.category(deuces, wild=lambda c: c >= JOKER or text(c)[0] == "2") == \
        P.FOUR_OF_A_KIND
    # the "bug": an ace, or a card completing a straight or a flush, nothing else
    assert P.category(hand("9C 9H 4S 6D JK"), wild=P.is_joker) == P.THREE_OF_A_KIND
    assert P.evaluate(hand("9C 9H 4S 6D JK"), bug=True)[:2] == (P.ONE_PAIR, 9)
    assert P.category(hand("AC AH 4S 6D JK"), bug=True) == P.THREE_OF_A_KIND
    assert P.category(hand("9C TH JS QD JK"), bug=True) == P.STRAIGHT


def test_points_tables():
    assert P.points(hand("AS KS QS JS TS")) == 100
    assert P.points(hand("AS KS QS JS TS"), "english") == 30
    assert P.points(hand("7C 7H 7S 7D JK")) == 50  # five of a kind scores as four
    assert P.points(hand("AH KC QD JS TC"), "english") == 12


# ------------------------------------------------------------------ the source's examples
@pytest.mark.parametrize("layout, system, rows, cols", [
    (EXAMPLE_1, "english", [16, 0, 6, 1, 1], [0, 30, 5, 5, 0]),
    (EXAMPLE_1, "american", [50, 0, 10, 2, 2], [0, 75, 20, 20, 0]),
    (EXAMPLE_2, "english", [16, 12, 10, 1, 10], [5, 30, 5, 5, 0]),
    (EXAMPLE_2, "american", [50, 15, 25, 2, 25], [20, 75, 20, 20, 0]),
])
def test_worked_examples(layout, system, rows, cols):
    g = filled({"scoring": system}, layout)
    assert g.line_points() == rows + cols
    assert g.score == sum(rows) + sum(cols)


def test_worked_example_totals_and_grades():
    assert sorted(EXAMPLE_1.split()) == sorted(EXAMPLE_2.split())
    g = filled({"scoring": "english"}, EXAMPLE_1)
    assert (g.score, g.grade) == (64, "excellent")  # 优秀水平
    g = filled({}, EXAMPLE_1)
    assert (g.score, g.grade, g.won) == (179, "good", False)  # 良好以上
    g = filled({"scoring": "english"}, EXAMPLE_2)
    assert (g.score, g.grade) == (94, "excellent")
    g = filled({}, EXAMPLE_2)
    assert (g.score, g.grade) == (252, "excellent")
    assert g.won and g.over and not g.legal_moves()


# ------------------------------------------------------------------ placing
def test_deal_shows_the_next_card_and_the_first_goes_top_left():
    g = games.new("poker_squares", 4)
    s = g.index["S"]
    assert len(g.cards[s]) == 52 and g.down[s] == 51
    assert all(g.pile(f"G{i}") == [] for i in range(1, 26))
    assert [g.notation(m) for m in g.legal_moves()] == ["place:S,G1"]
    refused(g, "place:S,G13", "top-left square")
    top = g.cards[s][-1]
    g.play("place:S,G1")
    assert g.pile("G1") == [top] and g.down[s] == 50 and len(g.cards[s]) == 51
    assert len(g.legal_moves()) == 24
    refused(g, "place:S,G1", "already taken")
    refused(g, "G1>G2", "never move")


def test_free_first_card_option():
    g = games.new("poker_squares", 4, free_first_card=True)
    assert len(g.legal_moves()) == 25
    g.play("place:S,G13")


def test_game_ends_after_25_cards_with_the_rest_unused():
    g = games.new("poker_squares", 9)
    for _ in range(25):
        g.play(g.legal_moves()[0])
    assert g.over and not g.legal_moves() and len(g.pile("S")) == 27
    assert g.down[g.index["S"]] == 27  # no further card is shown
    refused(g, "place:S,G1", "All 25 squares")


def test_adjacent_option_and_its_dead_end():
    g = games.new("poker_squares", 2, adjacent=True)
    g.play("place:S,G1")
    assert sorted(g.notation(m) for m in g.legal_moves()) == \
        ["place:S,G2", "place:S,G6", "place:S,G7"]
    refused(g, "place:S,G13", "next to the one placed before")
    g.play("place:S,G7")
    assert len(g.legal_moves()) == 7
    # every neighbour of the last card taken: any empty square will do
    layout = "2C 3C 4C -- -- 5C 6C 7C -- -- 8C 9C TC -- -- -- -- -- -- -- -- -- -- -- --"
    g = arrange(games.new("poker_squares", 2, adjacent=True), grid(layout, S="KH QH"),
                {"S": 1}, last=6)
    assert len(g.legal_moves()) == 16
    g.vars["last"] = 2  # beside G3 only G4 and G9 are free
    assert sorted(g.notation(m) for m in g.legal_moves()) == ["place:S,G4", "place:S,G9"]


# ------------------------------------------------------------------ variants
def test_rearrange_after_dealing_all():
    g = games.new("poker_squares", 6, rearrange="deal_all")
    assert all(len(g.pile(f"G{i}")) == 1 for i in range(1, 26))
    assert len(g.pile("S")) == 27 and g.down[g.index["S"]] == 27
    moves = g.legal_moves()
    assert len(moves) == 300 + 1 and moves[-1] == games.Move("finish")
    a, b = g.pile("G1")[0], g.pile("G25")[0]
    g.play("swap:G25,G1")
    assert g.pile("G1") == [b] and g.pile("G25") == [a]
    g.play("finish")
    assert g.over and not g.legal_moves()
    refused(g, "swap:G1,G2", "finished")


def test_rearrange_to_the_worked_example_wins():
    g = filled({"rearrange": "deal_all"}, EXAMPLE_1)
    assert g.score == 179 and not g.over
    # 例1's swaps: 10 and 9, 6 and 8, the 7/5/4 triangle, 8 and 5, 3 and A ... any order works
    target = EXAMPLE_2.split()
    for i in range(25):
        j = next(k for k in range(i, 25) if text(g.pile(f"G{k + 1}")[0]) == target[i])
        if j != i:
            g.play(f"swap:G{i + 1},G{j + 1}")
    assert g.score == 252 and not g.won
    g.play("finish")
    assert g.won and g.grade == "excellent"


def test_rearrange_after_playing_keeps_the_placement_score():
    g = games.new("poker_squares", 8, rearrange="after_play")
    for _ in range(24):
        g.play(g.legal_moves()[0])
    assert g.placement_score is None
    refused(g, "swap:G1,G2", "only when all 25")
    g.play(g.legal_moves()[0])
    placed = g.score
    assert g.placement_score == placed and len(g.legal_moves()) == 301
    g.play("swap:G1,G7")
    assert g.placement_score == placed


def test_joker_mixed_in_always_lands_in_the_grid():
    for seed in range(1, 20):
        g = games.new("poker_squares", seed, joker="mixed_in")
        assert JOKER in g.pile("S")[-25:] and len(g.pile("S")) == 53
        while g.legal_moves():
            g.play(g.legal_moves()[0])
        assert any(g.pile(f"G{i}") == [JOKER] for i in range(1, 26))


def test_joker_designation_serves_its_row_and_column_together():
    layout = """\
JK KS QS JS TS
7C -- -- -- --
7H -- -- -- --
7D -- -- -- --
2C -- -- -- --"""
    g = filled({"free_first_card": True}, layout)
    # A♠ makes a royal flush (100) and three 7s (10); 7♠ would make four 7s (50) but only a
    # flush (20); 9♠ a straight flush (75) and three 7s (10)
    assert g.designation() == parse("AS")
    assert g.score == 110
    g = filled({"free_first_card": True}, layout.replace("JK", "AS"))
    assert g.designation() is None and g.score == 110


def test_joker_swapped_in_at_the_end():
    g = games.new("poker_squares", 3, joker="replace")
    assert g.pile("J") == [JOKER] and g.pile("D") == []
    refused(g, "joker:J,G1", "only when the grid is complete")
    g = filled({"joker": "replace"}, EXAMPLE_1, J="JK")
    assert g.score == 179 and len(g.legal_moves()) == 26
    g.play("joker:J,G20")  # the 3♣ ends row 4 and column 5: the joker makes a third jack
    assert g.pile("D") == [parse("3C")] and g.pile("G20") == [JOKER]
    assert g.score > 179 and g.over
    refused(g, "joker:J,G1", "finished|already been used")
    g.undo()
    g.play("finish")
    assert g.score == 179 and g.over


def test_layout_fits_the_screen():
    for joker in ("off", "replace"):
        g = games.new("poker_squares", 1, joker=joker)
        assert max(p.x for p in g.layout) + 1 <= 10.5
        assert max(p.y for p in g.layout) + 1.4 <= 6.5


def test_option_checks():
    with pytest.raises(games.GameError):
        games.new("poker_squares", 1, scoring="french")
    with pytest.raises(games.GameError):
        games.new("poker_squares", 1, joker="both")


def test_the_plan_of_a_position_is_made_once_for_the_search_and_the_suggestion(monkeypatch):
    """A hint that runs out of time asks for the plan twice (the search, then the
    suggestion): the second time it comes from the cache, the same plan."""
    from games.search import poker_squares as ps
    from kiosk.solving.hintworker import answer

    g = games.new("poker_squares", 5)
    for _ in range(18):                                 # a few squares left: a quick plan
        g.play(g.legal_moves()[0])
    made = []
    plan_of = ps.PokerSquaresSearch._arrange
    monkeypatch.setattr(ps.PokerSquaresSearch, "_arrange",
                        lambda self: made.append(1) or plan_of(self))
    monkeypatch.setattr(ps, "_PLANS", {})
    monkeypatch.setattr(ps.PokerSquaresSearch, "PLAN_SWAPS", 300)  # a cheap plan will do
    first = answer(g, should_stop=lambda: True)
    assert len(made) == 1 and first["suggestion"]
    assert answer(g, should_stop=lambda: True) == first and len(made) == 1
    from games.search import searchable

    fresh = searchable(g)
    assert fresh._arrangement() == plan_of(fresh)       # the cached plan is the plan
