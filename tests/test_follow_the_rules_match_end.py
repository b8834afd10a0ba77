"""Follow the Rules' match end says one thing: the count of a hand's points stops once a
player reaches the target, in the order High, Low, Jack, Game (GAMES.md §B6 item 9), and the
hand's result names the point that reached it and the points that did not count."""

from __future__ import annotations

from games.families.trick_records import hand_result_data
from tests.test_follow_the_rules import position


def test_the_visitor_reaches_the_target_with_jack_and_the_computers_game_is_not_counted():
    # the reported match: the visitor at 7 takes High, Low and Jack, the computer (at 9)
    # takes nearly every card point, so Game is the computer's but comes too late
    g = position("", "", won1="AH 2H JH 3C 4C", scores=(7, 9))
    r = g.score_hand()
    assert r.earned == (3, 1) and r.counted == (3, 0) and r.match_winner == 0
    assert r.reached == "jack" and r.not_counted() == ("game",)
    data = hand_result_data(r)
    assert data["reached"] == "jack" and data["not_counted"] == ["game"]
    assert data["counted"] == [3, 0]
    g._end_hand()
    assert g.won and g.final_scores == (10, 9)


def test_the_computer_reaches_it_with_high_and_nothing_after_counts():
    g = position("", "", won1="2H JH TC TD TS AS", won2="AH", scores=(9, 9))
    r = g.score_hand()
    assert r.reached == "high" and r.match_winner == 1
    assert r.not_counted() == ("low", "jack", "game") and r.counted == (0, 1)


def test_a_hand_that_ends_no_match_counts_every_point_and_names_none():
    g = position("", "", won1="AH 2H JH TC TD TS TH AS")
    r = g.score_hand()
    assert r.reached == "" and r.not_counted() == () and r.counted == r.earned == (4, 0)


def test_a_tied_game_is_not_a_point_left_uncounted():
    # the visitor reaches 10 with Jack; Game is a tie of card points: nothing is left out
    g = position("", "", won1="AH 2H JH TC TD TS KC QC", scores=(7, 0))
    r = g.score_hand()
    assert r.game == -1 and r.reached == "jack" and r.not_counted() == ()
