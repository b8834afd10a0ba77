"""Draw Poker's pots: the antes of passed-out deals are the main pot's, side pots come only
from all-in differences, and the result says truthfully who took which pot (issue 25)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.draw_poker import DECK, UNITS, DrawPoker
from games.engine import cards as C
from games.engine.model import Move
from games.families.poker import evaluate
from games.families.poker_table import WILD_RULES


def cards(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def set_hands(g: DrawPoker, *hands: str) -> None:
    """Replace the seats' hands of the current deal (seat 0 first); the rest is the stock."""
    used = [c for h in hands for c in cards(h)]
    for s, h in enumerate(hands):
        g.cards[g.hands[s]] = cards(h)
        g.down[g.hands[s]] = 0 if s == 0 else 5
    stock = [c for c in DECK if c not in used]
    g.cards[g.stock], g.down[g.stock] = stock, len(stock)


def passed_out(times: int, **options) -> DrawPoker:
    """Seed 1 with one opponent: the computer deals, so only the visitor antes; everybody
    passes ``times`` times, and the antes carry over."""
    g = games.new("draw_poker", 1, opponents=1, **options)
    assert g.vars["dealer"] == 1
    for _ in range(times):
        g.play("pass")
        g.play("pass")
    assert g.vars["deal_no"] == times + 1 and g.phase == "open" and g.to_move == 0
    return g


def showdown_without_a_bet(g: DrawPoker) -> dict:
    """Open, call, both stand pat (the non-dealer draws first), both check after the draw
    (the opener speaks first): the showdown's result."""
    for move in ("open", "call", "stand", "stand", "check", "check"):
        g.play(move)
    return g.vars["result"]


def test_carried_antes_go_to_the_computer_whose_straight_beats_ten_high():
    """The reported hand: three pass-outs, the computer opens, the visitor calls and stands
    pat on ten-high, the computer shows a straight with the bug: the computer takes all 24,
    and nothing of it is a side pot of the visitor's own antes."""
    g = passed_out(3)
    set_hands(g, "TC 8D 6H 4S 9C", "5C 4H 3H 2D JK")
    g.play("pass")
    # the computer opens: the bug makes it a straight, better than jacks
    result = showdown_without_a_bet(g)
    assert result["pot"] == 24
    assert result["winners"] == (1,)
    assert result["won"] == (0, 24)
    assert g.vars["chips"] == (986, 1014)
    [record] = g.hand_records()
    assert record["winner"] == "computer 1"
    assert record["detail"]["pots"] == [{"amount": 24, "eligible": [0, 1], "winners": [1],
                                         "shares": [24]}]


def test_carried_antes_go_to_the_visitor_when_the_visitor_has_the_better_hand():
    g = passed_out(2)
    set_hands(g, "AC AD AH 4S 9C", "KC KD 3H 2D 7S")
    result = showdown_without_a_bet(g)
    assert result["winners"] == (0,) and result["won"] == (23, 0)
    assert g.vars["chips"] == (1010, 990)


def test_a_real_tie_splits_the_pot_antes_and_all():
    g = passed_out(1)
    set_hands(g, "AC KD QH JS 9C", "AD KC QS JH 9D")  # the same ace-high: a tie
    g.play("pass")
    g.play("pass")  # a second pass-out: 3 antes in, all the visitor's
    set_hands(g, "JC JD 4H 6S 9C", "JH JS 4D 6C 9H")  # the same pair of jacks, same kickers
    result = showdown_without_a_bet(g)
    assert result["pot"] == 23 and result["winners"] == (0, 1)
    assert sorted(result["won"]) == [11, 12] and sum(result["won"]) == 23
    assert g.hand_records()[0]["winner"] == "visitor, computer 1"


# ---------------------------------------------------------------------- the property test
# An independent model of the chips: it follows every move with the GAMES.md §B3 rules
# (antes but the dealer, 10 a bet then 20, droppers paying the open, all in when short)
# and shares the pot chip by chip, without calling the engine's pot code.

def is_wild(card: int, rule: str) -> bool:
    if card >= C.JOKER:
        return True
    if rule == "deuces":
        return C.RANK[card] == 2
    if rule == "one_eyed":
        return (C.RANK[card], C.SUITS[C.SUIT[card]]) in ((13, "D"), (11, "H"), (11, "S"))
    return False


def strength(hand: list[int], rule: str) -> tuple[int, ...]:
    return evaluate(hand, lambda c: is_wild(c, rule), bug=rule == "bug")


