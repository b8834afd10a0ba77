"""Follow the Rules and Draw Poker at their moments (issue 34): the suit the computer led is
marked over the trick and the cards that may not follow it are dimmed, with the reason in
words; the first hand gives tips (who takes a trick; which poker cards to keep), then no
more that visit. By simulated touches on the real app."""

from __future__ import annotations

from games.engine import cards as C
from games.engine.model import Move
from games.follow_the_rules import FollowTheRules
from games.players.poker_holds import standard_hold
from kiosk.table.poker_words import poker_order

from .test_trick_table import tap_card, trick  # noqa: F401


def computer_leads() -> int:
    """A deal where the computer leads and the visitor holds cards of several suits, some
    of which may not follow."""
    for seed in range(1, 200):
        g = FollowTheRules(seed)
        if g.to_move != 1:
            continue
        lead = min(g.hand(1), key=lambda c: C.RANK[c])
        may = {C.SUIT[lead], g.trump}
        mine = g.hand(0)
        if any(C.SUIT[c] == C.SUIT[lead] for c in mine) and \
                any(C.SUIT[c] not in may for c in mine) and C.SUIT[lead] != g.trump:
            return seed
    raise AssertionError("no such deal")


def test_the_suit_led_is_marked_and_the_cards_that_may_not_follow_are_dimmed(trick):  # noqa: F811
    ctl, g = trick.sit("follow_the_rules", computer_leads())
    screen = trick.app.trick_table
    lead = min(g.hand(1), key=lambda c: C.RANK[c])
    assert ctl.play(Move("play", extra=(lead,)), "computer") is None
    screen.refresh()
    trick.frames(1)
    suit, trumps = C.SUIT_SYMBOLS[C.SUIT[lead]], C.SUIT_SYMBOLS[g.trump]
    assert screen.led.text == f"Led: {suit}" and screen.led.opacity == 1
    assert screen.led_frame.opacity == 1
    may = {C.SUIT[lead], g.trump}
    barred = {c for c in g.hand(0) if C.SUIT[c] not in may}
    assert screen.mine.dimmed == barred and barred
    assert (f"Follow {suit} or play a trump ({trumps}). The dimmed cards may not be played."
            in screen.message.text)
    assert screen.message.text.endswith(f"Tip: a higher {suit} or a trump takes the trick.")
    out = next(iter(barred))
    tap_card(trick, out)  # a dimmed card: the engine's reason, and it is not raised
    assert screen.raised == -1
    assert "You must follow suit" in screen.message.text and len(g.history) == 1
    good = next(c for c in g.hand(0) if c not in barred)
    tap_card(trick, good)
    tap_card(trick, good)
    assert len(g.history) == 2 and screen.led.opacity == 0 and not screen.mine.dimmed


def test_with_neither_suit_nor_trump_any_card_may_follow(trick):  # noqa: F811
    app = trick.app
    ctl = app.open_game("follow_the_rules", computer_leads())
    trick.frames(2)
    g = ctl.game
    lead = min(g.hand(1), key=lambda c: C.RANK[c])
    assert ctl.play(Move("play", extra=(lead,)), "computer") is None
    may = {C.SUIT[lead], g.trump}
    other = [c for c in range(52) if C.SUIT[c] not in may and c not in g.hand(1)
             and c != lead and c not in g.cards[g.turned]]
    h0 = g.hands[0]
    g.cards[g.stock] = [c for c in g.cards[g.stock] if c not in other[:6]] + \
        [c for c in g.cards[h0] if c not in other[:6]]
    g.cards[h0] = other[:6]
    screen = app.trick_table
    screen.refresh()
    assert not screen.mine.dimmed
    assert f"You have no {C.SUIT_SYMBOLS[C.SUIT[lead]]} and no trump: play any card." in \
        screen.message.text


def test_the_lead_tip_shows_in_the_first_hand_only(trick):  # noqa: F811
    app = trick.app
    ctl = app.open_game("follow_the_rules", next(s for s in range(1, 50)
                                                  if FollowTheRules(s).to_move == 0))
    trick.frames(2)
    screen = app.trick_table
    tip = "Tip: the higher card of the suit led takes the trick; a trump beats every other suit."
    assert screen.message.text.endswith(tip)
    g = ctl.game
    while g.phase == "lead" or g.phase == "follow":  # the first hand, played out
        ctl.play(g.legal_moves()[0], "touch" if g.to_move == 0 else "computer")
    assert g.phase == "done"
    screen.refresh()
    screen.next_hand()
    trick.until(lambda: g.to_move == 0 and g.phase == "lead", 10)
    screen.refresh()
    assert "follow_the_rules" in app.visit_learnt and tip not in screen.message.text


def visitor_draws(ui, seed: int = 11):
    """A Draw Poker hand played (by the visitor's buttons) to the visitor's draw."""
    app = ui.app
    screen = app.poker
    screen.turns.pause = 0.02
    ctl = app.open_game("draw_poker", seed, {"opponents": 3})
    ui.frames(2)
    g = ctl.game
    for _ in range(60):
        assert ui.until(lambda: g.to_move == 0 or g.phase in ("done", "over"), 10)
        if g.phase == "draw":
            break
        words = {b.text: b for b in screen.actions.children}
        pick = next((b for t, b in words.items()
                     if t.startswith(("Call", "Check", "Open"))), None)
        ui.tap_widget(pick or words["Pass"])
    assert g.phase == "draw" and g.to_move == 0
    return ctl, g, screen


def test_the_first_poker_hand_names_the_cards_to_keep(ui):
    ctl, g, screen = visitor_draws(ui)
    try:
        keep = standard_hold(tuple(g.hand(0)), g.rule)
        cards = " ".join(C.pretty(c) for c in poker_order(keep))
        assert f"Tip: keep {cards} and tap the other cards to exchange them." in \
            screen.message.text
        assert screen.my_hand.text.startswith("Your hand:")  # named (maybe on two lines)
        for card in [c for c in g.hand(0) if c not in keep]:
            ui.tap(*screen.mine.center_of(card))
        assert screen.marked == set(g.hand(0)) - set(keep)
        assert "Tip: keep" in screen.message.text  # still there while choosing
        ui.seasoned("draw_poker")  # a visitor who has played a hand
        screen.refresh()
        assert "Tip:" not in screen.message.text
        assert "Tap the cards you want to exchange, or stand pat." in screen.message.text
    finally:
        screen.turns.pause = 0.8
        ctl.leave("button")
