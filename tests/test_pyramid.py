"""Pyramid (000 #13)."""

from __future__ import annotations

import games
from games.engine.cards import parse
from games.families.grid import triangle_covers
from games.pyramid import ROWS

from .conftest import arrange, refused


def new(**opts) -> games.Game:
    return games.new("pyramid", 1, **opts)


def test_covers_geometry():
    cov = triangle_covers(ROWS)
    assert len(cov) == 28
    assert cov[0] == (1, 2) and cov[1] == (3, 4) and cov[2] == (4, 5)
    assert cov[15] == (21, 22) and cov[21] == ()


def test_deal_shape():
    g = games.new("pyramid", 9)
    pyr = [g.index[f"T{i}"] for i in range(1, 29)]
    assert all(len(g.cards[p]) == 1 for p in pyr)
    assert [g.down[p] for p in pyr] == [1] * 21 + [0] * 7
    s = g.index["S"]
    assert len(g.cards[s]) == 24 and g.down[s] == 24
    assert g.pile("C") == g.pile("W") == g.pile("D") == []
    assert g.vars["pass"] == 1 and g.match_points == -52
    up = games.new("pyramid", 9, all_face_up=True)
    assert not any(up.down[p] for p in pyr) and up.cards == g.cards


def test_kings_alone_and_pairs_adding_to_13():
    g = arrange(new(), {"T16": "5S", "T22": "6H", "T23": "7C", "T24": "KD", "T25": "6D"},
                {"T16": 1})
    refused(g, "remove:T22", "Only a king can be removed on its own")
    refused(g, "remove:T22,T25", "add up to 13")
    refused(g, "remove:T16,T24", "still covered")
    g.play("remove:T24")
    g.play("remove:T23,T22")  # either order
    assert g.down[g.index["T16"]] == 0  # uncovered, so turned up
    assert [games.engine.cards.text(c) for c in g.pile("D")] == ["KD", "6H", "7C"]
    g.undo()
    assert g.down[g.index["T16"]] == 1 and g.pile("T22") == [parse("6H")]


def test_turning_the_stock_and_pairing_current_with_waste():
    g = arrange(new(), {"T22": "KS", "S": "3C 4H 9D"}, {"S": 3})
    g.play("deal")
    assert g.pile("C") == [parse("9D")] and g.pile("W") == []
    g.play("deal")
    assert g.pile("C") == [parse("4H")] and g.pile("W") == [parse("9D")]
    g.play("remove:C,W")  # the current card with the waste card under it
    assert g.pile("C") == g.pile("W") == [] and len(g.pile("S")) == 1


def test_three_passes_then_the_apex_rescue():
    g = arrange(new(), {"T1": "4S", "T2": "JD", "T3": "9C", "S": "2H"},
                {"T1": 1, "S": 1})
    refused(g, "redeal", "still cards in the stock")
    g.play("deal")
    refused(g, "rescue:T1", "only after the last pass")
    g.play("redeal")
    assert g.vars["pass"] == 2 and g.pile("S") == [parse("2H")] and g.down[g.index["S"]] == 1
    g.play("deal")
    g.play("redeal")
    g.play("deal")
    refused(g, "redeal", "All three passes have been used")
    refused(g, "deal", "The stock is empty and all three passes")
    g.play("rescue:T1")  # covered, but taken out and used as the current card
    assert g.pile("C") == [parse("4S")] and g.down[g.index["C"]] == 0
    assert g.pile("W") == [parse("2H")]
    g.play("remove:C,T3")
    g.play("remove:T2,W")
    assert g.won and g.vars["cleared"] == 3 and g.match_points == 20 and g.grade == "winner"
    refused(g, "rescue:T1", "already won")


def test_rescue_is_off_in_scored_play_and_by_option():
    pos = {"T1": "4S", "T2": "JD", "T3": "8C"}
    for opts, reason in (({"scored_match": True}, "not allowed in scored play"),
                         ({"apex_rescue": False}, "switched off")):
        g = arrange(new(**opts), pos, {"T1": 1}, **{"pass": 3})
        assert g.legal_moves() == []
        refused(g, "rescue:T1", reason)


def test_win_in_a_later_pass_scores_less():
    g = arrange(new(), {"T22": "KH", "W": "5C"}, **{"pass": 2})
    g.play("remove:T22")
    assert g.won and g.match_points == 35 - 1 and g.grade == "winner"


def test_scored_match_plays_on_to_save_points():
    g = arrange(new(scored_match=True), {"T22": "KH", "C": "8S", "S": "KC 5D"}, {"S": 2})
    g.play("remove:T22")
    assert g.vars["cleared"] == 1 and not g.won and g.match_points == 47
    g.play("deal")
    g.play("remove:C,W")
    g.play("deal")
    g.play("remove:C")
    assert g.won and g.over and g.match_points == 50


