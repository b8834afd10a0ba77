"""Gin Rummy rules (GAMES.md §B2): melds, knocking, gin, laying off, undercut, blocked hands,
matches, notation and replay."""

from __future__ import annotations

import json

import pytest

import games
from games.engine import cards as C
from games.engine.reason import Reason
from games.families.melds import arrange as arrange_melds
from games.families.melds import deadwood, is_meld, lay_off
from games.families.seats import computer_mismatches, replay_visitor
from games.gin_rummy import GinRummy

from .conftest import arrange


def cs(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def position(hand1: str, hand2: str, stock: int = 20, waste: str = "", **vars) -> GinRummy:
    """A constructed hand: the stock is ``stock`` of the cards no hand holds, the discard
    pile the rest of them (every card in play once)."""
    g = games.new("gin_rummy", 7)
    used = set(cs(hand1) + cs(hand2) + cs(waste))
    free = [C.text(c) for c in range(52) if c not in used]
    waste = " ".join(free[stock:] + waste.split())
    stock_cards = " ".join(free[:stock])
    n_stock, n_h2 = stock, len(hand2.split())
    base = dict(turn=0, phase="discard", taken=-1, known=((), ()), thrown=((), ()),
                result=(), hand_no=1, scores=(0, 0), won_hands=(0, 0), results=(),
                passes=3, knocker=-1, melds=(), laid=())
    base.update(vars)
    return arrange(g, {"S": stock_cards, "W": waste, "H1": hand1, "H2": hand2},
                   down={"S": n_stock, "H2": n_h2}, **base)


# ---------------------------------------------------------------------- melds
def test_the_meld_search_is_exact_where_a_greedy_run_first_fails():
    # the long run 4-7♥ leaves 7♣ 7♠ (14); 4-6♥ and the three sevens leave nothing
    assert deadwood(cs("4H 5H 6H 7H 7C 7S")) == 0
    assert deadwood(cs("5H 6H 7H 7C 7S")) == 11  # the sevens as a set, 5♥ 6♥ dead
    melds, dead = arrange_melds(cs("4H 5H 6H 7H 7C 7S KD"))
    assert sorted(len(m) for m in melds) == [3, 3] and dead == (C.parse("KD"),)


def _brute_deadwood(cards: list[int]) -> int:
    """The least deadwood over every choice of disjoint melds, by plain enumeration."""
    from itertools import combinations

    from games.families.melds import POINTS

    melds = [frozenset(m) for k in range(3, len(cards) + 1) for m in combinations(cards, k)
             if is_meld(m)]
    best = sum(POINTS[c] for c in cards)

    def walk(start: int, used: frozenset) -> None:
        nonlocal best
        best = min(best, sum(POINTS[c] for c in cards if c not in used))
        for j in range(start, len(melds)):
            if not melds[j] & used:
                walk(j + 1, used | melds[j])

    walk(0, frozenset())
    return best


def test_the_meld_search_agrees_with_plain_enumeration_on_crowded_hands():
    import random

    rnd = random.Random(14)
    crowded = [c for c in range(52) if c % 13 < 6]  # A-6 of every suit: many overlaps
    for _ in range(30):
        hand = rnd.sample(crowded, rnd.choice((10, 11)))
        assert deadwood(hand) == _brute_deadwood(hand), [C.text(c) for c in hand]


def test_ace_is_low_only_in_runs():
    assert is_meld(cs("AS 2S 3S")) and not is_meld(cs("QS KS AS"))
    assert deadwood(cs("QS KS AS")) == 21


def test_lay_off_takes_two_cards_on_one_end_of_a_run():
    run = tuple(cs("4H 5H 6H"))
    dw, where, _, dead = lay_off(cs("7H 8H KC"), (run,))
    assert dw == 10 and sorted(where) == sorted(cs("7H 8H")) and dead == (C.parse("KC"),)
    # and on both ends, and the fourth card of a set
    dw, where, _, _ = lay_off(cs("3H 7H 9S"), (run, tuple(cs("9C 9D 9H"))))
    assert dw == 0 and len(where) == 3


def test_a_card_stays_in_the_defenders_own_meld_when_that_leaves_less_deadwood():
    # 7♥ could go on 4-6♥, but it is worth more in the defender's 7♣ 7♦ 7♥
    dw, where, melds, _ = lay_off(cs("7C 7D 7H"), (tuple(cs("4H 5H 6H")),))
    assert dw == 0 and not where and len(melds) == 1


# ---------------------------------------------------------------------- the deal
def test_deal_gives_ten_each_an_upcard_and_hides_the_computers_hand():
    g = games.new("gin_rummy", 4711)
    assert len(g.pile("H1")) == len(g.pile("H2")) == 10 and len(g.pile("W")) == 1
    assert len(g.pile("S")) == 31 and g.down[g.index["H2"]] == 10
    assert g.down[g.index["H1"]] == 0
    assert g.to_move == 1 - g.vars["dealer"]  # the non-dealer goes first
    assert sorted(g.legal_moves()) == sorted([games.Move("take"), games.Move("pass")])


def _offered(dealer: int) -> GinRummy:
    g = games.new("gin_rummy", 4711)
    g.vars.update(dealer=dealer, turn=1 - dealer)
    return g


def test_the_non_dealer_may_take_the_first_upcard_and_must_then_discard():
    g = _offered(dealer=1)
    up = g.top(g.waste)
    g.play("take")
    assert g.phase == "discard" and g.to_move == 0 and up in g.pile("H1")
    assert g.vars["taken"] == up and g.why_illegal(g.parse_move("pass")) is not None


def test_when_the_non_dealer_passes_the_dealer_may_take_the_upcard():
    g = _offered(dealer=1)
    up = g.top(g.waste)
    g.play("pass")
    assert g.phase == "offer" and g.to_move == 1
    assert sorted(g.legal_moves()) == sorted([games.Move("take"), games.Move("pass")])
    g.play("take")
    assert g.phase == "discard" and g.to_move == 1 and up in g.pile("H2")
    assert g.vars["known"][1] == (up,)  # the visitor saw it taken


def test_when_both_pass_the_non_dealer_draws_from_the_stock_and_then_play_is_usual():
    g = _offered(dealer=0)  # the computer is the non-dealer
    g.play("pass")
    assert g.to_move == 0 and g.phase == "offer"
    g.play("pass")
    assert g.to_move == 1 and g.phase == "draw"
    assert g.legal_moves() == [games.Move("stock")]
    assert g.why_illegal(games.Move("take")) == Reason("Both passed the upcard: draw from "
                                                       "the stock.")
    g.play("stock")
    g.play(_discards(g)[0])
    assert g.to_move == 0 and games.Move("take") in g.legal_moves()
    assert g.why_illegal(g.parse_move("pass")) == Reason("Only the first upcard may be "
                                                          "passed.")


def _discards(g: GinRummy) -> list[games.Move]:
    return [m for m in g.legal_moves() if m.kind == "discard"]


def test_the_taken_upcard_may_not_be_thrown_back():
    g = position("2D 3D 4D 8S 9S TS JS QS KH 5C", "2H 3H 4H 5H 6H 7H 8H 9H TH JH",
                 phase="draw", waste="AH")
    g.play("take")
    reason = g.why_illegal(g.parse_move("discard:AH"))
    assert reason == Reason("You may not discard the {card} you just took from the discard "
                            "pile.", card=C.parse("AH"))
    g.play("discard:KH")
    assert g.to_move == 1 and g.vars["known"][0] == (C.parse("AH"),)


# ---------------------------------------------------------------------- knocking
def test_knock_needs_ten_or_less_and_the_refusal_says_how_much():
    # after throwing the K♥: 5♣ + 6♣ + A♥ = 12, too many
    g = position("2D 3D 4D 8S 9S TS JS 5C 6C KH AH", "2H 3H 4H 5H 6H 7H 8H 9H TH JH")
    reason = g.why_illegal(g.parse_move("knock:KH"))
    assert reason is not None and reason.fields["points"] == 12
    assert str(reason) == ("You may knock only with 10 points of deadwood or less; you would "
                           "have 12.")
    # 4♣ + 5♣ + A♥ = 10: allowed
    g = position("2D 3D 4D 8S 9S TS JS 5C 4C KH AH", "2H 3H 4H 5H 6H 7H 8H 9H TH JH")
    assert g.why_illegal(g.parse_move("knock:KH")) is None


def test_knock_scores_the_difference_and_shows_both_hands():
    # visitor: 2-3-4♦, 8-9-10-J♠, deadwood A♣ 2♣ 3♥ = 6 after throwing the K♥
    g = position("2D 3D 4D 8S 9S TS JS AC 2C 3H KH", "5H 6H 7H 9D 9C 9H KC QC JD 2S")
    g.play("knock:KH")
    assert g.phase == "layoff" and g.to_move == 1 and not g.vars["result"]
    assert g.play_computer() == [games.Move("done")]  # nothing fits the visitor's melds
    r = g.vars["result"]
    assert r.kind == "knock" and r.knocker == 0 and r.winner == 0
    assert r.deadwood == (6, 32) and r.points == 26 and g.vars["scores"] == (26, 0)
    assert g.down[g.index["H2"]] == 0  # the computer's hand is shown
    assert g.phase == "done" and g.legal_moves() == [games.Move("next")]


def test_undercut_bonus_goes_to_the_defender_and_the_knocker_loses_a_tie():
    # the computer knocks with 8 (A♣ 7♦); the visitor has 8 too (3♠ 5♦): a tie
    # the computer knocks with 7 (the 7♦); the visitor has 7 too (the 7♠): a tie
    computer = "6C 7C 8C TD TC TS 2D 3D 4D 7D KH"
    g = position("2H 3H 4H 9C 9D 9H JS QS KS 7S", computer, turn=1)
    g.play("knock:KH")
    g.play("done")  # the 9♣ would fit 6-8♣ but stays in the visitor's set of nines
    r = g.vars["result"]
    assert r.kind == "undercut" and r.knocker == 1 and r.winner == 0
    assert r.deadwood == (7, 7) and r.points == 25 and g.vars["scores"] == (25, 0)
    # a lower defender: (K - O) + 25, to the defender, never to the knocker
    g = position("2H 3H 4H 9C 9D 9H JS QS KS 2S", computer, turn=1)
    g.play("knock:KH")
    g.play("done")
    r = g.vars["result"]
    assert r.winner == 0 and r.points == 7 - 2 + 25 and g.vars["scores"] == (30, 0)


def test_the_defender_lays_off_two_cards_on_one_end_and_sees_the_knockers_melds():
    # computer knocks with 4-5-6♥ among its melds; the visitor holds 7♥ 8♥
    g = position("7H 8H 2C 2D 2S JC JD JS KC 9D", "4H 5H 6H TC TD TS 3C 3D 3S AS KH", turn=1)
    g.play("knock:KH")
    assert g.phase == "layoff" and g.to_move == 0
    seen = g.view(0)  # what the visitor's screen shows during the lay-off
    assert seen.shown[1] == tuple(g.pile("H2")) and g.down[g.index["H2"]] == 0
    run = seen.info["melds"].index(tuple(cs("4H 5H 6H")))
    # the 8♥ does not chain on 4-6♥ until the 7♥ lies there
    assert g.why_illegal(games.Move("layoff", extra=(C.parse("8H"), run))) == Reason(
        "The {card} does not join that run: lay off the cards between first.",
        card=C.parse("8H"))
    g.play(f"layoff:7H:{run + 1}")
    g.play(f"layoff:8H:{run + 1}")
    assert tuple(cs("4H 5H 6H 7H 8H")) in g.view(0).info["melds"]
    g.play("done")
    r = g.vars["result"]
    assert {C.text(c) for c, _ in r.laid_off} == {"7H", "8H"}
    assert r.deadwood == (19, 1) and r.winner == 1 and r.points == 18
    assert tuple(cs("4H 5H 6H")) in r.melds[1]


def test_the_knockers_melds_are_chosen_without_the_defenders_hidden_cards():
    # 7♥ may go in the sevens or in the run: 7-10♥ with three sevens leaves the 6♥ open,
    # 8-10♥ with all four sevens does not; which the defender holds must not decide
    knocker = "7C 7D 7S 7H 8H 9H TH 2C 3C AS KD"
    shown = set()
    for defender in ("6H 2D 3D 4D 9C 9S JC QC KS 5S", "JH 2D 3D 4D 9C 9S JC QC KS 5S"):
        g = position(defender, knocker, stock=31, turn=1)  # the 6♥ is never in sight
        g.play("knock:KD")
        shown.add(g.vars["melds"])
    assert shown == {(tuple(cs("7C 7D 7H 7S")), tuple(cs("8H 9H TH")))}


def test_lay_off_refusals_name_the_card_and_the_rule():
    g = position("7H 9H 2C 2D 2S JC JD JS KC 3H", "4H 5H 6H TC TD TS 3C 3D 3S AS KH", turn=1)
    g.play("knock:KH")
    melds = g.view(0).info["melds"]
    run, tens = melds.index(tuple(cs("4H 5H 6H"))), melds.index(tuple(cs("TC TD TS")))
    threes = melds.index(tuple(cs("3C 3D 3S")))
    nine, seven = C.parse("9H"), C.parse("7H")
    why = g.why_illegal
    assert why(games.Move("layoff", extra=(nine, run))) == Reason(
        "The {card} does not join that run: lay off the cards between first.", card=nine)
    assert why(games.Move("layoff", extra=(nine, tens))) == Reason(
        "The {card} does not fit that set.", card=nine)
    assert why(games.Move("layoff", extra=(C.parse("4C"), run))) == Reason(
        "The {card} is not in your hand.", card=C.parse("4C"))
    assert why(games.Move("layoff", extra=(seven, 3))) == Reason(
        "The knocker has no meld there.")
    assert games.Move("layoff", extra=(C.parse("3H"), threes)) in g.legal_moves()
    g.play(games.Move("layoff", extra=(seven, run)))
    assert why(games.Move("layoff", extra=(seven, run))) == Reason(
        "The {card} is laid off already.", card=seven)
    assert why(g.parse_move("discard:2C")) == Reason(
        "Lay off cards on the knocker's melds, or say you are done.")


def test_the_computer_lays_off_one_card_at_a_time_in_chain_order():
    g = position("4H 5H 6H TC TD TS 3C 3D 3S AS KH", "7H 8H 2C 2D 2S JC JD JS KC 9D")
    g.play("knock:KH")
    made = [g.notation(m) for m in g.play_computer()]
    run = g.vars["melds"].index(tuple(cs("4H 5H 6H"))) + 1
    assert made == [f"layoff:7H:{run}", f"layoff:8H:{run}", "done"]
    assert g.vars["result"].deadwood == (1, 19)


def test_gin_scores_25_more_and_allows_no_lay_off():
    g = position("2D 3D 4D 8S 9S TS JS 5C 5H 5S KH", "6S 7S QS 6D AH 2H 3H 4H 9C 9H")
    assert g.parse_move("gin:KH") in g.legal_moves()
    assert g.parse_move("knock:KH") not in g.legal_moves()
    g.play("gin:KH")
    r = g.vars["result"]
    assert r.kind == "gin" and not r.laid_off and r.winner == 0 and g.phase == "done"
    assert r.points == deadwood(g.pile("H2")) + 25
    assert g.why_illegal(games.Move("layoff", extra=(C.parse("6S"), 1))) == Reason(
        "Nothing may be laid off on gin.")


def test_without_the_gin_bonus_a_perfect_hand_knocks_and_can_be_laid_off_on():
    g = position("2D 3D 4D 8S 9S TS JS 5C 5H 5S KH", "7S QS 6D AH 2H 3H 4H 9C 9H 5D")
    g.opts["gin_bonus"] = False
    g.play("knock:KH")
    g.play_computer()
    r = g.vars["result"]
    assert r.kind == "knock" and C.parse("5D") in dict(r.laid_off)


# ---------------------------------------------------------------------- the end
def test_the_last_two_stock_cards_are_never_drawn_and_the_hand_is_a_draw():
    g = position("2D 3D 4D 8S 9S TS JS 5C 7C KH", "2H 3H 4H 5H 6H 7H 8H 9H TH JH",
                 stock=3, phase="draw")
    g.play("stock")
    g.play("discard:KH")
    assert g.vars["result"].kind == "draw" and g.vars["scores"] == (0, 0)
    assert g.phase == "done"
    g2 = position("2D 3D 4D 8S 9S TS JS 5C 7C KH", "2H 3H 4H 5H 6H 7H 8H 9H TH JH",
                  stock=2, phase="draw")
    assert games.Move("stock") not in g2.legal_moves()
    assert g2.why_illegal(games.Move("stock")) == Reason("The last two stock cards may not be "
                                                          "drawn.")


def test_next_deals_a_fresh_hand_and_the_dealer_alternates():
    g = games.new("gin_rummy", 3)
    dealer = g.vars["dealer"]
    g.vars.update(phase="done", turn=0)
    g.play("next")
    assert g.vars["hand_no"] == 2 and g.vars["dealer"] == 1 - dealer
    assert sorted(c for p in g.cards for c in p) == list(range(52))
    assert len(g.pile("H1")) == 10 and g.down[g.index["H2"]] == 10


def test_a_match_of_30_hands_ends_after_the_30th_and_points_100_adds_the_bonuses():
    g = position("2D 3D 4D 8S 9S TS JS AC 2C 3H KH", "5H 6H 7H 9D 9C 9H KC QC JD 2S",
                 hand_no=30, scores=(40, 60), won_hands=(3, 4))
    g.play("knock:KH")
    g.play_computer()
    assert g.phase == "match" and g.vars["scores"] == (66, 60) and g.won and g.over
    assert not g.legal_moves()
    g = position("2D 3D 4D 8S 9S TS JS AC 2C 3H KH", "5H 6H 7H 9D 9C 9H KC QC JD 2S",
                 scores=(90, 20), won_hands=(3, 1))
    g.opts["match"] = "points_100"
    g.play("knock:KH")
    g.play_computer()
    assert g.phase == "match" and g.final_scores == (116 + 100 + 4 * 25, 20 + 25)


# ---------------------------------------------------------------------- data
def test_notation_round_trips_and_bad_text_is_refused():
    g = games.new("gin_rummy", 1)
    for text in ("stock", "take", "pass", "next", "done", "discard:7C", "knock:TD", "gin:AS",
                 "layoff:7H:2"):
        assert g.notation(g.parse_move(text)) == text
    for bad in ("discard", "discard:7X", "discard:ZZ", "knock:", "stock:S", "T1>W", "gin:7c7",
                "layoff:7H", "layoff:7H:0", "layoff:7H:x", "pass:7H"):
        with pytest.raises(games.IllegalMove):
            g.parse_move(bad)


def test_replay_gives_the_same_computer_moves_and_records_the_version():
    def visitor(g: GinRummy) -> list[str]:
        from games.players.gin import baseline

        made = []
        for _ in range(40):
            if not g.legal_moves():
                break
            m = baseline(g.view(0), g.computer_rng())
            made.append(g.notation(m))
            replay_visitor(g, [m])
        return made

    first = games.new("gin_rummy", 4711, match="points_100")
    moves = visitor(first)
    second = replay_visitor(games.new("gin_rummy", 4711, match="points_100"), moves)
    assert second.history == first.history
    saved = json.loads(first.to_json())
    assert saved["computer"] == {"level": "normal", "version": GinRummy.computer_version}
    again = games.from_json(saved)
    assert again.key() == first.key() and computer_mismatches(again) == []


def test_undo_is_off_for_the_visitor_with_a_reason():
    assert isinstance(GinRummy.undo_refusal, Reason)
    assert str(GinRummy.undo_refusal).endswith(".")
