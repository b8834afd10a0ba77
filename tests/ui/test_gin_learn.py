"""Gin Rummy teaches itself to a visitor who has never played (issue 34): the hand lies in
melds (each with a coloured band) and deadwood, a drag reorders it, the deadwood is counted
live, Knock and Gin are in sight from the start and greyed with the reason until possible,
the first hand of a visit gives a tip at each moment, and a newcomer who follows only the
tips and the buttons finishes a hand. Everything by simulated touches on the real app."""

from __future__ import annotations

import pytest

from games.engine import cards as C
from games.engine.model import Move
from games.families.melds import arrange, deadwood
from kiosk.table.gin_help import joins
from kiosk.table.gin_rows import arranged

from .test_gin_offer_layoff import dealt_position
from .test_gin_table import button, gin, tap_card, visitor_first  # noqa: F401

#: the visitor to discard: 3♣ 3♦ 3♠ and 4♥ 5♥ 6♥ and 10♣ 10♦ 10♠ in melds, A♠ K♥ deadwood
MELDED = "KH 3C TD 5H AS 3D TS 4H 3S 6H TC"
COMPUTER = "7H 8H 2C 2D 2S JC JD JS KC 9D"


def lit(b) -> bool:
    return not getattr(b, "greyed", False)


def melded(ui, hand: str = MELDED):
    """A first Gin hand with ``hand`` to throw from, drawn; (controller, game, screen)."""
    ctl = ui.app.open_game("gin_rummy", visitor_first())
    ui.frames(2)
    dealt_position(ctl.game, hand, COMPUTER, turn=0)
    screen = ui.app.gin
    screen.refresh()
    ui.frames(1)
    return ctl, ctl.game, screen


def test_the_hand_lies_in_melds_with_bands_and_the_deadwood_after(gin):  # noqa: F811
    _ctl, _g, screen = melded(gin)
    mine = screen.mine
    names = [C.pretty(c) for c in mine.codes]
    # melds from low to high, each together (a set by suit, a run by rank), then deadwood
    # from low to high: the highest card in no meld, the one to throw, at the right end
    assert names == ["3♣", "3♦", "3♠", "4♥", "5♥", "6♥", "10♣", "10♦", "10♠", "A♠", "K♥"]
    assert mine.breaks == {3, 6, 9}  # a gap before each group
    bands = [mine.bands.get(c) for c in mine.codes]
    assert bands == [0, 0, 0, 1, 1, 1, 2, 2, 2, None, None]


def test_a_drag_reorders_the_hand_and_the_next_hand_is_arranged_again(gin):  # noqa: F811
    _ctl, g, screen = melded(gin)
    mine = screen.mine
    king = C.parse("KH")
    x, y = mine.center_of(king)
    left, _y = mine.center_of(mine.codes[0])
    gin.drag(x, y, left - 10, y)  # the K♥ dragged to the left end
    assert mine.codes[0] == king and screen.chosen is not None
    assert screen.raised == -1 and len(g.history) == 0  # a drag neither raises nor plays
    assert mine.bands[C.parse("3C")] == 0  # the melds keep their bands, wherever they lie
    # the order stays through a throw and the computer's turn; a card drawn goes at the end
    tap_card(gin, C.parse("AS"))
    tap_card(gin, C.parse("AS"))
    assert g.vars["thrown"][0] == (C.parse("AS"),)
    assert gin.until(lambda: g.to_move == 0 and g.phase == "draw", 10)
    gin.tap_widget(button(gin, "Draw from stock"))
    drawn = next(c for c in g.hand(0) if c not in cs_(MELDED))
    assert mine.codes[0] == king and mine.codes[-1] == drawn
    # a tap is still a tap: it raises the card under the finger
    tap_card(gin, king)
    assert screen.raised == king
    # the next hand is laid out in melds again
    g.vars["hand_no"] = 2
    screen.refresh()
    assert mine.codes == arranged(g.hand(0)).order


