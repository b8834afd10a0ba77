"""Follow the Rules (GAMES.md §B6, Shasta Sam): the source's deal, following suit or trump,
the winner drawing first, High/Low/Jack/Game, the match order, notation and replay."""

from __future__ import annotations

import json

import pytest

import games
from games.engine import cards as C
from games.families.seats import computer_mismatches, replay_visitor
from games.families.tricks import card_points, trick_winner
from games.follow_the_rules import FollowTheRules
from kiosk.commands import cli

from .conftest import arrange


def cs(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def position(hand1: str, hand2: str, *, turned: str = "", stock: str = "", trick: str = "",
             won1: str = "", won2: str = "", trump: int = C.HEARTS, **vars) -> FollowTheRules:
    """A constructed position; cards no pile names are put in the captured pile ``C2``
    unless ``won2`` is given (then in ``C1``), so every card is somewhere once."""
    g = games.new("follow_the_rules", 7)
    named = " ".join((hand1, hand2, turned, stock, trick, won1, won2)).split()
    free = " ".join(C.text(c) for c in range(52) if C.text(c) not in named)
    if won2:
        won1 = f"{won1} {free}"
    else:
        won2 = f"{won2} {free}"
    n1 = len(trick.split())
    turn = vars.pop("turn", 0)
    base = dict(turn=turn, leader=turn if not n1 else 1 - turn,
                phase="follow" if n1 else "lead", trump=trump,
                trump_card=C.parse(turned) if turned else C.card(C.ACE, trump) + 2,
                last=(), result=(), hand_no=1, dealer=1, scores=(0, 0), results=(),
                winner=-1)
    base.update(vars)
    return arrange(g, {"S": stock, "R": turned, "T": trick, "H1": hand1, "H2": hand2,
                       "C1": won1, "C2": won2},
                   down={"S": len(stock.split()), "H2": len(hand2.split())}, **base)


def plays(g: games.Game) -> set[str]:
    return {g.notation(m) for m in g.legal_moves()}


# ---------------------------------------------------------------------- the deal [SRC]
def test_the_deal_is_the_sources_six_each_and_the_turned_card_under_the_stock():
    g = games.new("follow_the_rules", 4711)
    assert [len(g.pile(p)) for p in ("H1", "H2", "S", "R")] == [6, 6, 39, 1]
    assert g.down[g.index["H2"]] == 6 and g.down[g.index["S"]] == 39
    turned = g.pile("R")[0]
    assert g.trump == C.SUIT[turned] and g.down[g.index["R"]] == 0
    dealer = g.vars["dealer"]
    assert g.to_move == 1 - dealer and g.vars["leader"] == 1 - dealer  # non-dealer leads
    assert games.new("follow_the_rules", 4711).key() == g.key()


def test_the_dealer_alternates_and_each_hand_is_a_fresh_deal():
    g = games.new("follow_the_rules", 12)
    first = g.vars["dealer"]
    g._end_hand()
    g.play("next")
    assert g.vars["hand_no"] == 2 and g.vars["dealer"] == 1 - first
    assert sorted(c for p in g.cards for c in p) == list(range(52))
    assert len(g.pile("H1")) == 6 and not g.pile("C1") and not g.pile("C2")


# ---------------------------------------------------------------------- following
def test_the_second_player_must_follow_suit_or_trump():
    g = position("2H", "5C 9C 3H KS 4D 7D", trick="TC", turn=1)
    assert plays(g) == {"play:5C", "play:9C", "play:3H"}
    reason = g.why_illegal(g.parse_move("play:KS"))
    assert str(reason) == "You must follow suit with clubs or play a trump (hearts)."


def test_with_neither_suit_nor_trump_any_card_may_be_played():
    g = position("2H", "KS 4D 7D", trick="TC", turn=1)
    assert plays(g) == {"play:KS", "play:4D", "play:7D"}


def test_when_trumps_are_led_a_trump_must_follow():
    g = position("2S", "KH 4H 7D", trick="5H", turn=1)
    assert plays(g) == {"play:KH", "play:4H"}
    assert str(g.why_illegal(g.parse_move("play:7D"))) == ("Trumps were led: you must play "
                                                            "a trump.")


def test_the_higher_card_of_the_suit_led_wins_unless_a_trump_is_played():
    h = C.HEARTS
    assert trick_winner(C.parse("TC"), C.parse("AC"), h) == 1  # the ace is high
    assert trick_winner(C.parse("TC"), C.parse("9C"), h) == 0
    assert trick_winner(C.parse("AC"), C.parse("2H"), h) == 1  # trumped
    assert trick_winner(C.parse("5H"), C.parse("AC"), h) == 0  # off suit loses
    assert trick_winner(C.parse("5H"), C.parse("6H"), h) == 1


# ---------------------------------------------------------------------- drawing
def test_the_winner_draws_the_top_card_first_then_leads():
    # the stock, bottom to top: ... 8S 3D; the visitor's ace wins and draws the 3♦
    g = position("AC 4S", "TC 5S", stock="9S 8S 3D", turned="6H")
    g.play("play:AC")
    g.play("play:TC")
    assert C.parse("3D") in g.pile("H1") and C.parse("8S") in g.pile("H2")
    assert g.to_move == 0 and g.phase == "lead"
    assert g.vars["last"] == (0, C.parse("AC"), C.parse("TC"), 0)
    assert g.pile("C1")[-2:] == cs("AC TC")


def test_the_turned_trump_card_is_the_last_card_drawn_by_the_loser():
    g = position("AC 4S", "TC 5S", stock="8S", turned="6H")
    g.play("play:AC")
    g.play("play:TC")
    assert C.parse("8S") in g.pile("H1") and C.parse("6H") in g.pile("H2")
    assert not g.pile("S") and not g.pile("R") and g.stock_left() == 0
    view = g.view(0)
    assert view.shown[1] == (C.parse("6H"),)  # everyone saw who took the trump card
    assert view.counts["stock"] == 0


def test_the_last_tricks_are_played_from_the_hands_and_the_hand_is_scored():
    g = position("AH 2C", "3C 4C", won1="JH", won2="2H")
    g.play("play:AH")
    g.play("play:3C")
    g.play("play:2C")
    g.play("play:4C")
    assert g.phase == "done" and g.legal_moves() == [games.Move("next")]
    r = g.vars["result"]
    assert (r.high, r.low, r.jack) == (0, 1, 0)


# ---------------------------------------------------------------------- scoring
def test_high_low_jack_and_game_are_a_point_each():
    assert card_points(range(52)) == 80
    g = position("", "", won1="AH JH TC TD TS")
    r = g.score_hand()
    assert (r.high, r.low, r.jack, r.game) == (0, 1, 0, 1)  # C2 holds the rest: 46 points
    assert r.card_points == (35, 45) and r.earned == (2, 2)


def test_no_one_scores_game_on_a_tie_of_card_points():
    # C1: the four tens (40); C2 every other card (40)
    g = position("", "", won1="TC TD TH TS")
    r = g.score_hand()
    assert r.card_points == (40, 40) and r.game == -1
    assert r.earned == (0, 3)


def test_when_both_can_reach_the_target_high_low_jack_game_count_in_order():
    # at 9 : 9, the computer takes High, so it reaches 10 first though the visitor has
    # Low, Jack and Game
    g = position("", "", won1="2H JH TC TD TS AS", won2="AH", scores=(9, 9))
    r = g.score_hand()
    assert r.earned == (3, 1) and r.counted == (0, 1) and r.match_winner == 1
    g._end_hand()
    assert g.phase == "match" and g.lost and not g.won and g.vars["scores"] == (9, 10)
    assert not g.legal_moves() and str(g.explain(games.Move("next"))) == "The match is over."


def test_the_match_to_seven_is_the_option():
    g = position("", "", won1="AH 2H JH TC TD TS AS", target=7, scores=(4, 0))
    g.opts["target"] = 7
    g._end_hand()
    assert g.won and g.vars["scores"] == (7, 0)
    assert games.new("follow_the_rules", 1, target=7).opts["target"] == 7
    with pytest.raises(games.GameError, match="target must be one of 10, 7"):
        games.new("follow_the_rules", 1, target=8)


# ---------------------------------------------------------------------- notation, replay
def test_notation_round_trips_and_bad_text_is_refused():
    g = games.new("follow_the_rules", 3)
    for m in g.legal_moves():
        assert g.parse_move(g.notation(m)) == m
    for bad in ("play:ZZ", "play", "next:AS", "discard:AS", "play:1S"):
        with pytest.raises(games.IllegalMove):
            g.parse_move(bad)
    card = next(c for c in range(52) if c not in g.pile("H1"))
    assert str(g.why_illegal(games.Move("play", extra=(card,)))) == (
        f"The {C.pretty(card)} is not in your hand.")


def test_a_saved_match_replays_and_the_visitor_moves_alone_rebuild_it():
    g = games.new("follow_the_rules", 4711, level="easy")
    visitor = []
    replay_visitor(g, [])
    for _ in range(8):
        move = g.legal_moves()[0]
        visitor.append(g.notation(move))
        replay_visitor(g, [move])
    copy = games.from_json(g.to_json())
    assert copy.key() == g.key() and computer_mismatches(copy) == []
    again = replay_visitor(games.new("follow_the_rules", 4711, level="easy"), visitor)
    assert again.key() == g.key()
    assert json.loads(g.to_json())["computer"] == {"level": "easy", "version": "trick-1"}


def test_kiosk_deal_hides_the_computers_hand_and_names_the_trumps(capsys):
    assert cli.main(["deal", "follow_the_rules", "--seed", "4711"]) == 0
    out = capsys.readouterr().out
    h2 = next(line for line in out.splitlines() if line.strip().startswith("H2"))
    assert h2.split()[2:] == ["##"] * 6
    assert "to move:" in out and "version trick-1" in out
    assert cli.main(["moves", "follow_the_rules", "--seed", "4711", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)
    assert len(moves) == 6 and all(m["move"].startswith("play:") for m in moves)
