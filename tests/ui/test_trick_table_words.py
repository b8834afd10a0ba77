"""The Follow the Rules table says one thing at a time: a card the rules do not allow is
never raised with a play button (the reason is the only message), and a match's last hand
says which points counted and that the count stopped at the target, in zh, en and ru."""

from __future__ import annotations

import pytest

from games.engine import cards as C
from tests.ui.test_trick_table import (
    button,
    buttons,
    follow_position,
    play_the_last_trick,
    tap_card,
    trick,
)

__all__ = ["trick"]  # the fixture, used by name


def test_a_card_that_may_not_be_played_is_not_raised_and_only_the_reason_is_said(trick):
    g = follow_position(trick)
    screen = trick.app.trick_table
    spade = C.parse("KS")
    tap_card(trick, spade)
    assert screen.raised == -1 and spade in g.hand(0)
    assert screen.message.text == "You must follow suit with clubs or play a trump (hearts)."
    assert buttons(trick) == []  # no gold "Play the K♠"
    # a card that may be played is raised, offered, and the refusal is gone
    club = C.parse("9C")
    tap_card(trick, club)
    assert screen.raised == club and "Tap the card again to play it." in screen.message.text
    assert "You must follow" not in screen.message.text
    assert f"Play the {C.pretty(club)}" in buttons(trick)
    # a raised card, then a tap on one that may not be played: nothing stays raised
    tap_card(trick, spade)
    assert screen.raised == -1 and buttons(trick) == []


#: the last hand's words in each language: Game is the computer's but not counted, the
#: visitor reaches 10 with Jack, the hand counts 3 to 0 and the match ends 10 to 9
END_WORDS = {
    "en": ("Game (5 to 75 card points): the computer, not counted",
           "You reach 10 with Jack; the points after it do not count.",
           "This hand: you 3, the computer 0.", "You win the match, 10 to 9!"),
    "zh": ("局分（牌点 5 比 75）：电脑，不计分", "你靠“杰克”达到 10 分，之后的分不再计算。",
           "本局：你 3 分，电脑 0 分。"),
    "ru": ("Игра (очки карт 5 : 75): компьютер, не засчитана",
           "Вы набираете 10 на Валете; дальше очки не считаются.",
           "За сдачу: вы 3, компьютер 0."),
}


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_the_match_end_says_where_the_count_stopped(trick, lang):
    trick.reset(lang)
    # the last trick: the visitor (at 7) leads the A♥ against the computer's 3♣; the
    # visitor took Low and Jack before, the computer (at 9) nearly every card point
    g, screen = play_the_last_trick(trick, "2H JH 4C", scores=(7, 9))
    assert trick.until(lambda: g.phase == "match", 10)
    trick.frames(2)
    text = screen.message.text
    for line in END_WORDS[lang]:
        assert line in text, text
    assert g.final_scores == (10, 9)
    button(trick, trick.app.tr("New match"))