def cs_(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def test_the_deadwood_shows_live_and_knock_and_gin_are_greyed_with_the_reason(gin):  # noqa: F811
    ctl = gin.app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    g = ctl.game
    screen = gin.app.gin
    assert g.phase == "offer"
    # from the start: both buttons in sight, greyed, and the line says why
    knock, gin_button = button(gin, "Knock"), button(gin, "Gin")
    assert not lit(knock) and not lit(gin_button)
    points = deadwood(g.hand(0))
    assert screen.deadwood.text.startswith(f"Deadwood {points}")
    if points > 10:
        assert screen.deadwood.text == f"Deadwood {points}: knock at 10 or less"
    gin.tap_widget(knock)  # a greyed button says why it is greyed
    assert "First draw a card" in screen.message.text and g.phase == "offer"
    # a hand one throw from a knock: Knock lights, the line says so
    dealt_position(g, MELDED, COMPUTER, turn=0)
    screen.refresh()
    gin.frames(1)
    assert screen.deadwood.text == "Deadwood 1: you may knock"
    assert lit(button(gin, "Knock")) and not lit(button(gin, "Gin"))
    # a throw that leaves 14: the line follows the hand as it changes
    dealt_position(g, "KH 3C TD 5H AS 3D TS QS 3S 6H TC", COMPUTER, turn=0)
    screen.refresh()
    gin.frames(1)
    left = min(deadwood(c for c in g.hand(0) if c != out) for out in g.hand(0))
    assert left > 10 and screen.deadwood.text == f"Deadwood {left}: knock at 10 or less"
    assert not lit(button(gin, "Knock"))
    gin.tap_widget(button(gin, "Gin"))
    assert f"Gin needs no deadwood at all; you would have {left}." in screen.message.text


def test_knock_raises_the_card_it_throws_and_asks_once_more(gin):  # noqa: F811
    _ctl, g, screen = melded(gin)
    gin.tap_widget(button(gin, "Knock"))  # nothing raised: the table picks the K♥
    assert screen.raised == C.parse("KH") and g.phase == "discard"
    assert ("Knock, throwing away the K♥? Your deadwood: 1; if the computer's is 1 or less, "
            "it scores.") in screen.message.text
    gin.tap_widget(button(gin, "Yes, knock"))
    knocks = [m for m in g.history if m.kind == "knock"]  # the computer may lay off after it
    assert knocks == [Move("knock", extra=(C.parse("KH"),))]


def test_the_first_hand_gives_tips_and_no_more_that_visit(gin):  # noqa: F811
    app, screen = gin.app, gin.app.gin
    ctl, g = gin.sit("gin_rummy", visitor_first())
    up = g.top(g.waste)
    partners = joins(g.hand(0), up)
    if partners:
        assert screen.tip.text.startswith(f"Tip: the {C.pretty(up)} makes a meld with your")
    else:
        assert screen.tip.text == f"Tip: the {C.pretty(up)} makes no meld with your cards: pass."
    assert "The first upcard" not in screen.message.text  # the tip says it, and more
    dealt_position(g, "KH 3C TD 5H AS 3D TS QS 3S 6H TC", COMPUTER, turn=0)
    screen.refresh()
    assert screen.tip.text == ("Tip: throw away a high card in no meld (the highest lie at "
                               "the right end): tap it twice.")
    dealt_position(g, MELDED, COMPUTER, turn=0)
    screen.refresh()
    assert screen.tip.text == "Tip: your deadwood can be 10 or less: tap Knock to end the hand."
    gin.frames(1)
    gin.tap_widget(button(gin, "Knock"))
    gin.tap_widget(button(gin, "Yes, knock"))
    assert gin.until(lambda: g.phase == "done", 10)
    assert "gin_rummy" in app.visit_learnt and not screen.tip.text
    gin.tap_widget(button(gin, "Next hand"))
    assert g.vars["hand_no"] == 2 and not screen.tip.text  # never again this visit...
    assert screen.deadwood.text  # (the count stays: it is not a tip)
    ctl.leave("button")
    again = app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    assert again.game.phase == "offer" and not screen.tip.text
    app.go_welcome()  # ... until the kiosk resets for the next visitor
    app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    assert screen.tip.text.startswith("Tip: the ")


def test_the_next_visitor_gets_the_tips_whatever_the_last_one_left_on_the_table(gin):  # noqa: F811
    """The last visitor finished a hand in Russian and walked away: the reset switches the
    language back and so redraws the finished hand; that must not count as the next
    visitor's first hand."""
    app = gin.app
    _ctl, g, _screen = melded(gin)
    gin.tap_widget(button(gin, "Knock"))
    gin.tap_widget(button(gin, "Yes, knock"))
    assert gin.until(lambda: g.phase == "done", 10)
    app.set_language("ru")
    app.go_welcome()  # the idle reset: back to the operator's language, every screen redrawn
    assert "gin_rummy" not in app.visit_learnt
    app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    assert app.gin.tip.text.startswith("Tip: the ")


def test_a_lay_off_tip_names_only_the_cards_that_lower_the_deadwood(gin):  # noqa: F811
    ctl = gin.app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    g = ctl.game
    # the computer knocks with 3♣ 3♦ 3♠, 4♠ 5♠ 6♠ ...; the visitor's 7♠ sits in its own run
    # 7♠ 8♠ 9♠ (laying it off breaks the run), its 3♥ is deadwood (laying it off helps)
    dealt_position(g, "7S 8S 9S 3H QD QC QH KD KC 2D", "3C 3D 3S 4S 5S 6S AC AD 2H 5D KH",
                   turn=1)
    assert ctl.play(Move("knock", extra=(C.parse("KH"),)), "computer") is None
    screen = gin.app.gin
    screen.refresh()
    assert g.phase == "layoff" and g.to_move == 0
    assert screen.tip.text == "Tip: laying off lowers your deadwood: 3♥."
    assert "Lay off cards on the computer's melds" in screen.message.text


def newcomer_turn(ui, g) -> str:
    """One decision of a person who has never played, made from what the table shows: the
    tip when there is one, else the only lit choice; the cards tapped where the tip says."""
    screen = ui.app.gin
    tip = screen.tip.text
    choices = {b.text: b for b in screen.actions.children if lit(b)}
    if g.phase in ("offer", "draw"):
        if tip.endswith("take it."):
            ui.tap_widget(next(b for t, b in choices.items() if t.startswith("Take the")))
        elif tip.endswith("pass."):
            ui.tap_widget(choices["Pass"])
        else:  # "draw from the stock", or no tip: after two passes only the stock is left
            ui.tap_widget(choices["Draw from stock"])
        return "draw"
    if g.phase == "discard":
        for word, yes in (("Gin", "Yes, go gin"), ("Knock", "Yes, knock")):
            if f"tap {word}" in tip:
                ui.tap_widget(choices[word])
                ui.tap_widget(button(ui, yes))
                return word.lower()
        assert "the highest lie at the right end" in tip
        made = len(g.history)
        for card in reversed(screen.mine.codes):  # the right end; the next if it is refused
            tap_card(ui, card)
            tap_card(ui, card)
            if len(g.history) > made:
                return "throw"
        raise AssertionError("no card could be thrown")
    assert g.phase == "layoff"
    if tip.endswith("tap Done."):
        ui.tap_widget(choices["Done"])
        return "done"
    named = tip.split(": ", 1)[1].rstrip(".").split()
    card = next(c for c in screen.mine.codes if C.pretty(c) == named[0])
    tap_card(ui, card)
    on = [b for b in screen.actions.children if b.text.startswith("On ")]
    if on:
        ui.tap_widget(on[0])
    else:
        tap_card(ui, card)  # one meld it fits: the second tap lays it off
    return "lay off"


@pytest.mark.parametrize("seed", [3, 8, 10])
def test_a_newcomer_finishes_a_hand_by_the_tips_alone(gin, seed):  # noqa: F811
    """The Done-when of issue 34: shown only the table, tips and buttons, a first-timer
    plays a whole hand to its score. Every decision is one a tip named (or the only lit
    button)."""
    app = gin.app
    ctl = app.open_game("gin_rummy", seed)
    gin.frames(2)
    g = ctl.game
    said = []
    for _turn in range(60):
        assert gin.until(lambda: g.phase in ("done", "match") or g.to_move == 0, 10)
        if g.phase in ("done", "match"):
            break
        gin.frames(1)
        said.append(newcomer_turn(gin, g))
    assert g.phase == "done" and g.vars["result"], said
    assert "score" in app.gin.message.text or "draw" in app.gin.message.text
    assert "gin_rummy" in app.visit_learnt


def test_the_arrangement_is_a_least_deadwood_one():
    """Whatever the hand, the cards shown in melds are a best arrangement's."""
    import random

    rnd = random.Random(5)
    for _ in range(200):
        hand = rnd.sample(range(52), rnd.choice((10, 11)))
        shown = arranged(hand)
        assert sorted(shown.order) == sorted(hand)
        melds: dict[int, list[int]] = {}
        for card, k in shown.bands.items():
            melds.setdefault(k, []).append(card)
        dead = [c for c in hand if c not in shown.bands]
        assert sum(min(C.RANK[c], 10) for c in dead) == deadwood(hand) == \
            sum(min(C.RANK[c], 10) for c in arrange(hand)[1])
        assert shown.order[len(shown.order) - len(dead):] == sorted(
            dead, key=lambda c: (C.RANK[c], C.SUIT[c]))