def model_pots(antes: list[int], bets: list[int], live: list[int], strengths: dict,
               clockwise: list[int]) -> tuple[list[tuple[frozenset, int]], list[int]]:
    """Every chip a seat bet is contested by the live seats that bet at least as far (or,
    above every live seat's bet, by those that bet most); the antes by every live seat.
    Returns the pots by who contests them, and what each seat receives."""
    n = len(bets)
    top = max(bets[s] for s in live)
    by_set: dict[frozenset, int] = {}
    for seat in range(n):
        for k in range(1, bets[seat] + 1):
            who = frozenset(s for s in live if bets[s] >= min(k, top))
            by_set[who] = by_set.get(who, 0) + 1
    everyone = frozenset(live)
    by_set[everyone] = by_set.get(everyone, 0) + sum(antes)
    receives = [0] * n
    for who, amount in by_set.items():
        best = max(strengths[s] for s in who)
        takers = [s for s in clockwise if s in who and strengths[s] == best]
        for i, s in enumerate(takers):
            receives[s] += amount // len(takers) + (1 if i < amount % len(takers) else 0)
    return sorted(by_set.items(), key=lambda kv: -len(kv[0])), receives


class Model:
    def __init__(self, g: DrawPoker, stacks: list[int]) -> None:
        self.n = g.n
        self.chips = list(stacks)
        self.seated = [True] * self.n
        self.antes = [0 if s == g.vars["dealer"] else 1 for s in range(self.n)]
        self.bets = [0] * self.n
        self.live = [True] * self.n
        self.key = (g.vars["hand_no"], g.vars["deal_no"], g.vars["round"])
        self.round_bets = [0] * self.n

    def pay(self, seat: int, amount: int, ante: bool = False) -> None:
        amount = max(0, min(amount, self.chips[seat]))
        self.chips[seat] -= amount
        if ante:
            self.antes[seat] += amount
        else:
            self.bets[seat] += amount
            self.round_bets[seat] += amount

    def ante_all(self, dealer: int) -> None:
        for s in range(self.n):
            if self.seated[s] and s != dealer:
                self.pay(s, 1, ante=True)

    def before(self, g: DrawPoker, move: Move) -> None:
        """The chips ``move`` puts in, by the rules."""
        s, kind = g.to_move, move.kind
        unit = UNITS[g.vars["round"]]
        level = max(self.round_bets)
        if kind == "open":
            self.pay(s, unit)
        elif kind in ("bet", "raise"):
            self.pay(s, level - self.round_bets[s] + unit)
        elif kind == "call":
            self.pay(s, level - self.round_bets[s])
        elif kind == "drop":
            if g.vars["round"] == 0 and g.opts["droppers_pay_open"]:
                self.pay(s, UNITS[0] - self.round_bets[s])
            self.live[s] = False

    def after(self, g: DrawPoker, move: Move) -> None:
        """A new hand or a redeal: antes; a new betting round: nothing bet in it yet."""
        key = (g.vars["hand_no"], g.vars["deal_no"], g.vars["round"])
        if move.kind == "next":
            self.seated = [c > 0 for c in self.chips]
            self.antes, self.bets = [0] * self.n, [0] * self.n
            self.live = list(self.seated)
            self.ante_all(g.vars["dealer"])
        elif key[1] != self.key[1]:  # everybody passed: ante again, the pot stays
            self.ante_all(g.vars["dealer"])
        if key != self.key:
            self.round_bets = [0] * self.n
        self.key = key


def play_hands(pick: Callable[[int, int], int], n: int, rule: str, droppers_pay: bool,
               hands: int) -> int:
    """Play random hands (``pick(lo, hi)``: a number from lo to hi) and check every
    showdown against the model; returns how many showdowns had more than one pot."""
    g = games.new("draw_poker", pick(1, 10_000), opponents=n - 1, wild=rule,
                  droppers_pay_open=droppers_pay)
    dealer = g.vars["dealer"]
    stacks = [pick(0, 45) for _ in range(n)]
    stacks[dealer] = max(1, stacks[dealer])  # a seat with no chip at all is not dealt in
    g.vars["chips"] = tuple(stacks)
    model = Model(g, stacks)
    total = sum(stacks) + g.vars["pot"]
    several = 0
    played = 0
    for _ in range(400):
        if g.phase == "over" or played >= hands:
            break
        legal = g.legal_moves()
        if g.phase == "draw":
            legal = legal[:1] + [legal[pick(1, 31)]]
        move = legal[pick(0, len(legal) - 1)]
        result_before = g.vars["result"]
        model.before(g, move)
        g.play(move)
        assert sum(g.vars["chips"]) + g.vars["pot"] == total, "chips are conserved"
        if g.vars["result"] and g.vars["result"] is not result_before:
            model.after(g, move)
            several += check_showdown(g, model)
            played += 1
            model.chips = list(g.vars["chips"])
        else:
            model.after(g, move)
            assert list(g.vars["chips"]) == model.chips, (move, model.chips, g.vars["chips"])
    return several