def test_pair_pile_top_stays_available():
    g = arrange(new(pair_pile=True),
                {"D": "4H", "T22": "9S", "T23": "6C", "T24": "7H", "W": "9D", "C": "JC"})
    refused(g, "remove:D,W", "only with a pyramid card or the current card")
    g.play("remove:T22,D")  # the pair pile's 4 with the pyramid's 9: the 9 goes on top
    assert g.pile("D") == [parse("4H"), parse("9S")]
    moves = {g.notation(m) for m in g.legal_moves()}
    assert {"remove:T23,T24", "remove:T24,T23"} <= moves  # which card ends on top matters
    g.play("remove:T24,T23")
    assert g.pile("D")[-1] == parse("6C")


def test_king_on_the_pair_pile_is_spent_and_removed_cards_are_out_of_play():
    g = arrange(new(pair_pile=True), {"D": "KS", "T22": "2H"})
    refused(g, "remove:D", "only be used in a pair")
    plain = arrange(new(), {"D": "4H", "T22": "9S"})
    refused(plain, "remove:D,T22", "out of play")
    refused(plain, "T22>W", "pick two cards that add up to 13")


def test_the_score_shown_starts_at_zero_and_counts_the_cards_removed():
    """The table shows ``score``: a visitor read the match points' -52 at the deal as a
    penalty; the cards taken off start at 0 and only grow."""
    from games.engine.game_texts import texts

    for game_id in ("pyramid", "pyramid_pairs"):
        g = games.new(game_id, 9)
        assert g.score == 0 and g.match_points == -52
        assert texts(game_id).score_label == "cards removed"
    g = arrange(new(), {"T22": "KH", "T23": "6S", "C": "7D"})
    before = g.score
    g.play("remove:T22")
    assert g.score == before + 1 and g.score > 0


def test_a_scored_match_shows_its_match_points_when_the_game_is_over():
    g = arrange(new(scored_match=True), {"T22": "KH", "C": "8S", "S": "KC 5D"}, {"S": 2})
    g.play("remove:T22")
    assert g.grade is None or isinstance(g.grade, str)
    for move in ("deal", "remove:C,W", "deal", "remove:C"):
        g.play(move)
    assert g.over and g.grade.msgid == "Match points: {n}" and g.grade.fields == {"n": 50}


def test_the_rescued_apex_must_still_be_paired():
    """GAMES.md §13: the win is all 28 pyramid cards removed, and the rescue only lets the
    apex be used as the current card. Only the apex left and no partner for it: the rescue
    is the one move, and after it the game is lost, not won (it was won, the apex never
    paired)."""
    g = arrange(new(), {"T1": "4S", "W": "5C"}, **{"pass": 3})
    assert [g.notation(m) for m in g.legal_moves()] == ["rescue:T1"]
    g.play("rescue:T1")
    assert g.pile("C") == [parse("4S")] and not any(g.cards[p] for p in g.pyr)
    assert not g.won and g.vars["cleared"] == 0 and g.legal_moves() == [] and g.over
    assert g.grade is None and g.match_points == -2


def test_the_rescued_apex_paired_clears_the_pyramid():
    g = arrange(new(), {"T1": "4S", "W": "5C 9C"}, **{"pass": 3})
    g.play("rescue:T1")
    assert not g.won
    g.play("remove:C,W")  # the apex with its partner: now all 28 are gone
    assert g.won and g.vars["cleared"] == 3 and g.vars["apex"] == -1
    g.undo()
    assert not g.won and g.vars["apex"] == parse("4S") and g.pile("C") == [parse("4S")]
    king = arrange(new(), {"T1": "KD", "W": "5C"}, **{"pass": 3})
    king.play("rescue:T1")
    king.play("remove:C")  # a king leaves alone, rescued or not
    assert king.won


def test_a_waiting_apex_is_kept_apart_in_the_solvers_key():
    """The search names talon cards by rank; the rescued apex waiting for its partner is the
    one the win needs, so two positions that differ only in which of two equal ranks is the
    apex (or whether the apex was paired already) are different positions to it."""
    from games.search import searchable

    pos = {"T3": "2H", "C": "5S", "W": "5D"}
    keys = []
    for apex in ("5S", "5D", None):
        g = searchable(arrange(new(), pos, **{"pass": 3, "rescued": True}))
        g.vars["apex"] = parse(apex) if apex else -1
        keys.append(g.solver_key())
    assert len(set(keys)) == 3
