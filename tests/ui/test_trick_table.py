"""The Follow the Rules table by touch: the visitor plays a trick, the computer answers in
the background and says what it played, and a finished hand explains its points."""

from __future__ import annotations

import pytest

from games.engine import cards as C
from games.follow_the_rules import FollowTheRules
from kiosk.settings import config


@pytest.fixture
def trick(ui):
    screen = ui.app.trick_table
    old = screen.turns.pause
    screen.turns.pause = 0.02  # the pause is for people; the tests need not wait for it
    yield ui
    screen.turns.pause = old


def buttons(ui) -> list[str]:
    return [b.text for b in ui.app.trick_table.actions.children]


def button(ui, text: str):
    for b in ui.app.trick_table.actions.children:
        if b.text == text:
            return b
    raise AssertionError(f"no button {text!r}: {buttons(ui)}")


def tap_card(ui, code: int) -> None:
    ui.tap(*ui.app.trick_table.mine.center_of(code))


def visitor_leads() -> int:
    return next(s for s in range(1, 50) if FollowTheRules(s).to_move == 0)


def test_the_picker_offers_follow_the_rules_now_its_table_plays_it():
    assert config.table_can_play("follow_the_rules")
    assert "follow_the_rules" in config.default_games()


def test_a_visitor_plays_a_trick_by_touch_and_the_computer_says_what_it_played(trick):
    ctl = trick.app.open_game("follow_the_rules", visitor_leads())
    trick.frames(3)
    assert trick.app.sm.current == "trick"
    g = ctl.game
    screen = trick.app.trick_table
    card = sorted(g.hand(0))[0]
    tap_card(trick, card)
    assert screen.raised == card and not g.history  # the first tap only raises it
    assert f"Play the {C.pretty(card)}" in buttons(trick)
    tap_card(trick, card)
    assert g.history and g.history[0].extra == (card,)
    assert trick.until(lambda: len(g.history) >= 2, 10)  # the computer follows
    answer = g.history[1].extra[0]
    assert screen.said[0].startswith("The computer plays the")
    assert C.pretty(answer) in screen.message.text
    assert len(g.hand(0)) == 6 and len(g.hand(1)) == 6  # both drew, the winner first
    # the finished trick stays in the middle until the next lead
    assert [w.code for w in screen.trick] == [card, answer]
    taken = len(g.pile("C1")), len(g.pile("C2"))
    assert screen.taken.text == f"Taken: you {taken[0]} cards, the computer {taken[1]}"


def follow_position(ui):
    """The computer led the 5♣ (trumps hearts); the visitor holds a club, a heart, a spade."""
    ctl = ui.app.open_game("follow_the_rules", visitor_leads())
    ui.frames(2)
    g = ctl.game
    g.cards[g.hands[0]] = [C.parse(t) for t in ("9C", "2H", "KS")]
    g.cards[g.hands[1]] = [C.parse(t) for t in ("3D", "4D")]
    g.cards[g.trick] = [C.parse("5C")]
    g.cards[g.stock], g.cards[g.turned] = [], []
    g.down[g.hands[1]] = 2
    g.vars.update(turn=0, leader=1, phase="follow", trump=C.HEARTS)
    ui.app.trick_table.refresh()
    return g


def test_a_card_that_does_not_follow_gets_the_rules_reason(trick):
    g = follow_position(trick)
    screen = trick.app.trick_table
    spade = C.parse("KS")
    tap_card(trick, spade)
    tap_card(trick, spade)
    assert g.phase == "follow" and spade in g.hand(0)
    assert "You must follow suit with clubs or play a trump (hearts)." in screen.message.text


def play_the_last_trick(ui, mine: str, **vars):
    """A hand's last trick: the visitor leads the A♥ (trumps hearts, the 6♥ turned) against
    the computer's 3♣, having taken ``mine`` earlier, the computer every other card; the
    visitor plays it by two taps. ``vars`` adds to the game's (the scores before it).
    Returns the game and the table."""
    ctl = ui.app.open_game("follow_the_rules", visitor_leads())
    ui.frames(2)
    g = ctl.game
    screen = ui.app.trick_table
    won = [C.parse(t) for t in mine.split()]
    last = (C.parse("AH"), C.parse("3C"))
    rest = [c for c in range(52) if c not in won and c not in last]
    for pile in range(len(g.cards)):
        g.cards[pile], g.down[pile] = [], 0
    g.cards[g.hands[0]], g.cards[g.hands[1]] = [last[0]], [last[1]]
    g.cards[g.captured[0]], g.cards[g.captured[1]] = won, rest
    g.down[g.hands[1]] = 1
    g.vars.update(turn=0, leader=0, phase="lead", trump=C.HEARTS, trump_card=C.parse("6H"),
                  **vars)
    screen.refresh()
    tap_card(ui, last[0])
    tap_card(ui, last[0])
    return g, screen


def test_the_end_of_a_hand_explains_high_low_jack_and_game_one_line_each(trick):
    # the visitor took the other trumps' honours earlier, the computer everything else
    g, screen = play_the_last_trick(trick, "2H JH TC TD TS TH")
    assert trick.until(lambda: g.phase == "done", 10)
    trick.frames(2)
    text = screen.message.text
    for line in ("High (A♥): you", "Low (2♥): you", "Jack (J♥): you",
                 "Game (45 to 35 card points): you", "This hand: you 4, the computer 0."):
        assert line in text, text
    assert g.vars["scores"] == (4, 0)
    trick.tap_widget(button(trick, "Next hand"))
    assert g.vars["hand_no"] == 2 and g.phase in ("lead", "follow")
    assert len(trick.app.lobby.session.play.hands) == 1