def check_showdown(g: DrawPoker, model: Model) -> int:
    result = g.vars["result"]
    live = [s for s in range(g.n) if model.live[s]]
    assert list(result["values"]) in ([], live)
    strengths = {s: strength(g.hand(s), g.rule) for s in live}
    dealer = g.vars["dealer"]
    clockwise = [(dealer + k) % g.n for k in range(1, g.n + 1)]
    pots, receives = model_pots(model.antes, model.bets, live, strengths, clockwise)
    got = [after - before for after, before in zip(g.vars["chips"], model.chips,
                                                    strict=True)]
    assert got == receives, (pots, result)
    assert sum(got) == result["pot"] == sum(model.antes) + sum(model.bets)
    for s in range(g.n):  # nobody takes a chip of a pot it did not win or tie
        taken = sum(share for pot in result["pots"] for w, share in
                    zip(pot["winners"], pot["shares"], strict=True) if w == s)
        assert got[s] == taken + result["returned"][s]
        assert result["returned"][s] <= model.bets[s]
        if got[s]:
            assert s in live
    for pot in result["pots"]:
        eligible = pot["eligible"]
        best = max(strengths[s] for s in eligible)
        assert pot["winners"] == [s for s in eligible if strengths[s] == best]
        assert sum(pot["shares"]) == pot["amount"]
        assert max(pot["shares"]) - min(pot["shares"]) <= 1
    main = result["pots"][0]
    assert main["eligible"] == live and list(result["winners"]) == main["winners"]
    record = g.hand_records()[-1]
    assert record["winner"] == ", ".join(g.seat_word(s) for s in main["winners"])
    return len(result["pots"]) > 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(2, 8), rule=st.sampled_from(WILD_RULES),
       droppers_pay=st.booleans())
def test_every_pot_goes_to_the_best_hand_that_contests_it(data, n, rule, droppers_pay):
    play_hands(lambda lo, hi: data.draw(st.integers(lo, hi)), n, rule, droppers_pay, 3)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(2, 8), rule=st.sampled_from(WILD_RULES),
       droppers_pay=st.booleans())
def test_every_pot_goes_to_the_best_hand_that_contests_it_many_hands(data, n, rule,
                                                                      droppers_pay):
    play_hands(lambda lo, hi: data.draw(st.integers(lo, hi)), n, rule, droppers_pay, 8)


def test_a_seat_that_raised_then_drops_takes_nothing_back_from_the_pot():
    """Droppers pay the open in the first round, but one that already bet more than the
    open pays nothing more, and takes nothing out (it took 10 back before)."""
    g = games.new("draw_poker", 3, opponents=2)
    first = g.to_move
    second, third = (first + 1) % 3, (first + 2) % 3
    set_hands(g, "JC JD 4H 6S 9C", "QC QD 4D 6C 9H", "KC KD 4S 6H 9D")
    total = sum(g.vars["chips"]) + g.vars["pot"]
    g.play("open")     # 10
    g.play("raise")    # 20
    g.play("raise")    # 30
    g.play("call")
    before = g.vars["chips"][second]
    assert g.to_move == second and g.vars["bets"][second] == 20
    g.play("drop")
    assert g.vars["chips"][second] == before
    assert not g.vars["live"][second] and g.vars["pot"] + sum(g.vars["chips"]) == total
    assert g.vars["bets"][third] == 30


def english(msgid: str, **fields) -> str:
    return msgid.format(**fields)


def test_the_table_names_the_computer_alone_for_the_reported_hand():
    from kiosk.table.poker_words import result_lines

    g = passed_out(3)
    set_hands(g, "TC 8D 6H 4S 9C", "5C 4H 3H 2D JK")
    for move in ("pass", "open", "call", "stand", "stand", "check", "check"):
        g.play(move)
    lines = result_lines(g.vars["result"], english)
    assert lines[0] == "Player 1 takes the pot of 24 with Straight."
    assert not any("split" in line for line in lines)


def test_the_table_names_each_pots_winner_and_the_visitors_returned_bet():
    from kiosk.table.poker_words import result_lines

    g = games.new("draw_poker", 3, opponents=2)
    set_hands(g, "AC AD AH 5S 8C", "KC KD 3S 6H 9C", "QC QD 3H 4S 7C")
    dealer = g.vars["dealer"]
    g.vars["chips"] = tuple(5 if s == 0 else 500 for s in range(3))
    while g.phase not in ("done", "over"):
        legal = g.legal_moves()
        g.play("stand" if g.phase == "draw" else "open" if Move("open") in legal else
               "call" if Move("call") in legal else "check")
    result = g.vars["result"]
    main, side = result["pots"]
    assert main["winners"] == [0] and side["winners"] == [1]
    lines = result_lines(result, english)
    assert lines[0] == f"You take the main pot of {main['amount']} with Three of a kind."
    assert lines[1] == f"Player 1 takes a side pot of {side['amount']} with One pair."
    assert len(lines) <= 3 and dealer in range(3)
