"""The families a new game against the computer is written from (issue 29): the two-seat
match, the knock and its lay-offs, the draw at a betting table and the pair pile, each
checked on its own, apart from the games that use them today."""

from __future__ import annotations

import pytest

import games
from games.draw_poker import DECK, DrawPoker
from games.engine import cards as C
from games.engine.model import IllegalMove, Move
from games.engine.reason import Reason
from games.families import knock, pairing
from games.families.draw_table import DrawTable, draw_notation, parse_draw_move
from games.families.seats import between_hands
from games.families.two_seats import TwoSeatMatch
from games.follow_the_rules import FollowTheRules
from games.gin_rummy import GinRummy


def cs(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def test_the_games_are_written_from_the_families():
    assert issubclass(GinRummy, TwoSeatMatch) and issubclass(FollowTheRules, TwoSeatMatch)
    assert issubclass(DrawPoker, DrawTable)


@pytest.mark.parametrize("game_id,size", [("gin_rummy", 10), ("follow_the_rules", 6)])
def test_the_next_hand_alternates_the_dealer_and_deals_from_the_non_dealer(game_id, size):
    g = games.new(game_id, 11)
    dealer = g.vars["dealer"]
    # the first hand as dealt: what _next_hand gives for hand 1 is what lies on the table
    g.vars.update(hand_no=0)
    number, first_dealer, deck, hands = g._next_hand(size)
    assert (number, first_dealer) == (1, dealer)
    assert sorted(hands[0]) == sorted(g.hand(0)) and sorted(hands[1]) == sorted(g.hand(1))
    assert len(deck) == 52 - 2 * size and not set(deck) & set(hands[0] + hands[1])
    g.vars.update(hand_no=1)
    number, second_dealer, _deck, hands = g._next_hand(size)
    assert (number, second_dealer) == (2, 1 - dealer)
    assert len(hands[0]) == len(hands[1]) == size


def test_the_match_winner_decides_won_and_lost_only_when_the_match_is_over():
    g = games.new("follow_the_rules", 3)
    g.vars.update(winner=0, scores=(10, 4))
    assert not g.won and not g.lost  # the hand is still played
    g.vars.update(phase="match")
    assert g.won and not g.lost and g.score == 10 and g.final_scores == (10, 4)
    g.vars.update(winner=1)
    assert g.lost and not g.won


def test_between_hands_names_the_match_or_the_hand():
    over = Reason("The game is over.")
    assert between_hands("over", "bet", "over", over) is over
    assert between_hands("done", "take", "match", over).msgid == (
        "The hand is over: deal the next hand.")
    assert between_hands("draw", "next", "match", over).msgid == "The hand is not over yet."
    assert between_hands("draw", "take", "match", over) is None


def test_going_out_lists_discards_knocks_and_gin_but_never_the_card_just_taken():
    hand = cs("2H 3H 4H 5S 6S 7S 9C 9D 9S KD KC")  # two runs, three nines, two kings
    kinds = {(m.kind, C.text(m.extra[0]))
             for m in knock.going_out(hand, C.parse("KC"), gin_bonus=True)}
    assert ("discard", "KC") not in kinds and ("knock", "KC") not in kinds
    assert ("knock", "KD") in kinds  # keeps KC alone: 10 points of deadwood
    assert ("discard", "2H") in kinds and ("knock", "2H") not in kinds
    gin_hand = cs("2H 3H 4H 5S 6S 7S 9C 9D 9S 9H KC")
    king = C.parse("KC")
    assert Move("gin", extra=(king,)) in knock.going_out(gin_hand, -1, gin_bonus=True)
    without = knock.going_out(gin_hand, -1, gin_bonus=False)
    assert Move("gin", extra=(king,)) not in without and Move("knock", extra=(king,)) in without
    refusal = knock.going_out_refusal(Move("knock", extra=(C.parse("2H"),)), hand,
                                      C.parse("KC"), gin_bonus=True)
    assert refusal.msgid.startswith("You may knock only with 10 points")


def test_lay_offs_extend_the_lying_melds_once_each():
    melds = (tuple(cs("4H 5H 6H")), tuple(cs("9C 9D 9S")))
    laid = ((C.parse("7H"), 0),)
    lying = knock.lying_melds(melds, laid)
    assert lying == (tuple(sorted(cs("4H 5H 6H 7H"))), tuple(sorted(cs("9C 9D 9S"))))
    assert knock.lay_offs(cs("7H 8H 9H KS"), laid, lying) == [
        Move("layoff", extra=(C.parse("8H"), 0)), Move("layoff", extra=(C.parse("9H"), 1)),
        Move("done")]
    refusal = knock.lay_off_refusal(Move("layoff", extra=(C.parse("7H"), 0)),
                                    cs("7H 8H"), laid, lying)
    assert refusal.msgid == "The {card} is laid off already."


def test_the_knocker_shows_a_least_deadwood_arrangement_of_its_own_cards():
    hand = cs("4H 5H 6H 7H 9C 9D 9S 2C")
    shown = knock.shown_melds(hand, held=cs("8H"), seen=())
    assert sorted(c for m in shown for c in m) == sorted(cs("4H 5H 6H 7H 9C 9D 9S"))


def test_the_pair_pile_and_the_order_of_a_pair():
    discard = 40
    assert pairing.pair_in_order(Move("remove", 7, 3), discard, ordered=False) == \
        Move("remove", 3, 7)
    assert pairing.pair_in_order(Move("remove", 7, 3), discard, ordered=True) == \
        Move("remove", 7, 3)
    assert pairing.pair_in_order(Move("remove", 5, discard), discard, ordered=True) == \
        Move("remove", discard, 5)
    by_rank: list[list[int]] = [[] for _ in range(14)]
    by_rank[8] = [2, 9]  # two piles whose top card is an 8
    partner = (0, *(13 - r for r in range(1, 13)), 0)
    assert pairing.pair_pile_moves(by_rank, 5, partner, True, discard, apart=9) == [
        Move("remove", discard, 2)]
    assert pairing.pair_pile_moves(by_rank, 13, partner, True, discard, apart=9) == []
    king = [C.parse("KS")]
    assert pairing.pair_pile_refusal(king, True, True, True).msgid == (
        "A king on the pair pile cannot be used again.")
    assert pairing.pair_pile_refusal(king, False, True, True).msgid == (
        "Removed cards are out of play.")


def test_draw_moves_are_written_and_read_back():
    out = (C.parse("7C"), C.parse("TD"))
    text = draw_notation(Move("draw", extra=out))
    assert text == "draw:7C+TD"
    assert parse_draw_move("draw_poker", text, ("draw", "stand"), DECK) == Move("draw", extra=out)
    assert parse_draw_move("draw_poker", "stand", ("draw", "stand"), DECK) == Move("stand")
    with pytest.raises(IllegalMove, match="not a move of draw_poker"):
        parse_draw_move("draw_poker", "draw:7C+7C", ("draw", "stand"), DECK)
    with pytest.raises(IllegalMove):
        parse_draw_move("draw_poker", "stand:7C", ("draw", "stand"), DECK)


def test_a_chips_visit_ends_when_the_visitor_or_everybody_else_is_broke():
    g = games.new("draw_poker", 1, opponents=2)
    assert g.chips_over((0, 500, 500)) and g.chips_over((1500, 0, 0))
    assert not g.chips_over((10, 0, 5))
    assert len(g.exchanges(g.hand(0))) == 32  # stand, and every set of the five cards
